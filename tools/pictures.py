#!/usr/bin/env python3
"""pictures.py - draw the kernel's page tables and a process's address space as SVG.

    pictures.py [--kernel LOG] [--user LOG] [--trace LOG]... [--out DIR] [--verify [--no-draw]]

Reads console logs (raw QEMU console output; carriage returns and terminal
escapes are ignored) and writes into DIR (default build/pictures):

  --kernel LOG  a boot with the `ptdump` bootarg: its kernel page-table dump
                (mm/ptdump.c: runs, section markers, the "ptdump: levels:"
                and "ptdump: linear map:" lines) gives
                  kernel-space.svg   the kernel address space, to scale
                  kernel-tree.svg    the tree of kernel page tables
  --user LOG    a transcript holding `cat /proc/PID/maps` and then
                `cat /proc/PID/pagetables` of the same process gives
                  user-space.svg     its VMAs and the holes between them
                  user-tree.svg      the tree of its page tables
  --trace LOG   a boot with `pte_trace=1` (mm/pte_update.c) in which a block
                is split gives split-N.svg: the steps of the writes around
                the first block -> table write, one lane per descriptor
  index.html    all of them, for a browser

Each drawing keeps the numbers it drew in data-* attributes. --verify then
reads the SVGs back and checks them against the logs, printing TAP: the
runs drawn tile the dumped range and their sizes add up to it; the tables,
blocks, contiguous runs and pages drawn in the trees are what the dump's
own summary line counts; every mapped user page lies in a VMA of maps;
each break-before-make in the timeline is break, TLBI, make. It exits 1
if any check fails. With --no-draw it checks the SVGs already in DIR
(tools/check-pictures.sh tampers with one to see the check fire).
"""
import argparse
import html
import math
import os
import re
import sys
import xml.etree.ElementTree as ET

ESCAPES = re.compile(r'\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78DEHMc]|[\x07\x0f\r]')
RUN = re.compile(r'^0x([0-9a-f]+)-0x([0-9a-f]+)\s+(\d+[KMGTPE])\s+([A-Z?]+)(.*)$')
MARKER = re.compile(r'^---\[ (.*) \]---$')
LEVELS = re.compile(r'^ptdump: levels: (.*)$')
KSUMMARY = re.compile(r'^ptdump: linear map: (.*)$')
USUMMARY = re.compile(r'^pagetables: (.*)$')
MAPS = re.compile(r'^([0-9a-f]+)-([0-9a-f]+) ([r-][w-][x-][ps]) ([0-9a-f]+) (\S+) (\d+)\s*(.*)$')
TRACE = re.compile(r'^pte_trace: #(\d+) (\S+) va=0x([0-9a-f]+) level=(\d+) n=(\d+) (\w+) (.*)$')
TRACE_CHANGE = re.compile(r'^old=0x([0-9a-f]+)\(([\w+]+)\) new=0x([0-9a-f]+)\(([\w+]+)\)$')
UNITS = 'KMGTPE'

# Colours for the kinds of entry (and the legend that names them).
KINDS = [
    ('table', '#4a78c2', 'table (points to the next level)'),
    ('block', '#7fb069', 'block'),
    ('block+cont', '#2f6b2f', 'block in a contiguous run'),
    ('page', '#f4a259', 'page'),
    ('page+cont', '#c0561b', 'page in a contiguous run'),
    ('invalid', '#e8e8e8', 'invalid (a hole)'),
    ('unshown', '#ffffff', 'not in this dump (the other half)'),
]
COLOUR = {k: c for k, c, _ in KINDS}


# ---- sizes ----

def parse_size(s):
    """'1792K' -> bytes."""
    return int(s[:-1]) << (10 * (UNITS.index(s[-1]) + 1))


def size_str(n):
    """Bytes -> the largest unit dividing it exactly, as ptdump prints sizes."""
    u = 0
    n >>= 10
    while n and n % 1024 == 0 and u + 1 < len(UNITS):
        n >>= 10
        u += 1
    return '%d%s' % (n, UNITS[u])


def human(n):
    """Bytes -> a short approximate size for labels (e.g. 1.7M)."""
    for i in range(len(UNITS), 0, -1):
        unit = 1 << (10 * i)
        if n >= unit:
            v = n / unit
            return ('%d%s' % (v, UNITS[i - 1])) if v == int(v) else ('%.1f%s' % (v, UNITS[i - 1]))
    return '%dB' % n


# ---- reading the logs ----

def console_lines(path):
    with open(path, 'rb') as f:
        text = f.read().decode('utf-8', 'replace')
    return [ESCAPES.sub('', l) for l in text.split('\n')]


class Geometry:
    """The levels line: per level its name, entry size, entries, leaf and cont."""

    def __init__(self, text):
        self.levels = []
        for part in text.split(','):
            w = part.split()
            lv = {'name': w[0], 'size': parse_size(w[1]), 'entries': int(w[2][1:]),
                  'leaf': 'leaf' in w, 'cont': 1}
            if 'cont' in w:
                lv['cont'] = int(w[w.index('cont') + 1])
            self.levels.append(lv)
        self.by_name = {lv['name']: i for i, lv in enumerate(self.levels)}
        self.last = len(self.levels) - 1
        self.page = self.levels[-1]['size']
        self.coverage = self.levels[0]['size'] * self.levels[0]['entries']

    def size(self, level):
        return self.levels[level]['size']


