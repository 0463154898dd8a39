# SPDX-License-Identifier: GPL-2.0
# The main job's guest: sleebd tunes the caches from the shipped policies
# (/usr/lib/sleeb/policy.d), auto-tunes under an allocation storm and backs
# off when idle; sleebctl shows status and health; SIGTERM restores.
. /tests/lib.sh
command -v sleebd >/dev/null || { echo "# sleebd is not in the image"; exit 0; }
say() { echo "# $*"; }
tun() { echo "$(cat /sys/kernel/slab/$1/cpu_queue_size)/$(cat /sys/kernel/slab/$1/cpu_batch_size)/$(cat /sys/kernel/slab/$1/shared_queue_size)"; }
caches="kmalloc-64 kmalloc-256 kmalloc-1k kmalloc-4k kmalloc-8k"
row() { r="$1:"; for c in $caches; do r="$r  $c=$(tun $c)"; done; say "$r"; }

say "shipped policies:"
for f in /usr/lib/sleeb/policy.d/*.conf; do say "  $f: $(grep -E '^(Match|AutoTune|CpuQueueSize|SharedQueueSize)=' "$f" | tr '\n' ' ')"; done
mkdir -p /etc/sleeb/sleebd.conf.d
printf '[Daemon]\nInterval=500ms\n' >/etc/sleeb/sleebd.conf.d/demo.conf
say "queue/batch/shared per cache"
row "before sleebd   "
sleebd >/tmp/sleebd.log 2>&1 &
pid=$!
n=0
while ! grep -q 'caches under policy' /tmp/sleebd.log && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
row "policies applied"
say "sleebctl status:"
sleebctl status 2>&1 | head -12 | sed 's/^/#   /'
say "allocation storm on every cpu for 20 s (sleeb_stress):"
insmod /lib/modules/sleeb_stress.ko duration_s=20 &
storm=$!
for t in 5 10 15 20; do sleep 5; row "storm, ${t}s      "; done
wait $storm # not sleebd, which runs on
rmmod sleeb_stress
for t in 5 10 15; do sleep 5; row "idle, ${t}s       "; done
say "sleebd decisions (from its log):"
grep -E 'auto|grow|shrink' /tmp/sleebd.log | grep -E 'kmalloc-(64|256|1k|4k|8k) ' | head -12 | sed 's/^/#   /'
say "sleebctl check:"
sleebctl check 2>&1 | head -5 | sed 's/^/#   /'
kill -TERM $pid
wait $pid
check "sleebd stopped cleanly" test $? -eq 0
row "after SIGTERM    "
