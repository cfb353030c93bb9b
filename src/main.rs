//! The `cardstock` command line: parse arguments, run one subcommand, exit.

// Errors are diagnostics (a few hundred bytes) on the cold path; boxing them would only
// add noise.
#![allow(clippy::result_large_err)]

mod cmd;

use clap::{Parser, Subcommand};

/// mimalloc instead of the system allocator: parsing and PDF writing allocate many
/// small objects on several threads, and glibc's allocator spent about a fifth of a
/// deck build in page faults and arena locks (measured: 9,960 page faults -> 390,
/// 88-card deck 126 -> ~100 ms). The allocator never changes the output bytes.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (its place in `mi_option_e`, mimalloc.h; the
/// crate names no constant for it): how long freed memory is held before it goes
/// back to the system.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// How long freed memory is held, in ms. mimalloc 3 holds it for a second, longer
/// than most builds run, so a build's peak was nearly all it ever allocated: Truck
/// Off with 1,000 pad sheets peaked at 72 MB, and at 52 MB with 25 ms (every game
/// 66 -> 58 MB; about 1 % more CPU, 2.5 % with 1,000 sheets; 10 ms saved 3 MB
/// more for twice the CPU).
const PURGE_DELAY_MS: std::ffi::c_long = 25;

/// Sets [`PURGE_DELAY_MS`].
fn give_freed_memory_back_sooner() {
    // SAFETY: mi_option_set only stores the value, which mimalloc reads when it
    // next purges; it may be called at any time, from any thread.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) };
}

/// Turns TOML game data and SVG templates into checked, print-ready cards, chits,
/// money, player aids and boards (PDF, SVG, PNG).
#[derive(Parser)]
#[command(name = "cardstock", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check and build games into output/<game>/ (print-and-play PDF, real-size
    /// boards, and SVG/PNG per face with --format svg,png). A game with errors
    /// writes nothing and keeps its previous output.
    Build(cmd::build::Args),
    /// Run every check (counts against [contents], references, the rules' worked
    /// examples, templates) and print the component counts; writes nothing.
    Check(cmd::check::Args),
    /// List the games, their component sets and counts.
    List(cmd::list::Args),
    /// List the font families a game can use, with each style and its file (the
    /// built-in fonts, fonts/ and data/<game>/fonts/).
    Fonts(cmd::fonts::Args),
    /// Start a new game: a small working game (cards from a table, front and back
    /// templates, a player aid, a rule check), commented, that checks and builds
    /// as written. Never overwrites anything.
    New(cmd::new::Args),
    /// Record that games were printed as they are now: every part, its faces,
    /// copies and revision, in prints/<game>/ (commit it with the game). Builds in
    /// memory; writes nothing else.
    Printed(cmd::printed::Args),
    /// Print only what changed since the last print record (or --since N): the
    /// changed, new and grown parts imposed as the profile prints them, and
    /// changes.md, into output/<game>/<profile>/reprint/.
    Reprint(cmd::reprint::Args),
    /// Rebuild on every save of data/, templates/ or profiles/, keeping the last
    /// good output when a change has errors.
    Watch(cmd::watch::WatchArgs),
    /// Build, then serve a live preview page (every face, the sheets, the
    /// diagnostics) that follows every save without reloading.
    Serve(cmd::serve::Args),
    /// Measure the pipeline: every game, and an 88-card deck of finished SVG art
    /// imposed 3x3 on Letter with crop marks and backs, per stage.
    Bench(cmd::bench::Args),
}

fn main() {
    give_freed_memory_back_sooner();
    let cli = Cli::parse();
    let code = match &cli.command {
        Command::Build(a) => cmd::build::run(a),
        Command::Check(a) => cmd::check::run(a),
        Command::List(a) => cmd::list::run(a),
        Command::Fonts(a) => cmd::fonts::run(a),
        Command::New(a) => cmd::new::run(a),
        Command::Printed(a) => cmd::printed::run(a),
        Command::Reprint(a) => cmd::reprint::run(a),
        Command::Watch(a) => cmd::watch::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Bench(a) => cmd::bench::run(a),
    };
    std::process::exit(code);
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_purge_delay_option_is_the_one_set() {
        use libmimalloc_sys::mi_option_get;
        // SAFETY: reading and setting mimalloc options is safe at any time.
        unsafe {
            // mimalloc 3's default purge delay, 1,000 ms, and no other option's.
            if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
                assert_eq!(mi_option_get(super::MI_OPTION_PURGE_DELAY), 1000);
            }
            super::give_freed_memory_back_sooner();
            assert_eq!(
                mi_option_get(super::MI_OPTION_PURGE_DELAY),
                super::PURGE_DELAY_MS
            );
        }
    }

    #[test]
    fn every_subcommand_parses() {
        super::Cli::command().debug_assert();
    }
}
