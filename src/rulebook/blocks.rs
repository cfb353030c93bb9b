//! The rendered Markdown as blocks (pulldown-cmark, CommonMark with tables and
//! typographic quotes and dashes): headings, paragraphs, lists, tables, quotes,
//! rules, and the markers `rules.md`'s functions left, each a block of its own.
//! Text becomes inline pieces: runs in bold and italic, `:icon:`s and line breaks.

use std::ops::Range;

use pulldown_cmark::{Alignment, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use super::source::{CLOSE, OPEN};

/// A piece of a line of text.
#[derive(Debug, Clone, PartialEq)]
pub enum Inline {
    Text {
        text: String,
        bold: bool,
        italic: bool,
    },
    /// `:name:`
    Icon(String),
    /// A hard line break.
    Break,
}

/// How a table column is aligned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

/// One block of the rulebook, with the range of the rendered Markdown it came from.
#[derive(Debug, Clone)]
pub enum Block {
    Heading {
        level: u8,
        text: Vec<Inline>,
        at: Range<usize>,
    },
    Paragraph {
        text: Vec<Inline>,
        at: Range<usize>,
    },
    List {
        /// The first number of a numbered list.
        start: Option<u64>,
        items: Vec<Vec<Block>>,
    },
    Table {
        aligns: Vec<Align>,
        head: Vec<Vec<Inline>>,
        rows: Vec<Vec<Vec<Inline>>>,
        at: Range<usize>,
    },
    /// A block quote: set as a note, indented with a bar.
    Quote(Vec<Block>),
    /// A thematic break (`---`): a thin line across the column.
    Rule,
    /// What a function of `rules.md` asked for (its number).
    Special {
        index: usize,
        at: Range<usize>,
    },
}

/// Why the Markdown cannot be typeset: the message, a hint and where.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub message: String,
    pub hint: String,
    pub at: Range<usize>,
}

/// The blocks of `text` (rendered Markdown).
pub fn parse(text: &str) -> Result<Vec<Block>, Problem> {
    let options = Options::ENABLE_TABLES | Options::ENABLE_SMART_PUNCTUATION;
    let events: Vec<(Event, Range<usize>)> =
        Parser::new_ext(text, options).into_offset_iter().collect();
    let mut reader = Reader {
        events,
        at: 0,
        text,
    };
    reader.blocks(None)
}

struct Reader<'a> {
    events: Vec<(Event<'a>, Range<usize>)>,
    at: usize,
    text: &'a str,
}

impl<'a> Reader<'a> {
    fn next(&mut self) -> Option<(Event<'a>, Range<usize>)> {
        let e = self.events.get(self.at).cloned();
        self.at += 1;
        e
    }

    /// Blocks until the end tag `until` (or the end of the text).
    fn blocks(&mut self, until: Option<TagEnd>) -> Result<Vec<Block>, Problem> {
        let mut out = Vec::new();
        while let Some((event, range)) = self.next() {
            match event {
                Event::End(end) if Some(end) == until => return Ok(out),
                Event::Start(Tag::Paragraph) => {
                    let text = self.inlines(TagEnd::Paragraph)?;
                    out.push(paragraph(text, range)?);
                }
                Event::Start(Tag::Heading { level, .. }) => {
                    let text = self.inlines(TagEnd::Heading(level))?;
                    no_marker(&text, &range, "a heading")?;
                    out.push(Block::Heading {
                        level: heading_level(level),
                        text,
                        at: range,
                    });
                }
                Event::Start(Tag::List(start)) => {
                    let mut items = Vec::new();
                    loop {
                        match self.next() {
                            Some((Event::Start(Tag::Item), _)) => {
                                items.push(self.blocks(Some(TagEnd::Item))?)
                            }
                            Some((Event::End(TagEnd::List(_)), _)) | None => break,
                            Some(_) => {}
                        }
                    }
                    out.push(Block::List { start, items });
                }
                Event::Start(Tag::Table(aligns)) => out.push(self.table(aligns, range)?),
                Event::Start(Tag::BlockQuote(_)) => {
                    out.push(Block::Quote(self.blocks(Some(TagEnd::BlockQuote(None)))?))
                }
                Event::Start(Tag::CodeBlock(_)) => {
                    let mut code = String::new();
                    while let Some((e, _)) = self.next() {
                        match e {
                            Event::Text(t) => code.push_str(&t),
                            Event::End(TagEnd::CodeBlock) => break,
                            _ => {}
                        }
                    }
                    let mut text = Vec::new();
                    for (i, line) in code.trim_end().lines().enumerate() {
                        if i > 0 {
                            text.push(Inline::Break);
                        }
                        text.push(Inline::Text {
                            text: line.to_string(),
                            bold: false,
                            italic: false,
                        });
                    }
                    out.push(Block::Paragraph { text, at: range });
                }
                Event::Rule => out.push(Block::Rule),
                Event::Start(Tag::HtmlBlock) | Event::Html(_) => {
                    return Err(Problem {
                        message: "HTML is not typeset in a rulebook".into(),
                        hint: "write Markdown: **bold**, *italic*, lists, tables".into(),
                        at: range,
                    })
                }
                // Items in tight lists carry their text without a paragraph.
                Event::Text(_) | Event::Code(_) | Event::Start(Tag::Emphasis | Tag::Strong) => {
                    self.at -= 1;
                    let text = self.inlines_until_block()?;
                    // The item's text, to the end of its last piece.
                    let end = self.events[..self.at]
                        .last()
                        .map_or(range.end, |e| e.1.end.max(range.end));
                    out.push(paragraph(text, range.start..end)?);
                }
                _ => {}
            }
        }
        Ok(out)
    }

