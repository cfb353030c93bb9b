//! The engine every template and expression runs in: SVG auto-escaping, strict
//! undefined values, debug names, fuel and recursion limits, and the registration
//! of every filter and function cardstock adds (their code is in the sibling
//! modules, by what they do).

use std::sync::Arc;

use minijinja::value::{Kwargs, Rest, Value};
use minijinja::{AutoEscape, Environment, Error, ErrorKind, State, UndefinedBehavior};

use super::{
    data, errors, geometry, graph, icon, maths, numbers, overlap, text, RenderLog, Typesetting,
    FUEL, LOG, RECURSION_LIMIT,
};

/// The environment with escaping, limits, filters and functions (no templates yet);
/// the text functions set text with `text`. `distance()` reads the game's network
/// from the context it runs in (under [`NETWORK`](super::NETWORK)).
pub fn environment(text: Arc<Typesetting>) -> Environment<'static> {
    let mut env = Environment::new();
    set_limits(&mut env);
    env.add_filter("money", numbers::money);
    env.add_filter("num", numbers::num);
    env.add_function("lookup", data::lookup);
    env.add_function("select", data::select);
    env.add_function("round_to", numbers::round_to);
    env.add_function("along", geometry::along);
    add_text_functions(&mut env, text);
    env.add_function("shuffle", data::shuffle);
    env.add_function("connected", graph::connected);
    env.add_function("steps", graph::steps);
    env.add_function("close_pairs", geometry::close_pairs);
    env.add_function("overlaps", overlap::overlaps);
    maths::register(&mut env);
    env.add_function(errors::LINE_MARKER, mark_line);
    env.add_function("fail", fail);
    env.add_function("distance", graph::distance);
    env
}

/// SVG and XML templates escaped, undefined values an error that names them, and
/// the limits on work and nesting.
fn set_limits(env: &mut Environment<'static>) {
    env.set_auto_escape_callback(|name| {
        if name.ends_with(".svg") || name.ends_with(".xml") {
            AutoEscape::Html
        } else {
            AutoEscape::None
        }
    });
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    // Errors name the undefined value (`rules.buying`), whatever the build profile.
    env.set_debug(true);
    env.set_fuel(Some(FUEL));
    env.set_recursion_limit(RECURSION_LIMIT);
}

/// `text_width`, `wrap`, `fit`, `icon` and `shrink`, each setting text with `text`.
pub(super) fn add_text_functions(env: &mut Environment<'static>, text: Arc<Typesetting>) {
    let t = text.clone();
    env.add_function(
        "text_width",
        move |state: &State, s: String, size: f64, kwargs: Kwargs| {
            text::text_width(&t, state, &s, size, kwargs)
        },
    );
    let t = text.clone();
    env.add_function(
        "wrap",
        move |state: &State, s: String, width: Value, size: f64, kwargs: Kwargs| {
            text::wrap(&t, state, &s, width, size, kwargs)
        },
    );
    let t = text.clone();
    env.add_function(
        "fit",
        move |state: &State, s: String, args: Rest<f64>, kwargs: Kwargs| {
            text::fit(&t, state, &s, &args.0, kwargs)
        },
    );
    let t = text.clone();
    env.add_function(
        "icon",
        move |state: &State, name: String, place: Rest<f64>, kwargs: Kwargs| {
            icon::icon(&t, state, &name, &place.0, kwargs)
        },
    );
    env.add_function(
        "shrink",
        move |state: &State, s: String, w: f64, size: f64, kwargs: Kwargs| {
            text::shrink(&text, state, &s, w, size, kwargs)
        },
    );
}

/// The line marker of a template rendered with markers ([`errors::instrument`]):
/// records in the render's log the line that runs.
fn mark_line(state: &State, line: usize) -> String {
    if let Some(log) = state
        .lookup(LOG)
        .and_then(|v| v.downcast_object::<RenderLog>())
    {
        log.last_line
            .store(line, std::sync::atomic::Ordering::Relaxed);
    }
    String::new()
}

/// `fail(message)`: stops the render with `message` (a data check's own error).
fn fail(message: String) -> Result<Value, Error> {
    Err(Error::new(ErrorKind::InvalidOperation, message))
}

/// The environment the unit tests of the template functions render in: the
/// built-in fonts, no icons of a game, no network.
#[cfg(test)]
pub(super) fn test_env() -> Environment<'static> {
    let project = crate::project::Project::new(crate::source::MemoryFiles::new());
    let text = Typesetting::new(&project, "g", crate::fonts::FontBook::builtin());
    environment(Arc::new(text))
}

#[cfg(test)]
mod tests {
    use super::super::FILTERS;
    use super::test_env as env;

