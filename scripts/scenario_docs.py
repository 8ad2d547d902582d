#!/usr/bin/env python3
"""Writes the lists of built-in scenarios in the documentation from the scenario files.

Each built-in scenario (assets/scenarios/*.json, by name: the file's stem) has a "name" (its
title) and a "description" (what to watch). Two lists are made from them, each between the marker
comments <!-- scenarios:begin --> and <!-- scenarios:end -->:
- README.md: one line a scenario, its name, title and the description's first sentence;
- docs/scenarios.md: the whole description of each.
Lines are wrapped at 100 columns, the documentation's limit (tests/docs/check_docs.py).

Usage: scenario_docs.py [--check] [SOURCE_DIR]. Without --check it rewrites the two lists; with it,
it changes nothing and reports each stale list as one line, FILE:LINE: what (exit code 1). A
scenario file without a description, or a page without its markers, is an error either way.
"""

import json
import re
import sys
import textwrap
from pathlib import Path

BEGIN = "<!-- scenarios:begin -->"
END = "<!-- scenarios:end -->"
WIDTH = 100
# A sentence ends in '.', '!' or '?' followed by a space or the end of the text (as the test of
# the built-in descriptions counts them, tests/scenario/test_scenario.cpp).
SENTENCE_END = re.compile(r"[.!?](?= |$)")


class Problem(Exception):
    """A scenario file or a page that cannot be used; its message is one line, FILE:LINE: what."""


def scenarios(root):
    """(name, title, description) of every built-in scenario, sorted by name as kolize lists them."""
    found = []
    for path in sorted((root / "assets" / "scenarios").glob("*.json"), key=lambda p: p.stem.encode()):
        where = path.relative_to(root).as_posix()
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise Problem(f"{where}:1: cannot be read as JSON: {error}") from error
        title = doc.get("name") if isinstance(doc, dict) else None
        description = doc.get("description") if isinstance(doc, dict) else None
        if not isinstance(title, str) or not title:
            raise Problem(f"{where}:1: no \"name\" (the scenario's title)")
        if not isinstance(description, str) or not description.strip():
            raise Problem(f"{where}:1: no \"description\" (what to watch, for the lists of scenarios)")
        found.append((path.stem, title, " ".join(description.split())))
    if not found:
        raise Problem("assets/scenarios:1: no scenario files")
    return found


def first_sentence(text):
    match = SENTENCE_END.search(text)
    return text[: match.end()] if match else text


def item(name, title, text):
    """One list item: '- `name` (title): text', wrapped at WIDTH, continued two spaces in."""
    return textwrap.wrap(f"- `{name}` ({title}): {text}", width=WIDTH, subsequent_indent="  ",
                         break_long_words=False, break_on_hyphens=False)


def readme_list(found):
    return [line for name, title, text in found for line in item(name, title, first_sentence(text))]


def full_list(found):
    return [line for name, title, text in found for line in item(name, title, text)]


def replace_block(path, root, lines):
    """The page's text with the lines between its markers replaced by `lines`, and the line of its
    begin marker."""
    where = path.relative_to(root).as_posix()
    text = path.read_text(encoding="utf-8")
    page = text.split("\n")
    begins = [i for i, line in enumerate(page) if line.strip() == BEGIN]
    ends = [i for i, line in enumerate(page) if line.strip() == END]
    if len(begins) != 1 or len(ends) != 1 or ends[0] < begins[0]:
        raise Problem(f"{where}:1: expected one {BEGIN} line, then one {END} line")
    new = page[: begins[0] + 1] + lines + page[ends[0]:]
    return "\n".join(new), begins[0] + 1


def main(argv):
    args = argv[1:]
    check = "--check" in args
    rest = [arg for arg in args if arg != "--check"]
    if len(rest) > 1 or any(arg.startswith("-") for arg in rest):
        print("usage: scenario_docs.py [--check] [SOURCE_DIR]", file=sys.stderr)
        return 2
    root = Path(rest[0] if rest else Path(__file__).resolve().parent.parent).resolve()
    try:
        found = scenarios(root)
        pages = [(root / "README.md", readme_list(found)), (root / "docs" / "scenarios.md", full_list(found))]
        stale = []
        for path, lines in pages:
            text, line = replace_block(path, root, lines)
            if text == path.read_text(encoding="utf-8"):
                continue
            if check:
                stale.append(f"{path.relative_to(root).as_posix()}:{line}: the list of built-in scenarios is "
                             f"not the scenario files' (run scripts/scenario_docs.py)")
            else:
                path.write_text(text, encoding="utf-8")
                print(f"scenario_docs: wrote {path.relative_to(root).as_posix()}")
    except Problem as problem:
        print(problem)
        return 1
    for line in stale:
        print(line)
    if stale:
        return 1
    if check:
        print(f"scenario_docs: {len(found)} scenarios, README.md and docs/scenarios.md up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
