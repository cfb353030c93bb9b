//! The live preview renders again only the faces whose inputs changed
//! (`render::RenderCache`): each build here runs the real pipeline on a copy of a
//! real game, with the cache the preview keeps, and its faces are compared with a
//! build from scratch of the same files (nothing stale, nothing different).

use std::path::Path;

use cardstock::output::Sink;
use cardstock::pipeline::{build_choosing, Incremental, RenderCache};
use cardstock::project::Project;

use crate::common::*;

/// One build's distinct face texts, and the renders it made and took from the cache.
struct Faces {
    texts: Vec<String>,
    made: usize,
    reused: usize,
}

/// Builds `game` of the project at `root` up to its parsed faces (nothing delivered),
/// with `cache` if given.
fn faces(root: &Path, game: &str, cache: Option<&RenderCache>) -> Faces {
    use std::sync::atomic::Ordering::Relaxed;
    let project = Project::disk(root).unwrap();
    let incremental = Incremental {
        rendered: cache,
        ..Incremental::default()
    };
    let opts = cardstock::options::Options::default();
    let (built, finished) =
        build_choosing(&project, game, &opts, incremental, Sink::Memory, |_, _| {
            false.into()
        });
    assert!(!built.diags.has_errors(), "{}", built.diags.render(&()));
    let store = &finished.expect("the faces rendered").rendered.store;
    Faces {
        texts: (0..store.len())
            .map(|i| store.svg(i).into_owned())
            .collect(),
        made: cache.map_or(0, |c| c.made.load(Relaxed)),
        reused: cache.map_or(0, |c| c.reused.load(Relaxed)),
    }
}

/// Builds with `cache` and checks the faces against a build from scratch.
fn same_as_fresh(root: &Path, game: &str, cache: &RenderCache) -> Faces {
    kept_and_fresh(root, game, cache).0
}

/// [`same_as_fresh`], with the build from scratch.
fn kept_and_fresh(root: &Path, game: &str, cache: &RenderCache) -> (Faces, Faces) {
    let kept = faces(root, game, Some(cache));
    let fresh = faces(root, game, None);
    assert_same(&kept, &fresh);
    (kept, fresh)
}

/// Checks a build's faces against those of a build from scratch.
fn assert_same(kept: &Faces, fresh: &Faces) {
    assert_eq!(kept.texts.len(), fresh.texts.len());
    for (k, f) in kept.texts.iter().zip(&fresh.texts) {
        assert!(k == f, "a kept face differs from a fresh render");
    }
}

#[test]
fn noting_reads_and_keeping_renders_changes_no_face_of_any_game() {
    for game in [
        "interstate-trucking",
        "black-pawn-trucking",
        "truck-off",
        "inside-track",
        "parcel-delivery",
    ] {
        // Nothing changes between the builds: one build from scratch for both.
        let fresh = faces(&repo(), game, None);
        let cache = RenderCache::default();
        let first = faces(&repo(), game, Some(&cache));
        assert_same(&first, &fresh);
        assert!(first.made > 0 && first.reused == 0, "{game}: all rendered");
        let again = faces(&repo(), game, Some(&cache));
        assert_same(&again, &fresh);
        assert_eq!(
            (again.made, again.reused),
            (0, first.made),
            "{game}: nothing changed, nothing rendered again"
        );
    }
}

#[test]
fn an_edit_renders_again_only_the_faces_that_read_what_it_changed() {
    const GAME: &str = "interstate-trucking";
    let tmp = project_copy(&[GAME]);
    let root = tmp.path();
    let data = root.join("data").join(GAME);
    let cache = RenderCache::default();
    let all = same_as_fresh(root, GAME, &cache).made;

    // A comment in a data file: no value changed, nothing is rendered again.
    edit(
        &data.join("contracts.toml"),
        "# ---- starting contracts",
        "# ---- starting contracts (the first six)",
    );
    let f = same_as_fresh(root, GAME, &cache);
    assert_eq!((f.made, f.reused), (0, all), "a comment");

    // A `[rules]` key no template names: only what goes through every key
    // (`rules | items`: the player aid, and the layer all six screens share) is
    // rendered again.
    edit(
        &data.join("game.toml"),
        "perishable_loss = 100",
        "perishable_loss = 100\nread_by_nothing = \"a note\"",
    );
    let (f, unnamed_key) = kept_and_fresh(root, GAME, &cache);
    assert_eq!((f.made, f.reused), (2, all - 2), "an unnamed rules key");

    // One contract's destination: that card's two sides, nothing else.
    let contracts = data.join("contracts.toml");
    let text = std::fs::read_to_string(&contracts).unwrap();
    let was = set_field(&text, "contract", 12, "city", "\"denver\"");
    let now = set_field(&text, "contract", 12, "city", "\"kansas-city\"");
    assert_ne!(was, now);
    std::fs::write(&contracts, &was).unwrap();
    same_as_fresh(root, GAME, &cache);
    // Kansas City is the contract's own city: the files are again, byte for byte,
    // those of the build from scratch after the unnamed rules key, so that build's
    // faces are the ones to match (a second build from scratch of the same files
    // would only repeat it).
    assert_eq!(now, text, "the contracts as they were");
    std::fs::write(&contracts, &now).unwrap();
    let f = faces(root, GAME, Some(&cache));
    assert_same(&f, &unnamed_key);
    assert_eq!((f.made, f.reused), (2, all - 2), "one contract's row");
    assert!(f.texts.iter().any(|t| t.contains("Kansas City, MO")));

    // A `[rules]` key the player aid, the screens (their shared layer) and the
    // board read: those, showing it.
    edit(
        &data.join("game.toml"),
        "note = \"collect the delivery fee\"",
        "note = \"collect the fee on the card\"",
    );
    let f = same_as_fresh(root, GAME, &cache);
    assert_eq!(
        (f.made, f.reused),
        (3, all - 3),
        "a rules key the aids show"
    );
    assert!(f
        .texts
        .iter()
        .any(|t| t.contains("collect the fee on the card")));
    let aids = f.made;

    // A macro of an imported template: the faces that import it, with its change.
    edit(
        &root.join("templates/common/shapes.svg"),
        "stroke-linejoin=\"round\"/>",
        "stroke-linejoin=\"miter\"/>",
    );
    let f = same_as_fresh(root, GAME, &cache);
    assert!(f.made > aids && f.reused > 0, "{} {}", f.made, f.reused);
    assert!(f
        .texts
        .iter()
        .any(|t| t.contains("stroke-linejoin=\"miter\"")));

    // An icon file: any text may show it, so every face is rendered again.
    let icon = root.join("templates/common/icons/star.svg");
    let star = std::fs::read_to_string(&icon).unwrap();
    std::fs::write(&icon, format!("{star}\n")).unwrap();
    let f = same_as_fresh(root, GAME, &cache);
    assert_eq!((f.made, f.reused), (all, 0), "an icon file");
}
