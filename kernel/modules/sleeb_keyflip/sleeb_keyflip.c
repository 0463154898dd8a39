// SPDX-License-Identifier: GPL-2.0
/*
 * sleeb_keyflip: flips a static key while every other cpu runs the code it
 * patches, to tell an emulator's stale translation from a kernel bug.
 *
 * A static key flip rewrites a jump with text_poke_bp(): an int3 on the
 * first byte, a sync of every cpu, the rest of the instruction, a sync,
 * the first byte, a sync. A cpu that reaches the site meanwhile traps on
 * the int3 and the kernel's handler emulates the instruction; once the
 * last sync is done, no cpu may execute the int3 any more. If one does,
 * the kernel finds no patch in progress and reports "Oops: int3".
 *
 *   key=own    a key of this module, tested in the workers' loop, flipped
 *              @flips times
 *   key=cache  once: create a SLAB_RED_ZONE cache; the first debug cache
 *              turns the kernel's slub_debug_enabled key on, whose sites
 *              are in kmem_cache_alloc() and kmem_cache_free()
 *
 * One worker per other online cpu allocates and frees in a loop and runs
 * the patched sites. The module prints "sleeb_keyflip: done ..." at the
 * end; an oops before that is the answer. Loading it is the whole test:
 * it stays loaded only if it survived (unload is refused, it is a probe).
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/jump_label.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/slab.h>

static char *key = "own";
module_param(key, charp, 0444);
MODULE_PARM_DESC(key, "own: flip a key of this module; cache: create a debug cache");
static unsigned int flips = 5000;
module_param(flips, uint, 0444);
MODULE_PARM_DESC(flips, "how many times key=own is flipped");

static DEFINE_STATIC_KEY_FALSE(keyflip_own);
static struct kmem_cache *work_cache;
static atomic_t running = ATOMIC_INIT(0);
static atomic_t stop = ATOMIC_INIT(0);
static unsigned long taken[NR_CPUS];

/* The patched sites: this module's key, and SLUB's in alloc and free. */
static noinline void work_once(unsigned int cpu)
{
	void *p = kmem_cache_alloc(work_cache, GFP_KERNEL);
	void *q = kmalloc(64, GFP_KERNEL);

	if (static_branch_unlikely(&keyflip_own))
		taken[cpu]++;
	kfree(q);
	kmem_cache_free(work_cache, p);
}

static int worker(void *arg)
{
	unsigned int cpu = (unsigned long)arg;
	unsigned long n = 0;

	while (!atomic_read(&stop)) {
		work_once(cpu);
		if (!(++n & 255))
			cond_resched();
	}
	atomic_dec(&running);
	return 0;
}

static int __init keyflip_init(void)
{
	struct kmem_cache *debug_cache = NULL;
	unsigned int cpu, self, i;
	struct task_struct *t;

	if (strcmp(key, "own") && strcmp(key, "cache"))
		return -EINVAL;
	work_cache = kmem_cache_create("sleeb_keyflip", 128, 0, 0, NULL);
	if (!work_cache)
		return -ENOMEM;
	self = get_cpu();
	put_cpu();
	for_each_online_cpu(cpu) {
		if (cpu == self)
			continue;
		t = kthread_create(worker, (void *)(unsigned long)cpu, "keyflip/%u", cpu);
		if (IS_ERR(t))
			continue;
		kthread_bind(t, cpu);
		atomic_inc(&running);
		wake_up_process(t);
	}
	msleep(200);
	pr_info("sleeb_keyflip: key=%s, %d workers, flipping from cpu %u\n",
		key, atomic_read(&running), self);
	if (!strcmp(key, "cache")) {
		debug_cache = kmem_cache_create("sleeb_keyflip_rz", 96, 0,
						SLAB_RED_ZONE, NULL);
		for (i = 0; i < 2000; i++)
			work_once(self);
	} else {
		for (i = 0; i < flips; i++) {
			if (i & 1)
				static_branch_disable(&keyflip_own);
			else
				static_branch_enable(&keyflip_own);
			work_once(self);
			if (!(i & 63))
				cond_resched();
		}
		static_branch_disable(&keyflip_own);
	}
	atomic_set(&stop, 1);
	while (atomic_read(&running))
		msleep(20);
	kmem_cache_destroy(debug_cache);
	pr_info("sleeb_keyflip: done key=%s flips=%u\n", key,
		strcmp(key, "cache") ? flips : 1);
	return 0;
}
module_init(keyflip_init);

MODULE_DESCRIPTION("SLEEB: static key flips under load, for the int3 question");
MODULE_LICENSE("GPL");
