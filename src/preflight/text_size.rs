//! Text a player can read at the table: every text's printed size, against a least
//! size for dark text and a larger one for light text (white or pale letters reversed
//! out of a colour, which ink spread and a slightly misregistered print fill in
//! first). The sizes are the letters' `font-size` at the part's printed size, in
//! points, whatever transforms scale the text.

use usvg::{Paint, Text};

use crate::profile::SmallText;
use crate::units::{fmt_num, MM_PER_IN};

/// Points per millimetre.
const PT_PER_MM: f64 = 72.0 / MM_PER_IN;

/// The smallest dark and light letters of one text, in the tree's units.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TextSizes {
    pub dark: Option<f32>,
    pub light: Option<f32>,
}

/// The relative luminance of an sRGB colour (WCAG), 0 for black to 1 for white.
pub fn luminance(c: usvg::Color) -> f64 {
    // Each of the 256 channel values made linear once (a `powf` each), not for
    // every span of every text.
    static LINEAR: std::sync::OnceLock<[f64; 256]> = std::sync::OnceLock::new();
    let table = LINEAR.get_or_init(|| std::array::from_fn(|v| linear(v as u8)));
    let lin = |v: u8| table[usize::from(v)];
    0.2126 * lin(c.red) + 0.7152 * lin(c.green) + 0.0722 * lin(c.blue)
}

/// An sRGB channel value as linear light, 0 to 1.
fn linear(v: u8) -> f64 {
    let v = v as f64 / 255.0;
    if v <= 0.04045 {
        v / 12.92
    } else {
        ((v + 0.055) / 1.055).powf(2.4)
    }
}

/// The smallest printed letters of `t`, dark and light, in the tree's units: each
/// visible span that holds more than white space, its font size scaled by the
/// text's transform (the smaller axis of a stretched text).
pub fn sizes(t: &Text, light_from: f64) -> TextSizes {
    let (sx, sy) = t.abs_transform().get_scale();
    let scale = sx.min(sy);
    let mut out = TextSizes::default();
    for chunk in t.chunks() {
        for span in chunk.spans() {
            let shown = chunk
                .text()
                .get(span.start()..span.end())
                .is_some_and(|s| !s.trim().is_empty());
            if !span.is_visible() || !shown || span.fill().is_none() {
                continue;
            }
            let light = span.fill().is_some_and(|f| match f.paint() {
                Paint::Color(c) => luminance(*c) >= light_from,
                _ => false,
            });
            let size = span.font_size().get() * scale;
            let slot = if light { &mut out.light } else { &mut out.dark };
            *slot = Some(slot.map_or(size, |s: f32| s.min(size)));
        }
    }
    out
}

/// What is wrong with a text of `sizes` at `mm_per_unit`, if anything: the message
/// and by how many points it falls short.
pub fn too_small(
    sizes: &TextSizes,
    mm_per_unit: f64,
    rule: &SmallText,
    what: &dyn std::fmt::Display,
) -> Option<(String, f64)> {
    let pt = |s: f32| s as f64 * mm_per_unit * PT_PER_MM;
    let short = |size: Option<f32>, least: f64, kind: &str| {
        let p = pt(size?);
        // A hundredth of a point is rounding.
        (p < least - 0.01).then(|| {
            (
                format!(
                    "{what} is {} pt at print size, under the {} pt {kind}a player can read (font-size {} mm or more)",
                    fmt_num((p * 10.0).floor() / 10.0),
                    fmt_num(least),
                    fmt_num((least / PT_PER_MM * 100.0).ceil() / 100.0),
                ),
                least - p,
            )
        })
    };
    let dark = short(sizes.dark, rule.min_pt, "");
    let light = short(sizes.light, rule.min_light_pt, "of light text on colour ");
    match (dark, light) {
        (Some(a), Some(b)) => Some(if a.1 >= b.1 { a } else { b }),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(svg: &str) -> usvg::Tree {
        let fonts = crate::fonts::FontBook::builtin();
        let images = std::sync::Arc::new(crate::svg::Images::none());
        crate::svg::parse(svg, &images, &fonts).unwrap()
    }

    fn first_text(g: &usvg::Group) -> Option<&Text> {
        g.children().iter().find_map(|n| match n {
            usvg::Node::Text(t) => Some(&**t),
            usvg::Node::Group(g) => first_text(g),
            _ => None,
        })
    }

    #[test]
    fn sizes_follow_transforms_and_split_light_from_dark() {
        let tree = parse(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="50mm" height="20mm" viewBox="0 0 50 20"><g transform="scale(0.5)"><text x="4" y="20" font-size="4" fill="#222222">Dark <tspan fill="#ffffff" font-size="5">light</tspan><tspan font-size="1"> </tspan></text></g></svg>"##,
        );
        let s = sizes(first_text(tree.root()).unwrap(), 0.5);
        // The tree is in px; the face is 50 mm wide.
        let mm = 50.0 / tree.size().width() as f64;
        let (dark, light) = (s.dark.unwrap() as f64 * mm, s.light.unwrap() as f64 * mm);
        assert!(
            (dark - 2.0).abs() < 1e-4,
            "{dark}: the blank 1-unit span is not text"
        );
        assert!((light - 2.5).abs() < 1e-4, "{light}");
        let rule = SmallText::default();
        // 2 mm = 5.67 pt dark, 2.5 mm = 7.09 pt light.
        let (msg, short) = too_small(&s, mm, &rule, &"text \"Dark light\"").unwrap();
        assert!(
            msg.contains("5.6 pt at print size, under the 6 pt a player")
                && msg.contains("2.12 mm"),
            "{msg}"
        );
        assert!((short - (6.0 - 2.0 * PT_PER_MM)).abs() < 1e-3);
        assert!(
            too_small(&s, mm * 1.1, &rule, &"x").is_none(),
            "2.2 mm is 6.2 pt"
        );
        let light_only = TextSizes {
            dark: None,
            light: Some(2.4),
        };
        let (msg, _) = too_small(&light_only, 1.0, &rule, &"x").unwrap();
        assert!(
            msg.contains("6.8 pt at print size, under the 7 pt of light text on colour")
                && msg.contains("2.47 mm"),
            "{msg}"
        );
    }

    #[test]
    fn luminance_runs_from_black_to_white() {
        let c = |r, g, b| usvg::Color::new_rgb(r, g, b);
        assert_eq!(luminance(c(0, 0, 0)), 0.0);
        assert!((luminance(c(255, 255, 255)) - 1.0).abs() < 1e-9);
        assert!(
            luminance(c(0xe9, 0xc4, 0x6a)) > 0.5,
            "a pale yellow is light"
        );
        assert!(luminance(c(0x1f, 0x6f, 0xd1)) < 0.2, "a mid blue is dark");
    }

    #[test]
    fn luminance_from_the_table_is_the_formula_for_every_channel_value() {
        // WCAG's formula written out, each channel's `powf` as `linear` computes it.
        let formula = |r: u8, g: u8, b: u8| {
            let lin = |v: u8| {
                let v = v as f64 / 255.0;
                if v <= 0.04045 {
                    v / 12.92
                } else {
                    ((v + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
        };
        for v in 0..=255u8 {
            for (r, g, b) in [(v, 0, 0), (0, v, 0), (0, 0, v), (v, 255 - v, v / 2)] {
                let c = usvg::Color::new_rgb(r, g, b);
                assert_eq!(luminance(c).to_bits(), formula(r, g, b).to_bits(), "{c:?}");
            }
        }
    }
}
