#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install SLEEB's build and test dependencies on Debian 12 (as root).
# Only what is missing is installed; nothing is downloaded when all is there.
set -euo pipefail
pkgs=(
	# kernel build
	linux-source-6.12 build-essential bc bison flex libelf-dev libssl-dev
	ccache cpio xz-utils kmod rsync patch
	# guest (stress-ng: copied into the vm-stress guests)
	qemu-system-x86 busybox-static stress-ng
	# systemd guest (vm-images/debian-rootfs.sh, systemd-image.sh)
	debootstrap e2fsprogs debian-archive-keyring
	# userspace build and tests (dpkg-dev: dpkg-source for qemu-plugin-api.sh)
	dpkg-dev meson ninja-build pkg-config libsystemd-dev libmnl-dev check
	clang libclang-rt-14-dev jq
	# the Debian package sleeb-tools (tools/build-deb.sh, vm-systemd)
	debhelper lintian
	# benchmarks (strace: tools/bench-daemon.sh counts sleebd's system calls;
	# gnuplot-nox: tools/bench-report.py's SVG plots)
	rt-tests strace gnuplot-nox
)
# qemu-plugin.h for the model clock (model-clock/), from the source package
# of the installed QEMU, cached in ~/.cache/sleeb: run after the packages.
plugin_api() {
	"$(dirname "${BASH_SOURCE[0]}")/qemu-plugin-api.sh" >/dev/null ||
		"$(dirname "${BASH_SOURCE[0]}")/qemu-plugin-api.sh" --fetch >/dev/null ||
		echo "tools/install-deps.sh: no qemu-plugin.h: the model clock and perf-model will be skipped" >&2
}
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	plugin_api
	exit 0
fi
echo "tools/install-deps.sh: installing ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
	echo "tools/install-deps.sh: need root to install packages (run with sudo)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
plugin_api
