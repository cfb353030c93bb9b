//! What a template or expression error means, in the designer's words: the value
//! that is missing (not the filter after it) and which names are near it, the
//! filter or function that does not exist and which does, `=` where `==` was meant,
//! the `{% if %}` that is never closed and the line it opened on.

use std::collections::BTreeMap;
use std::ops::Range;

use minijinja::value::{Value, ValueKind};
use minijinja::{Environment, Error, ErrorKind};

use crate::diag::{did_you_mean, line_span, upstream};

/// minijinja's own filters (cardstock's are [`super::FILTERS`]), for "did you mean".
pub const BUILTIN_FILTERS: &[&str] = &[
    "abs",
    "attr",
    "batch",
    "bool",
    "capitalize",
    "chain",
    "count",
    "d",
    "default",
    "dictsort",
    "e",
    "escape",
    "first",
    "float",
    "format",
    "groupby",
    "indent",
    "int",
    "items",
    "join",
    "last",
    "length",
    "lines",
    "list",
    "lower",
    "map",
    "max",
    "min",
    "pprint",
    "reject",
    "rejectattr",
    "replace",
    "reverse",
    "round",
    "safe",
    "select",
    "selectattr",
    "slice",
    "sort",
    "split",
    "string",
    "sum",
    "title",
    "trim",
    "unique",
    "upper",
    "zip",
];

/// Tags that open a block and the tag that closes it.
const BLOCKS: &[(&str, &str)] = &[
    ("if", "endif"),
    ("for", "endfor"),
    ("macro", "endmacro"),
    ("block", "endblock"),
    ("call", "endcall"),
    ("filter", "endfilter"),
    ("with", "endwith"),
    ("autoescape", "endautoescape"),
    ("set", "endset"),
    ("raw", "endraw"),
];

/// An error explained: the message, where in the source, and how to fix it.
#[derive(Debug, Clone)]
pub struct Explained {
    pub message: String,
    pub span: Option<Range<usize>>,
    pub hint: String,
    /// For a missing value: its expression (`rules.buying`).
    pub missing: Option<String>,
}

/// What an error can be compared against: the environment (its functions) and
/// the variables the failing template or expression saw.
#[derive(Clone, Copy, Default)]
pub struct Known<'a> {
    pub env: Option<&'a Environment<'static>>,
    pub ctx: Option<&'a BTreeMap<String, Value>>,
}

/// Explains a minijinja error about `source` (a template's text or an expression).
/// `expression`: the source is one expression from `game.toml`.
pub fn explain(e: &Error, source: &str, known: Known, expression: bool) -> Explained {
    let range = e
        .range()
        .filter(|r| r.end <= source.len() && r.start <= r.end);
    let at = range
        .clone()
        .or_else(|| e.line().and_then(|l| line_span(source, l)));
    let detail = plain_types(
        &e.detail()
            .map(String::from)
            .unwrap_or_else(|| e.kind().to_string()),
    );
    let mut out = Explained {
        message: if expression {
            format!("expression failed: {detail}")
        } else {
            format!("template error: {detail}")
        },
        span: at.clone(),
        hint: "fix the expression at the caret".into(),
        missing: None,
    };
    if let Some(expr) = undefined_expression(&detail) {
        let near = find_near(source, &expr, range.as_ref()).or(at);
        return missing(&expr, near, known, expression);
    }
    match e.kind() {
        ErrorKind::UndefinedError => {
            // A filter given a missing value points at the filter: name the value.
            let range = range.map(|r| filter_operand(source, &r).unwrap_or(r));
            out.span = range.clone().or(out.span);
            let expr = range
                .as_ref()
                .and_then(|r| source.get(r.clone()))
                .unwrap_or("a value");
            out = Explained {
                span: out.span,
                ..missing(expr, None, known, expression)
            };
        }
        ErrorKind::UnknownFilter => unknown_filter(&mut out, &detail),
        ErrorKind::UnknownFunction => {
            unknown_function(&mut out, &detail, source, range.as_ref(), known)
        }
        ErrorKind::SyntaxError => syntax(&mut out, &detail, source, range.as_ref(), expression),
        ErrorKind::OutOfFuel => {
            out.hint =
                "the template runs too long: look for a loop over a huge range or endless recursion"
                    .into();
        }
        _ => {}
    }
    out
}

