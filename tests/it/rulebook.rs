//! The rulebook (`data/<game>/rules.md`): Interstate Trucking's built by the real
//! binary and read back (text, components list, figures, table of contents,
//! bookmarks), a rule changed and the text following it, and booklets of 4, 8
//! and an odd number of pages with their pages in saddle-stitch order.

use std::path::Path;
use std::process::Command;

use crate::common::*;
use crate::print::{read_pdf, Page, HOME_LETTER};

/// Interstate Trucking built at home on Letter, the build the print tests read.
fn built() -> &'static Path {
    crate::print::home_letter_saying("interstate-trucking: 10 component sets")
}

fn rules_pdf(out: &Path, game: &str) -> std::path::PathBuf {
    out.join(game)
        .join("home")
        .join(format!("{game}-rules.pdf"))
}

fn booklet_pdf(out: &Path, game: &str) -> std::path::PathBuf {
    out.join(game)
        .join("home")
        .join(format!("{game}-rules-booklet.pdf"))
}

/// The whole text of a PDF, laid out (`pdftotext -layout`), one string a page.
fn pages_text(pdf: &Path) -> Vec<String> {
    let o = Command::new("pdftotext")
        .args(["-layout"])
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) is installed");
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let mut pages: Vec<String> = text.split('\u{c}').map(str::to_string).collect();
    if pages.last().is_some_and(|p| p.trim().is_empty()) {
        pages.pop();
    }
    pages
}

/// Money as the game's `money` filter writes it: `$1,700`.
fn money(v: i64) -> String {
    let digits = v.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    format!("${out}")
}

fn game_toml(dir: &Path, game: &str) -> toml::Table {
    let text = std::fs::read_to_string(dir.join("data").join(game).join("game.toml")).unwrap();
    toml::from_str(&text).unwrap()
}

/// The number at `path` (dotted) of `[rules]`.
fn rule(t: &toml::Table, path: &str) -> i64 {
    let mut v = &t["rules"];
    for k in path.split('.') {
        v = &v[k];
    }
    v.as_integer().unwrap_or_else(|| panic!("rules.{path}"))
}

/// The text with runs of whitespace made single spaces.
fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_rule_the_rulebook_cites_is_there_as_the_data_says() {
    let t = game_toml(&repo(), "interstate-trucking");
    let text = squeeze(&pages_text(&rules_pdf(built(), "interstate-trucking")).join(" "));
    let cited = [
        format!("{} action points", rule(&t, "action_points")),
        format!("banked {}", money(rule(&t, "end_trigger"))),
        format!("and {} from the bank", money(rule(&t, "starting_money"))),
        format!(
            "plus {}, beside the board",
            rule(&t, "available_contracts_extra")
        ),
        format!(
            "take off {} for every move",
            money(rule(&t, "penalty_per_space"))
        ),
        format!(
            "{} goes back from the card",
            money(rule(&t, "perishable_loss"))
        ),
        format!("You may hold {} at most", rule(&t, "max_rest_markers")),
        format!("hand back {} Rest markers", rule(&t, "push_on_rest")),
        format!("goods: {} a trailer", rule(&t, "goods_per_trailer")),
        // The worked example's fee, derived from [rules.fee] and the routes.
        format!(
            "the fee of {} from the bank",
            money(rule(&t, "fee.base") + 10 * rule(&t, "fee.per_move"))
        ),
    ];
    for c in &cited {
        assert!(
            text.contains(c.as_str()),
            "the rulebook lacks {c:?}:\n{text}"
        );
    }
    // The bonus table: one row per kind of goods, in [rules.kinds].
    for kind in ["perishable", "regular", "premium"] {
        let k = &t["rules"]["kinds"][kind];
        let label = k["label"].as_str().unwrap();
        let bonus: Vec<String> = k["bonus"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| money(b.as_integer().unwrap()))
            .collect();
        let row = format!(
            "{label} {} {}",
            k["shape"].as_str().unwrap(),
            bonus.join(" ")
        );
        assert!(text.contains(&row), "no bonus row {row:?}");
    }
}

