//! Every integration test in one binary (one link instead of one per file): they
//! run the real `cardstock` binary on real data and read the output back.

mod common;

mod architecture;
mod cdp;
mod compact_streams;
mod determinism;
mod drawing;

mod black_pawn_trucking;
mod errors;
mod first_hour;
mod fixtures;
mod fonts;
mod fuzz;
mod games;
mod golden;
mod hostile;
mod incremental;
mod inside_track;
mod interstate;
mod kept_checks;
mod layers;
mod leftovers;
mod new_game;
mod one_document;
mod parcel_delivery;
mod pdf_text;
mod print;
mod print_color;
mod prints;
mod profiles;
mod reference;
mod rendered;
mod repeats;
mod robustness;
mod rule_facts;
mod rulebook;
mod rulebook_fit;
mod serve;
mod shop_png;
mod streams;
mod stroke_bounds;
mod tables;
mod text;
mod text_sizes;
mod truck_off;
mod tts;
mod vendor;
