#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Disk image of the systemd guest, for one boot:
#
#   vm-images/systemd-image.sh --variant V [--kernel-out DIR] --out IMAGE.ext4 --build-dir MESON_BUILD
#   (--kernel-out: modules from DIR/modules rather than the variant's build)
#
# A copy of the cached Debian 12 tree (debian-rootfs.sh) plus:
#   - the project's Debian package sleeb-tools (tools/build-deb.sh, lintian
#     clean, cached by source hash), installed with `apt-get install` in a
#     chroot as an administrator would, which enables sleebd.service; the
#     package at the project's version and the same tree rebuilt at a
#     higher one lie in /var/cache/sleeb-test for vm-systemd's removal,
#     reinstall and upgrade checks (70-package.sh);
#   - the variant's test modules (kernel/build.sh output) in /lib/modules,
#     the guest helpers (tests/vm/guest-bin, built without sanitizers in
#     MESON_BUILD/guest-debian) in /usr/local/bin;
#   - the guest test scripts in /tests and the runner unit
#     sleeb-guest-tests.service (vm-images/systemd/), enabled.
# Written as an ext4 file system image (mkfs.ext4 -d): no loop mount, and the
# guest boots it as /dev/vda.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(dirname "$here")
variant='' kout='' out='' build_dir=''
while [ $# -gt 0 ]; do
	case "$1" in
	--variant) variant=$2; shift ;;
	--kernel-out) kout=$2; shift ;;
	--out) out=$2; shift ;;
	--build-dir) build_dir=$(cd "$2" && pwd); shift ;;
	*) echo "systemd-image.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
[ -n "$variant" ] && [ -n "$out" ] && [ -n "$build_dir" ] ||
	{ echo "usage: $0 --variant V --out IMAGE --build-dir DIR" >&2; exit 2; }
say() { echo "systemd-image.sh: $*" >&2; }

[ -n "$kout" ] || kout=$("$top/kernel/build.sh" --out "$variant")
[ -d "$kout/modules" ] || { say "no kernel build for '$variant' in $kout (run kernel/build.sh $variant)"; exit 1; }
base=$("$here/debian-rootfs.sh")

# The package, and the same tree at a higher version to upgrade to. The
# build and lintian take a minute or two each on a quiet 2-core machine,
# once per change of the package's sources.
version=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$top/meson.build" | head -n 1)
upgrade_version=$version+1
deb=$("$top/tools/build-deb.sh") || { say "tools/build-deb.sh failed"; exit 1; }
deb_upgrade=$("$top/tools/build-deb.sh" --version "$upgrade_version") ||
	{ say "tools/build-deb.sh --version $upgrade_version failed"; exit 1; }

# The guest helpers: not the test build (which may carry sanitizers the
# guest has no runtime for), a plain one of this tree.
pkg=$build_dir/guest-debian
if [ ! -f "$pkg/build.ninja" ]; then
	meson setup "$pkg" "$top" --prefix=/usr --sysconfdir=/etc --localstatedir=/var \
		--buildtype=debugoptimized -Db_sanitize=none >"$build_dir/guest-debian-setup.log" 2>&1 ||
		{ cat "$build_dir/guest-debian-setup.log" >&2; exit 1; }
fi
meson compile -C "$pkg" >"$build_dir/guest-debian-compile.log" 2>&1 ||
	{ tail -n 30 "$build_dir/guest-debian-compile.log" >&2; exit 1; }

stage=$(mktemp -d "${TMPDIR:-/tmp}/sleeb-rootfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
cp -a "$base/." "$stage/"
rm -f "$stage/.sleeb-complete"

# apt-get in the guest's own tree: its maintainer scripts enable the unit
# (no start: there is no systemd running in a chroot, which the scripts
# see by the missing /run/systemd/system). The tree has what the package
# depends on (libsystemd0, libmnl0), so apt needs no package lists.
debs=$stage/var/cache/sleeb-test
mkdir -p "$debs"
cp "$deb" "$deb_upgrade" "$debs/"
printf '%s\n' "$version" >"$debs/version"
printf '%s\n' "$upgrade_version" >"$debs/upgrade-version"
chroot "$stage" env DEBIAN_FRONTEND=noninteractive \
	apt-get -q -y --no-install-recommends install "/var/cache/sleeb-test/$(basename "$deb")" \
	>"$build_dir/guest-apt.log" 2>&1 ||
	{ tail -n 30 "$build_dir/guest-apt.log" >&2; say "apt-get install $(basename "$deb") in the guest's tree failed"; exit 1; }
[ -L "$stage/etc/systemd/system/multi-user.target.wants/sleebd.service" ] ||
	{ say "sleeb-tools' postinst did not enable sleebd.service"; exit 1; }
rm -rf "$stage/var/cache/apt"/*.bin

mkdir -p "$stage/tests" "$stage/lib/modules"
cp -r "$top/tests/vm/guest/." "$stage/tests/"
install -m 755 "$here/run-suite.sh" "$stage/tests/run-suite.sh"
cp "$kout"/modules/*.ko "$stage/lib/modules/" 2>/dev/null || true
for p in "$pkg"/tests/vm/guest-bin/*; do
	[ -f "$p" ] && [ -x "$p" ] && install -D -m 755 "$p" "$stage/usr/local/bin/$(basename "$p")"
done
install -m 644 "$here/systemd/sleeb-guest-tests.service" "$stage/etc/systemd/system/"
systemctl --root="$stage" --quiet enable sleeb-guest-tests.service

# Room for the journal, the tests' files and the state the daemon writes.
size=$(( $(du -sm "$stage" | cut -f1) + 512 ))
mkdir -p "$(dirname "$out")"
rm -f "$out"
mkfs.ext4 -q -F -L sleeb-root -d "$stage" "$out" "${size}M" ||
	{ say "mkfs.ext4 -d failed (e2fsprogs >= 1.43 needed)"; exit 1; }
