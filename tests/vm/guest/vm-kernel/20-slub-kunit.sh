# SPDX-License-Identifier: GPL-2.0
# The upstream SLUB KUnit suite must still pass with the queues in place.
# Under kmemleak it runs without test_leak_destroy: that case leaks an
# object on purpose (destroying its cache must report it), and kmemleak
# reports the object too, as it should, which the splat scan would count.
# The kernels without kmemleak (and vm-boot) run the whole suite.
. /tests/lib.sh
glob=/sys/module/kunit/parameters/filter_glob
if [ -e /sys/kernel/debug/kmemleak ] && [ -w "$glob" ]; then
	echo "# kmemleak is on: slub_test.test_leak_destroy left out (it leaks an object on purpose)"
	printf '%s' 'slub_test.test_[!l]*' >"$glob" # no newline: it would be part of the glob
	kunit_run slub_kunit
	printf '%s' '*.*' >"$glob"
else
	kunit_run slub_kunit
fi
