#!/usr/bin/env bash
# console_session.sh - proves tools/console-session.py (the scripted console
# sessions of make check) fires: against a pretend console
# (tests/host/fake_console.py), a right session passes and each kind of
# wrong one fails, with the transcript shown. TAP.
set -u
cd "$(dirname "$0")/../.."
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
n=0
fails=0

# session NAME BODY: write $t/NAME.session (the header, then BODY).
session() {
	{
		echo "name: $1"
		echo "command: python3 -u tests/host/fake_console.py"
		echo 'prompt: fake:\S*# $'
		echo "boot-timeout: 10"
		echo "timeout: 3"
		echo "$2"
	} >"$t/$1.session"
}

# check WHAT WANT_RC PATTERN NAME [OPTIONS]: run the session NAME; the
# harness must exit with WANT_RC (0 or 1) and print a line matching PATTERN.
check() {
	local what=$1 want=$2 pattern=$3 name=$4 rc
	shift 4
	python3 tools/console-session.py "$@" "$t/$name.session" >"$t/$name.out" 2>&1
	rc=$?
	n=$((n + 1))
	if [ "$rc" = "$want" ] && grep -q -E -- "$pattern" "$t/$name.out"; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what (exit $rc, want $want; no line matching '$pattern')"
		sed 's/^/#   /' "$t/$name.out" | tail -n 30
		fails=$((fails + 1))
	fi
}

session good '=== ready
$ echo hello
hello
$ echo a b c
~ a \S c
$ wrap this command is longer than twenty characters
wrapped
$ echo one
...
=== pending: not run by default
$ echo two
three'
check "a right session passes, every point ok" 0 '^run: good: 7 passed, 0 failed' good
check "a pending block is listed, not run" 0 '^# pending \(not run by default\): \$ echo two' good
check "--pending runs it (and its wrong output fails)" 1 '^not ok 6 - good: \$ echo two' good --pending

session wrong '=== ready
$ echo hello
goodbye'
check "wrong output fails and shows expected and got" 1 '^#     \| goodbye' wrong
check "a failure prints the console transcript" 1 '^  \| fake:/# echo hello' wrong

session extra '=== ready
$ echo hello'
check "output where none is expected fails" 1 '^not ok 2 - extra: \$ echo hello' extra

session hang '=== ready
$ hang'
check "no prompt within the timeout fails" 1 'no prompt within 3s' hang

session panic '=== ready
$ panic
...'
check "a panic on the console fails" 1 '^not ok [0-9]+ - panic: no panic or unexpected exception' panic

session status 'exit: exit 3
=== ready
$ echo hi
hi'
check "a non-zero kernel exit status fails" 1 '^not ok 3 - status: \$ exit 3: the boot ends with status 0' status

session badre '=== ready
$ echo hi
~ +hi'
check "a bad regex is a session error" 1 'bad regex' badre

echo "1..$n"
[ "$fails" = 0 ]
