# SPDX-License-Identifier: GPL-2.0
# The int3 question (tools/int3-evidence.sh, docs/int3-oops.md): load
# sleeb_keyflip with the key= and flips= given on the kernel command line
# as sleeb_keyflip.key= and sleeb_keyflip.flips=. An "Oops: int3" while it
# runs ends the boot; the host reads the answer from the console log.
. /tests/lib.sh
arg() { sed -n "s/.*sleeb_keyflip\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
key=$(arg key)
flips=$(arg flips)
check "sleeb_keyflip key=${key:-own} flips=${flips:-5000} survives" \
	insmod /lib/modules/sleeb_keyflip.ko key="${key:-own}" flips="${flips:-5000}"
