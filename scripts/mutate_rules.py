#!/usr/bin/env python3
"""How many wrong rule numbers does `cardstock check` catch?

For each game in data/, this script changes every number the rulebook states in the
game's data by one, one change at a time, in a scratch copy of the project, runs
`cardstock check` on the copy and counts the changes that check refuses (exit
status 1). The numbers changed are:

  * every number under [rules] in data/<game>/game.toml: plain values, values in
    sub-tables ([rules.fee]) and arrays of tables ([[rules.actions]]), and every
    element of a list of numbers (bonus = [400, 200, 100]); and
  * every count under [contents] (the rulebook's component counts).

Each number is changed twice, to n + 1 and to n - 1. Booleans and strings are left
alone. A change check does not refuse is listed with its line, so it can be judged:
some numbers are design choices the rulebook leaves open (a design choice may rightly
take another value), others are rulebook facts a check should guard.

Usage:

    python3 scripts/mutate_rules.py [--cardstock PATH] [--project DIR] [--quiet] [GAME ...]

PATH defaults to target/release/cardstock (build it with `cargo build --release`);
DIR to the project this script lives in; the games to every folder of DIR/data.
Prints a line per game (changes, refused, not refused, and the percentage) and the
changes not refused; exits 0 (the figures are a measurement, not a pass/fail test),
or 2 when a run of check crashes or the unchanged data does not pass check.
"""

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

NUMBER = re.compile(r"(?<![\w.\"'-])-?\d+(?:\.\d+)?(?![\w.\"'])")
HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.'\"-]+)\s*\]\]?\s*(#.*)?$")
KEY = re.compile(r"^(\s*[A-Za-z0-9_\"'-]+\s*=\s*)(.*)$")


def split_comment(text):
    """The value part of a TOML line and its trailing comment (outside strings)."""
    quote = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return text[:i], text[i:]
    return text, ""


def numbers_in(value):
    """Spans of the numbers of a value that is a number or a list of numbers."""
    v = value.strip()
    if NUMBER.fullmatch(v):
        start = value.index(v)
        return [(start, start + len(v))]
    if v.startswith("[") and v.endswith("]") and not re.search(r"[\"'\[{]", v[1:-1]):
        return [(m.start(), m.end()) for m in NUMBER.finditer(value)]
    return []


def mutations(text):
    """(line number, key, old, new, new text) for every rule number of game.toml."""
    lines = text.split("\n")
    section = None
    found = []
    for i, line in enumerate(lines):
        h = HEADER.match(line)
        if h:
            section = h.group(1)
            continue
        if section is None or not (section == "rules" or section.startswith("rules.") or section == "contents"):
            continue
        k = KEY.match(line)
        if not k:
            continue
        value, comment = split_comment(k.group(2))
        key = k.group(1).split("=")[0].strip()
        for a, b in numbers_in(value):
            old = value[a:b]
            for delta in (1, -1):
                if "." in old:
                    new = f"{float(old) + delta:.{len(old.split('.')[1])}f}"
                else:
                    new = str(int(old) + delta)
                changed = k.group(1) + value[:a] + new + value[b:] + comment
                out = lines[:i] + [changed] + lines[i + 1 :]
                found.append((i + 1, f"{section}.{key}", old, new, "\n".join(out)))
    return found


def check(cardstock, project, game):
    o = subprocess.run(
        [cardstock, "check", "--project", str(project), game],
        capture_output=True,
        text=True,
        timeout=300,
    )
    return o.returncode, o.stderr


def main():
    here = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cardstock", default=str(here / "target/release/cardstock"))
    ap.add_argument("--project", default=str(here))
    ap.add_argument("--quiet", action="store_true", help="only the per-game figures")
    ap.add_argument("games", nargs="*")
    a = ap.parse_args()
    project = Path(a.project)
    games = a.games or sorted(p.name for p in (project / "data").iterdir() if (p / "game.toml").exists())
    total = [0, 0]
    bad = False
    rows = []
    for game in games:
        with tempfile.TemporaryDirectory() as tmp:
            scratch = Path(tmp)
            shutil.copytree(project / "data" / game, scratch / "data" / game)
            shutil.copytree(project / "templates" / game, scratch / "templates" / game)
            shutil.copytree(project / "templates" / "common", scratch / "templates" / "common")
            if (project / "profiles").exists():
                shutil.copytree(project / "profiles", scratch / "profiles")
            game_toml = scratch / "data" / game / "game.toml"
            original = game_toml.read_text()
            code, err = check(a.cardstock, scratch, game)
            if code != 0:
                print(f"{game}: the unchanged data does not pass check (exit {code})\n{err}", file=sys.stderr)
                bad = True
                continue
            missed = []
            caught = 0
            muts = mutations(original)
            for line, key, old, new, text in muts:
                game_toml.write_text(text)
                code, err = check(a.cardstock, scratch, game)
                if code == 1:
                    caught += 1
                elif code == 0:
                    missed.append(f"  line {line}: {key} {old} -> {new}")
                else:
                    print(f"{game}: line {line}: {key} {old} -> {new}: check exited {code}\n{err}", file=sys.stderr)
                    bad = True
            game_toml.write_text(original)
            n = len(muts)
            total[0] += n
            total[1] += caught
            pct = 100.0 * caught / n if n else 0.0
            rows.append(f"{game}: {n} changes, {caught} refused by check, {n - caught} not ({pct:.0f} %)")
            print(rows[-1], flush=True)
            if missed and not a.quiet:
                print("\n".join(missed), flush=True)
    if total[0]:
        print(f"all games: {total[0]} changes, {total[1]} refused ({100.0 * total[1] / total[0]:.0f} %)")
    sys.exit(2 if bad else 0)


if __name__ == "__main__":
    main()
