//! Layers on the fixture game: a card set whose cut shape differs by row gets its
//! layer rendered once for each shape, and each front goes over its own shape's.

use crate::common::*;

#[test]
fn each_cut_shape_gets_its_own_layer() {
    let tmp = base_copy();
    edit(
        &tmp.path().join("data/mini/game.toml"),
        "table = \"card\"\nfront = \"card.svg\"",
        "table = \"card\"\nshape = \"{{ 'rect' if row.value % 2 == 0 else 'rounded' }}\"\nlayer = \"card-layer.svg\"\nfront = \"card.svg\"",
    );
    std::fs::write(
        tmp.path().join("templates/mini/card-layer.svg"),
        "{% extends \"common/face.svg\" %}{% block body %}<text x=\"5\" y=\"40\" font-size=\"4\">LAYER {{ face.shape }}</text>{% endblock %}",
    )
    .unwrap();
    let o = run(tmp.path(), &["build", "--format", "svg,png"]);
    let (stdout, stderr) = texts(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    let svg = |n: &str| {
        std::fs::read_to_string(
            tmp.path()
                .join(format!("output/mini/home/svg/cards/{n}-front.svg")),
        )
        .unwrap()
    };
    // The cards' values are 1, 2, 3, ...: odd ones are rounded, even ones rect.
    for (n, shape) in [("001", "rounded"), ("002", "rect"), ("003", "rounded")] {
        let text = svg(n);
        assert_eq!(text.matches("LAYER ").count(), 1, "{text}");
        assert!(text.contains(&format!("LAYER {shape}<")), "{n}: {text}");
        let png = tmp
            .path()
            .join(format!("output/mini/home/png/cards/{n}-front.png"));
        assert!(std::fs::metadata(png).unwrap().len() > 1000);
    }
}
