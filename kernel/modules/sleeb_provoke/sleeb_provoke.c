// SPDX-License-Identifier: GPL-2.0
/*
 * sleeb_provoke: commit, on purpose, a bug that the kernel must report, for
 * the guest tests that require the report (tests/vm/guest/vm-kernel/6*.sh):
 *
 *   what=leak         allocate an object of a fresh cache, from its cpu
 *                     queue, and drop the only pointer to it: kmemleak must
 *                     report it, although the queue's array still holds a
 *                     stale pointer to it in the slot above its top
 *   what=double_free  free an object twice in a row: the queue must refuse
 *                     the second free and report it
 *   what=leak,double_free  both (the module loads only once)
 *
 * Before it acts, the module prints the report it expects on this kernel,
 * as "sleeb_provoke: expect N ERE" (N console lines matching the extended
 * regular expression ERE), for the script to pass on to the host harness.
 * Each ERE brackets the first letter of every word the host's splat scan
 * looks for, so that the line announcing it is not itself a splat.
 * The module cannot be unloaded: the leaked object's cache must outlive the
 * report, and the double-freed object stays queued.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kfence.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *what = "";
module_param(what, charp, 0444);
MODULE_PARM_DESC(what, "leak, double_free, or both separated by a comma");

static struct kmem_cache *cache;

/* An object from the queues: KFENCE samples never enter them. */
static void *alloc_queued(void)
{
	void *p;

	while ((p = kmem_cache_alloc(cache, GFP_KERNEL)) && is_kfence_address(p))
		kmem_cache_free(cache, p);
	return p;
}

static noinline void provoke_leak(void)
{
	void *p = alloc_queued();

	/*
	 * The script finds the object in kmemleak's report by this function's
	 * name in its backtrace; its address is printed nowhere.
	 */
	pr_info("expect 1 [k]memleak: 1 new suspected memory leaks\n");
	pr_info("leaked an object: %s\n", p ? "yes" : "no memory");
}

static noinline void provoke_double_free(void)
{
	void *p = alloc_queued();

	if (!p)
		return;
	/*
	 * Generic KASAN takes the first free into its quarantine and reports
	 * the second itself; elsewhere the object is on top of the cpu queue.
	 */
	if (IS_ENABLED(CONFIG_KASAN_GENERIC))
		pr_info("expect 1 [B]UG: [K]ASAN: double-free in provoke_double_free\n");
	else
		pr_info("expect 1 [W]ARNING: .* sleeb_double_free\n");
	kmem_cache_free(cache, p);
	kmem_cache_free(cache, p);
	pr_info("freed an object twice\n");
}

static int __init sleeb_provoke_init(void)
{
	cache = kmem_cache_create("sleeb_provoke", 64, 0, SLAB_NO_MERGE, NULL);
	if (!cache)
		return -ENOMEM;
	if (sysfs_streq(what, "leak") || sysfs_streq(what, "leak,double_free"))
		provoke_leak();
	if (sysfs_streq(what, "double_free") || sysfs_streq(what, "leak,double_free"))
		provoke_double_free();
	if (!strstr(what, "leak") && !strstr(what, "double_free")) {
		pr_err("what=%s: expected leak, double_free or leak,double_free\n", what);
		kmem_cache_destroy(cache);
		return -EINVAL;
	}
	return 0;
}

module_init(sleeb_provoke_init);
MODULE_DESCRIPTION("Provoke bugs that SLEEB kernels must report");
MODULE_LICENSE("GPL");
