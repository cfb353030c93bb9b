//! Print colour: a print shop's CMYK made from the templates' sRGB through the ICC
//! profile of its printing condition, by a colour-management engine (LittleCMS,
//! the `lcms2` crate), with the shop's total ink limit on every colour and pixel,
//! black and grey text and thin lines on the black plate alone, and the way back
//! to the screen for a soft proof.
//!
//! The profiles are built from freely licensed characterization data
//! (`assets/icc/`, `scripts/icc-profiles.sh`, `docs/print-shops.md`).

use std::sync::{Arc, Mutex};

use lcms2::{CIELab, CIELabExt, Flags, GlobalContext, Intent, PixelFormat, Profile};

/// A registered printing condition cardstock has a profile for.
#[derive(Debug)]
pub struct Condition {
    /// What a print profile names it by (`condition = "FOGRA39"`).
    pub name: &'static str,
    /// The `/OutputConditionIdentifier` of the PDF's output intent: its name in
    /// the ICC's registry of characterization data.
    pub identifier: &'static str,
    /// The `/Info` of the output intent: the condition in words.
    pub info: &'static str,
    /// The ICC output profile (built by `scripts/icc-profiles.sh`).
    pub icc: &'static [u8],
    /// The total ink limit the profile was built with, in percent: a profile's
    /// `ink_limit` may be lower (then LittleCMS limits it further), not higher.
    pub built_limit: u32,
}

/// The printing conditions cardstock ships a profile for.
pub const CONDITIONS: [Condition; 2] = [
    Condition {
        name: "FOGRA39",
        identifier: "FOGRA39",
        info: "Coated FOGRA39 (ISO 12647-2:2004, paper type 1 or 2)",
        icc: include_bytes!("../assets/icc/cardstock-fogra39-300.icc"),
        built_limit: 300,
    },
    Condition {
        name: "CGATS TR 006",
        identifier: "CGATS TR 006",
        info: "GRACoL coated (CGATS TR 006, ISO 12647-2 paper type 1)",
        icc: include_bytes!("../assets/icc/cardstock-gracol-tr006-240.icc"),
        built_limit: 240,
    },
];

impl PartialEq for Condition {
    fn eq(&self, other: &Condition) -> bool {
        self.name == other.name
    }
}

impl Condition {
    /// The condition named `name` (`FOGRA39`, `CGATS TR 006`; any case).
    pub fn named(name: &str) -> Option<&'static Condition> {
        CONDITIONS
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name.trim()))
    }
}

/// Which PDF/X standard a shop's PDF follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pdfx {
    /// PDF/X-1a:2003: CMYK only, no transparency, PDF 1.4.
    X1a2003,
    /// PDF/X-4: transparency and ICC-based colour allowed, PDF 1.6.
    X4,
}

impl Pdfx {
    /// The names a profile writes (`pdfx = "X-1a:2003"`).
    pub const NAMES: [&'static str; 2] = ["X-1a:2003", "X-4"];

    /// The standard named `name`.
    pub fn parse(name: &str) -> Option<Pdfx> {
        match name {
            "X-1a:2003" => Some(Pdfx::X1a2003),
            "X-4" => Some(Pdfx::X4),
            _ => None,
        }
    }

    /// `GTS_PDFXVersion`: `PDF/X-1a:2003`, `PDF/X-4`.
    pub fn version(self) -> &'static str {
        match self {
            Pdfx::X1a2003 => "PDF/X-1a:2003",
            Pdfx::X4 => "PDF/X-4",
        }
    }

    /// Whether the standard allows transparency.
    pub fn allows_transparency(self) -> bool {
        self == Pdfx::X4
    }
}

/// Where black and grey text and thin lines go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlackText {
    /// On the black plate alone, at the lightness of the colour
    /// (`black_text = "k"`): no colour fringes when the plates are a little out of
    /// register, and no four-colour black over the ink limit.
    K,
    /// Through the profile like every other colour (`black_text = "process"`).
    Process,
}

/// A CMYK colour, each ink 0-255 (255: 100 %).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cmyk(pub [u8; 4]);

