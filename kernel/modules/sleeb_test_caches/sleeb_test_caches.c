// SPDX-License-Identifier: GPL-2.0
/*
 * sleeb_test_caches: two caches that live as long as the module, for the
 * guest tests of the queue control interface: "sleeb_uevent_test" (a plain
 * unmergeable cache, whose creation and removal must be announced by
 * uevents) and "sleeb_debug_test" (with red zones, so it cannot queue).
 */
#include <linux/module.h>
#include <linux/slab.h>

static struct kmem_cache *plain, *debug;

static int __init sleeb_test_caches_init(void)
{
	plain = kmem_cache_create("sleeb_uevent_test", 128, 0, SLAB_NO_MERGE, NULL);
	debug = kmem_cache_create("sleeb_debug_test", 128, 0,
				  SLAB_NO_MERGE | SLAB_RED_ZONE, NULL);
	if (!plain || !debug) {
		kmem_cache_destroy(plain);
		kmem_cache_destroy(debug);
		return -ENOMEM;
	}
	return 0;
}

static void __exit sleeb_test_caches_exit(void)
{
	kmem_cache_destroy(plain);
	kmem_cache_destroy(debug);
}

module_init(sleeb_test_caches_init);
module_exit(sleeb_test_caches_exit);
MODULE_DESCRIPTION("Caches for SLEEB's control interface tests");
MODULE_LICENSE("GPL");
