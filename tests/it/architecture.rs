//! The shape of the library, checked on its source: top-level modules depend on
//! each other in one direction (no cycles), only the file source and the output
//! module touch the disk, and only a command decides that a build's files wait on
//! disk.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::common::repo;

/// Every `.rs` file of the library (not the binary's `main.rs` and `cmd/`), with
/// the top-level module it belongs to.
fn library_files() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let src = repo().join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    files.sort();
    files
        .into_iter()
        .filter_map(|p| {
            let rel = p
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if rel == "main.rs" || rel == "lib.rs" || rel.starts_with("cmd/") {
                return None;
            }
            let module = rel
                .split('/')
                .next()
                .unwrap()
                .trim_end_matches(".rs")
                .to_string();
            Some((module, std::fs::read_to_string(&p).unwrap()))
        })
        .collect()
}

/// Top-level module -> the top-level modules its code names as `crate::x`, or
/// `super::x` from a file directly in `src/`.
fn dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let files = library_files();
    let modules: BTreeSet<String> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, text) in &files {
        // Tests inside a module may use anything.
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let entry = deps.entry(module.clone()).or_default();
        for (i, _) in code.match_indices("crate::") {
            let rest = &code[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if name != *module && modules.contains(&name) {
                entry.insert(name);
            }
        }
        // `use crate::{a, b::c}`
        for (i, _) in code.match_indices("crate::{") {
            let rest = &code[i + "crate::{".len()..];
            let group = &rest[..rest.find("};").unwrap_or(rest.len())];
            for part in group.split(',') {
                let name: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if name != *module && modules.contains(&name) {
                    entry.insert(name);
                }
            }
        }
    }
    deps
}

/// The groups of modules that depend on each other in a cycle (Tarjan).
fn cycles(deps: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        deps: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        groups: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.deps.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low[v];
                s.low.insert(v, lv.min(lw));
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low[v];
                s.low.insert(v, lv.min(iw));
            }
        }
        if s.low[v] == s.index[v] {
            let mut group = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                group.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.groups.push(group);
            }
        }
    }
    let mut s = State {
        deps,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        groups: Vec::new(),
    };
    for v in deps.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.groups
}

#[test]
fn modules_depend_on_each_other_in_one_direction() {
    let deps = dependencies();
    assert!(deps.len() > 15, "found the modules: {deps:?}");
    assert!(
        deps["pipeline"].contains("deliver") && deps["deliver"].contains("layout"),
        "the scan sees dependencies: {deps:?}"
    );
    let groups = cycles(&deps);
    assert!(groups.is_empty(), "module cycles: {groups:?}");
}

#[test]
fn the_cycle_finder_finds_cycles() {
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    deps.insert("a".into(), ["b".to_string()].into());
    deps.insert("b".into(), ["c".to_string()].into());
    deps.insert("c".into(), ["a".to_string()].into());
    deps.insert("d".into(), ["a".to_string()].into());
    assert_eq!(cycles(&deps), vec![vec!["a", "b", "c"]]);
}

#[test]
fn only_the_file_source_and_the_output_touch_the_disk() {
    let mut readers = BTreeSet::new();
    for (module, text) in library_files() {
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        if [
            "std::fs",
            "fs::read",
            "File::open",
            "read_dir",
            "canonicalize",
        ]
        .iter()
        .any(|n| code.contains(n))
        {
            readers.insert(module);
        }
    }
    let expected: BTreeSet<String> = ["output", "source"].map(String::from).into();
    assert_eq!(readers, expected, "modules that use the file system");
}

#[test]
fn only_a_command_chooses_to_spill_files_to_disk() {
    // A build's files wait on disk only when the command passes a spilling sink:
    // no stage of the library decides it (the output module defines it).
    let mut choosers = BTreeSet::new();
    for (module, text) in library_files() {
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        if module != "output" && (code.contains("Sink::Spill") || code.contains("spilling_into")) {
            choosers.insert(module);
        }
    }
    assert_eq!(choosers, BTreeSet::new(), "library modules that spill");
    let build = std::fs::read_to_string(repo().join("src/cmd/build.rs")).unwrap();
    assert!(
        build.contains("Sink::Spill(&plan.out)"),
        "the scan sees the command's sink"
    );
}

#[test]
fn the_library_does_not_use_the_command_line_crates() {
    for (module, text) in library_files() {
        for name in [
            "clap::",
            "indicatif::",
            "notify::",
            "httparse::",
            "tungstenite::",
        ] {
            assert!(!text.contains(name), "{module} uses {name}");
        }
    }
}
