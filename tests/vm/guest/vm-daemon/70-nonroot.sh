# SPDX-License-Identifier: GPL-2.0
# The control socket is root only: anybody may connect (mode 0666), and a
# client running as nobody is refused by the daemon's SO_PEERCRED check,
# which tells it so ("permission denied: root only").
. /tests/lib.sh
. /tests/vm-daemon/daemon.lib
setup_root d-nonroot
SOCK=$ROOT/run/sleeb/sleebd.sock
daemon_conf <<'P'
[Daemon]
Interval=30s
P
policy 50-x.conf <<'P'
[Cache]
Match=kmalloc-16
CpuQueueSize=100
P
if start_daemon; then ok "sleebd starts"; else not_ok "sleebd starts"; show_log; fi
expect_eq "socket is mode 0666" "srw-rw-rw-" "$(ls -l $SOCK | cut -c1-10)"
check "run-as-nobody runs as uid 65534" test "$(run-as-nobody id -u)" = 65534
check "sleebctl status as root works" sleebctl status --config-root "$ROOT"

run-as-nobody sleebctl status --config-root "$ROOT" >/tmp/nobody.out 2>&1
rc=$?
sed 's/^/#   nobody: /' /tmp/nobody.out
check "sleebctl status as nobody fails (exit $rc)" test $rc -ne 0
check "... with permission denied" grep -qi "permission denied" /tmp/nobody.out
check "... and not 'is sleebd running?'" sh -c "! grep -q 'is sleebd running' /tmp/nobody.out"
check "... and shows no status" sh -c "! grep -q 'Policy files' /tmp/nobody.out"

for cmd in status reload; do
	run-as-nobody sleebctl $cmd --config-root "$ROOT" >/tmp/nobody.out 2>&1
	rc=$?
	sed 's/^/#   nobody: /' /tmp/nobody.out
	check "sleebctl $cmd as nobody fails (exit $rc)" test $rc -ne 0
	check "... refused by sleebd: root only" grep -q "sleebd: permission denied: root only" /tmp/nobody.out
done
check "... and shows no status" sh -c "! grep -q 'Policy files' /tmp/nobody.out"
check "sleebd logs the refusal with the uid" grep -q "refused client (uid 65534)" "$LOG"
check "sleebd still running" kill -0 $PID
check "root still served after refusals" sleebctl status --config-root "$ROOT"
stop_daemon
expect_eq "SIGTERM: exit status 0" 0 "$RC"
check "socket removed on exit" test ! -e $SOCK
