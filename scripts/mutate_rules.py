#!/usr/bin/env python3
"""How many wrong rule facts does `cardstock check` catch?

For each game in data/, this script makes edits of the game's data, one at a time,
in a scratch copy of the project, runs `cardstock check` on the copy and counts the
edits check refuses (exit status 1). Three sets of edits:

  * rule facts: the declared list tests/rule_facts/<game>.toml, every fact the
    game's rulebook states that its data holds (amounts, costs, lists by player
    count, chit shapes by goods kind, texts that carry a rule, minimums the parts
    must allow), each with realistic edits that break it (another multiple of the
    unit, an element dropped, swapped or added, another shape, a text that says
    something else). A fact is guarded when check refuses every edit of it.
    `cargo test` runs the same lists in process (tests/it/rule_facts.rs) and fails
    on any edit check lets through; here they run through the binary.
  * ±1: every number under [rules] (plain values, sub-tables, arrays of tables and
    lists of numbers) and [contents] of game.toml, changed to n + 1 and n - 1.
  * made up: in every data file of the game (not the engine's tables: components,
    references, asserts, derives, network), every number under [rules] and
    [contents] that is a multiple of 10 or more changed by its unit (400 -> 300 and
    500); every one-line list with an element dropped; a list of names with its
    last name replaced by, and with an added, other name its key uses in the file;
    a list of amounts with two swapped (1st and 2nd bonus); and every value of a
    key that takes 2 to 6 identifiers in its file (an enumeration: kind =
    "perishable") changed to the next of them.

A made-up edit check does not refuse is listed with its file and line, so it can be
judged: many are design choices the rulebook leaves open (a design choice may
rightly take another value); a rule fact among them belongs in the declared list
and under an [[assert]].

Usage:

    python3 scripts/mutate_rules.py [--cardstock PATH] [--project DIR] [--jobs N]
                                    [--facts-only] [--quiet] [GAME ...]

PATH defaults to target/release/cardstock (build it with `cargo build --release`);
DIR to the project this script lives in; the games to every folder of DIR/data.
Prints, per game, the rule facts guarded and the figures of each set, and the edits
not refused; exits 0 (the made-up sets are a measurement), 1 when a declared rule
fact's edit is not refused, or 2 when a run of check crashes, a declared edit does
not apply, or the unchanged data does not pass check.
"""

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

NUMBER = re.compile(r"(?<![\w.\"'-])-?\d+(?:\.\d+)?(?![\w.\"'])")
HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.'\"-]+)\s*\]\]?\s*(#.*)?$")
KEY = re.compile(r"^(\s*[A-Za-z0-9_\"'-]+\s*=\s*)(.*)$")
STRING = re.compile(r'^"([^"\\]*)"$')
ELEMENT = re.compile(r'"[^"\\]*"|-?\d+(?:\.\d+)?')


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


def keyed_lines(text):
    """(line index, section, key, prefix, value, comment) of every `key = value` line."""
    section = None
    for i, line in enumerate(text.split("\n")):
        h = HEADER.match(line)
        if h:
            section = h.group(1)
            continue
        k = KEY.match(line)
        if not k:
            continue
        value, comment = split_comment(k.group(2))
        yield i, section, k.group(1).split("=")[0].strip(), k.group(1), value, comment


def is_rules(section):
    return section is not None and (section == "rules" or section.startswith("rules.") or section == "contents")


def replaced(text, i, line):
    lines = text.split("\n")
    return "\n".join(lines[:i] + [line] + lines[i + 1 :])


def unit_of(n):
    """The largest power of ten dividing a whole number of 10 or more, else None."""
    if n < 10 or n % 10:
        return None
    u = 10
    while n % (u * 10) == 0:
        u *= 10
    return u


def plus_minus_one(text):
    """(line number, what, new text) for every rule number of game.toml, ±1."""
    found = []
    for i, section, key, prefix, value, comment in keyed_lines(text):
        if not is_rules(section):
            continue
        for a, b in numbers_in(value):
            old = value[a:b]
            for delta in (1, -1):
                if "." in old:
                    new = f"{float(old) + delta:.{len(old.split('.')[1])}f}"
                else:
                    new = str(int(old) + delta)
                line = prefix + value[:a] + new + value[b:] + comment
                found.append((i + 1, f"{section}.{key} {old} -> {new}", replaced(text, i, line)))
    return found


