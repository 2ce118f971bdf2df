#!/usr/bin/env python3
"""console-session.py - a scripted console session: boot QEMU, wait for the
shell's prompt, type each command of a session file on the console, and
check what the shell answers. Prints TAP and a last line
"run: NAME: P passed, F failed" (tools/check.sh counts it); on a failure the
whole console transcript follows.

    console-session.py [--pending] [--log FILE] [--target NAME] SESSION...

A session file (tests/sessions/*.session) is data: a header of "key: value"
lines, then blocks of commands.

    name: busybox-arm64                    the name in TAP lines
    make: ARCH=arm64 INITRD=...            make variables for the QEMU command
    target: ml605 | ARCH=microblaze ...    instead of make: one run per target
                                           line, named NAME-TARGET (repeatable)
    command: ARGV                          instead of make: run this (the
                                           harness's own test, tests/host)
    build: busybox-initramfs               make targets built first (kernel always)
    prompt: teachos:\\S*# $                 regex: the shell waits for a command
    boot-timeout: 180                      seconds to the first prompt
    timeout: 30                            seconds per command
    ignore: REGEX                          removed from the console output
                                           before matching (repeatable)
    exit: exit 0                           typed last; the kernel must then
                                           print "kernel-exit: status=0"

    === ready                              blocks: "ready" ones run;
    $ echo $((6 * 7))                      a command, typed with a newline
    42                                     its expected output, line by line
    === pending: needs getdents64          "pending" ones are listed, and run
    $ ls /                                 only with --pending: enabling one
    ~ bin +dev +proc.*                     is changing its word to "ready"

Expected output: a line matches itself exactly; "~ REGEX" is a regex the
whole line must match; "..." stands for any number of lines. No lines: the
command must print nothing (blank lines at the end of a command's lines are
ignored: they separate blocks). After the "$" line, "@ sleep S" waits S seconds
and "@ send TEXT" types TEXT without a newline (^C is Ctrl-C, ^D Ctrl-D,
^Z Ctrl-Z) before the output is awaited: "$ sleep 30", "@ sleep 1",
"@ send ^C" interrupts a foreground sleep.

The console output of a command is what the shell prints between the
command and the next prompt, with terminal escape sequences and carriage
returns removed and the shell's echo of the command line (if any) dropped.
"""
import argparse
import os
import re
import select
import shlex
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXIT_MARK = re.compile(r'kernel-exit: status=(\d+)')
FATAL = re.compile(r'^(panic:|Unexpected exception)', re.M)
ESCAPES = re.compile(r'\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78DEHMc]|[\x07\x0f\r]')


class SessionError(Exception):
    """A session file that cannot be read (a mistake in the file, not in the kernel)."""


class Command:
    """One typed command: its text, the actions after typing it, its expected lines."""

    def __init__(self, text, lineno, block, ready):
        self.text, self.lineno, self.block, self.ready = text, lineno, block, ready
        self.actions = []	# ("sleep", seconds) or ("send", bytes)
        self.expect = []


def control_chars(text):
    """TEXT of an "@ send" line with ^X turned into the control character X."""
    return re.sub(r'\^([A-Z@\[\\\]^_?])',
                  lambda m: chr(0x7f if m.group(1) == '?' else ord(m.group(1)) & 0x1f), text)


def parse_session(path):
    """Read a session file: (header dict, list of Command). Raises SessionError."""
    header = {'ignore': [], 'target': [], 'build': '', 'make': '', 'command': '', 'boot-timeout': '180',
              'timeout': '30', 'exit': 'exit 0'}
    commands, block, ready, cmd = [], None, False, None
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    for n, line in enumerate(lines, 1):
        if block is None:
            if not line.strip() or line.startswith('#'):
                continue
            m = re.match(r'=== (ready|pending)\b:? ?(.*)$', line)
            if m:
                block, ready = m.group(2) or m.group(1), m.group(1) == 'ready'
                continue
            m = re.match(r'([a-z-]+): ?(.*)$', line)
            if not m or m.group(1) not in header and m.group(1) not in ('name', 'prompt'):
                raise SessionError('%s:%d: not a header line: %r' % (path, n, line))
            if m.group(1) in ('ignore', 'target'):
                header[m.group(1)].append(m.group(2))
            else:
                header[m.group(1)] = m.group(2)
            continue
        m = re.match(r'=== (ready|pending)\b:? ?(.*)$', line)
        if m:
            block, ready, cmd = m.group(2) or m.group(1), m.group(1) == 'ready', None
        elif line.startswith('$ '):
            cmd = Command(line[2:], n, block, ready)
            commands.append(cmd)
        elif line.startswith('# ') or line == '#':
            continue
        elif cmd is None:
            if line.strip():
                raise SessionError('%s:%d: output line before any command: %r' % (path, n, line))
        elif line.startswith('@ '):
            if cmd.expect:
                raise SessionError('%s:%d: an action after expected output' % (path, n))
            verb, _, arg = line[2:].partition(' ')
            if verb == 'sleep':
                cmd.actions.append(('sleep', float(arg)))
            elif verb == 'send':
                cmd.actions.append(('send', control_chars(arg).encode('latin-1')))
            else:
                raise SessionError('%s:%d: unknown action %r' % (path, n, verb))
        else:
            if line.startswith('~ '):
                try:
                    re.compile(line[2:])
                except re.error as e:
                    raise SessionError('%s:%d: bad regex: %s' % (path, n, e))
            cmd.expect.append(line)
    for c in commands:	# blank lines end a block; they are no output
        while c.expect and c.expect[-1] == '':
            c.expect.pop()
    for key in ('name', 'prompt'):
        if key not in header:
            raise SessionError('%s: no "%s:" line' % (path, key))
    return header, commands


