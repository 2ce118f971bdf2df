#!/usr/bin/env bash
# mm_rules_doc.sh - docs/mm-rules.md has a row for every rule ID the tree
# cites, and its "tests" column tells the truth: tests/host/mm_rules_doc.py
# (its top comment says what is checked). Prints TAP; exit status 1 on failure.
#
#   mm_rules_doc.sh [DOC [EXTRA_DIR]]   (default docs/mm-rules.md)
exec python3 "$(dirname "$0")/mm_rules_doc.py" "$@"
