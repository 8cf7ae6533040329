//! The guide's figures are what the simulator draws today: regenerating
//! them gives exactly the committed SVGs.

use std::fs;
use std::path::Path;

use utf8hdl_sim::figures::{all, render};

#[test]
fn committed_figures_are_up_to_date() {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/figures");
    let fresh = tempfile::tempdir().unwrap();
    for (kind, figure) in all() {
        render(kind, figure, fresh.path()).unwrap();
        let name = format!("{}.svg", figure.name);
        let new = fs::read_to_string(fresh.path().join(&name)).unwrap();
        let old = fs::read_to_string(committed.join(&name))
            .unwrap_or_else(|_| panic!("docs/figures/{name} is missing: run `utf8hdl wave`"));
        assert!(
            new == old,
            "docs/figures/{name} is stale: run `cargo run --release -- wave`"
        );
    }
}

/// The GTKWave save file that the README and the main job point to is the
/// one the core's description gives. `UTF8HDL_BLESS=1` rewrites it.
#[test]
fn committed_gtkw_file_is_up_to_date() {
    use utf8hdl_hdl::Profile;
    use utf8hdl_sim::cores::utf8_decoder::Decoder;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("utf8hdl.gtkw");
    let fresh = utf8hdl_sim::waveform::gtkw(
        &Decoder(Profile::Rfc3629),
        "utf8hdl.vcd",
        "sim/utf8hdl.gtkw",
    )
    .unwrap();
    if std::env::var("UTF8HDL_BLESS").as_deref() == Ok("1") {
        fs::write(&path, &fresh).unwrap();
    }
    let committed = fs::read_to_string(&path).unwrap();
    assert!(
        fresh == committed,
        "sim/utf8hdl.gtkw is stale: rerun this test with UTF8HDL_BLESS=1"
    );
}

/// The guide's formal figure is the committed cover trace (a solver's
/// choice, so not regenerated here) drawn by `utf8hdl formal --cover`.
/// `UTF8HDL_BLESS=1` redraws it from the committed trace.
#[test]
fn committed_formal_trace_figure_is_up_to_date() {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/figures");
    let name = "formal-rfc3629-cover-two-word-cycle-c2-41";
    let svg = utf8hdl_sim::figures::render_trace(&committed.join(format!("{name}.vcd"))).unwrap();
    if std::env::var("UTF8HDL_BLESS").as_deref() == Ok("1") {
        fs::write(committed.join(format!("{name}.svg")), &svg).unwrap();
    }
    let old = fs::read_to_string(committed.join(format!("{name}.svg"))).unwrap();
    assert!(
        svg == old,
        "docs/figures/{name}.svg is stale: run `utf8hdl formal --cover --dir docs/figures`"
    );
}

/// The state table and the state diagram of chapter 3 are the ones the
/// reference gives, for both profiles. `UTF8HDL_BLESS=1` rewrites them.
#[test]
fn committed_state_figures_are_up_to_date() {
    use utf8hdl_hdl::Profile;
    for profile in Profile::ALL {
        let machine = utf8hdl_sim::state_machine::StateMachine::derive(profile);
        let figures = [
            ("state_table", utf8hdl_sim::state_table::render(&machine)),
            (
                "state_diagram",
                utf8hdl_sim::state_diagram::render(&machine),
            ),
        ];
        for (name, fresh) in figures {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(format!("../docs/figures/{name}_{}.svg", profile.name()));
            if std::env::var("UTF8HDL_BLESS").as_deref() == Ok("1") {
                fs::write(&path, &fresh).unwrap();
            }
            let committed = fs::read_to_string(&path).unwrap_or_default();
            assert!(
                fresh == committed,
                "{} is stale: rerun this test with UTF8HDL_BLESS=1",
                path.display()
            );
        }
    }
}
