# SPDX-License-Identifier: GPL-2.0
# The Debian package sleeb-tools (debian/, tools/build-deb.sh) as an
# administrator meets it: installed with apt-get (by the image build), its
# unit enabled and running; `apt-get remove` stops sleebd with every cache
# back at its original; a reinstall starts it again; an edited
# /etc/sleeb/sleebd.conf survives an upgrade to the same tree rebuilt at a
# higher version (a conffile); a removal while sleebd is down but its
# originals are recorded still restores them; purge takes the /run/sleeb
# state away and nothing of the administrator's. Ends with the upgraded
# package installed and sleebd running.
. /tests/lib.sh
. /tests/vm-systemd/systemd.lib
debs=/var/cache/sleeb-test
v0=$(cat $debs/version) v1=$(cat $debs/upgrade-version)
deb0=$debs/sleeb-tools_${v0}_amd64.deb deb1=$debs/sleeb-tools_${v1}_amd64.deb
pkg_status() { dpkg-query -W -f='${db:Status-Abbrev}${Version}' sleeb-tools 2>/dev/null | tr -s ' '; }
# apt NAME ARGS...: one test point for an apt-get run, its output kept
apt() {
	_d=$1
	shift
	if DEBIAN_FRONTEND=noninteractive apt-get -q -y "$@" >/tmp/apt.out 2>&1; then
		ok "$_d"
	else
		not_ok "$_d"
	fi
	sed 's/^/#   apt: /' /tmp/apt.out | grep -v -e 'Reading database' -e '^#   apt: *$' | tail -n 12
}
wait_for 300 ready
expect_eq "sleeb-tools $v0 installed by apt-get (dpkg: ii)" "ii $v0" "$(pkg_status)"
expect_eq "the package enabled sleebd.service" enabled "$(systemctl is-enabled sleebd.service)"
expect_eq "sleebd.service is running" active "$(systemctl is-active sleebd.service)"
check "dpkg lists /etc/sleeb/sleebd.conf as a conffile" \
	sh -c "dpkg-query -W -f='\${Conffiles}' sleeb-tools | grep -q '^ /etc/sleeb/sleebd.conf '"

# The originals: what a stop puts back (40-stop-restore.sh checks that a
# stop does it); tuned again once started.
systemctl stop sleebd.service
all_tunables >/tmp/pkg-orig
systemctl start sleebd.service
wait_for 300 ready
all_tunables >/tmp/pkg-tuned
n=$(diff /tmp/pkg-orig /tmp/pkg-tuned | grep -c '^>')
echo "# $n of $(wc -l </tmp/pkg-orig) caches tuned before the removal"
check "sleebd had tuned caches before the removal" test "$n" -gt 0

apt "apt-get remove sleeb-tools" remove sleeb-tools
expect_eq "removed, its conffile kept (dpkg: rc)" "rc $v0" "$(pkg_status)"
expect_eq "sleebd.service stopped by the removal" inactive "$(systemctl is-active sleebd.service)"
check "no sleebd process left" sh -c '! pgrep -x sleebd'
all_tunables >/tmp/pkg-removed
if cmp -s /tmp/pkg-orig /tmp/pkg-removed; then
	ok "after removal every cache is back at its original ($(wc -l </tmp/pkg-removed) caches)"
else
	not_ok "after removal every cache is back at its original"
	diff /tmp/pkg-orig /tmp/pkg-removed | head -10 | sed 's/^/#   /'
fi
check "the removal left no originals recorded in /run/sleeb/state" sh -c '! grep -q "^[^#]" /run/sleeb/state 2>/dev/null'

apt "apt-get install ./sleeb-tools_${v0}_amd64.deb (reinstall)" install "$deb0"
expect_eq "reinstalled (dpkg: ii $v0)" "ii $v0" "$(pkg_status)"
check "the reinstall started sleebd.service and it is ready" wait_for 300 ready
expect_eq "sleebd.service enabled again" enabled "$(systemctl is-enabled sleebd.service)"
all_tunables >/tmp/pkg-retuned
check "sleebd tunes the caches again" sh -c '! cmp -s /tmp/pkg-orig /tmp/pkg-retuned'

# An administrator's edit: a comment and a real setting the daemon shows.
sed -i 's/^#Interval=2s$/Interval=3s/' /etc/sleeb/sleebd.conf
echo '# edited by vm-systemd 70-package.sh' >>/etc/sleeb/sleebd.conf
cp /etc/sleeb/sleebd.conf /tmp/pkg-edited.conf
check "edited sleebd.conf: Interval=3s" grep -q '^Interval=3s$' /etc/sleeb/sleebd.conf
pid0=$(main_pid)
apt "apt-get install ./sleeb-tools_${v1}_amd64.deb (upgrade $v0 -> $v1)" install "$deb1"
expect_eq "upgraded (dpkg: ii $v1)" "ii $v1" "$(pkg_status)"
if cmp -s /tmp/pkg-edited.conf /etc/sleeb/sleebd.conf; then
	ok "the edited /etc/sleeb/sleebd.conf survived the upgrade (conffile kept)"
