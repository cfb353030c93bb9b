#!/usr/bin/env python3
"""Draw pieces at their real size on a board picture, to look at how they fit.

Takes the PNGs that `cardstock build --format png --dpi N` writes (board and pieces
at the same dpi, each with its bleed), cuts every piece to its trim (rounded or
round shapes are cut to that shape) and composes them on the board with
ImageMagick (`convert` must be installed):

    python3 scripts/place_pieces.py --dpi 150 \\
        --board output/interstate-trucking/home/png/board/001-front.png --board-bleed 3 \\
        --piece output/interstate-trucking/home/png/cabs/001-front.png:1.5:rect@135.2,377.4,33 \\
        --out /tmp/board-with-pieces.png [--crop X0,Y0,X1,Y1]

A piece is PNG:BLEED[:SHAPE]@X,Y,ANGLE: its centre X, Y in mm from the board's trim
corner, turned ANGLE degrees clockwise; SHAPE is rect (default) or round. A piece
may also be a group, `+`-joined left to right before turning
(cab.png:1.5+trailer.png:1.5@X,Y,ANGLE: a truck). `--crop` cuts the result to a
part of the board (mm). `--placements FILE` reads more pieces, one spec a line.
"""

import argparse
import os
import subprocess
import sys
import tempfile


def run(args):
    subprocess.run(args, check=True)


def trimmed(tmp, spec, dpi, n):
    """One piece (or a `+`-joined group) cut to its trim, as a PNG path."""
    parts = []
    for k, one in enumerate(spec.split("+")):
        bits = one.split(":")
        path, bleed = bits[0], float(bits[1]) if len(bits) > 1 else 0.0
        shape = bits[2] if len(bits) > 2 else "rect"
        px = round(bleed * dpi / 25.4)
        out = os.path.join(tmp, f"p{n}_{k}.png")
        run(["convert", path, "-shave", f"{px}x{px}", "+repage", out])
        if shape == "round":
            w, h = subprocess.run(["identify", "-format", "%w %h", out], capture_output=True, text=True, check=True).stdout.split()
            mask = os.path.join(tmp, f"m{n}_{k}.png")
            run(["convert", "-size", f"{w}x{h}", "xc:black", "-fill", "white", "-draw", f"circle {int(w)/2},{int(h)/2} {int(w)/2},0", mask])
            run(["convert", out, mask, "-alpha", "off", "-compose", "CopyOpacity", "-composite", out])
        parts.append(out)
    if len(parts) == 1:
        return parts[0]
    out = os.path.join(tmp, f"p{n}.png")
    run(["convert", *parts, "-background", "none", "-gravity", "center", "+append", out])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dpi", type=float, required=True)
    ap.add_argument("--board", required=True)
    ap.add_argument("--board-bleed", type=float, default=3.0)
    ap.add_argument("--piece", action="append", default=[])
    ap.add_argument("--placements")
    ap.add_argument("--crop")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    specs = list(a.piece)
    if a.placements:
        specs += [l.strip() for l in open(a.placements) if l.strip() and not l.startswith("#")]
    mm = a.dpi / 25.4
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["convert", a.board]
        for n, spec in enumerate(specs):
            what, _, where = spec.rpartition("@")
            x, y, angle = (float(v) for v in where.split(","))
            png = trimmed(tmp, what, a.dpi, n)
            turned = os.path.join(tmp, f"t{n}.png")
            run(["convert", png, "-background", "none", "-rotate", str(angle), turned])
            w, h = (int(v) for v in subprocess.run(["identify", "-format", "%w %h", turned], capture_output=True, text=True, check=True).stdout.split())
            cx, cy = (x + a.board_bleed) * mm, (y + a.board_bleed) * mm
            cmd += [turned, "-geometry", f"+{round(cx - w / 2)}+{round(cy - h / 2)}", "-composite"]
        if a.crop:
            x0, y0, x1, y1 = (float(v) for v in a.crop.split(","))
            cmd += ["-crop", f"{round((x1 - x0) * mm)}x{round((y1 - y0) * mm)}+{round((x0 + a.board_bleed) * mm)}+{round((y0 + a.board_bleed) * mm)}", "+repage"]
        cmd.append(a.out)
        run(cmd)
    print(a.out)


if __name__ == "__main__":
    sys.exit(main())
