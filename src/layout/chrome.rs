//! The SVG "chrome" of a sheet: crop marks, cut lines, alignment targets and labels.

use super::MARK_WIDTH;
use crate::units::fmt_num as f;

/// Builds a sheet-sized SVG document from drawing commands.
#[derive(Debug, Default)]
pub struct Chrome {
    body: String,
}

impl Chrome {
    /// A straight mark line.
    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64) {
        self.body.push_str(&format!(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#000\" stroke-width=\"{}\"/>\n",
            f(x1),
            f(y1),
            f(x2),
            f(y2),
            f(MARK_WIDTH)
        ));
    }

    /// A dashed guide line (fold or cut guides).
    pub fn dashed(&mut self, x1: f64, y1: f64, x2: f64, y2: f64) {
        self.body.push_str(&format!(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#555\" stroke-width=\"{}\" stroke-dasharray=\"2 1.5\"/>\n",
            f(x1), f(y1), f(x2), f(y2), f(MARK_WIDTH)
        ));
    }

    /// A thin grey cut line along a path.
    pub fn cut(&mut self, d: &str) {
        self.body.push_str(&format!(
            "<path d=\"{d}\" fill=\"none\" stroke=\"#666\" stroke-width=\"{}\"/>\n",
            f(MARK_WIDTH)
        ));
    }

    /// A registration target (circle and cross) for aligning tiles.
    pub fn target(&mut self, cx: f64, cy: f64, r: f64) {
        self.body.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"#000\" stroke-width=\"{}\"/>\n",
            f(cx), f(cy), f(r), f(MARK_WIDTH)
        ));
        self.line(cx - r * 1.6, cy, cx + r * 1.6, cy);
        self.line(cx, cy - r * 1.6, cx, cy + r * 1.6);
    }

    /// A small label; `rotate` turns it -90 degrees (reading upwards).
    pub fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, rotate: bool, text: &str) {
        let esc = text
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        let tr = if rotate {
            format!(" transform=\"rotate(-90 {} {})\"", f(x), f(y))
        } else {
            String::new()
        };
        self.body.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-family=\"Lato\" font-size=\"{}\" fill=\"#333\" text-anchor=\"{anchor}\"{tr}>{esc}</text>\n",
            f(x), f(y), f(size)
        ));
    }

    /// The finished SVG document for a `w` x `h` mm sheet.
    pub fn finish(self, w: f64, h: f64) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}mm\" height=\"{h}mm\" viewBox=\"0 0 {w} {h}\">\n{}</svg>\n",
            self.body,
            w = f(w),
            h = f(h)
        )
    }
}
