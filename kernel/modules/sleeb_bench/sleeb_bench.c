// SPDX-License-Identifier: GPL-2.0
/*
 * sleeb_bench: the five classic slab microbenchmarks, for kmalloc sizes and
 * a dedicated 64-byte cache, written for SLEEB from their description:
 *
 *   a  N allocations, then N frees (N = 1, 10, 100, 1000), on cpu 0
 *   b  alloc/free pairs on cpu 0
 *   c  every cpu does (a) with N = 100 at the same time
 *   d  cpus > 0 allocate N each, cpu 0 frees them all (remote free); and
 *      the same with the allocating cpus on the other NUMA node only
 *   e  cpu 0 allocates, every other cpu frees a share
 *   h  cross-cpu handoff: cpu 0 allocates N objects, one cpu of its node
 *      frees them all (h_handoff), and separately one cpu of the other
 *      node (h_handoff_node); N from 10 (inside every queue) to 50000 (far
 *      beyond any; handoff_max= lowers the top), for kmalloc sizes up to 1 KiB
 *
 * Loading the module runs everything and prints one line per measurement:
 *   SLEEB-BENCH <test> <cache> <n> <rep> <metric> <ns-per-op>
 * Under QEMU with -icount shift=0 a guest nanosecond is one instruction,
 * so the figures are instructions per operation.
 *
 * Each measured region is also a window of the model clock
 * (model-clock/model-clock-marker.h): a 7-byte NOP before and after it
 * that the model-clock QEMU plugin recognises, and that costs nothing
 * else. The window ids name the kind of region (enum window below). A
 * region that several cpus run is one START/END pair per cpu, and the
 * plugin closes the window as often as the cpus' runs do not overlap,
 * which varies; so every measurement is preceded by an empty window
 * W_MEASURE, whose plugin seq= numbers the measurements, and the module
 * prints after each one
 *   SLEEB-BENCH-WINDOW <id> <measurement> <test> <cache> <n> <rep> <metric> <ops>
 * tools/bench-report.py sums every close of window <id> that the plugin
 * reports after W_MEASURE's seq=<measurement> (and before the next): all
 * vCPUs' work during the union of the cpus' runs. Window 1 spans the
 * whole run, so that the model's caches are warm (not flushed) when each
 * measured window opens.
 *
 * Loaded with profile=1 it runs nothing at load and keeps its 64-byte cache
 * ("sleeb_bench64") until unloaded; each write of "TEST TARGET [N]" to
 * /sys/module/sleeb_bench/parameters/run then runs one test once, and
 * parameters/last_ops says how many allocations and frees it made. That is
 * what a counter read before and after the write (the queues' queue_stats)
 * is divided by: tests/vm/guest/bench/30-profile.sh.
 */
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/topology.h>

#include "model-clock-marker.h"

static unsigned int reps = 5;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "repetitions of every measurement");

static bool quick;
module_param(quick, bool, 0444);
MODULE_PARM_DESC(quick, "fewer sizes and batch lengths, for development");

static bool profile;
module_param(profile, bool, 0444);
MODULE_PARM_DESC(profile, "run nothing at load; run one test per write to run");

/*
 * The handoff sweep's N above MAX_N cost most of a boot's model-clock time
 * (each 1 KiB allocation zeroes its object and, past the queues, slab pages):
 * tools/bench.sh measures them on the first boot of each config only.
 */
static unsigned int handoff_max = 50000;
module_param(handoff_max, uint, 0444);
MODULE_PARM_DESC(handoff_max, "largest N of the handoff sweep (h tests)");

/* Allocations and frees the figures of the last run covered. */
static unsigned long last_ops;
module_param(last_ops, ulong, 0444);
MODULE_PARM_DESC(last_ops, "allocations and frees of the last test run");

#define MAX_N		1000
#define MAX_CPUS	8

static struct kmem_cache *bench64;

