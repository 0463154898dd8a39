#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build one libFuzzer target with clang (-fsanitize=fuzzer,address,undefined)
# and run it for $SLEEB_FUZZ_SECONDS (default 60).  Exit 77 (meson: skipped)
# when clang or its libFuzzer runtime is missing.
#
# usage: run-fuzz.sh CLANG BUILDDIR NAME TARGET.c SEED_CORPUS INCLUDE_DIR SOURCES...
# (SOURCES: lib/*.c and whatever else the target needs, such as
# sleebd/uevent-parse.c)
set -eu

clang=$1 builddir=$2 name=$3 target=$4 seeds=$5 include=$6
shift 6
secs=${SLEEB_FUZZ_SECONDS:-60}

if [ -z "$clang" ] || ! command -v "$clang" >/dev/null 2>&1; then
	echo "clang not found: skipping fuzz-$name"
	exit 77
fi

out="$builddir/fuzz-$name.d"
mkdir -p "$out/corpus" "$out/artifacts"
# The lib is compiled into the fuzzer so it gets the same instrumentation.
# -Werror is left out on purpose: clang's warning set differs from gcc's and
# the gcc builds already enforce it.
if ! "$clang" -std=c17 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I"$include" -o "$out/fuzz-$name" "$target" "$@" 2>"$out/build.log"; then
	if grep -q -e "libclang_rt.fuzzer" -e "cannot find -l" "$out/build.log"; then
		echo "clang has no libFuzzer runtime: skipping fuzz-$name"
		exit 77
	fi
	cat "$out/build.log" >&2
	exit 1
fi

echo "fuzz-$name: running for ${secs}s (corpus $out/corpus, seeds $seeds)"
set +e
"$out/fuzz-$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -artifact_prefix="$out/artifacts/" \
	"$out/corpus" "$seeds" >"$out/run.log" 2>&1
rc=$?
set -e
grep -E "^(Done|stat::number_of_executed_units|stat::peak_rss_mb)" "$out/run.log" || true
if [ $rc -ne 0 ]; then
	tail -n 60 "$out/run.log" >&2
	echo "fuzz-$name: FAILED (exit $rc); reproducer in $out/artifacts/" >&2
	exit 1
fi
echo "fuzz-$name: no crashes"
