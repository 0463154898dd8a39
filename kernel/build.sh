#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the SLEEB guest kernels from Debian's linux-source-6.12 tarball.
#
#   kernel/build.sh [--force] VARIANT...     VARIANT: vanilla, sleeb, sleeb-lockdep,
#                                            sleeb-debug, all
#   kernel/build.sh --out VARIANT            print the variant's output dir
#   kernel/build.sh --series                 print the series' patch names
#
# sleeb-upto-N is the sleeb config with only the first N patches of the
# series (tree src/series), for kernel/check-series.sh and for the
# benchmark's A/B of two points of the series (tools/bench.sh --base).
#
# Everything lives outside the repository, in $SLEEB_CACHE (default
# ~/.cache/sleeb):
#   src/vanilla/             pristine tree (never patched)
#   src/sleeb/               tree with kernel/series applied
#   src/series/              tree with a prefix of it (sleeb-upto-N)
#   src/<tree>/out-<variant> object dir; a direct subdir of its source tree so
#                            kbuild uses the relative srctree "..", which lets
#                            ccache share objects between the two trees
#   out/<variant>/           bzImage, modules/*.ko, config, kernelrelease
#   ccache/                  the compiler cache
#
# Rebuilds are incremental: a tree is unpacked again only when the tarball
# changes; when the series changes only the files the old and new series
# touch are restored and patched, so make recompiles just those. A variant
# whose inputs (tarball, series, config fragments, modules, the model-clock
# marker header they include, $recipe) are unchanged is not even handed to
# make, and needs no lock.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
cache=${SLEEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sleeb}
tarball=${SLEEB_LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
jobs=${SLEEB_JOBS:-$(($(nproc) + 1))}
variants_all=(vanilla sleeb sleeb-lockdep sleeb-debug)
# Bump when a change to this script changes what it builds (make flags,
# config handling, what goes into out/): every variant is then rebuilt.
recipe=2

die() { echo "kernel/build.sh: error: $*" >&2; exit 1; }
say() { echo "kernel/build.sh: $*" >&2; }

tree_of() {
	case "$1" in
	vanilla) echo vanilla ;;
	sleeb | sleeb-lockdep | sleeb-debug) echo sleeb ;;
	sleeb-upto-[1-9] | sleeb-upto-[1-9][0-9]) echo series ;;
	*) die "unknown variant '$1' (expected: ${variants_all[*]} or all)" ;;
	esac
}

fragments_of() {
	case "$1" in
	vanilla) echo "$here/configs/guest.config" ;;
	sleeb | sleeb-upto-*) echo "$here/configs/guest.config $here/configs/sleeb.config" ;;
	sleeb-lockdep) echo "$here/configs/guest.config $here/configs/sleeb.config $here/configs/checks.config $here/configs/queue-debug.config" ;;
	sleeb-debug) echo "$here/configs/guest.config $here/configs/sleeb.config $here/configs/checks.config $here/configs/kasan.config" ;;
	esac
}

ensure_tarball() {
	[ -r "$tarball" ] && return
	say "$tarball is missing: installing linux-source-6.12"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
		linux-source-6.12 >&2 || die "could not install linux-source-6.12"
	[ -r "$tarball" ] || die "$tarball still missing after installing linux-source-6.12"
}

# Patch files of the series, in order (blank lines and # comments skipped);
# only the first $series_limit of them when that is set (sleeb-upto-N).
series_limit=''
set_limit() {
	case "$1" in
	sleeb-upto-*) series_limit=${1#sleeb-upto-} ;;
	*) series_limit='' ;;
	esac
}
series_patches() {
	local p n=0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$here/series" | while read -r p; do
		[ -n "$p" ] || continue
		[ -r "$here/patches/$p" ] || die "series names '$p' but kernel/patches/$p does not exist"
		n=$((n + 1))
		[ -z "$series_limit" ] || [ $n -le "$series_limit" ] || break
		echo "$here/patches/$p"
	done
}

# Files a patch touches, from its ---/+++ lines (git format-patch style).
patch_files() {
	sed -n -e 's|^+++ b/||p' -e 's|^--- a/||p' "$@" | sort -u
}

unpack_tree() {
	local tree=$1 dir="$cache/src/$1" id
	id=$(cat "$cache/tarball.id")
	if [ -f "$dir/.sleeb-tarball" ] && [ "$(cat "$dir/.sleeb-tarball")" = "$id" ]; then
		return
	fi
	say "unpacking $(basename "$tarball") into $dir"
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$dir.tmp"
	tar -xf "$tarball" -C "$dir.tmp" --strip-components=1
	echo "$id" >"$dir.tmp/.sleeb-tarball"
	mv "$dir.tmp" "$dir"
}

