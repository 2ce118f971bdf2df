#!/usr/bin/env python3
"""mm_rules_doc.py - docs/mm-rules.md has a row for every rule ID the tree
cites (MS-7, MR-14, ...), and its "tests" column tells the truth.
Prints TAP; exit status 1 on failure. (tests/host/mm_rules_doc.sh runs it.)

  mm_rules_doc.py [DOC [EXTRA_DIR]]   (default docs/mm-rules.md)

A rule ID is two or three capital letters, a dash and a number with an
optional letter (MP-9a). "MS-26/27" cites MS-26 and MS-27, "MR-16..MR-18"
or "MR-16..18" cites both ends. Cited means written anywhere in the
sources, tests, tools and docs (EXTRA_DIR too, for the self-check), except
in the rules document and in this checker.

A row is a table line "| ID | rule | Linux 6.12 | tests |". In the tests
cell, each `tests/...` path in backticks is a claim: the file must exist
and name the ID in a string literal (its TAP description). A cell that
names no file says "untested", or "see XX-N" for a rule with its own row
that is the same check under another name. And the other way round: a test
file that names an ID in a string literal must be listed in that ID's row.

Last, it checks itself on doctored copies of the document.
"""
import os
import re
import subprocess
import sys
import tempfile

SELF = ('tests/host/mm_rules_doc.sh', 'tests/host/mm_rules_doc.py')
DOC = 'docs/mm-rules.md'
TOP = ['arch', 'drivers', 'include', 'kernel', 'mm', 'tests', 'tools', 'linker', 'dts', 'docs',
       'README.md', 'Makefile']

NOT_IDS = re.compile(r'^(UTF|ISO|SHA|CVE|RFC|DDI|FNV)-')	# look like rule IDs, are not
RANGE = re.compile(r'\b([A-Z]{2,3})-([0-9]+[a-z]?)(/|\.\.(\1-)?)([0-9]+[a-z]?)\b')
ID = re.compile(r'\b[A-Z]{2,3}-[0-9]+[a-z]?\b')
CITES = re.compile(r'\b[A-Z]{2,3}-[0-9]')
LITERAL = re.compile(r'"([^"\\]|\\.)*"')
ROW_ID = re.compile(r'^ *[A-Z][A-Z][A-Z]?-[0-9]+[a-z]? *$')
CLAIM = re.compile(r'`(tests/[^`]+)`')
ALIAS = re.compile(r'\bsee ([A-Z]{2,3}-[0-9]+[a-z]?)\b')


def ids(line):
    """The rule IDs one line of text cites, in order."""
    line = RANGE.sub(r'\1-\2 \1-\5', line)
    return [i for i in ID.findall(line) if not NOT_IDS.match(i)]


def sources(extra):
    """Every file that can cite a rule, sorted, with its text (binary files
    are left out, as grep -I does)."""
    paths = []
    for top in TOP + ([extra] if extra else []):
        if os.path.isfile(top):
            paths.append(top)
        for d, dirs, files in os.walk(top):
            paths.extend(os.path.join(d, f) for f in files)
    out = []
    for p in sorted(set(paths)):
        if p.startswith('build/') or p in SELF or p == DOC:
            continue
        with open(p, 'rb') as f:
            data = f.read()
        if b'\0' in data:
            continue
        out.append((p, data.decode('utf-8', 'replace')))
    return out


class Tap:
    """TAP points, numbered as they come; failed once any point failed."""

    def __init__(self):
        self.lines, self.failed = [], False

    def ok(self, msg):
        self.lines.append('ok %d - %s' % (len(self.lines) + 1, msg))

    def bad(self, msg):
        self.lines.append('not ok %d - %s' % (len(self.lines) + 1, msg))
        self.failed = True


