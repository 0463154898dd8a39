#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The TCG plugin API header (qemu-plugin.h) of the QEMU installed here, for
# building perf/model-clock:
#
#   tools/qemu-plugin-api.sh           print the directory that holds the
#                                      header (exit 1 when it is not cached)
#   tools/qemu-plugin-api.sh --fetch   fetch it first when missing (root)
#
# The header ships in no Debian binary package, only in the qemu source
# package. --fetch downloads the source package of exactly the installed
# qemu-system-x86 version with `apt-get source` (adding deb-src entries for
# the suites apt already uses when there are none), unpacks it with the
# Debian patches applied, keeps include/qemu/qemu-plugin.h and throws the
# tree away. Everything lives in $SLEEB_CACHE (default ~/.cache/sleeb)
# under qemu-plugin-api/<source version>/, never in the repository.
set -euo pipefail

cache=${SLEEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sleeb}
die() { echo "tools/qemu-plugin-api.sh: error: $*" >&2; exit 1; }
say() { echo "tools/qemu-plugin-api.sh: $*" >&2; }

fetch=0
case "${1:-}" in
'') ;;
--fetch) fetch=1 ;;
*) echo "usage: $0 [--fetch]" >&2; exit 2 ;;
esac

srcver=$(dpkg-query -W -f='${source:Version}' qemu-system-x86 2>/dev/null) ||
	die "qemu-system-x86 is not installed (tools/install-deps.sh)"
# No colon (epoch) in the path: ninja's depfiles would split on it.
dir=$cache/qemu-plugin-api/${srcver//:/_}
if [ -r "$dir/qemu/qemu-plugin.h" ]; then
	echo "$dir"
	exit 0
fi
[ $fetch = 1 ] || exit 1

[ "$(id -u)" -eq 0 ] || die "fetching the qemu source package needs root (apt-get update, deb-src entries)"

# deb-src entries mirroring the deb ones, when apt has none: the same
# URIs, suites and components, in a file of our own.
if ! apt-cache showsrc qemu >/dev/null 2>&1 || [ -z "$(apt-cache showsrc qemu 2>/dev/null)" ]; then
	list=/etc/apt/sources.list.d/sleeb-deb-src.sources
	say "no deb-src entries: writing $list from the deb entries"
	{
		echo "# Written by SLEEB's tools/qemu-plugin-api.sh: source packages"
		echo "# (qemu-plugin.h comes only with the qemu source)."
		echo
		# deb822 stanzas of Debian's archive with Types: deb become deb-src.
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -r "$f" ] || continue
			awk '
				function flush() {
					if (deb && uris ~ /debian/) {
						print "Types: deb-src"
						printf "%s", body
						print ""
					}
					deb = 0; uris = ""; body = ""
				}
				/^[ \t]*$/ { flush(); next }
				/^#/ { next }
				/^Types:/ { if ($0 ~ /[ \t]deb([ \t]|$)/) deb = 1; next }
				/^URIs:/ { uris = $0 }
				{ body = body $0 "\n" }
				END { flush() }
			' "$f"
		done
		# One-line format: deb URI SUITE COMPONENTS...
		for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
			[ -r "$f" ] || continue
			awk '$1 == "deb" && $0 ~ /debian/ {
				printf "Types: deb-src\n"
				i = 2
				if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
				printf "URIs: %s\nSuites: %s\nComponents:", $i, $(i + 1)
				for (j = i + 2; j <= NF; j++) printf " %s", $j
				printf "\n\n"
			}' "$f"
		done
	} >"$list.tmp"
	mv "$list.tmp" "$list"
	apt-get update -qq || die "apt-get update failed"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sleeb-qemu-src.XXXXXX")
trap 'rm -rf "$work"' EXIT
say "fetching the qemu $srcver source package (about 25 MB) for qemu-plugin.h"
(cd "$work" && apt-get source -qq -o APT::Sandbox::User=root --download-only "qemu=$srcver" >&2) ||
	die "apt-get source qemu=$srcver failed"
dsc=$(find "$work" -maxdepth 1 -name "qemu_*.dsc" | head -1)
[ -n "$dsc" ] || die "apt-get source left no .dsc in $work"
(cd "$work" && dpkg-source --no-check -x "$dsc" tree >/dev/null) ||
	die "dpkg-source could not unpack $dsc"
[ -r "$work/tree/include/qemu/qemu-plugin.h" ] || die "the qemu $srcver source has no include/qemu/qemu-plugin.h"
mkdir -p "$dir.tmp/qemu"
cp "$work/tree/include/qemu/qemu-plugin.h" "$dir.tmp/qemu/"
echo "$srcver" >"$dir.tmp/source-version"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
say "qemu-plugin.h of qemu $srcver in $dir"
echo "$dir"
