use crate::hb::ot_layout::LayoutLookup;
use crate::hb::ot_layout_common::PositioningLookup;
use crate::hb::ot_layout_gsubgpos::Apply;
use crate::hb::ot_layout_gsubgpos::OT::hb_ot_apply_context_t;
use crate::hb::set_digest::{hb_set_digest_ext, hb_set_digest_t};

impl LayoutLookup for PositioningLookup<'_> {
    fn props(&self) -> u32 {
        self.props
    }

    fn is_reverse(&self) -> bool {
        false
    }

    fn digest(&self) -> &hb_set_digest_t {
        &self.set_digest
    }
}

impl Apply for PositioningLookup<'_> {
    fn apply(&self, ctx: &mut hb_ot_apply_context_t) -> Option<()> {
        // cardstock patch: every subtable's `apply` returns at once when the
        // current glyph is not in its coverage (the lookup's digest above, the
        // union of those coverages, already relies on it), so a subtable whose
        // own digest rules the glyph out is skipped, as HarfBuzz's lookup
        // accelerator does. A font whose kerning is split into many subtables
        // searched every subtable's coverage for every glyph.
        if self.digest().may_have_glyph(ctx.buffer.cur(0).as_glyph()) {
            for (subtable, digest) in self.subtables.iter().zip(&self.subtable_digests) {
                if digest.may_have_glyph(ctx.buffer.cur(0).as_glyph())
                    && subtable.apply(ctx).is_some()
                {
                    return Some(());
                }
            }
        }

        None
    }
}
