// SPDX-License-Identifier: GPL-2.0
/*
 * sleeb_churn: caches that come and go while userspace reads them.
 *
 * Writing 1 to /sys/module/sleeb_churn/parameters/run starts a kernel
 * thread that creates a few caches, allocates and frees one object in
 * each, destroys them again and starts over, sleeping 0 or about 1 ms between
 * the steps; writing 0 stops it. Each cycle adds and removes a
 * /proc/slabinfo line and a /sys/kernel/slab directory per unmergeable
 * cache ("sleeb_churn_N") and an alias link for the mergeable one
 * ("sleeb_churn_alias"), so a reader that lists the caches and then opens
 * their attributes keeps finding some of them gone (the guest test of
 * the tools' snapshot, vm-daemon). "cycles" counts the completed cycles.
 */
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>

#define CHURN_CACHES 4

static struct task_struct *churn_thread;
static DEFINE_MUTEX(churn_lock);	/* serializes starting and stopping */
static unsigned long cycles;
module_param(cycles, ulong, 0444);
MODULE_PARM_DESC(cycles, "Create/destroy cycles completed");

static void churn_cycle(unsigned int step)
{
	struct kmem_cache *c[CHURN_CACHES + 1] = {};
	char name[32];
	unsigned int i;
	void *obj;

	for (i = 0; i < CHURN_CACHES; i++) {
		snprintf(name, sizeof(name), "sleeb_churn_%u", i);
		c[i] = kmem_cache_create(name, 64 + 32 * i, 0, SLAB_NO_MERGE, NULL);
	}
	/* Merges with an existing cache: only an alias link comes and goes. */
	c[CHURN_CACHES] = kmem_cache_create("sleeb_churn_alias", 64, 0, 0, NULL);
	for (i = 0; i <= CHURN_CACHES; i++) {
		if (!c[i])
			continue;
		obj = kmem_cache_alloc(c[i], GFP_KERNEL);
		if (obj)
			kmem_cache_free(c[i], obj);
	}
	/* Alternate between no sleep and about 1 ms: readers race both ways. */
	if (step & 1)
		usleep_range(500, 1000);
	cond_resched();
	for (i = 0; i <= CHURN_CACHES; i++)
		kmem_cache_destroy(c[i]);
	if (step & 2)
		usleep_range(500, 1000);
	cond_resched();
}

static int churn_fn(void *unused)
{
	unsigned int step = 0;

	while (!kthread_should_stop()) {
		churn_cycle(step++);
		WRITE_ONCE(cycles, READ_ONCE(cycles) + 1);
	}
	return 0;
}

static int churn_start(void)
{
	struct task_struct *t;

	if (churn_thread)
		return 0;
	t = kthread_run(churn_fn, NULL, "sleeb_churn");
	if (IS_ERR(t))
		return PTR_ERR(t);
	churn_thread = t;
	return 0;
}

static void churn_stop(void)
{
	if (!churn_thread)
		return;
	kthread_stop(churn_thread);
	churn_thread = NULL;
}

static int run_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int err;

	err = kstrtobool(val, &on);
	if (err)
		return err;
	mutex_lock(&churn_lock);
	if (on) {
		err = churn_start();
	} else {
		churn_stop();
		err = 0;
	}
	mutex_unlock(&churn_lock);
	return err;
}

static int run_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(churn_thread) ? 1 : 0);
}

static const struct kernel_param_ops run_ops = {
	.set = run_set,
	.get = run_get,
};
module_param_cb(run, &run_ops, NULL, 0644);
MODULE_PARM_DESC(run, "1 starts the create/destroy loop, 0 stops it");

static void __exit sleeb_churn_exit(void)
{
	mutex_lock(&churn_lock);
	churn_stop();
	mutex_unlock(&churn_lock);
}

module_exit(sleeb_churn_exit);
MODULE_DESCRIPTION("Create and destroy slab caches in a loop, for SLEEB's tool tests");
MODULE_LICENSE("GPL");
