//! cardstock: TOML data + SVG templates -> checked, print-ready tabletop game parts.
//!
//! The pipeline runs in one direction (see `README.md`):
//! [`model`] loads a game folder, [`check`] validates it, [`render`] turns every
//! component face into SVG text through [`template`], [`svg`] parses that text with
//! the fonts compiled into the binary ([`fonts`]), [`layout`] places faces on sheets,
//! and [`export`] writes PDF, PNG and SVG bytes. Only [`cmd`] and [`output`] touch
//! the file system.

// Errors are diagnostics (a few hundred bytes) on the cold path; boxing them would only
// add noise.
#![allow(clippy::result_large_err)]

pub mod check;
pub mod cmd;
pub mod deliver;
pub mod diag;
pub mod eval;
pub mod export;
pub mod faces;
pub mod fonts;
pub mod layout;
pub mod model;
pub mod network;
pub mod output;
pub mod pipeline;
pub mod preflight;
pub mod profile;
pub mod project;
pub mod render;
pub mod svg;
pub mod template;
pub mod text;
pub mod units;
