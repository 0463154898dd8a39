#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Whose is "Oops: int3", the kernel's or the emulator's? Boots each
# configuration a few times with the keyflip guest (kernel/modules/
# sleeb_keyflip: a static key flipped while every other cpu runs the code
# it patches) and counts the boots that oops.
#
#   tools/int3-evidence.sh [--build-dir DIR] [--boots N] [--flips N] [CONFIG...]
#
# CONFIG is VARIANT:CLOCK:LOAD, by default every one of
#   VARIANT  vanilla, sleeb
#   CLOCK    mttcg (multi-threaded TCG, what the suites use), single
#            (single-threaded TCG: one host thread runs the vCPUs in turn)
#   LOAD     own    N flips (--flips, default 2000) of a key of the module
#            cache  one debug cache created under load: the first one turns
#                   slub_debug_enabled on, as slub_kunit's first does
#            early  cache, booted with slab_debug=-,sleeb_key_at_boot as the
#                   suites are (tests/vm/harness.sh): the key is on from boot
# except single:early (nothing to compare). Prints one line per
# configuration: boots, boots with "Oops: int3", boots that finished.
# Each boot takes the guest lock; single-threaded boots with --flips 2000
# take about a minute each. The logs stay in DIR/vm-logs/keyflip-*.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$top/build boots=3 flips=2000
configs=()
while [ $# -gt 0 ]; do
	case "$1" in
	--build-dir) build=$2; shift ;;
	--boots) boots=$2; shift ;;
	--flips) flips=$2; shift ;;
	-h | --help) sed -n '3,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "int3-evidence.sh: unknown option $1" >&2; exit 2 ;;
	*) configs+=("$1") ;;
	esac
	shift
done
if [ ${#configs[@]} -eq 0 ]; then
	for v in vanilla sleeb; do
		configs+=("$v:mttcg:own" "$v:single:own" "$v:mttcg:cache" "$v:single:cache" "$v:mttcg:early")
	done
fi

printf '%-24s %5s %6s %8s\n' config boots oopses finished
for c in "${configs[@]}"; do
	IFS=: read -r variant clock load <<<"$c"
	case "$load" in
	own) append="sleeb_keyflip.key=own sleeb_keyflip.flips=$flips" ;;
	cache) append="sleeb_keyflip.key=cache" ;;
	early) append="sleeb_keyflip.key=cache slab_debug=-,sleeb_key_at_boot" ;;
	*) echo "int3-evidence.sh: unknown load '$load' in $c (own, cache, early)" >&2; exit 2 ;;
	esac
	oopses=0 finished=0
	for i in $(seq 1 "$boots"); do
		tag="$clock-$load-$i"
		SLEEB_QEMU_CLOCK=$clock flock /tmp/sleeb-guest.lock "$top/tests/vm/harness.sh" keyflip "$variant" \
			--build-dir "$build" --tag "$tag" --timeout 900 --append "$append" >/dev/null 2>&1 || true
		log=$build/vm-logs/keyflip-$variant-$tag/console.log
		[ -f "$log" ] || { echo "int3-evidence.sh: no console log for $c boot $i ($log)" >&2; exit 1; }
		grep -q 'Oops: int3' "$log" && oopses=$((oopses + 1))
		grep -q 'sleeb_keyflip: done' "$log" && finished=$((finished + 1))
	done
	printf '%-24s %5d %6d %8d\n' "$c" "$boots" "$oopses" "$finished"
done
