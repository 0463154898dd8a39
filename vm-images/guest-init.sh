#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the busybox guest. Runs the test scripts of one suite and reports
# on the second serial port (/dev/ttyS1), leaving ttyS0 to the kernel console:
#
#   SLEEB-BEGIN suite=NAME
#   ok - ... / not ok - ... / # comment       (TAP lines from the scripts)
#   SLEEB-SCRIPT-END NAME rc=N                (one per script)
#   SLEEB-VERDICT done                        (all scripts ran)
#
# The suite comes from the kernel command line: sleeb.suite=NAME runs
# /tests/NAME/*.sh in name order; sleeb.suite=shell gives a shell on ttyS0.
/bin/busybox --install -s /bin
export PATH=/usr/bin:/usr/sbin:/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t tmpfs tmp /tmp
mount -t tmpfs run /run
mount -t debugfs debug /sys/kernel/debug 2>/dev/null
mkdir -p /dev/pts && mount -t devpts pts /dev/pts 2>/dev/null

suite=$(sed -n 's/.*sleeb\.suite=\([^ ]*\).*/\1/p' /proc/cmdline)
if [ "$suite" = shell ] || [ -z "$suite" ]; then
	setsid cttyhack sh
	poweroff -f
fi

exec 3>/dev/ttyS1
echo "SLEEB-BEGIN suite=$suite" >&3
for t in /tests/"$suite"/*.sh; do
	[ -e "$t" ] || { echo "not ok - suite '$suite' has no test scripts" >&3; break; }
	name=${t#/tests/}
	echo "# running $name" >&3
	echo "sleeb: running $name" >/dev/kmsg
	(cd /tmp && sh "$t") >&3 2>&1 </dev/null
	echo "SLEEB-SCRIPT-END $name rc=$?" >&3
done

# A last kmemleak scan, so leaks show up in the console log the host scans.
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	sleep 1
	echo scan >/sys/kernel/debug/kmemleak
fi
echo "SLEEB-VERDICT done" >&3
sync
poweroff -f
