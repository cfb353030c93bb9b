//! What drawing a face will cost, estimated from its parsed tree before anything
//! is rasterised. A few bytes of SVG can ask for minutes of work or gigabytes of
//! pixels: an `feTurbulence` of a thousand octaves, an `feMorphology` whose
//! window is the whole face, a 100 x 100 `feConvolveMatrix`, a pattern tile of a
//! square metre, layers (opacity, masks, clips, filters) nested hundreds deep, each
//! as large as the face. The renderers (resvg for PNGs, krilla for the filters of
//! PDFs) do that work without a bound, so the estimate must stop such a face with
//! an error naming the element, as cheaply as `check` runs.
//!
//! Work is counted in pixel operations at 300 dpi (about 10 ns each): each pixel of
//! a layer or a filter primitive's region is one, times the primitive's own work
//! per pixel (an `feTurbulence` octave 16, each cell of an `feMorphology` window or
//! an `feConvolveMatrix` one). Memory is the pixels held at once: every layer open
//! around an element and every result of a filter, four bytes each. Regions are
//! clipped as resvg clips them (five times the canvas each way).

use std::collections::HashMap;

use usvg::filter::Kind;
use usvg::{Group, Node, Paint};

/// Pixel operations one face may take to draw at 300 dpi (about 20 s on one
/// core). A drop shadow on a poker card takes about 8 million, four octaves of
/// `feTurbulence` over an A4 board about 560 million.
pub const MAX_DRAW_WORK: u64 = 2_000_000_000;

/// Bytes of pixels one face may hold at once while it is drawn at 300 dpi.
pub const MAX_DRAW_MEMORY: u64 = 1 << 30;

/// The resolution the cost is counted at.
const DPI: f32 = 300.0;

/// What makes a face too costly to draw: the element that costs the most.
#[derive(Debug, Clone, PartialEq)]
pub struct Costly {
    /// The whole face's work, or the most bytes held at once.
    pub total: u64,
    /// Whether `total` is memory (bytes) rather than work.
    pub memory: bool,
    /// The element that costs the most: `filter`, `pattern`, `gradient` or `layer`.
    pub element: &'static str,
    /// Its `id` (empty when it has none).
    pub id: String,
    /// What in it costs the most, for the message (`feTurbulence with numOctaves=1000`).
    pub what: String,
    /// Its part of `total`.
    pub share: u64,
}

impl Costly {
    /// A one-line description and a hint.
    pub fn describe(&self) -> (String, String) {
        let element = match (self.element, self.id.as_str()) {
            ("", _) => "the face".to_string(),
            (e, "") => format!("a {e}"),
            (e, id) => format!("{e} `{id}`"),
        };
        let (message, hint) = if self.memory {
            (
                format!(
                    "drawing this face would hold {} MB of pixels at once at 300 dpi, over the limit of {} MB: {element} ({}) holds {} MB",
                    self.total >> 20,
                    MAX_DRAW_MEMORY >> 20,
                    self.what,
                    self.share >> 20
                ),
                "give the filter or pattern a smaller region, use fewer filter primitives, or nest fewer groups with opacity, masks, clip paths or filters",
            )
        } else {
            (
                format!(
                    "drawing this face would take about {} million pixel operations at 300 dpi, over the limit of {} million: {element} ({}) takes {} million",
                    self.total / 1_000_000,
                    MAX_DRAW_WORK / 1_000_000,
                    self.what,
                    self.share / 1_000_000
                ),
                "lower numOctaves (4 is plenty for a paper grain), the radius of feMorphology or the order of feConvolveMatrix, give the filter a smaller region (x, y, width, height), or use a gradient with fewer stops",
            )
        };
        (message, hint.to_string())
    }
}

/// Checks the cost of drawing `tree` (a face whose canvas is `tree.size()` in
/// CSS pixels).
pub fn check(tree: &usvg::Tree) -> Result<(), Costly> {
    let size = tree.size();
    let scale = DPI / 96.0;
    let (w, h) = (size.width() * scale, size.height() * scale);
    let mut walk = Walk {
        scale,
        bounds: usvg::Rect::from_xywh(-2.0 * w, -2.0 * h, 5.0 * w, 5.0 * h),
        work: 0,
        heaviest: None,
        peak: 0,
        peak_at: None,
        patterns: HashMap::new(),
    };
    walk.group(tree.root(), 0);
    let over_memory = walk.peak > MAX_DRAW_MEMORY;
    let over_work = walk.work > MAX_DRAW_WORK;
    let blame = |at: Option<Blame>, total, memory| {
        let at = at.unwrap_or_default();
        Costly {
            total,
            memory,
            element: at.element,
            id: at.id,
            what: at.what,
            share: at.share,
        }
    };
    if over_memory {
        return Err(blame(walk.peak_at, walk.peak, true));
    }
    if over_work {
        return Err(blame(walk.heaviest, walk.work, false));
    }
    Ok(())
}

