//! Exporters: pure functions from laid-out sheets or parsed faces to file bytes.

pub mod pdf;
pub mod png;
pub mod repeats;

/// The parsed picture of each face index, for the exporters (`None`: no such face,
/// or a sheet drawn without faces).
pub type Faces<'a> = dyn Fn(usize) -> Option<std::sync::Arc<usvg::Tree>> + Sync + 'a;
