# SPDX-License-Identifier: GPL-2.0
# sleebctl on the real kernel (issue 6, guest part): set/get round trip
# visible in sysfs and /proc/slabinfo, a kernel-rejected value reported
# with its errno and rolled back, and check's exit code.
. /tests/lib.sh
. /tests/vm-daemon/daemon.lib
C=kmalloc-32
orig=$(tun $C)
echo "# $C originals: $orig"
sleebctl set $C --queue 64 --batch 16 --shared 128 >/tmp/set.out 2>&1
expect_eq "sleebctl set exits 0" 0 $?
sed 's/^/#   set: /' /tmp/set.out
expect_eq "set visible in sysfs" "64 16 128" "$(tun $C)"
expect_eq "set visible in /proc/slabinfo (sharedfactor 8)" "64 16 8" "$(slabinfo_tunables $C)"
sleebctl get $C >/tmp/get.out 2>&1
expect_eq "sleebctl get exits 0" 0 $?
sed 's/^/#   get: /' /tmp/get.out
check "get shows cpu_queue_size 64" grep -qE '^ +cpu_queue_size +64$' /tmp/get.out
check "get shows cpu_batch_size 16" grep -qE '^ +cpu_batch_size +16$' /tmp/get.out
check "get shows shared_queue_size 128" grep -qE '^ +shared_queue_size +128$' /tmp/get.out
check "get --json agrees" sh -c "sleebctl get --json $C | grep -q '\"cpu_queue_size\":64,\"cpu_batch_size\":16,\"shared_queue_size\":128'"
check "show lists the new values" sh -c "sleebctl show $C | grep -q ' 64 '"
# Shrinking below the current batch needs the batch first: sleebctl orders the writes.
sleebctl set $C --queue 8 --batch 4 --shared 0 >/tmp/set.out 2>&1
expect_eq "sleebctl set to a smaller queue exits 0" 0 $?
expect_eq "smaller queue in sysfs" "8 4 0" "$(tun $C)"

# The kernel refuses queues on a debug cache (EOPNOTSUPP).
insmod /lib/modules/sleeb_test_caches.ko
D=sleeb_debug_test
sleebctl set $D --queue 64 --batch 16 >/tmp/set.out 2>&1
rc=$?
sed 's/^/#   set: /' /tmp/set.out
expect_eq "set on a cache the kernel refuses exits 1" 1 $rc
check "the kernel's errno is reported" grep -q "Operation not supported" /tmp/set.out
# The three sizes go in one write to queue_sizes, which the kernel takes
# whole or not at all: nothing was written, so nothing is rolled back.
one_write_refused() {
	grep -q "$D/queue_sizes: 64 16 0: Operation not supported" /tmp/set.out &&
		! grep -q "rolled back" /tmp/set.out
}
check "the refusal names queue_sizes and leaves nothing to roll back" one_write_refused
expect_eq "nothing changed on $D" "0 0 0" "$(tun $D)"
# Several caches: each is set on its own; one refusal fails the command
# without undoing the caches that were set.
U=sleeb_uevent_test
uorig=$(tun $U)
sleebctl set $U $D --queue 200 --batch 100 >/tmp/set.out 2>&1
rc=$?
sed 's/^/#   set: /' /tmp/set.out
expect_eq "set on a good and a refused cache exits 1" 1 $rc
expect_eq "the good cache is set" "200 100 $(echo $uorig | cut -d' ' -f3)" "$(tun $U)"
expect_eq "the refused cache is unchanged" "0 0 0" "$(tun $D)"
rmmod sleeb_test_caches

set -- $orig
sleebctl set $C --queue $1 --batch $2 --shared $3 >/dev/null 2>&1
expect_eq "restored with sleebctl set" "$orig" "$(tun $C)"

sleebctl check >/tmp/check.txt 2>&1
rc=$?
sed 's/^/#   check: /' /tmp/check.txt
check "sleebctl check exit code is a monitoring-plugin code (0..3): $rc" test $rc -ge 0 -a $rc -le 3
check "sleebctl check prints one status line" grep -qE '^SLEEB (OK|WARNING|CRITICAL|UNKNOWN)' /tmp/check.txt
sleebctl check --json >/tmp/check.json 2>&1
rc2=$?
check "sleebctl check --json gives the same exit code ($rc2)" test $rc2 -eq $rc
check "sleebctl check --json is an object" grep -q '^{' /tmp/check.json