class Dump:
    """One ptdump (kernel) or /proc/PID/pagetables (user) dump."""

    def __init__(self, runs, markers, geo, summary, user):
        self.runs, self.markers, self.geo, self.summary, self.user = runs, markers, geo, summary, user
        self.start = runs[0]['start']
        self.end = runs[-1]['end']
        self.root_base = self.start - self.start % geo.coverage


def kind_of(run, geo):
    if not run['valid']:
        return 'invalid'
    base = 'page' if run['level'] == geo.last else 'block'
    return base + '+cont' if 'CON' in run['attrs'] else base


def parse_dumps(lines):
    """Every complete dump in lines (runs, markers, the levels line, then the
    summary, with no other line between): a list of Dump, in order."""
    dumps, runs, markers, geo = [], [], [], None
    for l in lines:
        l = l.rstrip()
        m = RUN.match(l)
        if m:
            start, end = int(m.group(1), 16), int(m.group(2), 16)
            if end == 0:  # the run ends at the top of the address space
                end = 1 << (32 if start < (1 << 32) else 64)
            attrs = m.group(5).split()
            runs.append({'start': start, 'end': end, 'size': parse_size(m.group(3)),
                         'lname': m.group(4), 'attrs': attrs, 'valid': bool(attrs)})
            continue
        m = MARKER.match(l)
        if m:
            name = m.group(1)
            markers.append((name.rsplit(' ', 1)[0], len(runs), name.endswith(' start')))
            continue
        m = LEVELS.match(l)
        if m and runs:
            geo = Geometry(m.group(1))
            continue
        m = KSUMMARY.match(l) or USUMMARY.match(l)
        if m and runs and geo:
            for r in runs:
                r['level'] = geo.by_name[r['lname']]
                r['kind'] = kind_of(r, geo)
            dumps.append(Dump(runs, markers, geo, m.group(1), l.startswith('pagetables:')))
        runs, markers, geo = [], [], None
    return dumps


def sections(d):
    """[(name, start, end)] of the dump's marked sections."""
    out, open_at = [], {}
    for name, idx, opening in d.markers:
        va = d.runs[idx]['start'] if idx < len(d.runs) else d.end
        if opening:
            open_at[name] = va
        elif name in open_at:
            out.append((name, open_at.pop(name), va))
    return out


def parse_maps(lines):
    """The first block of /proc/PID/maps lines."""
    vmas = []
    for l in lines:
        m = MAPS.match(l.rstrip())
        if m:
            vmas.append({'start': int(m.group(1), 16), 'end': int(m.group(2), 16),
                         'perms': m.group(3), 'name': m.group(7).strip()})
        elif vmas:
            break
    return vmas


def parse_trace(lines):
    """pte_trace steps: dicts with the line number, seq, space, va, level, n, step, ..."""
    steps = []
    for i, l in enumerate(lines):
        m = TRACE.match(l.rstrip())
        if not m:
            continue
        s = {'line': i, 'seq': int(m.group(1)), 'space': m.group(2), 'va': int(m.group(3), 16),
             'level': int(m.group(4)), 'n': int(m.group(5)), 'step': m.group(6), 'detail': m.group(7)}
        c = TRACE_CHANGE.match(m.group(7))
        if c:
            s.update(old=int(c.group(1), 16), oldk=c.group(2), new=int(c.group(3), 16), newk=c.group(4))
        steps.append(s)
    return steps


def split_bursts(steps):
    """Bursts of trace steps on consecutive console lines; the ones with a block -> table write."""
    bursts, cur = [], []
    for s in steps:
        if cur and s['line'] != cur[-1]['line'] + 1:
            bursts.append(cur)
            cur = []
        cur.append(s)
    if cur:
        bursts.append(cur)
    return [b for b in bursts if split_writes(b)]


def split_writes(burst):
    """The seqs of the burst's writes that turn a block into a table: the
    first step's old value (break or inplace) and the last one's new value
    (make or inplace) say what a write did."""
    first, last = {}, {}
    for s in burst:
        if 'oldk' in s:
            first.setdefault(s['seq'], s['oldk'])
            last[s['seq']] = s['newk']
    return [q for q in first if first[q].startswith('block') and last[q] == 'table']


# ---- the tree of tables, rebuilt from the runs ----

def build_tables(d):
    """{(level, base): [groups]} where a group is [first, count, kind] of entries."""
    geo, tables = d.geo, {}
    tables[(0, d.root_base)] = None
    for r in d.runs:
        for k in range(1, r['level'] + 1):
            span = geo.size(k - 1)
            b = r['start'] - r['start'] % span
            while b < r['end']:
                tables[(k, b)] = None
                b += span
    for key in tables:
        level, base = key
        size, n = geo.size(level), geo.levels[level]['entries']
        top = base + size * n
        groups = []

        def add(first, count, kind):
            if groups and groups[-1][2] == kind and kind != 'table' and groups[-1][0] + groups[-1][1] == first:
                groups[-1][1] += count
            else:
                groups.append([first, count, kind])
        nxt = 0
        for r in d.runs:
            if r['end'] <= base or r['start'] >= top:
                continue
            s, e = max(r['start'], base), min(r['end'], top)
            first, last = (s - base) // size, (e - 1 - base) // size
            if first > nxt:
                add(nxt, first - nxt, 'unshown')
            if r['level'] == level:
                add(first, last - first + 1, r['kind'])
                nxt = last + 1
            else:
                for i in range(max(first, nxt), last + 1):
                    add(i, 1, 'table')
                nxt = max(nxt, last + 1)
        if nxt < n:
            add(nxt, n - nxt, 'unshown')
        tables[key] = groups
    return tables


