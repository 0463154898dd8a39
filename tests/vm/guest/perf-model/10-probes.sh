# SPDX-License-Identifier: GPL-2.0
# The perf-model suite's guest side: memory patterns whose cost the model
# clock (model-clock.so) must predict, each in its own measurement window.
# The host (tests/perf-model/run.sh) checks the plugin's report against
# the geometry; here each pattern only has to run. Window ids are the
# host's keys: keep both lists in step.
. /tests/lib.sh

# Strides on cpu 0 (node 0) over memory it touched first (node 0's).
check "stride 24 KiB x8 (fits the 32 KiB L1)" model-probe stride 1 0 24576 8
check "stride 64 KiB x4 (twice the L1)" model-probe stride 2 0 65536 4
check "stride 1 MiB x2 (fits the 4 MiB LLC)" model-probe stride 3 0 1048576 2
check "stride 16 MiB x2 (4 times the LLC)" model-probe stride 4 0 16777216 2
# Locked read-modify-writes, and plain adds that are not.
check "10000 lock add" model-probe atomic 20 0 add 10000
check "10000 xchg with memory" model-probe atomic 21 0 xchg 10000
check "10000 lock cmpxchg16b" model-probe atomic 22 0 cmpxchg16b 10000
check "10000 plain add" model-probe atomic 23 0 plain 10000

# With one vCPU (the reproducibility boots) only the patterns on cpu 0.
if [ "$(nproc)" -lt 3 ]; then
	exit 0
fi
# cpu 2 (node 1) reads memory cpu 0 touched: node 0 owns the frames.
check "stride 1 MiB on node 1 over node 0's memory" model-probe stride 5 2 1048576 1 0

# One line written in turns: same node (cpus 0, 1), across nodes (0, 2).
check "pingpong cpus 0-1, 2000 turns" model-probe pingpong 10 0 1 2000
check "pingpong cpus 0-2, 2000 turns" model-probe pingpong 11 0 2 2000