def check(doc, extra, tap):
    """Run the checks into tap; returns whether the document could be read
    at all (its rows found)."""
    ok, bad = tap.ok, tap.bad

    if not os.path.isfile(doc):
        bad('%s does not exist' % doc)
        return False
    rows = []	# (id, tests cell), in document order
    with open(doc, encoding='utf-8', errors='replace') as f:
        for line in f.read().split('\n'):
            parts = line.split('|')
            if len(parts) > 2 and ROW_ID.match(parts[1]):
                rows.append((parts[1].replace(' ', ''), parts[-2]))
    row_ids = sorted(r[0] for r in rows)
    if not row_ids:
        bad('%s: no rule rows found' % doc)
        return False
    row_set = set(row_ids)
    src = sources(extra)

    # 1. Every cited ID has exactly one row.
    cited = sorted({i for _, text in src for line in text.split('\n') if CITES.search(line)
                    for i in ids(line)})
    if not cited:
        bad('no cited rule IDs found (is the tree there?)')
    missing = False
    for i in cited:
        if i not in row_set:
            word = re.compile(r'(?<![A-Za-z0-9_])' + re.escape(i) + r'(?![A-Za-z0-9_])')
            where = [p for p, text in src if word.search(text)][:3]
            bad('%s is cited (%s) but %s has no row for it' % (i, ''.join(p + ' ' for p in where), doc))
            missing = True
    if not missing:
        ok('each of the %d cited rule IDs has a row' % len(cited))
    dups = sorted({i for i in row_ids if row_ids.count(i) > 1})
    if dups:
        bad('%s has more than one row for: %s' % (doc, ' '.join(dups)))
    else:
        ok('no rule has two rows')

    # Which test files name which IDs in a string literal.
    named = {}	# id -> [file], files in source order
    test_file = re.compile(r'^tests/.*\.(c|h|sh)$')
    for p, text in src:
        if not test_file.match(p):
            continue
        found = {i for line in text.split('\n') for m in LITERAL.finditer(line) for i in ids(m.group(0))}
        for i in found:
            named.setdefault(i, []).append(p)

    # 2. Each row's tests cell: claimed files exist and name the ID; or "untested".
    for i, cell in rows:
        claims = CLAIM.findall(cell)
        if not claims:
            alias = ALIAS.search(cell)
            if alias:
                if alias.group(1) in row_set:
                    ok('%s: tested as %s' % (i, alias.group(1)))
                else:
                    bad('%s: its row says "see %s", which has no row' % (i, alias.group(1)))
            elif 'untested' in cell.lower():
                ok('%s: marked untested' % i)
            else:
                bad('%s: its row names no test (`tests/...`) and does not say untested' % i)
        for f in claims:
            if not os.path.isfile(f):
                bad('%s: its row names %s, which does not exist' % (i, f))
            elif f in named.get(i, []):
                ok('%s: %s names it in a test' % (i, f))
            else:
                bad('%s: its row names %s, but no string in %s names %s' % (i, f, f, i))
        # 3. Every test that names the ID is listed in its row.
        for f in named.get(i, []):
            if f not in claims:
                bad('%s: %s names it in a test, but its row does not list %s' % (i, f, f))
    # A test naming an ID that has no row is caught by 1 (tests are sources).
    return True


def self_check(doc, ok, bad):
    """Doctored copies of the document (and one doctored source) must fail."""
    with open(doc, encoding='utf-8') as f:
        text = f.read()

    def fires(pattern, doc_text, extra=None):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, 'doc.md')
            with open(path, 'w', encoding='utf-8') as f:
                f.write(doc_text)
            if extra is not None:
                os.makedirs(os.path.join(tmp, 'src'))
                with open(os.path.join(tmp, 'src', 'new.c'), 'w') as f:
                    f.write(extra)
            tap = Tap()
            check(path, os.path.join(tmp, 'src') if extra is not None else None, tap)
        return any(re.search(pattern, line) for line in tap.lines if line.startswith('not ok'))

    def row_sub(rid, old, new):
        return re.sub(r'^(\| %s \|.*)%s' % (re.escape(rid), re.escape(old)),
                      lambda m: m.group(1) + new, text, flags=re.M)

    no_row = ''.join(l for l in text.splitlines(True) if not l.startswith('| MR-5 |'))
    if fires(r'MR-5 is cited .* no row', no_row):
        ok('self-check: fires when a cited rule (MR-5) has no row')
    else:
        bad('self-check: does not notice a missing row for MR-5')
    if fires(r'MR-5: .*no_such_test\.c, which does not exist',
             row_sub('MR-5', '`tests/user/mm_mremap.c`', '`tests/user/no_such_test.c`')):
        ok('self-check: fires when a row names a test file that does not exist')
    else:
        bad('self-check: does not notice a row naming a missing test file')
    wrong = row_sub('MR-5', '`tests/user/mm_mremap.c`', '`tests/user/mm_brk.c`')
    if fires(r'MR-5: .*mm_brk\.c, but no string', wrong):
        ok('self-check: fires when a row names a test that does not name the rule')
    else:
        bad('self-check: does not notice a row naming a test that does not name the rule')
    if fires(r'MR-5: tests/user/mm_mremap\.c names it in a test, but its row does not list', wrong):
        ok('self-check: fires when a test naming a rule is not listed in its row')
    else:
        bad('self-check: does not notice a test left out of a row')
    if fires(r'XQ-7 is cited', text, extra='/* XQ-7: a rule nobody wrote down */\n'):
        ok('self-check: fires when a source cites a rule with no row (XQ-7)')
    else:
        bad('self-check: does not notice a newly cited rule')
    empty = re.sub(r'^(\| MS-6 \|.*\|)[^|\n]*\| *$', r'\1 |', text, flags=re.M)
    if fires(r'MS-6: its row names no test', empty):
        ok('self-check: fires when a row names no test and is not marked untested')
    else:
        bad('self-check: does not notice a row with an empty tests cell')


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    doc = sys.argv[1] if len(sys.argv) > 1 else DOC
    extra = sys.argv[2] if len(sys.argv) > 2 else None
    tap = Tap()
    if check(doc, extra, tap) and len(sys.argv) == 1:	# the self-check, only in the top-level run
        self_check(doc, tap.ok, tap.bad)
    print('\n'.join(tap.lines))
    print('1..%d' % len(tap.lines))
    return 1 if tap.failed else 0

if __name__ == '__main__':
    sys.exit(main())