    /// Inline content up to the end tag `end`.
    fn inlines(&mut self, end: TagEnd) -> Result<Vec<Inline>, Problem> {
        let mut out = Vec::new();
        let (mut bold, mut italic) = (0u32, 0u32);
        while let Some((event, range)) = self.next() {
            match event {
                Event::End(e) if e == end => break,
                _ => self.inline(event, range, &mut bold, &mut italic, &mut out)?,
            }
        }
        Ok(out)
    }

    /// Inline content of a tight list item: up to the next block or the item's end.
    fn inlines_until_block(&mut self) -> Result<Vec<Inline>, Problem> {
        let mut out = Vec::new();
        let (mut bold, mut italic) = (0u32, 0u32);
        while let Some((event, range)) = self.events.get(self.at).cloned() {
            match event {
                Event::Start(
                    Tag::List(_) | Tag::Paragraph | Tag::Table(_) | Tag::BlockQuote(_),
                )
                | Event::End(TagEnd::Item) => break,
                _ => {
                    self.at += 1;
                    self.inline(event, range, &mut bold, &mut italic, &mut out)?;
                }
            }
        }
        Ok(out)
    }

    fn inline(
        &mut self,
        event: Event<'a>,
        range: Range<usize>,
        bold: &mut u32,
        italic: &mut u32,
        out: &mut Vec<Inline>,
    ) -> Result<(), Problem> {
        match event {
            Event::Start(Tag::Strong) => *bold += 1,
            Event::End(TagEnd::Strong) => *bold = bold.saturating_sub(1),
            Event::Start(Tag::Emphasis) => *italic += 1,
            Event::End(TagEnd::Emphasis) => *italic = italic.saturating_sub(1),
            Event::Text(t) | Event::Code(t) => text_with_icons(&t, *bold > 0, *italic > 0, out),
            Event::SoftBreak => text_with_icons(" ", *bold > 0, *italic > 0, out),
            Event::HardBreak => out.push(Inline::Break),
            Event::Start(Tag::Image { .. }) => {
                return Err(Problem {
                    message: "a Markdown image is not drawn in a rulebook".into(),
                    hint: "show the game's parts with {{ figure(\"set\", 1, caption=\"...\") }}"
                        .into(),
                    at: range,
                })
            }
            Event::InlineHtml(_) | Event::Html(_) => {
                return Err(Problem {
                    message: format!(
                        "HTML (`{}`) is not typeset in a rulebook",
                        self.text.get(range.clone()).unwrap_or("").trim()
                    ),
                    hint: "write Markdown: **bold**, *italic*; a literal `<` is `\\<`".into(),
                    at: range,
                })
            }
            _ => {}
        }
        Ok(())
    }

    fn table(&mut self, aligns: Vec<Alignment>, at: Range<usize>) -> Result<Block, Problem> {
        let mut head = Vec::new();
        let mut rows: Vec<Vec<Vec<Inline>>> = Vec::new();
        let mut in_head = false;
        while let Some((event, range)) = self.next() {
            match event {
                Event::Start(Tag::TableHead) => in_head = true,
                Event::End(TagEnd::TableHead) => in_head = false,
                Event::Start(Tag::TableRow) => rows.push(Vec::new()),
                Event::Start(Tag::TableCell) => {
                    let cell = self.inlines(TagEnd::TableCell)?;
                    no_marker(&cell, &range, "a table cell")?;
                    match (in_head, rows.last_mut()) {
                        (true, _) => head.push(cell),
                        (false, Some(r)) => r.push(cell),
                        (false, None) => rows.push(vec![cell]),
                    }
                }
                Event::End(TagEnd::Table) => break,
                _ => {}
            }
        }
        Ok(Block::Table {
            aligns: aligns
                .into_iter()
                .map(|a| match a {
                    Alignment::Center => Align::Center,
                    Alignment::Right => Align::Right,
                    _ => Align::Left,
                })
                .collect(),
            head,
            rows,
            at,
        })
    }
}

