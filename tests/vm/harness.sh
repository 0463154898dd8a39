#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Run one guest suite on one kernel variant and report TAP on stdout:
#
#   tests/vm/harness.sh SUITE VARIANT [--build-dir DIR] [--timeout S]
#                       [--append "CMDLINE"] [--extra HOSTPROG]...
#                       [--image busybox|systemd] [--kernel-out DIR]
#                       [--tag NAME] [--plugin SO[,ARGS]] [--seed N] [--one-cpu]
#                       [--smp CPUS --nodes NODES] [--nics]
#
# Builds the variant when needed (kernel/build.sh), makes the guest with the
# suite's guest scripts (tests/vm/guest/SUITE/*.sh): a busybox initramfs
# (default) or, with --image systemd, a Debian 12 disk with systemd as PID 1
# and the project installed (vm-images/systemd-image.sh; needs --build-dir).
# --kernel-out boots DIR/bzImage with DIR/modules instead of the variant's
# build (kernel/check-series.sh uses it for each prefix of the series).
# Boots it (vm-images/run-qemu.sh) and turns the guest's report into TAP: every
# `ok`/`not ok` line of the guest renumbered, then the host's own checks:
#   - the guest ran every script to the end (no timeout, no panic, no death);
#   - the kernel console log has no splat (BUG:, slub_debug's "BUG cache
#     (Tainted...): ", WARNING:, KASAN:, possible circular locking, Oops,
#     general protection fault, kmemleak leaks).
# Exit status 0 only when every test point passed. Logs stay in
# DIR/vm-logs/SUITE-VARIANT[-NAME] (or a temporary dir without --build-dir);
# --tag NAME keeps two boots of one suite and variant apart. --plugin,
# --seed, --one-cpu, --smp, --nodes and --nics go to vm-images/run-qemu.sh
# (the model clock, a reproducible boot, the machine's shape, two network
# cards on a wire of their own).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
suite=${1:?usage: harness.sh SUITE VARIANT [--build-dir DIR] [...]}
variant=${2:?usage: harness.sh SUITE VARIANT [--build-dir DIR] [...]}
shift 2
build_dir='' timeout=${SLEEB_VM_TIMEOUT:-900} append='' image=busybox kout='' tag=''
extras=() qemu_extra=()
while [ $# -gt 0 ]; do
	case "$1" in
	--build-dir) build_dir=$(cd "$2" && pwd); shift ;;
	--timeout) timeout=$2; shift ;;
	--append) append=$2; shift ;;
	--extra) extras+=(--extra "$2"); shift ;;
	--image) image=$2; shift ;;
	--kernel-out) kout=$(cd "$2" && pwd); shift ;;
	--tag) tag=-$2; shift ;;
	--plugin | --seed | --smp | --nodes) qemu_extra+=("$1" "$2"); shift ;;
	--one-cpu | --nics) qemu_extra+=("$1") ;;
	*) echo "harness.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
[ -d "$here/guest/$suite" ] || { echo "harness.sh: no guest suite tests/vm/guest/$suite" >&2; exit 2; }
case "$image" in
busybox) ;;
systemd) [ -n "$build_dir" ] || { echo "harness.sh: --image systemd needs --build-dir" >&2; exit 2; } ;;
*) echo "harness.sh: unknown image '$image' (busybox, systemd)" >&2; exit 2 ;;
esac

