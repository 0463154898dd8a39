// SPDX-License-Identifier: GPL-2.0
/*
 * sleeb_stress: concurrency stress for the SLUB object queues.
 *
 * One thread per online cpu allocates and frees random kmalloc sizes
 * (8..8192 bytes) and objects of a dedicated cache, hands a share of its
 * objects to other threads (on other cpus and nodes) to free, and checks a
 * pattern in every object before freeing it, so an object handed out twice
 * is caught. Each thread also runs a timer in hardirq context that
 * allocates and frees the same caches every irq_us microseconds, so that
 * irqs land in the middle of the threads' queue operations on their cpu.
 * A shrinker thread calls kmem_cache_shrink() periodically. The guest
 * script takes cpus offline and back meanwhile.
 *
 * Loading runs the whole stress (duration_s seconds) and prints one line,
 * "sleeb_stress: PASS ..." or "sleeb_stress: FAIL ...". Every object is
 * accounted for: allocations must equal frees, and the dedicated cache is
 * destroyed at the end, which warns if any object is missing.
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/llist.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/slab.h>

static unsigned int duration_s = 300;
module_param(duration_s, uint, 0444);
MODULE_PARM_DESC(duration_s, "how long to stress, in seconds");

static unsigned int shrink_ms = 200;
module_param(shrink_ms, uint, 0444);
MODULE_PARM_DESC(shrink_ms, "interval between kmem_cache_shrink() calls");

static unsigned int irq_us = 100;
module_param(irq_us, uint, 0444);
MODULE_PARM_DESC(irq_us, "interval of each thread's hardirq allocations (0: none)");

#define MAX_THREADS	64
#define IRQ_OBJS	16
#define LOCAL_OBJS	128
#define CACHE_OBJ_SIZE	192

/* Every object starts with this, so it can travel between threads. */
struct stress_obj {
	struct llist_node node;
	void *self;		/* the object's own address: a cheap pattern */
	u32 size;		/* 0: dedicated cache, else kmalloc size */
	u32 check;
};

struct stress_thread {
	struct task_struct *task;
	struct llist_head inbox;	/* objects others want this one to free */
	unsigned int id;
	struct hrtimer timer;		/* hardirq allocations and frees */
	struct rnd_state irq_rnd;
	struct stress_obj *irq_objs[IRQ_OBJS];
	unsigned int irq_n;
	unsigned long irq_ops;
};

static struct kmem_cache *stress_cache;
static struct stress_thread threads[MAX_THREADS];
static unsigned int nr_threads;
static unsigned long deadline;
static atomic_long_t nr_alloc, nr_free, nr_corrupt, nr_fail;
static DECLARE_COMPLETION(threads_done);
static atomic_t running;

static u32 obj_check(struct stress_obj *o)
{
	return (u32)(unsigned long)o ^ o->size ^ 0x5eeb5eeb;
}

static struct stress_obj *stress_alloc(struct rnd_state *rnd, gfp_t gfp)
{
	struct stress_obj *o;
	u32 size;

	if (prandom_u32_state(rnd) % 4 == 0) {
		o = kmem_cache_alloc(stress_cache, gfp);
		size = 0;
	} else {
		size = max_t(u32, sizeof(*o), 8 + prandom_u32_state(rnd) % 8185);
		o = kmalloc(size, gfp);
	}
	if (!o) {
		atomic_long_inc(&nr_fail);
		return NULL;
	}
	o->self = o;
	o->size = size;
	o->check = obj_check(o);
	atomic_long_inc(&nr_alloc);
	return o;
}

static void stress_free(struct stress_obj *o)
{
	if (o->self != o || o->check != obj_check(o)) {
		if (atomic_long_inc_return(&nr_corrupt) <= 5)
			pr_err("sleeb_stress: object %px corrupted (self %px size %u)\n",
			       o, o->self, o->size);
	}
	o->check = 0;
	if (o->size)
		kfree(o);
	else
		kmem_cache_free(stress_cache, o);
	atomic_long_inc(&nr_free);
}

/* Small objects that cannot carry a header: allocate and free in place. */
static void stress_tiny(struct rnd_state *rnd)
{
	void *p[16];
	unsigned int i, n = 1 + prandom_u32_state(rnd) % 16;

	for (i = 0; i < n; i++)
		p[i] = kmalloc(8 + prandom_u32_state(rnd) % 16, GFP_KERNEL);
	for (i = 0; i < n; i++)
		kfree(p[i]);
}

/*
 * In hardirq context on whatever cpu the thread armed the timer: fill the
 * stash with a few objects, or free a few of it, the newest first, which
 * pushes them into the queues this cpu's thread may be popping or pushing.
 * A failed GFP_ATOMIC allocation counts as failed, not as an error.
 */
static enum hrtimer_restart stress_irq(struct hrtimer *timer)
{
	struct stress_thread *t = container_of(timer, struct stress_thread, timer);
	unsigned int n = 1 + prandom_u32_state(&t->irq_rnd) % 4;
	struct stress_obj *o;

