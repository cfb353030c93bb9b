//! Blocks into pages. Each block is set into pieces (a line, a table row, a
//! figure with its caption), each piece glued to the one before it where no page
//! break may come between them: a heading to what follows it, a paragraph's
//! first two lines and its last two (no orphans, no widows), a table's header to
//! its first row. Pieces then fill the columns of a page from the top; a group of
//! glued pieces that does not fit in what is left of a column goes to the next,
//! and a table that continues there repeats its header.

use std::ops::Range;

use super::blocks::{Align, Block, Inline};
use super::lines::{Overfull, Setter, Style};
use super::settings::Settings;
use super::source::{FigureSpec, Special};
use super::FaceRef;
use crate::geom::Rect;
use crate::model::Shape;
use crate::text::{FontSpec, Line, TextError};

/// Space between two columns, in mm.
pub const COLUMN_GAP: f64 = 6.0;
/// Line height, in font sizes.
const LEADING: f64 = 1.32;
/// Colour of headings.
pub const HEADING_RGB: &str = "#1b2f4b";
/// Colour of rules and table lines.
const LINE_RGB: &str = "#b9b3a6";
/// Fill of a table's header row.
const HEAD_FILL: &str = "#ebe7df";
/// Padding in a table cell, in mm.
const CELL_PAD: f64 = 1.4;
/// Height of a picture in the components list, in mm.
const COMPONENT_PICTURE: f64 = 13.0;

/// Something drawn on a page, relative to its piece's top-left corner (mm).
#[derive(Debug, Clone)]
pub enum Draw {
    /// A line of text, its baseline at `y`.
    Text {
        x: f64,
        y: f64,
        line: Line,
        font: FontSpec,
        size: f64,
        color: &'static str,
    },
    /// A straight line.
    Stroke {
        from: (f64, f64),
        to: (f64, f64),
        width: f64,
        color: &'static str,
    },
    /// A filled rectangle.
    Fill { rect: Rect, color: &'static str },
    /// Leader dots from `from` to `to` (a table of contents' entries).
    Leader { from: (f64, f64), to: (f64, f64) },
    /// A face of the game: its trim at `trim`, its picture (trim and bleed) at
    /// `picture`.
    Figure {
        face: FaceRef,
        picture: Rect,
        trim: Rect,
        shape: Shape,
    },
    /// The page number of heading `heading`, ending at `x` on baseline `y`.
    PageOf {
        heading: usize,
        x: f64,
        y: f64,
        font: FontSpec,
        size: f64,
    },
}

impl Draw {
    /// The same drawing moved by (`dx`, `dy`).
    pub fn moved(&self, dx: f64, dy: f64) -> Draw {
        let mut d = self.clone();
        let mv = |r: &mut Rect| {
            r.x += dx;
            r.y += dy;
        };
        match &mut d {
            Draw::Text { x, y, .. } | Draw::PageOf { x, y, .. } => {
                *x += dx;
                *y += dy;
            }
            Draw::Stroke { from, to, .. } | Draw::Leader { from, to } => {
                *from = (from.0 + dx, from.1 + dy);
                *to = (to.0 + dx, to.1 + dy);
            }
            Draw::Fill { rect, .. } => mv(rect),
            Draw::Figure { picture, trim, .. } => {
                mv(picture);
                mv(trim);
            }
        }
        d
    }
}

/// What a piece is, for pagination.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Plain,
    /// Heading number `n` (in document order).
    Heading(usize),
    /// A row of table `n` (not its first).
    Row(usize),
    /// A new page.
    PageBreak,
}

/// Something placed as a whole: a line, a table row, a figure.
#[derive(Debug, Clone)]
struct Piece {
    height: f64,
    /// Space above it, left out at the top of a column.
    space: f64,
    /// No break may come between it and the piece before.
    glued: bool,
    kind: Kind,
    items: Vec<Draw>,
}

/// A heading, for the table of contents and the PDF's bookmarks.
#[derive(Debug, Clone, PartialEq)]
pub struct Heading {
    pub level: u8,
    pub title: String,
    /// 0-based page.
    pub page: usize,
    /// Its top on the page, in mm.
    pub y: f64,
}

/// A problem found while typesetting: message, hint, where in the Markdown, and
/// whether it stops the build.
#[derive(Debug, Clone)]
pub struct Finding {
    pub message: String,
    pub hint: String,
    pub at: Option<Range<usize>>,
    pub error: bool,
}

/// One page as laid out: what is drawn where, in mm from the page's corner.
#[derive(Debug, Clone, Default)]
pub struct Laid {
    pub items: Vec<Draw>,
}

/// The rulebook as laid out.
#[derive(Debug, Clone, Default)]
pub struct Flowed {
    pub pages: Vec<Laid>,
    pub headings: Vec<Heading>,
    pub findings: Vec<Finding>,
}

/// What laying out needs besides the blocks.
pub struct Context<'a> {
    pub settings: &'a Settings,
    pub setter: Setter<'a>,
    pub specials: &'a [Special],
    /// The rendered Markdown the blocks were read from (where a word too wide
    /// for its line is found, to report it).
    pub source: &'a str,
    /// Every component set: name, parts printed, and the face that shows it.
    pub components: Vec<ComponentEntry>,
}

/// A line of the components list.
#[derive(Debug, Clone)]
pub struct ComponentEntry {
    pub name: String,
    pub count: u64,
    pub figure: Option<FigureSpec>,
}

/// Most pages a rulebook may have.
pub const MAX_PAGES: usize = 400;

