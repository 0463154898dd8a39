#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a guest initramfs from Debian's busybox-static:
#
#   vm-images/busybox-initramfs.sh --variant V [--kernel-out DIR] --out FILE.cpio.gz
#                                   [--build-dir MESON_BUILD] [--extra HOSTPATH]...
#
# It holds busybox, /init (guest-init.sh), the guest test scripts
# (tests/vm/guest), the variant's kernel modules (kernel/build.sh output), the
# project's programs from MESON_BUILD with the shared libraries they need
# (their ldd closure, copied from the host), and any --extra host programs
# (e.g. hackbench) with their libraries.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(dirname "$here")
variant='' kout='' out='' build_dir=''
extras=()
while [ $# -gt 0 ]; do
	case "$1" in
	--variant) variant=$2; shift ;;
	--kernel-out) kout=$2; shift ;;
	--out) out=$2; shift ;;
	--build-dir) build_dir=$2; shift ;;
	--extra) extras+=("$2"); shift ;;
	*) echo "busybox-initramfs.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
[ -n "$variant" ] && [ -n "$out" ] || { echo "usage: $0 --variant V --out FILE [--build-dir DIR] [--extra PROG]..." >&2; exit 2; }
busybox=/bin/busybox
# The guest has no libc: busybox must be the static build.
if ! [ -x "$busybox" ] || ldd "$busybox" >/dev/null 2>&1; then
	echo "$busybox is missing or not static: install busybox-static (tools/install-deps.sh)" >&2
	exit 1
fi
[ -n "$kout" ] || kout=$("$top/kernel/build.sh" --out "$variant")
[ -d "$kout/modules" ] || { echo "no kernel build for '$variant' in $kout (run kernel/build.sh $variant)" >&2; exit 1; }

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
chmod 755 "$root" # the guest's /: mktemp made it 0700, unusable for non-root
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,etc,root,lib/modules,tests}
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$here/guest-init.sh" "$root/init"
cp "$here/run-suite.sh" "$root/run-suite.sh"
chmod 755 "$root/init"
cp -r "$top/tests/vm/guest/." "$root/tests/"
cp "$kout"/modules/*.ko "$root/lib/modules/" 2>/dev/null || true
echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
echo "nobody:x:65534:65534:nobody:/:/bin/sh" >>"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"

# Copy a host program and its shared-library closure into the image.
add_prog() {
	local prog=$1 dest=$2 lib
	install -D -m 755 "$prog" "$root$dest"
	# Scripts have no shared libraries: ldd fails on them, which is fine.
	{ ldd "$prog" 2>/dev/null || true; } | awk '/=> \//{print $3} /^\t\/lib/{print $1}' | while read -r lib; do
		[ -e "$root$lib" ] || install -D -m 755 "$(readlink -f "$lib")" "$root$lib"
	done
}

if [ -n "$build_dir" ]; then
	for p in sleebctl/sleebctl sleebd/sleebd; do
		[ -x "$build_dir/$p" ] && add_prog "$build_dir/$p" "/usr/bin/$(basename "$p")"
	done
	# sleebd's shipped configuration, where `meson install` puts it.
	install -D -m 644 "$top/sleebd/sleebd.conf" "$root/etc/sleeb/sleebd.conf"
	mkdir -p "$root/usr/lib/sleeb/policy.d"
	cp "$top"/sleebd/policy.d/*.conf "$root/usr/lib/sleeb/policy.d/"
	for p in "$build_dir"/tests/vm/guest-bin/*; do
		[ -f "$p" ] && [ -x "$p" ] && add_prog "$p" "/usr/bin/$(basename "$p")"
	done
fi
for p in ${extras[@]+"${extras[@]}"}; do
	add_prog "$p" "/usr/bin/$(basename "$p")"
done
# x86-64 binaries look for their loader by this absolute path.
if [ -e /lib64/ld-linux-x86-64.so.2 ] && [ -n "$(ls "$root"/usr/bin 2>/dev/null)" ]; then
	install -D -m 755 "$(readlink -f /lib64/ld-linux-x86-64.so.2)" "$root/lib64/ld-linux-x86-64.so.2"
fi

mkdir -p "$(dirname "$out")"
# The same inputs make the same bytes: names sorted, one fixed mtime, no
# inode or device numbers, no gzip timestamp. The model clock's guests
# (tests/perf-model, the bench's icount boots) repeat a boot instruction for
# instruction only when the initramfs they unpack is the same.
find "$root" -exec touch -h -d @0 {} +
(cd "$root" && LC_ALL=C find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --quiet --owner=0:0 --reproducible) | gzip -1 -n >"$out.tmp"
mv "$out.tmp" "$out"
