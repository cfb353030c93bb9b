//! What cardstock reads from its dependencies' error messages. minijinja, serde
//! (through toml) and roxmltree (through usvg) say some facts only in their
//! message texts: which filter is unknown, which field is missing, what type was
//! expected, where the XML broke. Every text cardstock
//! matches is here, and each pattern has a unit test that makes the real crate
//! give the real message: an update that changes a text fails a test, instead of
//! an error message going vague. The words cardstock shows the designer are
//! chosen elsewhere (`template::errors`, `model::toml_problems`).

/// minijinja: the filter of "filter mony is unknown".
pub fn unknown_filter(detail: &str) -> Option<&str> {
    detail.strip_prefix("filter ")?.strip_suffix(" is unknown")
}

/// minijinja: the function of "lokup is unknown".
pub fn unknown_function(detail: &str) -> Option<&str> {
    detail.strip_suffix(" is unknown")
}

/// minijinja: a syntax error where the text ends, or at an `end...` tag, inside
/// an open block ("unexpected end of input, expected end of block",
/// "unknown statement endfor").
pub fn ends_inside_block(detail: &str) -> bool {
    detail.starts_with("unexpected end of input") || detail.starts_with("unknown statement end")
}

/// minijinja: the tag of "unknown statement endif".
pub fn unknown_statement(detail: &str) -> Option<&str> {
    detail.strip_prefix("unknown statement ")
}

/// minijinja: the expression named undefined, "`rules.buying` is undefined", also
/// inside another error ("cannot convert undefined to i64 (`x` is undefined)").
/// `None` for an expression minijinja could not describe (`(...).x`).
pub fn undefined_expression(detail: &str) -> Option<&str> {
    let end = detail.find("` is undefined")?;
    let start = detail[..end].rfind('`')? + 1;
    let expr = &detail[start..end];
    (!expr.contains("(...)")).then_some(expr)
}

/// minijinja's conversion error ("cannot convert string to f64") with text named
/// as the designer knows it.
pub fn text_for_string(detail: &str) -> String {
    detail.replace("cannot convert string to", "cannot convert text to")
}

/// roxmltree (usvg's XML parser): the line and column of "unexpected end of
/// stream at 3:5" (1-based).
pub fn xml_position(msg: &str) -> Option<(usize, usize)> {
    let (l, c) = msg.rsplit_once(" at ")?.1.split_once(':')?;
    Some((l.trim().parse().ok()?, c.trim().parse().ok()?))
}

/// What a serde message (as toml gives it) is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SerdeKind {
    /// "unknown field `shpae`, expected one of `shape`, `size`".
    UnknownField,
    /// "missing field `size`".
    MissingField,
    /// "invalid type: integer `3`, expected a string".
    InvalidType,
    /// "invalid length 3, expected an array of length 2".
    InvalidLength,
    /// "unknown variant `x`, expected one of `a`, `b`".
    UnknownVariant,
    /// Anything else (a TOML syntax error, "invalid value", "duplicate field").
    Other,
}

/// What serde message `msg` is about.
pub fn serde_kind(msg: &str) -> SerdeKind {
    if msg.starts_with("unknown field") {
        SerdeKind::UnknownField
    } else if msg.starts_with("missing field") {
        SerdeKind::MissingField
    } else if msg.starts_with("invalid type") {
        SerdeKind::InvalidType
    } else if msg.starts_with("invalid length") {
        SerdeKind::InvalidLength
    } else if msg.starts_with("unknown variant") {
        SerdeKind::UnknownVariant
    } else {
        SerdeKind::Other
    }
}

/// serde: the field of "unknown field `shpae`, expected one of `shape`, `size`"
/// and the fields it expected (none for "..., there are no fields").
pub fn unknown_field(msg: &str) -> Option<(&str, Vec<&str>)> {
    let (word, tail) = msg.strip_prefix("unknown field `")?.split_once('`')?;
    Some((word, tail.split('`').skip(1).step_by(2).collect()))
}