/// The element a cost is blamed on.
#[derive(Debug, Clone, Default)]
struct Blame {
    element: &'static str,
    id: String,
    what: String,
    share: u64,
}

struct Walk {
    /// Device pixels (at [`DPI`]) per CSS pixel.
    scale: f32,
    /// What resvg clips a layer to, in device pixels.
    bounds: Option<usvg::Rect>,
    work: u64,
    heaviest: Option<Blame>,
    /// The most bytes held at once, and where.
    peak: u64,
    peak_at: Option<Blame>,
    /// Work of each pattern's tile (by address: a pattern is shared).
    patterns: HashMap<*const usvg::Pattern, u64>,
}

impl Walk {
    /// Pixels at [`DPI`] of `rect` (CSS pixels of the canvas), clipped as resvg
    /// clips layers.
    fn pixels(&self, rect: usvg::Rect) -> u64 {
        let s = self.scale;
        let Some(r) = usvg::Rect::from_ltrb(
            rect.left() * s,
            rect.top() * s,
            rect.right() * s,
            rect.bottom() * s,
        ) else {
            return 0;
        };
        let r = match self.bounds {
            Some(b) => match r.intersect(&b) {
                Some(r) => r,
                None => return 0,
            },
            None => r,
        };
        (r.width().ceil() as u64).saturating_mul(r.height().ceil() as u64)
    }

    /// Charges `work` to the element `blame`, keeping the heaviest.
    fn charge(&mut self, work: u64, blame: Blame) {
        self.work = self.work.saturating_add(work);
        if self.heaviest.as_ref().is_none_or(|b| work > b.share) {
            self.heaviest = Some(Blame {
                share: work,
                ..blame
            });
        }
    }

    /// Notes `bytes` held at once, because of `blame`.
    fn hold(&mut self, bytes: u64, blame: impl FnOnce() -> Blame) {
        if bytes > self.peak {
            self.peak = bytes;
            self.peak_at = Some(Blame {
                share: bytes,
                ..blame()
            });
        }
    }

    /// Walks `g` with `held` bytes of layers open around it; returns nothing, notes
    /// the work and the most bytes held.
    fn group(&mut self, g: &Group, held: u64) {
        let mut held = held;
        if g.should_isolate() {
            let px = self.pixels(g.abs_layer_bounding_box().to_rect());
            held = held.saturating_add(px.saturating_mul(4));
            let layer = || Blame {
                element: "layer",
                id: g.id().to_string(),
                what: "a group with opacity, a mask, a clip path or a filter".into(),
                share: 0,
            };
            self.charge(px, layer());
            self.hold(held, layer);
            for f in g.filters() {
                self.filter(f, g, held);
            }
            if let Some(mask) = g.mask() {
                self.group(mask.root(), held);
            }
            if let Some(clip) = g.clip_path() {
                self.group(clip.root(), held);
            }
        }
        for child in g.children() {
            match child {
                Node::Group(c) => self.group(c, held),
                Node::Text(t) => self.group(t.flattened(), held),
                Node::Path(p) => {
                    let paints = [p.fill().map(|f| f.paint()), p.stroke().map(|s| s.paint())];
                    for paint in paints.into_iter().flatten() {
                        match paint {
                            Paint::Pattern(pattern) => {
                                self.pattern(pattern, p.abs_transform(), held)
                            }
                            Paint::LinearGradient(g) => self.gradient(g, p),
                            Paint::RadialGradient(g) => self.gradient(g, p),
                            Paint::Color(_) => {}
                        }
                    }
                }
                // An SVG picture is drawn where it is placed, at that scale.
                Node::Image(i) => {
                    if let usvg::ImageKind::SVG(tree) = i.kind() {
                        self.group(tree.root(), held);
                    }
                }
            }
        }
    }