	if (prandom_u32_state(&t->irq_rnd) % 2) {
		while (n-- && t->irq_n < IRQ_OBJS) {
			o = stress_alloc(&t->irq_rnd, GFP_ATOMIC | __GFP_NOWARN);
			if (!o)
				break;
			t->irq_objs[t->irq_n++] = o;
		}
	} else {
		while (n-- && t->irq_n)
			stress_free(t->irq_objs[--t->irq_n]);
	}
	t->irq_ops++;
	hrtimer_forward_now(timer, ns_to_ktime(irq_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void drain_inbox(struct stress_thread *t)
{
	struct llist_node *list = llist_del_all(&t->inbox);
	struct stress_obj *o, *tmp;

	llist_for_each_entry_safe(o, tmp, list, node)
		stress_free(o);
}

static int stress_fn(void *arg)
{
	struct stress_thread *t = arg;
	struct stress_obj *local[LOCAL_OBJS];
	unsigned int n = 0, i;
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 0x5eeb + t->id);
	prandom_seed_state(&t->irq_rnd, 0xe5ee + t->id);
	if (irq_us) {
		hrtimer_init(&t->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		t->timer.function = stress_irq;
		hrtimer_start(&t->timer, ns_to_ktime(irq_us * NSEC_PER_USEC), HRTIMER_MODE_REL_PINNED_HARD);
	}
	while (time_before(jiffies, deadline)) {
		switch (prandom_u32_state(&rnd) % 8) {
		case 0 ... 3:	/* allocate, keep locally */
			if (n < LOCAL_OBJS) {
				local[n] = stress_alloc(&rnd, GFP_KERNEL);
				if (local[n])
					n++;
				break;
			}
			fallthrough;
		case 4:		/* free locally, newest or oldest */
			if (n) {
				i = prandom_u32_state(&rnd) % 2 ? n - 1 : 0;
				stress_free(local[i]);
				local[i] = local[--n];
			}
			break;
		case 5:		/* hand one to another thread (another cpu or node) */
			if (n && nr_threads > 1) {
				unsigned int to = (t->id + 1 + prandom_u32_state(&rnd) %
						   (nr_threads - 1)) % nr_threads;

				llist_add(&local[--n]->node, &threads[to].inbox);
			}
			break;
		case 6:
			drain_inbox(t);
			break;
		case 7:
			stress_tiny(&rnd);
			break;
		}
		cond_resched();
	}
	while (n)
		stress_free(local[--n]);
	if (irq_us) {
		hrtimer_cancel(&t->timer);
		while (t->irq_n)
			stress_free(t->irq_objs[--t->irq_n]);
	}
	if (atomic_dec_and_test(&running))
		complete(&threads_done);
	return 0;
}

static int __init sleeb_stress_init(void)
{
	unsigned long shrinks = 0, irq_ops = 0;
	unsigned int cpu, i;
	long allocs, frees;

	stress_cache = kmem_cache_create("sleeb_stress", CACHE_OBJ_SIZE, 0,
					 SLAB_NO_MERGE, NULL);
	if (!stress_cache)
		return -ENOMEM;
	deadline = jiffies + duration_s * HZ;
	/* Every possible cpu: the guest script may have one offline right now. */
	for_each_possible_cpu(cpu) {
		if (nr_threads == MAX_THREADS)
			break;
		threads[nr_threads].id = nr_threads;
		init_llist_head(&threads[nr_threads].inbox);
		nr_threads++;
	}
	atomic_set(&running, nr_threads);
	pr_info("sleeb_stress: %u threads for %u s, shrink every %u ms\n",
		nr_threads, duration_s, shrink_ms);
	for (i = 0; i < nr_threads; i++) {
		threads[i].task = kthread_run(stress_fn, &threads[i],
					      "sleeb_stress/%u", i);
		if (IS_ERR(threads[i].task)) {
			pr_err("sleeb_stress: FAIL cannot start threads\n");
			deadline = jiffies;
			atomic_sub(nr_threads - i, &running);
			break;
		}
	}
	while (!wait_for_completion_timeout(&threads_done,
					    msecs_to_jiffies(shrink_ms))) {
		kmem_cache_shrink(stress_cache);
		for (i = 1; i < KMALLOC_SHIFT_HIGH; i++)
			if (kmalloc_caches[KMALLOC_NORMAL][i] && i % 3 == shrinks % 3)
				kmem_cache_shrink(kmalloc_caches[KMALLOC_NORMAL][i]);
		shrinks++;
	}
	/* Whatever is still in an inbox was handed over after its owner stopped. */
	for (i = 0; i < nr_threads; i++)
		drain_inbox(&threads[i]);
	kmem_cache_destroy(stress_cache);

	allocs = atomic_long_read(&nr_alloc);
	frees = atomic_long_read(&nr_free);
	for (i = 0; i < nr_threads; i++)
		irq_ops += threads[i].irq_ops;
	pr_info("sleeb_stress: %s allocs=%ld frees=%ld corrupt=%ld failed=%ld shrinks=%lu irq_ops=%lu\n",
		allocs == frees && !atomic_long_read(&nr_corrupt) && allocs ?
		"PASS" : "FAIL", allocs, frees, atomic_long_read(&nr_corrupt),
		atomic_long_read(&nr_fail), shrinks, irq_ops);
	return 0;
}

static void __exit sleeb_stress_exit(void)
{
}

module_init(sleeb_stress_init);
module_exit(sleeb_stress_exit);
MODULE_DESCRIPTION("Concurrency stress for SLUB object queues");
MODULE_LICENSE("GPL");
