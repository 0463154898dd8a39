#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Bugs committed on purpose (kernel/modules/sleeb_provoke) that the kernel
# must report; the host harness requires each report, matched exactly, and
# still fails on any other:
#  - an object leaked right after it left a cpu queue, whose array keeps a
#    stale pointer to it: kmemleak must see the leak (debug kernels);
#  - a double free of the object on top of a cpu queue: refused and
#    reported (KASAN reports it first on sleeb-debug).
. /tests/lib.sh
K=/sys/kernel/debug/kmemleak
what=double_free
[ -w $K ] && what=leak,double_free
dmesg -c >/dev/null
check "sleeb_provoke what=$what loads" insmod /lib/modules/sleeb_provoke.ko what=$what
dmesg | sed 's/^\[[^]]*\] //' >/tmp/provoke.log
sed 's/^/#   /' /tmp/provoke.log | grep sleeb_provoke
# Tell the host which reports to expect (read from the console log later).
sed -n 's/^sleeb_provoke: expect \([0-9][0-9]*\) \(.*\)$/SLEEB-EXPECT-SPLAT \1 \2/p' /tmp/provoke.log
check "the double free was committed" grep -q "sleeb_provoke: freed an object twice" /tmp/provoke.log
case $what in *leak*)
	# kmemleak reports objects at least 5 s old.
	sleep 6
	echo scan >$K
	sleep 1
	echo scan >$K
	check "kmemleak reports the object leaked from a cpu queue" grep -q provoke_leak $K
	head -n 20 $K | sed 's/^/#   kmemleak: /'
	echo clear >$K
	;;
*) ok "# SKIP kmemleak leak test: no kmemleak in this kernel" ;;
esac