    /// A gradient painting the path `p`: for each pixel, tiny-skia looks for its
    /// place among the stops one stop after the other (about a sixteenth of a
    /// pixel operation each), so 30,000 stops on a poker card took 19 s.
    fn gradient(&mut self, g: &usvg::BaseGradient, p: &usvg::Path) {
        let stops = g.stops().len() as u64;
        if stops <= 2 {
            return;
        }
        let px = self.pixels(p.abs_bounding_box());
        let work = px.saturating_mul(stops) / 16;
        self.charge(
            work,
            Blame {
                element: "gradient",
                // usvg gives each gradient a new id (one per path it paints).
                id: String::new(),
                what: format!("{stops} stops over {px} pixels"),
                share: 0,
            },
        );
    }

    /// A pattern drawn at `ts`: its tile is rasterised for every path it fills.
    fn pattern(&mut self, pattern: &std::sync::Arc<usvg::Pattern>, ts: usvg::Transform, held: u64) {
        let (sx, sy) = ts.pre_concat(pattern.transform()).get_scale();
        let r = pattern.rect();
        let s = self.scale;
        let px = ((r.width() * sx * s).ceil() as u64)
            .saturating_mul((r.height() * sy * s).ceil() as u64);
        let blame = || Blame {
            element: "pattern",
            id: pattern.id().to_string(),
            what: format!("a tile of {px} pixels"),
            share: 0,
        };
        self.hold(held.saturating_add(px.saturating_mul(4)), blame);
        let key = std::sync::Arc::as_ptr(pattern);
        let inner = match self.patterns.get(&key) {
            Some(w) => *w,
            None => {
                // What the tile's content costs, counted once per pattern.
                let before = self.work;
                self.patterns.insert(key, 0);
                self.group(pattern.root(), held.saturating_add(px.saturating_mul(4)));
                let w = self.work - before;
                self.work = before;
                self.patterns.insert(key, w);
                w
            }
        };
        self.charge(px.saturating_add(inner), blame());
    }

    /// A filter on the group `g`, whose layer holds `held` bytes with those around it.
    fn filter(&mut self, f: &usvg::filter::Filter, g: &Group, held: u64) {
        let ts = g.abs_transform();
        let Some(region) = f.rect().transform(ts) else {
            return;
        };
        let px = self.pixels(region.to_rect());
        let (sx, sy) = ts.get_scale();
        let s = self.scale;
        let mut work: u64 = 0;
        let mut worst = (0u64, String::new());
        for p in f.primitives() {
            let (per_pixel, what) = match p.kind() {
                Kind::Turbulence(t) => (
                    16u64.saturating_mul(u64::from(t.num_octaves())),
                    format!("feTurbulence with numOctaves=\"{}\"", t.num_octaves()),
                ),
                Kind::Morphology(m) => {
                    let cells = |r: f32, scale: f32| {
                        ((r * scale * s).ceil() as u64).saturating_mul(2).max(1)
                    };
                    let (cx, cy) = (cells(m.radius_x().get(), sx), cells(m.radius_y().get(), sy));
                    (
                        cx.saturating_mul(cy),
                        format!(
                            "feMorphology with radius=\"{} {}\" ({cx} x {cy} pixels a pixel)",
                            m.radius_x().get(),
                            m.radius_y().get()
                        ),
                    )
                }
                Kind::ConvolveMatrix(c) => {
                    let (cols, rows) = (c.matrix().columns(), c.matrix().rows());
                    (
                        u64::from(cols).saturating_mul(u64::from(rows)),
                        format!("feConvolveMatrix of order {cols} x {rows}"),
                    )
                }
                Kind::GaussianBlur(_) | Kind::DropShadow(_) => (8, "a blur".into()),
                Kind::DiffuseLighting(_) | Kind::SpecularLighting(_) => (16, "lighting".into()),
                Kind::Merge(m) => (m.inputs().len() as u64, "feMerge".into()),
                Kind::Image(i) => {
                    self.group(i.root(), held);
                    (2, "feImage".into())
                }
                _ => (2, "a primitive".into()),
            };
            let w = px.saturating_mul(per_pixel);
            work = work.saturating_add(w);
            if w >= worst.0 {
                worst = (w, what);
            }
        }
        // Every primitive's result is kept until the filter is done.
        let results = px
            .saturating_mul(4)
            .saturating_mul(f.primitives().len() as u64);
        let id = f.id().to_string();
        let n = f.primitives().len();
        self.hold(held.saturating_add(results), || Blame {
            element: "filter",
            id: id.clone(),
            what: format!("{n} primitives over {px} pixels"),
            share: 0,
        });
        self.charge(
            work,
            Blame {
                element: "filter",
                id,
                what: worst.1,
                share: 0,
            },
        );
    }
}
