# SPDX-License-Identifier: GPL-2.0
# The installed package on a real systemd: sleebd.service came up by itself
# (enabled like a package's unit), reached READY with a status text, and
# journals its decisions as structured entries.
. /tests/lib.sh
. /tests/vm-systemd/systemd.lib
echo "# $(systemctl --version | head -1), kernel $(uname -r)"
wait_for 300 ready
expect_eq "sleebd.service is active" active "$(systemctl is-active sleebd.service)"
expect_eq "sleebd.service is enabled" enabled "$(systemctl is-enabled sleebd.service)"
st=$(status_text)
echo "# StatusText: $st"
check "StatusText set after READY=1 ('... caches under policy ...')" sh -c "echo '$st' | grep -q 'caches under policy'"
expect_eq "the unit runs the packaged binary" /usr/sbin/sleebd "$(systemctl show -P ExecStart sleebd.service | sed -n 's/.*path=\([^ ;]*\).*/\1/p')"
check "the packaged policies are installed in /usr/lib/sleeb/policy.d" test -s /usr/lib/sleeb/policy.d/50-autotune.conf

# Decisions as journal fields, not just text. The shipped policies change
# nothing at start (their static values are the kernel's defaults) and an
# idle machine makes the auto-tuner keep them (AutoTuneMin=default), so
# make a decision happen: a kmalloc cache's queue set below the policy's
# floor behind sleebd's back is put back within an interval or two.
sleebctl set kmalloc-64 --queue 30 --batch 15 --shared 120 >/tmp/set.out 2>&1
sed 's/^/#   set: /' /tmp/set.out
wait_for 900 sh -c "journalctl -q -u sleebd.service -o export | grep -q '^DECISION='"
journalctl -q -u sleebd.service -o export >/tmp/export 2>/dev/null
n=$(grep -c '^REASON=' /tmp/export)
echo "# $n decision entries in the journal"
check "journal holds decision entries with CACHE=, OLD=, NEW=, DECISION=, REASON=" sh -c \
	"grep -q '^CACHE=kmalloc-' /tmp/export && grep -q '^NEW=' /tmp/export && grep -q '^OLD=' /tmp/export && grep -q '^DECISION=' /tmp/export && [ $n -gt 0 ]"
# The newest entry agrees with sysfs field by field (a cache is left alone
# for a few intervals after a change: the auto-tuner's cooldown).
awk -F= '/^$/ { if (c != "") { lc = c; ln = n; ld = d; lr = r }; c = "" }
	$1 == "CACHE" { c = $2 } $1 == "NEW" { n = $2 } $1 == "DECISION" { d = $2 }
	$1 == "REASON" { sub(/^REASON=/, ""); r = $0 }
	END { if (c != "") { lc = c; ln = n; ld = d; lr = r }; print lc; print ln; print ld; print lr }' /tmp/export >/tmp/last
c=$(sed -n 1p /tmp/last) new=$(sed -n 2p /tmp/last)
echo "# newest decision: CACHE=$c NEW=$new DECISION=$(sed -n 3p /tmp/last) REASON=$(sed -n 4p /tmp/last)"
if [ -n "$c" ] && [ -d "/sys/kernel/slab/$c" ]; then
	expect_eq "its NEW= matches $c's sysfs values" "$new" "$(tun "$c" | tr ' ' /)"
else
	not_ok "newest decision names an existing cache ('$c')"
fi
check "sleebctl status talks to the service" sleebctl status
sleebctl status 2>&1 | head -5 | sed 's/^/#   /'
