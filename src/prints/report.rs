//! `changes.md`: what changed since a print, set by set, as a designer reads it.
//! The same text is printed in the terminal.

use super::compare::{Changes, Reason, Reprint, SetChanges, Status};

/// "1 part", "3 parts".
fn parts(n: u64) -> String {
    if n == 1 {
        "1 part".into()
    } else {
        format!("{n} parts")
    }
}

/// ` × 3` for more than one copy.
fn times(n: u32) -> String {
    if n > 1 {
        format!(" × {n}")
    } else {
        String::new()
    }
}

/// The record compared with: `print 2 (2025-06-01, "after the playtest")`.
fn print_name(c: &Changes) -> String {
    if c.note.is_empty() {
        format!("print {} ({})", c.number, c.date)
    } else {
        format!("print {} ({}, \"{}\")", c.number, c.date, c.note)
    }
}

/// The summary line: `Reprint 14 of 325 parts: 11 of 88 Contract cards, ...`.
pub fn summary(c: &Changes) -> String {
    let printed: u64 = c.sets.iter().map(SetChanges::printed).sum();
    let total: u64 = c.sets.iter().map(|s| s.copies).sum();
    let taken: u64 = c.sets.iter().map(SetChanges::taken_out).sum();
    if c.is_empty() {
        return format!(
            "Nothing changed since {}: all {} printed are current.",
            print_name(c),
            parts(total)
        );
    }
    let each: Vec<String> = c
        .sets
        .iter()
        .map(|s| format!("{} of {} {}", s.printed(), s.copies, s.name))
        .collect();
    let mut line = format!("Reprint {printed} of {total} parts: {}.", each.join(", "));
    if taken > 0 {
        line.push_str(&format!(" Take out {} of the print.", parts(taken)));
    }
    line
}

/// The lines of a set's parts to print: each part with its reasons, parts that
/// changed for one reason of what they draw (a template) on one line.
fn print_lines(set: &SetChanges) -> Vec<String> {
    let mut lines = Vec::new();
    let mut groups: Vec<(String, Vec<&Reprint>)> = Vec::new();
    for p in &set.print {
        match (&p.status, &p.why[..]) {
            (Status::Changed, [Reason::Picture(why)]) => {
                match groups.iter_mut().find(|(w, _)| w == why) {
                    Some((_, g)) => g.push(p),
                    None => groups.push((why.clone(), vec![p])),
                }
            }
            (Status::Changed, why) => {
                let why: Vec<String> = why.iter().map(Reason::text).collect();
                lines.push(format!(
                    "- {}{} · r{}: {}",
                    p.name,
                    times(p.copies),
                    p.revision,
                    why.join("; ")
                ));
            }
            _ => {}
        }
    }
    for (why, g) in groups {
        let copies: u64 = g.iter().map(|p| u64::from(p.copies)).sum();
        let who = if g.len() == 1 {
            format!("{}{} · r{}", g[0].name, times(g[0].copies), g[0].revision)
        } else if g.len() == set.print.len() && copies == set.copies {
            format!("every part ({} faces, {})", g.len(), parts(copies))
        } else {
            let names: Vec<&str> = g.iter().take(4).map(|p| p.name.as_str()).collect();
            let more = if g.len() > 4 {
                format!(" and {} more", g.len() - 4)
            } else {
                String::new()
            };
            format!(
                "{} faces ({}{more}), {}",
                g.len(),
                names.join(", "),
                parts(copies)
            )
        };
        lines.push(format!("- {who}: {why}"));
    }
    for p in &set.print {
        match p.status {
            Status::New => lines.push(format!("- {}{}: new", p.name, times(p.copies))),
            Status::More { printed } => lines.push(format!(
                "- {}: {} more (copies: {printed} -> {})",
                p.name,
                p.copies,
                printed + p.copies
            )),
            Status::Changed => {}
        }
    }
    lines
}

/// `changes.md` for `game_name`.
pub fn markdown(game_name: &str, c: &Changes) -> String {
    let mut out = format!("# {game_name}: changes since print {}\n\n", c.number);
    out.push_str(&format!(
        "Compared with {}, `{}`.\n\n{}\n",
        print_name(c),
        c.file.to_string_lossy().replace('\\', "/"),
        summary(c)
    ));
    for set in &c.sets {
        if set.print.is_empty() && set.take_out.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "\n## {} (`{}`): reprint {} of {}\n\n",
            set.name,
            set.id,
            set.printed(),
            set.copies
        ));
        if !set.in_record {
            out.push_str(&format!(
                "Not in print {}: every part is new.\n\n",
                c.number
            ));
        }
        let lines = print_lines(set);
        for line in &lines {
            out.push_str(line);
            out.push('\n');
        }
        if !set.take_out.is_empty() {
            if !lines.is_empty() {
                out.push('\n');
            }
            out.push_str("Take out of the printed game:\n\n");
            for t in &set.take_out {
                out.push_str(&format!("- {}{}: {}\n", t.name, times(t.copies), t.why));
            }
        }
    }
    out
}
