#!/usr/bin/env python3
"""lab.py - the graded labs of docs/labs/: student trees, grading, and the
check that every lab can be graded.

  lab.py list                      the labs, one a line
  lab.py start NAME [DIR] [--force] [--no-git] [--no-build]
                                   write a student tree: a copy of this tree
                                   with NAME's solution regions replaced by
                                   their stubs (default DIR ../teachos-lab-NAME)
  lab.py grade [NAME] [--timeout S] [--no-build]
                                   run NAME's tests in this tree (the full
                                   tree or a student tree; a student tree
                                   knows its lab from .lab) and print
                                   "lab NAME: P/T"
  lab.py check [--jobs N]          every lab: the student tree builds and
                                   scores less than full, this tree scores
                                   full; ends with "N passed, N failed"
  lab.py lint [--root DIR]         every lab has balanced regions in the
                                   source and a hand-out; every marker names
                                   a lab

Solution regions (docs/labs/README.md):

    /* LAB name: begin; stub: return -ENOSYS; */
    ...the solution...
    /* LAB name: end */

Each marker is a line of its own. The stub (optional) is C that replaces the
region in a student tree, on one line at the begin marker's indentation; it
must build (-Werror) and make the lab's tests fail, never hang or hide the
grade. Markers are comments: the full tree builds and behaves as if they
were not there.
"""
import argparse
import concurrent.futures
import io
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))

# ---- the labs ---------------------------------------------------------------
#
# Each grade item is worth its points; an item whose run completed scores
# points * passed / total, rounded down, so only an item with every point
# passed scores all of its points. A run that did not complete (a crash, a
# panic, a timeout, no TAP plan) scores 0 for its items.
#
#   ('host', points, test, regex)     TAP points of build/host/test_<test>
#                                     whose description matches regex
#   ('user', points, prog, bootargs[, regex])  boot the user initramfs with
#                                     tests=<prog> (and bootargs): its points (those
#                                     whose description matches regex, if given)
#   ('ktest', points, names, bootargs)  boot with no initramfs, ktest=<names>
#   ('expect', points, bootargs, [text...])  boot with no initramfs: the share
#                                     of the texts the console shows
# Boot items may end with a dict of extra make variables, e.g. {'SMP': '4'}.

