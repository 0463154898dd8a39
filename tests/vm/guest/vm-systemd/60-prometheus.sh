# SPDX-License-Identifier: GPL-2.0
# The node_exporter textfile export: with PrometheusTextfile= in Debian's
# textfile directory, sleebd writes a file that promtool accepts and whose
# values are the kernel's.
. /tests/lib.sh
. /tests/vm-systemd/systemd.lib
D=/var/lib/prometheus/node-exporter
F=$D/sleeb.prom
mkdir -p $D /etc/sleeb/sleebd.conf.d
printf '[Daemon]\nInterval=1s\nPrometheusTextfile=%s\n' $F >/etc/sleeb/sleebd.conf.d/60-prometheus.conf
# A restart, not a reload: the sandbox's writable paths are set up at start.
check "systemctl restart sleebd with PrometheusTextfile=$F" systemctl restart sleebd.service
wait_for 300 ready
if wait_for 100 test -s $F; then ok "textfile written"; else not_ok "textfile written"; show_journal; fi
echo "# $(wc -l <$F) lines, $(grep -c '^# TYPE' $F) metrics; sample:"
grep -v '^#' $F | awk '!seen[$1 ~ /{/ ? substr($1, 1, index($1, "{")) : $1]++' | head -20 | sed 's/^/#   /'
expect_eq "textfile mode 0644 (node_exporter runs unprivileged)" 644 "$(stat -c %a $F)"
check "no temporary file left beside it" sh -c "! ls $D | grep -v '^sleeb.prom\$'"
promtool check metrics <$F >/tmp/promtool.out 2>&1
rc=$?
sed 's/^/#   promtool: /' /tmp/promtool.out | head -20
check "promtool check metrics accepts it (exit $rc)" test $rc -eq 0

# Values match the kernel's: tunables from sysfs, objects from slabinfo.
# Take a cache sleebd does not auto-tune, so nothing moves in between.
C=kmalloc-8k
val() { sed -n "s/^$1{cache=\"$C\"} //p" $F; }
sleep 2 # one more interval: the file reflects the state after any change
expect_eq "sleeb_cpu_queue_size{cache=$C} = sysfs" "$(cat /sys/kernel/slab/$C/cpu_queue_size)" "$(val sleeb_cpu_queue_size)"
expect_eq "sleeb_cpu_batch_size{cache=$C} = sysfs" "$(cat /sys/kernel/slab/$C/cpu_batch_size)" "$(val sleeb_cpu_batch_size)"
expect_eq "sleeb_shared_queue_size{cache=$C} = sysfs" "$(cat /sys/kernel/slab/$C/shared_queue_size)" "$(val sleeb_shared_queue_size)"
total=$(awk -v c=$C '$1 == c { print $3 }' /proc/slabinfo)
got=$(val sleeb_total_objects)
echo "# $C total objects: /proc/slabinfo $total, textfile $got (one interval apart)"
check "sleeb_total_objects{cache=$C} matches /proc/slabinfo (within 10%)" \
	awk -v a="$got" -v b="$total" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= (b / 10 > 16 ? b / 10 : 16)) }'
check "the daemon's metrics are there (decisions, last apply)" sh -c "grep -q '^sleeb_decisions_total' $F && grep -q '^sleeb_last_apply_timestamp_seconds' $F"

rm -f /etc/sleeb/sleebd.conf.d/60-prometheus.conf
systemctl restart sleebd.service
wait_for 300 ready