/*
 * Model-clock window ids, one per kind of measured region. Ids must be
 * compile-time constants (they are the marker's displacement): mark()'s
 * switch folds away only when @w is one, so every job below is an
 * always-inline body instantiated once per window (job_a, job_b, ...).
 */
enum window {
	W_NONE,
	W_RUN,			/* the whole timed run */
	W_A_ALLOC, W_A_FREE,
	W_B_PAIR,
	W_C,
	W_D_ALLOC, W_D_FREE,
	W_D_NODE_ALLOC, W_D_NODE_FREE,
	W_E_ALLOC, W_E_FREE,
	W_MEASURE,		/* empty: one before each measurement */
	/* After W_MEASURE, so that its number stays. */
	W_H_ALLOC, W_H_FREE,
	W_H_NODE_ALLOC, W_H_NODE_FREE,
};
/* tools/bench-report.py knows the separator by its number (MEASURE_WINDOW). */
static_assert(W_MEASURE == 12);
/* The marker's displacement holds 12 bits of id; 0xf00 and up are workload.c's. */
static_assert(W_H_NODE_FREE < 0xf00);

/* Measurements so far: the plugin's seq= of W_MEASURE. */
static unsigned int measurement;
/* Markers only in the timed run: profile mode must not shift the seqs. */
static bool marking;

#define MARK_CASE(id)					\
	case id:					\
		if (start)				\
			MODEL_CLOCK_START(id);		\
		else					\
			MODEL_CLOCK_END(id);		\
		break

/*
 * Open (@start) or close window @w (a constant): a test of marking and the
 * 7-byte NOP, three instructions inside the timed region; W_NONE marks
 * nothing.
 */
static __always_inline void mark(bool start, enum window w)
{
	if (!marking)
		return;
	switch (w) {
	MARK_CASE(W_RUN);
	MARK_CASE(W_A_ALLOC);
	MARK_CASE(W_A_FREE);
	MARK_CASE(W_B_PAIR);
	MARK_CASE(W_C);
	MARK_CASE(W_D_ALLOC);
	MARK_CASE(W_D_FREE);
	MARK_CASE(W_D_NODE_ALLOC);
	MARK_CASE(W_D_NODE_FREE);
	MARK_CASE(W_E_ALLOC);
	MARK_CASE(W_E_FREE);
	MARK_CASE(W_MEASURE);
	MARK_CASE(W_H_ALLOC);
	MARK_CASE(W_H_FREE);
	MARK_CASE(W_H_NODE_ALLOC);
	MARK_CASE(W_H_NODE_FREE);
	default:
		break;
	}
}

static void *objs[MAX_CPUS][MAX_N];
/*
 * The cpus the tests use: the online ones below MAX_CPUS, which every
 * per-cpu array here is sized for. A guest with more cpus (the scale
 * sweep's) runs the tests on its first MAX_CPUS.
 */
static struct cpumask bench_cpus;

struct target {
	const char *name;
	struct kmem_cache *cache;	/* NULL: kmalloc(size) */
	size_t size;
};

static void *t_alloc(const struct target *t)
{
	return t->cache ? kmem_cache_alloc(t->cache, GFP_KERNEL) :
			  kmalloc(t->size, GFP_KERNEL);
}

static void t_free(const struct target *t, void *p)
{
	if (t->cache)
		kmem_cache_free(t->cache, p);
	else
		kfree(p);
}

/*
 * One measurement: its figure, and which model-clock window (@w, in the
 * current measurement) covered the same region.
 */
static void report(const char *test, const struct target *t, unsigned int n,
		   unsigned int rep, const char *metric, u64 ns, u64 ops,
		   enum window w)
{
	pr_info("SLEEB-BENCH %s %s %u %u %s %llu\n", test, t->name, n, rep,
		metric, ops ? div64_u64(ns, ops) : 0);
	if (marking && w != W_NONE)
		pr_info("SLEEB-BENCH-WINDOW %u %u %s %s %u %u %s %llu\n", w,
			measurement, test, t->name, n, rep, metric, ops);
	/* A pair is an allocation and a free. */
	last_ops += strcmp(metric, "ns_per_pair") ? ops : 2 * ops;
}