LABS = {
    'pagemap': {
        'title': 'Reading ptdump; translating a virtual address by hand; /proc/PID/pagemap',
        'items': [
            ('user', 70, 'mm_pagemap', ''),
            ('user', 30, 'textshare', ''),
        ],
    },
    'ptwalk': {
        'title': 'A page-table walk: counting and dumping the tables of an address space',
        'items': [
            ('host', 40, 'pgtable', r'ptdump|page-table pages|x 1G|x 64K runs|pages$|counts|tables'),
            ('host', 20, 'pgtable_16k_47', r'ptdump|page-table pages|counts|tables'),
            ('expect', 20, 'ptdump', ['---[ Linear Mapping start ]---',
                                      'ptdump: linear map: 3 page-table pages; 1G blocks: 0, 2M blocks: 15']),
            ('user', 20, 'hugetlb', ''),
        ],
    },
    'bbm': {
        'title': 'The linear map: splitting a live block under break-before-make',
        'items': [
            ('host', 50, 'pgtable', r'split|unfold|set_memory|table page|the new table'),
            ('host', 10, 'pgtable_64k_48', r'split|unfold|set_memory'),
            ('ktest', 40, 'linear_map_split_one_page,linear_map_split_under_stack,'
                          'linear_map_split_holding_table,linear_map_remerge', ''),
        ],
    },
    'cow': {
        'title': 'Demand paging and copy-on-write fork',
        'items': [
            ('host', 40, 'mm_rules', r'fork|copy-on-write|copies it|child|mm_fault\(WRITE\)'),
            ('user', 40, 'mm_fork', ''),
            ('user', 20, 'mm_pagemap', ''),
        ],
    },
    'mprotect': {
        'title': 'The mprotect write fast path, graded by fault counts',
        'items': [
            ('host', 40, 'mm_rules', r'WU-|mprotect\(|PROT_NONE'),
            ('user', 20, 'mm_mprotect', ''),
            ('user', 40, 'mm_quarantine', ''),
        ],
    },
    'mseal': {
        'title': 'mseal: sealing VMAs against change',
        'items': [
            ('host', 60, 'mm_rules', r'MS-'),
            ('user', 40, 'mm_mseal', ''),
        ],
    },
    'hugetlb': {
        'title': 'hugetlb pages cleared exactly once (graded by /proc/zeroed_bytes)',
        'items': [
            ('user', 40, 'hugetlb', ''),
            ('user', 40, 'hugetlb', 'init_on_alloc=1', r'zeroed|zero'),
            ('user', 20, 'hugetlb', 'init_on_free=1'),
        ],
    },
    'layout': {
        'title': 'A layout experiment: granules, VA sizes and the leaves they allow',
        'items': [
            ('expect', 40, 'ptdump', ['ptdump: linear map: 3 page-table pages; 1G blocks: 3, 2M blocks: 15, '
                                      '32M cont runs: 31, 64K cont runs: 31, 4K pages: 16'], {'MEM': '4G'}),
            ('expect', 30, 'ptdump', ['ptdump: linear map: 2 page-table pages; 32M blocks: 31, 1G cont runs: 3, '
                                      '2M cont runs: 15, 16K pages: 128'],
             {'GRANULE': '16K', 'VA_BITS': '47', 'MEM': '4G'}),
            ('expect', 30, 'ptdump', ['ptdump: linear map: 2 page-table pages; 512M blocks: 7, 16G cont runs: 0, '
                                      '2M cont runs: 255, 64K pages: 32'],
             {'GRANULE': '64K', 'VA_BITS': '48', 'MEM': '4G'}),
        ],
    },
    'bbml2': {
        'title': 'BBML2: live block splits, and the repaint when a CPU lacks it',
        'items': [
            ('host', 50, 'smp_tlb', r'.'),
            ('ktest', 30, 'bbml2_allow_list,bbml2_mode_shape,bbml2_split_live,bbml2_inplace_split', '',
             {'SMP': '4'}),
            ('expect', 20, 'ptdump bbml2=secondary-lacks',
             ['bbml2: CPU 3 lacks BBML2: repainting the linear map to pages, other CPUs held',
              'smp: 4 CPUs online',
              '1G blocks: 0, 2M blocks: 0, 32M cont runs: 0, 64K cont runs: 0'], {'SMP': '4'}),
        ],
    },
}

MAX_POINTS = 100

# ---- markers ----------------------------------------------------------------

BEGIN_RE = re.compile(r'^(\s*)/\* LAB ([a-z0-9_]+): begin(?:; stub: (.*?))? \*/\s*$')
END_RE = re.compile(r'^\s*/\* LAB ([a-z0-9_]+): end \*/\s*$')
ANY_RE = re.compile(r'/\* LAB ([a-z0-9_]+):')
SOURCE_EXT = ('.c', '.h', '.S')


