//! Print records: what was printed of a game, part by part, so that after a rule
//! tweak only what changed is printed again.
//!
//! `cardstock printed` writes a record ([`record`]) into `prints/<game>/` (read
//! here through the project; the command line writes it): every part of every set
//! printed ([`key`] says what makes two parts of two prints the same part) with its
//! copies, its revision, the hash of its front and back ([`hash`]) and where it
//! printed, and the data and templates it was printed from. [`compare`] sets the
//! game as it is now against a record: the parts to print again, the parts to
//! take out, and why, for `cardstock reprint`, its `changes.md` ([`report`]) and
//! the live preview. A build reads the last record for the revision marks
//! ([`revision`]).

pub mod compare;
mod current;
pub mod hash;
pub mod key;
pub mod record;
pub mod report;
pub mod revision;

use std::path::{Path, PathBuf};

pub use compare::{compare, Changes};
pub use current::{Current, CurrentPart, CurrentSet};
pub use record::Record;

use crate::diag::Diagnostic;
use crate::project::Project;
use crate::source::EntryKind;

/// The folder of the project that holds the records, one folder per game.
pub const FOLDER: &str = "prints";

/// Largest record read (a record of 20,000 parts and its data is a few MB).
pub const MAX_RECORD_BYTES: u64 = 64 * 1024 * 1024;

/// A record's file in `prints/<game>/`, by its number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub number: u32,
    pub file: PathBuf,
}

/// `prints/<game>`.
pub fn folder(game: &str) -> PathBuf {
    Path::new(FOLDER).join(game)
}

/// The number a record's file name starts with: `002-2025-06-01.toml` is 2.
fn number_of(name: &str) -> Option<u32> {
    let stem = name.strip_suffix(".toml")?;
    let digits = stem.split('-').next()?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().filter(|&n| n > 0)
}

/// The records of `game`, in order; none when it has no `prints/<game>/`. Files
/// in it that are not `.toml` (and hidden ones) are left alone; a `.toml` file
/// whose name is not a record's, or two records with one number, are errors.
pub fn list(project: &Project, game: &str) -> Result<Vec<Listed>, Diagnostic> {
    let dir = folder(game);
    let entries = match project.list(&dir) {
        Ok(e) => e,
        Err(crate::source::FileError::NotFound { .. }) => return Ok(Vec::new()),
        Err(e) => return Err(file_error(&e, game)),
    };
    let mut out: Vec<Listed> = Vec::new();
    for e in entries {
        if e.name.starts_with('.') || !e.name.ends_with(".toml") || e.kind == EntryKind::Folder {
            continue;
        }
        let file = dir.join(&e.name);
        let Some(number) = number_of(&e.name) else {
            return Err(Diagnostic::error(format!(
                "`{}` is not the name of a print record",
                file.display()
            ))
            .at(&file, None)
            .with("game", game)
            .hint("records are named by their number, e.g. 003-2025-06-01.toml; move other files out of prints/"));
        };
        if let Some(other) = out.iter().find(|l| l.number == number) {
            return Err(Diagnostic::error(format!(
                "two print records are numbered {number}: {} and {}",
                other.file.display(),
                file.display()
            ))
            .at(&file, None)
            .with("game", game)
            .hint("keep one of them (each print has its own number)"));
        }
        out.push(Listed { number, file });
    }
    out.sort_by_key(|l| l.number);
    Ok(out)
}

fn file_error(e: &crate::source::FileError, game: &str) -> Diagnostic {
    Diagnostic::error(format!("print record: {e}"))
        .at(e.path(), None)
        .with("game", game)
        .hint(e.hint())
}

/// Reads the record `listed` of `game`.
pub fn read(project: &Project, game: &str, listed: &Listed) -> Result<Record, Diagnostic> {
    let text = project
        .read_text(&listed.file, MAX_RECORD_BYTES)
        .map_err(|e| file_error(&e, game))?;
    record::read(&listed.file, &text, game, listed.number)
        .map_err(|d| d.diagnostic(&listed.file, &text).with("game", game))
}