impl Cmyk {
    /// From percentages (0-100 each).
    pub fn from_percent(p: [f64; 4]) -> Cmyk {
        Cmyk(p.map(|v| (v.clamp(0.0, 100.0) * 2.55).round() as u8))
    }

    /// `"60 40 40 100"`: four inks in percent (spaces or commas, `%` allowed).
    pub fn parse(s: &str) -> Option<Cmyk> {
        let v: Vec<f64> = s
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .map(|w| w.trim_end_matches('%').parse().ok())
            .collect::<Option<_>>()?;
        let p: [f64; 4] = v.try_into().ok()?;
        p.iter()
            .all(|c| (0.0..=100.0).contains(c))
            .then(|| Cmyk::from_percent(p))
    }

    /// The total ink, in percent.
    pub fn total(self) -> f64 {
        self.0.iter().map(|&v| f64::from(v)).sum::<f64>() / 2.55
    }

    /// Only black ink.
    pub fn k_only(self) -> bool {
        self.0[..3] == [0, 0, 0]
    }
}

/// How a profile wants colour: the printing condition, the ink limit and where
/// black goes (the profile's `color = "cmyk"` keys).
#[derive(Debug, Clone, PartialEq)]
pub struct PrintColor {
    pub condition: &'static Condition,
    /// The PDF/X standard of the profile's PDFs, if it asks for one.
    pub pdfx: Option<Pdfx>,
    /// Total ink limit, in percent.
    pub ink_limit: f64,
    /// The black of large black areas (`rich_black = [60, 40, 40, 100]`); `None`:
    /// the profile's own black for the colour.
    pub rich_black: Option<Cmyk>,
    pub black_text: BlackText,
    /// Lines under 0.25 pt at print size are errors rather than warnings
    /// (`small_print = "error"`).
    pub small_print_is_error: bool,
}

/// How a colour is painted: what decides black on one plate or a rich black.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Role {
    /// A text's fill or stroke.
    Text,
    /// A stroke `width` mm wide.
    Line { width: f64 },
    /// A filled area whose bounds are `width` x `height` mm.
    Area { width: f64, height: f64 },
    /// A gradient's stop.
    Stop,
}

/// Lines up to this width (mm, about 2 pt) and areas this narrow count as thin:
/// in black or grey they go on the black plate alone.
pub const THIN: f64 = 0.7;

/// A colour this close to grey (CIELAB chroma) is printed as grey, on the black
/// plate alone, when it is text or a thin line. `#263238` (body text) is 6.6.
pub const NEUTRAL_CHROMA: f64 = 10.0;

/// The engine's transforms for one [`PrintColor`]; made once per process and
/// shared ([`Press::for_color`]).
pub struct Press {
    pub color: PrintColor,
    /// sRGB to the condition, relative colorimetric with black point compensation
    /// (vector colours: in-gamut colours stay as they are).
    vector: lcms2::Transform<[u8; 3], [u8; 4], GlobalContext, lcms2::DisallowCache>,
    /// sRGB to the condition, perceptual (raster images).
    raster: lcms2::Transform<[u8; 3], [u8; 4], GlobalContext, lcms2::DisallowCache>,
    /// sRGB to CIELAB (D50).
    srgb_lab: lcms2::Transform<[u8; 3], [f64; 3], GlobalContext, lcms2::DisallowCache>,
    /// The condition's CMYK to CIELAB.
    cmyk_lab: lcms2::Transform<[u8; 4], [f64; 3], GlobalContext, lcms2::DisallowCache>,
    /// The condition's CMYK back to sRGB, for the soft proof.
    proof: lcms2::Transform<[u8; 4], [u8; 3], GlobalContext, lcms2::DisallowCache>,
    /// L* of black ink alone at each of its 256 values.
    k_lightness: Vec<f64>,
}

impl std::fmt::Debug for Press {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Press").field("color", &self.color).finish()
    }
}

/// Why a printing condition's transforms could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PressError(pub String);

impl std::fmt::Display for PressError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the colour engine refused the printing condition: {}",
            self.0
        )
    }
}