#[test]
fn a_rule_changed_changes_the_rulebook() {
    let tmp = project_copy(&["interstate-trucking"]);
    let game = tmp.path().join("data/interstate-trucking/game.toml");
    // The rule and the assertion that pins the rulebook's number.
    edit(&game, "starting_money = 500", "starting_money = 1500");
    edit(&game, "end_trigger = 10000", "end_trigger = 12000");
    edit(
        &game,
        "rules.starting_money == 500",
        "rules.starting_money == 1500",
    );
    edit(
        &game,
        "rules.end_trigger == 10000",
        "rules.end_trigger == 12000",
    );
    let o = run(tmp.path(), &["build", "interstate-trucking"]);
    assert!(o.status.success(), "{:?}", texts(&o));
    let text = squeeze(
        &pages_text(&rules_pdf(
            &tmp.path().join("output"),
            "interstate-trucking",
        ))
        .join(" "),
    );
    assert!(text.contains("and $1,500 from the bank"), "{text}");
    assert!(text.contains("banked $12,000") && !text.contains("$10,000"));
    assert!(!text.contains("and $500 from the bank"));
}

#[test]
fn the_components_list_counts_what_contents_says() {
    let t = game_toml(&repo(), "interstate-trucking");
    let doc = read_pdf(&rules_pdf(built(), "interstate-trucking"));
    let components = t["component"].as_array().unwrap();
    let contents = t["contents"].as_table().unwrap();
    assert!(contents.len() >= 8);
    for (id, count) in contents {
        let name = components
            .iter()
            .find(|c| c["id"].as_str() == Some(id))
            .and_then(|c| c["name"].as_str())
            .unwrap();
        // The name's last word, and right of it on the same line, the count.
        let last = name.split_whitespace().last().unwrap();
        let count = count.as_integer().unwrap().to_string();
        let found = doc.pages[..2].iter().any(|page| {
            page.words.iter().enumerate().any(|(k, w)| {
                let before = name.split_whitespace().rev().skip(1);
                w.text == last
                    && before
                        .zip(page.words[..k].iter().rev())
                        .all(|(n, p)| p.text == n)
                    && page.words.iter().any(|c| {
                        c.text == count
                            && c.bbox.x0 > w.bbox.x1
                            && (c.bbox.y0 - w.bbox.y0).abs() < 1.5
                    })
            })
        });
        assert!(
            found,
            "no line \"{name} ... {count}\" in the components list"
        );
    }
}

/// The images a PDF holds (`pdfimages -list`), without its header.
fn raster_images(pdf: &Path) -> usize {
    let o = Command::new("pdfimages")
        .arg("-list")
        .arg(pdf)
        .output()
        .expect("pdfimages (poppler-utils) is installed");
    String::from_utf8_lossy(&o.stdout).lines().skip(2).count()
}

#[test]
fn figures_are_the_faces_drawn_as_vectors() {
    let pdf = rules_pdf(built(), "interstate-trucking");
    assert_eq!(raster_images(&pdf), 0, "every figure is vector art");
    let doc = read_pdf(&pdf);
    // The page with the starting contract shows the card's own text, and its
    // picture is the card's face (63.5 x 88.9 mm trim) drawn at 50 mm wide.
    let with_card = doc
        .pages
        .iter()
        .find(|p| p.text().contains("A starting contract"))
        .expect("the contract's caption");
    assert!(with_card.text().contains("CONTRACT") && with_card.text().contains("DELIVER TO"));
    let card = with_card
        .faces
        .iter()
        .find(|f| ((f.clip.x1 - f.clip.x0) - 50.0).abs() < 0.1)
        .expect("a 50 mm wide figure");
    let high = card.clip.y1 - card.clip.y0;
    assert!((high - 50.0 * 88.9 / 63.5).abs() < 0.1, "{high}");
    // The board, shown whole across the column.
    let with_board = doc
        .pages
        .iter()
        .find(|p| p.text().contains("The board: cities joined"))
        .unwrap();
    assert!(with_board.faces.len() >= 2, "the board and the page");
}

