#!/usr/bin/env python3
"""fuzzcmp.py - compare two console logs of tests/fuzz/mmfuzz.c (same seed,
same options) and name the first divergence.

    fuzzcmp.py OURS.log LINUX.log [--context N] [--ignore FIELD,...] [--strict]

--ignore leaves digest fields out of the state comparison (e.g. hp, to look
past a known pool-count difference: tests/fuzz/README.md). --strict makes a
raw= difference (the same VMAs split into different pieces) a state
divergence instead of a note.

The fuzzer's lines are taken from each log (with or without /init's
"# mmfuzz: " prefix). Walking both in step:
  - a call line whose call and arguments match but whose result differs is a
    result divergence (an errno, a placement, a fault): every one is listed
    until the first state divergence;
  - a digest line ("@N maps=.. mem=.. heap=.. hp=..") whose maps, mem, heap,
    brk, huge-page pool (hp=Free/Rsvd) or memfds (files=, with the fuzzer's
    files=1) differ is a state divergence: the address space, its contents,
    the pool's use or the files differ;
    the comparison stops there, showing the VMA pieces of both sides if the
    log has them ("M ..." lines);
  - a digest that differs only in raw= (the same merged VMAs, split into
    different pieces) is reported as a note, and the walk goes on (with
    --strict it is a state divergence);
  - a call line with different arguments, or one log ending early, ends the
    walk (the streams are no longer comparable).
It also reports how each run ended: the fuzzer's "done" line, a kernel panic,
an unexpected signal, a child killed by a signal.

Exit status: 0 same, 1 divergence, 2 a run did not complete (panic, crash,
truncated log), 3 usage.
"""
import re
import sys

PREFIX = re.compile(r'^(?:# mmfuzz: )?(.*)$')
CALL = re.compile(r'^(c?\d{6}(?:\.\d+)?) (.*?)( = .*)?$')
DIGEST = re.compile(r'^(c?)@(\d+) (.*)$')


def load(path):
    """The fuzzer's lines of a log, and what it says about the run's end."""
    lines, events = [], []
    with open(path, 'rb') as f:
        for raw in f:
            s = raw.decode('utf-8', 'replace').rstrip('\r\n').replace('\r', '')
            if s.startswith('panic:') or 'BUG_ON' in s or s.startswith('Unexpected exception'):
                events.append('kernel: ' + s)
                continue
            if 'killed by signal' in s or 'unexpected signal' in s:
                events.append(s.replace('# mmfuzz: ', ''))
            m = PREFIX.match(s)
            body = m.group(1)
            if not s.startswith('# mmfuzz: ') and not re.match(r'^(c?\d{6}|c?@\d|c?M |mmfuzz:)', s):
                continue
            if body.startswith('mmfuzz: done'):
                events.append('done: ' + body)
            if re.match(r'^(c?\d{6}|c?@\d|c?M )', body):
                lines.append(body)
    return lines, events


def fields(digest):
    return dict(kv.split('=', 1) for kv in digest.split() if '=' in kv)


def dumps_before(lines, i):
    """The "M" lines of the last dump at or before line i."""
    out = []
    j = min(i, len(lines) - 1)
    while j >= 0 and not lines[j].lstrip('c').startswith('M '):
        j -= 1
    while j >= 0 and lines[j].lstrip('c').startswith('M '):
        out.append(lines[j])
        j -= 1
    return list(reversed(out))


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 3
    ctx = 6
    if '--context' in argv:
        ctx = int(argv[argv.index('--context') + 1])
    ignore = set()
    if '--ignore' in argv:
        ignore = set(argv[argv.index('--ignore') + 1].split(','))
    judged = ('maps', 'mem', 'heap', 'brk', 'hp', 'files') + (('raw',) if '--strict' in argv else ())
    a, ea = load(argv[1])
    b, eb = load(argv[2])
    print('ours:  %d lines; %s' % (len(a), '; '.join(ea[-3:]) or 'no end line'))
    print('linux: %d lines; %s' % (len(b), '; '.join(eb[-3:]) or 'no end line'))
    incomplete = not any(e.startswith('done') for e in ea) or not any(e.startswith('done') for e in eb)
    results, notes = [], []
    last_call = None
    state = None
    # The "M" lines of a dump list VMA pieces, whose number may differ while
    # the VMAs are the same (the digest after them says whether it matters):
    # they are left out of the walk, which pairs the other lines in order.
    ka = [k for k, s in enumerate(a) if not s.lstrip('c').startswith('M ')]
    kb = [k for k, s in enumerate(b) if not s.lstrip('c').startswith('M ')]
    n = min(len(ka), len(kb))
    for j in range(n):
        i = ka[j]	# the line in ours, for the context and the dumps shown
        x, y = a[i], b[kb[j]]
        mx = CALL.match(x)
        if mx:
            last_call = i
        if x == y:
            continue
        my = CALL.match(y)
        if mx and my and mx.group(1) == my.group(1) and mx.group(2) == my.group(2):
            results.append((mx.group(1), mx.group(2), (mx.group(3) or '').strip(), (my.group(3) or '').strip()))
            continue
        dx, dy = DIGEST.match(x), DIGEST.match(y)
        if dx and dy and dx.group(2) == dy.group(2):
            fx, fy = fields(dx.group(3)), fields(dy.group(3))
            bad = [k for k in judged if k not in ignore and fx.get(k) != fy.get(k)]
            if not bad:
                if fx.get('raw') != fy.get('raw'):
                    notes.append('%s@%s: same VMAs, split differently (vmas ours %s, linux %s)' %
                                 (dx.group(1), dx.group(2), fx.get('vmas'), fy.get('vmas')))
                continue
            state = (i, dx.group(1) + '@' + dx.group(2), bad, x, y, kb[j])
            break
        state = (i, 'line %d' % i, ['stream'], x, y, kb[j])
        break
    else:
        if len(ka) != len(kb):
            state = (ka[n] if n < len(ka) else len(a), 'end of the shorter log', ['length'],
                     a[ka[n]] if n < len(ka) else '(end)', b[kb[n]] if n < len(kb) else '(end)',
                     kb[n] if n < len(kb) else len(b))

    for call, args, rx, ry in results[:40]:
        print('result divergence: call %s %s: ours %s, linux %s' % (call, args, rx or '(none)', ry or '(none)'))
    if len(results) > 40:
        print('... and %d more result divergences' % (len(results) - 40))
    for note in notes[:5]:
        print('note: ' + note)
    if len(notes) > 5:
        print('note: ... %d more split differences' % (len(notes) - 5))
    if notes:
        print('notes: %d digests split differently' % len(notes))
    if state:
        i, where, what, x, y, ib = state
        print('state divergence at %s (%s):' % (where, ', '.join(what)))
        print('  ours:  ' + x)
        print('  linux: ' + y)
        start = max(0, i - ctx)
        print('  calls before it (ours):')
        for s in a[start:i]:
            print('    ' + s)
        da, db = dumps_before(a, i), dumps_before(b, ib)
        if da or db:
            print('  last VMA dump, ours | linux:')
            for k in range(max(len(da), len(db))):
                print('    %-40s | %s' % (da[k] if k < len(da) else '', db[k] if k < len(db) else ''))
    if not results and not state:
        print('same: %d lines compared (VMA dump lines aside)' % n)
    if incomplete:
        return 2
    return 1 if results or state else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
