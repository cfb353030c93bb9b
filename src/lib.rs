//! cardstock: TOML data + SVG templates -> checked, print-ready tabletop game parts.
//!
//! The stages run in one direction (see `ARCHITECTURE.md`): [`project`] gives every
//! file through one [`source::Files`] source; [`model`] loads a game folder for the
//! build's [`options`]; [`eval`] computes the network and derived fields; [`check`]
//! validates them; [`render`] turns every component face into SVG text through
//! [`template`]; [`faces`] parses each face once with [`svg`] (fonts compiled in:
//! [`fonts`]); [`preflight`] warns about what a printer would reject; [`deliver`]
//! lays the faces out on sheets ([`layout`]) and exports them ([`export`]). The
//! [`pipeline`] runs them for one game and returns the files; only [`source`] reads
//! the disk and only [`output`] writes it.
//!
//! What the command line, the tests and another program use is `pub`: the pipeline,
//! its options and diagnostics, the project and its file source, the preview and the
//! exporters. The stages' insides (`check`, `eval`, `render`, `preflight`,
//! `deliver`, `rulebook`, `text`, ...) are `pub(crate)`: reached through
//! [`pipeline`], free to change.

// Errors are diagnostics (a few hundred bytes) on the cold path; boxing them would only
// add noise.
#![allow(clippy::result_large_err)]

pub(crate) mod box_grid;
pub(crate) mod check;
pub mod color;
pub(crate) mod deliver;
pub mod diag;
pub(crate) mod eval;
pub mod export;
pub mod faces;
pub mod fonts;
pub(crate) mod fuel;
pub(crate) mod geom;
pub(crate) mod hex;
pub(crate) mod image;
pub(crate) mod index;
pub(crate) mod kept;
pub mod layout;
pub mod model;
pub(crate) mod network;
pub mod options;
pub mod output;
pub mod pipeline;
pub(crate) mod preflight;
pub mod preview;
pub mod prints;
pub mod profile;
pub mod project;
pub(crate) mod render;
pub(crate) mod rulebook;
pub(crate) mod shaping;
pub mod source;
pub mod svg;
pub mod template;
pub(crate) mod text;
pub mod threads;
pub mod units;
mod usvg_patch;