/// The table of contents' entries on page 1: (title, page), the lines that end
/// with a page number, up to the first that does not.
fn contents(page: &str) -> Vec<(String, usize)> {
    let entry = |l: &str| -> Option<(String, usize)> {
        let (title, number) = l.trim().rsplit_once(char::is_whitespace)?;
        Some((title.trim().to_string(), number.parse().ok()?))
    };
    page.lines()
        .filter(|l| !l.trim().is_empty())
        .skip_while(|l| entry(l).is_none())
        .map_while(entry)
        .collect()
}

#[test]
fn the_contents_and_the_bookmarks_point_at_the_right_pages() {
    let pdf = rules_pdf(built(), "interstate-trucking");
    let pages = pages_text(&pdf);
    let entries = contents(&pages[0]);
    assert!(entries.len() >= 10, "{entries:?}");
    for (title, n) in &entries {
        let page = pages
            .get(n - 1)
            .unwrap_or_else(|| panic!("{title}: page {n}"));
        let headings: Vec<String> = page.lines().map(squeeze).collect();
        assert!(
            headings.iter().any(|l| l == title),
            "{title:?} is not on page {n}:\n{page}"
        );
    }
    // A bookmark per heading (the title and those of the contents).
    let doc = crate::common::pdf::Document::load(&pdf).unwrap();
    let toc = doc.get_toc().expect("an outline");
    assert_eq!(toc.toc.len(), entries.len() + 1, "{:?}", toc.toc);
    for (entry, (title, n)) in toc.toc.iter().skip(1).zip(&entries) {
        assert_eq!((&entry.title, entry.page), (title, *n));
    }
}

/// The page numbers printed at the foot of each half of each booklet side.
fn booklet_numbers(page: &Page) -> (Option<usize>, Option<usize>) {
    let foot = |left: bool| {
        page.words
            .iter()
            .filter(|w| w.bbox.y0 > page.h - 12.0)
            .filter(|w| (w.bbox.x1 < page.w / 2.0) == left)
            .find_map(|w| w.text.parse().ok())
    };
    (foot(true), foot(false))
}

/// Checks a booklet of `n` pages: sides in saddle-stitch order, a short-edge
/// flip, every word inside the printer margin.
fn check_booklet(pdf: &Path, n: usize) {
    let doc = read_pdf(pdf);
    assert_eq!(doc.duplex.as_deref(), Some("DuplexFlipShortEdge"));
    assert_eq!(doc.scaling.as_deref(), Some("None"));
    let padded = n.div_ceil(4) * 4;
    assert_eq!(doc.pages.len(), padded / 2, "{n} pages");
    for (k, page) in doc.pages.iter().enumerate() {
        assert!(page.w > page.h, "landscape");
        // Sheet s (from 0): front (padded - 2s, 2s + 1), back (2s + 2, padded - 2s - 1).
        let s = k / 2;
        let (l, r) = if k % 2 == 0 {
            (padded - 2 * s, 2 * s + 1)
        } else {
            (2 * s + 2, padded - 2 * s - 1)
        };
        let real = |p: usize| (p <= n).then_some(p);
        assert_eq!(
            booklet_numbers(page),
            (real(l), real(r)),
            "{n} pages, side {k}"
        );
        for w in &page.words {
            let b = &w.bbox;
            assert!(
                b.x0 > 4.2 && b.y0 > 4.2 && b.x1 < page.w - 4.2 && b.y1 < page.h - 4.2,
                "{:?} outside the printer margin",
                w.text
            );
        }
        // The fold marks: two short dashed lines on the fold, inside the margin.
        let fold: Vec<_> = page
            .lines
            .iter()
            .filter(|l| l.dashed && l.points.iter().all(|p| (p.0 - page.w / 2.0).abs() < 0.1))
            .collect();
        assert_eq!(fold.len(), 2, "side {k}");
        for l in fold {
            assert!(l.points.iter().all(|p| p.1 > 4.2 && p.1 < page.h - 4.2));
        }
    }
}

#[test]
fn the_booklet_folds_into_reading_order() {
    let pages = pages_text(&rules_pdf(built(), "interstate-trucking")).len();
    check_booklet(&booklet_pdf(built(), "interstate-trucking"), pages);
}

