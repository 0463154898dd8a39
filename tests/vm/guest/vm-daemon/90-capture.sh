# SPDX-License-Identifier: GPL-2.0
# One-off, only with sleeb.capture=1 on the kernel command line and a copy
# of the capture script in the suite (the initramfs' --extra takes only ELF
# programs: it runs ldd on them):
#   cp tests/data/capture-tree.sh tests/vm/guest/vm-daemon/capture-tree
#   tests/vm/harness.sh vm-daemon sleeb --build-dir B --append sleeb.capture=1
#   rm tests/vm/guest/vm-daemon/capture-tree
# capture this guest's /proc and /sys/kernel/slab with
# tests/data/capture-tree.sh and send it to the host as base64 lines
# "SLEEB-B64 ..." (which the harness does not echo) between
# SLEEB-CAPTURE-BEGIN/END; the host extracts it from vm-logs/.../tap.log.
. /tests/lib.sh
grep -q 'sleeb\.capture=1' /proc/cmdline || exit 0
[ -r /tests/vm-daemon/capture-tree ] || { not_ok "capture: /tests/vm-daemon/capture-tree missing (copy it from tests/data)"; exit 0; }
ATTRS="aliases cpu_batch_size cpu_queue_size object_size objects objs_per_slab order queue_stats shared_queue_size slabs total_objects" \
	sh /tests/vm-daemon/capture-tree /tmp/capture >/tmp/capture.out 2>&1
rc=$?
sed 's/^/# /' /tmp/capture.out
expect_eq "capture-tree.sh runs in the guest" 0 $rc
echo "SLEEB-CAPTURE-BEGIN"
(cd /tmp/capture && tar czf - proc sys) | base64 | sed 's/^/SLEEB-B64 /'
echo "SLEEB-CAPTURE-END"