IDENT = re.compile(r"[a-z][a-z0-9_-]*")
# Tables that describe the engine's work, not the game: not mutated.
ENGINE = {"component", "reference", "assert", "derive", "network"}


def enum_key(section, key):
    """Values of one key under one top-level table form an enumeration."""
    return ((section or "").split(".")[0], key)


def made_up(text):
    """(line number, what, new text): other multiples of a rule number's unit, list
    elements dropped, replaced and added, enumerated identifiers changed."""
    lines = [l for l in keyed_lines(text) if (l[1] or "").split(".")[0] not in ENGINE]
    found = []
    enums, pools = {}, {}
    for i, section, key, prefix, value, comment in lines:
        m = STRING.match(value.strip())
        if m and IDENT.fullmatch(m.group(1)):
            enums.setdefault(enum_key(section, key), set()).add(m.group(1))
        v = value.strip()
        if v.startswith("[") and v.endswith("]") and "[" not in v[1:-1] and "{" not in v:
            pools.setdefault(enum_key(section, key), set()).update(ELEMENT.findall(v[1:-1]))
    for i, section, key, prefix, value, comment in lines:
        where = f"{section}.{key}" if section else key
        edit = lambda new_value: replaced(text, i, prefix + new_value + comment)
        if is_rules(section):
            for a, b in numbers_in(value):
                old = value[a:b]
                u = unit_of(int(old)) if re.fullmatch(r"\d+", old) else None
                for new in [int(old) - u, int(old) + u] if u else []:
                    if new > 0:
                        found.append((i + 1, f"{where} {old} -> {new}", edit(value[:a] + str(new) + value[b:])))
        v = value.strip()
        if v.startswith("[") and v.endswith("]") and "[" not in v[1:-1] and "{" not in v:
            elements = ELEMENT.findall(v[1:-1])
            listed = lambda e: "[" + ", ".join(e) + "]"
            for k in range(len(elements)) if len(elements) > 1 else []:
                found.append((i + 1, f"{where}: {elements[k]} dropped", edit(listed(elements[:k] + elements[k + 1 :]))))
            if elements and elements[0].startswith('"'):
                # A list of names is a set: another name in an element's place, or added.
                other = sorted(pools[enum_key(section, key)] - set(elements))
                if other:
                    found.append((i + 1, f"{where}: {elements[-1]} -> {other[0]}", edit(listed(elements[:-1] + [other[0]]))))
                    found.append((i + 1, f"{where}: {other[0]} added", edit(listed(elements + [other[0]]))))
            else:
                # A list of amounts is in order (1st, 2nd, 3rd): two swapped.
                pair = next(((k, k + 1) for k in range(len(elements) - 1) if elements[k] != elements[k + 1]), None)
                if pair:
                    e = list(elements)
                    e[pair[0]], e[pair[1]] = e[pair[1]], e[pair[0]]
                    found.append((i + 1, f"{where}: {e[pair[1]]} and {e[pair[0]]} swapped", edit(listed(e))))
        m = STRING.match(v)
        values = sorted(enums.get(enum_key(section, key), ()))
        if m and m.group(1) in values and 2 <= len(values) <= 6:
            new = values[(values.index(m.group(1)) + 1) % len(values)]
            found.append((i + 1, f"{where} {m.group(1)!r} -> {new!r}", edit(f'"{new}"')))
    return found


def declared(project, game):
    """(fact, file, from, to) of tests/rule_facts/<game>.toml."""
    path = project / "tests" / "rule_facts" / f"{game}.toml"
    if not path.exists():
        return []
    facts = tomllib.loads(path.read_text())["fact"]
    return [(f["rule"], f["file"], e[0], e[1]) for f in facts for e in f["edits"]]


def scratch_copy(project, game, into):
    for part in [f"data/{game}", f"templates/{game}", "templates/common", "profiles"]:
        if (project / part).exists():
            shutil.copytree(project / part, into / part)


