#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a guest kernel with an initramfs (busybox guest) or a root disk
# (systemd guest) in QEMU and wait for it to power off.
#
#   vm-images/run-qemu.sh --kernel BZIMAGE (--initrd CPIO | --disk IMAGE)
#                         --logdir DIR [--timeout SECONDS] [--append "CMDLINE"]
#                         [--clock mttcg|single|icount|kvm] [--mem SIZE] [--interactive]
#                         [--plugin SO[,ARG=VALUE...]] [--seed N] [--one-cpu]
#                         [--smp CPUS --nodes NODES] [--nics]
#
# Machine: 4 vCPUs in 2 NUMA nodes (cpus 0-1 on node 0, 2-3 on node 1), 2 GiB
# split evenly, serial console (ttyS0) to DIR/console.log and the test channel
# (ttyS1) to DIR/tap.log.
#
# --smp CPUS --nodes NODES shapes it otherwise: CPUS vCPUs in NODES nodes
# (one socket each, up to 8), numbered in blocks as on most real machines
# (node 0 has cpus 0 to CPUS/NODES-1, and so on), the memory split evenly.
# --smp 4 --nodes 2 is the default machine, option for option. The guest
# kernel brings up at most its CONFIG_NR_CPUS of them (8 in the project's
# kernels: tools/scale-sweep.sh builds its own with more).
#
# Clocks: mttcg (default) is multi-threaded TCG, for wall-clock runs;
# icount is single-threaded TCG with -icount shift=0,sleep=off, in which guest
# time advances 1 ns per instruction (a deterministic path-length clock);
# single is single-threaded TCG on the real clock (one host thread runs the
# vCPUs in turn: what tools/int3-evidence.sh compares mttcg with);
# kvm only when asked for (nested KVM hangs on some hosts). SLEEB_QEMU_CLOCK
# sets the default.
#
# --disk boots IMAGE (vm-images/systemd-image.sh) as /dev/vda, a virtio disk,
# with systemd as init; the image is changed by the boot.
#
# --plugin loads a TCG plugin, the model clock (model-clock/model-clock.so)
# with the machine's NUMA layout added to its arguments (cpunodes, and
# nodemem for each node's guest physical range); it needs --clock icount.
# --seed N makes the guest's randomness and wall clock the same in every
# boot: QEMU's -seed N (RDRAND and friends from a seeded generator) and an
# RTC that starts at a fixed date and follows the virtual clock. With
# --clock icount the boot then runs the same instructions every time.
#
# --one-cpu boots 1 vCPU on one node instead: with --clock icount and
# --seed, QEMU 7.2 then repeats a boot instruction for instruction, which
# it does not do with 4 vCPUs (their interleaving, and so where the
# kernel's interrupts land, varies from boot to boot).
#
# --nics adds two virtio network cards (PCI, on legacy interrupt lines:
# the guest kernels have no PCI MSI) whose ports sit on one QEMU hub and
# nowhere else: a wire between the two cards, with no host network and no
# address outside the guest. A frame one card sends, the other receives
# through its interrupt and NAPI's softirq; the guest moves one card into
# a network namespace of its own so that its own traffic takes that wire
# (tests/vm/guest-bin/nic-traffic.c). QEMU warns in qemu.log that the hub
# is not connected to the host network: that is the point.
#
# --interactive puts the console on this terminal instead (no log, no timeout).
#
# Exit status: 0 when the guest powered off by itself, 124 on timeout (the
# guest is killed), QEMU's own status otherwise.
set -euo pipefail

kernel='' initrd='' disk='' logdir='' append='' timeout=600 mem=2G interactive=0 plugin='' seed='' one_cpu=0 nics=0
smp=4 nodes=2
clock=${SLEEB_QEMU_CLOCK:-mttcg}
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift ;;
	--initrd) initrd=$2; shift ;;
	--disk) disk=$2; shift ;;
	--logdir) logdir=$2; shift ;;
	--append) append=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--clock) clock=$2; shift ;;
	--mem) mem=$2; shift ;;
	--interactive) interactive=1 ;;
	--plugin) plugin=$2; shift ;;
	--seed) seed=$2; shift ;;
	--one-cpu) one_cpu=1 ;;
	--nics) nics=1 ;;
	--smp) smp=$2; shift ;;
	--nodes) nodes=$2; shift ;;
	*) echo "run-qemu.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
[ -r "$kernel" ] && { [ -r "$initrd" ] || [ -r "$disk" ]; } && { [ -n "$logdir" ] || [ $interactive = 1 ]; } ||
	{ echo "usage: $0 --kernel BZIMAGE (--initrd CPIO | --disk IMAGE) --logdir DIR [...]" >&2; exit 2; }
command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 missing (tools/install-deps.sh)" >&2; exit 2; }

# shellcheck disable=SC2054 # commas belong to QEMU options
case "$clock" in
mttcg) accel=(-accel tcg,thread=multi -cpu max) ;;
single) accel=(-accel tcg,thread=single -cpu max) ;;
icount) accel=(-accel tcg,thread=single -icount shift=0,sleep=off -cpu max) ;;
kvm) accel=(-accel kvm -cpu host) ;;
*) echo "run-qemu.sh: unknown clock '$clock' (mttcg, single, icount, kvm)" >&2; exit 2 ;;
esac

