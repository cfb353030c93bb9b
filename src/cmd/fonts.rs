//! `cardstock fonts [GAME]`: the font families a game's templates can use, each
//! style and the file it comes from (the built-in fonts, `fonts/`, and
//! `data/<game>/fonts/`).

use cardstock::diag::Diagnostics;
use cardstock::fonts::{Face, FontBook, FontOrigin, PROJECT_FONTS};

/// Arguments of `fonts`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game whose fonts to list (its data/<game>/fonts/ too); default: the
    /// fonts every game has (built in and fonts/).
    pub game: Option<String>,
    #[command(flatten)]
    pub common: super::Common,
}

/// The listing of a book: one line a face in use (family, style, file), sorted by
/// family, weight and style; then the faces another file replaces.
pub fn listing(book: &FontBook) -> String {
    let mut used: Vec<&Face> = book
        .faces()
        .iter()
        .filter(|f| f.replaced_by.is_none())
        .collect();
    used.sort_by(|a, b| (&a.family, a.weight, a.italic).cmp(&(&b.family, b.weight, b.italic)));
    let fw = used
        .iter()
        .map(|f| f.family.len())
        .max()
        .unwrap_or(0)
        .max(6);
    let mut s = format!("  {:<fw$}  {:<17}  file\n", "family", "style");
    let mut last = None;
    for f in &used {
        let family = if last == Some(&f.family) {
            ""
        } else {
            &f.family
        };
        last = Some(&f.family);
        s.push_str(&format!(
            "  {family:<fw$}  {:<17}  {}{}\n",
            f.style_name(),
            book.files()[f.file].display(),
            if f.index > 0 {
                format!(" (face {})", f.index)
            } else {
                String::new()
            }
        ));
    }
    for f in book.faces() {
        if let Some(by) = f.replaced_by {
            s.push_str(&format!(
                "  replaced: {} {} from {}, by {}\n",
                f.family,
                f.style_name(),
                book.files()[f.file].display(),
                book.files()[book.faces()[by].file].display()
            ));
        }
    }
    s
}

/// Runs `fonts`; returns the exit status.
pub fn run(args: &Args) -> i32 {
    let Some(found) = args.common.project_or_report() else {
        return 1;
    };
    let project = &found.project;
    let mut diags = Diagnostics::default();
    let game = match &args.game {
        Some(g) => match super::select_games(project, std::slice::from_ref(g)) {
            Ok(_) => Some(g.as_str()),
            Err(d) => {
                diags.push(d);
                return super::finish(diags, project, args.common.deny_warnings);
            }
        },
        None => None,
    };
    let book = FontBook::load(project, game).into_value(&mut diags);
    let folders = match game {
        Some(g) => format!(
            "built in, {PROJECT_FONTS}/ and {}/",
            cardstock::fonts::game_fonts(g).display()
        ),
        None => format!("built in and {PROJECT_FONTS}/"),
    };
    let whose = game.map_or("every game".to_string(), |g| format!("game {g}"));
    super::say(&format!("fonts of {whose} ({folders}):\n"));
    super::say(&listing(&book));
    if !book.files().iter().any(|f| f.origin != FontOrigin::BuiltIn) {
        super::say(&format!(
            "add a font: put its .ttf, .otf or .ttc file in {PROJECT_FONTS}/ (every game) or data/<game>/fonts/ (one game)\n"
        ));
    }
    super::finish(diags, project, args.common.deny_warnings)
}
