//! Exporters: pure functions from laid-out sheets or parsed faces to file bytes.

pub mod pdf;
pub mod png;
pub mod repeats;