impl std::error::Error for PressError {}

type Made = Vec<(PrintColor, Arc<Press>)>;

impl Press {
    /// The transforms for `color`, made on first use and kept for the process.
    pub fn for_color(color: &PrintColor) -> Result<Arc<Press>, PressError> {
        static MADE: Mutex<Made> = Mutex::new(Vec::new());
        let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, p)) = made.iter().find(|(c, _)| c == color) {
            return Ok(p.clone());
        }
        let press = Arc::new(Press::new(color.clone())?);
        made.push((color.clone(), press.clone()));
        Ok(press)
    }

    fn new(color: PrintColor) -> Result<Press, PressError> {
        fn err(what: &'static str) -> impl Fn(lcms2::Error) -> PressError {
            move |e| PressError(format!("{what}: {e}"))
        }
        let cmyk = Profile::new_icc(color.condition.icc).map_err(err("profile"))?;
        let srgb = Profile::new_srgb();
        // CIELAB relative to D50, the ICC's connection space.
        let d50 = lcms2::CIExyY {
            x: 0.3457,
            y: 0.3585,
            Y: 1.0,
        };
        let lab = Profile::new_lab4_context(GlobalContext::new(), &d50).map_err(err("CIELAB"))?;
        let limit = Profile::ink_limiting(lcms2::ColorSpaceSignature::CmykData, color.ink_limit)
            .map_err(err("ink limit"))?;
        let flags = Flags::NO_CACHE | Flags::BLACKPOINT_COMPENSATION;
        let to_cmyk = |intent| {
            lcms2::Transform::new_multiprofile_context(
                GlobalContext::new(),
                &[&srgb, &cmyk, &limit],
                PixelFormat::RGB_8,
                PixelFormat::CMYK_8,
                intent,
                flags,
            )
        };
        let vector = to_cmyk(Intent::RelativeColorimetric).map_err(err("sRGB to CMYK"))?;
        let raster = to_cmyk(Intent::Perceptual).map_err(err("sRGB to CMYK"))?;
        let srgb_lab = lcms2::Transform::new_flags_context(
            GlobalContext::new(),
            &srgb,
            PixelFormat::RGB_8,
            &lab,
            PixelFormat::Lab_DBL,
            Intent::RelativeColorimetric,
            Flags::NO_CACHE,
        )
        .map_err(err("sRGB to CIELAB"))?;
        let cmyk_lab = lcms2::Transform::new_flags_context(
            GlobalContext::new(),
            &cmyk,
            PixelFormat::CMYK_8,
            &lab,
            PixelFormat::Lab_DBL,
            Intent::RelativeColorimetric,
            Flags::NO_CACHE,
        )
        .map_err(err("CMYK to CIELAB"))?;
        let proof = lcms2::Transform::new_flags_context(
            GlobalContext::new(),
            &cmyk,
            PixelFormat::CMYK_8,
            &srgb,
            PixelFormat::RGB_8,
            Intent::RelativeColorimetric,
            flags,
        )
        .map_err(err("CMYK to sRGB"))?;
        let ramp: Vec<[u8; 4]> = (0..=255u8).map(|k| [0, 0, 0, k]).collect();
        let mut labs = vec![[0.0; 3]; 256];
        cmyk_lab.transform_pixels(&ramp, &mut labs);
        let k_lightness = labs.iter().map(|l| l[0]).collect();
        Ok(Press {
            color,
            vector,
            raster,
            srgb_lab,
            cmyk_lab,
            proof,
            k_lightness,
        })
    }

    /// The CIELAB of an sRGB colour.
    pub fn lab(&self, rgb: [u8; 3]) -> CIELab {
        let mut out = [[0.0; 3]];
        self.srgb_lab.transform_pixels(&[rgb], &mut out);
        lab(out[0])
    }

    /// The CIELAB a CMYK colour prints as.
    pub fn printed_lab(&self, cmyk: Cmyk) -> CIELab {
        let mut out = [[0.0; 3]];
        self.cmyk_lab.transform_pixels(&[cmyk.0], &mut out);
        lab(out[0])
    }

    /// The CMYK an sRGB colour prints as, painted as `role`.
    pub fn convert(&self, rgb: [u8; 3], role: Role) -> Cmyk {
        let lab = self.lab(rgb);
        let chroma = lab.a.hypot(lab.b);
        let thin = match role {
            Role::Text => true,
            Role::Line { width } => width <= THIN,
            Role::Area { width, height } => width.min(height) <= THIN,
            Role::Stop => false,
        };
        if chroma <= NEUTRAL_CHROMA {
            if thin && self.color.black_text == BlackText::K {
                return self.black_for(lab.L);
            }
            if let (Some(rich), Role::Area { .. }) = (self.color.rich_black, role) {
                // As dark as black ink alone can print: a large black area.
                if lab.L <= self.k_lightness[255] + 2.0 {
                    return rich;
                }
            }
        }
        let mut out = [[0u8; 4]];
        self.vector.transform_pixels(&[rgb], &mut out);
        self.within_limit(Cmyk(out[0]))
    }

    /// Black ink alone, as light as `lightness` (L*), or full black.
    fn black_for(&self, lightness: f64) -> Cmyk {
        let k = self
            .k_lightness
            .iter()
            .enumerate()
            .min_by(|a, b| (a.1 - lightness).abs().total_cmp(&(b.1 - lightness).abs()))
            .map_or(255, |(k, _)| k as u8);
        Cmyk([0, 0, 0, k])
    }

    /// `c` with its total ink at most the limit: the profile's tables keep to it
    /// within their interpolation; what they overshoot by is taken from C, M and Y
    /// in proportion (the black, which carries the detail, stays).
    pub fn within_limit(&self, c: Cmyk) -> Cmyk {
        let limit = self.color.ink_limit * 2.55;
        let [cy, m, y, k] = c.0.map(f64::from);
        let total = cy + m + y + k;
        if total <= limit || cy + m + y == 0.0 {
            return c;
        }
        let scale = ((limit - k).max(0.0) / (cy + m + y)).min(1.0);
        Cmyk([
            (cy * scale).floor() as u8,
            (m * scale).floor() as u8,
            (y * scale).floor() as u8,
            k as u8,
        ])
    }

    /// Straight (not premultiplied) RGBA pixels as CMYK ones, through the
    /// perceptual table, each within the ink limit; the alpha is left to the caller.
    pub fn image(&self, rgba: &[u8]) -> Vec<u8> {
        let rgb: Vec<[u8; 3]> = rgba.chunks_exact(4).map(|p| [p[0], p[1], p[2]]).collect();
        let mut cmyk = vec![[0u8; 4]; rgb.len()];
        self.raster.transform_pixels(&rgb, &mut cmyk);
        cmyk.into_iter()
            .flat_map(|c| self.within_limit(Cmyk(c)).0)
            .collect()
    }

    /// What a CMYK colour looks like on screen (sRGB): the soft proof.
    pub fn proof(&self, cmyk: Cmyk) -> [u8; 3] {
        let mut out = [[0u8; 3]];
        self.proof.transform_pixels(&[cmyk.0], &mut out);
        out[0]
    }

    /// CMYK pixels (4 bytes each) as sRGB ones (3 bytes each).
    pub fn proof_pixels(&self, cmyk: &[[u8; 4]]) -> Vec<[u8; 3]> {
        let mut out = vec![[0u8; 3]; cmyk.len()];
        self.proof.transform_pixels(cmyk, &mut out);
        out
    }

    /// RGB pixels (3 bytes each) as they print and look again on screen: each
    /// through the profile to CMYK (relative colorimetric, within the ink limit)
    /// and back (the soft proof of a face).
    pub fn soft_proof(&self, rgb: &[u8]) -> Vec<u8> {
        let px: Vec<[u8; 3]> = rgb.chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect();
        let mut cmyk = vec![[0u8; 4]; px.len()];
        self.vector.transform_pixels(&px, &mut cmyk);
        for c in &mut cmyk {
            *c = self.within_limit(Cmyk(*c)).0;
        }
        self.proof_pixels(&cmyk).concat()
    }

    /// How far (CIEDE2000) the printed colour of `rgb` painted as `role` is from
    /// `rgb` on screen; above 5 most people see it.
    pub fn moved(&self, rgb: [u8; 3], role: Role) -> f64 {
        let printed = self.printed_lab(self.convert(rgb, role));
        self.lab(rgb).cie2000_delta_e(&printed, 1.0, 1.0, 1.0)
    }
}

