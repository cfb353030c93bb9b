#!/usr/bin/env python3
"""Check that nothing drawn later covers an element marked `class="keep-visible"`.

A board template marks the elements players must always see (Interstate Trucking's
movement spaces) with `class="keep-visible"`. This script reads a rendered face
(`cardstock build --format svg`, e.g. output/<game>/home/svg/board/001-front.svg)
and reports every element drawn after a keep-visible one whose box overlaps it:
labels, shields, city dots, legend boxes. Until the engine's own preflight checks
this, run it by hand after changing a board:

    python3 scripts/keep_visible.py output/interstate-trucking/home/svg/board/001-front.svg \
        --min-distance 17.5

Geometry: circles, rects, lines, polygons and paths (their control points) and text
(advance widths read from the fonts in assets/fonts/, the box from 0.75 em above the
baseline to 0.25 em below it), under any `transform`. A keep-visible circle counts
as covered when a later element's box comes closer to its centre than its radius
(plus half its stroke). `--min-distance D` also reports keep-visible circles whose
centres are closer than D mm (two movement spaces too close for a truck between
them). `--margin M` widens every keep-visible circle by M mm.

Exit status: 0 when nothing is covered, 1 when something is, 2 on bad input.
"""

import argparse
import math
import re
import struct
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

SVG = "{http://www.w3.org/2000/svg}"
FONT_FILES = {
    ("lato", False): "Lato-Regular.ttf",
    ("lato", True): "Lato-Bold.ttf",
    ("bebas neue", False): "BebasNeue-Regular.otf",
    ("bebas neue", True): "BebasNeue-Regular.otf",
}


class Font:
    """Advance widths of a TrueType/OpenType font (cmap format 4 and hmtx only)."""

    def __init__(self, path):
        data = Path(path).read_bytes()
        num = struct.unpack(">H", data[4:6])[0]
        tables = {}
        for i in range(num):
            tag, _, off, length = struct.unpack(">4sIII", data[12 + 16 * i : 28 + 16 * i])
            tables[tag.decode()] = (off, length)
        head = tables["head"][0]
        self.upem = struct.unpack(">H", data[head + 18 : head + 20])[0]
        hhea = tables["hhea"][0]
        n_metrics = struct.unpack(">H", data[hhea + 34 : hhea + 36])[0]
        hmtx = tables["hmtx"][0]
        self.adv = [struct.unpack(">H", data[hmtx + 4 * i : hmtx + 4 * i + 2])[0] for i in range(n_metrics)]
        self.cmap = {}
        cmap = tables["cmap"][0]
        for i in range(struct.unpack(">H", data[cmap + 2 : cmap + 4])[0]):
            pid, eid, off = struct.unpack(">HHI", data[cmap + 4 + 8 * i : cmap + 12 + 8 * i])
            sub = cmap + off
            if pid == 3 and eid == 1 and struct.unpack(">H", data[sub : sub + 2])[0] == 4:
                self._format4(data, sub)
                break

    def _format4(self, data, sub):
        segs = struct.unpack(">H", data[sub + 6 : sub + 8])[0] // 2
        arr = lambda start, k: struct.unpack(">H", data[start + 2 * k : start + 2 * k + 2])[0]
        ends = sub + 14
        starts = ends + 2 * segs + 2
        deltas = starts + 2 * segs
        ranges = deltas + 2 * segs
        for k in range(segs):
            end, start = arr(ends, k), arr(starts, k)
            delta, rng = arr(deltas, k), arr(ranges, k)
            for c in range(start, min(end, 0xFFFE) + 1):
                if rng == 0:
                    g = (c + delta) & 0xFFFF
                else:
                    at = ranges + 2 * k + rng + 2 * (c - start)
                    g = arr(at, 0)
                    g = (g + delta) & 0xFFFF if g else 0
                self.cmap[c] = g

    def width(self, text, size):
        total = 0
        for ch in text:
            g = self.cmap.get(ord(ch), 0)
            total += self.adv[min(g, len(self.adv) - 1)]
        return total * size / self.upem