/* Run @fn(@arg) on @cpu and wait for it. */
struct on_cpu {
	int (*fn)(void *arg);
	void *arg;
	struct completion done;
};

static int on_cpu_thread(void *data)
{
	struct on_cpu *oc = data;

	oc->fn(oc->arg);
	complete(&oc->done);
	return 0;
}

/*
 * Start @fn on each cpu of @mask (arguments @args[cpu]), all released at
 * once, and wait for all of them.
 */
static void run_on_cpus(const struct cpumask *mask, int (*fn)(void *),
			void **args)
{
	static struct on_cpu oc[MAX_CPUS];
	struct task_struct *tsk[MAX_CPUS] = {};
	unsigned int cpu;

	for_each_cpu(cpu, mask) {
		if (cpu >= MAX_CPUS)
			break;
		oc[cpu].fn = fn;
		oc[cpu].arg = args[cpu];
		init_completion(&oc[cpu].done);
		tsk[cpu] = kthread_create_on_cpu(on_cpu_thread, &oc[cpu], cpu,
						 "sleeb_bench/%u");
		if (IS_ERR(tsk[cpu]))
			tsk[cpu] = NULL;
	}
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (tsk[cpu])
			wake_up_process(tsk[cpu]);
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (tsk[cpu])
			wait_for_completion(&oc[cpu].done);
}

struct job {
	const struct target *t;
	unsigned int n, cpu;
	u64 alloc_ns, free_ns;
	void **free_from;	/* for frees of objects others allocated */
	unsigned int free_n;
};

static __always_inline void do_alloc(struct job *j, enum window w)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	mark(true, w);
	for (i = 0; i < j->n; i++)
		objs[j->cpu][i] = t_alloc(j->t);
	mark(false, w);
	j->alloc_ns = ktime_get_ns() - t0;
}

static __always_inline void do_free(struct job *j, enum window w)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	mark(true, w);
	for (i = 0; i < j->free_n; i++)
		t_free(j->t, j->free_from[i]);
	mark(false, w);
	j->free_ns = ktime_get_ns() - t0;
}

/* @n allocations, then their frees: windows @wa, @wf, and @wb around both. */
static __always_inline void do_alloc_free(struct job *j, enum window wa,
					  enum window wf, enum window wb)
{
	mark(true, wb);
	do_alloc(j, wa);
	j->free_from = objs[j->cpu];
	j->free_n = j->n;
	do_free(j, wf);
	mark(false, wb);
}

static __always_inline void do_pairs(struct job *j, enum window w)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	mark(true, w);
	for (i = 0; i < j->n; i++)
		t_free(j->t, t_alloc(j->t));
	mark(false, w);
	j->alloc_ns = ktime_get_ns() - t0;
}

/* The jobs run_on_cpus() starts, one per test phase and window. */
static int job_a(void *arg)
{
	do_alloc_free(arg, W_A_ALLOC, W_A_FREE, W_NONE);
	return 0;
}

static int job_b(void *arg)
{
	do_pairs(arg, W_B_PAIR);
	return 0;
}

static int job_c(void *arg)
{
	do_alloc_free(arg, W_NONE, W_NONE, W_C);
	return 0;
}

static int job_d_alloc(void *arg)
{
	do_alloc(arg, W_D_ALLOC);
	return 0;
}

static int job_d_free(void *arg)
{
	do_free(arg, W_D_FREE);
	return 0;
}

static int job_d_node_alloc(void *arg)
{
	do_alloc(arg, W_D_NODE_ALLOC);
	return 0;
}

static int job_d_node_free(void *arg)
{
	do_free(arg, W_D_NODE_FREE);
	return 0;
}

static int job_e_alloc(void *arg)
{
	do_alloc(arg, W_E_ALLOC);
	return 0;
}

static int job_e_free(void *arg)
{
	do_free(arg, W_E_FREE);
	return 0;
}

static struct job jobs[MAX_CPUS];
static void *job_args[MAX_CPUS];