def match_lines(expect, got):
    """True if the output lines got match the expected lines (exact, "~ REGEX", "...")."""
    if not expect:
        return not got
    head, rest = expect[0], expect[1:]
    if head == '...':
        return any(match_lines(rest, got[i:]) for i in range(len(got) + 1))
    if not got:
        return False
    if head.startswith('~ '):
        ok = re.fullmatch(head[2:], got[0]) is not None
    else:
        ok = head == got[0]
    return ok and match_lines(rest, got[1:])


class Console:
    """QEMU running with its console on our pipes; everything it printed in self.raw."""

    def __init__(self, argv, ignore):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, cwd=REPO)
        self.raw = b''
        self.ignore = [re.compile(r) for r in ignore]

    def text(self):
        """The output so far, without escapes, carriage returns and ignored text."""
        t = ESCAPES.sub('', self.raw.decode('latin-1'))
        for r in self.ignore:
            t = r.sub('', t)
        return t

    def read_for(self, seconds):
        """Collect output for up to seconds; False once QEMU has ended."""
        end = time.time() + seconds
        while True:
            left = end - time.time()
            if left <= 0:
                return True
            r, _, _ = select.select([self.proc.stdout], [], [], min(left, 0.1))
            if r:
                b = os.read(self.proc.stdout.fileno(), 65536)
                if not b:
                    self.proc.wait()
                    return False
                self.raw += b

    def wait_for(self, regex, since, timeout):
        """Wait until regex matches the text after offset since; the match or None."""
        end = time.time() + timeout
        while True:
            m = regex.search(self.text(), since)
            if m:
                return m
            if time.time() >= end or not self.read_for(min(0.2, end - time.time())):
                m = regex.search(self.text(), since)
                return m

    def type(self, data):
        """Type bytes on the console, a few at a time as a person would."""
        for i in range(0, len(data), 8):
            try:
                self.proc.stdin.write(data[i:i + 8])
                self.proc.stdin.flush()
            except BrokenPipeError:
                return
            self.read_for(0.02)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


class Tap:
    def __init__(self, name):
        self.name, self.n, self.passed, self.failed = name, 0, 0, 0

    def point(self, ok, what, diag=()):
        self.n += 1
        print('%sok %d - %s: %s' % ('' if ok else 'not ', self.n, self.name, what))
        for d in diag:
            print('#   ' + d)
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        sys.stdout.flush()
        return ok