case "$smp/$nodes" in
*[!0-9/]* | /* | */ | 0/* | */0) echo "run-qemu.sh: --smp and --nodes take positive numbers ('$smp', '$nodes')" >&2; exit 2 ;;
esac
[ "$nodes" -le 8 ] && [ $((smp % nodes)) = 0 ] ||
	{ echo "run-qemu.sh: --smp $smp --nodes $nodes: at most 8 nodes, each with the same number of cpus" >&2; exit 2; }
bytes=$(numfmt --from=iec "$mem")
[ $((bytes % nodes)) = 0 ] || { echo "run-qemu.sh: --mem $mem does not split evenly over $nodes nodes" >&2; exit 2; }
# shellcheck disable=SC2054
machine=("${accel[@]}" -machine pc -m "$mem")
if [ $one_cpu = 1 ]; then
	machine+=(-smp 1)
	layout="cpunodes=0,nodemem=0:0+$bytes"
else
	# Node n: cpus n*per to (n+1)*per-1 and the n-th slice of the memory.
	per=$((smp / nodes)) slice=$((bytes / nodes)) cpunodes='' nodemem=''
	machine+=(-smp "$smp,sockets=$nodes,cores=$per,threads=1")
	for n in $(seq 0 $((nodes - 1))); do
		# shellcheck disable=SC2054
		machine+=(-object "memory-backend-ram,id=m$n,size=$slice")
	done
	for n in $(seq 0 $((nodes - 1))); do
		cpus=$((n * per))
		[ $per = 1 ] || cpus+=-$(((n + 1) * per - 1))
		# shellcheck disable=SC2054
		machine+=(-numa "node,nodeid=$n,cpus=$cpus,memdev=m$n")
		for _ in $(seq 1 $per); do cpunodes+=${cpunodes:+:}$n; done
		nodemem+=,nodemem=$n:$((n * slice))+$slice
	done
	layout="cpunodes=$cpunodes$nodemem"
fi
machine+=(-kernel "$kernel" -display none -vga none -nodefaults -no-reboot)
if [ -n "$plugin" ]; then
	[ "$clock" = icount ] || { echo "run-qemu.sh: --plugin needs --clock icount (single-threaded TCG)" >&2; exit 2; }
	# The pc machine maps all RAM from 0 when it is below 3.5 GiB; above
	# that a part moves over 4 GiB, which these ranges do not describe.
	[ "$bytes" -le $((0xe0000000)) ] ||
		{ echo "run-qemu.sh: --plugin supports at most 3.5 GiB of guest memory" >&2; exit 2; }
	machine+=(-plugin "file=$plugin,$layout")
fi
if [ $nics = 1 ]; then
	for i in 0 1; do
		# shellcheck disable=SC2054
		machine+=(-netdev "hubport,id=wire$i,hubid=0"
			-device "virtio-net-pci,netdev=wire$i,mac=52:54:00:5e:e0:0$i")
	done
fi
if [ -n "$seed" ]; then
	# shellcheck disable=SC2054
	machine+=(-seed "$seed" -rtc base=2026-01-01T00:00:00,clock=vm)
fi
# no_timer_check: the kernel's boot-time check that the IO-APIC timer
# ticks measures it against a busy loop; an emulated cpu that the host
# deschedules fails it and panics ("IO-APIC + timer doesn't work!"), as
# boots on a loaded 2-core host did. The timer works; the check is skipped.
# no5lvl: four-level page tables although `-cpu max` offers LA57. With five
# levels, KASAN's idea of where its shadow starts follows the boot cpu's
# LA57 bit, which identify_cpu() clears and sets again while interrupts are
# on; a timer interrupt in that window (likelier the slower the host) made
# every lock it took a "wild-memory-access" report. Nothing measured or
# tested needs the fifth level.
if [ -n "$disk" ]; then
	# cache=unsafe: the image is thrown away after the boot, so host-side
	# flushes buy nothing.
	machine+=(-drive file="$disk",if=virtio,format=raw,cache=unsafe
		-append "console=ttyS0 panic=-1 no_timer_check no5lvl root=/dev/vda rw rootfstype=ext4 $append")
else
	machine+=(-initrd "$initrd" -append "console=ttyS0 panic=-1 no_timer_check no5lvl $append")
fi
if [ $interactive = 1 ]; then
	exec qemu-system-x86_64 "${machine[@]}" -serial mon:stdio
fi
mkdir -p "$logdir"
: >"$logdir/console.log"
: >"$logdir/tap.log"
set +e
timeout --kill-after=10 "$timeout" qemu-system-x86_64 "${machine[@]}" \
	-serial file:"$logdir/console.log" \
	-serial file:"$logdir/tap.log" \
	</dev/null >"$logdir/qemu.log" 2>&1
rc=$?
set -e
exit $rc
