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
 * irqs land in the middle of the threads' queue operations on their cpu,
 * and one in softirq context that allocates and frees the dedicated cache
 * in bulk, as NET_RX's skb cache does (napi_skb_cache_get()).
 * A shrinker thread calls kmem_cache_shrink() periodically. The guest
 * script takes cpus offline and back meanwhile.
 *
 * A quarter of the allocations ask for a node, half of those with
 * __GFP_THISNODE; a migrator thread keeps moving the threads between the
 * nodes' cpus (every migrate_us), so allocations are preempted and
 * migrated wherever the allocator lets them. With memcgs= the threads
 * charge half of their allocations (__GFP_ACCOUNT) to those memory
 * cgroups, so accounted objects move through the queues too. Some objects
 * come from kmem_cache_alloc_bulk() and go back through
 * kmem_cache_free_bulk(), kfree_bulk() or, after a grace period,
 * kvfree_rcu_mightsleep(), the bulk paths that the queues serve as well.
 *
 * Loading runs the whole stress (duration_s seconds) and prints one line,
 * "sleeb_stress: PASS ..." or "sleeb_stress: FAIL ...". The verdict rests on
 * checks that do not trust the module's own counts:
 *  - the live set: a bit per 8-byte granule of memory (every object is at
 *    least 8 bytes and 8-aligned), set when an object is handed out and
 *    cleared before it is freed, with atomic bit operations (irq-safe, no
 *    allocation). An address handed out while live, or freed while not
 *    live, fails the run at once, reported with where it happens and where
 *    that address was last handed out or freed (kept best effort in a hash
 *    table that later entries may overwrite);
 *  - the node of every node-bound allocation, which must be the node asked
 *    for (KFENCE samples come from their own pool);
 *  - a pattern in every object, checked before it is freed;
 *  - allocations equal frees, and the dedicated cache is destroyed at the
 *    end, which warns if any object is missing.
 * The memcg charges are the guest script's to check: back to zero once the
 * cgroups are removed. selftest=1 commits one of each fault the checks
 * look for, through the same code, and must end in FAIL; with memcgs= it
 * also leaks a charge, which the script must find.
 */
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/cgroup.h>
#include <linux/hash.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kfence.h>
#include <linux/kmemleak.h>
#include <linux/kthread.h>
#include <linux/llist.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/nodemask.h>
#include <linux/prandom.h>
#include <linux/rcupdate.h>
#include <linux/sched/mm.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/version.h>

static unsigned int duration_s = 300;
module_param(duration_s, uint, 0444);
MODULE_PARM_DESC(duration_s, "how long to stress, in seconds");

static unsigned int shrink_ms = 200;
module_param(shrink_ms, uint, 0444);
MODULE_PARM_DESC(shrink_ms, "interval between kmem_cache_shrink() calls");

static unsigned int irq_us = 100;
module_param(irq_us, uint, 0444);
MODULE_PARM_DESC(irq_us, "interval of each thread's hardirq allocations (0: none)");

static unsigned int migrate_us;
module_param(migrate_us, uint, 0444);
MODULE_PARM_DESC(migrate_us, "interval of the migrator's affinity changes (0, the default: none)");

static char *memcgs = "";
module_param(memcgs, charp, 0444);
MODULE_PARM_DESC(memcgs, "comma-separated cgroup v2 paths to charge to, e.g. /s/a,/s/b");

static bool selftest;
module_param(selftest, bool, 0444);
MODULE_PARM_DESC(selftest, "commit one fault of each kind the checks look for (must FAIL)");

#define MAX_THREADS	64
#define MAX_MEMCGS	8
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
	struct hrtimer soft_timer;	/* softirq bulk allocations and frees */
	struct rnd_state soft_rnd;
	struct stress_obj *soft_objs[IRQ_OBJS];
	unsigned int soft_n;
	unsigned long soft_ops;
};