/// Lays `blocks` out in pages.
pub fn flow(blocks: &[Block], cx: &Context) -> Result<Flowed, TextError> {
    let mut out = Flowed::default();
    let mut titles = Vec::new();
    collect_headings(blocks, &mut titles);
    // Sections between `columns(n)`: each starts a page and is set at its width.
    let mut sections: Vec<(usize, Vec<&Block>)> = vec![(cx.settings.columns, Vec::new())];
    for b in blocks {
        if let Block::Special { index, .. } = b {
            if let Some(Special::Columns(n)) = cx.specials.get(*index) {
                sections.push((*n, Vec::new()));
                continue;
            }
        }
        if let Some(s) = sections.last_mut() {
            s.1.push(b);
        }
    }
    let mut setter = Setting {
        cx,
        pieces: Vec::new(),
        headings: 0,
        tables: Vec::new(),
        titles: &titles,
        findings: Vec::new(),
        width: 0.0,
        glue_next: false,
    };
    let mut heading_at: Vec<(usize, f64)> = vec![(0, 0.0); titles.len()];
    for (k, (columns, blocks)) in sections.into_iter().enumerate() {
        if k > 0 && blocks.is_empty() {
            continue;
        }
        let geometry = Geometry::new(cx.settings, columns);
        setter.width = geometry.column;
        setter.pieces.clear();
        for b in &blocks {
            setter.block(b, 0.0)?;
        }
        let first_page = out.pages.len();
        paginate(&setter, &geometry, &mut out, &mut heading_at);
        if out.pages.len() == first_page {
            out.pages.push(Laid::default());
        }
        if out.pages.len() > MAX_PAGES {
            setter.findings.push(Finding {
                message: format!("the rulebook runs past {MAX_PAGES} pages"),
                hint: "a loop over a big table? A rulebook is shorter".into(),
                at: None,
                error: true,
            });
            break;
        }
    }
    out.findings.extend(setter.findings);
    out.headings = titles
        .into_iter()
        .zip(heading_at)
        .map(|((level, title, _), (page, y))| Heading {
            level,
            title,
            page,
            y,
        })
        .collect();
    Ok(out)
}

/// Every heading's level, text and place in the Markdown, in order.
fn collect_headings(blocks: &[Block], out: &mut Vec<(u8, String, Range<usize>)>) {
    for b in blocks {
        match b {
            Block::Heading { level, text, at } => out.push((*level, plain(text), at.clone())),
            Block::List { items, .. } => items.iter().for_each(|i| collect_headings(i, out)),
            Block::Quote(inner) => collect_headings(inner, out),
            _ => {}
        }
    }
}

