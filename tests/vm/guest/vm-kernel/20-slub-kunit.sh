# SPDX-License-Identifier: GPL-2.0
# The upstream SLUB KUnit suite must still pass with the queues in place.
. /tests/lib.sh
kunit_run slub_kunit