    #[test]
    fn filters_lists_every_registered_filter() {
        // The names `environment` registers, read from this file's source.
        let source = include_str!("environment.rs");
        let mut registered: Vec<&str> = source
            .split("env.add_filter(\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .collect();
        registered.sort();
        let mut listed = FILTERS.to_vec();
        listed.sort();
        assert_eq!(
            registered, listed,
            "FILTERS lists every filter `environment` adds"
        );
        let e = env();
        for f in FILTERS {
            let out = e
                .render_str(&format!("{{% if '{f}' is filter %}}yes{{% endif %}}"), ())
                .unwrap();
            assert_eq!(out, "yes", "`{f}` is a filter");
        }
    }
}

/// minijinja's `list + list` makes a lazy join of the two, nested as deep as a
/// loop appends (`vendor/README.md`, `minijinja-speed.diff`: a join is iterated
/// through the lists it holds, and its length is the one it was made with).
#[cfg(test)]
mod joined_lists {
    use super::test_env as env;

    fn render(template: &str) -> String {
        env().render_str(template, ()).unwrap()
    }

    #[test]
    fn a_list_joined_an_item_at_a_time_keeps_its_order_length_and_members() {
        let built = "{% set ns = namespace(l=[]) %}{% for i in range(100) %}\
            {% set ns.l = ns.l + [i] %}{% endfor %}";
        let all: Vec<String> = (0..100).map(|i| i.to_string()).collect();
        assert_eq!(
            render(&format!("{built}{{{{ ns.l | join(',') }}}}")),
            all.join(",")
        );
        assert_eq!(
            render(&format!(
                "{built}{{{{ ns.l | length }}}} {{{{ 57 in ns.l }}}} {{{{ 100 in ns.l }}}} \
                 {{{{ ns.l | reverse | first }}}} {{{{ ns.l | sum }}}}"
            )),
            "100 True False 99 4950"
        );
        // Twice over the same join, and inside a loop over it.
        assert_eq!(
            render(&format!(
                "{built}{{% for a in ns.l if a < 3 %}}{{% for b in ns.l if b < 2 %}}{{{{ a }}}}{{{{ b }}}} \
                 {{% endfor %}}{{% endfor %}}"
            )),
            "00 01 10 11 20 21 "
        );
    }

    #[test]
    fn joins_of_joins_empty_joins_and_lazy_sides() {
        assert_eq!(
            render("{{ ((([1] + [2]) + ([] + [3, 4])) + (([5] + []) + [6])) | join(',') }}"),
            "1,2,3,4,5,6"
        );
        assert_eq!(
            render(
                "{% if [] + ([] + []) %}items{% else %}empty{% endif %} {{ ([] + []) | length }}"
            ),
            "empty 0"
        );
        // A side whose length is not known (a reversed iterator) is still joined in order.
        assert_eq!(
            render(
                "{% set l = [1] + ([2, 3] | reverse) %}{% set l = l + [4] %}{{ l | join(',') }}"
            ),
            "1,3,2,4"
        );
    }
}

/// `select`, `reject`, `selectattr` and `rejectattr` (the speed patch refills
/// one argument list for the test and looks up a one-part attribute directly):
/// every item tested with its own value and the test's arguments, by a name,
/// a dotted path or an index.
#[cfg(test)]
mod selected {
    use super::test_env as env;

    #[test]
    fn items_are_tested_with_their_value_and_the_arguments() {
        let ctx = minijinja::context! {
            rows => vec![
                minijinja::context! { x => 1, p => minijinja::context! { q => 2 }, l => vec![5, 6] },
                minijinja::context! { x => 2, p => minijinja::context! { q => 3 }, l => vec![7, 8] },
                minijinja::context! { x => 3, p => minijinja::context! { q => 1 }, l => vec![9, 10] },
            ],
            nums => vec![1, 2, 3, 4, 5, 6],
        };
        for (template, want) in [
            (
                "{{ rows | selectattr('x', 'eq', 2) | map(attribute='x') | join }}",
                "2",
            ),
            (
                "{{ rows | rejectattr('x', 'eq', 2) | map(attribute='x') | join }}",
                "13",
            ),
            (
                "{{ rows | selectattr('x', 'in', [1, 3]) | map(attribute='x') | join }}",
                "13",
            ),
            (
                "{{ rows | selectattr('p.q', 'ge', 3) | map(attribute='x') | join }}",
                "2",
            ),
            (
                "{{ rows | selectattr('p') | map(attribute='x') | join }}",
                "123",
            ),
            (
                "{{ rows | selectattr('l.1', 'gt', 7) | map(attribute='x') | join }}",
                "23",
            ),
            (
                "{{ rows | map(attribute='l') | selectattr('0', 'odd') | map('first') | join }}",
                "579",
            ),
            (
                "{{ rows | selectattr('nothing', 'defined') | list | length }}",
                "0",
            ),
            (
                "{{ rows | rejectattr('nothing', 'defined') | map(attribute='x') | join }}",
                "123",
            ),
            ("{{ nums | select('divisibleby', 3) | join }}", "36"),
            ("{{ nums | reject('in', [2, 4]) | join }}", "1356"),
            ("{{ nums | select('odd') | join }}", "135"),
            ("{{ nums | select | list | length }}", "6"),
        ] {
            assert_eq!(
                env().render_str(template, &ctx).unwrap(),
                want,
                "{template}"
            );
        }
    }
}

/// `list` of a list, or of a join (`a + b`) of lists, copies their items (the
/// speed patch) instead of iterating them one at a time: the same items, the
/// same fuel and the same error when the fuel runs out, as a list it iterates
/// (a list of numbers held as `Vec<i64>`, not as template values).
#[cfg(test)]
mod listed {
    use minijinja::value::Value;
    use minijinja::{Environment, State};

