//! Exporters: pure functions from laid-out sheets or parsed faces to file bytes.

pub mod cmyk;
pub mod impose;
pub mod pdf;
pub mod pdfx;
pub mod png;
pub mod repeats;

use std::sync::Arc;

use usvg::Tree;

/// A face's parsed picture: its trees, drawn one over the other from the first. A
/// front over a layer is the layer's tree (the same one for every front over it)
/// and then the front's own; any other face is one tree.
#[derive(Clone, Debug)]
pub struct Stack(Vec<Arc<Tree>>);

impl Stack {
    /// A picture of one tree.
    pub fn one(tree: Arc<Tree>) -> Stack {
        Stack(vec![tree])
    }

    /// `own` drawn over `under`.
    pub fn over(under: Arc<Tree>, own: Arc<Tree>) -> Stack {
        Stack(vec![under, own])
    }

    /// The trees, bottom first.
    pub fn trees(&self) -> &[Arc<Tree>] {
        &self.0
    }

    /// The picture's size (every tree's), in px.
    pub fn size(&self) -> usvg::Size {
        self.0[0].size()
    }
}

impl From<Arc<Tree>> for Stack {
    fn from(tree: Arc<Tree>) -> Stack {
        Stack::one(tree)
    }
}

/// The parsed picture of each face index, for the exporters (`None`: no such face,
/// or a sheet drawn without faces).
pub type Faces<'a> = dyn Fn(usize) -> Option<Stack> + Sync + 'a;