/// The text of inline pieces, without styles or icons.
pub fn plain(text: &[Inline]) -> String {
    let mut s = String::new();
    for i in text {
        match i {
            Inline::Text { text, .. } => s.push_str(text),
            Inline::Break => s.push(' '),
            Inline::Icon(_) => {}
        }
    }
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Where the columns of a page are.
struct Geometry {
    margin: f64,
    columns: usize,
    column: f64,
    /// Top and bottom of the text area.
    top: f64,
    bottom: f64,
}

impl Geometry {
    fn new(s: &Settings, columns: usize) -> Geometry {
        let m = s.margin();
        let inner = s.page.width - 2.0 * m;
        Geometry {
            margin: m,
            columns,
            column: (inner - (columns - 1) as f64 * COLUMN_GAP) / columns as f64,
            top: m,
            // The page number sits in the bottom margin.
            bottom: s.page.height - m - s.size * 1.2,
        }
    }

    fn column_x(&self, c: usize) -> f64 {
        self.margin + c as f64 * (self.column + COLUMN_GAP)
    }
}

/// Setting blocks into pieces for one column width.
struct Setting<'a, 'c> {
    cx: &'c Context<'a>,
    pieces: Vec<Piece>,
    /// Headings set so far (all sections).
    headings: usize,
    /// Per table: its header piece.
    tables: Vec<Piece>,
    titles: &'c [(u8, String, Range<usize>)],
    findings: Vec<Finding>,
    width: f64,
    /// The next piece stays with the one before (it follows a heading).
    glue_next: bool,
}

impl Setting<'_, '_> {
    fn style(&self, size: f64, justify: bool) -> Style {
        Style {
            font: self.cx.settings.font.clone(),
            size,
            justify,
            hyphenate: self.cx.settings.lang,
        }
    }

    fn size(&self) -> f64 {
        self.cx.settings.size
    }

    /// An error when something `height` mm high, at `at` in the Markdown, is
    /// taller than a page's text: what goes past it would not be printed.
    fn fits_a_page(&mut self, height: f64, what: &str, fix: &str, at: &Range<usize>) {
        let g = Geometry::new(self.cx.settings, 1);
        let room = g.bottom - g.top;
        if height > room + 1e-6 {
            self.findings.push(Finding {
                message: format!(
                    "{what} is {} high and a page holds {} of text: it does not fit on a page",
                    fmt_mm(height),
                    fmt_mm(room)
                ),
                hint: fix.into(),
                at: Some(at.clone()),
                error: true,
            });
        }
    }

    /// `text` set in lines `width` mm wide: a word broken to fit (see
    /// [`Setter::set`]) is reported as wider than `room`, where it is in the
    /// Markdown's range `at` (else at `at`).
    fn set(
        &mut self,
        text: &[Inline],
        width: f64,
        style: &Style,
        at: Option<&Range<usize>>,
        room: &str,
    ) -> Result<Vec<Line>, TextError> {
        let set = self.cx.setter.set(text, width, style)?;
        for o in &set.overfull {
            let at = at.map(|r| word_at(self.cx.source, r, &o.word));
            self.findings.push(overfull(o, room, width, at));
        }
        Ok(set.lines)
    }

    fn push(&mut self, mut piece: Piece) {
        if std::mem::take(&mut self.glue_next) {
            piece.glued = true;
            piece.space = 0.0;
        }
        self.pieces.push(piece);
    }

    /// Sets `block`, indented by `indent` mm.
    fn block(&mut self, block: &Block, indent: f64) -> Result<(), TextError> {
        let size = self.size();
        match block {
            Block::Heading { level, text, at } => self.heading(*level, text, at, indent)?,
            Block::Paragraph { text, at } => {
                let style = self.style(size, true);
                let width = self.width - indent;
                self.paragraph(text, at, &style, indent, width, size * 0.55, None)?
            }
            Block::List { start, items } => self.list(*start, items, indent)?,
            Block::Table {
                aligns,
                head,
                rows,
                at,
            } => self.table(aligns, head, rows, at, indent)?,
            Block::Quote(inner) => {
                let first = self.pieces.len();
                for b in inner {
                    self.block(b, indent + 4.0)?;
                }
                for p in &mut self.pieces[first..] {
                    let h = p.height;
                    p.items.push(Draw::Stroke {
                        from: (indent + 1.0, -p.space.min(size * 0.3)),
                        to: (indent + 1.0, h),
                        width: 0.5,
                        color: LINE_RGB,
                    });
                }
            }
            Block::Rule => self.push(Piece {
                height: size,
                space: size * 0.3,
                glued: false,
                kind: Kind::Plain,
                items: vec![Draw::Stroke {
                    from: (indent, size * 0.5),
                    to: (self.width, size * 0.5),
                    width: 0.2,
                    color: LINE_RGB,
                }],
            }),
            Block::Special { index, at } => self.special(*index, at, indent)?,
        }
        Ok(())
    }

    fn heading(
        &mut self,
        level: u8,
        text: &[Inline],
        at: &Range<usize>,
        indent: f64,
    ) -> Result<(), TextError> {
        let size = self.size();
        let (scale, space) = match level {
            1 => (2.0, 1.8),
            2 => (1.4, 1.5),
            3 => (1.15, 1.1),
            _ => (1.0, 0.9),
        };
        let style = Style {
            font: self.cx.settings.heading_font.clone(),
            size: size * scale,
            justify: false,
            hyphenate: self.cx.settings.lang,
        };
        let lines = self.set(text, self.width - indent, &style, Some(at), "the column")?;
        let n = self.headings;
        self.headings += 1;
        let step = style.size * 1.2;
        for (k, line) in lines.into_iter().enumerate() {
            self.push(Piece {
                height: step,
                space: if k == 0 { size * space } else { 0.0 },
                glued: k > 0,
                kind: if k == 0 {
                    Kind::Heading(n)
                } else {
                    Kind::Plain
                },
                items: vec![Draw::Text {
                    x: indent,
                    y: style.size * 0.95,
                    line,
                    font: style.font.clone(),
                    size: style.size,
                    color: HEADING_RGB,
                }],
            });
        }
        // What follows stays with the heading; the space after it is small.
        self.push(Piece {
            height: size * 0.35,
            space: 0.0,
            glued: true,
            kind: Kind::Plain,
            items: Vec::new(),
        });
        self.glue_next = true;
        Ok(())
    }

    /// Sets a paragraph (at `at` in the Markdown) at `x`, `width` wide; `marker`
    /// (a bullet or number) hangs before its first line.
    #[allow(clippy::too_many_arguments)]
    fn paragraph(
        &mut self,
        text: &[Inline],
        at: &Range<usize>,
        style: &Style,
        x: f64,
        width: f64,
        space: f64,
        marker: Option<Line>,
    ) -> Result<(), TextError> {
        let lines = self.set(text, width, style, Some(at), "the column")?;
        let step = style.size * LEADING;
        let n = lines.len();
        for (k, line) in lines.into_iter().enumerate() {
            let mut items = vec![Draw::Text {
                x,
                y: style.size * 0.95,
                line,
                font: style.font.clone(),
                size: style.size,
                color: "#000000",
            }];
            if let (0, Some(m)) = (k, &marker) {
                items.push(Draw::Text {
                    x: x - m.width - style.size * 0.5,
                    y: style.size * 0.95,
                    line: m.clone(),
                    font: style.font.clone(),
                    size: style.size,
                    color: "#000000",
                });
            }
            // No orphan (a first line alone at a page's foot), no widow (a last
            // line alone at the top of the next).
            let glued = (k == 1) || (k > 0 && k + 1 == n);
            self.push(Piece {
                height: step,
                space: if k == 0 { space } else { 0.0 },
                glued,
                kind: Kind::Plain,
                items,
            });
        }
        Ok(())
    }

    fn list(
        &mut self,
        start: Option<u64>,
        items: &[Vec<Block>],
        indent: f64,
    ) -> Result<(), TextError> {
        let size = self.size();
        let style = self.style(size, true);
        let hang = size * if start.is_some() { 1.9 } else { 1.4 };
        for (k, item) in items.iter().enumerate() {
            let label = match start {
                Some(s) => format!("{}.", s + k as u64),
                None => "•".to_string(),
            };
            let marker = self
                .set(
                    &[text_inline(&label)],
                    self.width,
                    &self.style(size, false),
                    None,
                    "the column",
                )?
                .into_iter()
                .next();
            let mut marker = marker;
            for (b, block) in item.iter().enumerate() {
                match (b, block) {
                    (_, Block::Paragraph { text, at }) => {
                        let space = if b == 0 { size * 0.3 } else { size * 0.45 };
                        self.paragraph(
                            text,
                            at,
                            &style,
                            indent + hang,
                            self.width - indent - hang,
                            space,
                            marker.take(),
                        )?
                    }
                    _ => self.block(block, indent + hang)?,
                }
            }
        }
        Ok(())
    }

    fn table(
        &mut self,
        aligns: &[Align],
        head: &[Vec<Inline>],
        rows: &[Vec<Vec<Inline>>],
        at: &Range<usize>,
        indent: f64,
    ) -> Result<(), TextError> {
        let size = self.size() * 0.92;
        let width = self.width - indent;
        let cols = head.len().max(rows.iter().map(Vec::len).max().unwrap_or(0));
        if cols == 0 {
            return Ok(());
        }
        let plain_style = self.style(size, false);
        // Each column's widest cell unwrapped, and its widest word.
        let mut natural = vec![0.0f64; cols];
        let mut least = vec![0.0f64; cols];
        for (r, row) in std::iter::once(head)
            .chain(rows.iter().map(Vec::as_slice))
            .enumerate()
        {
            for (c, cell) in row.iter().enumerate() {
                let style = if r == 0 {
                    bold_style(&plain_style)
                } else {
                    plain_style.clone()
                };
                // Unbounded: nothing is too wide.
                for line in self.cx.setter.set(cell, f64::INFINITY, &style)?.lines {
                    natural[c] = natural[c].max(line.width + 2.0 * CELL_PAD);
                }
                for word in cell_words(cell) {
                    let w = self.cx.setter.set(&[word], f64::INFINITY, &style)?.lines;
                    let w = w.first().map_or(0.0, |l| l.width);
                    least[c] = least[c].max(w + 2.0 * CELL_PAD);
                }
            }
        }
        let total_least: f64 = least.iter().sum();
        if total_least > width + 0.01 {
            self.findings.push(Finding {
                message: format!(
                    "this table is {} wide and its text column {}: its columns are narrowed to fit, and the words too wide for them broken across lines",
                    fmt_mm(total_least),
                    fmt_mm(width)
                ),
                hint: "use fewer columns, shorter words, or `columns = 1` for the rulebook".into(),
                at: Some(at.clone()),
                error: false,
            });
            least = fair_floors(&least, width);
        }
        let widths = column_widths(&natural, &least, width);
        let table = self.tables.len();
        let head_piece = self.row(head, &widths, aligns, at, indent, size, true)?;
        self.tables.push(head_piece.clone());
        self.push(Piece {
            space: self.size() * 0.6,
            ..head_piece
        });
        for (r, row) in rows.iter().enumerate() {
            let mut p = self.row(row, &widths, aligns, at, indent, size, false)?;
            p.glued = r == 0;
            p.kind = if r == 0 {
                Kind::Plain
            } else {
                Kind::Row(table)
            };
            self.push(p);
        }
        Ok(())
    }

    /// One table row (of the table at `at` in the Markdown) as a piece: each
    /// cell wrapped in its column. A row taller than a page is an error.
    #[allow(clippy::too_many_arguments)]
    fn row(
        &mut self,
        cells: &[Vec<Inline>],
        widths: &[f64],
        aligns: &[Align],
        at: &Range<usize>,
        indent: f64,
        size: f64,
        head: bool,
    ) -> Result<Piece, TextError> {
        let style = if head {
            bold_style(&self.style(size, false))
        } else {
            self.style(size, false)
        };
        let step = size * 1.25;
        let mut items = Vec::new();
        let mut tallest = 1usize;
        let mut x = indent;
        let mut texts = Vec::new();
        for (c, w) in widths.iter().enumerate() {
            let cell = cells.get(c).map(Vec::as_slice).unwrap_or(&[]);
            let lines = self.set(cell, w - 2.0 * CELL_PAD, &style, Some(at), "its table cell")?;
            tallest = tallest.max(lines.len());
            for (k, line) in lines.into_iter().enumerate() {
                let free = w - 2.0 * CELL_PAD - line.width;
                let dx = match aligns.get(c).copied().unwrap_or(Align::Left) {
                    Align::Left => 0.0,
                    Align::Center => free / 2.0,
                    Align::Right => free,
                };
                texts.push(Draw::Text {
                    x: x + CELL_PAD + dx.max(0.0),
                    y: CELL_PAD + size * 0.95 + k as f64 * step,
                    line,
                    font: style.font.clone(),
                    size,
                    color: "#000000",
                });
            }
            x += w;
        }
        let height = 2.0 * CELL_PAD + size + (tallest - 1) as f64 * step;
        // A row goes on a page under its table's header (repeated there).
        let (what, above) = match self.tables.last().filter(|_| !head) {
            Some(h) => ("a row of this table under its header", h.height),
            None => ("a row of this table", 0.0),
        };
        self.fits_a_page(
            above + height,
            what,
            "shorten its cells, or give the table fewer columns",
            at,
        );
        let right = x;
        if head {
            items.push(Draw::Fill {
                rect: Rect {
                    x: indent,
                    y: 0.0,
                    w: right - indent,
                    h: height,
                },
                color: HEAD_FILL,
            });
        }
        items.extend(texts);
        items.push(Draw::Stroke {
            from: (indent, height),
            to: (right, height),
            width: if head { 0.3 } else { 0.15 },
            color: LINE_RGB,
        });
        Ok(Piece {
            height,
            space: 0.0,
            glued: false,
            kind: Kind::Plain,
            items,
        })
    }

    fn special(&mut self, index: usize, at: &Range<usize>, indent: f64) -> Result<(), TextError> {
        match self.cx.specials.get(index) {
            Some(Special::Figure(spec)) => self.figure(spec, at, indent),
            Some(Special::Components) => self.components(at, indent),
            Some(Special::Toc) => self.toc(indent),
            Some(Special::PageBreak) => {
                self.push(Piece {
                    height: 0.0,
                    space: 0.0,
                    glued: false,
                    kind: Kind::PageBreak,
                    items: Vec::new(),
                });
                Ok(())
            }
            Some(Special::Columns(_)) | None => Ok(()),
        }
    }

    /// The largest height a figure may have: a column less its caption.
    fn column_height(&self) -> f64 {
        let s = self.cx.settings;
        s.page.height - 2.0 * s.margin() - s.size * 6.0
    }

    fn figure(
        &mut self,
        spec: &FigureSpec,
        at: &Range<usize>,
        indent: f64,
    ) -> Result<(), TextError> {
        let size = self.size();
        let room = self.width - indent;
        let (tw, th) = spec.trim;
        let mut w = spec.width.unwrap_or(tw.min(room));
        let mut too_large = None;
        if w > room + 0.01 {
            too_large = Some(format!(
                "is {} wide and the text column {}",
                fmt_mm(w),
                fmt_mm(room)
            ));
            w = room;
        }
        // The caption first: the figure is made small enough to leave it room.
        let caption_style = Style {
            font: self.cx.settings.font.styled(false, true),
            size: size * 0.9,
            justify: false,
            hyphenate: self.cx.settings.lang,
        };
        let caption = match &spec.caption {
            Some(c) => self.set(
                &[text_inline(c)],
                room,
                &caption_style,
                Some(at),
                "the column",
            )?,
            None => Vec::new(),
        };
        let step = caption_style.size * LEADING;
        let below = caption.len() as f64 * step + size * 0.3;
        self.fits_a_page(
            below,
            "the caption of this figure",
            "shorten the caption",
            at,
        );
        let mut tallest = self.column_height();
        let g = Geometry::new(self.cx.settings, 1);
        if g.bottom - g.top - below > 0.0 {
            tallest = tallest.min(g.bottom - g.top - below);
        }
        if w * th / tw > tallest {
            if spec.width.is_some() && too_large.is_none() {
                too_large = Some(format!(
                    "is {} high and a page holds {}",
                    fmt_mm(w * th / tw),
                    fmt_mm(tallest)
                ));
            }
            w = tallest * tw / th;
        }
        if let Some(why) = too_large {
            self.findings.push(Finding {
                message: format!("this figure {why}: it is drawn smaller"),
                hint: "give a smaller `width`, or leave it out to fit the column".into(),
                at: Some(at.clone()),
                error: false,
            });
        }
        let scale = w / tw;
        let h = th * scale;
        let x = indent + (room - w) / 2.0;
        let mut items = vec![figure_draw(spec, x, 0.0, scale)];
        let mut height = h;
        for line in caption {
            height += step;
            items.push(Draw::Text {
                x: indent + (room - line.width) / 2.0,
                y: height - caption_style.size * 0.35,
                line,
                font: caption_style.font.clone(),
                size: caption_style.size,
                color: "#333333",
            });
        }
        self.push(Piece {
            height: height + size * 0.3,
            space: size * 0.8,
            glued: false,
            kind: Kind::Plain,
            items,
        });
        Ok(())
    }

    /// The components list (at `at` in the Markdown): a small picture, the name
    /// and the count of each set.
    fn components(&mut self, at: &Range<usize>, indent: f64) -> Result<(), TextError> {
        let size = self.size();
        let style = self.style(size, false);
        let room = self.width - indent;
        let pic_w = COMPONENT_PICTURE * 1.6;
        for (k, entry) in self.cx.components.iter().enumerate() {
            let mut items = Vec::new();
            if let Some(spec) = &entry.figure {
                let (tw, th) = spec.trim;
                let b = 2.0 * spec.bleed;
                let scale = (COMPONENT_PICTURE / (th + b)).min(pic_w / (tw + b));
                let x = indent + (pic_w - tw * scale) / 2.0;
                let y = (COMPONENT_PICTURE - th * scale) / 2.0 + 1.0;
                items.push(figure_draw(spec, x, y, scale));
            }
            let count = format!("{}", entry.count);
            let count_line = self
                .set(&[bold_inline(&count)], room, &style, Some(at), "the column")?
                .into_iter()
                .next();
            let count_w = count_line.as_ref().map_or(0.0, |l| l.width);
            let name_x = indent + pic_w + 3.0;
            let name = [text_inline(&entry.name)];
            let name_room = room - pic_w - 3.0 - count_w - 3.0;
            let lines = self.set(&name, name_room, &style, Some(at), "its line")?;
            let text_h = lines.len() as f64 * size * LEADING;
            // A name of many lines makes its row taller, not the next one's text.
            let row = (COMPONENT_PICTURE + 2.0).max(text_h + 2.0);
            let mut y = (row - text_h) / 2.0 + size * 0.95;
            for line in lines {
                items.push(Draw::Text {
                    x: name_x,
                    y,
                    line,
                    font: style.font.clone(),
                    size,
                    color: "#000000",
                });
                y += size * LEADING;
            }
            if let Some(line) = count_line {
                items.push(Draw::Text {
                    x: indent + room - count_w,
                    y: row / 2.0 + size * 0.35,
                    line,
                    font: style.font.clone(),
                    size,
                    color: "#000000",
                });
            }
            items.push(Draw::Stroke {
                from: (indent, row),
                to: (indent + room, row),
                width: 0.15,
                color: LINE_RGB,
            });
            self.push(Piece {
                height: row,
                space: if k == 0 { size * 0.5 } else { 0.0 },
                glued: false,
                kind: Kind::Plain,
                items,
            });
        }
        Ok(())
    }

    /// The table of contents: the headings of levels 1 and 2 that follow it,
    /// each with its page number.
    fn toc(&mut self, indent: f64) -> Result<(), TextError> {
        let size = self.size();
        let style = self.style(size, false);
        let room = self.width - indent;
        let number_room = size * 2.5;
        let listed = self.titles.iter().enumerate().skip(self.headings);
        let top = listed.clone().map(|t| t.1 .0).min().unwrap_or(1);
        for (n, (level, title, at)) in listed {
            if *level > top + 1 {
                continue;
            }
            let x = indent + if *level > top { size * 1.5 } else { 0.0 };
            let st = if *level == top && top == 1 {
                bold_style(&style)
            } else {
                style.clone()
            };
            let lines = self.set(
                &[text_inline(title)],
                room - (x - indent) - number_room,
                &st,
                Some(at),
                "its line in the table of contents",
            )?;
            let count = lines.len();
            let step = size * LEADING;
            let mut items = Vec::new();
            for (k, line) in lines.into_iter().enumerate() {
                let y = size * 0.95 + k as f64 * step;
                if k + 1 == count {
                    let dots_from = x + line.width + size * 0.5;
                    let dots_to = indent + room - number_room;
                    if dots_to > dots_from {
                        items.push(Draw::Leader {
                            from: (dots_from, y),
                            to: (dots_to, y),
                        });
                    }
                    items.push(Draw::PageOf {
                        heading: n,
                        x: indent + room,
                        y,
                        font: st.font.clone(),
                        size,
                    });
                }
                items.push(Draw::Text {
                    x,
                    y,
                    line,
                    font: st.font.clone(),
                    size,
                    color: "#000000",
                });
            }
            self.push(Piece {
                height: count as f64 * step,
                space: if *level == top {
                    size * 0.3
                } else {
                    size * 0.1
                },
                glued: false,
                kind: Kind::Plain,
                items,
            });
        }
        Ok(())
    }
}

/// A style's bold face.
fn bold_style(style: &Style) -> Style {
    Style {
        font: style.font.styled(true, false),
        ..style.clone()
    }
}

fn text_inline(text: &str) -> Inline {
    Inline::Text {
        text: text.to_string(),
        bold: false,
        italic: false,
    }
}

fn bold_inline(text: &str) -> Inline {
    Inline::Text {
        text: text.to_string(),
        bold: true,
        italic: false,
    }
}

/// A cell's words one by one (each as its own inline).
fn cell_words(cell: &[Inline]) -> Vec<Inline> {
    let mut out = Vec::new();
    for i in cell {
        if let Inline::Text { text, bold, italic } = i {
            for w in text.split_whitespace() {
                out.push(Inline::Text {
                    text: w.to_string(),
                    bold: *bold,
                    italic: *italic,
                });
            }
        }
    }
    out
}

/// Least column widths that add up to `width`, from ones that add up to more:
/// each column keeps its least width if it is no more than a fair share of what
/// the columns kept leave, and the others share the rest alike.
fn fair_floors(least: &[f64], width: f64) -> Vec<f64> {
    let mut order: Vec<usize> = (0..least.len()).collect();
    order.sort_by(|&a, &b| least[a].total_cmp(&least[b]));
    let mut out = least.to_vec();
    let mut left = width;
    for (k, &c) in order.iter().enumerate() {
        let fair = left / (order.len() - k) as f64;
        if least[c] <= fair {
            left -= least[c];
        } else {
            for &d in &order[k..] {
                out[d] = fair;
            }
            break;
        }
    }
    out
}

/// Column widths that fill `width`: each column its unwrapped width when they
/// all fit; else the columns whose text fits a fair share of what is left keep
/// their width, and the others get their widest word and a share of the rest by
/// how much more their text wants.
fn column_widths(natural: &[f64], least: &[f64], width: f64) -> Vec<f64> {
    let sum: f64 = natural.iter().sum();
    if sum <= width {
        let extra = (width - sum) / natural.len() as f64;
        return natural.iter().map(|n| n + extra).collect();
    }
    let mut out: Vec<Option<f64>> = vec![None; natural.len()];
    loop {
        let open: Vec<usize> = (0..natural.len()).filter(|&c| out[c].is_none()).collect();
        let left = width - out.iter().flatten().sum::<f64>();
        let fair = left / open.len().max(1) as f64;
        let narrow: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&c| natural[c] <= fair)
            .collect();
        if narrow.is_empty() || narrow.len() == open.len() {
            let floor: f64 = open.iter().map(|&c| least[c]).sum();
            let want: f64 = open.iter().map(|&c| natural[c] - least[c]).sum();
            let spare = (left - floor).max(0.0);
            for c in open {
                let share = if want > 0.0 {
                    spare * (natural[c] - least[c]) / want
                } else {
                    spare / natural.len() as f64
                };
                out[c] = Some(least[c] + share);
            }
            return out.into_iter().flatten().collect();
        }
        for c in narrow {
            out[c] = Some(natural[c]);
        }
    }
}

