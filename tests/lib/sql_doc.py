# SPDX-License-Identifier: GPL-2.0
"""docs/sql.md as tests/cli/t-sql-doc.sh reads it: its tables and columns,
the SQL examples of a section, the code blocks of another."""
import re


def section(text, title):
    """The body of "## TITLE", up to the next "## " heading."""
    m = re.search(r'^## ' + re.escape(title) + r'\n(.*?)(?=^## |\Z)', text, re.S | re.M)
    if not m:
        raise SystemExit(f'docs/sql.md has no section "## {title}"')
    return m.group(1)


def blocks(text, title, lang):
    """The ```LANG code blocks of section TITLE, in order."""
    return re.findall(r'^```' + lang + r'\n(.*?)^```', section(text, title), re.S | re.M)


def tables(text):
    """[(table, [(column, type)])] of "## The tables": each "### `name`"
    and its rows "| `column` | TYPE | meaning |"."""
    out = []
    for part in re.split(r'^### ', section(text, 'The tables'), flags=re.M)[1:]:
        m = re.match(r'`(\w+)`\n', part)
        if not m:
            raise SystemExit(f'docs/sql.md: a table heading is not ### `name`: {part[:40]!r}')
        cols = re.findall(r'^\| `(\w+)` \| (\w+) \|', part, re.M)
        out.append((m.group(1), cols))
    return out
