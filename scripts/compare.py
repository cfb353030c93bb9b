#!/usr/bin/env python3
"""Side-by-side timings for docs/performance.md's tables, in one run.

Runs `cardstock bench` (every game by stage, the longest rulebook typeset with its
body three times, the 88-card benchmark deck, kept with `--keep-deck`), then times, on
the same SVG faces and interleaved so that a busy machine hurts every tool alike:

- `cardstock build` of the deck (one process per build, wall time);
- typst compiling the same faces 3x3 on Letter (PyPI `typst`; first compile in a
  fresh process, and warm in one process), if `import typst` works;
- the 89 faces as PNG at 300 dpi: cardstock (cold, no PNG cache) against the
  resvg CLI one file at a time and two at a time, if `resvg` is on PATH (or given);
- `cardstock watch`: from saving one card's SVG to the new PDF on disk;
- peak memory of the deck build, PDF only and PDF + PNG;
- typst writing the same 89 faces as PNGs at 300 ppi (one page a face), against
  cardstock's PNGs;
- every game in `data/` built at once (wall time, CPU time, peak memory), Truck
  Off's PDF sizes, and Truck Off's peak memory with `--copies 40 / 200 / 1000`
  (PDF) and `--copies 40 / 200 / 600` (every sheet as SVG and PNG): memory flat in
  the faces;
- `cardstock reprint` of Interstate Trucking (the game whose build takes longest)
  after a change every part shows (the worst case), against its full build, in a
  scratch copy of the project.

Each target of the "Performance" section is printed as a ratio or a figure at the
end, with the target beside it.

Usage: python3 scripts/compare.py [--runs 15] [--resvg PATH] [--dir DIR]
(after `cargo build --release`). Nothing here is a dependency of cardstock.
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONTS = os.path.join(ROOT, "assets", "fonts")


def wall(cmd, **kw):
    """Wall time of one command, in ms."""
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
    return (time.perf_counter() - start) * 1000


def spread(xs):
    xs = sorted(xs)
    return f"median {statistics.median(xs):.0f} ms (best {xs[0]:.0f}, worst {xs[-1]:.0f}, {len(xs)} runs)"


def typst_source(deck):
    """The deck as typst: fronts 3x3 on Letter, each followed by a page of backs."""
    art = sorted(f for f in os.listdir(os.path.join(deck, "data", "deck", "art")) if f.endswith("-front.svg"))
    back = "data/deck/art/001-back.svg"
    pages = []
    for i in range(0, len(art), 9):
        chunk = art[i : i + 9]
        for files in (["data/deck/art/" + f for f in chunk], [back] * len(chunk)):
            cells = ", ".join(f'image("{f}", width: 2.5in, height: 3.5in, fit: "cover")' for f in files)
            pages.append(f"#place(dx: 0.5in, dy: 0.25in, grid(columns: 3, rows: 3, gutter: 0pt, {cells}))")
    return '#set page(width: 8.5in, height: 11in, margin: 0pt)\n#set text(font: "Lato")\n' + "\n#pagebreak()\n".join(pages) + "\n"


TYPST_COLD = """
import sys, time, typst
t = time.perf_counter()
typst.compile(sys.argv[1], output=sys.argv[2], root=sys.argv[3], font_paths=[sys.argv[4]])
print((time.perf_counter() - t) * 1000)
"""


def typst_warm(typ, out, deck, runs=5):
    import typst

    compiler = typst.Compiler(typ, root=deck, font_paths=[FONTS])
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        compiler.compile(output=out)
        times.append((time.perf_counter() - t) * 1000)
    return times


def edit_to_pdf(cardstock, deck, runs=8):
    """Saves one card's SVG while `watch` runs; time until the new PDF is on disk."""
    art = os.path.join(deck, "data", "deck", "art", "005-front.svg")
    pdf = os.path.join(deck, "output", "deck", "home", "deck.pdf")
    original = open(art).read()
    proc = subprocess.Popen(
        [cardstock, "watch", "--max-builds", str(runs + 1)],
        cwd=deck,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    times = []
    try:
        deadline = time.time() + 30
        while not os.path.exists(pdf) and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)
        for i in range(runs):
            before = os.stat(pdf).st_mtime_ns
            start = time.perf_counter()
            with open(art, "w") as f:
                f.write(re.sub(r"costs [0-9]+", f"costs {i + 10}", original, count=1))
            while os.stat(pdf).st_mtime_ns == before and time.perf_counter() - start < 5:
                time.sleep(0.0005)
            times.append((time.perf_counter() - start) * 1000)
            time.sleep(0.4)
    finally:
        with open(art, "w") as f:
            f.write(original)
        proc.wait(timeout=30)
    return times