/// A PDF's pages drawn at 50 dpi by `pdftoppm`: (width, height, RGB pixels).
fn raster(pdf: &Path) -> Vec<(usize, usize, Vec<u8>)> {
    let tmp = tempfile::tempdir().unwrap();
    let o = Command::new("pdftoppm")
        .args(["-r", "50"])
        .arg(pdf)
        .arg(tmp.path().join("p"))
        .output()
        .expect("pdftoppm (poppler-utils) is installed");
    assert!(o.status.success(), "pdftoppm {}", pdf.display());
    let mut files: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    files.sort_by_key(|e| e.as_ref().unwrap().file_name());
    files
        .into_iter()
        .map(|f| {
            // P6, width, height, 255, then the pixels.
            let b = std::fs::read(f.unwrap().path()).unwrap();
            let mut fields = Vec::new();
            let mut at = 0;
            while fields.len() < 4 {
                while b[at].is_ascii_whitespace() {
                    at += 1;
                }
                let start = at;
                while !b[at].is_ascii_whitespace() {
                    at += 1;
                }
                fields.push(String::from_utf8_lossy(&b[start..at]).into_owned());
            }
            assert_eq!(fields[0], "P6");
            let (w, h) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
            (w, h, b[at + 1..].to_vec())
        })
        .collect()
}

/// The pixels of columns `x0..x0 + w` of a picture `width` wide.
fn columns(px: &[u8], width: usize, x0: usize, w: usize) -> Vec<u8> {
    px.chunks(3 * width)
        .flat_map(|row| &row[3 * x0..3 * (x0 + w)])
        .copied()
        .collect()
}

/// The booklet places the reading PDF's pages (on Letter, at their size): each
/// half of each side draws, pixel for pixel, the reading page it holds (but for
/// the fold mark), or nothing.
#[test]
fn the_booklet_draws_the_reading_pages_pixel_for_pixel() {
    let reading = raster(&rules_pdf(built(), "interstate-trucking"));
    let sides = raster(&booklet_pdf(built(), "interstate-trucking"));
    let n = reading.len();
    let padded = n.div_ceil(4) * 4;
    assert_eq!(sides.len(), padded / 2);
    let (pw, ph, _) = reading[0];
    for (k, (w, h, px)) in sides.iter().enumerate() {
        assert_eq!((*w, *h), (2 * pw, ph), "side {k}: two pages wide");
        let s = k / 2;
        let (l, r) = if k % 2 == 0 {
            (padded - 2 * s, 2 * s + 1)
        } else {
            (2 * s + 2, padded - 2 * s - 1)
        };
        for (page, x0) in [(l, 0), (r, pw)] {
            let half = columns(px, *w, x0, pw);
            match reading.get(page - 1) {
                Some((_, _, page_px)) => {
                    // Every pixel but the two columns of the fold mark.
                    let off = half
                        .chunks(3)
                        .zip(page_px.chunks(3))
                        .enumerate()
                        .filter(|(i, _)| (x0 + i % pw).abs_diff(pw) > 1)
                        .filter(|(_, (a, b))| a != b)
                        .count();
                    assert_eq!(off, 0, "side {k}: page {page} differs in {off} pixels");
                }
                None => assert!(
                    half.iter().all(|&v| v == 255),
                    "side {k}: the blank page {page} is not blank"
                ),
            }
        }
    }
}

/// `pdffonts` of a PDF: each font's name (with its subset tag) and type.
fn fonts(pdf: &Path) -> Vec<String> {
    let o = Command::new("pdffonts")
        .arg(pdf)
        .output()
        .expect("pdffonts (poppler-utils) is installed");
    assert!(o.status.success());
    let mut out: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .collect();
    out.sort();
    out
}