    fn env(fuel: u64) -> Environment<'static> {
        let mut env = Environment::new();
        env.set_fuel(Some(fuel));
        env.add_function("used", |state: &State| {
            state.fuel_levels().map_or(0, |(used, _)| used)
        });
        env
    }

    /// The same numbers as template values (copied) and as `Vec<i64>` (iterated).
    fn both(n: i64) -> (Value, Value) {
        let values: Vec<Value> = (0..n).map(Value::from).collect();
        (
            Value::from(values),
            Value::from((0..n).collect::<Vec<i64>>()),
        )
    }

    #[test]
    fn lists_and_joins_of_lists_are_listed_in_order() {
        let env = env(1_000_000);
        for (template, want) in [
            ("{{ [1, 2, 3] | list | join(',') }}", "1,2,3"),
            ("{{ ([1, 2] + [3] + [] + [4, 5]) | list | join(',') }}", "1,2,3,4,5"),
            ("{{ ([1] + ([2] + [3])) | list | join(',') }}", "1,2,3"),
            ("{% set ns = namespace(l=[]) %}{% for i in range(40) %}{% set ns.l = ns.l + [i] %}{% endfor %}{{ ns.l | list | length }} {{ ns.l | list | last }} {{ (ns.l | list)[17] }}", "40 39 17"),
            ("{{ ([1, 2] + ([4, 3] | reverse)) | list | join(',') }}", "1,2,3,4"),
            ("{{ ([[1, 2]] + [[3]]) | list | map('length') | join(',') }}", "2,1"),
            ("{{ ([] + []) | list | length }}", "0"),
        ] {
            assert_eq!(env.render_str(template, ()).unwrap(), want, "{template}");
        }
    }

    #[test]
    fn a_copied_list_uses_the_fuel_an_iterated_one_does() {
        let template =
            "{% set a = used() %}{% set l = xs | list %}{{ used() - a }} {{ l | join(',') }}";
        let used = |xs: &Value| {
            env(1_000_000)
                .render_str(template, minijinja::context! { xs })
                .unwrap()
        };
        for n in [0, 1, 7, 100] {
            let (copied, iterated) = both(n);
            assert_eq!(used(&copied), used(&iterated), "{n} items");
        }
        // Running out on the way: the same error at the same fuel.
        let (copied, iterated) = both(5000);
        for fuel in [10, 100, 1000] {
            let run = |xs: &Value| {
                env(fuel)
                    .render_str("{{ xs | list | length }}", minijinja::context! { xs })
                    .map_err(|e| format!("{e:#}"))
            };
            assert_eq!(run(&copied), run(&iterated), "fuel {fuel}");
            assert!(run(&copied).is_err(), "fuel {fuel}");
        }
    }
}

/// How a template's names resolve: the innermost scope first (a loop's variables,
/// a macro's arguments, `set`), then the scopes around it, a macro's closure, the
/// render's context, the globals (`vendor/README.md`, `minijinja-speed.diff`: a
/// scope of up to 11 names is scanned for an equal name, a bigger one searched).
/// The minijinja speed patch compares strings for a case-insensitive `sort`
/// (and `min`, `max`, `unique`, `groupby`, which share the comparison) byte by byte without lowercased copies:
/// the order of lowercased copies.
#[cfg(test)]
mod caseless_order {
    use super::test_env as env;

