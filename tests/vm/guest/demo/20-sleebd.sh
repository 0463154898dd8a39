# SPDX-License-Identifier: GPL-2.0
# The main job's guest (systemd): sleebd.service tunes the caches from the
# shipped policies, auto-tunes under a hackbench load and backs off when
# idle; sleebctl shows status and health.
. /tests/lib.sh
say() { echo "# $*"; }
tun() { echo "$(cat /sys/kernel/slab/$1/cpu_queue_size)/$(cat /sys/kernel/slab/$1/cpu_batch_size)/$(cat /sys/kernel/slab/$1/shared_queue_size)"; }
ready() { systemctl show -P StatusText sleebd.service | grep -q 'caches under policy'; }
wait_ready() { n=0; while ! ready && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done; }
# The caches a hackbench load goes through (sockets' skb data and heads),
# two that sit idle, and one under a static policy.
caches="kmalloc-cg-512 skbuff_head_cache kmalloc-512 kmalloc-64 kmalloc-8k"
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

# Decide every second, so the demo is short, and scale the auto-tune marks
# to this guest: under TCG it runs some 50 times slower than hardware, so
# the refill rates of a busy cache are that much lower (sleebd.conf(5)).
mkdir -p /etc/sleeb/sleebd.conf.d
printf '[Daemon]\nInterval=1s\nAutoTuneGrowRate=200\nAutoTuneIdleFlow=20\n' >/etc/sleeb/sleebd.conf.d/demo.conf
say
say "for the demo, /etc/sleeb/sleebd.conf.d/demo.conf:"
sed 's/^/#   /' /etc/sleeb/sleebd.conf.d/demo.conf
systemctl reload sleebd.service
wait_ready
since=$(date '+%Y-%m-%d %H:%M:%S')
say
say "hackbench load (2 groups of 10 sender and 10 receiver processes, unix sockets) for 30 s:"
header
timeout 30 hackbench -g 2 -f 10 -l 10000000 -P >/dev/null 2>&1 &
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
