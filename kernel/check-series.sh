#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Bisectability of the series: every prefix of kernel/series builds, is
# checkpatch --strict clean and boots.
#
#   kernel/check-series.sh [--build-dir DIR]
#
# For N = 1 .. number of patches: checkpatch --strict on patch N, build
# variant sleeb-upto-N (the sleeb config, first N patches; kernel/build.sh),
# boot it with the vm-boot suite (tests/vm/harness.sh), which must pass with
# no splat. Prints TAP, one point per patch and step. Consecutive prefixes
# share one tree and ccache, so each step recompiles what its patch touched.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(dirname "$here")
build_dir=''
[ "${1:-}" = --build-dir ] && build_dir=$2

mapfile -t patches < <("$here/build.sh" --series)
echo "TAP version 13"
n=0 failed=0
point() { # point STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
# checkpatch.pl runs from the pristine tree kernel/build.sh unpacks.
src=${SLEEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sleeb}/src/vanilla
[ -f "$src/scripts/checkpatch.pl" ] || "$here/build.sh" vanilla >/dev/null 2>&1

for i in "${!patches[@]}"; do
	k=$((i + 1)) p=${patches[$i]}
	echo "# patch $k/${#patches[@]}: $p"
	out=$("$here/checkpatch.sh" --tree "$src" "$here/patches/$p")
	point $? "$p: checkpatch --strict clean"
	[ -z "$out" ] || echo "$out" | head -20 | sed 's/^/#   /'

	if log=$("$here/build.sh" "sleeb-upto-$k" 2>&1); then
		point 0 "$p: sleeb-upto-$k builds"
	else
		point 1 "$p: sleeb-upto-$k builds"
		echo "$log" | tail -20 | sed 's/^/#   /'
		continue
	fi
	tap=$("$top/tests/vm/harness.sh" vm-boot "sleeb-upto-$k" ${build_dir:+--build-dir "$build_dir"} --timeout 600)
	rc=$?
	point $rc "$p: sleeb-upto-$k boots and passes vm-boot ($(echo "$tap" | grep -c '^ok') points ok, $(echo "$tap" | grep -c '^not ok') not ok)"
	[ $rc -eq 0 ] || echo "$tap" | grep -E '^not ok|^#   ' | head -20 | sed 's/^/#   /'
done
echo "1..$n"
[ $failed -eq 0 ]
