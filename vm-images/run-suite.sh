#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run the test scripts of one guest suite and report on the second serial
# port (/dev/ttyS1), leaving ttyS0 to the kernel console. Shared by both
# guests: the busybox guest's /init and the systemd guest's
# sleeb-guest-tests.service. The host harness (tests/vm/harness.sh) reads:
#
#   SLEEB-BEGIN suite=NAME
#   ok - ... / not ok - ... / # comment       (TAP lines from the scripts)
#   SLEEB-SCRIPT-END NAME rc=N                (one per script)
#   SLEEB-VERDICT done                        (all scripts ran)
#
#   run-suite.sh SUITE      runs /tests/SUITE/*.sh in name order
#
# The caller powers the guest off afterwards.
suite=${1:?usage: run-suite.sh SUITE}

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

# A last kmemleak scan, so leaks show up in the console log the host scans,
# with the report (what leaked, allocated where) for whoever reads it.
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	sleep 1
	echo scan >/sys/kernel/debug/kmemleak
	head -n 80 /sys/kernel/debug/kmemleak | while IFS= read -r line; do
		echo "sleeb: kmemleak report: $line" >/dev/kmsg
	done
fi
echo "SLEEB-VERDICT done" >&3
sync
