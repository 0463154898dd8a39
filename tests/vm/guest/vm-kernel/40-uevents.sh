# SPDX-License-Identifier: GPL-2.0
# A cache created and destroyed by a module is announced to netlink
# listeners with SUBSYSTEM=slab and DEVPATH=/kernel/slab/<name>.
. /tests/lib.sh
uevent-listen 15 slab >/tmp/uevents &
pid=$!
while ! grep -q ready /tmp/uevents 2>/dev/null; do sleep 0.1; done
insmod /lib/modules/sleeb_test_caches.ko
rmmod sleeb_test_caches
kill $pid 2>/dev/null
wait $pid 2>/dev/null
sed 's/^/#   /' /tmp/uevents
check "KOBJ_ADD for a new cache" grep -qx "add /kernel/slab/sleeb_uevent_test" /tmp/uevents
check "KOBJ_REMOVE for a destroyed cache" grep -qx "remove /kernel/slab/sleeb_uevent_test" /tmp/uevents