/// Where `word` is in `source`'s range `at`: its first place there, else `at`.
fn word_at(source: &str, at: &Range<usize>, word: &str) -> Range<usize> {
    source
        .get(at.clone())
        .and_then(|s| s.find(word))
        .filter(|_| !word.is_empty())
        .map_or(at.clone(), |k| at.start + k..at.start + k + word.len())
}

/// Longest a word is quoted in a message, in letters.
const QUOTED_LETTERS: usize = 16;
/// At most this many bytes of it, whatever its letters (a letter may carry any
/// number of marks: the message stays short).
const QUOTED_BYTES: usize = 64;

/// The warning for a word broken because it is wider than `room` (`width` mm).
fn overfull(o: &Overfull, room: &str, width: f64, at: Option<Range<usize>>) -> Finding {
    let starts = super::lines::letter_starts(&o.word);
    let mut cut = starts
        .get(QUOTED_LETTERS)
        .map_or(o.word.len(), |&c| c)
        .min(QUOTED_BYTES);
    while !o.word.is_char_boundary(cut) {
        cut -= 1;
    }
    let quoted = if cut < o.word.len() {
        format!("{}…", &o.word[..cut])
    } else {
        o.word.clone()
    };
    Finding {
        message: format!(
            "the word `{quoted}` ({} letter{}) is wider than {room} ({}); it is broken across {} lines",
            o.letters,
            if o.letters == 1 { "" } else { "s" },
            fmt_mm(width),
            o.lines
        ),
        hint: "shorten it, put a space where it may break, or set a smaller `size` under `[rulebook]` in game.toml".into(),
        at,
        error: false,
    }
}