static struct kmem_cache *stress_cache;
static struct stress_thread threads[MAX_THREADS];
static unsigned int nr_threads;
static unsigned long deadline;
static atomic_long_t nr_alloc, nr_free, nr_corrupt, nr_fail;
static atomic_long_t nr_live_errors, nr_untracked, nr_node_allocs, nr_wrong_node;
static atomic_long_t nr_accounted;
static unsigned long nr_migrations;
static int mem_nodes[MAX_NUMNODES];
static unsigned int nr_mem_nodes;
static struct mem_cgroup *memcg[MAX_MEMCGS];
static unsigned int nr_memcgs;
static DECLARE_COMPLETION(threads_done);
static atomic_t running;

/* The live set and where each address was last seen (see the top). */
static unsigned long *live_bits;
static unsigned long live_granules;

#define SITES_BITS	16
struct obj_site {
	unsigned long addr;
	unsigned long ip;
	unsigned int cpu;
	bool freed;
};

static struct obj_site *sites;

static int live_init(void)
{
	unsigned long end_pfn = 0;
	int nid;

	for_each_online_node(nid)
		end_pfn = max(end_pfn, node_end_pfn(nid));
	live_granules = end_pfn << (PAGE_SHIFT - 3);
	live_bits = vzalloc(BITS_TO_LONGS(live_granules) * sizeof(long));
	sites = vzalloc(sizeof(*sites) << SITES_BITS);
	if (!live_bits || !sites) {
		vfree(live_bits);
		vfree(sites);
		return -ENOMEM;
	}
	return 0;
}

static struct obj_site *site_of(const void *p)
{
	return &sites[hash_ptr(p, SITES_BITS)];
}

static void site_note(const void *p, unsigned long ip, bool freed)
{
	struct obj_site *site = site_of(p);

	WRITE_ONCE(site->addr, (unsigned long)p);
	WRITE_ONCE(site->ip, ip);
	WRITE_ONCE(site->cpu, raw_smp_processor_id());
	WRITE_ONCE(site->freed, freed);
}

static void live_error(const void *p, unsigned long ip, const char *what)
{
	struct obj_site *site = site_of(p);
	unsigned long before = READ_ONCE(site->ip);
	unsigned int cpu = READ_ONCE(site->cpu);
	bool freed = READ_ONCE(site->freed);

	if (atomic_long_inc_return(&nr_live_errors) > 10)
		return;
	if (READ_ONCE(site->addr) == (unsigned long)p)
		pr_err("sleeb_stress: FAIL object %px %s at %pS on cpu %d; last %s at %pS on cpu %u\n",
		       p, what, (void *)ip, raw_smp_processor_id(),
		       freed ? "freed" : "handed out", (void *)before, cpu);
	else
		pr_err("sleeb_stress: FAIL object %px %s at %pS on cpu %d; where it was last seen is lost\n",
		       p, what, (void *)ip, raw_smp_processor_id());
}

/* @p was just handed out at @ip. */
static void live_add(const void *p, unsigned long ip)
{
	unsigned long g = __pa(p) >> 3;

	if (g >= live_granules) {
		atomic_long_inc(&nr_untracked);
		return;
	}
	if (test_and_set_bit(g, live_bits))
		live_error(p, ip, "handed out while live");
	site_note(p, ip, false);
}

/* @p is about to be freed at @ip: before, or its next owner may come first. */
static void live_del(const void *p, unsigned long ip)
{
	unsigned long g = __pa(p) >> 3;

	if (g >= live_granules)
		return;
	if (!test_and_clear_bit(g, live_bits))
		live_error(p, ip, "freed while not live");
	site_note(p, ip, true);
}

/* A node-bound allocation of @p, which must be on @node. */
static void node_check(const void *p, int node, gfp_t gfp, unsigned long ip)
{
	int nid;

	atomic_long_inc(&nr_node_allocs);
	if (is_kfence_address(p))
		return;
	nid = page_to_nid(virt_to_page(p));
	if (nid == node)
		return;
	if (atomic_long_inc_return(&nr_wrong_node) <= 10)
		pr_err("sleeb_stress: FAIL object %px of node %d for node %d (%pGg) at %pS on cpu %d\n",
		       p, nid, node, &gfp, (void *)ip, raw_smp_processor_id());
}

static u32 obj_check(struct stress_obj *o)
{
	return (u32)(unsigned long)o ^ o->size ^ 0x5eeb5eeb;
}

