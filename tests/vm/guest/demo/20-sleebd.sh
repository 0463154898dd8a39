# SPDX-License-Identifier: GPL-2.0
# The main job's guest (systemd): sleebd.service tunes the caches from the
# shipped policies, auto-tunes under a hackbench load and backs off when
# idle; sleebctl shows status and health.
. /tests/lib.sh
say() { echo "# $*"; }
tun() { echo "$(cat /sys/kernel/slab/$1/cpu_queue_size)/$(cat /sys/kernel/slab/$1/cpu_batch_size)/$(cat /sys/kernel/slab/$1/shared_queue_size)"; }
ready() { systemctl show -P StatusText sleebd.service | grep -q 'caches under policy'; }
wait_ready() { n=0; while ! ready && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done; }
# The caches a hackbench load goes through (sockets' skb heads and data).
caches="kmalloc-cg-512 kmalloc-cg-1k kmalloc-512 skbuff_head_cache kmalloc-8k"
header() { h="                  "; for c in $caches; do h="$h$(printf ' %-17s' "$c")"; done; say "$h"; }
row() { r=$(printf '%-18s' "$1"); for c in $caches; do r="$r$(printf ' %-17s' "$(tun $c)")"; done; say "$r"; }

wait_ready
say "sleebd.service, started at boot by systemd:"
systemctl status sleebd.service --no-pager -n 0 2>&1 | head -6 | sed 's/^/#   /'
say
say "shipped policies (/usr/lib/sleeb/policy.d):"
for f in /usr/lib/sleeb/policy.d/*.conf; do
	say "  $(basename "$f"): $(grep -E '^(Match|MaxObjectSize|MinObjectSize|AutoTune|CpuQueueSize|SharedQueueSize)=' "$f" | tr '\n' ' ')"
done
say
say "queue/batch/shared per cache:"
header
systemctl stop sleebd.service
row "kernel defaults"
systemctl start sleebd.service
wait_ready
row "shipped policies"
say
say "sleebctl status:"
sleebctl status 2>&1 | head -8 | sed 's/^/#   /'

# Decide every second rather than every 10 s, so the demo is short.
mkdir -p /etc/sleeb/sleebd.conf.d
printf '[Daemon]\nInterval=1s\n' >/etc/sleeb/sleebd.conf.d/demo.conf
systemctl reload sleebd.service
wait_ready
since=$(date '+%Y-%m-%d %H:%M:%S')
say
say "hackbench load on 4 cpus (processes, unix sockets) for 30 s:"
header
( end=$(( $(date +%s) + 30 )); while [ "$(date +%s)" -lt $end ]; do hackbench -g 4 -l 200 -P >/dev/null 2>&1; done ) &
load=$!
for t in 5 10 15 20 25 30; do sleep 5; row "load, ${t}s"; done
wait $load
say "idle:"
for t in 10 20 30 40; do sleep 10; row "idle, ${t}s"; done
say
say "sleebd's auto-tune decisions (journalctl -u sleebd DECISION=autotune-grow / -shrink):"
journalctl -q -u sleebd.service --since "$since" -o cat DECISION=autotune-grow + DECISION=autotune-shrink 2>/dev/null |
	grep -E "^($(echo $caches | tr ' ' '|')):" | head -16 | sed 's/^/#   /'
for k in grow shrink; do
	n=$(journalctl -q -u sleebd.service --since "$since" -o cat DECISION=autotune-$k 2>/dev/null | wc -l)
	say "($n autotune-$k decisions on all caches)"
done
say
say "sleebctl check:"
sleebctl check 2>&1 | head -6 | sed 's/^/#   /'
rm -f /etc/sleeb/sleebd.conf.d/demo.conf
systemctl reload sleebd.service
check "sleebd.service still active" test "$(systemctl is-active sleebd.service)" = active