fn fmt_mm(v: f64) -> String {
    format!("{} mm", crate::units::fmt_num((v * 10.0).round() / 10.0))
}

/// A figure's drawing: its trim's top-left corner at (`x`, `y`), scaled.
fn figure_draw(spec: &FigureSpec, x: f64, y: f64, scale: f64) -> Draw {
    let (tw, th) = spec.trim;
    let b = spec.bleed * scale;
    let trim = Rect {
        x,
        y,
        w: tw * scale,
        h: th * scale,
    };
    Draw::Figure {
        face: spec.face,
        picture: trim.grow(b),
        trim,
        shape: spec.shape,
    }
}

/// Fills pages with the pieces of one section (from a new page), noting each
/// heading's page and height.
fn paginate(s: &Setting, g: &Geometry, out: &mut Flowed, heading_at: &mut [(usize, f64)]) {
    let pieces = &s.pieces;
    let mut cursor = Cursor {
        page: Laid::default(),
        column: 0,
        y: g.top,
        g,
        last_heading: None,
    };
    let mut i = 0;
    // The group at `i` was just moved to a new column: it goes there, fitting or not.
    let mut moved = false;
    while i < pieces.len() {
        if pieces[i].kind == Kind::PageBreak {
            cursor.end_column(s, out);
            if !cursor.page.items.is_empty() {
                out.pages.push(std::mem::take(&mut cursor.page));
            }
            cursor.column = 0;
            cursor.y = g.top;
            i += 1;
            continue;
        }
        // The group: this piece and those glued to it.
        let mut j = i + 1;
        while j < pieces.len() && pieces[j].glued && pieces[j].kind != Kind::PageBreak {
            j += 1;
        }
        let group_height: f64 = pieces[i..j]
            .iter()
            .enumerate()
            .map(|(k, p)| {
                p.height
                    + if k == 0 && cursor.at_top() {
                        0.0
                    } else {
                        p.space
                    }
            })
            .sum();
        if cursor.y + group_height > g.bottom + 1e-6 && !cursor.at_top() && !moved {
            cursor.next_column(s, out);
            cursor.repeat_head(s, &pieces[i]);
            moved = true;
            continue;
        }
        moved = false;
        // Place the group; one taller than a column breaks where it must.
        for p in &pieces[i..j] {
            if !cursor.at_top() && cursor.y + p.space + p.height > g.bottom + 1e-6 {
                cursor.next_column(s, out);
                cursor.repeat_head(s, p);
            }
            if !cursor.at_top() {
                cursor.y += p.space;
            }
            if let Kind::Heading(n) = p.kind {
                if let Some(slot) = heading_at.get_mut(n) {
                    *slot = (out.pages.len(), cursor.y);
                }
            }
            if !p.items.is_empty() {
                cursor.last_heading = match p.kind {
                    Kind::Heading(n) => Some(n),
                    _ => None,
                };
            }
            let x = g.column_x(cursor.column);
            place(&mut cursor.page, p, x, cursor.y);
            cursor.y += p.height;
        }
        i = j;
    }
    cursor.end_column(s, out);
    if !cursor.page.items.is_empty() {
        out.pages.push(cursor.page);
    }
}

