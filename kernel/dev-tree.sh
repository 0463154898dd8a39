#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A git tree for editing the series: Debian's pristine linux-source-6.12
# as the commit tagged "pristine", and one commit per patch of
# kernel/series on top of it.
#
#   kernel/dev-tree.sh init [DIR]     create DIR from the tarball and git am
#                                     the series (DIR must not exist)
#   kernel/dev-tree.sh export [DIR]   write DIR's commits after "pristine"
#                                     back to kernel/patches and kernel/series,
#                                     then kernel/checkpatch.sh on each
#
# DIR defaults to $SLEEB_CACHE/dev/linux (~/.cache/sleeb/dev/linux), out
# of the repository like every kernel tree. Change a patch with plain git:
#   git commit --fixup=<its commit> && git rebase -i --autosquash pristine
# then export, and kernel/check-series.sh proves every prefix still
# builds and boots. A compile check of one file needs no full build:
#   make O=/tmp/devobj olddefconfig && make O=/tmp/devobj mm/slub.o
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${SLEEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sleeb}
tarball=${SLEEB_LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}

die() { echo "kernel/dev-tree.sh: error: $*" >&2; exit 1; }
say() { echo "kernel/dev-tree.sh: $*" >&2; }
usage() { sed -n '/^#   kernel/p' "${BASH_SOURCE[0]}" | sed 's/^# *//' >&2; exit 2; }

# Commits carry the series' authorship; the committer is only the tool.
export GIT_COMMITTER_NAME="SLEEB developers" GIT_COMMITTER_EMAIL="sleeb@example.invalid"

init() {
	local dir=$1 p
	[ ! -e "$dir" ] || die "$dir already exists; remove it or pass another DIR"
	[ -r "$tarball" ] || die "$tarball is missing (apt-get install linux-source-6.12)"
	say "unpacking $(basename "$tarball") into $dir"
	rm -rf "$dir.tmp" # left by an interrupted init
	mkdir -p "$dir.tmp"
	tar -xf "$tarball" -C "$dir.tmp" --strip-components=1
	git -C "$dir.tmp" init -q
	git -C "$dir.tmp" config user.name "$GIT_COMMITTER_NAME"
	git -C "$dir.tmp" config user.email "$GIT_COMMITTER_EMAIL"
	say "committing the pristine tree (a minute or two)"
	# -f: Debian's top-level .gitignore ignores everything ("/*"), as
	# its packaging repository holds only debian/. A file new to the
	# series needs git add -f likewise.
	git -C "$dir.tmp" add -A -f
	git -C "$dir.tmp" commit -q -m "Debian linux-source-6.12, pristine ($(basename "$tarball"))"
	git -C "$dir.tmp" tag pristine
	while read -r p; do
		git -C "$dir.tmp" am -q --keep-cr "$here/patches/$p" || die "git am $(basename "$p") failed in $dir.tmp"
	done < <("$here/build.sh" --series)
	mv "$dir.tmp" "$dir"
	git -C "$dir" log --oneline pristine..HEAD >&2
}

export_series() {
	local dir=$1 n
	git -C "$dir" rev-parse -q --verify pristine >/dev/null || die "$dir has no 'pristine' tag (made by: kernel/dev-tree.sh init)"
	[ -z "$(git -C "$dir" status --porcelain --untracked-files=no)" ] ||
		die "$dir has uncommitted changes: commit them into the series first"
	n=$(git -C "$dir" rev-list --count pristine..HEAD)
	[ "$n" -gt 0 ] || die "$dir has no commits after 'pristine'"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	# --zero-commit: the files do not change with the dev tree's commit
	# ids, so exporting an unchanged series changes nothing.
	git -C "$dir" format-patch -q --no-numbered --no-signature --zero-commit -o "$tmp" pristine..HEAD
	rm -f "$here"/patches/*.patch
	cp "$tmp"/*.patch "$here/patches/"
	{
		echo "# SLEEB patch series against Debian's linux-source-6.12, applied in order by"
		echo "# kernel/build.sh. One git format-patch file per line, from kernel/patches/."
		(cd "$tmp" && ls -- *.patch)
	} >"$here/series"
	say "wrote $n patches to kernel/patches and kernel/series"
	"$here/checkpatch.sh" --tree "$dir" "$here"/patches/*.patch >&2 ||
		die "checkpatch --strict has findings (above): fix them in the commits and export again"
}

dir=${2:-$cache/dev/linux}
case "${1:-}" in
init) init "$dir" ;;
export) export_series "$dir" ;;
*) usage ;;
esac
