# SPDX-License-Identifier: GPL-2.0
# SLEEB's own KUnit suite (lib/slub_queue_kunit.c): queue semantics.
. /tests/lib.sh
kunit_run slub_queue_kunit