/// A filter that does not exist: the nearest one that does, or the list.
fn unknown_filter(out: &mut Explained, detail: &str) {
    let name = upstream::unknown_filter(detail).unwrap_or("");
    out.message = format!("there is no filter `{name}`");
    let names = super::FILTERS.iter().chain(BUILTIN_FILTERS).copied();
    out.hint = match did_you_mean(name, names) {
        Some(m) => format!("did you mean `{m}`?"),
        None => format!(
            "cardstock's filters are {}; minijinja's own (upper, round, join, ...) are listed in docs/reference.md",
            super::FILTERS.join(", ")
        ),
    };
}

/// A function that does not exist, at its name: the nearest one the
/// environment has, or the list.
fn unknown_function(
    out: &mut Explained,
    detail: &str,
    source: &str,
    range: Option<&Range<usize>>,
    known: Known,
) {
    let name = upstream::unknown_function(detail).unwrap_or(detail);
    out.message = format!("there is no function `{name}`");
    if let Some(r) = range {
        out.span = find_near(source, name, Some(r)).or(out.span.clone());
    }
    let names: Vec<String> = known
        .env
        .map(|env| {
            env.globals()
                .map(|(n, _)| n.to_string())
                .filter(|n| !n.starts_with("__"))
                .collect()
        })
        .unwrap_or_default();
    out.hint = match did_you_mean(name, names.iter().map(String::as_str)) {
        Some(m) => format!("did you mean `{m}`?"),
        None => format!("the functions are: {}", names.join(", ")),
    };
}

/// A syntax error: `=` where `==` was meant, the block that is never closed
/// (and the line it opened on), the `end` tag of a block never opened.
fn syntax(
    out: &mut Explained,
    detail: &str,
    source: &str,
    range: Option<&Range<usize>>,
    expression: bool,
) {
    out.message = if expression {
        format!("expression does not parse: {detail}")
    } else {
        format!("template syntax error: {detail}")
    };
    out.hint = if expression {
        "expressions use minijinja syntax, e.g. `rules.fee.base + 100 * distance(a, b)`".into()
    } else {
        "fix the template syntax at the caret (minijinja/Jinja2 syntax)".into()
    };
    let at_text = range.and_then(|r| source.get(r.clone()));
    if at_text == Some("=") {
        out.hint =
            "did you mean `==`? `=` only sets a variable (`{% set x = 1 %}`); a comparison is `==`"
                .into();
    } else if !expression && upstream::ends_inside_block(detail) {
        if let Some(open) = unclosed_block(source) {
            out.message = format!(
                "`{{% {} %}}` on line {} is never closed",
                open.tag, open.line
            );
            out.span = Some(open.span);
            out.hint = format!("add `{{% {} %}}` where the block ends", open.end);
        } else if let Some(end) = upstream::unknown_statement(detail) {
            out.message = format!("`{{% {end} %}}` closes a block that was never opened");
            out.hint = format!(
                "remove it, or open the block before it (`{{% {} ... %}}`)",
                end.trim_start_matches("end")
            );
        }
    }
}

/// `detail` with Rust's type names in a designer's words, outside backticks:
/// "cannot convert string to f64" is "cannot convert text to a number".
pub fn plain_types(detail: &str) -> String {
    let mut out = String::new();
    for (k, part) in detail.split('`').enumerate() {
        if k > 0 {
            out.push('`');
        }
        if k % 2 == 1 {
            out.push_str(part); // quoted: a name of the data, as written
            continue;
        }
        let mut word = String::new();
        let flush = |word: &mut String, out: &mut String| {
            out.push_str(match word.as_str() {
                "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64"
                | "u128" | "usize" => "a whole number",
                "f32" | "f64" => "a number",
                w => w,
            });
            word.clear();
        };
        for c in part.chars() {
            if c.is_alphanumeric() || c == '_' {
                word.push(c);
            } else {
                flush(&mut word, &mut out);
                out.push(c);
            }
        }
        flush(&mut word, &mut out);
    }
    upstream::text_for_string(&out)
}

/// A value `expr` (`rules.buying`) that the data does not have, used at `span`.
pub fn missing(
    expr: &str,
    span: Option<Range<usize>>,
    known: Known,
    expression: bool,
) -> Explained {
    Explained {
        message: if expression {
            format!("the expression uses `{expr}`, which the data does not have")
        } else {
            format!("template uses `{expr}`, which the data does not have")
        },
        span,
        hint: missing_hint(expr, known.ctx),
        missing: Some(expr.to_string()),
    }
}

