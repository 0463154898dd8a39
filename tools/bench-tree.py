#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a fake /proc + /sys/kernel/slab tree the size of a real machine,
for tools/bench-daemon.sh (what sleebd costs per interval).

  bench-tree.py OUTDIR [NCACHES]

The caches of the real host snapshot tests/data/host-vanilla-6.18 (235
/proc/slabinfo lines) come first, then made-up ones up to NCACHES (300 by
default), all with SLEEB tunables and a queue_stats. Like a real kernel,
the kmalloc caches and a few others are merged: a ":0000SIZE" directory
with one name link per cache merged into it (some invented), so the
/sys/kernel/slab listing has about 1.5 entries per cache (the 6.18 host:
429 for 235).
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
HOST = os.path.join(here, "..", "tests", "data", "host-vanilla-6.18", "proc")
STATS = ("alloc_refill free_drain shared_alloc_hit shared_alloc_miss shared_free "
         "shared_overflow remote_free remote_alloc reap_drained resize fastpath_ops").split()


def defaults(size):
    """The kernel's default queue sizes for an object size (as SLAB's)."""
    if size > 131072:
        return 1, 1, 0
    if size > 4096:
        return 8, 4, 0
    if size > 1024:
        return 24, 12, 96
    if size > 256:
        return 54, 27, 216
    return 120, 60, 480


def main():
    out = sys.argv[1]
    want = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    caches = []
    with open(os.path.join(HOST, "slabinfo")) as f:
        for line in f:
            if line.startswith("slabinfo") or line.startswith("#"):
                continue
            w = line.split()
            caches.append([w[0], int(w[1]), int(w[2]), int(w[3]), int(w[4]), int(w[5])])
    i = 0
    while len(caches) < want:
        size = (32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096)[i % 10]
        caches.append(["bench_cache_%d" % i, 1000 + i, 1024 + i, size, 4096 // size or 1, 1])
        i += 1
    caches = caches[:want]

    slab = os.path.join(out, "sys", "kernel", "slab")
    os.makedirs(slab)
    os.makedirs(os.path.join(out, "proc"))
    lines = ["slabinfo - version: 2.1\n",
             "# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : "
             "tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> "
             "<sharedavail>\n"]
    nalias = 0
    for n, (name, active, total, size, per, pages) in enumerate(caches):
        q, b, s = defaults(size)
        slabs = (total + per - 1) // per if per else 0
        # The third tunable is SLAB's sharedfactor: the shared queue in batches.
        factor = -(-s // b) if b else 0
        lines.append("%-17s %6d %6d %6d %4d %4d : tunables %4d %4d %4d : slabdata %6d %6d %6d\n"
                     % (name, active, total, size, per, pages, q, b, factor, slabs, slabs, 0))
        merged = name.startswith("kmalloc-") and "-cg-" not in name or n % 7 == 0
        d = os.path.join(slab, ":%07d-%d" % (size, n) if merged else name)
        os.makedirs(d)
        attrs = {"object_size": size, "objs_per_slab": per, "order": 0, "objects": active,
                 "slabs": slabs, "total_objects": total, "cpu_queue_size": q,
                 "cpu_batch_size": b, "shared_queue_size": s, "aliases": 0}
        for a, v in attrs.items():
            with open(os.path.join(d, a), "w") as f:
                f.write("%d\n" % v)
        with open(os.path.join(d, "queue_stats"), "w") as f:
            f.write("".join("%s %d\n" % (st, 1000 * (k + 1)) for k, st in enumerate(STATS)))
        if merged:
            os.symlink(os.path.basename(d), os.path.join(slab, name))
            # Other caches merged into this one: names only sysfs knows.
            for k in range(1):
                os.symlink(os.path.basename(d), os.path.join(slab, "%s_alias%d" % (name, k)))
                nalias += 1
    with open(os.path.join(out, "proc", "slabinfo"), "w") as f:
        f.writelines(lines)
    with open(os.path.join(HOST, "meminfo")) as src, open(os.path.join(out, "proc", "meminfo"), "w") as f:
        f.write(src.read())
    print("%d caches, %d entries in sys/kernel/slab" % (len(caches), len(os.listdir(slab))))


main()