def count_range(d, tables, lo, hi):
    """What ptdump's counter counts for [lo, hi): tables, leaves and cont runs per level."""
    geo = d.geo
    c = {'tables': 0, 'leaves': [0] * len(geo.levels), 'cont': [0] * len(geo.levels)}
    for (level, base), groups in tables.items():
        size = geo.size(level)
        if level > 0 and base < hi and base + geo.size(level - 1) > lo:
            c['tables'] += 1
        for first, count, kind in groups:
            s = max(base + first * size, lo)
            e = min(base + (first + count) * size, hi)
            if s >= e or kind in ('invalid', 'unshown', 'table'):
                continue
            s -= (s - base) % size
            n = (e - s + size - 1) // size
            if kind.endswith('+cont'):
                run = size * geo.levels[level]['cont']
                c['cont'][level] += (e - 1) // run - (s + run - 1) // run + 1
            else:
                c['leaves'][level] += n
    return c


def kernel_summary(d, c):
    """The "linear map:" summary text mm/ptdump.c would print for counts c."""
    geo, parts = d.geo, []
    for l in range(geo.last):
        if geo.levels[l]['leaf']:
            parts.append('%s blocks: %d' % (size_str(geo.size(l)), c['leaves'][l]))
    for l in range(len(geo.levels)):
        if geo.levels[l]['cont'] > 1:
            parts.append('%s cont runs: %d' % (size_str(geo.size(l) * geo.levels[l]['cont']), c['cont'][l]))
    parts.append('%s pages: %d' % (size_str(geo.page), c['leaves'][geo.last]))
    return '%d page-table pages; %s' % (c['tables'], ', '.join(parts))


def user_summary(d, c):
    """The "pagetables:" summary text for counts c."""
    s = '%d table pages below the root;' % c['tables']
    for l in range(len(d.geo.levels)):
        if c['leaves'][l] or c['cont'][l]:
            s += ' %s leaves: %d' % (size_str(d.geo.size(l)), c['leaves'][l])
    return s


# ---- SVG ----

class Svg:
    def __init__(self, width, height, title):
        self.w, self.h, self.items = width, height, []
        self.title = title

    def add(self, s):
        self.items.append(s)

    def rect(self, x, y, w, h, fill, stroke='#444', extra=''):
        self.add('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s" stroke="%s" '
                 'stroke-width="0.5"%s/>' % (x, y, w, h, fill, stroke, extra))

    def text(self, x, y, s, size=11, anchor='start', weight='normal', fill='#111'):
        self.add('<text x="%.1f" y="%.1f" font-size="%d" text-anchor="%s" font-weight="%s" fill="%s">%s</text>'
                 % (x, y, size, anchor, weight, fill, html.escape(s)))

    def line(self, x1, y1, x2, y2, stroke='#888', width=0.8, dash=''):
        d = ' stroke-dasharray="%s"' % dash if dash else ''
        self.add('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%.1f"%s/>'
                 % (x1, y1, x2, y2, stroke, width, d))

    def write(self, path):
        with open(path, 'w') as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
            f.write('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
                    'font-family="DejaVu Sans Mono, monospace">\n' % (self.w, self.h, self.w, self.h))
            f.write('<title>%s</title>\n' % html.escape(self.title))
            f.write('<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>\n' % (self.w, self.h))
            for s in self.items:
                f.write(s + '\n')
            f.write('</svg>\n')


def legend(svg, x, y, kinds):
    for k in kinds:
        desc = next(d for n, _, d in KINDS if n == k)
        svg.rect(x, y - 9, 12, 10, COLOUR[k])
        svg.text(x + 16, y, desc, 10)
        y += 14
    return y


def log_height(size, page):
    """The log scale of the address-space pictures: 12 px, plus 3 px per doubling above a page."""
    return 12 + 3 * max(0.0, math.log2(size / page))


SP_TOP, SP_LX, SP_LW, SP_RX, SP_RW = 110, 30, 50, 330, 70


def linear_bar(svg, regions, groups, lo, hi, height):
    """The whole range on a linear scale: mapped regions and groups, each at least 1 px.
    Returns each group's (top, bottom) on the bar."""
    total = hi - lo
    svg.text(SP_LX, SP_TOP - 22, 'linear scale', 10)
    svg.rect(SP_LX, SP_TOP, SP_LW, height, COLOUR['invalid'])
    for r in regions:
        if r['kind'] not in ('invalid', 'unshown'):
            svg.rect(SP_LX + SP_LW * 0.5, SP_TOP + (r['start'] - lo) / total * height, SP_LW * 0.5,
                     max(1.0, (r['end'] - r['start']) / total * height), COLOUR[r['kind']], stroke='none')
    spans = []
    for name, s, e in groups:
        y0 = SP_TOP + (s - lo) / total * height
        h = max(1.0, (e - s) / total * height)
        svg.rect(SP_LX, y0, SP_LW * 0.5, h, '#9ab7e0', extra=' data-group="%s"' % html.escape(name))
        spans.append((y0, y0 + h))
    return spans


