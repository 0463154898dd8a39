# SPDX-License-Identifier: GPL-2.0
# `systemctl reload sleebd` applies a changed policy; a broken one is
# refused (file:line in the journal), the reload fails and the old policy
# stays in force.
. /tests/lib.sh
. /tests/vm-systemd/systemd.lib
C=kmalloc-8k
P=/etc/sleeb/policy.d/90-vm-systemd.conf
wait_for 300 ready
before=$(tun $C)
static_policy $P $C 24 6 48
mark
check "systemctl reload sleebd (new policy)" systemctl reload sleebd.service
if wait_for 100 tun_is $C "24 6 48"; then ok "reloaded policy in force: $C 24/6/48"; else not_ok "reloaded policy in force: $C is $(tun $C)"; show_journal; fi
check "journal: decision for $C with REASON=" sh -c "journalctl -q -u sleebd.service -o export CACHE=$C | grep -q '^NEW=24/6/48'"

cat >$P <<'X'
[Cache]
Match=kmalloc-8k
CpuQueueSize=32
Frobnicate=yes
X
mark
# ExecReload= is `sleebctl reload`, which waits for sleebd's answer: the
# refusal fails the reload job.
systemctl reload sleebd.service >/tmp/reload.out 2>&1
rc=$?
sed 's/^/#   systemctl: /' /tmp/reload.out
check "systemctl reload with a broken policy fails (exit $rc)" test $rc -ne 0
refusal_journaled() { journal_since | grep -q 'sleebctl: sleebd: policy refused, old policy stays in force'; }
if wait_for 50 refusal_journaled; then
	ok "journal: the reload command says the policy was refused"
else
	not_ok "journal: the reload command says the policy was refused"
	show_journal
fi
if wait_for 100 sh -c "journalctl -q -u sleebd.service | grep -q 'policy reload refused'"; then
	ok "broken policy refused"
else
	not_ok "broken policy refused"
	show_journal
fi
check "journal names $P:4" sh -c "journalctl -q -u sleebd.service | grep -qF '$P:4: unknown key'"
expect_eq "old policy still in force" "24 6 48" "$(tun $C)"
expect_eq "sleebd still active" active "$(systemctl is-active sleebd.service)"
check "StatusText tells the reload was refused" sh -c "systemctl show -P StatusText sleebd.service | grep -q 'reload refused'"

rm -f $P
systemctl reload sleebd.service
wait_for 100 sh -c "systemctl show -P StatusText sleebd.service | grep -qv 'reload refused'"
wait_for 100 tun_is $C "$before"
expect_eq "policy file removed and reloaded: $C back to the packaged policy's values" "$before" "$(tun $C)"