/// The first of `names` (dotted names an expression reads: `rules.clue_token`)
/// that is not in `ctx`, with where it is in `source`: what made an expression
/// give no value at all.
pub fn first_undefined(
    source: &str,
    names: impl IntoIterator<Item = String>,
    ctx: &BTreeMap<String, Value>,
) -> Option<(String, Option<Range<usize>>)> {
    // The shortest part of `name` that is missing: `rules.x` of `rules.x.y`.
    let missing_part = |name: &str| -> Option<String> {
        let parts: Vec<&str> = name.split('.').collect();
        let mut v = match ctx.get(parts[0]) {
            Some(v) => v.clone(),
            None => return Some(parts[0].to_string()),
        };
        for (k, p) in parts.iter().enumerate().skip(1) {
            match v.get_attr(p) {
                Ok(x) if !x.is_undefined() => v = x,
                _ => return Some(parts[..=k].join(".")),
            }
        }
        None
    };
    let mut found: Vec<(Option<usize>, String)> = names
        .into_iter()
        .filter_map(|n| missing_part(&n))
        .map(|n| (source.find(n.as_str()), n))
        .collect();
    found.sort();
    let (at, name) = found.into_iter().next()?;
    let span = at.map(|i| i..i + name.len());
    Some((name, span))
}

/// The expression minijinja names as undefined: "`rules.buying` is undefined",
/// also inside another error ("cannot convert undefined to i64 (`x` is
/// undefined)"). `None` for an expression it could not describe (`(...).x`).
/// When `range` is a filter's name (`value|money`), the range of the value it
/// filters: the dotted name before the `|`.
fn filter_operand(source: &str, range: &Range<usize>) -> Option<Range<usize>> {
    let before = source.get(..range.start)?.trim_end();
    let pipe = before.strip_suffix('|')?.trim_end();
    let start = pipe
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || matches!(c, '_' | '.'))
        .last()
        .map(|(i, _)| i)?;
    Some(start..pipe.len())
}

fn undefined_expression(detail: &str) -> Option<String> {
    upstream::undefined_expression(detail).map(String::from)
}