static void prepare_jobs(const struct target *t, unsigned int n)
{
	unsigned int cpu;

	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		jobs[cpu] = (struct job){ .t = t, .n = n, .cpu = cpu };
		job_args[cpu] = &jobs[cpu];
	}
}

static void test_a(const struct target *t, unsigned int n, unsigned int rep)
{
	prepare_jobs(t, n);
	run_on_cpus(cpumask_of(0), job_a, job_args);
	report("a_alloc", t, n, rep, "ns_per_op", jobs[0].alloc_ns, n, W_A_ALLOC);
	report("a_free", t, n, rep, "ns_per_op", jobs[0].free_ns, n, W_A_FREE);
}

static void test_b(const struct target *t, unsigned int rep)
{
	prepare_jobs(t, MAX_N);
	run_on_cpus(cpumask_of(0), job_b, job_args);
	report("b_pair", t, MAX_N, rep, "ns_per_pair", jobs[0].alloc_ns, MAX_N, W_B_PAIR);
}

static void test_c(const struct target *t, unsigned int rep)
{
	unsigned int cpu, cpus = 0;
	u64 ns = 0;

	prepare_jobs(t, 100);
	run_on_cpus(&bench_cpus, job_c, job_args);
	for_each_cpu(cpu, &bench_cpus) {
		ns += jobs[cpu].alloc_ns + jobs[cpu].free_ns;
		cpus++;
	}
	report("c_concurrent", t, 100, rep, "ns_per_op", ns, 2 * 100 * cpus, W_C);
}

/*
 * Objects allocated on @allocators (job @alloc_job, window @w_alloc), all
 * freed on cpu 0 (@free_job, @w_free).
 */
static void test_d(const char *name, const struct target *t,
		   const struct cpumask *allocators, int (*alloc_job)(void *),
		   enum window w_alloc, int (*free_job)(void *), enum window w_free,
		   unsigned int rep)
{
	static void *all[MAX_CPUS * MAX_N];
	unsigned int cpu, i, total = 0, n = 100;
	u64 alloc_ns = 0;

	if (cpumask_empty(allocators))
		return;
	prepare_jobs(t, n);
	run_on_cpus(allocators, alloc_job, job_args);
	for_each_cpu(cpu, allocators) {
		alloc_ns += jobs[cpu].alloc_ns;
		for (i = 0; i < n; i++)
			all[total++] = objs[cpu][i];
	}
	jobs[0].free_from = all;
	jobs[0].free_n = total;
	run_on_cpus(cpumask_of(0), free_job, job_args);
	report(name, t, n, rep, "alloc_ns_per_op", alloc_ns, total, w_alloc);
	report(name, t, n, rep, "free_ns_per_op", jobs[0].free_ns, total, w_free);
}

/* cpu 0 allocates, every other cpu frees an equal share at once. */
static void test_e(const struct target *t, unsigned int rep)
{
	struct cpumask freers;
	unsigned int cpu, k = 0, share, nfree = 0, n = MAX_N;
	u64 free_ns = 0;

	cpumask_copy(&freers, &bench_cpus);
	cpumask_clear_cpu(0, &freers);
	if (cpumask_empty(&freers))
		return;
	prepare_jobs(t, n);
	run_on_cpus(cpumask_of(0), job_e_alloc, job_args);
	share = n / cpumask_weight(&freers);
	for_each_cpu(cpu, &freers) {
		jobs[cpu].free_from = &objs[0][k * share];
		jobs[cpu].free_n = share;
		k++;
	}
	run_on_cpus(&freers, job_e_free, job_args);
	for_each_cpu(cpu, &freers) {
		free_ns += jobs[cpu].free_ns;
		nfree += share;
	}
	/* The remainder of an uneven split goes back on cpu 0. */
	for (k = k * share; k < n; k++)
		t_free(t, objs[0][k]);
	report("e_one_to_many", t, n, rep, "alloc_ns_per_op", jobs[0].alloc_ns, n, W_E_ALLOC);
	report("e_one_to_many", t, n, rep, "free_ns_per_op", free_ns, nfree, W_E_FREE);
}