# The kernel suites boot fully preemptible (the guest kernels have
# PREEMPT_DYNAMIC and default to voluntary, like Debian's): a task can then
# be preempted, and migrated, wherever the queues' paths leave preemption
# on, which is what their node and re-entry rules must survive.
# vm-kernel provokes a KASAN report on purpose (60-provoked-reports.sh):
# kasan_multi_shot keeps KASAN reporting after it.
case "$suite" in
vm-kernel) append="preempt=full kasan_multi_shot $append" ;;
vm-stress) append="preempt=full $append" ;;
esac
# On the KASAN variant the AML interpreter is slow enough under TCG that
# evaluating the PCI root bridge's interrupt routing table (QEMU's
# \_SB.PCI0._PRT, a While loop over every slot) runs into ACPICA's 30-s
# loop limit: "ACPI Error: Aborting method \_SB.PCI0._PRT due to previous
# error (AE_AML_LOOP_TIMEOUT)", then "PCI INT A: no GSI", and every PCI
# device is left without an interrupt (the network cards stop with a
# transmit timeout, the systemd guest's disk hangs its boot). pci=noacpi
# routes PCI interrupts from the firmware's $PIR table instead, as a
# kernel without ACPI would; the other variants keep ACPI's routing.
case "$variant" in
sleeb-debug) append="pci=noacpi $append" ;;
esac
# QEMU 7.2's multi-threaded TCG can run a stale translation of the int3
# that text_poke_bp() puts into a jump for a moment while it flips a static
# key, on a vCPU that executes the site meanwhile: "Oops: int3"
# (docs/int3-oops.md). The first debug cache a suite creates (slub_kunit, the
# KUnit suite, the stress) turns slub_debug_enabled on under load. A
# slab_debug list that names no cache turns it on at boot, before the other
# cpus run, and gives no cache debug flags. A cmdline with its own
# slab_debug keeps it.
case "$suite" in
vm-boot | vm-kernel | vm-meminit | vm-stress)
	case " $append " in
	*" slab_debug="* | *" slub_debug="*) ;;
	*) append="slab_debug=-,sleeb_key_at_boot $append" ;;
	esac
	;;
esac

if [ -n "$build_dir" ]; then
	logdir="$build_dir/vm-logs/$suite-$variant$tag"
else
	logdir=$(mktemp -d /tmp/sleeb-vm.XXXXXX)
fi
rm -rf "$logdir"
mkdir -p "$logdir"

echo "TAP version 13"
bail() { echo "Bail out! $*"; exit 1; }

if [ -z "$kout" ]; then
	"$top/kernel/build.sh" "$variant" 2>"$logdir/kernel-build.log" ||
		{ sed 's/^/# /' "$logdir/kernel-build.log"; bail "kernel variant $variant did not build"; }
	kout=$("$top/kernel/build.sh" --out "$variant")
fi
if [ "$image" = systemd ]; then
	echo "# making the systemd guest's disk (Debian 12; the first run debootstraps it, a few minutes)"
	"$top/vm-images/systemd-image.sh" --variant "$variant" --kernel-out "$kout" --out "$logdir/root.ext4" \
		--build-dir "$build_dir" 2>"$logdir/image.log" ||
		{ sed 's/^/# /' "$logdir/image.log"; bail "systemd guest image for $suite did not build"; }
	guest=(--disk "$logdir/root.ext4")
else
	"$top/vm-images/busybox-initramfs.sh" --variant "$variant" --kernel-out "$kout" --out "$logdir/initramfs.cpio.gz" \
		${build_dir:+--build-dir "$build_dir"} ${extras[@]+"${extras[@]}"} 2>"$logdir/initramfs.log" ||
		{ sed 's/^/# /' "$logdir/initramfs.log"; bail "initramfs for $suite did not build"; }
	guest=(--initrd "$logdir/initramfs.cpio.gz")
fi

echo "# booting $variant ($(cat "$kout/kernelrelease")) with the $image guest for suite $suite, logs in $logdir"
start=$(date +%s)
"$top/vm-images/run-qemu.sh" --kernel "$kout/bzImage" "${guest[@]}" \
	--logdir "$logdir" --timeout "$timeout" --append "sleeb.suite=$suite $append" \
	${qemu_extra[@]+"${qemu_extra[@]}"}
qemu_rc=$?
echo "# guest ran $(( $(date +%s) - start )) s, qemu exit status $qemu_rc"

n=0 failed=0
point() { # point ok|not-ok DESCRIPTION
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
	fi
}

# The guest's own test points, renumbered; script exit codes checked.
while IFS= read -r line; do
	line=${line%$'\r'}
	case "$line" in
	"ok "* | "ok") point ok "$(echo "${line#ok}" | sed 's/^ *[0-9]* *-\{0,1\} *//')" ;;
	"not ok"*) point not-ok "$(echo "${line#not ok}" | sed 's/^ *[0-9]* *-\{0,1\} *//')" ;;
	"SLEEB-SCRIPT-END "*)
		rc=${line##*rc=}
		[ "$rc" = 0 ] || point not-ok "guest script ${line#SLEEB-SCRIPT-END } (non-zero exit)"
		;;
	"#"*) echo "$line" ;;
	"SLEEB-"*) ;;
	*) [ -n "$line" ] && echo "# guest: $line" ;;
	esac
