# SPDX-License-Identifier: GPL-2.0
# A cache created by a module is tuned within 100 ms of its KOBJ_ADD
# uevent (the rescan interval is 30 s, so only the uevent path can do it).
# uevent-latency takes the time the uevent arrives and polls the new
# cache's cpu_queue_size until it shows the policy's value.
. /tests/lib.sh
. /tests/vm-daemon/daemon.lib
C=sleeb_uevent_test D=sleeb_debug_test
setup_root d-uevent
daemon_conf <<'P'
[Daemon]
Interval=30s
P
policy 50-test-caches.conf <<'P'
[Cache]
Match=sleeb_*_test
CpuQueueSize=77
CpuBatchSize=11
SharedQueueSize=33
P
rmmod sleeb_test_caches 2>/dev/null
# The kernel's defaults for $C, read with no daemon running.
insmod /lib/modules/sleeb_test_caches.ko
def=$(tun $C)
rmmod sleeb_test_caches
echo "# $C kernel defaults: $def"
if start_daemon; then ok "sleebd starts"; else not_ok "sleebd starts"; show_log; fi

# Let the daemon's startup settle, then measure.
measure() { # measure LABEL: insmod under uevent-latency, print the µs
	rm -f /tmp/lat.out
	uevent-latency $C cpu_queue_size 77 10 >/tmp/lat.out &
	_lp=$!
	_n=50
	while ! grep -q ready /tmp/lat.out 2>/dev/null && [ $_n -gt 0 ]; do sleep 0.1; _n=$((_n - 1)); done
	insmod /lib/modules/sleeb_test_caches.ko
	wait $_lp
	_rc=$?
	echo "# $1: $(tail -1 /tmp/lat.out)" >&2
	[ $_rc = 0 ] && sed -n 's/^latency_us \([0-9]*\).*/\1/p' /tmp/lat.out
}
us=$(measure "first load")
if [ -n "$us" ]; then
	echo "# uevent-to-tuned latency: $us us"
	check "new cache tuned within 100 ms of its uevent ($us us)" test "$us" -le 100000
else
	not_ok "new cache tuned within 100 ms of its uevent (never tuned)"
fi
expect_eq "$C: all three values in sysfs" "77 11 33" "$(tun $C)"
expect_eq "$C: /proc/slabinfo (sharedfactor 3)" "77 11 3" "$(slabinfo_tunables $C)"
check "log says the uevent did it" grep -qF "$C: queue/batch/shared $(echo $def | tr ' ' /) -> 77/11/33 (new cache (uevent), policy" "$LOG"
check "state file records $C's originals" grep -qx "$C $def" "$ROOT/run/sleeb/state"
# The debug cache cannot queue: a refusal logged once, no crash.
expect_eq "$D (red zones) still has no queue" "0 0 0" "$(tun $D)"
check "the refusal for $D is logged" grep -q "$D" "$LOG"
check "sleebd survives a cache the kernel refuses to tune" kill -0 $PID

rmmod sleeb_test_caches
wait_log "never" 10  # give the KOBJ_REMOVE a moment (1 s)
check "a destroyed cache leaves the state file" sh -c "! grep -q '^$C ' $ROOT/run/sleeb/state 2>/dev/null"
us=$(measure "second load")
[ -n "$us" ] && echo "# uevent-to-tuned latency, re-created cache: $us us"
check "a re-created cache is tuned again within 100 ms (${us:-never})" test "${us:-999999}" -le 100000
check "sleebd still running" kill -0 $PID
stop_daemon
expect_eq "SIGTERM: exit status 0" 0 "$RC"
expect_eq "$C back to the kernel default after SIGTERM" "$def" "$(tun $C)"
rmmod sleeb_test_caches
