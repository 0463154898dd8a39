# SPDX-License-Identifier: GPL-2.0
# The upstream SLUB KUnit suite (lib/slub_kunit.c) must keep passing.
. /tests/lib.sh
kunit_run slub_kunit
