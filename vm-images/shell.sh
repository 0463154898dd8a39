#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Interactive guest with a shell on this terminal (Ctrl-A X quits):
#   vm-images/shell.sh [MESON_BUILD_DIR] [VARIANT]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=${1:-} variant=${2:-sleeb}
"$here/../kernel/build.sh" "$variant"
img=$(mktemp /tmp/sleeb-shell.XXXXXX.cpio.gz)
trap 'rm -f "$img"' EXIT
"$here/busybox-initramfs.sh" --variant "$variant" --out "$img" ${build:+--build-dir "$build"}
kout=$("$here/../kernel/build.sh" --out "$variant")
"$here/run-qemu.sh" --interactive --kernel "$kout/bzImage" --initrd "$img" --append "sleeb.suite=shell"