/// The booklet's fonts are the reading PDF's subsets, copied (the same subset
/// tags: no font subset again), each once, and the booklet has no outline.
#[test]
fn the_booklet_embeds_the_reading_pdfs_fonts_once() {
    for game in games_with_rulebooks() {
        let out = built();
        let reading = fonts(&rules_pdf(out, &game));
        assert!(!reading.is_empty(), "{game}");
        assert_eq!(fonts(&booklet_pdf(out, &game)), reading, "{game}");
        let booklet = crate::common::pdf::Document::load(booklet_pdf(out, &game)).unwrap();
        let root = booklet
            .trailer
            .get(b"Root")
            .unwrap()
            .as_reference()
            .unwrap();
        let catalog = booklet.get_dictionary(root).unwrap();
        assert!(catalog.get(b"Outlines").is_err(), "{game}: an outline");
    }
}

#[test]
fn booklets_of_four_eight_and_five_pages() {
    for n in [4, 8, 5] {
        let tmp = base_copy();
        let sections: Vec<String> = (1..=n)
            .map(|k| format!("## Part {k}\n\nThe text of part {k}.\n"))
            .collect();
        let md = sections.join("\n{{ page_break() }}\n\n");
        std::fs::write(tmp.path().join("data/mini/rules.md"), md).unwrap();
        let o = run(tmp.path(), &["build", "mini"]);
        assert!(o.status.success(), "{:?}", texts(&o));
        let out = tmp.path().join("output");
        assert_eq!(pages_text(&rules_pdf(&out, "mini")).len(), n);
        check_booklet(&booklet_pdf(&out, "mini"), n);
    }
}

#[test]
fn check_says_how_many_pages() {
    let tmp = project_copy(&["interstate-trucking"]);
    let o = run(tmp.path(), &["check", "interstate-trucking"]);
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stderr}");
    let pages = pages_text(&rules_pdf(built(), "interstate-trucking")).len();
    let sheets = pages.div_ceil(4);
    let s = if sheets == 1 { "" } else { "s" };
    assert!(
        stdout.contains(&format!(
            "rulebook: {pages} pages (a booklet of {sheets} sheet{s})"
        )),
        "{stdout}"
    );
}

