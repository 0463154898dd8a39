#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Upstream's lib/test_meminit.c (kernel/configs/test-modules.config) on a
# boot with init_on_free=1 init_on_alloc=0 (vm-kernel-sleeb-init-on-free,
# vm-kernel-VARIANT-meminit): it checks that freed memory comes back
# zeroed, kmem_cache_alloc_bulk()'s objects included, which is where a
# refill once left SLUB's free pointer in queued objects (issue 30, 1.3).
# The guest config zeroes on allocation by default
# (CONFIG_INIT_ON_ALLOC_DEFAULT_ON), which would hide exactly that: the
# boot turns it off, and the console must say so. First of its suite, so
# that the boot's messages are still in the kernel log.
. /tests/lib.sh
case " $(cat /proc/cmdline) " in
*" init_on_free=1 "*) ;;
*) ok "# SKIP test_meminit: not booted with init_on_free=1 init_on_alloc=0"; exit 0 ;;
esac
heap=$(dmesg | sed -n 's/^\[[^]]*\] mem auto-init: \(.*heap.*\)/\1/p' | head -1)
case "$heap" in
*"heap alloc:off, heap free:on"*) ok "console: mem auto-init: $heap" ;;
*) not_ok "console says 'heap alloc:off, heap free:on' (init_on_alloc=0 init_on_free=1), not: '${heap:-no mem auto-init line}'" ;;
esac

[ -e /lib/modules/test_meminit.ko ] || {
	not_ok "test_meminit: no /lib/modules/test_meminit.ko (CONFIG_TEST_MEMINIT=m, kernel/configs/test-modules.config)"
	exit 0
}
dmesg -c >/dev/null
insmod /lib/modules/test_meminit.ko
rc=$?
# Only the first run: busybox's insmod loads the module again when the
# first load fails.
dmesg | sed -n 's/^\[[^]]*\] test_meminit: //p' |
	awk '{ print } /^(all [0-9]+ tests passed!|failures: [0-9]+ out of [0-9]+)$/ { exit }' >/tmp/meminit.log
sed 's/^/# test_meminit: /' /tmp/meminit.log
while IFS= read -r line; do
	case "$line" in
	"all "*" tests in "*" passed") ok "test_meminit: $line" ;;
	*" failed "*" out of "*" times") not_ok "test_meminit: $line" ;;
	esac
done </tmp/meminit.log
result=$(tail -1 /tmp/meminit.log)
case "$result" in
"all "*" tests passed!")
	if [ $rc = 0 ]; then ok "test_meminit: $result"; else not_ok "test_meminit: $result, but insmod failed ($rc)"; fi
	;;
"failures: "*) not_ok "test_meminit: $result" ;;
*) not_ok "test_meminit: no result line (all N tests passed! / failures: N out of M) in the kernel log; insmod status $rc" ;;
esac
rmmod test_meminit 2>/dev/null
exit 0