def parse_transform(s):
    """An SVG transform list as an affine matrix (a, b, c, d, e, f)."""
    m = (1, 0, 0, 1, 0, 0)
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", s or ""):
        v = [float(x) for x in re.split(r"[\s,]+", args.strip()) if x]
        if name == "translate":
            t = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0)
        elif name == "scale":
            t = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        elif name == "rotate":
            a = math.radians(v[0])
            cx, cy = (v[1], v[2]) if len(v) > 2 else (0, 0)
            ca, sa = math.cos(a), math.sin(a)
            t = (ca, sa, -sa, ca, cx - ca * cx + sa * cy, cy - sa * cx - ca * cy)
        elif name == "matrix":
            t = tuple(v)
        else:
            raise ValueError(f"unsupported transform {name}")
        m = compose(m, t)
    return m


def compose(m, t):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = t
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def apply(m, x, y):
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def path_points(d):
    """The end and control points of an SVG path (enough for a bounding box)."""
    pts = []
    tokens = re.findall(r"[MmLlHhVvCcSsQqTtAaZz]|-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?", d)
    i, cmd, x, y, sx, sy = 0, "M", 0.0, 0.0, 0.0, 0.0
    arity = {"M": 2, "L": 2, "T": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "A": 7, "Z": 0}
    while i < len(tokens):
        if re.match(r"[A-Za-z]", tokens[i]):
            cmd = tokens[i]
            i += 1
            if cmd in "Zz":
                x, y = sx, sy
                continue
        n = arity[cmd.upper()]
        v = [float(t) for t in tokens[i : i + n]]
        if len(v) < n:
            break
        i += n
        rel = cmd.islower()
        up = cmd.upper()
        if up == "H":
            x = x + v[0] if rel else v[0]
            pts.append((x, y))
        elif up == "V":
            y = y + v[0] if rel else v[0]
            pts.append((x, y))
        elif up == "A":
            x, y = (x + v[5], y + v[6]) if rel else (v[5], v[6])
            pts.append((x, y))
        else:
            for k in range(0, n, 2):
                px, py = (x + v[k], y + v[k + 1]) if rel else (v[k], v[k + 1])
                pts.append((px, py))
            x, y = pts[-1]
        if up == "M":
            sx, sy = x, y
            cmd = "l" if rel else "L"
    return pts


def style(el, name, inherited):
    v = el.get(name)
    if v is None:
        m = re.search(rf"(?:^|;)\s*{name}\s*:\s*([^;]+)", el.get("style", ""))
        v = m.group(1).strip() if m else None
    return v if v is not None else inherited.get(name)


def walk(el, m, inherited, out, fonts):
    tag = el.tag.replace(SVG, "")
    m = compose(m, parse_transform(el.get("transform")))
    inh = dict(inherited)
    for k in ("font-family", "font-size", "font-weight", "text-anchor", "stroke-width", "stroke"):
        v = style(el, k, inherited)
        if v is not None:
            inh[k] = v
    if tag in ("defs", "clipPath", "mask", "title", "desc", "metadata", "style"):
        return
    local = []
    sw = float(inh.get("stroke-width", 1)) if inh.get("stroke", "none") != "none" else 0.0
    if tag == "circle":
        cx, cy, r = (float(el.get(k, 0)) for k in ("cx", "cy", "r"))
        r += sw / 2
        local = [(cx - r, cy - r), (cx + r, cy + r), (cx - r, cy + r), (cx + r, cy - r)]
    elif tag == "ellipse":
        cx, cy, rx, ry = (float(el.get(k, 0)) for k in ("cx", "cy", "rx", "ry"))
        local = [(cx - rx, cy - ry), (cx + rx, cy + ry), (cx - rx, cy + ry), (cx + rx, cy - ry)]
    elif tag == "rect":
        x, y, w, h = (float(el.get(k, 0)) for k in ("x", "y", "width", "height"))
        local = [(x - sw / 2, y - sw / 2), (x + w + sw / 2, y + h + sw / 2), (x - sw / 2, y + h + sw / 2), (x + w + sw / 2, y - sw / 2)]
    elif tag == "line":
        local = [(float(el.get("x1", 0)), float(el.get("y1", 0))), (float(el.get("x2", 0)), float(el.get("y2", 0)))]
    elif tag in ("polygon", "polyline"):
        v = [float(t) for t in re.split(r"[\s,]+", el.get("points", "").strip()) if t]
        local = list(zip(v[0::2], v[1::2]))
    elif tag == "path":
        local = path_points(el.get("d", ""))
        if sw:
            local = [(x + dx, y + dy) for x, y in local for dx, dy in ((-sw / 2, -sw / 2), (sw / 2, sw / 2))]
    elif tag == "text":
        size = float(inh.get("font-size", 16))
        family = inh.get("font-family", "Lato").split(",")[0].strip("'\" ").lower()
        bold = inh.get("font-weight", "400") in ("bold", "700", "800", "900")
        font = fonts.get((family, bold))
        runs = [(el, "".join(el.itertext()))]
        spans = [c for c in el if c.tag.replace(SVG, "") == "tspan"]
        if spans:
            runs = [(s, "".join(s.itertext())) for s in spans]
        for node, txt in runs:
            x = float(node.get("x", el.get("x", 0)))
            y = float(node.get("y", el.get("y", 0)))
            w = font.width(txt, size) if font else 0.55 * size * len(txt)
            anchor = inh.get("text-anchor", "start")
            x0 = x - (w / 2 if anchor == "middle" else w if anchor == "end" else 0)
            local += [(x0 - sw / 2, y - 0.75 * size), (x0 + w + sw / 2, y + 0.25 * size)]
            local += [(x0 - sw / 2, y + 0.25 * size), (x0 + w + sw / 2, y - 0.75 * size)]
        spans = []
    if local:
        pts = [apply(m, x, y) for x, y in local]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        box = (min(xs), min(ys), max(xs), max(ys))
        keep = "keep-visible" in (el.get("class") or "").split()
        circle = None
        if keep and tag == "circle":
            cx, cy = apply(m, float(el.get("cx", 0)), float(el.get("cy", 0)))
            r = float(el.get("r", 0)) * math.sqrt(abs(m[0] * m[3] - m[1] * m[2])) + sw / 2
            circle = (cx, cy, r)
        label = describe(el, tag)
        out.append({"box": box, "keep": keep, "circle": circle, "label": label})
    if tag != "text":
        for child in el:
            walk(child, m, inh, out, fonts)