def qemu_argv(header):
    """Build the kernel and the session's targets, then return QEMU's argv
    (or the session's own command)."""
    if header['command']:
        return shlex.split(header['command'])
    vars_ = shlex.split(header['make'])
    make = ['make', '--no-print-directory', '-s'] + vars_
    build = subprocess.run(make + ['kernel'] + header['build'].split(), cwd=REPO,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if build.returncode:
        raise SessionError('make %s kernel %s failed:\n%s' % (
            header['make'], header['build'], build.stdout.decode(errors='replace')[-3000:]))
    cmd = subprocess.check_output(make + ['qemu-cmd'], cwd=REPO).decode().strip()
    return shlex.split(cmd)


def strip_echo(text, command):
    """text without the shell's echo of command at its start, if it is there:
    the echo may be broken into lines where the terminal wrapped it."""
    i = 0
    for ch in command:
        while i < len(text) and text[i] == '\n' and ch != '\n':
            i += 1
        if i == len(text) or text[i] != ch:
            return text
        i += 1
    while i < len(text) and text[i] == ' ':	# the rest of a wrapped line
        i += 1
    return text[i + 1:] if text[i:i + 1] == '\n' else text[i:]


def command_output(text, command):
    """The lines a command printed: text (after typing it, up to the prompt)
    without the shell's echo of the command line."""
    text = strip_echo(text, command)
    lines = text.split('\n')
    if lines and lines[-1] == '':
        lines = lines[:-1]
    return lines


def run_command(con, tap, prompt, cmd, timeout):
    """Type one command, await the prompt, check the output: a TAP point."""
    start = len(con.text())
    con.type(cmd.text.encode('latin-1') + b'\r')
    for verb, arg in cmd.actions:
        if verb == 'sleep':
            con.read_for(arg)
        else:
            con.type(arg)
    t0 = time.time()
    m = con.wait_for(prompt, start, timeout)
    took = time.time() - t0
    if not m:
        got = command_output(con.text()[start:], cmd.text)
        return tap.point(False, '$ %s' % cmd.text, ['no prompt within %ds; the output so far:' % timeout] +
                         ['  | ' + l for l in got[-20:]])
    got = command_output(con.text()[start:m.start()], cmd.text)
    ok = match_lines(cmd.expect, got)
    diag = [] if ok else (['expected (line %d):' % cmd.lineno] + ['  | ' + l for l in cmd.expect] +
                          ['got:'] + ['  | ' + l for l in got])
    return tap.point(ok, '$ %s (%.1fs)' % (cmd.text, took) if ok else '$ %s' % cmd.text, diag)


def session_targets(header):
    """(name, make variables) for each run a session asks for."""
    if not header['target']:
        return [(header['name'], header['make'])]
    runs = []
    for t in header['target']:
        name, sep, make = t.partition('|')
        if not sep:
            raise SessionError('target line without "|": %r' % t)
        runs.append(('%s-%s' % (header['name'], name.strip()), make.strip()))
    return runs


def run_session(header, commands, pending, log):
    """Run one target of a session; returns its Tap."""
    tap = Tap(header['name'])
    prompt = re.compile(header['prompt'])
    todo = [c for c in commands if c.ready or pending]
    for c in commands:
        if not (c.ready or pending):
            print('# pending (%s): $ %s' % (c.block, c.text))
    try:
        argv = qemu_argv(header)
    except (SessionError, subprocess.CalledProcessError) as e:
        tap.point(False, 'build: %s' % e)
        return tap
    con = Console(argv, header['ignore'])
    failed_before = 0
    try:
        booted = con.wait_for(prompt, 0, float(header['boot-timeout']))
        if tap.point(booted is not None, 'boot to the prompt',
                     [] if booted else ['no prompt within %s s' % header['boot-timeout']]):
            for c in todo:
                run_command(con, tap, prompt, c, float(header['timeout']))
            start = len(con.text())
            con.type(header['exit'].encode() + b'\r')
            m = con.wait_for(EXIT_MARK, start, float(header['timeout']))
            tap.point(m is not None and m.group(1) == '0', '$ %s: the boot ends with status 0' % header['exit'],
                      [] if m else ['no "kernel-exit: status=" line'])
        fatal = FATAL.search(con.raw.decode('latin-1'))
        tap.point(fatal is None, 'no panic or unexpected exception',
                  [fatal.group(0)] if fatal else [])
    finally:
        con.read_for(0.2)
        con.stop()
        if log:
            with open(log, 'wb') as f:
                f.write(con.raw)
    if tap.failed > failed_before:
        print('---- %s: console transcript ----' % tap.name)
        for l in con.raw.decode('latin-1').replace('\r', '').split('\n'):
            print('  | ' + l)
        print('----')
    return tap


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--pending', action='store_true', help='run the pending blocks too')
    ap.add_argument('--log', help='write the console transcript here (FILE.NAME for several runs)')
    ap.add_argument('--target', action='append', help='run only this NAME-TARGET (repeatable)')
    ap.add_argument('sessions', nargs='+')
    a = ap.parse_args()
    total_failed = 0
    pending = a.pending or os.environ.get('SESSION_PENDING') == '1'
    for s in a.sessions:
        try:
            header, commands = parse_session(s)
            runs = session_targets(header)
        except SessionError as e:
            print('not ok 1 - %s: %s' % (os.path.basename(s), e))
            print('run: %s: 0 passed, 1 failed' % os.path.basename(s))
            total_failed += 1
            continue
        for name, make in runs:
            if a.target and name not in a.target:
                continue
            log = a.log if len(runs) == 1 or not a.log else '%s.%s' % (a.log, name)
            tap = run_session(dict(header, name=name, make=make), commands, pending, log)
            print('run: %s: %d passed, %d failed' % (tap.name, tap.passed, tap.failed))
            sys.stdout.flush()
            total_failed += tap.failed
    sys.exit(1 if total_failed else 0)


if __name__ == '__main__':
    main()