fn lab([l, a, b]: [f64; 3]) -> CIELab {
    CIELab { L: l, a, b }
}

/// ΔE2000 above which a colour's move in print is marked (most people see it).
pub const VISIBLE_MOVE: f64 = 5.0;

#[cfg(test)]
mod tests {
    use super::*;

    fn press(limit: f64, rich: Option<Cmyk>) -> Arc<Press> {
        Press::for_color(&PrintColor {
            condition: Condition::named("CGATS TR 006").unwrap(),
            pdfx: Some(Pdfx::X1a2003),
            ink_limit: limit,
            rich_black: rich,
            black_text: BlackText::K,
            small_print_is_error: true,
        })
        .unwrap()
    }

    #[test]
    fn dark_grey_text_goes_on_the_black_plate_alone() {
        let p = press(240.0, None);
        // Body text #263238: four inks at 258 % through a generic conversion.
        let c = p.convert([0x26, 0x32, 0x38], Role::Text);
        assert!(c.k_only(), "{c:?}");
        assert!(c.0[3] > 200, "nearly full black: {c:?}");
        let grey = p.convert([0x6b, 0x72, 0x80], Role::Line { width: 0.2 });
        assert!(
            grey.k_only() && grey.0[3] > 100 && grey.0[3] < 200,
            "{grey:?}"
        );
        // The same grey as a large area goes through the profile.
        assert!(!p
            .convert(
                [0x6b, 0x72, 0x80],
                Role::Area {
                    width: 50.0,
                    height: 30.0
                }
            )
            .k_only());
    }

