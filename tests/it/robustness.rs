//! Nothing lost, nothing broken: failed builds keep the previous output, special
//! characters render, and output never leaves the output folder.

use crate::common::*;

#[test]
fn failed_build_keeps_the_previous_pdf_byte_identical() {
    let tmp = base_copy();
    let o = run(tmp.path(), &["build", "--format", "pdf,svg"]);
    assert!(o.status.success(), "{:?}", texts(&o));
    let pdf = tmp.path().join("output/mini/home/mini.pdf");
    let svg = tmp.path().join("output/mini/home/svg/cards/001-front.svg");
    let (good_pdf, good_svg) = (std::fs::read(&pdf).unwrap(), std::fs::read(&svg).unwrap());

    // Change the data (a new card name) and break a template in the same edit.
    edit(
        &tmp.path().join("data/mini/cards.toml"),
        "name = \"Ace\"",
        "name = \"Ace of Suns\"",
    );
    edit(
        &tmp.path().join("templates/mini/back.svg"),
        "{{ face.full_width }}",
        "{{ face.full_width }",
    );
    let o = run(tmp.path(), &["build", "--format", "pdf,svg"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        std::fs::read(&pdf).unwrap(),
        good_pdf,
        "the earlier good PDF is untouched"
    );
    assert_eq!(std::fs::read(&svg).unwrap(), good_svg);
    // No temporary or half-written file is left next to it.
    let names: Vec<String> = std::fs::read_dir(tmp.path().join("output/mini/home"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains("tmp")), "{names:?}");

    // Fixed, the build replaces the file.
    edit(
        &tmp.path().join("templates/mini/back.svg"),
        "{{ face.full_width }",
        "{{ face.full_width }}",
    );
    let o = run(tmp.path(), &["build"]);
    assert!(o.status.success());
    assert_ne!(std::fs::read(&pdf).unwrap(), good_pdf);
    assert!(pdftotext(&pdf, 1).contains("Ace of Suns"));
}

#[test]
fn special_characters_render_as_text() {
    let tmp = base_copy();
    edit(
        &tmp.path().join("data/mini/cards.toml"),
        "name = \"Three & Co\"",
        "name = \"Trois & <Cie> \\\"q\\\" 'x' — Ærø Ñandú\"",
    );
    let o = run(tmp.path(), &["build", "--format", "pdf,svg"]);
    assert!(o.status.success(), "{:?}", texts(&o));
    let text = pdftotext(&tmp.path().join("output/mini/home/mini.pdf"), 1);
    assert!(
        text.contains("Trois & <Cie> \"q\" 'x' — Ærø Ñandú"),
        "{text}"
    );
    let svg = std::fs::read_to_string(tmp.path().join("output/mini/home/svg/cards/003-front.svg"))
        .unwrap();
    assert!(
        svg.contains("Trois &amp; &lt;Cie&gt; &quot;q&quot; &#x27;x&#x27; — Ærø Ñandú"),
        "{svg}"
    );
}

#[test]
fn output_stays_in_the_output_folder() {
    let tmp = base_copy();
    for bad in ["data", "templates", "data/mini", "."] {
        let o = run(tmp.path(), &["build", "--out", bad]);
        assert_eq!(o.status.code(), Some(1), "--out {bad}");
        assert!(
            texts(&o).1.contains("refusing to write output"),
            "{:?}",
            texts(&o)
        );
    }
    // Nothing was written anywhere.
    assert!(!tmp.path().join("data/mini/mini").exists());
    assert!(!tmp.path().join("mini").exists());
}

#[test]
fn warnings_exit_zero_unless_denied() {
    let tmp = base_copy();
    let card = tmp.path().join("templates/mini/card.svg");
    edit(
        &card,
        "{% block body %}",
        "{% import \"common/text.svg\" as text %}{% block body %}",
    );
    // After the background (drawn before it, preflight says the background hides it).
    edit(
        &card,
        "{% endblock %}",
        "{{ text.line(row.name ~ \" with a title far too long for the card\", 5, 40, 30, 5, min=4) }}{% endblock %}",
    );
    let o = run(tmp.path(), &["check"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "check renders nothing, so no warning: {:?}",
        texts(&o)
    );
    let o = run(tmp.path(), &["build"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        texts(&o).1.contains("0 errors, 4 warnings"),
        "{:?}",
        texts(&o)
    );
    let o = run(tmp.path(), &["build", "--deny-warnings", "--out", "out2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        !tmp.path().join("out2/mini").exists(),
        "a build denied for warnings writes nothing"
    );
}