/*
 * The handoff sweep (h): cpu 0 allocates N objects into @objs, then cpu
 * @freer frees them all. N goes up to H_MAX_N, beyond MAX_N and beyond
 * every queue, so the pointers live in an array of their own, allocated
 * (kvmalloc) before the timed run.
 */
#define H_MAX_N		50000

struct handoff {
	const struct target *t;
	void **objs;
	unsigned int n;
	u64 alloc_ns, free_ns;
};

static void **h_objs;

static __always_inline void h_alloc(struct handoff *h, enum window w)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	mark(true, w);
	for (i = 0; i < h->n; i++)
		h->objs[i] = t_alloc(h->t);
	mark(false, w);
	h->alloc_ns = ktime_get_ns() - t0;
}

static __always_inline void h_free(struct handoff *h, enum window w)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	mark(true, w);
	for (i = 0; i < h->n; i++)
		t_free(h->t, h->objs[i]);
	mark(false, w);
	h->free_ns = ktime_get_ns() - t0;
}

static int job_h_alloc(void *arg)
{
	h_alloc(arg, W_H_ALLOC);
	return 0;
}

static int job_h_free(void *arg)
{
	h_free(arg, W_H_FREE);
	return 0;
}

static int job_h_node_alloc(void *arg)
{
	h_alloc(arg, W_H_NODE_ALLOC);
	return 0;
}

static int job_h_node_free(void *arg)
{
	h_free(arg, W_H_NODE_FREE);
	return 0;
}

/*
 * @n objects allocated on cpu 0 (@alloc_job, window @w_alloc), all freed on
 * cpu @freer (@free_job, @w_free); nothing if there is no such cpu.
 */
static void test_h(const char *name, const struct target *t, unsigned int n,
		   int freer, int (*alloc_job)(void *), enum window w_alloc,
		   int (*free_job)(void *), enum window w_free, unsigned int rep)
{
	struct handoff h = { .t = t, .objs = h_objs, .n = n };
	void *args[MAX_CPUS];
	unsigned int cpu;

	if (freer < 0 || freer >= MAX_CPUS || !h_objs || !n || n > H_MAX_N)
		return;
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		args[cpu] = &h;
	/*
	 * A handoff a cpu pair repeats is what is measured: one unmarked
	 * handoff of the same objects first. Without it a small N pays, over
	 * a few objects, for setting up what the reaper took back since the
	 * last use: a queue's array, an alien row (the first quick run saw
	 * 10k-40k instructions over N = 10). From N = 10^4 on such a cost
	 * is lost in the figure, and a warm-up would double the run's time.
	 */
	if (n <= MAX_N) {
		bool was_marking = marking;

		marking = false;
		run_on_cpus(cpumask_of(0), alloc_job, args);
		run_on_cpus(cpumask_of(freer), free_job, args);
		marking = was_marking;
	}
	run_on_cpus(cpumask_of(0), alloc_job, args);
	run_on_cpus(cpumask_of(freer), free_job, args);
	report(name, t, n, rep, "alloc_ns_per_op", h.alloc_ns, n, w_alloc);
	report(name, t, n, rep, "free_ns_per_op", h.free_ns, n, w_free);
}

static const unsigned int full_sizes[] = { 8, 64, 256, 1024, 4096 };
static char names[ARRAY_SIZE(full_sizes)][16];
static struct target targets[ARRAY_SIZE(full_sizes) + 1];
static unsigned int nt;
static struct cpumask remote, other_node;
/* h's freeing cpus: one on cpu 0's node, one on another (-1: none). */
static int same_node_cpu = -1, other_node_cpu = -1;