def describe(el, tag):
    if tag == "text":
        return f'text "{"".join(el.itertext()).strip()}"'
    attrs = " ".join(f'{k}="{el.get(k)}"' for k in ("x", "y", "cx", "cy", "d", "transform") if el.get(k))
    return f"<{tag} {attrs[:70]}>"


def box_circle_gap(box, c):
    """Distance from the circle's centre to the box, minus the radius (< 0: overlap)."""
    x0, y0, x1, y1 = box
    cx, cy, r = c
    dx = max(x0 - cx, 0, cx - x1)
    dy = max(y0 - cy, 0, cy - y1)
    return math.hypot(dx, dy) - r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("svg", nargs="+")
    ap.add_argument("--fonts", default=str(Path(__file__).resolve().parent.parent / "assets/fonts"))
    ap.add_argument("--min-distance", type=float, default=None)
    ap.add_argument("--margin", type=float, default=0.0)
    args = ap.parse_args()
    fonts = {}
    for key, name in FONT_FILES.items():
        p = Path(args.fonts) / name
        if p.exists():
            fonts[key] = Font(p)
    problems = 0
    for path in args.svg:
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as e:
            print(f"{path}: cannot read: {e}", file=sys.stderr)
            sys.exit(2)
        items = []
        walk(root, (1, 0, 0, 1, 0, 0), {}, items, fonts)
        keeps = [(i, it) for i, it in enumerate(items) if it["keep"]]
        for i, k in keeps:
            c = k["circle"] or ((k["box"][0] + k["box"][2]) / 2, (k["box"][1] + k["box"][3]) / 2, 0)
            c = (c[0], c[1], c[2] + args.margin)
            for later in items[i + 1 :]:
                gap = box_circle_gap(later["box"], c)
                if gap < 0:
                    problems += 1
                    print(f"{path}: {later['label']} covers the keep-visible circle at ({c[0]:.1f}, {c[1]:.1f}) by {-gap:.2f} mm")
        if args.min_distance is not None:
            circles = [k["circle"] for _, k in keeps if k["circle"]]
            for a in range(len(circles)):
                for b in range(a + 1, len(circles)):
                    d = math.dist(circles[a][:2], circles[b][:2])
                    if d < args.min_distance - 1e-6:
                        problems += 1
                        print(f"{path}: keep-visible circles at ({circles[a][0]:.1f}, {circles[a][1]:.1f}) and ({circles[b][0]:.1f}, {circles[b][1]:.1f}) are {d:.2f} mm apart, less than {args.min_distance}")
        print(f"{path}: {len(keeps)} keep-visible elements, {len(items)} elements checked")
    print(f"{problems} problem(s)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