def tree_files(root):
    """The files of a tree, relative to root: git's tracked and untracked
    (not ignored) files in a git checkout, else everything outside build/."""
    if os.path.isdir(os.path.join(root, '.git')) or os.path.isfile(os.path.join(root, '.git')):
        r = subprocess.run(['git', '-C', root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'],
                           capture_output=True, text=True)
        if r.returncode == 0:
            files = sorted(set(f for f in r.stdout.split('\0') if f))
            return [f for f in files if os.path.lexists(os.path.join(root, f))]
    out = []
    for d, dirs, names in os.walk(root):
        rel = os.path.relpath(d, root)
        if rel == '.':
            dirs[:] = [x for x in dirs if x not in ('build', '.git')]
        for n in names:
            out.append(os.path.normpath(os.path.join(rel, n)))
    return sorted(out)


def scan(root):
    """Every region in the tree's source: {lab: [(file, begin line, end line, indent, stub)]},
    and a list of problems (unbalanced or nested markers, stray marker text)."""
    regions, problems = {}, []
    for f in tree_files(root):
        if not f.endswith(SOURCE_EXT):
            continue
        try:
            with open(os.path.join(root, f), encoding='utf-8') as fh:
                lines = fh.read().split('\n')
        except (OSError, UnicodeDecodeError):
            continue
        open_ = None
        for i, line in enumerate(lines, 1):
            b, e = BEGIN_RE.match(line), END_RE.match(line)
            if b:
                if open_:
                    problems.append(f'{f}:{i}: LAB {b.group(2)} begins inside LAB {open_[0]} (from line {open_[1]})')
                open_ = (b.group(2), i, b.group(1), b.group(3))
            elif e:
                if not open_ or open_[0] != e.group(1):
                    problems.append(f'{f}:{i}: LAB {e.group(1)}: end without its begin')
                    open_ = None
                    continue
                regions.setdefault(open_[0], []).append((f, open_[1], i, open_[2], open_[3]))
                open_ = None
            elif ANY_RE.search(line):
                problems.append(f'{f}:{i}: malformed LAB marker: {line.strip()}')
        if open_:
            problems.append(f'{f}:{open_[1]}: LAB {open_[0]}: begin without an end')
    return regions, problems


def stubbed_text(root, f, lab, regs):
    """File f of root with lab's regions (regs, in order) replaced by their stubs."""
    with open(os.path.join(root, f), encoding='utf-8') as fh:
        lines = fh.read().split('\n')
    out, pos = [], 0
    for (_, b, e, indent, stub) in sorted(regs, key=lambda r: r[1]):
        out.extend(lines[pos:b - 1])
        out.append(f'{indent}/* LAB {lab}: your code here (docs/labs/{lab}.md) */')
        if stub:
            out.append(indent + stub)
        pos = e
    out.extend(lines[pos:])
    return '\n'.join(out)


# ---- lint -------------------------------------------------------------------

def lint(root):
    """Problems with the labs of root: each lab needs a region and a hand-out
    listed in docs/labs/README.md; each marker must name a lab. Prints them."""
    regions, problems = scan(root)
    readme = os.path.join(root, 'docs/labs/README.md')
    readme_text = open(readme, encoding='utf-8').read() if os.path.exists(readme) else ''
    for lab in LABS:
        if lab not in regions:
            problems.append(f'lab {lab}: no solution region in the source (/* LAB {lab}: begin */)')
        if not os.path.exists(os.path.join(root, f'docs/labs/{lab}.md')):
            problems.append(f'lab {lab}: no hand-out docs/labs/{lab}.md')
        if f'({lab}.md)' not in readme_text:
            problems.append(f'lab {lab}: docs/labs/README.md does not list {lab}.md')
        if sum(it[1] for it in LABS[lab]['items']) != MAX_POINTS:
            problems.append(f'lab {lab}: its items are worth {sum(it[1] for it in LABS[lab]["items"])}, '
                            f'not {MAX_POINTS}')
    for lab in regions:
        if lab not in LABS:
            problems.append(f'LAB {lab}: a region for a lab tools/lab.py does not define '
                            f'({regions[lab][0][0]}:{regions[lab][0][1]})')
    for p in problems:
        print('lab lint: ' + p)
    return problems


# ---- student trees ----------------------------------------------------------

def start(lab, dest, force=False, use_git=True, copy_build=True, quiet=False):
    """Write the student tree of lab at dest. Returns 0 on success."""
    if lab not in LABS:
        print(f'lab-start: no lab "{lab}"; the labs: {" ".join(LABS)}', file=sys.stderr)
        return 2
    regions, problems = scan(ROOT)
    if problems or lab not in regions:
        lint(ROOT)
        print(f'lab-start: the markers of this tree are broken (see above)', file=sys.stderr)
        return 2
    dest = os.path.abspath(dest)
    if dest == ROOT or ROOT.startswith(dest + os.sep):
        print(f'lab-start: {dest} would overwrite this tree', file=sys.stderr)
        return 2
    if os.path.exists(dest) and os.listdir(dest):
        if not force:
            print(f'lab-start: {dest} exists and is not empty (FORCE=1 replaces it)', file=sys.stderr)
            return 2
        shutil.rmtree(dest)
    os.makedirs(dest, exist_ok=True)
    for f in tree_files(ROOT):
        src, dst = os.path.join(ROOT, f), os.path.join(dest, f)
        if f.startswith('build/'):
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.islink(src):
            os.symlink(os.readlink(src), dst)
        else:
            shutil.copy2(src, dst)	# keeps the mtime: builds copied below stay valid
    # The build outputs, mtimes kept (cp -a), so that only the stubbed files
    # recompile. Only a speed-up: a tree without them builds from nothing.
    if copy_build and os.path.isdir(os.path.join(ROOT, 'build')):
        dirs = ['host'] + sorted(x for x in os.listdir(os.path.join(ROOT, 'build'))
                                 if re.match(r'^arm64(-\d+k-\d+)?$', x))
        os.makedirs(os.path.join(dest, 'build'), exist_ok=True)
        for d in dirs:
            if os.path.isdir(os.path.join(ROOT, 'build', d)):
                subprocess.run(['cp', '-a', os.path.join(ROOT, 'build', d), os.path.join(dest, 'build')],
                               check=True)
        shutil.rmtree(os.path.join(dest, 'build/grade'), ignore_errors=True)
    byfile = {}
    for r in regions[lab]:
        byfile.setdefault(r[0], []).append(r)
    for f, regs in byfile.items():
        with open(os.path.join(dest, f), 'w', encoding='utf-8') as fh:
            fh.write(stubbed_text(ROOT, f, lab, regs))
    with open(os.path.join(dest, '.lab'), 'w') as fh:
        fh.write(lab + '\n')
    if use_git and shutil.which('git'):
        g = ['git', '-C', dest, '-c', 'user.name=lab-start', '-c', 'user.email=lab-start@localhost']
        ok = subprocess.run(['git', '-C', dest, 'init', '-q'], capture_output=True).returncode == 0
        ok = ok and subprocess.run(g + ['add', '-A', '.'], capture_output=True).returncode == 0
        ok = ok and subprocess.run(g + ['commit', '-q', '-m', f'lab {lab}: the starting tree'],
                                   capture_output=True).returncode == 0
        if not ok:
            print('lab-start: note: could not make the tree a git repository', file=sys.stderr)
    if not quiet:
        nreg = len(regions[lab])
        print(f'lab {lab}: student tree in {dest} ({nreg} region{"s" * (nreg != 1)} stubbed in '
              f'{", ".join(sorted(byfile))})')
        print(f'  hand-out: docs/labs/{lab}.md; grade it there with: make grade')
    return 0


# ---- grading ----------------------------------------------------------------

TAP_RE = re.compile(r'^(not ok|ok) \d+ - (.*?)\r?$')
PLAN_RE = re.compile(r'^1\.\.(\d+)\r?$')


def tap_points(text):
    """[(passed, description)] of the TAP points in text, and the last plan (or None)."""
    pts, plan = [], None
    for line in text.split('\n'):
        m = TAP_RE.match(line)
        if m:
            pts.append((m.group(1) == 'ok', m.group(2)))
        else:
            p = PLAN_RE.match(line)
            if p:
                plan = int(p.group(1))
    return pts, plan


def run(cmd, cwd, timeout, log=None):
    """Run cmd (a list) in cwd; (status, output). Status 124 on timeout."""
    try:
        r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        out, st = r.stdout.decode('utf-8', 'replace'), r.returncode
    except subprocess.TimeoutExpired as e:
        out, st = (e.stdout or b'').decode('utf-8', 'replace') + '\n(timed out)\n', 124
    if log:
        with open(log, 'w') as fh:
            fh.write(out)
    return st, out


def host_tests_of(lab):
    return sorted(set(it[2] for it in LABS[lab]['items'] if it[0] == 'host'))


def boots_of(lab):
    return [it for it in LABS[lab]['items'] if it[0] != 'host']


BUILD_VARS = ('GRANULE', 'VA_BITS')	# the make variables that choose another kernel build


def kernel_builds_of(lab):
    """The distinct kernel builds lab's boots need: lists of make variables."""
    out = []
    for it in boots_of(lab):
        vars_ = it[-1] if isinstance(it[-1], dict) else {}
        b = [f'{k}={vars_[k]}' for k in BUILD_VARS if k in vars_]
        if b not in out:
            out.append(b)
    return out


def build(tree, lab, jobs=1, log=None):
    """Build what lab's grade needs in tree: its kernels, the user programs if
    a user test is graded, and the host tests. (ok, output)."""
    cmds = [['kernel'] + b for b in kernel_builds_of(lab)]
    extra = ['user'] if any(it[0] == 'user' for it in LABS[lab]['items']) else []
    extra += [f'build/host/test_{t}' for t in host_tests_of(lab)]
    if extra:
        cmds.append(extra)
    text = ''
    for c in cmds:
        st, out = run(['make', '--no-print-directory', '-s', f'-j{jobs}'] + c, tree, 1800)
        text += out
        if st:
            break
    if log:
        with open(log, 'w') as fh:
            fh.write(text)
    return st == 0 if cmds else True, text


def grade_item(tree, lab, idx, it, timeout, logdir):
    """Grade one item: (points scored, a line saying why)."""
    kind, pts = it[0], it[1]
    log = os.path.join(logdir, f'{idx}-{kind}.log')
    if kind == 'host':
        test, rx = it[2], re.compile(it[3])
        exe = os.path.join(tree, 'build/host', 'test_' + test)
        if not os.path.exists(exe):
            return 0, f'host test {test}: not built'
        st, out = run([exe], tree, timeout, log)
        allp, plan = tap_points(out)
        sel = [p for p in allp if rx.search(p[1])]
        what = f'host test {test} /{it[3]}/'
        if plan is None or plan != len(allp):
            tail = [l for l in out.split('\n') if l.strip()][-1:] or ['']
            return 0, (f'{what}: did not complete (status {st}, {len(allp)} points, no plan; it ended with '
                       f'"{tail[0].strip()[:120]}"): see {log}')
    else:
        vars_ = it[-1] if isinstance(it[-1], dict) else {}
        mk = [f'{k}={v}' for k, v in vars_.items()]
        if kind == 'user':
            args = f'tests={it[2]} {it[3]}'.strip()
            mk += ['INITRD=build/arm64/initramfs.cpio']
            what = f'user test {it[2]}' + (f' ({it[3]})' if it[3] else '')
        elif kind == 'ktest':
            args = f'ktest={it[2]} {it[3]}'.strip()
            what = f'ktest {it[2]}' + (f' ({it[3]})' if it[3] else '')
        else:
            args = it[2]
            what = f'boot "{args}"'
        if vars_:
            what += ' ' + ' '.join(mk[:len(vars_)])
        st, cmd = run(['make', '--no-print-directory', '-s', 'qemu-cmd', 'ARCH=arm64', f'BOOTARGS={args}'] + mk,
                      tree, 60)
        if st:
            return 0, f'{what}: no QEMU command: {cmd.strip()}'
        # run-qemu.sh takes the command as make prints it (shell words).
        st, out = run(['bash', '-c', f'exec bash tools/run-qemu.sh --name grade --arch arm64 --timeout {timeout}'
                       f' --log {log} -- {cmd.strip()}'], tree, timeout + 60)
        try:
            text = open(log, encoding='utf-8', errors='replace').read()
        except OSError:
            text = ''
        panic = re.search(r'^panic: .*$', text, re.M)
        if panic:
            return 0, f'{what}: the kernel panicked ({panic.group(0).strip()}): see {log}'
        if 'kernel-exit: status=' not in text:
            return 0, f'{what}: the boot did not end (a hang or a timeout): see {log}'
        if kind == 'expect':
            found = sum(1 for s in it[3] if s in text)
            missing = [s for s in it[3] if s not in text]
            got = pts * found // len(it[3])
            why = f'{what}: {found} of {len(it[3])} expected lines' + (f'; missing "{missing[0]}"' if missing else '')
            return got, why + (f': see {log}' if missing else '')
        allp, plan = tap_points(text)
        rx = [x for x in it[4:] if isinstance(x, str)] if kind == 'user' else []
        sel = [p for p in allp if re.search(rx[0], p[1])] if rx else allp
        if rx:
            what += f' /{rx[0]}/'
        if plan is None or plan != len(allp):
            return 0, f'{what}: did not complete ({len(allp)} points, plan {plan}): see {log}'
    if not sel:
        return 0, f'{what}: no test point matched (the grade itself is wrong)'
    ok = sum(1 for p in sel if p[0])
    got = pts * ok // len(sel)
    why = f'{what}: {ok}/{len(sel)} points'
    bad = [p[1] for p in sel if not p[0]]
    if bad:
        why += f'; first failure: "{bad[0][:110]}": see {log}'
    return got, why


def grade(lab, tree, timeout, do_build=True, jobs=2, quiet=False, out=None):
    """Grade lab in tree; prints each item and "lab NAME: P/T" (to out, else
    stdout). Returns the score."""
    w = out or sys.stdout
    logdir = os.path.join(tree, 'build/grade', lab)
    os.makedirs(logdir, exist_ok=True)
    if do_build:
        ok, text = build(tree, lab, jobs, os.path.join(logdir, 'build.log'))
        if not ok:
            print(text[-3000:], file=w)
            print(f'lab {lab}: the tree does not build: 0/{MAX_POINTS}', file=w)
            return 0
    total = 0
    for i, it in enumerate(LABS[lab]['items']):
        got, why = grade_item(tree, lab, i, it, timeout, logdir)
        total += got
        if not quiet:
            print(f'  {got:3d}/{it[1]:<3d} {why}', file=w)
    print(f'lab {lab}: {total}/{MAX_POINTS}', file=w)
    w.flush()
    return total


# ---- check-labs ---------------------------------------------------------------

def check_one(lab, timeout):
    """Prove lab gradeable: (ok, TAP description, details)."""
    labdir = os.path.join(ROOT, 'build/labs', lab)
    t0 = time.time()
    buf = io.StringIO()
    full = grade(lab, ROOT, timeout, do_build=False, out=buf)
    st = start(lab, labdir, force=True, use_git=False, quiet=True)
    ok, student = False, None
    if st == 0:
        ok, text = build(labdir, lab, 1, None)
        if not ok:
            print(text[-2000:], file=buf)
        else:
            student = grade(lab, labdir, timeout, do_build=False, out=buf)
    details = buf.getvalue()
    secs = time.time() - t0
    if st != 0 or not ok:
        return False, f'lab {lab}: the student tree does not build ({secs:.0f} s)', details
    if full != MAX_POINTS:
        return False, f'lab {lab}: the full tree scores {full}/{MAX_POINTS}, not full', details
    if student >= MAX_POINTS:
        return False, f'lab {lab}: the student tree scores {student}/{MAX_POINTS}: the grade cannot fail', details
    shutil.rmtree(labdir, ignore_errors=True)
    return True, (f'lab {lab}: student tree builds and scores {student}/{MAX_POINTS}, '
                  f'full tree {full}/{MAX_POINTS} ({secs:.0f} s)'), details


def check(jobs, timeout):
    t0 = time.time()
    passed = failed = 0
    n = 0
    problems = lint(ROOT)
    n += 1
    if problems:
        print(f'not ok {n} - lab markers and hand-outs ({len(problems)} problems)')
        failed += 1
    else:
        print(f'ok {n} - lab markers and hand-outs: {len(LABS)} labs, each with regions and a hand-out')
        passed += 1
    # Build the full tree once, serially; the labs then run side by side.
    needed = sorted(set(t for lab in LABS for t in host_tests_of(lab)))
    st, out = run(['make', '--no-print-directory', '-s', f'-j{jobs}', 'kernel', 'user'] +
                  [f'build/host/test_{t}' for t in needed], ROOT, 1800)
    for b in sorted(set(tuple(b) for lab in LABS for b in kernel_builds_of(lab) if b)):
        if st == 0:
            st, o = run(['make', '--no-print-directory', '-s', f'-j{jobs}', 'kernel'] + list(b), ROOT, 1800)
            out += o
    if st:
        print(out[-3000:])
        print(f'not ok {n + 1} - the full tree does not build')
        print(f'run: check-labs: {passed} passed, {failed + 1} failed')
        print(f'{passed} passed, {failed + 1} failed')
        return 1
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = [ex.submit(check_one, lab, timeout) for lab in LABS]
        for f in futs:
            ok, desc, details = f.result()
            n += 1
            print(f'{"ok" if ok else "not ok"} {n} - {desc}')
            lines = details.rstrip('\n').split('\n')
            if not ok:
                print('\n'.join('  | ' + l for l in lines))
            else:
                print('\n'.join('  # ' + l for l in lines if re.match(r'^lab \w+: \d+/', l)))
            passed += ok
            failed += not ok
    print(f'1..{n}')
    print(f'# check-labs: {time.time() - t0:.0f} s wall')
    print(f'run: check-labs: {passed} passed, {failed} failed')
    print(f'{passed} passed, {failed} failed')
    return 0 if failed == 0 else 1


def main():
    ap = argparse.ArgumentParser(description='graded labs (docs/labs/README.md)')
    sub = ap.add_subparsers(dest='cmd', required=True)
    sub.add_parser('list')
    s = sub.add_parser('start')
    s.add_argument('lab', nargs='?')
    s.add_argument('dir', nargs='?')
    s.add_argument('--force', action='store_true')
    s.add_argument('--no-git', action='store_true')
    s.add_argument('--no-build', action='store_true', help='do not copy build/ (build from nothing)')
    g = sub.add_parser('grade')
    g.add_argument('lab', nargs='?')
    g.add_argument('--timeout', type=int, default=300)
    g.add_argument('--no-build', action='store_true')
    c = sub.add_parser('check')
    c.add_argument('--jobs', type=int, default=2)
    c.add_argument('--timeout', type=int, default=300)
    li = sub.add_parser('lint')
    li.add_argument('--root', default=ROOT)
    a = ap.parse_args()
    if a.cmd == 'list':
        for k, v in LABS.items():
            print(f'{k:10s} {v["title"]}  (docs/labs/{k}.md)')
        return 0
    if a.cmd == 'start':
        if not a.lab:
            print('lab-start: LAB= one of: ' + ' '.join(LABS), file=sys.stderr)
            return 2
        return start(a.lab, a.dir or os.path.join(os.path.dirname(ROOT), 'teachos-lab-' + a.lab),
                     a.force, not a.no_git, not a.no_build)
    if a.cmd == 'grade':
        lab = a.lab
        if not lab and os.path.exists(os.path.join(ROOT, '.lab')):
            lab = open(os.path.join(ROOT, '.lab')).read().strip()
        if lab not in LABS:
            print(f'grade: LAB= one of: {" ".join(LABS)}', file=sys.stderr)
            return 2
        grade(lab, ROOT, a.timeout, not a.no_build)
        return 0
    if a.cmd == 'check':
        return check(a.jobs, a.timeout)
    if a.cmd == 'lint':
        return 1 if lint(os.path.abspath(a.root)) else 0
    return 2


if __name__ == '__main__':
    sys.exit(main())