else
	not_ok "the edited /etc/sleeb/sleebd.conf survived the upgrade (conffile kept)"
	diff /tmp/pkg-edited.conf /etc/sleeb/sleebd.conf | head -10 | sed 's/^/#   /'
fi
check "no .dpkg-new or .dpkg-dist beside it (no conffile prompt)" sh -c '! ls /etc/sleeb/sleebd.conf.dpkg-*'
check "the upgrade restarted sleebd and it is ready" wait_for 300 ready
pid1=$(main_pid)
check "a new sleebd process after the upgrade (MainPID $pid0 -> $pid1)" test "$pid1" != "$pid0" -a "$pid1" != 0
sleebctl status >/tmp/pkg-status 2>&1
check "the upgraded sleebd runs with the edited Interval=3s" grep -q '^Interval: 3s ' /tmp/pkg-status

# sleebd down while its originals are recorded (killed, not restarted):
# the removal must still put them back. Made by hand: stop (originals
# back), then a cache changed behind sleebd's back with its true values
# written into the state file as a killed sleebd would have left them.
systemctl stop sleebd.service
C=kmalloc-64
id=$(basename "$(readlink -f /sys/kernel/slab/$C)")
orig=$(tun $C)
# Sizes other than the original, whatever that is.
if [ "$orig" = "30 15 120" ]; then set -- 24 12 96; else set -- 30 15 120; fi
sleebctl set $C --queue "$1" --batch "$2" --shared "$3" >/tmp/set.out 2>&1
check "sleebctl set $C to '$*' with sleebd stopped" tun_is $C "$*"
printf '# sleebd state v2\n%s %s\n' "$id" "$orig" >/run/sleeb/state
echo "# $C ($id): original '$orig', set to '$(tun $C)' with sleebd stopped and the original recorded"
apt "apt-get remove sleeb-tools (sleebd not running, originals recorded)" remove sleeb-tools
expect_eq "$C back at its recorded original after that removal" "$orig" "$(tun $C)"
expect_eq "sleebd.service stopped again" inactive "$(systemctl is-active sleebd.service)"

# Purge: /run/sleeb's state goes (and the directory, empty then), so do
# /var/lib/sleeb and its learned sizes, the
# conffile goes, and so does the unit's enablement (the symlink in
# /etc/systemd/system, deb-systemd-helper's record); an administrator's
# file in /etc/sleeb stays, and the rest of /etc and /var/lib is as it
# was (dpkg's and apt's own databases aside).
mkdir -p /etc/sleeb/policy.d
printf '# an administrator policy\n' >/etc/sleeb/policy.d/90-admin.conf
ls -A /run/sleeb 2>/dev/null | sed 's/^/#   in \/run\/sleeb before purge: /'
snapshot() {
	find /etc /var/lib /run/sleeb -xdev 2>/dev/null |
		grep -v -e '^/var/lib/dpkg/' -e '^/var/lib/apt/' -e '^/var/lib/systemd/' -e '^/etc/ld.so.cache$' | sort
}
snapshot >/tmp/pkg-before-purge
apt "apt-get purge sleeb-tools" purge sleeb-tools
expect_eq "purged (dpkg knows no sleeb-tools)" "" "$(pkg_status)"
snapshot >/tmp/pkg-after-purge
diff /tmp/pkg-before-purge /tmp/pkg-after-purge | sed -n 's/^[<>] //p' >/tmp/pkg-purged
sed 's/^/#   purge removed: /' /tmp/pkg-purged
check "purge removed /run/sleeb and its state" sh -c '! test -e /run/sleeb'
check "purge removed /etc/sleeb/sleebd.conf" sh -c '! test -e /etc/sleeb/sleebd.conf'
check "purge removed /var/lib/sleeb (the unit's StateDirectory=, learned sizes)" sh -c '! test -e /var/lib/sleeb'
check "the administrator's /etc/sleeb/policy.d/90-admin.conf is still there" test -f /etc/sleeb/policy.d/90-admin.conf
check "purge removed nothing else under /etc and /var/lib, and added nothing" \
	sh -c "! grep -v -e '^/run/sleeb' -e '^/var/lib/sleeb' -e '^/etc/sleeb/sleebd.conf\$' \
		-e '^/etc/systemd/system/.*/sleebd.service\$' /tmp/pkg-purged"
check "no deb-systemd-helper record of sleebd.service left" \
	sh -c '! ls /var/lib/systemd/deb-systemd-helper-enabled | grep -q sleebd'
rm -f /etc/sleeb/policy.d/90-admin.conf

apt "apt-get install ./sleeb-tools_${v1}_amd64.deb (fresh install after purge)" install "$deb1"
check "sleebd.service ready after the fresh install" wait_for 300 ready
