# SPDX-License-Identifier: GPL-2.0
# Caches created and destroyed all the time (sleeb_churn: a kernel thread
# that creates four unmergeable caches and one that merges, and destroys
# them again, 0 or about 1 ms apart) while `sleebctl show` and
# `sleebctl check` run 300 times each, and sleebd auto-tunes the
# churned caches every 50 ms. A cache that is gone between /proc/slabinfo
# and its sysfs directory is no longer there: never an error, never
# check's UNKNOWN (exit 3), never a failed scan in sleebd's log.
# CHURN_RUNS (environment) shortens the loop for development.
. /tests/lib.sh
. /tests/vm-daemon/daemon.lib
runs=${CHURN_RUNS:-300}
if ! insmod /lib/modules/sleeb_churn.ko; then
	not_ok "insmod sleeb_churn"
	exit 0
fi
P=/sys/module/sleeb_churn/parameters
setup_root d-churn
daemon_conf <<'P'
[Daemon]
Interval=50ms
P
policy 50-churn.conf <<'P'
[Cache]
Match=sleeb_churn_*
AutoTune=yes
P
if start_daemon --debug; then ok "sleebd starts"; else not_ok "sleebd starts"; show_log; fi
echo 1 >$P/run
expect_eq "the churn thread runs" 1 "$(cat $P/run)"
c0=$(cat $P/cycles)

show_fail=0 check_unknown=0 i=0 seen=0
first_show='' first_check=''
while [ $i -lt "$runs" ]; do
	if ! sleebctl show >/tmp/churn.out 2>&1; then
		show_fail=$((show_fail + 1))
		[ -n "$first_show" ] || first_show=$(tail -1 /tmp/churn.out)
	fi
	grep -q '^sleeb_churn_' /tmp/churn.out && seen=$((seen + 1))
	sleebctl check >/tmp/churn.out 2>&1
	if [ $? -eq 3 ]; then
		check_unknown=$((check_unknown + 1))
		[ -n "$first_check" ] || first_check=$(head -1 /tmp/churn.out)
	fi
	i=$((i + 1))
done
c1=$(cat $P/cycles)
echo 0 >$P/run
echo "# $runs shows and checks during $((c1 - c0)) create/destroy cycles; churned caches in $seen shows"
[ -z "$first_show" ] || echo "# first show failure: $first_show"
[ -z "$first_check" ] || echo "# first check UNKNOWN: $first_check"
check "the caches churned meanwhile ($((c1 - c0)) cycles)" test $((c1 - c0)) -gt 100
expect_eq "sleebctl show never failed (of $runs)" 0 $show_fail
expect_eq "sleebctl check never said UNKNOWN (of $runs)" 0 $check_unknown
check "sleebd still running" kill -0 $PID
expect_eq "sleebd never failed a scan" 0 "$(count_log 'cannot read caches')"
grep 'cannot read caches' "$LOG" | head -3 | sed 's/^/#   log: /'
stop_daemon
expect_eq "SIGTERM: exit status 0" 0 "$RC"
rmmod sleeb_churn
check "no churned cache is left" sh -c "! grep -q '^sleeb_churn_' /proc/slabinfo"