/// serde: the field of "unknown field `shpae`, ...", with its backticks.
pub fn unknown_field_quoted(msg: &str) -> Option<&str> {
    let rest = msg.strip_prefix("unknown field ")?;
    let key = rest.split(", expected").next().unwrap_or(rest);
    Some(key.split(", there are no fields").next().unwrap_or(key))
}

/// serde: the field of "missing field `size`".
pub fn missing_field(msg: &str) -> Option<&str> {
    msg.strip_prefix("missing field `")?.split('`').next()
}

/// serde: what was found and what was expected, in "invalid type: integer `3`,
/// expected a string" or "invalid value: ..., expected ...".
pub fn wrong_value(msg: &str) -> Option<(&str, &str)> {
    msg.strip_prefix("invalid type: ")
        .or_else(|| msg.strip_prefix("invalid value: "))?
        .rsplit_once(", expected ")
}

/// serde: the length found and what was expected, in "invalid length 3,
/// expected an array of length 2".
pub fn invalid_length(msg: &str) -> Option<(&str, &str)> {
    msg.strip_prefix("invalid length ")?
        .split_once(", expected ")
}

/// serde: the value and the values expected, in "unknown variant `x`, expected
/// one of `a`, `b`" (or "expected `a` or `b`").
pub fn unknown_variant(msg: &str) -> Option<(&str, &str)> {
    let (value, expected) = msg
        .strip_prefix("unknown variant ")?
        .split_once(", expected ")?;
    Some((value, expected.strip_prefix("one of ").unwrap_or(expected)))
}

/// serde: the field of "duplicate field `x`", with its backticks.
pub fn duplicate_field(msg: &str) -> Option<&str> {
    msg.strip_prefix("duplicate field ")
}

/// What serde says it expected (its `Expected` texts and Rust type names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected<'a> {
    /// "an array of length 2", "a tuple of size 2": the count.
    ListOf(&'a str),
    /// An integer type ("i64", "an integer").
    WholeNumber,
    /// A float type ("f64", "a float").
    Number,
    /// "a string", "a character".
    Text,
    /// "a boolean".
    Boolean,
    /// "a sequence", "an array".
    List,
    /// "a map", "struct Size".
    Table,
    /// "any valid TOML value".
    Value,
    /// Anything else, as serde wrote it (a visitor's own words).
    Other(&'a str),
}

/// Reads what serde says it expected.
pub fn expected(e: &str) -> Expected<'_> {
    let e = e.trim();
    if let Some(n) = e
        .strip_prefix("an array of length ")
        .or_else(|| e.strip_prefix("a tuple of size "))
    {
        return Expected::ListOf(n);
    }
    match e {
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64" | "u128"
        | "usize" | "an integer" => Expected::WholeNumber,
        "f32" | "f64" | "a float" => Expected::Number,
        "a string" | "a borrowed string" | "string" | "a character" | "char" => Expected::Text,
        "a boolean" | "bool" => Expected::Boolean,
        "a sequence" | "a list" | "an array" => Expected::List,
        "a map" | "a table" => Expected::Table,
        "any valid TOML value" => Expected::Value,
        _ if e.starts_with("struct ") || e.starts_with("a map") => Expected::Table,
        _ => Expected::Other(e),
    }
}

