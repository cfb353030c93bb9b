use krilla::graphic::Graphic;
use krilla::num::NormalizedF32;
use krilla::paint::Fill;
use krilla::surface::Surface;
use usvg::{BlendMode, Node, Opacity};

use crate::util::{convert_blend_mode, RectExt, UsvgTransformExt};
use crate::{clip_path, filter, image, mask, path, text, ProcessContext};

pub(crate) fn render(
    group: &usvg::Group,
    surface: &mut Surface,
    process_context: &mut ProcessContext,
) {
    if !group.filters().is_empty() {
        filter::render(group, surface, process_context);
        return;
    }

    let mut pop_count = 0;

    surface.push_transform(&group.transform().to_krilla());
    pop_count += 1;

    if let Some(clip_path) = group.clip_path() {
        pop_count += clip_path::render(group, clip_path, surface, process_context);
    }

    if let Some(mask) = group.mask() {
        pop_count += mask::render(mask, surface, process_context);
    }

    surface.push_blend_mode(convert_blend_mode(&group.blend_mode()));
    surface.push_opacity(NormalizedF32::new(group.opacity().get()).unwrap());
    pop_count += 2;

    // There is the `group.should_isolate` method which also returns true if
    // there is a clip path, since strictly speaking, just a clip path
    // also requires layer isolation. However, clip paths are very common
    // and it would be wasteful to generate new isolated XObjects for that
    // (especially since it shouldn't make any visual difference), so we
    // don't include this here.
    let should_isolate = group.isolate()
        || group.opacity() != Opacity::ONE
        || group.mask().is_some()
        || group.blend_mode() != BlendMode::Normal;

    if should_isolate {
        surface.push_isolated();
        pop_count += 1
    }

    // cardstock patch: runs of children the application draws once for the document.
    let children = group.children();
    let mut i = 0;
    while i < children.len() {
        let run = process_context
            .reuse
            .as_ref()
            .and_then(|r| r.run(group, i))
            .filter(|(end, _)| *end > i && *end <= children.len());
        match run {
            Some((end, key)) => {
                render_shared(group, &children[i..end], key, surface, process_context);
                i = end;
            }
            None => {
                render_node(&children[i], surface, process_context);
                i += 1;
            }
        }
    }

    for _ in 0..pop_count {
        surface.pop();
    }
}

/// cardstock patch: draws `nodes` (children of `parent`) as one XObject the first
/// time `key` is seen, and places that XObject again every time after.
fn render_shared(
    parent: &usvg::Group,
    nodes: &[Node],
    key: u128,
    surface: &mut Surface,
    process_context: &mut ProcessContext,
) {
    let drawn = process_context.reuse.as_ref().and_then(|r| r.graphic(key));
    let graphic = match drawn {
        Some(graphic) => graphic,
        None => {
            let mut builder = surface.stream_builder();
            let mut shared = builder.surface();
            for node in nodes {
                render_node(node, &mut shared, process_context);
            }
            // The XObject's BBox (which clips it) is what krilla measured of the
            // content, and krilla measures text by its advances, narrower than
            // some glyphs: a rectangle over usvg's bounds of the nodes makes the
            // BBox hold all they draw. It is filled inside a clip path beside it,
            // so it paints nothing, with no transparency (a print shop's PDF/X-1a
            // allows none, and a converter would flatten the page to a bitmap).
            if let Some(bounds) = run_bounds(parent, nodes) {
                draw_unseen(&mut shared, bounds);
            }
            shared.finish();
            let graphic = Graphic::new(builder.finish(), false);
            if let Some(reuse) = process_context.reuse.as_mut() {
                reuse.keep(key, graphic.clone());
            }
            graphic
        }
    };
    surface.draw_graphic(graphic);
}

/// cardstock patch: makes `bounds` part of what krilla measures of `surface`'s
/// content without painting anything: an opaque rectangle over them, clipped away
/// by a clip path beside them (krilla measures what is drawn, not what the clip
/// leaves, and a PDF reader paints nothing outside the clip).
fn draw_unseen(surface: &mut Surface, bounds: krilla::geom::Rect) {
    let beside = krilla::geom::Rect::from_xywh(bounds.left() - 2.0, bounds.top(), 1.0, 1.0);
    let Some(beside) = beside else { return };
    surface.push_clip_path(&beside.to_clip_path(), &krilla::paint::FillRule::NonZero);
    surface.set_stroke(None);
    surface.set_fill(Some(Fill {
        paint: krilla::color::luma::Color::black().into(),
        ..Fill::default()
    }));
    surface.draw_path(&bounds.to_clip_path());
    surface.pop();
}

/// cardstock patch: the bounds of what `nodes` draw, stroke included, in the
/// coordinates of their `parent` (exact: a face's XObject measures no larger than
/// before, which the print checks read as the part's extent).
fn run_bounds(parent: &usvg::Group, nodes: &[Node]) -> Option<krilla::geom::Rect> {
    let mut r: Option<usvg::Rect> = None;
    for n in nodes {
        let b = n.abs_stroke_bounding_box();
        r = Some(match r {
            None => b,
            Some(r) => usvg::Rect::from_ltrb(
                r.left().min(b.left()),
                r.top().min(b.top()),
                r.right().max(b.right()),
                r.bottom().max(b.bottom()),
            )?,
        });
    }
    let local = r?.transform(parent.abs_transform().invert()?)?;
    krilla::geom::Rect::from_ltrb(local.left(), local.top(), local.right(), local.bottom())
}

pub(crate) fn render_node(
    node: &Node,
    surface: &mut Surface,
    process_context: &mut ProcessContext,
) {
    // cardstock patch: the application may leave nodes out.
    if process_context.colors.is_some_and(|c| !c.draws(node)) {
        return;
    }

    match node {
        Node::Group(g) => render(g, surface, process_context),
        Node::Path(p) => path::render(p, surface, process_context),
        Node::Image(i) => {
            image::render(i, surface, process_context);
        }
        Node::Text(t) => text::render(t, surface, process_context),
    }
}