/// Where the next piece goes.
struct Cursor<'g> {
    page: Laid,
    column: usize,
    y: f64,
    g: &'g Geometry,
    /// The heading last placed, while nothing is placed after it.
    last_heading: Option<usize>,
}

impl Cursor<'_> {
    fn at_top(&self) -> bool {
        (self.y - self.g.top).abs() < 1e-9
    }

    /// A column ends: a heading at its foot, with what it heads on the next, is
    /// reported.
    fn end_column(&mut self, s: &Setting, out: &mut Flowed) {
        let Some(n) = self.last_heading.take() else {
            return;
        };
        let (_, title, at) = &s.titles[n];
        out.findings.push(Finding {
            message: format!("the heading \"{title}\" ends a page, apart from what it heads"),
            hint: "shorten what follows it, or start the heading on a new page with {{ page_break() }} before it".into(),
            at: Some(at.clone()),
            error: false,
        });
    }

    /// To the top of the next column, or of a new page.
    fn next_column(&mut self, s: &Setting, out: &mut Flowed) {
        self.end_column(s, out);
        self.column += 1;
        if self.column >= self.g.columns {
            out.pages.push(std::mem::take(&mut self.page));
            self.column = 0;
        }
        self.y = self.g.top;
    }

    /// At the top of a column, a table that continues repeats its header.
    fn repeat_head(&mut self, s: &Setting, next: &Piece) {
        if let Kind::Row(t) = next.kind {
            if let Some(head) = s.tables.get(t) {
                place(&mut self.page, head, self.g.column_x(self.column), self.y);
                self.y += head.height;
            }
        }
    }
}

