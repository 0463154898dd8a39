#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Capture this machine's /proc/slabinfo, /proc/meminfo and /sys/kernel/slab
# into DEST as plain files (symlinks of merged caches kept), so that
# `sleebctl --root DEST ...` and the CLI tests can use it.  Run as root in
# the guest (busybox sh is enough), then copy DEST to tests/data/<name>/:
# every tree there with a proc/slabinfo is exercised by the unit suite.
#
# usage: capture-tree.sh DEST
#   ATTRS="object_size objects ..." limits the per-cache files copied
#   (default: every readable attribute).
set -eu
attrs=${ATTRS:-}

dest=${1:?usage: capture-tree.sh DEST}
mkdir -p "$dest/proc" "$dest/sys/kernel/slab"
cat /proc/slabinfo > "$dest/proc/slabinfo"
cat /proc/meminfo > "$dest/proc/meminfo"

for entry in /sys/kernel/slab/*; do
	name=${entry##*/}
	if [ -L "$entry" ]; then
		target=$(readlink "$entry")
		ln -sfn "${target##*/}" "$dest/sys/kernel/slab/$name"
		continue
	fi
	[ -d "$entry" ] || continue
	mkdir -p "$dest/sys/kernel/slab/$name"
	for f in "$entry"/*; do
		attr=${f##*/}
		[ -f "$f" ] || continue
		case $attr in
		# write-only triggers, and call-site lists that can be huge
		shrink|validate|alloc_calls|free_calls) continue ;;
		esac
		if [ -n "$attrs" ]; then
			case " $attrs " in
			*" $attr "*) ;;
			*) continue ;;
			esac
		fi
		cat "$f" > "$dest/sys/kernel/slab/$name/$attr" 2>/dev/null ||
			rm -f "$dest/sys/kernel/slab/$name/$attr"
	done
done
echo "captured $(($(wc -l < "$dest/proc/slabinfo") - 2)) caches into $dest"
