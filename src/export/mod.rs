//! Exporters: pure functions from laid-out sheets or parsed faces to file bytes.

pub mod cmyk;
pub mod impose;
pub mod pdf;
pub mod pdfx;
pub mod png;
pub mod repeats;
pub mod split;

use std::sync::Arc;

use usvg::Tree;

use crate::svg::elements::Elements;
use crate::text::glyphs::GlyphRun;

/// A face's parsed picture: its trees, drawn one over the other from the first,
/// then the text its maker placed itself, as glyph runs (a rulebook page's: in
/// mm of the picture as placed, drawn over the trees; the PDF writer draws them, and a picture
/// with them is only given to it). A front over a layer is the layer's tree (the
/// same one for every front over it) and then the front's own; any other face is
/// one tree.
#[derive(Clone, Debug)]
pub struct Stack {
    trees: Vec<Arc<Tree>>,
    texts: Option<Arc<[GlyphRun]>>,
    /// For a tree parsed from the face's tagged text ([`crate::svg::elements::tagged`]):
    /// the elements its nodes' ids name.
    tagged: Option<Arc<Elements>>,
}

impl Stack {
    /// A picture of one tree.
    pub fn one(tree: Arc<Tree>) -> Stack {
        Stack {
            trees: vec![tree],
            texts: None,
            tagged: None,
        }
    }

    /// A picture of one tree parsed from a face's tagged text
    /// ([`crate::svg::elements::tagged`]): it draws what the text does, and its nodes
    /// carry ids that name their `elements`.
    pub fn tagged(tree: Arc<Tree>, elements: Arc<Elements>) -> Stack {
        Stack {
            tagged: Some(elements),
            ..Stack::one(tree)
        }
    }

    /// `own` drawn over `under`.
    pub fn over(under: Arc<Tree>, own: Arc<Tree>) -> Stack {
        Stack {
            trees: vec![under, own],
            texts: None,
            tagged: None,
        }
    }

    /// `tree` with `texts` drawn over it.
    pub fn with_texts(tree: Arc<Tree>, texts: Arc<[GlyphRun]>) -> Stack {
        Stack {
            trees: vec![tree],
            texts: Some(texts),
            tagged: None,
        }
    }

    /// The trees, bottom first.
    pub fn trees(&self) -> &[Arc<Tree>] {
        &self.trees
    }

    /// The elements its nodes' ids name, when its one tree was parsed from the
    /// face's tagged text ([`Stack::tagged`]).
    pub fn tagged_elements(&self) -> Option<&Arc<Elements>> {
        self.tagged.as_ref()
    }

    /// The glyph runs drawn over the trees.
    pub fn texts(&self) -> &[GlyphRun] {
        self.texts.as_deref().unwrap_or_default()
    }

    /// The picture's size (every tree's), in px.
    pub fn size(&self) -> usvg::Size {
        self.trees[0].size()
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