/// The occurrence of `needle` in `source` nearest to `range` (inside or just
/// before it, on the same line), so the caret marks the missing value itself
/// rather than the filter after it.
fn find_near(source: &str, needle: &str, range: Option<&Range<usize>>) -> Option<Range<usize>> {
    let r = range?;
    let line_start = source[..r.start.min(source.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let line_end = source[r.end.min(source.len())..]
        .find('\n')
        .map_or(source.len(), |i| r.end + i);
    let line = &source[line_start..line_end];
    line.match_indices(needle)
        .map(|(i, _)| line_start + i)
        .min_by_key(|&i| {
            if i >= r.start && i < r.end {
                0
            } else {
                i.abs_diff(r.start) + 1
            }
        })
        .map(|i| i..i + needle.len())
}

/// How to fix a missing `expr`: the closest name the data has (`row.titel` → did
/// you mean `title`?), or the names it has.
fn missing_hint(expr: &str, ctx: Option<&BTreeMap<String, Value>>) -> String {
    let fallback =
        "add the field to the data rows, or test it with `is defined` in the template".to_string();
    let Some(ctx) = ctx else { return fallback };
    let parts: Vec<&str> = expr.split('.').collect();
    if parts
        .iter()
        .any(|p| p.is_empty() || !p.chars().all(|c| c.is_alphanumeric() || c == '_'))
    {
        return fallback;
    }
    let Some((last, parents)) = parts.split_last() else {
        return fallback;
    };
    let names: Vec<String> = if parents.is_empty() {
        ctx.keys()
            .filter(|k| !k.starts_with("__"))
            .cloned()
            .collect()
    } else {
        let Some(mut v) = ctx.get(parents[0]).cloned() else {
            return fallback;
        };
        for p in &parents[1..] {
            match v.get_attr(p) {
                Ok(x) if !x.is_undefined() => v = x,
                _ => return fallback,
            }
        }
        if v.kind() != ValueKind::Map {
            return format!(
                "`{}` is {}, not a table with fields",
                parents.join("."),
                v.kind()
            );
        }
        match v.try_iter() {
            Ok(keys) => keys.filter_map(|k| k.as_str().map(String::from)).collect(),
            Err(_) => return fallback,
        }
    };
    match did_you_mean(last, names.iter().map(String::as_str)) {
        Some(m) => format!(
            "did you mean `{}`?",
            parents
                .iter()
                .chain([&m])
                .copied()
                .collect::<Vec<_>>()
                .join(".")
        ),
        None if parents.is_empty() => fallback,
        None => {
            let mut shown: Vec<&str> = names.iter().map(String::as_str).take(12).collect();
            if names.len() > 12 {
                shown.push("...");
            }
            format!(
                "`{}` has: {}; add `{last}` to the data, or test it with `is defined`",
                parents.join("."),
                shown.join(", ")
            )
        }
    }
}

/// A block that is never closed.
#[derive(Debug, Clone, PartialEq)]
pub struct Unclosed {
    /// `if`, `for`...
    pub tag: String,
    /// Its closing tag, `endif`...
    pub end: &'static str,
    /// 1-based line it opened on.
    pub line: usize,
    /// The opening tag's span.
    pub span: Range<usize>,
}

/// The innermost block of `source` still open at its end, or at a closing tag of
/// another block (`{% for %}` closed by `{% endif %}`).
pub fn unclosed_block(source: &str) -> Option<Unclosed> {
    let mut open: Vec<Unclosed> = Vec::new();
    let mut i = 0;
    while let Some(off) = source[i..].find('{') {
        let start = i + off;
        let rest = &source[start..];
        if rest.starts_with("{#") {
            i = rest.find("#}").map_or(source.len(), |e| start + e + 2);
            continue;
        }
        if !rest.starts_with("{%") {
            i = start + 1;
            continue;
        }
        let Some(close) = tag_end(rest, b'%') else {
            break;
        };
        let end = start + close;
        let inner = source[start + 2..end - 2]
            .trim_matches(|c: char| c == '-' || c == '+' || c.is_whitespace());
        let word = inner.split_whitespace().next().unwrap_or("");
        i = end;
        if let Some((tag, closing)) = BLOCKS.iter().find(|(t, _)| *t == word) {
            // `{% set x = 1 %}` is no block; `{% set x %}...{% endset %}` is.
            if *tag == "set" && inner.contains('=') {
                continue;
            }
            let line = source[..start].matches('\n').count() + 1;
            let u = Unclosed {
                tag: (*tag).to_string(),
                end: closing,
                line,
                span: start..end,
            };
            if *tag == "raw" {
                match source[i..].find("endraw") {
                    Some(e) => i += e + 6,
                    None => return Some(u),
                }
                continue;
            }
            open.push(u);
        } else if let Some(closed) = word.strip_prefix("end") {
            match open.last() {
                Some(top) if top.tag == closed => {
                    open.pop();
                }
                Some(top) => return Some(top.clone()),
                None => return None,
            }
        }
    }
    open.pop()
}

/// The length of the tag at the start of `rest` (`{% ... %}` for `closer` `%`,
/// `{{ ... }}` for `}`), skipping string literals.
fn tag_end(rest: &str, closer: u8) -> Option<usize> {
    let bytes = rest.as_bytes();
    let mut quote = None;
    let mut k = 2;
    while k < bytes.len() {
        match (quote, bytes[k]) {
            (None, b'\'' | b'"') => quote = Some(bytes[k]),
            (Some(q), b) if b == q => quote = None,
            (None, b) if b == closer && bytes.get(k + 1) == Some(&b'}') => return Some(k + 2),
            _ => {}
        }
        k += 1;
    }
    None
}

/// The name of the marker function [`instrument`] calls.
pub const LINE_MARKER: &str = "__cardstock_line";

/// `source` with a call to [`LINE_MARKER`] before every tag, telling the render
/// which line of this template ran last. Rendering it again after an error inside
/// a shared macro gives the line that called the macro. The markers print nothing.
pub fn instrument(source: &str) -> String {
    let mut out = String::with_capacity(source.len() * 2);
    let mut i = 0;
    let mut line = 1;
    while let Some(off) = source[i..].find('{') {
        let start = i + off;
        line += source[i..start].matches('\n').count();
        out.push_str(&source[i..start]);
        let rest = &source[start..];
        if rest.starts_with("{#") {
            let end = rest.find("#}").map_or(source.len(), |e| start + e + 2);
            line += source[start..end].matches('\n').count();
            out.push_str(&source[start..end]);
            i = end;
            continue;
        }
        if rest.starts_with("{%") || rest.starts_with("{{") {
            let is_raw = rest.starts_with("{%")
                && rest[2..]
                    .trim_start_matches(['-', '+'])
                    .trim_start()
                    .starts_with("raw");
            out.push_str(&format!("{{{{ {LINE_MARKER}({line}) }}}}"));
            let closer = if rest.starts_with("{%") { b'%' } else { b'}' };
            let mut end = start + tag_end(rest, closer).unwrap_or(rest.len());
            if is_raw {
                end = rest
                    .find("endraw")
                    .and_then(|e| rest[e..].find("%}").map(|c| start + e + c + 2))
                    .unwrap_or(source.len());
            }
            line += source[start..end].matches('\n').count();
            out.push_str(&source[start..end]);
            i = end;
            continue;
        }
        out.push('{');
        i = start + 1;
    }
    out.push_str(&source[i..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::template::environment::test_env as env;
    use crate::template::errors;

    #[test]
    fn unclosed_blocks_are_found() {
        let u = unclosed_block("a\n{% if x %}\n{% for y in z %}{% endfor %}\n").unwrap();
        assert_eq!((u.tag.as_str(), u.line, u.end), ("if", 2, "endif"));
        let u = unclosed_block("{% if a %}\n{% for x in y %}\n{% endif %}").unwrap();
        assert_eq!((u.tag.as_str(), u.line), ("for", 2));
        assert_eq!(
            unclosed_block("{% set a = 1 %}{% if '%}' %}{% endif %}"),
            None
        );
        let u = unclosed_block("{# {% if %} #}{% set s %}x").unwrap();
        assert_eq!((u.tag.as_str(), u.line), ("set", 1));
    }

    #[test]
    fn rust_types_in_plain_words() {
        assert_eq!(
            plain_types("cannot convert string to f64"),
            "cannot convert text to a number"
        );
        assert_eq!(
            plain_types("cannot convert string to isize (`row.u32` is text)"),
            "cannot convert text to a whole number (`row.u32` is text)"
        );
    }

    #[test]
    fn undefined_names() {
        assert_eq!(
            undefined_expression("cannot convert undefined to i64 (`rules.buying` is undefined)"),
            Some("rules.buying".into())
        );
        assert_eq!(undefined_expression("`(...).x` is undefined"), None);
        let src = "<t>{{ rules.buying|money }}</t>";
        assert_eq!(find_near(src, "rules.buying", Some(&(19..24))), Some(6..18));
    }

    #[test]
    fn markers_keep_lines() {
        let src = "a\n{{ x }}\n{# c {{ }} #}\n{% if y %}{% raw %}{{ z }}{% endraw %}{% endif %}";
        let out = instrument(src);
        assert!(out.contains("{{ __cardstock_line(2) }}{{ x }}"), "{out}");
        assert!(out.contains("{# c {{ }} #}"), "{out}");
        assert!(out.contains("{{ __cardstock_line(4) }}{% if y %}"), "{out}");
        assert!(out.contains("{% raw %}{{ z }}{% endraw %}"), "{out}");
    }

    #[test]
    fn hints_name_near_fields() {
        let mut ctx = BTreeMap::new();
        ctx.insert(
            "row".to_string(),
            Value::from(BTreeMap::from([
                ("title".to_string(), Value::from(1)),
                ("qty".to_string(), Value::from(2)),
            ])),
        );
        assert_eq!(
            missing_hint("row.titel", Some(&ctx)),
            "did you mean `row.title`?"
        );
        assert!(missing_hint("row.zzzzzz", Some(&ctx)).contains("`row` has: qty, title"));
    }

    #[test]
    fn errors_name_the_value_and_the_fix() {
        let mut e = env();
        e.add_template_owned("t.svg", "<t>{{ rules.buying|money }}</t>\n{{ row.nme }}")
            .unwrap();
        let err = e
            .get_template("t.svg")
            .unwrap()
            .render(minijinja::context! { rules => minijinja::context! { cost => 1 } })
            .unwrap_err();
        let src = "<t>{{ rules.buying|money }}</t>\n{{ row.nme }}";
        let x = errors::explain(&err, src, errors::Known::default(), false);
        assert_eq!(
            x.message,
            "template uses `rules.buying`, which the data does not have"
        );
        assert_eq!(x.span, Some(6..18));
        let err = e.render_str("{{ 1|mony }}", ()).unwrap_err();
        let x = errors::explain(&err, "{{ 1|mony }}", errors::Known::default(), false);
        assert_eq!(x.message, "there is no filter `mony`");
        assert_eq!(x.hint, "did you mean `money`?");
        let err = e.render_str("{{ lokup('a', 'b') }}", ()).unwrap_err();
        let known = errors::Known {
            env: Some(&e),
            ctx: None,
        };
        let x = errors::explain(&err, "{{ lokup('a', 'b') }}", known, false);
        assert_eq!(x.message, "there is no function `lokup`");
        assert_eq!(x.hint, "did you mean `lookup`?");
        let err = e.compile_expression("row.a = 1").unwrap_err();
        let x = errors::explain(&err, "row.a = 1", errors::Known::default(), true);
        assert!(x.hint.starts_with("did you mean `==`?"), "{}", x.hint);
        let src = "a\n{% if x %}\nb\n";
        let err = e.add_template_owned("u.svg", src).unwrap_err();
        let x = errors::explain(&err, src, errors::Known::default(), false);
        assert_eq!(x.message, "`{% if %}` on line 2 is never closed");
    }
}
