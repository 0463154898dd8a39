#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-images/run-qemu.sh's machine shapes, without booting anything: a fake
# qemu-system-x86_64 on PATH writes its arguments, one a line, to the log.
#   - no shape options: the 4-vCPU, 2-node machine and the model clock's
#     layout exactly as they always were; --smp 4 --nodes 2 the same;
#   - --smp 32 --nodes 8: 8 sockets of 4, cpus in blocks, 256 MiB a node,
#     and the plugin told the same;
#   - shapes that cannot be made are refused with a message.
#
# usage: run-qemu-shape.sh SOURCE_ROOT   (TAP on stdout)
set -uo pipefail
top=${1:?usage: run-qemu-shape.sh SOURCE_ROOT}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
printf '#!/bin/sh\nprintf "%%s\\n" "$@"\n' >"$tmp/bin/qemu-system-x86_64"
chmod +x "$tmp/bin/qemu-system-x86_64"
: >"$tmp/k"
: >"$tmp/i"
n=0 failed=0
point() { # point OK? DESCRIPTION [DETAIL]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		[ -z "${3:-}" ] || echo "#   $3"
	fi
}
qemu() { # qemu ARGS...: the argument list run-qemu.sh gave QEMU, on one line
	PATH=$tmp/bin:$PATH "$top/vm-images/run-qemu.sh" --kernel "$tmp/k" --initrd "$tmp/i" \
		--logdir "$tmp/log" --clock icount "$@" >"$tmp/err" 2>&1 || return 1
	tr '\n' ' ' <"$tmp/log/qemu.log"
}
G=$((1 << 30))
want="-smp 4,sockets=2,cores=2,threads=1 -object memory-backend-ram,id=m0,size=$G -object memory-backend-ram,id=m1,size=$G -numa node,nodeid=0,cpus=0-1,memdev=m0 -numa node,nodeid=1,cpus=2-3,memdev=m1 "
wantp="-plugin file=/p.so,cpunodes=0:0:1:1,nodemem=0:0+$G,nodemem=1:$G+$G "
got=$(qemu --plugin /p.so)
[[ $got == *"$want"*"$wantp"* ]]
point $? "default: 4 vCPUs in 2 nodes, the plugin's layout as before" "$got"
got2=$(qemu --plugin /p.so --smp 4 --nodes 2)
[ "$got" = "$got2" ]
point $? "--smp 4 --nodes 2 is the default, argument for argument" "$got2"
got=$(qemu --plugin /p.so --smp 32 --nodes 8)
M=$((256 << 20))
want="-smp 32,sockets=8,cores=4,threads=1 "
for i in 0 1 2 3 4 5 6 7; do want+="-object memory-backend-ram,id=m$i,size=$M "; done
for i in 0 1 2 3 4 5 6 7; do want+="-numa node,nodeid=$i,cpus=$((4 * i))-$((4 * i + 3)),memdev=m$i "; done
wantp="cpunodes=0:0:0:0:1:1:1:1:2:2:2:2:3:3:3:3:4:4:4:4:5:5:5:5:6:6:6:6:7:7:7:7"
for i in 0 1 2 3 4 5 6 7; do wantp+=",nodemem=$i:$((i * M))+$M"; done
[[ $got == *"$want"*"-plugin file=/p.so,$wantp "* ]]
point $? "--smp 32 --nodes 8: blocks of 4 cpus, 256 MiB a node, the plugin told the same" "$got"
got=$(qemu --smp 2 --nodes 2)
[[ $got == *"-numa node,nodeid=0,cpus=0,memdev=m0 -numa node,nodeid=1,cpus=1,memdev=m1 "* ]]
point $? "--smp 2 --nodes 2: one cpu a node" "$got"
for bad in "--smp 6 --nodes 4|each with the same number of cpus" "--smp 18 --nodes 9|at most 8 nodes" \
	"--smp x --nodes 2|take positive numbers" "--smp 0 --nodes 1|take positive numbers" \
	"--smp 3 --nodes 3|does not split evenly over 3 nodes"; do
	args=${bad%%|*} msg=${bad#*|}
	# shellcheck disable=SC2086
	if qemu $args >/dev/null; then
		point 1 "$args refused" "QEMU was started"
	else
		grep -q "$msg" "$tmp/err"
		point $? "$args refused: $msg" "$(cat "$tmp/err")"
	fi
done
echo "1..$n"
[ $failed = 0 ]