/* Run test @name once on @t (@n: test a's batch length). */
static int run_test(const char *name, const struct target *t, unsigned int n,
		    unsigned int rep)
{
	if (marking) {
		measurement++;
		mark(true, W_MEASURE);
		mark(false, W_MEASURE);
	}
	if (!strcmp(name, "a"))
		test_a(t, n, rep);
	else if (!strcmp(name, "b"))
		test_b(t, rep);
	else if (!strcmp(name, "c"))
		test_c(t, rep);
	else if (!strcmp(name, "d_remote_free"))
		test_d(name, t, &remote, job_d_alloc, W_D_ALLOC, job_d_free, W_D_FREE, rep);
	else if (!strcmp(name, "d_remote_node_free"))
		test_d(name, t, &other_node, job_d_node_alloc, W_D_NODE_ALLOC,
		       job_d_node_free, W_D_NODE_FREE, rep);
	else if (!strcmp(name, "e"))
		test_e(t, rep);
	else if (!strcmp(name, "h_handoff"))
		test_h(name, t, n, same_node_cpu, job_h_alloc, W_H_ALLOC,
		       job_h_free, W_H_FREE, rep);
	else if (!strcmp(name, "h_handoff_node"))
		test_h(name, t, n, other_node_cpu, job_h_node_alloc, W_H_NODE_ALLOC,
		       job_h_node_free, W_H_NODE_FREE, rep);
	else
		return -EINVAL;
	return 0;
}

/* parameters/run: "TEST TARGET [N]", e.g. "a kmalloc-256 100". */
static int run_set(const char *val, const struct kernel_param *kp)
{
	static DEFINE_MUTEX(run_lock);
	char test[24], target[16];
	unsigned int i, n = 100;
	int ret;

	if (!profile)
		return -EPERM;
	if (sscanf(val, "%23s %15s %u", test, target, &n) < 2 || !n ||
	    n > (strncmp(test, "h_", 2) ? MAX_N : H_MAX_N))
		return -EINVAL;
	for (i = 0; i < nt; i++)
		if (!strcmp(targets[i].name, target))
			break;
	if (i == nt)
		return -ENOENT;
	mutex_lock(&run_lock);
	last_ops = 0;
	ret = run_test(test, &targets[i], n, 0);
	mutex_unlock(&run_lock);
	return ret;
}

static const struct kernel_param_ops run_ops = { .set = run_set };
module_param_cb(run, &run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "with profile=1: run one test, \"TEST TARGET [N]\"");

