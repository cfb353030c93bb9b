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

// Errors are diagnostics (a few hundred bytes) on the cold path; boxing them would only
// add noise.
#![allow(clippy::result_large_err)]

pub mod check;
pub mod color;
pub mod deliver;
pub mod diag;
pub mod eval;
pub mod export;
pub mod faces;
pub mod fonts;
pub mod fuel;
pub mod geom;
pub mod image;
pub mod index;
pub mod kept;
pub mod layout;
pub mod model;
pub mod network;
pub mod options;
pub mod output;
pub mod pipeline;
pub mod preflight;
pub mod preview;
pub mod prints;
pub mod profile;
pub mod project;
pub mod render;
pub mod rulebook;
pub mod source;
pub mod svg;
pub mod template;
pub mod text;
pub mod threads;
pub mod units;
mod usvg_patch;