/* A new object of @size (0: the dedicated cache): into the live set. */
static void obj_start(struct stress_obj *o, u32 size, unsigned long ip)
{
	live_add(o, ip);
	o->self = o;
	o->size = size;
	o->check = obj_check(o);
}

/* Check @o's pattern and take it out of the live set, before its free. */
static void obj_end(struct stress_obj *o, unsigned long ip)
{
	if (o->self != o || o->check != obj_check(o)) {
		if (atomic_long_inc_return(&nr_corrupt) <= 5)
			pr_err("sleeb_stress: object %px corrupted (self %px size %u)\n",
			       o, o->self, o->size);
	}
	o->check = 0;
	live_del(o, ip);
}

/*
 * One object: of the dedicated cache or kmalloc, for a node or not, charged
 * to the thread's memcg or not (@account: only threads have one).
 */
static struct stress_obj *stress_alloc(struct rnd_state *rnd, gfp_t gfp, bool account)
{
	u32 r = prandom_u32_state(rnd);
	int node = NUMA_NO_NODE;
	struct stress_obj *o;
	u32 size;

	if (r % 4 == 1 && nr_mem_nodes) {
		node = mem_nodes[(r >> 8) % nr_mem_nodes];
		if (r & BIT(4))
			gfp |= __GFP_THISNODE;
	}
	if (account && (r & BIT(5)))
		gfp |= __GFP_ACCOUNT;
	if (r % 8 < 2) {
		o = kmem_cache_alloc_node(stress_cache, gfp, node);
		size = 0;
	} else {
		size = max_t(u32, sizeof(*o), 8 + prandom_u32_state(rnd) % 8185);
		o = kmalloc_node(size, gfp, node);
	}
	if (!o) {
		atomic_long_inc(&nr_fail);
		return NULL;
	}
	obj_start(o, size, _THIS_IP_);
	if (node != NUMA_NO_NODE)
		node_check(o, node, gfp, _THIS_IP_);
	if (gfp & __GFP_ACCOUNT)
		atomic_long_inc(&nr_accounted);
	atomic_long_inc(&nr_alloc);
	return o;
}

static void stress_free(struct stress_obj *o)
{
	obj_end(o, _THIS_IP_);
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

	for (i = 0; i < n; i++) {
		p[i] = kmalloc(8 + prandom_u32_state(rnd) % 16, GFP_KERNEL);
		if (p[i])
			live_add(p[i], _THIS_IP_);
	}
	for (i = 0; i < n; i++) {
		if (p[i])
			live_del(p[i], _THIS_IP_);
		kfree(p[i]);
	}
}

/*
 * The bulk paths: up to 32 objects of the dedicated cache from one bulk
 * allocation, freed in one kmem_cache_free_bulk() or kfree_bulk() (no
 * cache given: the path kfree_rcu() batches end in), or one by one with
 * kvfree_rcu_mightsleep(); or kmalloc objects of mixed sizes freed with
 * kfree_bulk(). Each object is checked and leaves the live set before it
 * is handed back.
 */
