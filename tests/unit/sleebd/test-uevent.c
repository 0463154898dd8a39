/* SPDX-License-Identifier: GPL-2.0-only */
/* Kernel uevent message parsing (sleebd/uevent-parse.c only). */

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "uevent.h"
#include "runner.h"

#define MSG(s) s, sizeof(s) - 1

START_TEST(test_add_remove)
{
	char name[64];

	ck_assert_int_eq(uevent_parse(MSG("add@/kernel/slab/foo_cache\0ACTION=add\0DEVPATH=/kernel/slab/foo_cache\0"
					  "SUBSYSTEM=slab\0SEQNUM=1234\0"),
				      name, sizeof(name)),
			 UEVENT_ADD);
	ck_assert_str_eq(name, "foo_cache");
	ck_assert_int_eq(uevent_parse(MSG("remove@/kernel/slab/:a-0000104\0ACTION=remove\0"
					  "DEVPATH=/kernel/slab/:a-0000104\0SUBSYSTEM=slab\0"),
				      name, sizeof(name)),
			 UEVENT_REMOVE);
	ck_assert_str_eq(name, ":a-0000104");
}
END_TEST

START_TEST(test_ignored)
{
	char name[8];

	/* another subsystem */
	ck_assert_int_eq(uevent_parse(MSG("add@/devices/x\0ACTION=add\0DEVPATH=/devices/x\0SUBSYSTEM=block\0"), name,
				      sizeof(name)),
			 UEVENT_OTHER);
	/* other action */
	ck_assert_int_eq(uevent_parse(MSG("change@/kernel/slab/a\0ACTION=change\0DEVPATH=/kernel/slab/a\0SUBSYSTEM=slab\0"),
				      name, sizeof(name)),
			 UEVENT_OTHER);
	/* devpath outside /kernel/slab, nested, empty, too long for the buffer */
	ck_assert_int_eq(uevent_parse(MSG("ACTION=add\0DEVPATH=/kernel/other/a\0SUBSYSTEM=slab\0"), name, sizeof(name)),
			 UEVENT_OTHER);
	ck_assert_int_eq(uevent_parse(MSG("ACTION=add\0DEVPATH=/kernel/slab/a/b\0SUBSYSTEM=slab\0"), name, sizeof(name)),
			 UEVENT_OTHER);
	ck_assert_int_eq(uevent_parse(MSG("ACTION=add\0DEVPATH=/kernel/slab/\0SUBSYSTEM=slab\0"), name, sizeof(name)),
			 UEVENT_OTHER);
	ck_assert_int_eq(uevent_parse(MSG("ACTION=add\0DEVPATH=/kernel/slab/longername\0SUBSYSTEM=slab\0"), name,
				      sizeof(name)),
			 UEVENT_OTHER);
	/* "." and ".." name no cache but a directory above one (fuzz-uevent) */
	ck_assert_int_eq(uevent_parse(MSG("ACTION=remove\0DEVPATH=/kernel/slab/..\0SUBSYSTEM=slab\0"), name,
				      sizeof(name)),
			 UEVENT_OTHER);
	ck_assert_int_eq(uevent_parse(MSG("ACTION=add\0DEVPATH=/kernel/slab/.\0SUBSYSTEM=slab\0"), name, sizeof(name)),
			 UEVENT_OTHER);
	ck_assert_int_eq(uevent_parse(MSG("ACTION=add\0DEVPATH=/kernel/slab/..a\0SUBSYSTEM=slab\0"), name,
				      sizeof(name)),
			 UEVENT_ADD);
	ck_assert_str_eq(name, "..a");
	/* missing keys, unterminated last string, libudev's binary header */
	ck_assert_int_eq(uevent_parse(MSG("add@/kernel/slab/a\0"), name, sizeof(name)), UEVENT_OTHER);
	ck_assert_int_eq(uevent_parse("ACTION=add\0DEVPATH=/kernel/slab/a\0SUBSYSTEM=slab", 47, name, sizeof(name)),
			 UEVENT_OTHER);
	ck_assert_int_eq(uevent_parse(MSG("libudev\0\xfe\xed\xca\xfe"), name, sizeof(name)), UEVENT_OTHER);
	ck_assert_int_eq(uevent_parse("", 0, name, sizeof(name)), UEVENT_OTHER);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_add_remove);
	tcase_add_test(tc, test_ignored);
}

int main(void)
{
	return test_main("uevent", add_tests);
}