/// What serde says it found (its `Unexpected` texts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found<'a> {
    /// `string "x"`: the text with its quotes.
    Text(&'a str),
    /// "integer `3`": the number with its backticks.
    WholeNumber(&'a str),
    /// "integer `99999999999999999999` as i128": a whole number past the 64 bits
    /// TOML holds, without its backticks.
    TooLarge(&'a str),
    /// "floating point `1.5`": the number with its backticks.
    Number(&'a str),
    /// "boolean `true`": the value with its backticks.
    Boolean(&'a str),
    /// "sequence".
    List,
    /// "map".
    Table,
    /// Anything else, as serde wrote it.
    Other(&'a str),
}

/// Reads what serde says it found.
pub fn found(f: &str) -> Found<'_> {
    let f = f.trim();
    if let Some(s) = f.strip_prefix("string ") {
        return Found::Text(s);
    }
    if let Some(n) = f.strip_prefix("integer ") {
        if let Some(n) = n
            .strip_suffix(" as i128")
            .or_else(|| n.strip_suffix(" as u128"))
        {
            return Found::TooLarge(n.trim_matches('`'));
        }
        return Found::WholeNumber(n);
    }
    if let Some(n) = f.strip_prefix("floating point ") {
        return Found::Number(n);
    }
    if let Some(b) = f.strip_prefix("boolean ") {
        return Found::Boolean(b);
    }
    match f {
        "sequence" => Found::List,
        "map" => Found::Table,
        _ => Found::Other(f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minijinja::Environment;
    use serde::Deserialize;

    /// minijinja's message for rendering `template`.
    fn render_detail(template: &str) -> String {
        let mut env = Environment::new();
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        let e = env.render_str(template, ()).unwrap_err();
        e.detail().unwrap_or_default().to_string()
    }

    /// minijinja's message for adding `template`.
    fn syntax_detail(template: &str) -> String {
        let mut env = Environment::new();
        let e = env.add_template_owned("t", template).unwrap_err();
        e.detail().unwrap_or_default().to_string()
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Part {
        shape: String,
        size: [i64; 2],
        count: Option<f64>,
        kind: Option<Kind>,
        loose: Option<bool>,
        list: Option<Vec<i64>>,
        table: Option<Inner>,
        any: Option<toml::Value>,
        small: Option<u8>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Kind {
        Card,
        Chit,
        Board,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Inner {
        a: i64,
    }

    /// serde's message (through toml) for reading `text` as a [`Part`].
    fn serde_message(text: &str) -> String {
        toml::from_str::<Part>(text)
            .unwrap_err()
            .message()
            .trim()
            .to_string()
    }

    const OK: &str = "shape = \"r\"\nsize = [1, 2]\n";

    #[test]
    fn serde_integer_past_64_bits() {
        let m = serde_message(&format!("{OK}count = 99999999999999999999\n"));
        let (f, _) = wrong_value(&m).unwrap();
        assert_eq!(found(f), Found::TooLarge("99999999999999999999"), "{m}");
    }

    #[test]
    fn minijinja_unknown_filter() {
        let d = render_detail("{{ 1|mony }}");
        assert_eq!(unknown_filter(&d), Some("mony"), "{d}");
    }

    #[test]
    fn minijinja_unknown_function() {
        let d = render_detail("{{ lokup(1) }}");
        assert_eq!(unknown_function(&d), Some("lokup"), "{d}");
    }

    #[test]
    fn minijinja_block_never_closed() {
        let d = syntax_detail("{% if x %}\nb\n");
        assert!(ends_inside_block(&d), "{d}");
    }

    #[test]
    fn minijinja_unknown_statement() {
        let d = syntax_detail("a {% endif %}");
        assert!(ends_inside_block(&d), "{d}");
        assert_eq!(unknown_statement(&d), Some("endif"), "{d}");
    }

    #[test]
    fn minijinja_undefined_expression() {
        let mut env = Environment::new();
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        env.set_debug(true);
        let rules = minijinja::context! { cost => 1 };
        let e = env
            .render_str("{{ rules.buying + 1 }}", minijinja::context! { rules })
            .unwrap_err();
        let d = e.detail().unwrap_or_default().to_string();
        assert_eq!(undefined_expression(&d), Some("rules.buying"), "{d}");
    }

    #[test]
    fn minijinja_cannot_convert_string() {
        let d = render_detail("{{ range('a') }}");
        assert!(
            text_for_string(&d).contains("cannot convert text to"),
            "{d}"
        );
    }

    #[test]
    fn roxmltree_position() {
        let m = roxmltree::Document::parse("<svg>\n  <g></h>\n</svg>")
            .unwrap_err()
            .to_string();
        assert_eq!(xml_position(&m), Some((2, 6)), "{m}");
    }

    #[test]
    fn serde_unknown_field() {
        let m = serde_message(&format!("{OK}shpae = 1\n"));
        assert_eq!(serde_kind(&m), SerdeKind::UnknownField);
        let (word, expected) = unknown_field(&m).unwrap();
        assert_eq!(word, "shpae");
        assert!(expected.contains(&"shape"), "{m}");
        assert_eq!(unknown_field_quoted(&m), Some("`shpae`"), "{m}");
    }

    #[test]
    fn serde_missing_field() {
        let m = serde_message("shape = \"r\"\n");
        assert_eq!(serde_kind(&m), SerdeKind::MissingField);
        assert_eq!(missing_field(&m), Some("size"), "{m}");
    }

    #[test]
    fn serde_invalid_type() {
        let m = serde_message("shape = 3\nsize = [1, 2]\n");
        assert_eq!(serde_kind(&m), SerdeKind::InvalidType);
        let (f, e) = wrong_value(&m).unwrap();
        assert_eq!(found(f), Found::WholeNumber("`3`"), "{m}");
        assert_eq!(expected(e), Expected::Text, "{m}");
        let m = serde_message("shape = \"r\"\nsize = \"two\"\n");
        let (f, e) = wrong_value(&m).unwrap();
        assert_eq!(found(f), Found::Text("\"two\""), "{m}");
        assert_eq!(expected(e), Expected::ListOf("2"), "{m}");
        let m = serde_message(&format!("{OK}count = true\n"));
        let (f, e) = wrong_value(&m).unwrap();
        assert_eq!(found(f), Found::Boolean("`true`"), "{m}");
        assert_eq!(expected(e), Expected::Number, "{m}");
        let m = serde_message(&format!("{OK}loose = 1.5\n"));
        let (f, e) = wrong_value(&m).unwrap();
        assert_eq!(found(f), Found::Number("`1.5`"), "{m}");
        assert_eq!(expected(e), Expected::Boolean, "{m}");
        let m = serde_message(&format!("{OK}list = {{ a = 1 }}\n"));
        let (f, e) = wrong_value(&m).unwrap();
        assert_eq!(found(f), Found::Table, "{m}");
        assert_eq!(expected(e), Expected::List, "{m}");
        let m = serde_message(&format!("{OK}table = \"x\"\n"));
        let (f, e) = wrong_value(&m).unwrap();
        assert_eq!(found(f), Found::Text("\"x\""), "{m}");
        assert_eq!(expected(e), Expected::Table, "{m}");
        let m = serde_message(&format!("{OK}count = [1]\n"));
        let (f, _) = wrong_value(&m).unwrap();
        assert_eq!(found(f), Found::List, "{m}");
        let m = serde_message(&format!("{OK}list = [\"x\"]\n"));
        let (_, e) = wrong_value(&m).unwrap();
        assert_eq!(expected(e), Expected::WholeNumber, "{m}");
    }

    #[test]
    fn serde_invalid_value() {
        let m = serde_message(&format!("{OK}small = 300\n"));
        assert_eq!(serde_kind(&m), SerdeKind::Other);
        let (f, e) = wrong_value(&m).unwrap();
        assert_eq!(found(f), Found::WholeNumber("`300`"), "{m}");
        assert_eq!(expected(e), Expected::WholeNumber, "{m}");
    }

    #[test]
    fn serde_invalid_length() {
        let m = serde_message("shape = \"r\"\nsize = [1]\n");
        assert_eq!(serde_kind(&m), SerdeKind::InvalidLength);
        let (n, e) = invalid_length(&m).unwrap();
        assert_eq!(n, "1", "{m}");
        assert_eq!(expected(e), Expected::ListOf("2"), "{m}");
    }

    #[test]
    fn serde_unknown_variant() {
        let m = serde_message(&format!("{OK}kind = \"tile\"\n"));
        assert_eq!(serde_kind(&m), SerdeKind::UnknownVariant);
        assert_eq!(
            unknown_variant(&m),
            Some(("`tile`", "`card`, `chit`, `board`")),
            "{m}"
        );
    }

    #[test]
    fn serde_duplicate_field() {
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct Twice {
            #[serde(alias = "b")]
            a: i64,
        }
        let m = toml::from_str::<Twice>("a = 1\nb = 2\n")
            .unwrap_err()
            .message()
            .trim()
            .to_string();
        assert_eq!(duplicate_field(&m), Some("`a`"), "{m}");
    }
}
