# SPDX-License-Identifier: GPL-2.0
# SLEEB's own KUnit suite (lib/slub_queue_kunit.c): queue semantics.
# Booted with sleeb.kunit_queues_off=1, the suite runs on test caches
# without queues, where every test of what the queues do must fail (see
# docs/testing.md: "KUnit against plain SLUB").
. /tests/lib.sh
if grep -q 'sleeb\.kunit_queues_off=1' /proc/cmdline; then
	kunit_run slub_queue_kunit queues_off=1
else
	kunit_run slub_queue_kunit
fi
