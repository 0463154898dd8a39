#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Every verb and option that exists is in the man pages. What exists is
# read from the programs (the verbs of `sleebctl --help`, the options each
# verb's --help prints) and from their sources (each getopt_long option
# table and short-option string), so an option nobody put in --help still
# counts. The pages are checked section by section:
#
#   sleebctl.8  each verb: in SYNOPSIS, a ".SS VERB ..." of its own that
#               names every long (--name) and short (-x) option and every
#               sub-command of the verb, in EXIT STATUS and in PRIVILEGES
#               (who may run it);
#               the global options in GLOBAL OPTIONS.
#   sleebd.8    every option in OPTIONS; an EXIT STATUS.
#   sleeb-policy.5, sleebd.conf.5
#               every key the configuration readers in lib/ compare
#               against, as "Key=".
#
# usage: man-pages.sh SOURCE_ROOT SLEEBCTL SLEEBD
set -u

src=$1 sleebctl=$2 sleebd=$3
fail=0
missing() {
	echo "not in the man page: $*"
	fail=1
}

# The page as text: "\-" is "-", font escapes and \c go.
text() {
	sed -e 's/\\-/-/g' -e 's/\\f[BIRPC]//g' -e 's/\\f(..//g' -e 's/\\c//g' -e 's/\\(em/-/g' "$1"
}

# section PAGE MACRO NAME: every .SH/.SS (MACRO) whose heading starts with
# NAME, heading included, up to the next heading of that level or above.
section() {
	text "$1" | awk -v m="$2" -v n="$3" '
		/^\.SH/ || (m == ".SS" && /^\.SS/) {
			h = $0
			sub(/^\.S[HS][ \t]*/, "", h)
			gsub(/"/, "", h)
			split(h, w, /[ \t]/)
			on = ($1 == m && w[1] == n)
			if (on)
				print h  # the heading names options too
			next
		}
		on'
}

# options_of FILE...: long options (--name) of the getopt_long tables and
# short ones (-x) of the option strings in FILE, one a line.
options_of() {
	awk '
		/struct option [a-z_]*\[\] = \{/ { t = 1; next }
		t && /^[ \t]*\{\}/ { t = 0 }
		t && /\{ *"[a-z][a-z0-9-]*"/ {
			s = $0
			sub(/^[^"]*"/, "", s)
			sub(/".*/, "", s)
			print "--" s
		}
		/getopt_long\(/ {
			s = $0
			if (sub(/^.*getopt_long\([^,]*,[^,]*, *"/, "", s)) {
				sub(/".*/, "", s)
				gsub(/[:+-]/, "", s)
				for (i = 1; i <= length(s); i++)
					print "-" substr(s, i, 1)
			}
		}' "$@"
}

# has TEXT-FILE OPTION: the option appears as a word (not as the start
# of a longer option: --root is not found in --config-root).
has() {
	grep -qE -- "(^|[^a-zA-Z0-9-])$2([^a-zA-Z0-9-]|\$)" "$1"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- sleebctl ---------------------------------------------------------------
page=$src/docs/sleebctl.8
verbs=$("$sleebctl" --help | awk '/^Verbs:/ { v = 1; next } v && /^  [a-z]/ { print $1 }')
[ -n "$verbs" ] || { echo "no verbs in 'sleebctl --help'"; exit 1; }
section "$page" .SH SYNOPSIS >"$tmp/synopsis"
section "$page" .SH "EXIT" >"$tmp/exit"
section "$page" .SH PRIVILEGES >"$tmp/privileges"
section "$page" .SH GLOBAL >"$tmp/global"

for o in $(options_of "$src/sleebctl/main.c") --root --help -h --version; do
	has "$tmp/global" "$o" || missing "sleebctl.8: GLOBAL OPTIONS: $o"
done
for v in $verbs; do
	section "$page" .SS "$v" >"$tmp/verb"
	[ -s "$tmp/verb" ] || missing "sleebctl.8: a '.SS $v' section"
	grep -qE "sleebctl( \[[^]]*\])* $v([^a-z-]|\$)" "$tmp/synopsis" || missing "sleebctl.8: SYNOPSIS: sleebctl $v"
	has "$tmp/exit" "$v" || missing "sleebctl.8: EXIT STATUS: $v"
	has "$tmp/privileges" "$v" || missing "sleebctl.8: PRIVILEGES: $v"
	# What exists: the verb's source and the options its --help prints.
	srcs=$src/sleebctl/verb-$v.c
	grep -q sleebctl_control_verb "$srcs" && srcs="$srcs $src/sleebctl/control-client.c"
	{
		options_of $srcs
		"$sleebctl" "$v" --help 2>/dev/null | grep -oE -- '--[a-z][a-z0-9-]*' | grep -v -- '--warn-\*$'
	} | sort -u >"$tmp/opts"
	for o in $(cat "$tmp/opts"); do
		case $o in --help | -h) continue ;; esac
		has "$tmp/verb" "$o" || missing "sleebctl.8: '.SS $v': $o"
	done
	# Sub-commands: lower-case words after "sleebctl VERB" in its usage.
	for w in $("$sleebctl" "$v" --help 2>/dev/null | sed -n "s/^.*sleebctl $v \([a-z][a-z-]*\)\( .*\)\{0,1\}\$/\1/p" | sort -u); do
		has "$tmp/verb" "$w" || missing "sleebctl.8: '.SS $v': $v $w"
	done
done

# --- sleebd -----------------------------------------------------------------
page=$src/docs/sleebd.8
section "$page" .SH OPTIONS >"$tmp/options"
section "$page" .SH EXIT >"$tmp/exit"
{
	options_of "$src/sleebd/main.c"
	"$sleebd" --help | grep -oE -- '--[a-z][a-z0-9-]*'
} | sort -u >"$tmp/opts"
for o in $(cat "$tmp/opts"); do
	has "$tmp/options" "$o" || missing "sleebd.8: OPTIONS: $o"
done
[ -s "$tmp/exit" ] || missing "sleebd.8: an EXIT STATUS section"

# --- policy and sleebd.conf keys --------------------------------------------
# The keys the INI readers compare against (wherever in lib/ they live).
for k in $(grep -ohE 'strcmp\(key, "[A-Za-z]+"\)|NUMBER\("[A-Za-z]+"' "$src"/lib/*.c |
	grep -oE '"[A-Za-z]+"' | tr -d '"' | sort -u); do
	grep -qE "(^|[^A-Za-z])$k=" "$src/docs/sleeb-policy.5" "$src/docs/sleebd.conf.5" ||
		missing "sleeb-policy.5 or sleebd.conf.5: $k="
done

[ $fail = 0 ] && echo "every verb, option and key is in sleebctl.8, sleebd.8, sleeb-policy.5 and sleebd.conf.5"
exit $fail
