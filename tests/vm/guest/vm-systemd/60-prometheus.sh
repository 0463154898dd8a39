# SPDX-License-Identifier: GPL-2.0
# The node_exporter textfile export: with PrometheusTextfile= in Debian's
# textfile directory, sleebd writes a file that promtool accepts and whose
# values are the kernel's, and the guest's node_exporter serves them on
# http://localhost:9100/metrics.
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

# A real node_exporter (Debian's prometheus-node-exporter, installed and
# enabled by vm-images/debian-rootfs.sh with its textfile collector on $D)
# serves the same families, values unchanged, to a scrape.
N=/tmp/node-exporter.metrics
scrape() { curl -sf --max-time 30 http://localhost:9100/metrics >$N; }
check "prometheus-node-exporter.service is active" wait_for 600 systemctl is-active --quiet prometheus-node-exporter.service
if wait_for 600 scrape; then ok "GET http://localhost:9100/metrics"; else not_ok "GET http://localhost:9100/metrics"; fi
echo "# scrape: $(wc -l <$N) lines, $(grep -c '^# TYPE sleeb_' $N) sleeb_* families; textfile collector:"
grep -E '^node_textfile_(scrape_error|mtime_seconds)' $N | sed 's/^/#   /'
expect_eq "node_textfile_scrape_error = 0" 0 "$(sed -n 's/^node_textfile_scrape_error //p' $N)"
grep '^# TYPE sleeb_' $F | sort >/tmp/families.file
grep '^# TYPE sleeb_' $N | sort >/tmp/families.scrape
check "every sleeb_* family of the textfile is in the scrape ($(wc -l </tmp/families.file) of them)" \
	sh -c 'test -s /tmp/families.file && diff /tmp/families.file /tmp/families.scrape'
# node_exporter prints values as Go floats (1e+06 style past six digits):
# compare numbers, not strings.
nval() { sed -n "s/^$1{cache=\"$C\"} //p" $N; }
num_eq() { awk -v a="$2" -v b="$3" 'BEGIN { exit !(a != "" && b != "" && a + 0 == b + 0) }' || { echo "# $1: sysfs '$2', scrape '$3'"; return 1; }; }
for t in cpu_queue_size cpu_batch_size shared_queue_size; do
	check "scraped sleeb_$t{cache=$C} = sysfs" num_eq $t "$(cat /sys/kernel/slab/$C/$t)" "$(nval sleeb_$t)"
done
total=$(awk -v c=$C '$1 == c { print $3 }' /proc/slabinfo)
got=$(nval sleeb_total_objects)
check "scraped sleeb_total_objects{cache=$C} matches /proc/slabinfo (within 10%: $got, $total)" \
	awk -v a="$got" -v b="$total" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= (b / 10 > 16 ? b / 10 : 16)) }'

rm -f /etc/sleeb/sleebd.conf.d/60-prometheus.conf
systemctl restart sleebd.service
wait_for 300 ready