static void stress_bulk(struct rnd_state *rnd, bool account)
{
	unsigned int i, n = 1 + prandom_u32_state(rnd) % 32;
	u32 how = prandom_u32_state(rnd) % 4;
	gfp_t gfp = GFP_KERNEL;
	struct stress_obj *o;
	void *p[32];

	if (account && (prandom_u32_state(rnd) & 1))
		gfp |= __GFP_ACCOUNT;
	if (how == 3) {
		for (i = 0; i < n; i++) {
			p[i] = kmalloc(sizeof(*o) + prandom_u32_state(rnd) % 2048, gfp);
			if (!p[i])
				break;
		}
		n = i;
	} else if (kmem_cache_alloc_bulk(stress_cache, gfp, n, p) != n) {
		n = 0;
	}
	if (!n) {
		atomic_long_inc(&nr_fail);
		return;
	}
	for (i = 0; i < n; i++)
		obj_start(p[i], 0, _THIS_IP_);
	atomic_long_add(n, &nr_alloc);
	if (gfp & __GFP_ACCOUNT)
		atomic_long_add(n, &nr_accounted);
	for (i = 0; i < n; i++)
		obj_end(p[i], _THIS_IP_);
	switch (how) {
	case 0:
		kmem_cache_free_bulk(stress_cache, n, p);
		break;
	case 1:
	case 3:
		kfree_bulk(n, p);
		break;
	case 2:
		for (i = 0; i < n; i++)
			kvfree_rcu_mightsleep(p[i]);
		break;
	}
	atomic_long_add(n, &nr_free);
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
			o = stress_alloc(&t->irq_rnd, GFP_ATOMIC | __GFP_NOWARN, false);
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

/*
 * In softirq context on the cpu that armed the timer: allocate up to 8
 * objects of the dedicated cache in one bulk allocation, or free up to 8
 * of the stash in one bulk free. A bulk allocation that interrupts a
 * thread's queue operation there must leave that queue alone, or an
 * object is handed out twice (the live set catches it).
 */
static enum hrtimer_restart stress_soft(struct hrtimer *timer)
{
	struct stress_thread *t = container_of(timer, struct stress_thread, soft_timer);
	unsigned int i, n = 1 + prandom_u32_state(&t->soft_rnd) % 8;
	void *p[8];

	if (prandom_u32_state(&t->soft_rnd) % 2) {
		n = min(n, IRQ_OBJS - t->soft_n);
		if (n && kmem_cache_alloc_bulk(stress_cache, GFP_ATOMIC | __GFP_NOWARN,
					       n, p) != n) {
			atomic_long_inc(&nr_fail);
			n = 0;
		}
		for (i = 0; i < n; i++) {
			obj_start(p[i], 0, _THIS_IP_);
			t->soft_objs[t->soft_n++] = p[i];
		}
		atomic_long_add(n, &nr_alloc);
	} else {
		n = min(n, t->soft_n);
		for (i = 0; i < n; i++) {
			p[i] = t->soft_objs[--t->soft_n];
			obj_end(p[i], _THIS_IP_);
		}
		if (n)
			kmem_cache_free_bulk(stress_cache, n, p);
		atomic_long_add(n, &nr_free);
	}
	t->soft_ops++;
	hrtimer_forward_now(timer, ns_to_ktime(irq_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* Arm one of a thread's timers, pinned to this cpu, every irq_us. */
static void stress_timer_start(struct hrtimer *timer,
			       enum hrtimer_restart (*fn)(struct hrtimer *),
			       enum hrtimer_mode mode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	/* 6.13 replaced hrtimer_init() (gone since) by hrtimer_setup(). */
	hrtimer_setup(timer, fn, CLOCK_MONOTONIC, mode);
#else
	hrtimer_init(timer, CLOCK_MONOTONIC, mode);
	timer->function = fn;
#endif
	hrtimer_start(timer, ns_to_ktime(irq_us * NSEC_PER_USEC), mode);
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
	struct mem_cgroup *old_memcg = NULL;
	unsigned int n = 0, i;
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 0x5eeb + t->id);
	prandom_seed_state(&t->irq_rnd, 0xe5ee + t->id);
	prandom_seed_state(&t->soft_rnd, 0xb01c + t->id);
	if (nr_memcgs)
		old_memcg = set_active_memcg(memcg[t->id % nr_memcgs]);
	if (irq_us) {
		stress_timer_start(&t->timer, stress_irq, HRTIMER_MODE_REL_PINNED_HARD);
		stress_timer_start(&t->soft_timer, stress_soft, HRTIMER_MODE_REL_PINNED_SOFT);
	}
	while (time_before(jiffies, deadline)) {
		switch (prandom_u32_state(&rnd) % 9) {
		case 0 ... 3:	/* allocate, keep locally */
			if (n < LOCAL_OBJS) {
				local[n] = stress_alloc(&rnd, GFP_KERNEL, nr_memcgs);
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
		case 8:
			stress_bulk(&rnd, nr_memcgs);
			break;
		}
		cond_resched();
	}
	while (n)
		stress_free(local[--n]);
	if (nr_memcgs)
		set_active_memcg(old_memcg);
	if (irq_us) {
		hrtimer_cancel(&t->timer);
		hrtimer_cancel(&t->soft_timer);
		while (t->irq_n)
			stress_free(t->irq_objs[--t->irq_n]);
		while (t->soft_n)
			stress_free(t->soft_objs[--t->soft_n]);
	}
	if (atomic_dec_and_test(&running))
		complete(&threads_done);
	return 0;
}

/*
 * Keep moving the threads: every migrate_us, one thread gets the cpus of a
 * random node, or all cpus. Moves to a node whose cpus are all offline
 * fail and are not counted.
 */
static int migrator_fn(void *arg)
{
	struct rnd_state rnd;
	const struct cpumask *mask;
	unsigned int r;

	prandom_seed_state(&rnd, 0x5eeb31);
	while (!kthread_should_stop()) {
		r = prandom_u32_state(&rnd);
		mask = r % 3 || !nr_mem_nodes ? cpu_possible_mask :
		       cpumask_of_node(mem_nodes[(r >> 8) % nr_mem_nodes]);
		/*
		 * Not while a cpu comes or goes: 6.12 can leave a task whose
		 * affinity changes meanwhile on the dying cpu (sched_cpu_dying()
		 * warns, and the scheduler and RCU go wrong from there).
		 */
		cpus_read_lock();
		if (!set_cpus_allowed_ptr(threads[(r >> 16) % nr_threads].task, mask))
			nr_migrations++;
		cpus_read_unlock();
		usleep_range(migrate_us, migrate_us + migrate_us / 2);
	}
	return 0;
}

/* memcgs=: the memory cgroups of those paths, referenced until the end. */
static int memcgs_get(void)
{
	char *list, *cur, *path;
	struct cgroup_subsys_state *css;
	struct cgroup *cgrp;
	int err = 0;

	list = kstrdup(memcgs, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	cur = list;
	while ((path = strsep(&cur, ",")) && !err) {
		if (!*path)
			continue;
		if (nr_memcgs == MAX_MEMCGS) {
			err = -E2BIG;
			break;
		}
		cgrp = cgroup_get_from_path(path);
		if (IS_ERR(cgrp)) {
			pr_err("sleeb_stress: FAIL memcgs: no cgroup %s (%ld)\n",
			       path, PTR_ERR(cgrp));
			err = PTR_ERR(cgrp);
			break;
		}
		css = cgroup_get_e_css(cgrp, &memory_cgrp_subsys);
		cgroup_put(cgrp);
		if (!css) {
			pr_err("sleeb_stress: FAIL memcgs: %s has no memory controller\n", path);
			err = -ENOENT;
			break;
		}
		memcg[nr_memcgs++] = mem_cgroup_from_css(css);
	}
	kfree(list);
	return err;
}

static void memcgs_put(void)
{
	while (nr_memcgs)
		css_put(&memcg[--nr_memcgs]->css);
}

/*
 * One fault of each kind, through the checks the stress relies on, and
 * with memcgs= LEAKED_CHARGE bytes of objects leaked while charged to the
 * first of them, for the script to find (kept from kmemleak).
 */
#define LEAKED_CHARGE	SZ_128K

static void commit_faults(void)
{
	void *p = kmalloc_node(64, GFP_KERNEL, mem_nodes[0]);
	struct mem_cgroup *old;

	if (nr_memcgs) {
		old = set_active_memcg(memcg[0]);
		for (int i = 0; i < LEAKED_CHARGE / SZ_4K; i++)
			kmemleak_not_leak(kmalloc(SZ_4K, GFP_KERNEL_ACCOUNT));
		set_active_memcg(old);
	}

	if (!p)
		return;
	live_add(p, _THIS_IP_);
	live_add(p, _THIS_IP_);		/* handed out while live */
	live_del(p, _THIS_IP_);
	live_del(p, _THIS_IP_);		/* freed while not live */
	node_check(p, page_to_nid(virt_to_page(p)) + 1, GFP_KERNEL, _THIS_IP_);
	kfree(p);
}

static int __init sleeb_stress_init(void)
{
	struct task_struct *migrator = NULL;
	int nid, err;
	unsigned long shrinks = 0, irq_ops = 0;
	unsigned int cpu, i;
	long allocs, frees;

	for_each_node_state(nid, N_MEMORY)
		mem_nodes[nr_mem_nodes++] = nid;
	err = live_init();
	if (err)
		return err;
	err = memcgs_get();
	if (err) {
		memcgs_put();
		vfree(live_bits);
		vfree(sites);
		return err;
	}
	stress_cache = kmem_cache_create("sleeb_stress", CACHE_OBJ_SIZE, 0,
					 SLAB_NO_MERGE, NULL);
	if (!stress_cache) {
		memcgs_put();
		vfree(live_bits);
		vfree(sites);
		return -ENOMEM;
	}
	if (selftest)
		commit_faults();
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
	pr_info("sleeb_stress: %u threads for %u s, shrink every %u ms, migrate every %u us, %u memcgs\n",
		nr_threads, duration_s, shrink_ms, migrate_us, nr_memcgs);
	for (i = 0; i < nr_threads; i++) {
		threads[i].task = kthread_run(stress_fn, &threads[i],
					      "sleeb_stress/%u", i);
		if (IS_ERR(threads[i].task)) {
			pr_err("sleeb_stress: FAIL cannot start threads\n");
			deadline = jiffies;
			atomic_sub(nr_threads - i, &running);
			nr_threads = i;
			break;
		}
		/* The migrator may still look at it after it exits. */
		get_task_struct(threads[i].task);
	}
	if (migrate_us && nr_threads) {
		migrator = kthread_run(migrator_fn, NULL, "sleeb_stress/migrate");
		if (IS_ERR(migrator))
			migrator = NULL;
	}
	while (!wait_for_completion_timeout(&threads_done,
					    msecs_to_jiffies(shrink_ms))) {
		kmem_cache_shrink(stress_cache);
		for (i = 1; i < KMALLOC_SHIFT_HIGH; i++)
			if (kmalloc_caches[KMALLOC_NORMAL][i] && i % 3 == shrinks % 3)
				kmem_cache_shrink(kmalloc_caches[KMALLOC_NORMAL][i]);
		shrinks++;
	}
	if (migrator)
		kthread_stop(migrator);
	/* Whatever is still in an inbox was handed over after its owner stopped. */
	for (i = 0; i < nr_threads; i++) {
		drain_inbox(&threads[i]);
		put_task_struct(threads[i].task);
	}
	/* Objects freed with kvfree_rcu_mightsleep() go back before the checks. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 3, 0)
	/*
	 * kvfree_rcu_barrier() is exported to modules in 6.12, not in 7.3,
	 * whose kmem_cache_destroy() below waits for the cache's own
	 * (kvfree_rcu_barrier_on_cache()); the kmalloc objects' batches go
	 * back after their grace period, which the counters do not wait for.
	 */
	rcu_barrier();
#else
	kvfree_rcu_barrier();
#endif
	kmem_cache_destroy(stress_cache);
	memcgs_put();

	allocs = atomic_long_read(&nr_alloc);
	frees = atomic_long_read(&nr_free);
	for (i = 0; i < nr_threads; i++)
		irq_ops += threads[i].irq_ops + threads[i].soft_ops;
	pr_info("sleeb_stress: %s allocs=%ld frees=%ld corrupt=%ld live_errors=%ld wrong_node=%ld node_allocs=%ld accounted=%ld failed=%ld untracked=%ld migrations=%lu shrinks=%lu irq_ops=%lu\n",
		allocs == frees && !atomic_long_read(&nr_corrupt) &&
		!atomic_long_read(&nr_live_errors) && !atomic_long_read(&nr_wrong_node) &&
		allocs ? "PASS" : "FAIL", allocs, frees, atomic_long_read(&nr_corrupt),
		atomic_long_read(&nr_live_errors), atomic_long_read(&nr_wrong_node),
		atomic_long_read(&nr_node_allocs), atomic_long_read(&nr_accounted),
		atomic_long_read(&nr_fail), atomic_long_read(&nr_untracked),
		nr_migrations, shrinks, irq_ops);
	vfree(live_bits);
	vfree(sites);
	return 0;
}

static void __exit sleeb_stress_exit(void)
{
}

module_init(sleeb_stress_init);
module_exit(sleeb_stress_exit);
MODULE_DESCRIPTION("Concurrency stress for SLUB object queues");
MODULE_LICENSE("GPL");
