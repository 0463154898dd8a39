#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the Debian package sleeb-tools (debian/) from this tree and check it
# with lintian:
#
#   tools/build-deb.sh [--version VERSION] [--out DIR] [--quiet]
#
# The tree is copied to a temporary directory and built there with
# `dpkg-buildpackage -us -uc -b`, so the work tree gets no build products.
# The version is the project's (meson.build), which debian/changelog must
# carry; --version VERSION builds the same tree under another version (a
# changelog entry is added to the copy), e.g. a higher one to test an
# upgrade. lintian must report no error and no warning (debian/
# sleeb-tools.lintian-overrides says why a tag is overridden).
#
# The result goes to DIR/<key>/ (default DIR: ~/.cache/sleeb/deb, or
# $SLEEB_CACHE/deb), where <key> hashes the version and the content of every
# file the copy holds: an unchanged tree is not built again. The last line
# printed (stdout) is the .deb's path; the build log and lintian's report are
# beside it (build.log, lintian.log).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(dirname "$here")
version='' out=${SLEEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sleeb}/deb quiet=0
while [ $# -gt 0 ]; do
	case "$1" in
	--version) version=${2:?--version needs a value}; shift ;;
	--out) out=${2:?--out needs a directory}; shift ;;
	--quiet) quiet=1 ;;
	*) echo "build-deb.sh: unknown argument '$1' (usage: $0 [--version V] [--out DIR] [--quiet])" >&2; exit 2 ;;
	esac
	shift
done
say() { [ "$quiet" = 1 ] || echo "build-deb.sh: $*" >&2; }
die() { echo "build-deb.sh: $*" >&2; exit 1; }

for tool in dpkg-buildpackage dpkg-parsechangelog dh lintian; do
	command -v "$tool" >/dev/null || die "$tool missing (tools/install-deps.sh installs dpkg-dev, debhelper and lintian)"
done
[ "$(dpkg --print-architecture)" = amd64 ] || say "building for $(dpkg --print-architecture), not amd64"

# The project's version is meson.build's, and the changelog's top entry
# must say the same: a release bumps both.
project_version=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$top/meson.build" | head -n 1)
[ -n "$project_version" ] || die "no project version in $top/meson.build"
changelog_version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
[ "$changelog_version" = "$project_version" ] ||
	die "debian/changelog's top entry is $changelog_version, meson.build says $project_version: add a changelog entry for $project_version"
[ -n "$version" ] || version=$project_version
case "$version" in
[0-9]*) ;;
*) die "version '$version' must start with a digit (a Debian version)" ;;
esac
dpkg --compare-versions "$version" ge 0 2>/dev/null || die "'$version' is not a valid Debian version"

# The files to copy: what the package is built from (with -Dtests=false
# the top meson.build reads only these; a new directory the userspace
# needs goes here too), as they are in the work tree now: what git tracks
# plus new files it does not ignore. Only these key the cache, so an edit
# of a test or of the kernel series builds nothing again.
inputs=(meson.build meson_options.txt lib sleebd sleebctl debian 'docs/*.[1-8]')
cd "$top"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	list_files() {
		git ls-files -z --cached --others --exclude-standard -- "${inputs[@]}" |
			while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done
	}
else
	# shellcheck disable=SC2086 # the man page glob expands here
	list_files() { find ${inputs[*]} -type f -print0; }
fi
key=$({ echo "version $version"; list_files | sort -z | xargs -0 sha256sum; } | sha256sum | cut -c1-16)
dest=$out/$key
deb=$dest/sleeb-tools_${version}_$(dpkg --print-architecture).deb
if [ -f "$deb" ] && [ -f "$dest/.complete" ]; then
	say "up to date: $deb (lintian: $dest/lintian.log)"
	echo "$deb"
	exit 0
fi

mkdir -p "$out"
# One build at a time per cache (work trees side by side share it); the
# one that waited may find its package made meanwhile.
exec 9>"$out/.lock"
flock 9
if [ -f "$deb" ] && [ -f "$dest/.complete" ]; then
	say "built meanwhile: $deb"
	echo "$deb"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sleeb-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
src=$tmp/sleeb-$version
mkdir -p "$src"
list_files | cpio -0 -pdm --quiet "$src" 2>"$tmp/cpio.err" ||
	{ cat "$tmp/cpio.err" >&2; die "copying the tree to $src failed"; }
if [ "$version" != "$project_version" ]; then
	# A new top entry, dated a second after the one below it: lintian
	# wants a newer date, and one derived from the tree (the package's
	# timestamps come from it) builds the same package twice alike.
	cl=$src/debian/changelog
	when=$(date -u -R -d "@$(( $(dpkg-parsechangelog -l "$cl" -S Timestamp) + 1 ))")
	{
		printf 'sleeb (%s) bookworm; urgency=medium\n\n' "$version"
		printf '  * Built by tools/build-deb.sh --version %s from the %s tree.\n\n' "$version" "$project_version"
		printf ' -- %s  %s\n\n' "$(dpkg-parsechangelog -l "$cl" -S Maintainer)" "$when"
		cat "$cl"
	} >"$tmp/changelog"
	mv "$tmp/changelog" "$cl"
fi

say "dpkg-buildpackage -us -uc -b in $src (version $version)"
start=$(date +%s)
# No -dbgsym package: nothing here keeps it.
(cd "$src" && DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }noautodbgsym" dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1 ||
	{ tail -n 40 "$tmp/build.log" >&2; die "dpkg-buildpackage failed (whole log above the last 40 lines in $tmp/build.log, removed on exit)"; }
built=$tmp/$(basename "$deb")
[ -f "$built" ] || { ls -l "$tmp" >&2; die "dpkg-buildpackage made no $(basename "$built")"; }
changes=$(ls "$tmp"/sleeb_"${version}"_*.changes)
say "built in $(( $(date +%s) - start )) s; lintian"

# Warnings fail as errors do; overridden tags are counted in the summary
# line. pedantic and info tags are shown, not fatal.
lintian_rc=0
lintian --fail-on error,warning --display-info --show-overrides "$changes" >"$tmp/lintian.log" 2>&1 || lintian_rc=$?

rm -rf "$dest"
mkdir -p "$dest"
cp "$built" "$tmp/build.log" "$tmp/lintian.log" "$dest/"
if [ "$lintian_rc" -ne 0 ]; then
	cat "$tmp/lintian.log" >&2
	die "lintian found errors or warnings (exit status $lintian_rc; report in $dest/lintian.log): fix them or override them with a reason in debian/sleeb-tools.lintian-overrides"
fi
touch "$dest/.complete"
[ "$quiet" = 1 ] || sed 's/^/build-deb.sh: lintian: /' "$dest/lintian.log" >&2
say "$(grep -c '' "$dest/lintian.log") lintian lines, none an error or warning; $(( $(date +%s) - start )) s in all"

# Older builds are dead weight, but a tree built at two versions (the
# upgrade test) and branches side by side each want theirs: keep six.
ls -1dt "$out"/*/ 2>/dev/null | tail -n +7 | while read -r old; do rm -rf "$old"; done
echo "$deb"