static int __init sleeb_bench_init(void)
{
	static const unsigned int quick_sizes[] = { 64 };
	static const unsigned int full_ns[] = { 1, 10, 100, 1000 };
	static const unsigned int quick_ns[] = { 100 };
	static const char *const tests[] = { "b", "c", "d_remote_free",
					     "d_remote_node_free", "e" };
	/* h: kmalloc sizes up to 1 KiB, N from inside the queues to far beyond. */
	static const unsigned int h_full_sizes[] = { 8, 64, 256, 1024 };
	static const unsigned int h_quick_sizes[] = { 64, 256, 1024 };
	static const unsigned int h_full_ns[] = { 10, 100, 1000, 10000, H_MAX_N };
	static const unsigned int h_quick_ns[] = { 10, 1000, 10000 };
	static char h_names[ARRAY_SIZE(h_full_sizes)][16];
	static struct target h_targets[ARRAY_SIZE(h_full_sizes)];
	const unsigned int *sizes = quick ? quick_sizes : full_sizes;
	const unsigned int *ns = quick ? quick_ns : full_ns;
	const unsigned int *h_sizes = quick ? h_quick_sizes : h_full_sizes;
	const unsigned int *h_ns = quick ? h_quick_ns : h_full_ns;
	unsigned int nsizes = quick ? ARRAY_SIZE(quick_sizes) : ARRAY_SIZE(full_sizes);
	unsigned int nns = quick ? ARRAY_SIZE(quick_ns) : ARRAY_SIZE(full_ns);
	unsigned int nhs = quick ? ARRAY_SIZE(h_quick_sizes) : ARRAY_SIZE(h_full_sizes);
	unsigned int nhn = quick ? ARRAY_SIZE(h_quick_ns) : ARRAY_SIZE(h_full_ns);
	unsigned int i, j, r, cpu;

	bench64 = kmem_cache_create("sleeb_bench64", 64, 0, SLAB_NO_MERGE, NULL);
	if (!bench64)
		return -ENOMEM;
	/* Outside every timed region; without it the h tests report nothing. */
	h_objs = kvmalloc_array(H_MAX_N, sizeof(*h_objs), GFP_KERNEL);
	if (!h_objs)
		pr_warn("sleeb_bench: no memory for the handoff sweep's pointers\n");
	/* profile=1 offers every size, whatever quick says. */
	if (profile) {
		sizes = full_sizes;
		nsizes = ARRAY_SIZE(full_sizes);
	}
	for (i = 0; i < nsizes; i++) {
		snprintf(names[i], sizeof(names[i]), "kmalloc-%u", sizes[i]);
		targets[nt++] = (struct target){ names[i], NULL, sizes[i] };
	}
	targets[nt++] = (struct target){ "cache-64", bench64, 64 };

	cpumask_clear(&bench_cpus);
	for_each_online_cpu(cpu)
		if (cpu < MAX_CPUS)
			cpumask_set_cpu(cpu, &bench_cpus);
	cpumask_copy(&remote, &bench_cpus);
	cpumask_clear_cpu(0, &remote);
	cpumask_clear(&other_node);
	for_each_cpu(cpu, &bench_cpus) {
		if (cpu_to_node(cpu) != cpu_to_node(0))
			cpumask_set_cpu(cpu, &other_node);
		if (cpu == 0 || cpu >= MAX_CPUS)
			continue;
		if (cpu_to_node(cpu) == cpu_to_node(0)) {
			if (same_node_cpu < 0)
				same_node_cpu = cpu;
		} else if (other_node_cpu < 0) {
			other_node_cpu = cpu;
		}
	}
	for (i = 0; i < nhs; i++) {
		snprintf(h_names[i], sizeof(h_names[i]), "kmalloc-%u", h_sizes[i]);
		h_targets[i] = (struct target){ h_names[i], NULL, h_sizes[i] };
	}
	if (profile)
		return 0;

	pr_info("SLEEB-BENCH-BEGIN reps=%u quick=%d cpus=%u of %u online\n", reps,
		quick, cpumask_weight(&bench_cpus), num_online_cpus());
	marking = true;
	mark(true, W_RUN);
	for (r = 0; r < reps; r++) {
		for (i = 0; i < nt; i++) {
			for (j = 0; j < nns; j++)
				run_test("a", &targets[i], ns[j], r);
			for (j = 0; j < ARRAY_SIZE(tests); j++)
				run_test(tests[j], &targets[i], 0, r);
		}
	}
	/*
	 * The handoff sweep, after the other tests so that their figures do
	 * not move. A figure with N above MAX_N is already the mean of 10^4
	 * operations or more: measured in the first repetition only, which
	 * keeps the run's time and its dmesg lines within bounds.
	 */
	for (r = 0; r < reps; r++) {
		for (i = 0; i < nhs; i++) {
			for (j = 0; j < nhn; j++) {
				if ((r && h_ns[j] > MAX_N) || h_ns[j] > handoff_max)
					continue;
				run_test("h_handoff", &h_targets[i], h_ns[j], r);
				run_test("h_handoff_node", &h_targets[i], h_ns[j], r);
			}
		}
	}
	mark(false, W_RUN);
	marking = false;
	pr_info("SLEEB-BENCH-END\n");
	kvfree(h_objs);
	h_objs = NULL;
	kmem_cache_destroy(bench64);
	bench64 = NULL;
	return 0;
}

static void __exit sleeb_bench_exit(void)
{
	kvfree(h_objs);
	kmem_cache_destroy(bench64);
}

module_init(sleeb_bench_init);
module_exit(sleeb_bench_exit);
MODULE_DESCRIPTION("Slab allocator microbenchmarks for SLEEB");
MODULE_LICENSE("GPL");
