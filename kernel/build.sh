#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the SLEEB guest kernels from Debian's linux-source-6.12 tarball.
#
#   kernel/build.sh [--force] VARIANT...     VARIANT: vanilla, sleeb, sleeb-lockdep,
#                                            sleeb-debug, all; sheaves
#   kernel/build.sh --out VARIANT            print the variant's output dir
#   kernel/build.sh --series                 print the series' patch names
#   kernel/build.sh --sheaves-tarball        fetch the sheaves tarball, print its path
#
# sleeb-upto-N is the sleeb config with only the first N patches of the
# series (tree src/series), for kernel/check-series.sh and for the
# benchmark's A/B of two points of the series (tools/bench.sh --base).
#
# sheaves is upstream's answer to the same problem, the per-cpu "sheaves"
# of Linux 7.x, unpatched, with the same guest config fragments as vanilla:
# the benchmark's peer (tools/bench.sh), not part of `all` nor of CI. Its
# source is Debian's newest linux-source-7.N, fetched as a package with an
# apt source list of its own (trixie-backports) and its own lists and
# cache under $SLEEB_CACHE/apt-sheaves, so the machine's apt configuration
# and lists are not touched; the lists are refreshed when a week old.
# SLEEB_SHEAVES_TARBALL names a tarball to use instead. Fragment lines that
# 7.x does not have or cannot set are reported by name, not fatal, and
# listed in out/sheaves/config-differences.
#
# Everything lives outside the repository, in $SLEEB_CACHE (default
# ~/.cache/sleeb):
#   src/vanilla/             pristine tree (never patched)
#   src/sleeb/               tree with kernel/series applied
#   src/series/              tree with a prefix of it (sleeb-upto-N)
#   src/sheaves/             pristine linux 7.x tree (sheaves)
#   apt-sheaves/             its apt source list, lists, cache and tarball
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
	sheaves) echo sheaves ;;
	*) die "unknown variant '$1' (expected: ${variants_all[*]}, all or sheaves)" ;;
	esac
}

# The test modules' and test devices' fragments are for the four CI
# variants only: the prefixes and sheaves are the benchmark's, and load or
# meet none of them.
fragments_of() {
	local tests="$here/configs/test-modules.config $here/configs/test-devices.config"
	case "$1" in
	sheaves) echo "$here/configs/guest.config" ;;
	vanilla) echo "$here/configs/guest.config $tests" ;;
	sleeb-upto-*) echo "$here/configs/guest.config $here/configs/sleeb.config" ;;
	sleeb) echo "$here/configs/guest.config $here/configs/sleeb.config $tests" ;;
	sleeb-lockdep) echo "$here/configs/guest.config $here/configs/sleeb.config $here/configs/checks.config $here/configs/queue-debug.config $tests" ;;
	sleeb-debug) echo "$here/configs/guest.config $here/configs/sleeb.config $here/configs/checks.config $here/configs/kasan.config $tests" ;;
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

# The sheaves tree's source: Debian's newest linux-source-7.N, by package.
sheaves_apt="$cache/apt-sheaves"
apt_opts() {
	local d=$sheaves_apt
	# Sources, lists, cache and pinning of its own; the machine's apt.conf
	# (a proxy) still applies. The lists dir is root's, which the _apt
	# sandbox user cannot enter: say so rather than have apt warn.
	echo -o "Dir::Etc::SourceParts=$d/sources" -o Dir::Etc::SourceList=/dev/null \
		-o "Dir::State::Lists=$d/lists" -o "Dir::Cache=$d/cache" \
		-o Dir::Etc::Preferences=/dev/null -o "Dir::Etc::PreferencesParts=$d/preferences.d" \
		-o APT::Sandbox::User=root
}

