//! Property test: random and mutated TOML and SVG templates through load, check,
//! render, parse, layout and export must never panic or hang; every failure is a
//! diagnostic. `PROPTEST_CASES=20000 cargo test --release --test fuzz` runs longer.

use std::path::{Path, PathBuf};

use cardstock::options::Options;
use cardstock::pipeline::{build, Caches};
use cardstock::project::Project;
use cardstock::source::MemoryFiles;
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

/// Every file under `from`, keyed by its path below `from` prefixed with `prefix`.
fn files_of(from: &Path, prefix: &str, out: &mut Vec<(String, Vec<u8>)>) {
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        let key = format!("{prefix}{}", e.file_name().to_string_lossy());
        if p.is_dir() {
            files_of(&p, &format!("{key}/"), out);
        } else {
            out.push((key, std::fs::read(&p).unwrap()));
        }
    }
}

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
        // The whole project in memory: the library reads no disk.
        let mut files = Vec::new();
        files_of(&repo().join("tests/fixtures/base"), "", &mut files);
        files_of(&repo().join("templates/common"), "templates/common/", &mut files);
        let mut memory = MemoryFiles::new();
        for (path, bytes) in files {
            let bytes = if path == FILES[file] {
                muts.iter().fold(bytes, |t, m| apply(&t, m))
            } else {
                bytes
            };
            memory.insert(&path, bytes);
        }
        let project = Project::new(memory);
        let built = build(&project, "mini", &Options::default(), Caches::default());
        // Whatever happened is reported: either output or at least one error.
        prop_assert!(!built.outputs.files.is_empty() || built.diags.has_errors());
        // And every diagnostic renders from the sources already read.
        let _ = built.diags.render(&project);
    }
}
