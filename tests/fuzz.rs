//! Property test: random and mutated TOML and SVG templates through load, check,
//! render, parse, layout and export must never panic or hang; every failure is a
//! diagnostic. `PROPTEST_CASES=20000 cargo test --release --test fuzz` runs longer.

use std::path::{Path, PathBuf};

use cardstock::pipeline::{build, Options};
use proptest::prelude::*;

const FILES: [&str; 5] = [
    "data/mini/game.toml",
    "data/mini/cards.toml",
    "data/mini/suits.toml",
    "templates/mini/card.svg",
    "templates/mini/token.svg",
];

/// Fragments that tend to break parsers: TOML, Jinja and XML syntax, huge or odd
/// numbers, unicode.
const TOKENS: [&str; 40] = [
    "[[",
    "]]",
    "[",
    "]",
    "=",
    "\"",
    "'",
    "{{",
    "}}",
    "{%",
    "%}",
    "{#",
    "<",
    ">",
    "&",
    "/>",
    "</svg>",
    "\n",
    "qty = -1",
    "qty = 1000000000",
    "size = \"x\"",
    "1e309",
    "-0",
    "nan",
    "inf",
    "\u{0}",
    "🂡",
    "王",
    "é",
    "{{ row.nope }}",
    "{% for i in range(100000) %}x{% endfor %}",
    "{{ lookup('suit', 'x') }}",
    "{% include 'mini/card.svg' %}",
    "<image href=\"../x.png\"/>",
    "fill=\"nope\"",
    "width=\"-5\"",
    "table = \"nope\"",
    "kind = \"card\"",
    "[[component]]\nid = \"x\"",
    "x = { a = [1, {b = 2}] }",
];

#[derive(Debug, Clone)]
enum Mutation {
    Delete { at: usize, len: usize },
    Insert { at: usize, token: usize },
    Bytes { at: usize, bytes: Vec<u8> },
    Duplicate { at: usize, len: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1usize..40).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(at, token)| Mutation::Insert { at, token }),
        (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(at, bytes)| Mutation::Bytes { at, bytes }),
        (any::<usize>(), 1usize..200).prop_map(|(at, len)| Mutation::Duplicate { at, len }),
    ]
}

fn apply(text: &[u8], m: &Mutation) -> Vec<u8> {
    let mut t = text.to_vec();
    let pos = |at: usize| if t.is_empty() { 0 } else { at % (t.len() + 1) };
    match m {
        Mutation::Delete { at, len } => {
            let a = pos(*at);
            let b = (a + len).min(t.len());
            t.drain(a..b);
        }
        Mutation::Insert { at, token } => {
            let a = pos(*at);
            t.splice(a..a, TOKENS[*token].bytes());
        }
        Mutation::Bytes { at, bytes } => {
            let a = pos(*at);
            t.splice(a..a, bytes.iter().copied());
        }
        Mutation::Duplicate { at, len } => {
            let a = pos(*at);
            let b = (a + len).min(t.len());
            let copy = t[a..b].to_vec();
            t.splice(b..b, copy);
        }
    }
    t
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let (p, t) = (e.path(), to.join(e.file_name()));
        if p.is_dir() {
            copy_dir(&p, &t)
        } else {
            std::fs::copy(&p, &t).unwrap();
        }
    }
}

/// 300 cases in `cargo test`; `PROPTEST_CASES=N` for a longer run.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_games_never_panic(file in 0..FILES.len(), muts in proptest::collection::vec(mutation(), 1..6)) {
        let tmp = tempfile::tempdir().unwrap();
        copy_dir(&repo().join("tests/fixtures/base"), tmp.path());
        copy_dir(&repo().join("templates/common"), &tmp.path().join("templates/common"));
        let path = tmp.path().join(FILES[file]);
        let mut text = std::fs::read(&path).unwrap();
        for m in &muts {
            text = apply(&text, m);
        }
        std::fs::write(&path, &text).unwrap();
        let built = build(tmp.path(), "mini", &Options::default());
        // Whatever happened is reported: either output or at least one error.
        prop_assert!(!built.outputs.files.is_empty() || built.diags.has_errors());
        // And every diagnostic renders.
        let _ = built.diags.render(tmp.path());
    }
}
