#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the hand-made fake /proc + /sys/kernel/slab trees used by the
sleebctl CLI tests:

  fake-sleeb/    a SLEEB kernel: queue attributes, queue_stats, merged aliases
  fake-vanilla/  the same caches on a kernel without SLEEB (tunables 0 0 0)

Usage: make-fake-tree.py [OUTDIR]   (default: the directory of this script)
The numbers are plausible, not captured; a real guest snapshot goes next to
these as its own directory.
"""
import os
import shutil
import sys

# name, objsize, active, total, objperslab, pagesperslab, queue, batch, shared, merged id
CACHES = [
    ("kmalloc-64", 64, 3000, 3072, 64, 1, 120, 60, 480, ":0000064"),
    ("kmalloc-128", 128, 1500, 1536, 32, 1, 120, 60, 480, ":0000128"),
    ("kmalloc-1k", 1024, 400, 512, 16, 4, 54, 27, 216, None),
    ("kmalloc-4k", 4096, 100, 128, 8, 8, 24, 12, 96, None),
    ("dentry", 192, 20000, 20160, 21, 1, 120, 60, 480, None),
    ("inode_cache", 600, 5000, 5005, 13, 2, 54, 27, 216, None),
    # A name longer than the 17-column field.
    ("ext4_groupinfo_4k_and_then_some", 144, 10, 28, 28, 1, 120, 60, 480, None),
    # Lots of allocated-but-unused memory: trips the waste check.
    ("leaky_buffers", 8192, 1000, 20000, 4, 8, 8, 4, 0, None),
    # A debug cache that cannot queue: attributes present, queues off.
    ("sleeb-debug", 256, 0, 0, 16, 1, 0, 0, 0, None),
]
ALIASES = {":0000064": ["dmaengine-unmap-2", "ip_mrt_cache"], ":0000128": ["pid_namespace"]}
MEMINFO = """MemTotal:        2014400 kB
MemFree:         1500000 kB
MemAvailable:    1700000 kB
Buffers:            1024 kB
Cached:            51200 kB
Slab:             190000 kB
SReclaimable:      80000 kB
SUnreclaim:       110000 kB
HugePages_Total:       0
Hugepagesize:       2048 kB
"""


def slabinfo(sleeb):
    out = ["slabinfo - version: 2.1",
           "# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab>"
           " : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs>"
           " <num_slabs> <sharedavail>"]
    for (name, size, active, total, ops, pps, q, b, s, _) in CACHES:
        slabs = (total + ops - 1) // ops
        q, b, s = (q, b, s) if sleeb else (0, 0, 0)
        avail = s // 2 if sleeb else 0
        # SLAB's sharedfactor: the shared queue in batches, rounded up.
        factor = -(-s // b) if b else 0
        out.append("%-17s %6d %6d %6d %4d %4d : tunables %4d %4d %4d : slabdata %6d %6d %6d"
                   % (name, active, total, size, ops, pps, q, b, factor, slabs, slabs, avail))
    return "\n".join(out) + "\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def tree(root, sleeb):
    shutil.rmtree(root, ignore_errors=True)
    write(os.path.join(root, "proc/slabinfo"), slabinfo(sleeb))
    write(os.path.join(root, "proc/meminfo"), MEMINFO)
    slab = os.path.join(root, "sys/kernel/slab")
    for i, (name, size, active, total, ops, pps, q, b, s, merged) in enumerate(CACHES):
        d = merged or name
        slabs = (total + ops - 1) // ops
        attrs = {"object_size": size, "objects": "%d N0=%d" % (active, active),
                 "total_objects": "%d N0=%d" % (total, total), "slabs": slabs,
                 "objs_per_slab": ops, "order": pps.bit_length() - 1,
                 "aliases": len(ALIASES.get(merged, [])) + (1 if merged else 0)}
        if sleeb:
            attrs.update(cpu_queue_size=q, cpu_batch_size=b, shared_queue_size=s)
        for k, v in attrs.items():
            write(os.path.join(slab, d, k), "%s\n" % v)
        if sleeb:
            stats = ["alloc_refill %d" % (1000 * (i + 1)), "free_drain %d" % (900 * (i + 1)),
                     "shared_alloc_hit 50", "shared_alloc_miss 5", "shared_free 40",
                     "shared_overflow 1", "remote_free 0", "remote_alloc 0",
                     "reap_drained 7", "resize 0"]
            write(os.path.join(slab, d, "queue_stats"), "\n".join(stats) + "\n")
        if merged:
            for alias in [name] + ALIASES.get(merged, []):
                os.symlink(merged, os.path.join(slab, alias))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    tree(os.path.join(out, "fake-sleeb"), True)
    tree(os.path.join(out, "fake-vanilla"), False)


if __name__ == "__main__":
    main()