/// Draws `piece` with its top-left corner at (`x`, `y`) of the page.
fn place(page: &mut Laid, piece: &Piece, x: f64, y: f64) {
    page.items.extend(piece.items.iter().map(|d| d.moved(x, y)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fonts::FontBook;
    use crate::model::Size;

    #[test]
    fn a_broken_words_warning_quotes_a_short_start_of_it_whatever_its_letters() {
        let quote = |word: String, letters: usize| {
            let o = Overfull {
                word,
                letters,
                lines: 2,
            };
            overfull(&o, "the column", 100.0, None).message
        };
        let long = quote("x".repeat(400), 400);
        assert!(
            long.starts_with("the word `xxxxxxxxxxxxxxxx…` (400 letters)"),
            "{long}"
        );
        // One letter with 3,000 accents, then a family of 500 joined people.
        let marks = format!("a{}", "\u{301}".repeat(3000));
        let m = quote(marks.clone(), 1);
        assert!(
            m.len() < 200 && m.contains(&marks[..61]),
            "{} bytes: {m}",
            m.len()
        );
        let joined = vec!["\u{1f469}"; 500].join("\u{200d}");
        let j = quote(joined, 1);
        assert!(j.len() < 200, "{} bytes", j.len());
        assert_eq!(quote("short".into(), 5).matches("short").count(), 1);
    }
    use crate::text::icons::NoIcons;

    fn settings() -> Settings {
        Settings {
            page: Size {
                width: 100.0,
                height: 110.0,
            },
            columns: 1,
            font: FontSpec::default(),
            heading_font: FontSpec {
                weight: 700,
                ..FontSpec::default()
            },
            size: 3.4,
            lang: Some(hypher::Lang::English),
            language: "en".into(),
        }
    }

    fn text(s: &str) -> Vec<Inline> {
        vec![Inline::Text {
            text: s.into(),
            bold: false,
            italic: false,
        }]
    }

    /// The text lines of each page.
    fn pages(blocks: &[Block]) -> Vec<Vec<String>> {
        let book = FontBook::builtin();
        let s = settings();
        let cx = Context {
            settings: &s,
            setter: Setter {
                book: &book,
                icons: &NoIcons,
            },
            specials: &[],
            source: "",
            components: Vec::new(),
        };
        let flowed = flow(blocks, &cx).unwrap();
        flowed
            .pages
            .iter()
            .map(|p| {
                p.items
                    .iter()
                    .filter_map(|d| match d {
                        Draw::Text { line, .. } => Some(line.text()),
                        _ => None,
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn no_widow_no_orphan_and_headings_stay_with_their_text() {
        // Paragraph k's words all end in its number, so its lines can be told.
        let mut blocks = Vec::new();
        for k in 0..12 {
            if k % 3 == 0 {
                blocks.push(Block::Heading {
                    level: 2,
                    text: text(&format!("Heading h{k}")),
                    at: 0..0,
                });
            }
            let words: Vec<String> = (0..(12 + 7 * (k % 4)))
                .map(|w| format!("word{w}p{k}"))
                .collect();
            blocks.push(Block::Paragraph {
                text: text(&words.join(" ")),
                at: 0..0,
            });
        }
        let pages = pages(&blocks);
        assert!(pages.len() >= 3, "{pages:#?}");
        for k in 0..12 {
            let tag = format!("p{k}");
            let per_page: Vec<usize> = pages
                .iter()
                .map(|p| p.iter().filter(|l| l.contains(&tag)).count())
                .filter(|&n| n > 0)
                .collect();
            let total: usize = per_page.iter().sum();
            if total >= 2 {
                assert!(
                    per_page.iter().all(|&n| n >= 2),
                    "paragraph {k} leaves a line alone: {per_page:?}"
                );
            }
            if k % 3 == 0 {
                let page = pages
                    .iter()
                    .find(|p| p.iter().any(|l| l == &format!("Heading h{k}")))
                    .unwrap();
                assert!(page.iter().any(|l| l.contains(&tag)), "heading {k} alone");
            }
        }
    }

    #[test]
    fn a_table_split_over_pages_repeats_its_header() {
        let row = |a: &str, b: &str| vec![text(a), text(b)];
        let rows: Vec<_> = (0..60)
            .map(|k| row(&format!("item {k}"), "value"))
            .collect();
        let blocks = vec![Block::Table {
            aligns: vec![Align::Left, Align::Right],
            head: row("Thing", "Worth"),
            rows,
            at: 0..0,
        }];
        let pages = pages(&blocks);
        assert!(pages.len() >= 2);
        for p in &pages {
            assert_eq!(p[0], "Thing", "{p:?}");
        }
        let items: usize = pages
            .iter()
            .map(|p| p.iter().filter(|l| l.starts_with("item")).count())
            .sum();
        assert_eq!(items, 60);
    }
}