/// Every game of `data/` with a rulebook.
fn games_with_rulebooks() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(repo().join("data"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("rules.md").is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

/// The `[rules]` numbers `rules.md` prints (`{{ rules.x }}` and `{{ rules.x |
/// money }}`), as the text must show them.
fn cited(md: &str, t: &toml::Table) -> Vec<(String, String)> {
    let currency = t["game"]
        .get("currency")
        .and_then(|c| c.as_str())
        .unwrap_or("$")
        .to_string();
    let mut out = Vec::new();
    for (k, _) in md.match_indices("{{ rules.") {
        let rest = &md[k + 3..];
        let Some(end) = rest.find("}}") else { continue };
        let expr = rest[..end].trim();
        let (path, filter) = match expr.split_once('|') {
            Some((p, f)) => (p.trim(), Some(f.trim())),
            None => (expr, None),
        };
        if !path[6..]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        {
            continue;
        }
        let mut v = &t["rules"];
        let mut found = true;
        for key in path[6..].split('.') {
            match v.get(key) {
                Some(x) => v = x,
                None => found = false,
            }
        }
        let Some(n) = v.as_integer().filter(|_| found) else {
            continue;
        };
        let shown = match filter {
            None => n.to_string(),
            Some("money") => money(n).replacen('$', &currency, 1),
            Some(_) => continue,
        };
        out.push((path.to_string(), shown));
    }
    out
}

#[test]
fn every_game_has_a_rulebook_citing_its_rules_and_listing_its_contents() {
    let out = crate::print::built(&HOME_LETTER, "home", "letter");
    let games = games_with_rulebooks();
    assert!(games.len() >= 5, "{games:?}");
    for game in &games {
        let md = std::fs::read_to_string(repo().join("data").join(game).join("rules.md")).unwrap();
        let t = game_toml(&repo(), game);
        let pdf = rules_pdf(out, game);
        let text = squeeze(&pages_text(&pdf).join(" "));
        let cites = cited(&md, &t);
        assert!(cites.len() >= 4, "{game} cites {cites:?}");
        for (path, shown) in &cites {
            assert!(
                text.contains(shown.as_str()),
                "{game}: {path} = {shown} is not in the rulebook"
            );
        }
        // The components list: every set's name, and the count [contents] holds.
        let doc = read_pdf(&pdf);
        let words: Vec<&str> = doc
            .pages
            .iter()
            .flat_map(|p| p.words.iter().map(|w| w.text.as_str()))
            .collect();
        let contents = t
            .get("contents")
            .and_then(|c| c.as_table())
            .cloned()
            .unwrap_or_default();
        for c in t["component"].as_array().unwrap() {
            let id = c["id"].as_str().unwrap();
            let name = c.get("name").and_then(|n| n.as_str()).unwrap_or(id);
            let first = name.split_whitespace().next().unwrap();
            assert!(
                words.contains(&first),
                "{game}: {name} is not in the components list"
            );
            if let Some(n) = contents.get(id).and_then(|n| n.as_integer()) {
                assert!(
                    words.contains(&n.to_string().as_str()),
                    "{game}: no count {n} for {id}"
                );
            }
        }
        // Vector figures only, and a booklet of the right size.
        assert_eq!(raster_images(&pdf), 0, "{game}");
        check_booklet(&booklet_pdf(out, game), pages_text(&pdf).len());
    }
}

/// Every word of every rulebook page lies inside the BBox (which clips it) of a
/// picture the page draws. krilla measures a run of glyphs by its pen positions,
/// and krilla-svg's runs gave the last glyph no advance: the page's BBox ended at
/// the origin of the widest line's last glyph, and that glyph did not print
/// ("bank a" for "bank at" on Interstate Trucking's page 7).
#[test]
fn no_word_of_a_rulebook_page_is_cut_off_by_its_pictures_bounds() {
    let out = crate::print::built(&HOME_LETTER, "home", "letter");
    // pdftotext's word boxes and the BBoxes, in mm: a glyph's box may reach a
    // hundredth of a millimetre past its advance.
    let inside = |b: &crate::print::R, w: &crate::print::R| {
        w.x0 >= b.x0 - 0.05 && w.x1 <= b.x1 + 0.05 && w.y0 >= b.y0 - 2.0 && w.y1 <= b.y1 + 2.0
    };
    for game in games_with_rulebooks() {
        let pdf = read_pdf(&rules_pdf(out, &game));
        for (k, page) in pdf.pages.iter().enumerate() {
            for w in &page.words {
                assert!(
                    page.faces.iter().any(|f| inside(&f.bbox, &w.bbox)),
                    "{game}'s rulebook, page {}: {:?} at {:?} is outside every picture's bounds {:?}",
                    k + 1,
                    w.text,
                    w.bbox,
                    page.faces.iter().map(|f| &f.bbox).collect::<Vec<_>>()
                );
            }
        }
    }
}

/// No word of a real game's rulebook runs past the right edge of the text column
/// (the page less its margin, the same on both sides: the leftmost word's). A
/// ragged line, or a justified paragraph's last, was broken as if its spaces could
/// shrink and then set with them whole: Parcel Delivery's setup step 5 ended 1 mm
/// into the margin ("warehouse." at 129.1 mm of a column ending at 128.1 mm).
#[test]
fn no_word_of_a_rulebook_runs_past_its_column() {
    let out = crate::print::built(&HOME_LETTER, "home", "letter");
    for game in games_with_rulebooks() {
        let pdf = read_pdf(&rules_pdf(out, &game));
        let words = || pdf.pages.iter().flat_map(|p| &p.words);
        let margin = words().map(|w| w.bbox.x0).fold(f64::INFINITY, f64::min);
        assert!(margin > 5.0, "{game}: a word at {margin} mm from the edge");
        for (k, page) in pdf.pages.iter().enumerate() {
            for w in &page.words {
                assert!(
                    w.bbox.x1 <= page.w - margin + 0.05,
                    "{game}'s rulebook, page {}: {:?} ends at {:.2} mm, past the column's edge at {:.2} mm",
                    k + 1,
                    w.text,
                    w.bbox.x1,
                    page.w - margin
                );
            }
        }
    }
}

/// The reading PDF draws each page's text from the typesetter's glyphs (no
/// laying out again): every word of the text (the figures' own words aside) is
/// where the typesetter put it. Read back with `pdftotext -bbox`, on each line
/// the words follow each other left to right without overlapping, each is set
/// at a text size, and the justified lines end together at the column's right
/// edge and start at its left edge (a glyph run drawn at the wrong scale, a word
/// not moved to its place or a gap not widened to the line breaking's moves
/// them off it).
#[test]
fn the_reading_pdfs_words_are_where_the_typesetter_put_them() {
    let out = crate::print::built(&HOME_LETTER, "home", "letter");
    for game in games_with_rulebooks() {
        let pdf = read_pdf(&rules_pdf(out, &game));
        // Per line (by baseline, to 0.1 mm), its words in reading order.
        let mut lines: Vec<Vec<crate::print::Word>> = Vec::new();
        for page in &pdf.pages {
            // The page's own picture is the largest; the others are figures.
            let area = |f: &crate::print::Face| (f.bbox.x1 - f.bbox.x0) * (f.bbox.y1 - f.bbox.y0);
            let largest = page.faces.iter().map(area).fold(0.0, f64::max);
            let in_figure = |w: &crate::print::Word| {
                page.faces.iter().any(|f| {
                    area(f) < largest
                        && w.bbox.x0 >= f.bbox.x0 - 0.5
                        && w.bbox.x1 <= f.bbox.x1 + 0.5
                        && w.bbox.y0 >= f.bbox.y0 - 0.5
                        && w.bbox.y1 <= f.bbox.y1 + 0.5
                })
            };
            let mut page_lines: std::collections::BTreeMap<i64, Vec<crate::print::Word>> =
                Default::default();
            for w in page.words.iter().filter(|w| !in_figure(w)) {
                let h = w.bbox.y1 - w.bbox.y0;
                assert!(
                    (1.0..10.0).contains(&h),
                    "{game}: {:?} at {:?} is not set at a text size",
                    w.text,
                    w.bbox
                );
                let key = (w.bbox.y1 * 10.0).round() as i64;
                page_lines.entry(key).or_default().push(w.clone());
            }
            lines.extend(page_lines.into_values());
        }
        for line in &lines {
            for pair in line.windows(2) {
                if (pair[1].bbox.x0 - pair[0].bbox.x0).abs() > 30.0 {
                    continue; // another column or a table's cell
                }
                assert!(
                    pair[0].bbox.x1 <= pair[1].bbox.x0 + 0.01,
                    "{game}: {:?} at {:?} runs into {:?} at {:?}",
                    pair[0].text,
                    pair[0].bbox,
                    pair[1].text,
                    pair[1].bbox
                );
            }
        }
        // The column's edges: where most long lines end and start.
        let edge = |f: &dyn Fn(&[crate::print::Word]) -> f64| {
            let mut count: std::collections::BTreeMap<i64, usize> = Default::default();
            for l in lines.iter().filter(|l| l.len() >= 6) {
                *count.entry((f(l) * 10.0).round() as i64).or_default() += 1;
            }
            count
                .into_iter()
                .max_by_key(|(_, n)| *n)
                .unwrap_or_default()
        };
        let (right, ends) = edge(&|l| l.iter().map(|w| w.bbox.x1).fold(0.0, f64::max));
        let (left, starts) = edge(&|l| l.iter().map(|w| w.bbox.x0).fold(f64::MAX, f64::min));
        let long = lines.iter().filter(|l| l.len() >= 6).count();
        assert!(long >= 20, "{game}: {long} lines of six words or more");
        assert!(
            ends * 8 >= long && starts * 8 >= long,
            "{game}: of {long} lines of six words or more, only {ends} end together (at {} mm) and {starts} start together (at {} mm)",
            right as f64 / 10.0,
            left as f64 / 10.0
        );
        // The column is in the middle of the page.
        let w = pdf.pages[0].w;
        assert!(
            ((left + right) as f64 / 10.0 - w).abs() < 0.3,
            "{game}: the column runs from {} to {} mm on a page {w} mm wide",
            left as f64 / 10.0,
            right as f64 / 10.0
        );
    }
}
