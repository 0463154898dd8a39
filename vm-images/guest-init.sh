#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the busybox guest: mounts the API file systems, runs the test
# scripts of one suite (run-suite.sh, which reports on /dev/ttyS1) and powers
# off. The suite comes from the kernel command line: sleeb.suite=NAME runs
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

sh /run-suite.sh "$suite"
poweroff -f
