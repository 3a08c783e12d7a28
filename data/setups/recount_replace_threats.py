"""Recount ``replace_threats`` in published tables of setup pairs, in place.

A one-off, kept to say how the published tables got their figure: ``replace_threats`` was
redefined to read boards only (a pair and its mirror had counts one apart in 39 pairs of
the depth-3 table; docs/setups.md, "Immediate replace threat"). The figure depends on the
pair's start position and the rules alone, not on the depth, so each record's count is
recomputed by ``gyges.setups.search.figures.replace_threats`` under the record's own rules
without searching again; every other field, and the order of the lines, is kept. Prints
how many records changed in each file; run again, it changes none. From the repository's
root, with this checkout's package::

    PYTHONPATH=solver python3 data/setups/recount_replace_threats.py \\
        data/setups/pbmserv-depth3.jsonl data/setups/pbmserv-depth4.jsonl \\
        data/setups/pbmserv-depth5-sample.jsonl
"""

from __future__ import annotations

import json
import os
import sys

from gyges.game.position import Position
from gyges.game.rules import RuleSet, rules_from
from gyges.parallel import dumps
from gyges.setups.search.figures import replace_threats


def recount(path: str) -> tuple[int, int]:
    """Rewrite the file ``path`` with each record's count recomputed: (records, changed)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    rules: dict[str, RuleSet] = {}
    out, changed = [], 0
    for number, line in enumerate(lines, 1):
        record = json.loads(line)
        text = record["rules"]
        if text not in rules:
            rules[text] = rules_from("pbmserv", text.split())
            if rules[text].describe() != text:
                sys.exit(f"{path}:{number}: rules {text!r} are not read back as they are written")
        count = replace_threats(Position.setup(record["south"], record["north"]), rules[text])
        changed += count != record["replace_threats"]
        record["replace_threats"] = count
        out.append(dumps(record) + "\n")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.writelines(out)
    os.replace(path + ".tmp", path)
    return len(lines), changed


if __name__ == "__main__":
    for name in sys.argv[1:]:
        total, changed = recount(name)
        print(f"{name}: {changed:,} of {total:,} records changed")