fn heading_level(l: HeadingLevel) -> u8 {
    match l {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// Appends `text` in one style, with its `:icon:`s as icons.
fn text_with_icons(text: &str, bold: bool, italic: bool, out: &mut Vec<Inline>) {
    let chars: Vec<char> = text.chars().collect();
    let mut plain = String::new();
    let mut i = 0;
    let flush = |plain: &mut String, out: &mut Vec<Inline>| {
        if plain.is_empty() {
            return;
        }
        match out.last_mut() {
            Some(Inline::Text {
                text,
                bold: b,
                italic: it,
            }) if *b == bold && *it == italic => text.push_str(plain),
            _ => out.push(Inline::Text {
                text: plain.clone(),
                bold,
                italic,
            }),
        }
        plain.clear();
    };
    while i < chars.len() {
        if chars[i] == ':' {
            if let Some(end) = crate::text::markup::icon_end(&chars, i) {
                flush(&mut plain, out);
                out.push(Inline::Icon(chars[i + 1..end].iter().collect()));
                i = end + 1;
                continue;
            }
        }
        plain.push(chars[i]);
        i += 1;
    }
    flush(&mut plain, out);
}

/// The marker numbers in `text`, with the text around them.
fn markers(text: &[Inline]) -> (Vec<usize>, bool) {
    let mut found = Vec::new();
    let mut other = false;
    for inline in text {
        let Inline::Text { text, .. } = inline else {
            other = true;
            continue;
        };
        let mut rest = text.as_str();
        while let Some(open) = rest.find(OPEN) {
            other |= !rest[..open].trim().is_empty();
            let after = &rest[open + OPEN.len_utf8()..];
            let Some(close) = after.find(CLOSE) else {
                break;
            };
            if let Ok(n) = after[..close].parse() {
                found.push(n);
            }
            rest = &after[close + CLOSE.len_utf8()..];
        }
        other |= !rest.trim().is_empty();
    }
    (found, other)
}

/// A paragraph, or the block a marker alone in it stands for.
fn paragraph(text: Vec<Inline>, at: Range<usize>) -> Result<Block, Problem> {
    let (found, other) = markers(&text);
    match (found.as_slice(), other) {
        ([], _) => Ok(Block::Paragraph { text, at }),
        ([index], false) => Ok(Block::Special { index: *index, at }),
        _ => Err(Problem {
            message: "a figure, the components list, the table of contents and page or column breaks stand on a line of their own".into(),
            hint: "put the `{{ ... }}` on its own line, with an empty line before and after it".into(),
            at,
        }),
    }
}

/// An error when a marker stands inside `what`.
fn no_marker(text: &[Inline], at: &Range<usize>, what: &str) -> Result<(), Problem> {
    if markers(text).0.is_empty() {
        return Ok(());
    }
    Err(Problem {
        message: format!("a figure or a list cannot stand in {what}"),
        hint: "put the `{{ ... }}` on its own line, with an empty line before and after it".into(),
        at: at.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(text: &[Inline]) -> String {
        text.iter()
            .map(|i| match i {
                Inline::Text { text, bold, italic } => match (bold, italic) {
                    (true, _) => format!("<b>{text}</b>"),
                    (_, true) => format!("<i>{text}</i>"),
                    _ => text.clone(),
                },
                Inline::Icon(n) => format!("[{n}]"),
                Inline::Break => "|".into(),
            })
            .collect()
    }

    #[test]
    fn reads_headings_paragraphs_lists_and_tables() {
        let md = "# Setup\n\nGive each player **3** :coin: and *one* card.\n\n- first\n- second\n\n| a | b |\n|:--|--:|\n| 1 | 2 |\n";
        let blocks = parse(md).unwrap();
        assert!(matches!(&blocks[0], Block::Heading { level: 1, .. }));
        let Block::Paragraph { text, .. } = &blocks[1] else {
            panic!("{blocks:?}")
        };
        assert_eq!(
            plain(text),
            "Give each player <b>3</b> [coin] and <i>one</i> card."
        );
        let Block::List { start: None, items } = &blocks[2] else {
            panic!()
        };
        assert_eq!(items.len(), 2);
        let Block::Table {
            aligns, head, rows, ..
        } = &blocks[3]
        else {
            panic!()
        };
        assert_eq!(aligns, &[Align::Left, Align::Right]);
        assert_eq!((head.len(), rows.len(), rows[0].len()), (2, 1, 2));
    }

    #[test]
    fn a_marker_alone_is_its_block_and_elsewhere_an_error() {
        let md = format!("Text.\n\n{OPEN}3{CLOSE}\n\nMore {OPEN}4{CLOSE} text.\n");
        let e = parse(&md).unwrap_err();
        assert!(e.message.contains("stand on a line of their own"), "{e:?}");
        assert_eq!(
            &md[e.at.clone()].trim_end(),
            &format!("More {OPEN}4{CLOSE} text.")
        );
        let md = format!("Text.\n\n{OPEN}3{CLOSE}\n");
        let blocks = parse(&md).unwrap();
        assert!(matches!(blocks[1], Block::Special { index: 3, .. }));
        let e = parse(&format!("# A {OPEN}1{CLOSE}\n")).unwrap_err();
        assert!(e.message.contains("heading"));
    }
}
