//! The fixture corpus: every `tests/fixtures/<case>/` is the small game in
//! `tests/fixtures/base/` with the case's files laid over it (a file `X.delete`
//! removes `X`). The case runs `cardstock` with the arguments in `args.txt` (default
//! `build`) and its exit status, stdout and stderr must equal `expected.txt`.
//!
//! Each case is its own test, named for its folder with `_` for `-`:
//! `cargo test --test it invalid_csv_cell` runs one, `cargo test --test it fixtures::`
//! all of them. `CARDSTOCK_BLESS=1 cargo test --test it invalid_csv_cell` rewrites
//! that case's `expected.txt` (read the diff before committing). A new folder needs
//! its name in [`cases!`] below: `every_folder_is_a_test` fails until it is there.

use std::path::Path;

use crate::common::*;

fn overlay(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if name == "expected.txt" || name == "args.txt" {
            continue;
        }
        let t = to.join(&name);
        if p.is_dir() {
            std::fs::create_dir_all(&t).unwrap();
            overlay(&p, &t);
        } else if let Some(target) = name.strip_suffix(".delete") {
            let _ = std::fs::remove_file(to.join(target));
        } else {
            std::fs::copy(&p, &t).unwrap();
        }
    }
}

fn run_case(case: &Path) -> String {
    let tmp = base_copy();
    overlay(case, tmp.path());
    let args = std::fs::read_to_string(case.join("args.txt")).unwrap_or_else(|_| "build".into());
    let args: Vec<&str> = args.split_whitespace().collect();
    let o = run(tmp.path(), &args);
    let (stdout, stderr) = texts(&o);
    let root = tmp.path().to_string_lossy().into_owned();
    let clean = |s: &str| s.replace(&root, "<project>");
    format!(
        "args: {}\nexit: {}\n--- stdout\n{}--- stderr\n{}",
        args.join(" "),
        o.status
            .code()
            .map(|c| c.to_string())
            .unwrap_or_else(|| "killed".into()),
        clean(&stdout),
        clean(&stderr)
    )
}

/// Runs the case in `tests/fixtures/<folder>/` and compares (or, with
/// `CARDSTOCK_BLESS`, writes) its `expected.txt`.
fn case(folder: &str) {
    let case = repo().join("tests/fixtures").join(folder);
    assert!(case.is_dir(), "no folder tests/fixtures/{folder}");
    let actual = run_case(&case);
    if folder.starts_with("invalid-") {
        assert!(
            actual.contains("\nexit: 1\n") || actual.contains("\nexit: 2\n"),
            "{folder} must fail:\n{actual}"
        );
    }
    let path = case.join("expected.txt");
    if std::env::var_os("CARDSTOCK_BLESS").is_some() {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        expected == actual,
        "tests/fixtures/{folder}/expected.txt differs (CARDSTOCK_BLESS=1 cargo test --test it {} to accept)\n--- expected\n{expected}\n--- actual\n{actual}",
        folder.replace('-', "_")
    );
}

/// One `#[test]` per case folder (the folder's name with `_` for `-`), and
/// [`CASES`], the list [`every_folder_is_a_test`] checks against the folders.
macro_rules! cases {
    ($($name:ident)*) => {
        $(
            #[test]
            fn $name() {
                case(&stringify!($name).replace('_', "-"));
            }
        )*
        /// Every case's test name.
        const CASES: &[&str] = &[$(stringify!($name)),*];
    };
}

cases! {
    invalid_assert
    invalid_assign_not_compare
    invalid_back_offset
    invalid_contents_expression
    invalid_count_mismatch
    invalid_csv_cell
    invalid_csv_column_renamed
    invalid_csv_column_typo
    invalid_csv_syntax
    invalid_dangling_reference
    invalid_deep_svg
    invalid_deep_toml
    invalid_deny_warnings
    invalid_derive_unknown_table
    invalid_distance_without_network
    invalid_duplicate_component
    invalid_duplicate_id
    invalid_each_table_typo
    invalid_endless_loop
    invalid_error_in_shared_macro
    invalid_expression
    invalid_font_file
    invalid_game_key_after_component
    invalid_game_name
    invalid_huge_qty
    invalid_huge_size
    invalid_icon_in_data
    invalid_image_missing
    invalid_image_not_image
    invalid_image_outside
    invalid_image_url
    invalid_key_captured_by_array
    invalid_layout_grid_on_chits
    invalid_layout_orientation
    invalid_missing_field
    invalid_missing_font
    invalid_missing_glyph
    invalid_missing_kind
    invalid_negative_qty
    invalid_out_dir
    invalid_piece_footprint
    invalid_piece_too_big
    invalid_print_record_cut_short
    invalid_print_record_edited
    invalid_print_record_name
    invalid_print_record_other_game
    invalid_print_record_unknown_set
    invalid_profile_path_placeholder
    invalid_profile_path_same_file
    invalid_qty_float_huge
    invalid_qty_past_64_bits
    invalid_qty_rules_typo
    invalid_recursion
    invalid_reprint_no_record
    invalid_reprint_since_missing
    invalid_row_field_typo
    invalid_rulebook_figure_in_text
    invalid_rulebook_settings
    invalid_rulebook_unknown_figure
    invalid_rulebook_unknown_rule
    invalid_several
    invalid_several_toml
    invalid_svg_parse
    invalid_table_not_rows
    invalid_template_missing
    invalid_template_missing_field
    invalid_template_renamed_column
    invalid_template_syntax
    invalid_toml_syntax
    invalid_too_many_elements
    invalid_unclosed_if
    invalid_undefined_before_filter
    invalid_unknown_colour
    invalid_unknown_field
    invalid_unknown_filter
    invalid_unknown_function
    invalid_unknown_game
    invalid_unknown_paper
    invalid_unknown_profile
    invalid_unknown_size
    invalid_wrong_type
    invalid_zero_qty
    invalid_zero_size
    valid_check_counts
    valid_contents_expression
    valid_csv_table
    valid_game_profile
    valid_piece_footprint
    valid_project_font
    valid_rulebook
    valid_special_chars
    warning_copies_unused
    warning_literal_number
    warning_low_dpi_image
    warning_no_bleed_background
    warning_rulebook_heading_at_foot
    warning_rulebook_literal_number
    warning_rulebook_too_wide
    warning_safe_zone
    warning_shape_covers_text
    warning_text_overflow
    warning_unread_file
}

#[test]
fn every_folder_is_a_test() {
    let dir = repo().join("tests/fixtures");
    let mut folders: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() && p.file_name().unwrap() != "base")
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    for f in &folders {
        assert!(
            !f.contains('_'),
            "tests/fixtures/{f}: name a case with `-`, not `_` (its test is the name with `_`)"
        );
    }
    let tests: Vec<String> = CASES.iter().map(|c| c.replace('_', "-")).collect();
    let missing: Vec<&String> = folders.iter().filter(|f| !tests.contains(f)).collect();
    let stale: Vec<&String> = tests.iter().filter(|t| !folders.contains(t)).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "tests/it/fixtures.rs `cases!` must list every folder of tests/fixtures/: add {missing:?}, remove {stale:?}"
    );
    let invalid = folders.iter().filter(|f| f.starts_with("invalid-")).count();
    assert!(invalid >= 25, "the corpus has {invalid} invalid cases");
}

#[test]
fn base_fixture_builds() {
    let tmp = base_copy();
    let o = run(tmp.path(), &["build"]);
    assert!(o.status.success(), "{:?}", texts(&o));
    assert!(tmp.path().join("output/mini/home/mini.pdf").is_file());
}
