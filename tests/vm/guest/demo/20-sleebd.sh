# SPDX-License-Identifier: GPL-2.0
# The main job's guest (systemd): sleebd.service tunes the caches from the
# shipped policies and, with the shipped sleebd.conf, auto-tunes under a
# hackbench load and keeps what it learned when idle; sleebctl shows
# status and health.
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

# The decisions below are taken with the shipped sleebd.conf: no
# demo-only setting. The decision reads trips per operation, which the
# guest's slower clock does not change.
say
say "the configuration the decisions below were taken with (sleebctl status):"
sleebctl status 2>&1 | sed -n '2,3p' | sed 's/^/#   /'
# Rows are labelled with the guest's clock, not counted in sleeps: under
# hackbench a row itself takes seconds of this emulated guest.
up() { s=$(cut -d' ' -f1 /proc/uptime); echo "${s%.*}"; }
since=$(date '+%Y-%m-%d %H:%M:%S')
say
say "hackbench load (2 groups of 10 sender and 10 receiver processes, unix sockets) for 30 s:"
header
timeout 30 hackbench -g 2 -f 10 -l 10000000 -P >/dev/null 2>&1 &
load=$!
t0=$(up)
while kill -0 $load 2>/dev/null; do
	sleep 5
	if kill -0 $load 2>/dev/null; then row "load, $(($(up) - t0))s"; fi
done
wait $load
ended=$(date +%s.%N)
t1=$(up)
say "idle (hackbench ended $((t1 - t0))s after it started):"
for t in 10 20 30 40; do
	while [ $(($(up) - t1)) -lt $t ]; do sleep 1; done
	row "idle, $(($(up) - t1))s"
done
say
# The auto-tune changes since the load started, one line each:
# "grow|shrink EPOCH HOST sleebd[PID]: CACHE: queue/batch/shared ..."
for k in grow shrink; do
	journalctl -q -u sleebd.service --since "$since" -o short-unix DECISION=autotune-$k 2>/dev/null | sed "s/^/$k /"
done >/tmp/decisions.txt
say "sleebd's auto-tune decisions on these caches (journalctl -u sleebd DECISION=autotune-grow / -shrink):"
sort -k2,2n /tmp/decisions.txt | cut -d' ' -f5- | grep -E "^($(echo $caches | tr ' ' '|')):" | head -16 | sed 's/^/#   /'
say
say "auto-tune decisions per cache, while hackbench ran and after it (caches that grew, and the table's):"
fmt='  %-24s %11s %11s %11s %11s'
say "$(printf "$fmt" cache grow/load shrink/load grow/idle shrink/idle)"
# count: "CACHE KIND WHEN" per decision; WHEN is load until hackbench ended
count() { awk -v end="$ended" '{ c = $5; sub(/:$/, "", c); print c, $1, ($2 < end ? "load" : "idle") }' /tmp/decisions.txt; }
for c in $( (count | awk '$2 == "grow" { print $1 }'; echo $caches | tr ' ' '\n') | sort -u); do
	say "$(printf "$fmt" "$c" $(for k in "grow load" "shrink load" "grow idle" "shrink idle"; do
		count | grep -c "^$c $k\$"; done))"
done
say "$(printf "$fmt" "all $(count | cut -d' ' -f1 | sort -u | wc -l) caches" $(for k in "grow load" "shrink load" "grow idle" "shrink idle"; do
	count | grep -c " $k\$"; done))"
say "(a quiet cache is not shrunk: the reaper gives its objects back; sizes shrink only for memory, the budget or the reaper)"
say
say "sleebctl check:"
sleebctl check 2>&1 | head -6 | sed 's/^/#   /'
check "sleebd grew a cache under hackbench with the shipped settings" test "$(count | grep -c ' grow load$')" -gt 0
check "sleebd.service still active" test "$(systemctl is-active sleebd.service)" = active