    #[test]
    fn every_colour_keeps_to_the_ink_limit() {
        for limit in [240.0, 200.0] {
            let p = press(limit, None);
            for rgb in [
                [0, 0, 0],
                [13, 43, 69],
                [26, 35, 126],
                [90, 20, 10],
                [0, 60, 0],
            ] {
                let c = p.convert(
                    rgb,
                    Role::Area {
                        width: 60.0,
                        height: 90.0,
                    },
                );
                assert!(
                    c.total() <= limit + 0.01,
                    "{rgb:?} -> {c:?} ({} %)",
                    c.total()
                );
            }
            let pixels = [0u8, 0, 0, 255, 13, 43, 69, 255];
            for c in p.image(&pixels).chunks(4) {
                let t = c.iter().map(|&v| f64::from(v)).sum::<f64>() / 2.55;
                assert!(t <= limit + 0.01, "{c:?}");
            }
        }
    }

    #[test]
    fn large_black_takes_the_rich_black_and_the_proof_comes_back() {
        let rich = Cmyk::from_percent([60.0, 40.0, 40.0, 100.0]);
        let p = press(240.0, Some(rich));
        assert_eq!(
            p.convert(
                [0, 0, 0],
                Role::Area {
                    width: 60.0,
                    height: 90.0
                }
            ),
            rich
        );
        assert_ne!(p.convert([0, 0, 0], Role::Text), rich);
        // White stays paper; a mid blue comes back close to itself.
        assert_eq!(
            p.convert(
                [255, 255, 255],
                Role::Area {
                    width: 9.0,
                    height: 9.0
                }
            ),
            Cmyk([0; 4])
        );
        assert!(
            p.moved(
                [40, 90, 160],
                Role::Area {
                    width: 9.0,
                    height: 9.0
                }
            ) < 5.0
        );
        // Saturated sRGB green is outside any press gamut.
        assert!(
            p.moved(
                [0, 255, 0],
                Role::Area {
                    width: 9.0,
                    height: 9.0
                }
            ) > VISIBLE_MOVE
        );
    }
}