    #[test]
    fn strings_sort_as_their_lowercased_copies_do() {
        let words = [
            "b", "B", "a", "ab", "Ab", "aB", "", "Z", "zz", "_x", "a_", "é", "É", "Éa", "10", "9",
        ];
        let mut want: Vec<&str> = words.to_vec();
        // A stable sort by the lowercased copy, as the published crate orders them.
        want.sort_by_key(|w| w.to_ascii_lowercase());
        let ctx = minijinja::context! { words => words };
        let got = env()
            .render_str("{{ words | sort | join('|') }}", &ctx)
            .unwrap();
        assert_eq!(got, want.join("|"));
        let got = env()
            .render_str("{{ words | sort(reverse=true) | join('|') }}", &ctx)
            .unwrap();
        let mut back = want.clone();
        back.sort_by_key(|w| std::cmp::Reverse(w.to_ascii_lowercase()));
        assert_eq!(got, back.join("|"));
    }
}

#[cfg(test)]
mod name_lookups {
    use super::test_env as env;

    fn render(template: &str) -> String {
        env()
            .render_str(
                template,
                minijinja::context! { row => "ctx", rowx => "ctx2" },
            )
            .unwrap()
    }

    /// Twelve `set`s of one-letter names (a scope too big to scan), `b` to `m` = 2 to 13.
    fn twelve_sets() -> String {
        (1..=12)
            .map(|i| format!("{{% set {} = {} %}}", (b'a' + i as u8) as char, i + 1))
            .collect()
    }

    #[test]
    fn a_loop_variable_shadows_a_global_and_the_context_of_the_same_name() {
        assert_eq!(
            render("{% for range in [1, 2] %}{{ range }}{% endfor %}{{ range(2) | list }}"),
            "12[0, 1]"
        );
        assert_eq!(
            render("{% for row in ['a', 'b'] %}{{ row }}{{ rowx }}{% endfor %}{{ row }}"),
            "actx2bctx2ctx"
        );
    }

    #[test]
    fn names_of_the_same_length_are_told_apart_in_small_and_big_scopes() {
        assert_eq!(
            render("{% set a = 1 %}{% set b = 2 %}{% set c = 3 %}{{ c }}{{ a }}{{ b }}"),
            "312"
        );
        let big = twelve_sets();
        assert_eq!(
            render(&format!(
                "{big}{{{{ k }}}}{{{{ b }}}}{{{{ f }}}}{{{{ row }}}}"
            )),
            "1126ctx"
        );
        // A loop's scope inside the big one; the loop's `b` hides the outer `b`.
        assert_eq!(
            render(&format!(
                "{big}{{% for b in [7] %}}{{% set c = 8 %}}{{{{ b }}}}{{{{ c }}}}{{{{ d }}}}{{% endfor %}}{{{{ b }}}}{{{{ c }}}}"
            )),
            "78423"
        );
    }

    #[test]
    fn a_set_inside_a_loop_stays_in_the_loop_and_a_namespace_carries_out() {
        assert_eq!(
            render(
                "{% set x = 1 %}{% for i in [1, 2] %}{% set x = x + i %}{{ x }}{% endfor %}{{ x }}"
            ),
            "231"
        );
        assert_eq!(
            render(
                "{% set ns = namespace(v=0) %}{% for i in range(4) %}{% set ns.v = ns.v + i %}{% endfor %}{{ ns.v }}"
            ),
            "6"
        );
    }

    #[test]
    fn a_macro_sees_its_arguments_over_its_closure() {
        let big = twelve_sets();
        assert_eq!(
            render(
                "{% set y = 5 %}{% set z = 6 %}{% macro m(a, y) %}{{ a }}{{ y }}{{ z }}{% endmacro %}{{ m(1, 2) }}"
            ),
            "126"
        );
        // A closure of twelve names (`c` to `m` and `row`): too big to scan.
        let uses: String = ('c'..='m').map(|n| format!("{{{{ {n} }}}}")).collect();
        assert_eq!(
            render(&format!(
                "{big}{{% macro show(b) %}}{{{{ b }}}}{uses}{{{{ row }}}}{{% endmacro %}}{{{{ show(0) }}}}"
            )),
            "0345678910111213ctx"
        );
    }

    #[test]
    fn an_unknown_name_is_an_error_beside_names_of_its_length() {
        for template in [
            "{% set nopf = 1 %}{{ nope }}",
            "{% for nopf in [1] %}{{ nope }}{% endfor %}",
        ] {
            let err = env().render_str(template, ()).unwrap_err();
            assert_eq!(
                err.kind(),
                minijinja::ErrorKind::UndefinedError,
                "{template}"
            );
        }
        let big = twelve_sets();
        let err = env()
            .render_str(&format!("{big}{{{{ z }}}}"), ())
            .unwrap_err();
        assert_eq!(err.kind(), minijinja::ErrorKind::UndefinedError);
    }
}