done <"$logdir/tap.log"

# Did the guest get to the end?
if grep -q '^SLEEB-VERDICT done' "$logdir/tap.log"; then
	point ok "$variant guest ran suite $suite to the end"
else
	if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
		why="timeout after ${timeout}s (guest hung)"
	elif p=$(grep -m1 'Kernel panic' "$logdir/console.log"); then
		why="guest panicked: ${p#*] }"
	else
		why="guest stopped before its verdict (qemu status $qemu_rc)"
	fi
	point not-ok "$variant guest ran suite $suite to the end: $why"
	tail -n 25 "$logdir/console.log" | sed 's/^/#   console: /'
fi

# Any splat in the kernel log fails the run, whatever the tests said, but
# for the reports a test provoked on purpose: a guest script announces each
# one as "SLEEB-EXPECT-SPLAT N ERE" before it provokes it (N lines matching
# the extended regular expression ERE). Exactly that many matching splat
# lines are taken off the list; fewer is a failure of its own (the check
# did not fire), and any further match stays a splat.
splat='BUG:|BUG [^ ]+ \((Not tainted|Tainted: [^)]*)\): |WARNING:|KASAN:|possible circular locking|Oops|general protection fault|kmemleak: .* new suspected|Kernel panic|INFO: task .* blocked'
grep -E -n "$splat" "$logdir/console.log" >"$logdir/splats.txt"
# Two warnings are the scheduler's, not the allocator's, and are known.
# The first: 6.12's deadline server accounting finds its running bandwidth already
# lower when a cpu goes offline (the underflow check of
# __sub_running_bw(), "dl_rq->running_bw > old"), seen in vm-stress's cpu
# hotplug on a loaded host. It is reported from sub_running_bw() when
# dl_server_stop() calls it in sched_cpu_dying(), and from
# inactive_task_timer(), into which the KASAN kernel inlines it, when the
# server's inactive timer fires after the cpu went. The second:
# sched_cpu_dying() finding a second task counted on the dying cpu's
# runqueue that is no longer in the task list (its dump names only the
# stopper thread), met under stress-ng's fork and clone stressors during
# cpu hotplug on the KASAN kernel. Both are listed as comments and not
# counted; any other splat still is.
known='WARNING: CPU: [0-9]+ PID: [0-9]+ at kernel/sched/(deadline\.c:[0-9]+ (sub_running_bw|inactive_task_timer)|core\.c:[0-9]+ sched_cpu_dying)'
grep -E -- "$known" "$logdir/splats.txt" | sed 's/^/# known scheduler warning, not counted: /' | cut -c1-200
grep -E -v -- "$known" "$logdir/splats.txt" >"$logdir/splats.tmp"
mv "$logdir/splats.tmp" "$logdir/splats.txt"
while IFS= read -r line; do
	line=${line%$'\r'}
	want=${line#SLEEB-EXPECT-SPLAT }
	count=${want%% *} ere=${want#* }
	seen=$(grep -E -c -- "$ere" "$logdir/splats.txt")
	if [ "$seen" -ge "$count" ]; then
		point ok "expected report seen $count time(s): $ere"
		awk -v ere="$ere" -v n="$count" 'n > 0 && $0 ~ ere { n--; next } { print }' \
			"$logdir/splats.txt" >"$logdir/splats.tmp"
		mv "$logdir/splats.tmp" "$logdir/splats.txt"
	else
		point not-ok "expected report seen $count time(s): $ere (seen $seen)"
	fi
done < <(grep '^SLEEB-EXPECT-SPLAT [0-9][0-9]* ' "$logdir/tap.log")
if [ -s "$logdir/splats.txt" ]; then
	point not-ok "kernel log free of splats: $(wc -l <"$logdir/splats.txt") matching lines, first: $(head -1 "$logdir/splats.txt" | cut -c1-160)"
	head -n 20 "$logdir/splats.txt" | sed 's/^/#   /'
else
	point ok "kernel log free of splats (BUG/WARNING/KASAN/lockdep/Oops/GPF/kmemleak)"
fi

echo "1..$n"
[ $failed -eq 0 ]