# Make sure the newest linux-source-7.N's tarball is in apt-sheaves/ and
# write its path, package and version into apt-sheaves/current.
fetch_sheaves() {
	local d=$sheaves_apt pkg ver dir tmp
	# shellcheck disable=SC2207
	local -a opts=($(apt_opts))
	if [ -n "${SLEEB_SHEAVES_TARBALL:-}" ]; then
		[ -r "$SLEEB_SHEAVES_TARBALL" ] || die "SLEEB_SHEAVES_TARBALL=$SLEEB_SHEAVES_TARBALL is not readable"
		mkdir -p "$d"
		# Named after its package when it comes from another cache's
		# apt-sheaves/PACKAGE-VERSION/ (tools/scale-sweep.sh).
		pkg=$(basename "$SLEEB_SHEAVES_TARBALL" .tar.xz)
		dir=$(basename "$(dirname "$SLEEB_SHEAVES_TARBALL")")
		ver='?'
		case "$dir" in "$pkg"-*) ver=${dir#"$pkg"-} ;; esac
		printf '%s\n' "$SLEEB_SHEAVES_TARBALL" "$pkg" "$ver" >"$d/current"
		return
	fi
	mkdir -p "$d/sources" "$d/preferences.d" "$d/lists/partial" "$d/cache/archives/partial"
	exec 8>"$d/lock"
	flock 8
	cat >"$d/sources/sleeb-sheaves.sources" <<-EOF
		Types: deb
		URIs: ${SLEEB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
		Suites: trixie-backports
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
	if [ -z "$(find "$d/lists" -maxdepth 1 -name '*_Packages*' -mtime -7)" ]; then
		say "sheaves: refreshing the trixie-backports package list ($d/lists)"
		apt-get "${opts[@]}" -q update >"$d/update.log" 2>&1 || {
			cat "$d/update.log" >&2
			[ -f "$d/current" ] || die "sheaves: apt-get update of trixie-backports failed"
			say "sheaves: could not refresh the list: keeping $(sed -n 2p "$d/current") $(sed -n 3p "$d/current")"
			exec 8>&-
			return
		}
	fi
	pkg=$(apt-cache "${opts[@]}" pkgnames linux-source-7. | grep -E '^linux-source-7\.[0-9]+$' | sort -V | tail -1)
	[ -n "$pkg" ] || die "sheaves: no linux-source-7.N in trixie-backports (lists in $d/lists)"
	ver=$(apt-cache "${opts[@]}" show --no-all-versions "$pkg" | sed -n 's/^Version: //p' | head -1)
	dir="$d/$pkg-$ver"
	if [ ! -r "$dir/$pkg.tar.xz" ]; then
		say "sheaves: downloading $pkg $ver (about 160 MB)"
		tmp="$d/download.tmp"
		rm -rf "$tmp" "$dir"
		mkdir -p "$tmp"
		(cd "$tmp" && apt-get "${opts[@]}" -q download "$pkg=$ver" >&2) ||
			die "sheaves: apt-get download $pkg=$ver failed"
		dpkg-deb -x "$tmp"/"${pkg}"_*_all.deb "$tmp/x" || die "sheaves: dpkg-deb -x of $pkg failed"
		mkdir -p "$dir.tmp"
		mv "$tmp/x/usr/src/$pkg.tar.xz" "$dir.tmp/" || die "sheaves: $pkg has no usr/src/$pkg.tar.xz"
		rm -rf "$tmp"
		mv "$dir.tmp" "$dir"
		# Older tarballs: only the newest is kept.
		find "$d" -maxdepth 1 -name 'linux-source-7.*' ! -path "$dir" -exec rm -rf {} +
	fi
	printf '%s\n' "$dir/$pkg.tar.xz" "$pkg" "$ver" >"$d/current"
	exec 8>&-
}

# The tarball a tree is unpacked from, and the file holding its id.
tarball_of() {
	if [ "$1" = sheaves ]; then sed -n 1p "$sheaves_apt/current"; else echo "$tarball"; fi
}
id_file_of() {
	if [ "$1" = sheaves ]; then echo "$cache/sheaves-tarball.id"; else echo "$cache/tarball.id"; fi
}
tarball_id() {
	stat -c '%s %Y' "$(tarball_of "$1")" | sha256sum | cut -d' ' -f1
}
# Debian's package and version a tree comes from.
source_package_of() {
	if [ "$1" = sheaves ]; then
		echo "$(sed -n 2p "$sheaves_apt/current") $(sed -n 3p "$sheaves_apt/current")"
	else
		echo "linux-source-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo '?')"
	fi
}

unpack_tree() {
	local tree=$1 dir="$cache/src/$1" id src
	id=$(cat "$(id_file_of "$tree")")
	src=$(tarball_of "$tree")
	if [ -f "$dir/.sleeb-tarball" ] && [ "$(cat "$dir/.sleeb-tarball")" = "$id" ]; then
		return
	fi
	say "unpacking $(basename "$src") into $dir"
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$dir.tmp"
	tar -xf "$src" -C "$dir.tmp" --strip-components=1
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
# in the guest. For another kernel than the fragments were written for
# (sheaves, 7.x) a line that does not hold is reported by name, with why
# (no such symbol, or what the final config has instead), and written to
# DIR/config-differences; not fatal.
verify_config() {
	local config=$1 bad=0 line sym val src msg diffs=''
	shift
	src=$(dirname "$config")/source
	if [ "$1" = --report ]; then
		diffs=$(dirname "$config")/config-differences
		: >"$diffs"
		shift
	fi
	while read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue ;; esac
		sym=${line%%=*} val=${line#*=}
		# A prefix of the series may not define the symbol yet.
		if [ -n "$series_limit" ] && ! grep -rqx --include='Kconfig*' "config ${sym#CONFIG_}" "$(dirname "$config")/source/mm" "$(dirname "$config")/source/lib" 2>/dev/null; then
			continue
		fi
		if [ "$val" = n ]; then
			grep -q "^$sym=" "$config" || continue
			msg="$sym=n requested, but it is set"
		else
			grep -qx "$sym=$val" "$config" && continue
			msg="$line requested, final config has: $(grep -E "^(# )?$sym[= ]" "$config" || echo 'nothing')"
		fi
		if [ -z "$diffs" ]; then
			say "config: $msg"
			bad=1
		elif ! grep -rqE --include='Kconfig*' "^[[:space:]]*(menu)?config ${sym#CONFIG_}\$" "$src/"; then
			echo "$sym: not in linux $(kernel_version "$src") (no Kconfig symbol); $line not applied" >>"$diffs"
		else
			echo "$sym: $msg; $(kconfig_why "${sym#CONFIG_}" "$src" "$config")" >>"$diffs"
		fi
	done < <(cat "$@")
	[ $bad -eq 0 ] || die "config fragments did not stick (missing dependencies?)"
	[ -z "$diffs" ] || [ ! -s "$diffs" ] || sed 's/^/kernel\/build.sh: config: /' "$diffs" >&2
}

# Why a symbol of tree SRC did not take the value a fragment asked for, in
# one line: a transitional symbol (renamed; only the default of its
# successors) names them with their values in the final CONFIG, any other
# its "depends on" lines with the value of each symbol they name.
kconfig_why() {
	local name=$1 src=$2 config=$3 block succ deps d
	block=$(find "$src/" -name 'Kconfig*' -exec awk -v n="$name" '
		/^[[:space:]]*(menu)?config / { on = ($2 == n) }
		/^[[:space:]]*(choice|endchoice|menu|endmenu|if|endif|source)([[:space:]]|$)/ { on = 0 }
		on' {} +)
	if echo "$block" | grep -qE '^[[:space:]]*transitional'; then
		succ=$(find "$src/" -name 'Kconfig*' -exec awk -v n="$name" '
			/^[[:space:]]*(menu)?config / { cur = $2 }
			/^[[:space:]]*default / && $0 ~ ("(^|[^A-Z0-9_])" n "([^A-Z0-9_]|$)") { print cur }' {} + |
			while read -r d; do grep -E "^(# )?CONFIG_$d[= ]" "$config" || echo "CONFIG_$d unset"; done |
			paste -sd, - | sed 's/,/, /g')
		echo "transitional in linux $(kernel_version "$src"), its successors: ${succ:-none}"
		return
	fi
	deps=$(echo "$block" | sed -n 's/^[[:space:]]*depends on //p' | paste -sd'&' - | sed 's/&/ \&\& /g')
	[ -n "$deps" ] || { echo "no unmet dependency (a choice or a select decides)"; return; }
	for d in $(echo "$deps" | grep -oE '[A-Z][A-Z0-9_]+' | sort -u); do
		deps="$deps, $(grep -E "^(# )?CONFIG_$d[= ]" "$config" || echo "CONFIG_$d unset")"
	done
	echo "depends on $deps"
}

inputs_id() {
	set_limit "$1"
	local variant=$1
	{
		cat "$(id_file_of "$(tree_of "$variant")")"
		echo "$variant"
		echo "recipe $recipe"
		# Prefixes carry the project's modules since the bench boots them.
		[ -z "$series_limit" ] || echo "prefix modules 1"
		cat $(fragments_of "$variant")
		if [ "$(tree_of "$variant")" != vanilla ] && [ "$variant" != sheaves ]; then
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
	case "$tree" in
	vanilla) unpack_tree vanilla ;;
	sheaves) unpack_tree sheaves ;;
	*) unpack_tree vanilla; unpack_tree "$tree"; apply_series "$tree" ;;
	esac
	say "$variant: linux $(kernel_version "$src") from $(basename "$(tarball_of "$tree")")" \
		"(Debian $(source_package_of "$tree"))," \
		"$(case "$tree" in vanilla | sheaves) echo 'no patches' ;; *) echo "$(series_patches | wc -l) patches" ;; esac)"

	mkdir -p "$obj"
	frags=$(fragments_of "$variant")
	if [ ! -f "$obj/.sleeb-config" ] || [ "$(cat $frags | sha256sum)" != "$(cat "$obj/.sleeb-config")" ] ||
		[ "$src/.sleeb-series" -nt "$obj/.sleeb-config" ] 2>/dev/null; then
		make -s -C "$src" O="$obj" tinyconfig >/dev/null
		# shellcheck disable=SC2086
		"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" $frags >/dev/null
		make -s -C "$obj" olddefconfig >/dev/null
		local report=()
		[ "$tree" != sheaves ] || report=(--report)
		# shellcheck disable=SC2086
		verify_config "$obj/.config" ${report[@]+"${report[@]}"} $frags
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
	[ ! -f "$obj/config-differences" ] || cp "$obj/config-differences" "$out.tmp/"
	source_package_of "$tree" >"$out.tmp/source-package"
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
		--sheaves-tarball) fetch_sheaves; tarball_of sheaves; return ;;
		--force) force=1 ;;
		all) want+=("${variants_all[@]}") ;;
		-h | --help) sed -n '3,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; return ;;
		*) tree_of "$1" >/dev/null; want+=("$1") ;;
		esac
		shift
	done
	[ ${#want[@]} -gt 0 ] || die "usage: kernel/build.sh [--force] VARIANT... (${variants_all[*]}, all)"
	command -v ccache >/dev/null || die "ccache is not installed (tools/install-deps.sh installs it)"
	ensure_tarball
	mkdir -p "$cache/src" "$cache/out"
	local sheaves=0 others=0
	for v in "${want[@]}"; do
		if [ "$v" = sheaves ]; then sheaves=1; else others=1; fi
	done
	[ $sheaves = 0 ] || fetch_sheaves
	# Up-to-date variants need no lock: a test run must not queue behind an
	# unrelated build of another variant.
	if [ $force -eq 0 ] && [ -f "$cache/tarball.id" ] && [ "$(tarball_id vanilla)" = "$(cat "$cache/tarball.id")" ] &&
		{ [ $sheaves = 0 ] || { [ -f "$cache/sheaves-tarball.id" ] &&
			[ "$(tarball_id sheaves)" = "$(cat "$cache/sheaves-tarball.id")" ]; }; }; then
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
	# The 6.12 variants share src/vanilla and tarball.id: one lock. The
	# sheaves tree shares nothing with them but ccache (which locks its
	# own files): a lock of its own, so that neither build waits for the
	# other. Taken in this order by everyone, the two cannot deadlock.
	if [ $others = 1 ]; then
		exec 9>"$cache/build.lock"
		flock 9
		tarball_id vanilla >"$cache/tarball.id"
	fi
	if [ $sheaves = 1 ]; then
		exec 7>"$cache/build-sheaves.lock"
		flock 7
		tarball_id sheaves >"$cache/sheaves-tarball.id"
	fi
	for v in "${want[@]}"; do
		[ $force -eq 0 ] || rm -f "$cache/out/$v/.stamp"
		build_variant "$v"
	done
}

# On one line: bash reads a script as it runs, and an edit of this file
# during a build must not run the rest of the new text afterwards.
main "$@"; exit