/// What changed since `last`, the game's last record, in a finished build (`r`,
/// printing as `printed` in the profile's `folder`): for the live preview. `None`
/// without a record, or when the record cannot be compared (`reprint` says why).
pub fn since_last(
    project: &Project,
    game: &crate::model::Game,
    tpl: &crate::template::Templates,
    last: Option<&Record>,
    r: &crate::faces::Rendered,
    printed: &[crate::deliver::Printed],
    folder: &str,
) -> Option<Changes> {
    let current = Current::of(project, game, r, printed, folder);
    compare(project, game, tpl, &current, last?).ok()
}

/// The last record of `game`, if it has any.
pub fn last(project: &Project, game: &str) -> Result<Option<Record>, Diagnostic> {
    match list(project, game)?.last() {
        Some(l) => read(project, game, l).map(Some),
        None => Ok(None),
    }
}

/// Record `number` of `game`; an error listing the records there are when it has
/// none of that number.
pub fn numbered(project: &Project, game: &str, number: u32) -> Result<Record, Diagnostic> {
    let listed = list(project, game)?;
    match listed.iter().find(|l| l.number == number) {
        Some(l) => read(project, game, l),
        None => {
            let there: Vec<String> = listed
                .iter()
                .map(|l| l.file.to_string_lossy().into_owned())
                .collect();
            let hint = if there.is_empty() {
                format!(
                    "`{game}` has no print records yet: record one with `cardstock printed {game}`"
                )
            } else {
                format!("its records: {}", there.join(", "))
            };
            Err(
                Diagnostic::error(format!("`{game}` has no print record {number}"))
                    .with("game", game)
                    .hint(hint),
            )
        }
    }
}

/// The number and file of the record after `listed`, dated `date` (`YYYY-MM-DD`),
/// its name ending with the first words of `note`: `003-2025-06-01-second-playtest.toml`.
pub fn next(game: &str, listed: &[Listed], date: &str, note: &str) -> Listed {
    let number = listed.last().map_or(1, |l| l.number + 1);
    let mut slug = String::new();
    for word in note
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if slug.len() + word.len() + 1 > 40 {
            break;
        }
        slug.push('-');
        slug.push_str(&word.to_ascii_lowercase());
    }
    Listed {
        number,
        file: folder(game).join(format!("{number:03}-{date}{slug}.toml")),
    }
}

/// The date of `seconds` since 1970 (UTC), `YYYY-MM-DD`.
pub fn date(seconds: u64) -> String {
    // Howard Hinnant's civil_from_days.
    let z = (seconds / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::MemoryFiles;

    #[test]
    fn records_are_listed_by_number_and_named_after_their_note() {
        let mut m = MemoryFiles::new();
        m.insert("prints/g/002-2025-06-02.toml", "");
        m.insert("prints/g/010-2025-07-01-x.toml", "");
        m.insert("prints/g/README.md", "");
        m.insert("prints/g/.keep", "");
        let p = Project::new(m.clone());
        let l = list(&p, "g").unwrap();
        assert_eq!(l.iter().map(|l| l.number).collect::<Vec<_>>(), [2, 10]);
        assert_eq!(list(&p, "other").unwrap(), []);
        let n = next(
            "g",
            &l,
            "2025-07-04",
            "After the 3rd playtest: shorter routes!",
        );
        assert_eq!(n.number, 11);
        assert_eq!(
            n.file,
            Path::new("prints/g/011-2025-07-04-after-the-3rd-playtest-shorter-routes.toml")
        );
        m.insert("prints/g/2-again.toml", "");
        let e = list(&Project::new(m.clone()), "g").unwrap_err();
        assert!(
            e.message.contains("two print records are numbered 2"),
            "{}",
            e.message
        );
        m.remove("prints/g/2-again.toml");
        m.insert("prints/g/notes.toml", "");
        let e = list(&Project::new(m), "g").unwrap_err();
        assert!(
            e.message.contains("is not the name of a print record"),
            "{}",
            e.message
        );
        let e = numbered(&p, "g", 5).unwrap_err();
        assert_eq!(e.message, "`g` has no print record 5");
        assert!(e.hint.unwrap().contains("prints/g/002-2025-06-02.toml"));
    }

    #[test]
    fn dates_are_utc_days() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(951_782_400), "2000-02-29");
        assert_eq!(date(1_735_689_599), "2024-12-31");
        assert_eq!(date(1_735_689_600), "2025-01-01");
    }
}