TYPST_PNG = """
import sys, time, typst
t = time.perf_counter()
typst.compile(sys.argv[1], output=sys.argv[2], root=sys.argv[3], font_paths=[sys.argv[4]], format="png", ppi=300)
print((time.perf_counter() - t) * 1000)
"""


def typst_cards_source(deck):
    """Every face on its own page of exactly its size: typst's PNG export writes one
    PNG a page, so this is the same job as cardstock's one PNG a face."""
    art = sorted(f for f in os.listdir(os.path.join(deck, "data", "deck", "art")) if f.endswith(".svg"))
    pages = [f'#image("data/deck/art/{f}", width: 2.5in, height: 3.5in, fit: "cover")' for f in art]
    return "#set page(width: 2.5in, height: 3.5in, margin: 0pt)\n" + "\n#pagebreak()\n".join(pages) + "\n"


def cpu_wall(cmd, cwd):
    """CPU seconds (user + system) and wall seconds of one command."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"{' '.join(cmd)} failed in {cwd}")
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - start


def reprint_vs_build(cs, scratch, runs):
    """Median CPU and wall of `reprint` and `build` of Interstate Trucking, run in
    turn, after a change to the face template every part is drawn in."""
    shutil.rmtree(scratch, ignore_errors=True)
    for folder in ("assets", "data", "profiles", "templates"):
        shutil.copytree(os.path.join(ROOT, folder), os.path.join(scratch, folder))
    game = "interstate-trucking"
    subprocess.run([cs, "printed", game, "--note", "compare.py"], cwd=scratch, check=True, capture_output=True)
    face = os.path.join(scratch, "templates", "common", "face.svg")
    with open(face) as f:
        text = f.read()
    with open(face, "w") as f:
        f.write(text.replace("</svg>", '<rect width="1" height="1" fill="#123456"/></svg>', 1))
    reprint, build = [], []
    for _ in range(runs):
        reprint.append(cpu_wall([cs, "reprint", game], scratch))
        build.append(cpu_wall([cs, "build", game], scratch))
    med = statistics.median
    r_cpu, r_wall = med(c for c, _ in reprint), med(w for _, w in reprint)
    b_cpu, b_wall = med(c for c, _ in build), med(w for _, w in build)
    return r_cpu, r_wall, b_cpu, b_wall


def peak_kb(cmd, cwd):
    out = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, cwd=cwd, capture_output=True, text=True, check=True)
    return int(out.stderr.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--resvg", default=shutil.which("resvg"))
    ap.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "cardstock-deck"))
    ap.add_argument("--cardstock", default=os.path.join(ROOT, "target", "release", "cardstock"))
    a = ap.parse_args()
    cs, deck = a.cardstock, a.dir
    shutil.rmtree(deck, ignore_errors=True)
    print(f"machine: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at start\n")
    bench = subprocess.run([cs, "bench", "--runs", str(a.runs), "--keep-deck", deck], cwd=ROOT, capture_output=True, text=True, check=True)
    print(bench.stdout + bench.stderr)

    rows = []
    typ = os.path.join(deck, "deck.typ")
    with open(typ, "w") as f:
        f.write(typst_source(deck))
    try:
        import typst  # noqa: F401

        have_typst = True
    except ImportError:
        have_typst = False
        print("typst (PyPI) not installed: skipped")
    ours, theirs = [], []
    for _ in range(a.runs):
        ours.append(wall([cs, "build"], cwd=deck))
        if have_typst:
            out = subprocess.run(
                [sys.executable, "-c", TYPST_COLD, typ, os.path.join(deck, "deck-typst.pdf"), deck, FONTS],
                capture_output=True, text=True, check=True,
            )
            theirs.append(float(out.stdout.strip()))
    rows.append(("cardstock build, 88-card deck PDF (whole process)", spread(ours)))
    if have_typst:
        rows.append(("typst, same faces 3x3, first compile in a fresh process", spread(theirs)))
        rows.append(("typst, warm (same process, nothing changed)", spread(typst_warm(typ, os.path.join(deck, "deck-typst.pdf"), deck))))

    shutil.rmtree(os.path.join(deck, "output"), ignore_errors=True)
    rows.append(("cardstock, 89 PNGs at 300 dpi, no PNG cache", f"{wall([cs, 'build', '--format', 'png', '--dpi', '300'], cwd=deck):.0f} ms"))
    rows.append(("cardstock, the same PNGs again (from the cache)", f"{wall([cs, 'build', '--format', 'png', '--dpi', '300'], cwd=deck):.0f} ms"))
    if a.resvg:
        svgs = sorted(os.path.join(deck, "data", "deck", "art", f) for f in os.listdir(os.path.join(deck, "data", "deck", "art")))
        out = os.path.join(deck, "resvg-png")
        os.makedirs(out, exist_ok=True)
        args = lambda s: [a.resvg, "--dpi", "300", "--skip-system-fonts", "--use-fonts-dir", FONTS, s, os.path.join(out, os.path.basename(s) + ".png")]
        start = time.perf_counter()
        for s in svgs:
            subprocess.run(args(s), check=True)
        rows.append(("resvg CLI, the same 89 SVGs at 300 dpi, one at a time", f"{(time.perf_counter() - start) * 1000:.0f} ms"))
        start = time.perf_counter()
        procs = []
        for s in svgs:
            procs.append(subprocess.Popen(args(s)))
            if len(procs) == 2:
                procs.pop(0).wait()
        for p in procs:
            p.wait()
        rows.append(("resvg CLI, two at a time", f"{(time.perf_counter() - start) * 1000:.0f} ms"))
    else:
        print("resvg CLI not found (--resvg PATH): skipped")

    edits = edit_to_pdf(cs, deck)
    rows.append(("cardstock watch: save one card's SVG -> new PDF on disk", spread(edits)))
    shutil.rmtree(os.path.join(deck, "output"), ignore_errors=True)
    rows.append(("peak memory, deck build (PDF)", f"{peak_kb([cs, 'build'], deck) / 1024:.0f} MB"))
    shutil.rmtree(os.path.join(deck, "output"), ignore_errors=True)
    rows.append(("peak memory, deck build (PDF + 89 PNGs at 300 dpi)", f"{peak_kb([cs, 'build', '--format', 'pdf,png'], deck) / 1024:.0f} MB"))

    targets = []
    med = statistics.median
    if have_typst:
        targets.append(("imposed deck PDF, cardstock / typst (fresh process)", f"{med(ours) / med(theirs):.2f}", "at most 0.5"))
        cards = os.path.join(deck, "cards.typ")
        with open(cards, "w") as f:
            f.write(typst_cards_source(deck))
        png_ours, png_theirs = [], []
        for _ in range(max(3, a.runs // 5)):
            shutil.rmtree(os.path.join(deck, "output"), ignore_errors=True)
            png_ours.append(wall([cs, "build", "--format", "png", "--dpi", "300"], cwd=deck))
            pngdir = os.path.join(deck, "typst-png")
            shutil.rmtree(pngdir, ignore_errors=True)
            os.makedirs(pngdir)
            out = subprocess.run(
                [sys.executable, "-c", TYPST_PNG, cards, os.path.join(pngdir, "{p}.png"), deck, FONTS],
                capture_output=True, text=True, check=True,
            )
            png_theirs.append(float(out.stdout.strip()))
        rows.append(("cardstock, 89 PNGs at 300 dpi, no PNG cache (whole process)", spread(png_ours)))
        rows.append(("typst, the same 89 faces as PNGs at 300 ppi (compile + export)", spread(png_theirs)))
        targets.append(("89 PNGs at 300 dpi, cardstock / typst", f"{med(png_ours) / med(png_theirs):.2f}", "at most 0.3"))

    # Every game in data/, built at once from the project (into a scratch folder).
    games_out = os.path.join(deck, "games-out")
    build_all = [cs, "build", "--project", ROOT, "--out", games_out]
    times, cpus, peaks = [], [], []
    for _ in range(max(3, a.runs // 3)):
        shutil.rmtree(games_out, ignore_errors=True)
        start = time.perf_counter()
        peaks.append(peak_kb(build_all, ROOT))
        times.append((time.perf_counter() - start) * 1000)
        shutil.rmtree(games_out, ignore_errors=True)
        cpus.append(cpu_wall(build_all, ROOT)[0])
    rows.append(("every game in data/ (cardstock build, whole process)", spread(times) + f"; CPU {med(cpus):.2f} s; peak {max(peaks) / 1024:.0f} MB"))
    targets.append(("every game in data/, wall", f"{med(times) / 1000:.2f} s", "at most 0.3 s"))
    targets.append(("every game in data/, CPU", f"{med(cpus):.2f} s", "at most 0.5 s"))
    targets.append(("every game in data/, peak memory", f"{max(peaks) / 1024:.0f} MB", "at most 64 MB"))
    r_cpu, r_wall, b_cpu, b_wall = reprint_vs_build(cs, os.path.join(deck, "reprint"), max(3, a.runs // 3))
    rows.append((
        "Interstate Trucking: reprint of every part (a change to the face template) / its full build, whole process",
        f"CPU {r_cpu:.2f} / {b_cpu:.2f} s, wall {r_wall:.2f} / {b_wall:.2f} s",
    ))
    targets.append(("reprint / full build of Interstate Trucking, every part changed, CPU", f"{r_cpu / b_cpu:.2f}", "at most 1"))
    pdfs = os.path.join(games_out, "truck-off", "home")
    for name in ("truck-off.pdf", "truck-off-pad-pad-size.pdf"):
        targets.append((f"Truck Off {name}", f"{os.path.getsize(os.path.join(pdfs, name)) / 1000:.0f} KB", "at most 400 KB"))
    def copies_peaks(counts, *args):
        peaks = []
        for n in counts:
            shutil.rmtree(games_out, ignore_errors=True)
            build = [cs, "build", "truck-off", "--copies", str(n), *args, "--project", ROOT, "--out", games_out]
            peaks.append(f"{peak_kb(build, ROOT) / 1024:.0f}")
        return " / ".join(peaks) + " MB"
    targets.append(("Truck Off peak memory, PDF, --copies 40 / 200 / 1000", copies_peaks((40, 200, 1000)), "flat"))
    targets.append((
        "Truck Off peak memory, each sheet as SVG and PNG (100 dpi), --copies 40 / 200 / 600",
        copies_peaks((40, 200, 600), "--format", "svg,png", "--dpi", "100"),
        "flat",
    ))
    targets.append(("watch: save -> PDF on the deck, median", f"{med(edits):.0f} ms", "under 50 ms"))
    long_book = re.search(r"long rulebook +(\d+) pages typeset in ([\d.]+) ms", bench.stdout)
    if long_book:
        targets.append(("the longest rulebook, body three times, typeset", f"{long_book[1]} pages in {long_book[2]} ms", "16 pages in at most 60 ms"))

    print("| what | measured |\n| --- | --- |")
    for what, figure in rows:
        print(f"| {what} | {figure} |")
    print("\n| target | measured | wanted |\n| --- | --- | --- |")
    for what, figure, wanted in targets:
        print(f"| {what} | {figure} | {wanted} |")


if __name__ == "__main__":
    main()