class Checker:
    """Runs check on edited copies of one game, a scratch copy per worker."""

    def __init__(self, cardstock, project, game, jobs, tmp):
        self.cardstock, self.game = cardstock, game
        self.free = []
        for k in range(jobs):
            d = Path(tmp) / f"w{k}"
            scratch_copy(project, game, d)
            self.free.append(d)

    def run(self, file, text):
        """check's exit status and stderr with data/<game>/<file> replaced by `text`."""
        d = self.free.pop()
        try:
            target = d / "data" / self.game / (file or "")
            original = target.read_text() if file else None
            if file:
                target.write_text(text)
            try:
                o = subprocess.run(
                    [self.cardstock, "check", "--project", str(d), self.game],
                    capture_output=True, text=True, timeout=300,
                )
            finally:
                if file:
                    target.write_text(original)
            return o.returncode, o.stderr
        finally:
            self.free.append(d)


def run_all(checker, pool, edits):
    """Exit status and stderr of check for every (file, text)."""
    return list(pool.map(lambda e: checker.run(e[0], e[1]), edits))


def game_report(a, project, game, pool):
    """The lines to print for one game, and whether something went wrong (2) or a
    declared fact was not guarded (1)."""
    out, status = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        checker = Checker(a.cardstock, project, game, a.jobs, tmp)
        code, err = checker.run(None, None)
        if code != 0:
            return [f"{game}: the unchanged data does not pass check (exit {code})\n{err}"], 2
        data = project / "data" / game
        files = {p.name: p.read_text() for p in sorted(data.glob("*.toml"))}
        # Rule facts.
        facts = declared(project, game)
        jobs, named, unguarded = [], [], {}
        for rule, file, old, new in facts:
            text = files.get(file)
            if text is None or text.count(old) != 1:
                unguarded.setdefault(rule, []).append(f"  {file} must hold {old!r} exactly once")
                status = 2
                continue
            jobs.append((file, text.replace(old, new, 1)))
            named.append((rule, file, old, new))
        results = run_all(checker, pool, jobs)
        for (rule, file, old, new), (code, err) in zip(named, results):
            if code != 1:
                unguarded.setdefault(rule, []).append(f"  {file}: {old!r} -> {new!r}" + (f" (check exited {code})" if code else ""))
                status = max(status, 1 if code == 0 else 2)
        n_facts = len({f[0] for f in facts})
        out.append(f"{game}: rule facts guarded: {n_facts - len(unguarded)} of {n_facts} ({len(jobs)} edits, {sum(1 for c, _ in results if c == 1)} refused)")
        for rule, lines in unguarded.items():
            out.append(f"  not guarded: {rule}")
            out.extend(lines)
        if a.facts_only:
            return out, status
        # ±1 and made-up edits.
        for name, made in [("±1 edits", lambda f, t: plus_minus_one(t) if f == "game.toml" else []), ("made-up edits", lambda f, t: made_up(t))]:
            edits = [(f, line, what, new) for f, t in files.items() for line, what, new in made(f, t)]
            results = run_all(checker, pool, [(f, new) for f, _, _, new in edits])
            caught = sum(1 for c, _ in results if c == 1)
            n = len(edits)
            out.append(f"{game}: {name}: {n}, {caught} refused by check ({100.0 * caught / n if n else 0:.0f} %)")
            for (f, line, what, _), (code, err) in zip(edits, results):
                if code == 0 and not a.quiet:
                    out.append(f"  {f}:{line}: {what}")
                elif code not in (0, 1):
                    out.append(f"  {f}:{line}: {what}: check exited {code}\n{err}")
                    status = 2
    return out, status


def main():
    here = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cardstock", default=str(here / "target/release/cardstock"))
    ap.add_argument("--project", default=str(here))
    ap.add_argument("--jobs", type=int, default=2, help="checks run at once (default 2)")
    ap.add_argument("--facts-only", action="store_true", help="only the declared rule facts")
    ap.add_argument("--quiet", action="store_true", help="no list of the made-up edits not refused")
    ap.add_argument("games", nargs="*")
    a = ap.parse_args()
    project = Path(a.project)
    games = a.games or sorted(p.name for p in (project / "data").iterdir() if (p / "game.toml").exists())
    status = 0
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for game in games:
            lines, s = game_report(a, project, game, pool)
            print("\n".join(lines), flush=True)
            status = max(status, s)
    sys.exit(status)


if __name__ == "__main__":
    main()
