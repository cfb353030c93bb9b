//! The long rulebook of issue 33's target (16 pages typeset in at most 60 ms): the
//! game whose rulebook has the most pages, its `rules.md` written with its body
//! (from the first `## ` heading on) three times (Interstate Trucking's 8 pages
//! become 22), typeset `runs` times. The figure is
//! the pipeline's `rulebook` stage: the Markdown read, the template filled and the
//! pages laid out, not the PDF.

use std::path::{Path, PathBuf};

use cardstock::options::Options;
use cardstock::project::Project;
use cardstock::source::{DiskFiles, Entry, EntryKind, FileError, Files};

/// The project's files, with one `rules.md` given its body three times.
struct Doubled {
    disk: DiskFiles,
    rules: PathBuf,
}

impl Files for Doubled {
    fn read(&self, path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
        let bytes = self.disk.read(path, limit)?;
        if path != self.rules {
            return Ok(bytes);
        }
        let text = String::from_utf8_lossy(&bytes);
        let body = text.find("\n## ").map_or("", |at| &text[at..]);
        Ok(format!("{text}\n{body}\n{body}").into_bytes())
    }

    fn list(&self, dir: &Path) -> Result<Vec<Entry>, FileError> {
        self.disk.list(dir)
    }

    fn kind(&self, path: &Path) -> Option<EntryKind> {
        self.disk.kind(path)
    }
}

/// Typesets game `id`'s rulebook with its body three times, `runs` times, and says how
/// many pages it made and the median time of the `rulebook` stage.
pub fn measure(root: &Path, id: &str, runs: usize) {
    let disk = match DiskFiles::new(root) {
        Ok(d) => d,
        Err(e) => return super::super::say(&format!("long rulebook: {e}\n")),
    };
    let rules = Path::new("data").join(id).join("rules.md");
    let project = Project::new(Doubled { disk, rules });
    let opts = Options {
        pdf: false,
        ..Options::default()
    };
    let (stages, _, built) = super::measure(&project, id, &opts, runs);
    let typeset = stages.iter().find(|(n, _)| *n == "rulebook");
    let (Some(book), Some((_, took))) = (&built.rulebook, typeset) else {
        return super::super::say(&format!(
            "long rulebook: {id}'s rulebook with its body three times did not typeset; run cardstock check {id}\n"
        ));
    };
    super::super::say(&format!(
        "{:<22} {} pages typeset in {} ms ({id}'s rulebook, its body three times)\n",
        "long rulebook",
        book.pages.len(),
        super::ms(*took)
    ));
}
