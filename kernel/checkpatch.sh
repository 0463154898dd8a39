#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.pl --strict on patch files, from a kernel tree of ours.
#
#   kernel/checkpatch.sh [--tree DIR] PATCH...
#
# DIR defaults to the pristine tree kernel/build.sh unpacks. Prints every
# finding and exits 1 if there was one. Lines about checkpatch's own
# helpers are not findings: in a git tree (kernel/dev-tree.sh) it runs
# scripts/spdxcheck.py, which fails without python's ply module.
set -euo pipefail
tree=${SLEEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sleeb}/src/vanilla
if [ "${1:-}" = --tree ]; then
	tree=$2
	shift 2
fi
[ -f "$tree/scripts/checkpatch.pl" ] || { echo "kernel/checkpatch.sh: no scripts/checkpatch.pl in $tree" >&2; exit 2; }
found=0
for p in "$@"; do
	p=$(realpath "$p")
	out=$(cd "$tree" && perl scripts/checkpatch.pl --strict -q "$p" 2>&1 |
		grep -v 'spdxcheck\|No such file\|Traceback\|File "\|from ply import\|ModuleNotFoundError\|^$' || true)
	if [ -n "$out" ]; then
		echo "$(basename "$p"):"
		echo "$out"
		found=1
	fi
done
exit $found