def log_bar(svg, regions, heights, lo, hi):
    """Every region on the log scale (data-* for --verify), with its permission strip and
    label. Returns each region's (top, bottom)."""
    svg.text(SP_RX, SP_TOP - 22, 'log scale', 10)
    svg.text(SP_RX, SP_TOP - 8, '0x%x' % lo, 9)
    y, ys = SP_TOP, []
    for r, h in zip(regions, heights):
        svg.rect(SP_RX, y, SP_RW, h, COLOUR[r['kind']],
                 extra=' class="region" data-start="0x%x" data-end="0x%x" data-bytes="%d" data-kind="%s"'
                 % (r['start'], r['end'], r['end'] - r['start'], r['kind']))
        if r.get('perm'):
            svg.rect(SP_RX + SP_RW, y, 8, h, r['perm'][1], stroke='#444')
        for i, t in enumerate(r['label'][:max(1, int(h // 11))]):
            svg.text(SP_RX + SP_RW + 14, y + 10 + 11 * i, t, 9)
        ys.append((y, y + h))
        y += h
    svg.text(SP_RX, y + 14, '0x%x' % hi, 9)
    return ys


def space_picture(path, title, note, regions, lo, hi, page, groups):
    """regions: dicts start, end, kind, label (list of strings), perm; groups: [(name, start,
    end)], drawn on the linear-scale bar and as brackets beside the log-scale bar."""
    heights = [log_height(r['end'] - r['start'], page) for r in regions]
    lin_h = max(sum(heights), 400)
    svg = Svg(1200, int(SP_TOP + lin_h + 60), title)
    svg.text(20, 24, title, 16, weight='bold')
    for i, t in enumerate(note):
        svg.text(20, 44 + 14 * i, t, 11)
    spans = linear_bar(svg, regions, groups, lo, hi, lin_h)
    ys = log_bar(svg, regions, heights, lo, hi)
    for (name, s, e), (a0, a1) in zip(groups, spans):
        idx = [i for i, r in enumerate(regions) if r['start'] >= s and r['end'] <= e]
        if not idx:
            continue
        y0, y1 = ys[idx[0]][0], ys[idx[-1]][1]
        bx = SP_RX - 24
        svg.add('<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="#9ab7e0" fill-opacity="0.35" '
                'stroke="none"/>' % (SP_LX + SP_LW, a0, bx, y0, bx, y1, SP_LX + SP_LW, a1))
        svg.rect(bx, y0, 10, y1 - y0, '#9ab7e0')
        svg.text(bx - 4, (y0 + y1) / 2 + 4, name, 10, 'end', weight='bold')
    order = [n for n, _, _ in KINDS]
    y = legend(svg, 900, SP_TOP + 10, sorted({r['kind'] for r in regions}, key=order.index))
    for name, col in dict.fromkeys(r['perm'] for r in regions if r.get('perm')):
        svg.rect(900, y - 9, 12, 10, col)
        svg.text(916, y, name, 10)
        y += 14
    svg.write(path)


PERM_COLOURS = {'x': ('executable', '#d1495b'), 'RW': ('writable', '#2e86ab'), 'ro': ('read-only', '#a5d8ff')}


def perm_of(attrs, user):
    """The picture's permission strip for a valid run's ptdump attributes."""
    if (user and 'UXN' not in attrs) or (not user and 'x' in attrs):
        return PERM_COLOURS['x']
    return PERM_COLOURS['RW'] if 'RW' in attrs else PERM_COLOURS['ro']


def kernel_space(d, path, src):
    regions = []
    for r in d.runs:
        label = ['0x%016x %6s %s %s' % (r['start'], size_str(r['end'] - r['start']), r['lname'],
                                         ('(' + r['kind'] + ')') if r['valid'] else 'unmapped'),
                 ' '.join(r['attrs'])]
        regions.append({'start': r['start'], 'end': r['end'], 'kind': r['kind'], 'label': label,
                        'perm': perm_of(r['attrs'], False) if r['valid'] else None})
    note = ['From %s (the `ptdump` bootarg). One box per run of ptdump lines, in address order.' % src,
            'Left: linear scale (the sections to scale, each at least 1 px). Right: log scale, box height = '
            '12 px + 3 px per doubling of size above one page.',
            'Levels: ' + ', '.join('%s %s' % (lv['name'], size_str(lv['size'])) for lv in d.geo.levels) +
            '.  Summary: linear map: ' + d.summary]
    space_picture(path, 'Kernel address space: 0x%x-0x%x (%s)' % (d.start, d.end, human(d.end - d.start)),
                  note, regions, d.start, d.end, d.geo.page, sections(d))


def user_space(vmas, d, path, src):
    """The VMAs of maps and the holes between them, over [0, the dump's end)."""
    top_va = d.end if d else vmas[-1]['end']
    regions, at = [], 0
    leaves = [(r['start'], r['end']) for r in d.runs if r['valid']] if d else []
    for v in vmas + [{'start': top_va, 'end': top_va, 'perms': None}]:
        if v['start'] > at:
            regions.append({'start': at, 'end': v['start'], 'kind': 'invalid',
                            'label': ['0x%012x %s hole' % (at, human(v['start'] - at))]})
        if v['perms'] is None:
            break
        mapped = sum(max(0, min(e, v['end']) - max(s, v['start'])) for s, e in leaves)
        size = v['end'] - v['start']
        kind = 'page' if mapped else 'invalid'
        label = ['0x%012x %s %s %s' % (v['start'], human(size), v['perms'], v['name'] or '(anonymous)')]
        if d:
            label.append('%d of %d pages mapped' % (mapped // d.geo.page, size // d.geo.page))
        perm = PERM_COLOURS['x'] if 'x' in v['perms'] else PERM_COLOURS['RW' if 'w' in v['perms'] else 'ro']
        regions.append({'start': v['start'], 'end': v['end'], 'kind': kind, 'label': label, 'perm': perm})
        at = v['end']
    note = ['From %s: /proc/PID/maps of one process, and its /proc/PID/pagetables for the pages mapped.' % src,
            'Left: linear scale (each VMA at least 1 px). Right: log scale, box height = 12 px + 3 px per doubling '
            'of size above one page.',
            'A VMA is drawn as a page when some of it is mapped, as a hole colour when none is; the strip beside '
            'it is its permission.']
    groups = []   # named VMAs, consecutive ones of one name together
    for v in vmas:
        if groups and v['name'] and groups[-1][0] == v['name'] and groups[-1][2] == v['start']:
            groups[-1] = (v['name'], groups[-1][1], v['end'])
        elif v['name']:
            groups.append((v['name'], v['start'], v['end']))
    space_picture(path, 'User address space: %d VMAs in 0x0-0x%x (%s)' % (len(vmas), top_va, human(top_va)),
                  note, regions, 0, top_va, d.geo.page if d else 4096, groups)


TREE_KINDS = ['table', 'block', 'block+cont', 'page', 'page+cont', 'invalid', 'unshown']
TREE_WIDE = 6      # up to this many tables in a level: wide boxes with their counts
TREE_PER_LINE = 24  # more: narrow boxes, this many to a line


def tree_layout(tables, geo, top):
    """Where each table's box goes: {key: (x, y, width, wide)}, and the picture's size."""
    pos, y, width = {}, top, 900
    for level in range(len(geo.levels)):
        row = sorted(b for (l, b) in tables if l == level)
        wide = len(row) <= TREE_WIDE
        bw, gap, per = (380, 40, TREE_WIDE) if wide else (95, 10, TREE_PER_LINE)
        for j, base in enumerate(row):
            pos[(level, base)] = (30 + (j % per) * (bw + gap), y + 30 + (j // per) * (70 if wide else 44), bw, wide)
        lines = (len(row) + per - 1) // per
        y += 30 + lines * (70 if wide else 44) + 30
        width = max(width, 60 + min(len(row), per) * (bw + gap))
    return pos, width, y + 20


def draw_table(svg, geo, key, groups, pos):
    """One table page: its strip of entries (data-* for --verify), contiguous-run ticks,
    a triangle and a line from each table entry to its child; returns its kind counts."""
    level, base = key
    x, y, bw, wide = pos[key]
    lv = geo.levels[level]
    ew = bw / lv['entries']
    if wide:
        svg.text(x, y - 18, '%s table @ 0x%x' % (lv['name'], base), 10, weight='bold')
    else:
        svg.text(x, y - 4, '0x%x' % base, 8)
    counts = {}
    for first, count, kind in groups:
        svg.rect(x + first * ew, y, count * ew, 20, COLOUR[kind], stroke='none',
                 extra=' class="entries" data-level="%d" data-va="0x%x" data-first="%d" data-count="%d" '
                 'data-kind="%s"' % (level, base + first * lv['size'], first, count, kind))
        counts[kind] = counts.get(kind, 0) + count
        if kind.endswith('+cont') and wide:
            for i in range(first - first % lv['cont'], first + count + 1, lv['cont']):
                if first <= i <= first + count:
                    svg.line(x + i * ew, y, x + i * ew, y + 20, '#000', 0.6)
        if kind == 'table' and level + 1 < len(geo.levels):
            for i in range(first, first + count):
                tx = x + (i + 0.5) * ew
                svg.add('<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="%s"/>'
                        % (tx - 4, y + 20, tx + 4, y + 20, tx, y + 27, COLOUR['table']))
                child = pos.get((level + 1, base + i * lv['size']))
                if child and child[3]:   # narrow boxes go in address order, unlinked
                    svg.line(tx, y + 20, child[0] + child[2] / 2, child[1] - 28, '#4a78c2', 1.0)
    svg.rect(x, y, bw, 20, 'none', stroke='#222')
    if wide:
        svg.text(x, y - 6, '%d entries of %s: %s' % (lv['entries'], size_str(lv['size']), ', '.join(
            '%s %d' % (k, counts[k]) for k in TREE_KINDS if counts.get(k))), 9)
    return counts


def tree_picture(d, path, title, src):
    """Every table as a strip of its entries, the levels top down, each linked to its parent entry."""
    geo, tables = d.geo, build_tables(d)
    top = 120
    pos, width, height = tree_layout(tables, geo, top)
    svg = Svg(width, height, title)
    svg.text(20, 24, title, 16, weight='bold')
    svg.text(20, 44, 'From %s. Each box is one table page: a strip of its %s entries, coloured by what each '
             'entry is; a line joins a table entry to the table it points to.' %
             (src, '/'.join(str(lv['entries']) for lv in geo.levels)), 11)
    svg.text(20, 58, 'Dark ticks mark contiguous runs. Summary line of the dump: ' + d.summary, 11)
    for i, k in enumerate(TREE_KINDS):
        svg.rect(20 + 160 * (i % 4), 70 + 16 * (i // 4), 12, 10, COLOUR[k])
        svg.text(36 + 160 * (i % 4), 79 + 16 * (i // 4), k, 10)
    totals = {}
    for key, groups in sorted(tables.items()):
        for k, c in draw_table(svg, geo, key, groups, pos).items():
            totals.setdefault(key[0], {}).setdefault(k, 0)
            totals[key[0]][k] += c
    for level, row_counts in totals.items():
        n = sum(1 for l, _ in tables if l == level)
        if n > TREE_WIDE:   # narrow boxes carry no counts or links: one line for the level
            y = min(p[1] for k, p in pos.items() if k[0] == level)
            svg.text(30, y - 16, '%s: %d tables of %d entries of %s, in address order; %s' % (
                geo.levels[level]['name'], n, geo.levels[level]['entries'], size_str(geo.size(level)),
                ', '.join('%s %d' % (k, row_counts[k]) for k in TREE_KINDS if row_counts.get(k))), 10, weight='bold')
    svg.write(path)


def describe_write(oldk, newk, n):
    """What one write did, in words, from the kinds before and after."""
    if oldk.startswith('block') and newk == 'table':
        return 'split: block -> table'
    if oldk.endswith('+cont') and newk == oldk[:-5]:
        return 'unfold: CONT cleared x%d' % n
    if newk.endswith('+cont') and oldk == newk[:-5]:
        return 'fold: CONT set x%d' % n
    if oldk == newk:
        return 'same %s, new attributes' % newk
    if oldk == 'table' and newk.startswith('block'):
        return 'merge: table -> block'
    return '%s -> %s' % (oldk, newk)


STEP_COLOURS = [('break', '#d1495b', 'write invalid'),
                ('tlbi', '#f2c14e', 'invalidate the TLBs (dsb before and after)'),
                ('make', '#5aa469', 'write the new value'),
                ('inplace', '#4a78c2', 'a write that needs no break')]
TL_COLW, TL_LANEH, TL_LEFT, TL_TOP = 118, 70, 300, 160


def lane_of(s):
    return (s['space'], s['va'], s['level'], s['n'])


def timeline_header(svg, burst, lines, src):
    """Title, where the trace came from, and the console lines either side of the burst."""
    boot = next((l.strip() for l in lines if l.startswith('bootargs:')), '')
    svg.text(20, 24, 'One block split, step by step (pte_trace)', 16, weight='bold')
    svg.text(20, 44, 'From %s, %s.' % (src, boot), 11)
    svg.text(20, 58, 'Each column is one pte_trace line: a step of a write through the choke point '
             '(pte_update). The kernel prints the lines once each write is complete:', 11)
    svg.text(20, 72, 'a break-before-make cannot print inside its invalid window. Lanes: the descriptors '
             'written (va, level, entries), their value before, between and after the steps.', 11)
    before = next((lines[i].strip() for i in range(burst[0]['line'] - 1, -1, -1) if lines[i].strip()), '')
    after = next((lines[i].strip() for i in range(burst[-1]['line'] + 1, len(lines)) if lines[i].strip()), '')
    svg.text(20, 92, 'console before: ' + before[:150], 10, fill='#555')
    svg.text(20, 106, 'console after:  ' + after[:150], 10, fill='#555')


def timeline_legend(svg, y):
    for j, (name, col, desc) in enumerate(STEP_COLOURS):
        svg.rect(20 + 280 * (j % 2), y + 18 * (j // 2), 12, 10, col)
        svg.text(36 + 280 * (j % 2), y + 9 + 18 * (j // 2), '%s: %s' % (name, desc), 10)
    svg.text(20, y + 52, 'A thin bar in a lane is that descriptor\'s kind after its own steps, while others '
             'are written (colours as in the tree pictures).', 10)
    svg.text(20, y + 66, '"before" is a lane\'s value when the burst first writes it: for an entry of a table '
             'linked earlier in the burst, what the table was filled with before it was linked.', 10)


def timeline_step(svg, x, y, s, prev, now):
    """One step's box (data-* for --verify): its name and the change or the TLBI kind."""
    col = dict((n, c) for n, c, _ in STEP_COLOURS).get(s['step'], '#ccc')
    svg.rect(x, y + 4, TL_COLW - 12, 42, col,
             extra=' class="step" data-seq="%d" data-step="%s"' % (s['seq'], s['step']))
    svg.text(x + 4, y + 17, s['step'], 11, weight='bold', fill='#fff' if s['step'] != 'tlbi' else '#111')
    if 'newk' in s:
        svg.text(x + 4, y + 30, '%s ->' % prev, 9, fill='#fff')
        svg.text(x + 4, y + 41, now, 9, fill='#fff')
    else:
        svg.text(x + 4, y + 30, s['detail'], 9)


def timeline_picture(burst, lines, path, src):
    """One lane per descriptor written, one column per step of the burst."""
    lanes = list(dict.fromkeys(lane_of(s) for s in burst))
    first_old, last_new = {}, {}
    for s in burst:
        if 'oldk' in s:
            first_old.setdefault(lane_of(s), s['oldk'])
            first_old.setdefault(s['seq'], s['oldk'])
            last_new[s['seq']] = s['newk']
    svg = Svg(TL_LEFT + TL_COLW * len(burst) + 60, TL_TOP + TL_LANEH * len(lanes) + 110, 'block split')
    timeline_header(svg, burst, lines, src)
    for i, (space, va, level, n) in enumerate(lanes):
        y = TL_TOP + i * TL_LANEH
        svg.text(20, y + 14, '%s 0x%x' % (space, va), 10, weight='bold')
        svg.text(20, y + 28, 'level %d, %d entr%s' % (level, n, 'y' if n == 1 else 'ies'), 10)
        svg.text(20, y + 42, 'before: %s' % first_old.get((space, va, level, n), '?'), 10, fill='#555')
        svg.line(TL_LEFT - 10, y + 25, TL_LEFT + TL_COLW * len(burst), y + 25, '#bbb', 0.6, '2,3')
    state, seqs = {}, set()
    for j, s in enumerate(burst):
        x, key = TL_LEFT + j * TL_COLW, lane_of(s)
        if s['seq'] not in seqs:    # a write's first step: a divider and what the write did
            seqs.add(s['seq'])
            svg.line(x - 4, TL_TOP - 20, x - 4, TL_TOP + TL_LANEH * len(lanes), '#999', 0.6)
            svg.text(x, TL_TOP - 22, 'write #%d' % s['seq'], 10, weight='bold')
            svg.text(x, TL_TOP - 8, describe_write(first_old[s['seq']], last_new[s['seq']], s['n']), 9)
        prev = state.get(key, first_old.get(key, '?'))
        if s['step'] == 'break':
            state[key] = 'invalid'
        elif s['step'] in ('make', 'inplace'):
            state[key] = s['newk']
        timeline_step(svg, x, TL_TOP + lanes.index(key) * TL_LANEH, s, prev, state.get(key, prev))
        for k2 in lanes:
            if k2 != key and k2 in state:
                svg.rect(x, TL_TOP + lanes.index(k2) * TL_LANEH + 20, TL_COLW - 12, 10,
                         COLOUR.get(state[k2], '#ccc'), stroke='none')
    timeline_legend(svg, TL_TOP + TL_LANEH * len(lanes) + 20)
    svg.write(path)


def write_index(out, pictures):
    with open(os.path.join(out, 'index.html'), 'w') as f:
        f.write('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Address-space pictures</title>'
                '<style>body{font-family:sans-serif;margin:2em} img{border:1px solid #ccc;max-width:100%}'
                '</style></head><body>\n<h1>Address-space pictures</h1>\n'
                '<p>Drawn by tools/pictures.py from console logs; <code>make pictures</code> regenerates them.</p>\n')
        for name, caption in pictures:
            f.write('<h2>%s</h2>\n<p><a href="%s"><img src="%s" alt="%s"></a></p>\n'
                    % (html.escape(caption), name, name, html.escape(caption)))
        f.write('</body></html>\n')


# ---- verification: read the SVGs back ----

NS = '{http://www.w3.org/2000/svg}'


def svg_elems(path, cls):
    return [e for e in ET.parse(path).iter(NS + 'rect') if e.get('class') == cls]


class Tap:
    def __init__(self):
        self.n = self.failed = 0

    def ok(self, cond, what):
        self.n += 1
        if not cond:
            self.failed += 1
        print('%s %d - %s' % ('ok' if cond else 'not ok', self.n, what))


def verify_space(tap, path, d_lo, d_hi, what):
    rs = svg_elems(path, 'region')
    at, tiles = d_lo, True
    for e in rs:
        tiles &= int(e.get('data-start'), 16) == at
        at = int(e.get('data-end'), 16)
    total = sum(int(e.get('data-bytes')) for e in rs)
    tap.ok(rs and tiles and at == d_hi, '%s: the %d regions drawn tile 0x%x-0x%x' % (what, len(rs), d_lo, d_hi))
    tap.ok(total == d_hi - d_lo, '%s: their sizes add up to %s (0x%x bytes; drawn: 0x%x)'
           % (what, human(d_hi - d_lo), d_hi - d_lo, total))


def tables_from_svg(path):
    tables = {}
    for e in svg_elems(path, 'entries'):
        level, first = int(e.get('data-level')), int(e.get('data-first'))
        tables.setdefault(level, []).append((int(e.get('data-va'), 16), first, int(e.get('data-count')), e.get('data-kind')))
    return tables


def verify_tree(tap, d, path, what):
    """Count the drawn entries as ptdump counts the dump, and compare with its summary line."""
    geo, drawn = d.geo, {}
    for level, ents in tables_from_svg(path).items():
        size = geo.size(level)
        for va, first, count, kind in ents:
            base = va - first * size
            drawn.setdefault((level, base), []).append([first, count, kind])
    if d.user:
        c = count_range(d, drawn, 0, d.end)
        want, got = d.summary, user_summary(d, c)
    else:
        lm = [s for s in sections(d) if s[0] == 'Linear Mapping']
        lo, hi = (lm[0][1], lm[0][2]) if lm else (d.start, d.end)
        c = count_range(d, drawn, lo, hi)
        want, got = d.summary, kernel_summary(d, c)
    tap.ok(got == want, '%s: the entries drawn count as the dump says: %s%s'
           % (what, want, '' if got == want else ' (drawn: %s)' % got))


def verify_runs(tap, d, what):
    ok = all(r['end'] - r['start'] == r['size'] for r in d.runs)
    ok &= all(a['end'] == b['start'] for a, b in zip(d.runs, d.runs[1:]))
    tap.ok(ok, '%s: %d dump lines follow on from each other and their sizes match their ranges' % (what, len(d.runs)))


def verify_user(tap, vmas, d):
    ordered = all(v['start'] < v['end'] for v in vmas) and all(a['end'] <= b['start'] for a, b in zip(vmas, vmas[1:]))
    tap.ok(vmas and ordered, 'maps: %d VMAs, sorted and disjoint' % len(vmas))
    if d:
        # A run may span VMAs that follow on (the same attributes merge in
        # the dump): every byte of it must be in some VMA.
        outside = [r for r in d.runs if r['valid'] and
                   sum(max(0, min(v['end'], r['end']) - max(v['start'], r['start'])) for v in vmas)
                   != r['end'] - r['start']]
        tap.ok(not outside, 'every mapped user page lies in a VMA of maps%s'
               % ('' if not outside else ' (not: 0x%x-0x%x)' % (outside[0]['start'], outside[0]['end'])))


def verify_timeline(tap, path, burst):
    steps = [(int(e.get('data-seq')), e.get('data-step')) for e in svg_elems(path, 'step')]
    tap.ok(steps == [(s['seq'], s['step']) for s in burst], '%s: one box per trace step (%d)' % (os.path.basename(path), len(steps)))
    seqs, good = {}, True
    for s in burst:
        seqs.setdefault(s['seq'], []).append(s)
    for seq, ss in seqs.items():
        names = [s['step'] for s in ss]
        if 'break' in names:
            good &= names == ['break', 'tlbi', 'make'] and ss[0]['newk'] == 'invalid' and ss[2]['oldk'] == 'invalid'
        else:
            good &= names[0] == 'inplace' and all(n == 'tlbi' for n in names[1:])
    split = split_writes(burst)
    tap.ok(good and split, '%s: every break-before-make is break, tlbi, make; the split is write #%s'
           % (os.path.basename(path), split[0] if split else '?'))


# ---- main ----

def fail(msg):
    print('not ok - ' + msg)
    sys.exit(1)


def do_kernel(a, tap, pics):
    """kernel-space.svg and kernel-tree.svg from the last kernel dump in a.kernel."""
    dumps = [d for d in parse_dumps(console_lines(a.kernel)) if not d.user]
    if not dumps:
        fail('%s: no kernel ptdump (with a "ptdump: levels:" line) found' % a.kernel)
    d, src = dumps[-1], os.path.basename(a.kernel)
    space, tree = os.path.join(a.out, 'kernel-space.svg'), os.path.join(a.out, 'kernel-tree.svg')
    if not a.no_draw:
        kernel_space(d, space, src)
        tree_picture(d, tree, 'Kernel page tables', src)
    pics += [('kernel-space.svg', 'The kernel address space (ptdump)'),
             ('kernel-tree.svg', 'The kernel page-table tree')]
    if a.verify:
        verify_runs(tap, d, 'kernel ptdump')
        verify_space(tap, space, d.start, d.end, 'kernel-space.svg')
        verify_tree(tap, d, tree, 'kernel-tree.svg')


def do_user(a, tap, pics):
    """user-space.svg (and user-tree.svg if pagetables were read) from a.user."""
    lines = console_lines(a.user)
    vmas = parse_maps(lines)
    dumps = [d for d in parse_dumps(lines) if d.user]
    if not vmas:
        fail('%s: no /proc/PID/maps lines found' % a.user)
    d, src = (dumps[-1] if dumps else None), os.path.basename(a.user)
    space, tree = os.path.join(a.out, 'user-space.svg'), os.path.join(a.out, 'user-tree.svg')
    if not a.no_draw:
        user_space(vmas, d, space, src)
        if d:
            tree_picture(d, tree, 'User page tables (/proc/PID/pagetables)', src)
    pics.append(('user-space.svg', 'A user address space (/proc/PID/maps)'))
    if d:
        pics.append(('user-tree.svg', 'Its page-table tree (/proc/PID/pagetables)'))
    if a.verify:
        verify_user(tap, vmas, d)
        verify_space(tap, space, 0, d.end if d else vmas[-1]['end'], 'user-space.svg')
        if d:
            verify_runs(tap, d, 'user pagetables')
            verify_tree(tap, d, tree, 'user-tree.svg')


def do_trace(a, i, t, tap, pics):
    """split-<i+1>.svg from the first burst of the pte_trace log t with a block split."""
    lines = console_lines(t)
    bursts = split_bursts(parse_trace(lines))
    if not bursts:
        fail('%s: no pte_trace burst with a block -> table write found' % t)
    name = 'split-%d.svg' % (i + 1)
    if not a.no_draw:
        timeline_picture(bursts[0], lines, os.path.join(a.out, name), os.path.basename(t))
    boot = next((l.strip() for l in lines if l.startswith('bootargs:')), '')
    pics.append((name, 'A block split, step by step (%s)' % boot))
    if a.verify:
        verify_timeline(tap, os.path.join(a.out, name), bursts[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--kernel', help='console log of a boot with the ptdump bootarg')
    ap.add_argument('--user', help='transcript with cat /proc/PID/maps, then /proc/PID/pagetables')
    ap.add_argument('--trace', action='append', default=[], help='console log of a boot with pte_trace=1')
    ap.add_argument('--out', default='build/pictures')
    ap.add_argument('--verify', action='store_true', help='check the SVGs against the logs (TAP)')
    ap.add_argument('--no-draw', action='store_true', help='with --verify: check the SVGs already in --out')
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    pics, tap = [], Tap()
    if a.kernel:
        do_kernel(a, tap, pics)
    if a.user:
        do_user(a, tap, pics)
    for i, t in enumerate(a.trace):
        do_trace(a, i, t, tap, pics)
    if not a.no_draw:
        write_index(a.out, pics)
    if a.verify:
        print('1..%d' % tap.n)
        sys.exit(1 if tap.failed else 0)


if __name__ == '__main__':
    main()
