# SPDX-License-Identifier: GPL-2.0
# Helpers for guest test scripts (busybox sh). Each test point is one TAP
# line; the host harness numbers them. Source as: . /tests/lib.sh
ok() { echo "ok - $*"; }

not_ok() { echo "not ok - $*"; }

# has_queues CACHE: CACHE exists and has object queues now (not a
# slub_debug cache, whose tunables refuse every write with EOPNOTSUPP).
has_queues() {
	[ -r "/sys/kernel/slab/$1/cpu_queue_size" ] &&
		[ "$(cat "/sys/kernel/slab/$1/cpu_queue_size")" != 0 ]
}

# queues_on: this kernel has object queues and they are on (not a
# vanilla kernel, not slub_queues=off).
queues_on() {
	[ -r /sys/kernel/slab/kmalloc-64/queue_stats ] && has_queues kmalloc-64
}

# queue_stat CACHE COUNTER: one counter of CACHE's queue_stats (nothing
# when the cache or the counter does not exist).
queue_stat() {
	sed -n "s/^$2 //p" "/sys/kernel/slab/$1/queue_stats" 2>/dev/null
}

# check DESC CMD...: one test point, passing when CMD exits 0; its output is
# kept as TAP comments when it fails.
check() {
	_desc=$1
	shift
	if "$@" >/tmp/check.out 2>&1; then
		ok "$_desc"
	else
		not_ok "$_desc"
		sed 's/^/#   /' /tmp/check.out
	fi
}

# expect_eq DESC EXPECTED ACTUAL
expect_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "#   expected '$2', got '$3'"
	fi
}

# kunit_run MODULE [PARAM=VALUE...]: load a KUnit test module and report each
# of its cases as a test point, from the KTAP it prints to the kernel log. A
# module that reports nothing is a failure.
kunit_run() {
	_mod=$1
	shift
	dmesg -c >/dev/null
	if ! insmod "/lib/modules/$_mod.ko" "$@"; then
		not_ok "kunit $_mod: insmod failed"
		return
	fi
	dmesg | sed 's/^\[[^]]*\] //' >/tmp/kunit.log
	_suite=$(sed -n 's/^ *# Subtest: //p' /tmp/kunit.log | head -1)
	_cases=$(grep -cE '^    (not )?ok [0-9]+ ' /tmp/kunit.log)
	if [ "$_cases" -eq 0 ]; then
		not_ok "kunit $_mod: no test results in the kernel log"
		sed 's/^/#   /' /tmp/kunit.log | tail -20
		return
	fi
	grep -E '^    (not )?ok [0-9]+ ' /tmp/kunit.log | while read -r _a _b _c _d; do
		if [ "$_a" = ok ]; then
			# "ok N name [# SKIP ...]"
			ok "kunit $_suite.$_c${_d:+ $_d}"
		else
			not_ok "kunit $_suite.$_d"
		fi
	done
	if grep -qE "^ok [0-9]+ $_suite\$" /tmp/kunit.log; then
		ok "kunit $_suite: suite passed ($_cases cases; $(grep -m1 "# $_suite: pass" /tmp/kunit.log | sed 's/^# //'))"
	else
		not_ok "kunit $_suite: suite failed"
		grep -E 'Expected|ASSERT|EXPECT|# ' /tmp/kunit.log | head -20 | sed 's/^/#   /'
	fi
	rmmod "$_mod" 2>/dev/null
}