# Bring src/TREE (sleeb, or series for the sleeb-upto-N variants) to
# "pristine + kernel/series", touching as little as possible.
apply_series() {
	local dir="$cache/src/$1" pristine="$cache/src/vanilla" want f p dry
	local -a patches
	mapfile -t patches < <(series_patches)
	want=$(cat "$here/series" ${patches[@]+"${patches[@]}"} | sha256sum | cut -d' ' -f1)
	if [ -f "$dir/.sleeb-series" ] && [ "$(cat "$dir/.sleeb-series")" = "$want" ]; then
		return
	fi
	rm -f "$dir/.sleeb-series"
	# Record what the new series will touch before touching anything, so an
	# interrupted or failed application is undone by the next run.
	{
		[ -f "$dir/.sleeb-touched" ] && cat "$dir/.sleeb-touched"
		[ ${#patches[@]} -eq 0 ] || patch_files "${patches[@]}"
	} | sort -u >"$dir/.sleeb-touched.new"
	mv "$dir/.sleeb-touched.new" "$dir/.sleeb-touched"
	while read -r f; do
		[ -n "$f" ] || continue
		if [ -e "$pristine/$f" ]; then
			cp "$pristine/$f" "$dir/$f" # fresh mtime: make rebuilds it
		else
			rm -f "$dir/$f"
		fi
	done <"$dir/.sleeb-touched"
	for p in ${patches[@]+"${patches[@]}"}; do
		if ! dry=$(patch -d "$dir" -p1 --forward --batch --fuzz=0 --dry-run <"$p" 2>&1); then
			echo "$dry" >&2
			die "patch $(basename "$p") does not apply to linux $(kernel_version "$dir") (kernel/series line $(grep -n -F "$(basename "$p")" "$here/series" | cut -d: -f1))"
		fi
		patch -d "$dir" -p1 --forward --batch --fuzz=0 --quiet --no-backup-if-mismatch <"$p" >&2 ||
			die "patch $(basename "$p") failed while applying"
		say "applied $(basename "$p")"
	done
	patch_files ${patches[@]+"${patches[@]}"} /dev/null >"$dir/.sleeb-touched"
	echo "$want" >"$dir/.sleeb-series"
}

kernel_version() {
	make -s -C "$1" kernelversion 2>/dev/null
}

# Every CONFIG_ line a fragment asks for must be in the final .config:
# a dependency that silently drops a symbol is a build error, not a surprise
# in the guest.
verify_config() {
	local config=$1 bad=0 line sym val
	shift
	while read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue ;; esac
		sym=${line%%=*} val=${line#*=}
		# A prefix of the series may not define the symbol yet.
		if [ -n "$series_limit" ] && ! grep -rqx --include='Kconfig*' "config ${sym#CONFIG_}" "$(dirname "$config")/source/mm" "$(dirname "$config")/source/lib" 2>/dev/null; then
			continue
		fi
		if [ "$val" = n ]; then
			grep -q "^$sym=" "$config" && { say "config: $sym=n requested, but it is set"; bad=1; }
		else
			grep -qx "$sym=$val" "$config" || { say "config: $line requested, final config has: $(grep -E "^(# )?$sym[= ]" "$config" || echo 'nothing')"; bad=1; }
		fi
	done < <(cat "$@")
	[ $bad -eq 0 ] || die "config fragments did not stick (missing dependencies?)"
}

inputs_id() {
	set_limit "$1"
	local variant=$1
	{
		cat "$cache/tarball.id"
		echo "$variant"
		echo "recipe $recipe"
		# Prefixes carry the project's modules since the bench boots them.
		[ -z "$series_limit" ] || echo "prefix modules 1"
		cat $(fragments_of "$variant")
		if [ "$(tree_of "$variant")" != vanilla ]; then
			cat "$here/series"
			series_patches | xargs -r cat
		fi
		find "$here/modules" -type f -print0 | sort -z | xargs -0 -r cat
		# Modules include it (Kbuild: -I$(SLEEB_TOP)/model-clock).
		cat "$top/model-clock/model-clock-marker.h"
	} | sha256sum | cut -d' ' -f1
}

kmake() {
	local obj=$1
	shift
	make -C "$obj" -j"$jobs" CC="ccache gcc" \
		KBUILD_BUILD_TIMESTAMP="2010-05-21" KBUILD_BUILD_USER=sleeb \
		KBUILD_BUILD_HOST=sleeb "$@"
}

build_variant() {
	local variant=$1 tree src obj out id frags m
	set_limit "$variant"
	tree=$(tree_of "$variant")
	src="$cache/src/$tree"
	obj="$src/out-$variant"
	out="$cache/out/$variant"
	id=$(inputs_id "$variant")
	if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$id" ] && [ -f "$out/bzImage" ]; then
		say "$variant: up to date ($(cat "$out/kernelrelease"))"
		return
	fi
	unpack_tree vanilla
	[ "$tree" = vanilla ] || { unpack_tree "$tree"; apply_series "$tree"; }
	say "$variant: linux $(kernel_version "$src") from $(basename "$tarball")" \
		"(Debian $(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo '?'))," \
		"$([ "$tree" = vanilla ] && echo 'no patches' || echo "$(series_patches | wc -l) patches")"

	mkdir -p "$obj"
	frags=$(fragments_of "$variant")
	if [ ! -f "$obj/.sleeb-config" ] || [ "$(cat $frags | sha256sum)" != "$(cat "$obj/.sleeb-config")" ] ||
		[ "$src/.sleeb-series" -nt "$obj/.sleeb-config" ] 2>/dev/null; then
		make -s -C "$src" O="$obj" tinyconfig >/dev/null
		# shellcheck disable=SC2086
		"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" $frags >/dev/null
		make -s -C "$obj" olddefconfig >/dev/null
		# shellcheck disable=SC2086
		verify_config "$obj/.config" $frags
		cat $frags | sha256sum >"$obj/.sleeb-config"
	fi

	export CCACHE_DIR="$cache/ccache" CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
	say "$variant: building bzImage and modules (-j$jobs)"
	kmake "$obj" bzImage modules >"$obj/build.log" 2>&1 || {
		grep -E 'error|Error' "$obj/build.log" | head -40 >&2
		die "$variant: kernel build failed; full log: $obj/build.log"
	}

	rm -rf "$out.tmp"
	mkdir -p "$out.tmp/modules"
	cp "$obj/arch/x86/boot/bzImage" "$out.tmp/"
	cp "$obj/.config" "$out.tmp/config"
	make -s -C "$obj" kernelrelease >"$out.tmp/kernelrelease"
	find "$obj" -name '*.ko' -exec cp {} "$out.tmp/modules/" \;

	# The project's out-of-tree modules: kernel/modules/<name>/ with a Kbuild
	# file; an optional `variants` file lists the variants it is built for.
	for m in "$here"/modules/*/; do
		[ -f "$m/Kbuild" ] || continue
		if [ -f "$m/variants" ] && ! grep -qx "$variant" "$m/variants"; then
			continue
		fi
		local mb="$obj/ext/$(basename "$m")"
		mkdir -p "$mb"
		rsync -a --delete --exclude variants "$m" "$mb/"
		kmake "$obj" M="$mb" SLEEB_TOP="$top" modules >"$mb/build.log" 2>&1 || {
			cat "$mb/build.log" >&2
			die "$variant: module $(basename "$m") failed to build"
		}
		cp "$mb"/*.ko "$out.tmp/modules/"
	done

	echo "$id" >"$out.tmp/.stamp"
	rm -rf "$out"
	mv "$out.tmp" "$out"
	say "$variant: done: $out/bzImage ($(cat "$out/kernelrelease"), $(ls "$out/modules" | wc -l) modules)"
}

main() {
	local force=0 v
	local -a want=()
	while [ $# -gt 0 ]; do
		case "$1" in
		--out) echo "$cache/out/$2"; return ;;
		--series) series_patches | xargs -r -n1 basename; return ;;
		--force) force=1 ;;
		all) want+=("${variants_all[@]}") ;;
		-h | --help) sed -n '3,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; return ;;
		*) tree_of "$1" >/dev/null; want+=("$1") ;;
		esac
		shift
	done
	[ ${#want[@]} -gt 0 ] || die "usage: kernel/build.sh [--force] VARIANT... (${variants_all[*]}, all)"
	command -v ccache >/dev/null || die "ccache is not installed (tools/install-deps.sh installs it)"
	ensure_tarball
	mkdir -p "$cache/src" "$cache/out"
	# Up-to-date variants need no lock: a test run must not queue behind an
	# unrelated build of another variant.
	if [ $force -eq 0 ] && [ -f "$cache/tarball.id" ] &&
		[ "$(stat -c '%s %Y' "$tarball" | sha256sum | cut -d' ' -f1)" = "$(cat "$cache/tarball.id")" ]; then
		local v current=1
		for v in "${want[@]}"; do
			[ -f "$cache/out/$v/.stamp" ] && [ -f "$cache/out/$v/bzImage" ] &&
				[ "$(cat "$cache/out/$v/.stamp")" = "$(inputs_id "$v")" ] || current=0
		done
		if [ $current = 1 ]; then
			for v in "${want[@]}"; do say "$v: up to date ($(cat "$cache/out/$v/kernelrelease"))"; done
			return
		fi
	fi
	exec 9>"$cache/build.lock"
	flock 9
	stat -c '%s %Y' "$tarball" | sha256sum | cut -d' ' -f1 >"$cache/tarball.id"
	for v in "${want[@]}"; do
		[ $force -eq 0 ] || rm -f "$cache/out/$v/.stamp"
		build_variant "$v"
	done
}

main "$@"
