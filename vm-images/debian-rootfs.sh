#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The base of the systemd guest: a Debian 12 (bookworm) root file system made
# with debootstrap, systemd as PID 1, cached outside the repository.
#
#   vm-images/debian-rootfs.sh            build if needed, print its directory
#   vm-images/debian-rootfs.sh --path     print the directory only
#
# The tree lives in ~/.cache/sleeb/rootfs/debian-<recipe> (SLEEB_CACHE moves
# ~/.cache/sleeb), where <recipe> is a hash of this script: editing the recipe
# makes a new tree, anything else reuses the old one (older trees are
# removed). Nothing of the project is in it; vm-images/systemd-image.sh adds
# the project (`meson install`) and the tests to a copy for each boot.
#
# SLEEB_DEBIAN_MIRROR overrides the mirror (default: deb.debian.org).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${SLEEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sleeb}/rootfs
mirror=${SLEEB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
recipe=$(sha256sum "$here/debian-rootfs.sh" | cut -c1-12)
dir=$cache/debian-$recipe

say() { echo "debian-rootfs.sh: $*" >&2; }
die() { say "$*"; exit 1; }
# A command that fails under set -e says nothing by itself: say where.
trap 'say "failed at line $LINENO (exit status $?)"' ERR

if [ "${1:-}" = --path ]; then
	echo "$dir"
	exit 0
fi
[ $# -eq 0 ] || die "usage: $0 [--path]"
if [ -f "$dir/.sleeb-complete" ]; then
	echo "$dir"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "debootstrap needs root (file ownership in the tree)"
command -v debootstrap >/dev/null || die "debootstrap missing (tools/install-deps.sh)"

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
# Another run may have finished it while we waited.
[ -f "$dir/.sleeb-complete" ] && { echo "$dir"; exit 0; }

# What the guest runs besides the project: systemd and D-Bus (systemctl,
# systemd-analyze security), the project's runtime libraries (libsystemd0
# comes with systemd), kmod for the test modules, procps for the tests,
# rt-tests for hackbench (the demo's load).
packages=systemd,systemd-sysv,dbus,libmnl0,kmod,procps,rt-tests

tmp=$dir.tmp
rm -rf "$tmp"
say "debootstrap bookworm ($packages) from $mirror into $tmp (a few minutes, once)"
debootstrap --variant=minbase --include="$packages" bookworm "$tmp" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
	{ tail -n 20 "$cache/debootstrap.log" >&2; die "debootstrap failed (log: $cache/debootstrap.log)"; }

# promtool, to check sleebd's textfile export in the guest: the one binary
# out of Debian's prometheus package, without the server or its web assets.
say "adding promtool from Debian's prometheus package"
chroot "$tmp" sh -ec '
	apt-get -q update
	cd /tmp
	apt-get -q download prometheus
	dpkg-deb --fsys-tarfile prometheus_*.deb | tar -x -C / ./usr/bin/promtool
	rm -f prometheus_*.deb
' >>"$cache/debootstrap.log" 2>&1 || die "promtool install failed (log: $cache/debootstrap.log)"

# A real node_exporter (Debian's package, its unit enabled by the package)
# and curl to scrape it: vm-systemd checks that the sleeb_* families
# sleebd writes reach http://localhost:9100/metrics. Without recommends:
# prometheus-node-exporter-collectors would add timers and smartmontools.
# The textfile directory is said explicitly rather than left to the
# package's built-in default: it is sleebd.conf(5)'s
# PrometheusTextfile= directory and the one sleebd.service may write.
say "adding prometheus-node-exporter and curl"
chroot "$tmp" sh -ec '
	DEBIAN_FRONTEND=noninteractive apt-get -q -y --no-install-recommends \
		install prometheus-node-exporter curl
	apt-get clean
	rm -rf /var/lib/apt/lists/*
' >>"$cache/debootstrap.log" 2>&1 || die "node_exporter install failed (log: $cache/debootstrap.log)"
echo 'ARGS="--collector.textfile.directory=/var/lib/prometheus/node-exporter"' \
	>"$tmp/etc/default/prometheus-node-exporter"
[ -L "$tmp/etc/systemd/system/multi-user.target.wants/prometheus-node-exporter.service" ] ||
	die "prometheus-node-exporter.service not enabled by its package"

# A machine that boots straight to multi-user with nothing waiting for a
# human or the network: fixed identity (a set machine-id means no first-boot
# prompts), root on the virtio disk, journal in memory.
echo sleeb-guest >"$tmp/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\tsleeb-guest\n' >"$tmp/etc/hosts"
echo 5eeb5eeb5eeb5eeb5eeb5eeb5eeb5eeb >"$tmp/etc/machine-id"
echo '/dev/vda / ext4 rw,noatime 0 1' >"$tmp/etc/fstab"
mkdir -p "$tmp/etc/systemd/journald.conf.d"
printf '[Journal]\nStorage=volatile\n' >"$tmp/etc/systemd/journald.conf.d/sleeb-guest.conf"
ln -sf /lib/systemd/system/multi-user.target "$tmp/etc/systemd/system/default.target"
# Nothing to log in to (the tests run from a unit) and no timers to fire
# mid-test.
for unit in getty@tty1.service serial-getty@ttyS0.service getty.target \
	systemd-firstboot.service apt-daily.timer apt-daily-upgrade.timer \
	dpkg-db-backup.timer e2scrub_all.timer fstrim.timer systemd-tmpfiles-clean.timer; do
	ln -sf /dev/null "$tmp/etc/systemd/system/$unit"
done
passwd -R "$tmp" -d root >/dev/null
rm -rf "$tmp/var/cache/apt/archives"/*.deb "$tmp/var/log"/*.log

touch "$tmp/.sleeb-complete"
# Trees of older recipes are dead weight, but branches built side by side
# each have theirs: keep the two most recent besides this one, so that two
# work trees do not rebuild each other's tree on every run.
# (grep finds nothing on a fresh machine: no failure under pipefail.)
ls -1dt "$cache"/debian-* 2>/dev/null | { grep -v -e "/debian-$recipe" -e '\.tmp$' || true; } |
	tail -n +3 | while read -r old; do rm -rf "$old"; done
mv "$tmp" "$dir"
say "done: $dir ($(du -sh "$dir" | cut -f1))"
echo "$dir"
