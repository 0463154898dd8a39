# SPDX-License-Identifier: GPL-2.0
# The unit's sandbox, as systemd itself rates it: exposure <= 2.5.
. /tests/lib.sh
systemd-analyze security --no-pager sleebd.service >/tmp/security.out 2>&1
rc=$?
grep '✗' /tmp/security.out | sed 's/^/#   /'
line=$(grep 'Overall exposure level' /tmp/security.out)
echo "# $line"
score=$(echo "$line" | sed -n 's/.*: *\([0-9.]*\) .*/\1/p')
check "systemd-analyze security ran (exit $rc)" test -n "$score"
check "exposure $score <= 2.5" awk -v s="$score" 'BEGIN { exit !(s != "" && s <= 2.5) }'
