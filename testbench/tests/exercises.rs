//! The guide's exercises (`docs/exercises.md` and the exercise and
//! "break it" sections of the chapters) refer to the code as it is: the
//! lines they tell the reader to find are in the files they name, the
//! tests they tell the reader to run exist, and their Rust compiles
//! (`build.rs` writes it where this file includes it).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

mod blocks {
    include!(concat!(env!("OUT_DIR"), "/exercises.rs"));
}

fn repository() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repository().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `text` with each line's white space folded, one line a line.
fn folded(text: &str) -> String {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// What an exercise names, and where it must be: (the page, the text the
/// page says, the file, the text the file must hold).
const REFERENCES: &[(&str, &str, &str, &str)] = &[
    (
        "docs/00-primer.md",
        "Replace the `s.ready` line of `Stage`",
        "hdl/examples/primer_passthrough.rs",
        "struct Stage",
    ),
    (
        "docs/00-primer.md",
        "HALT received.as_slice() != BYTES",
        "hdl/examples/primer_passthrough.rs",
        "sim_assert_eq!(ep, received.as_slice(), BYTES, x);",
    ),
    (
        "docs/exercises.md",
        "self.second_allowed.next = 0b10000.into();\nself.outside_tuser.next = self.tuser_overlong.val();",
        "hdl/src/utf8_decoder/lead_table.rs",
        "ByteClass::LeadE0 => {\n// A0–BF\nself.lead_length.next = 3.into();\nself.malformed_tuser.next = 0.into();\nself.second_allowed.next = 0b10000.into();\nself.outside_tuser.next = self.tuser_overlong.val();",
    ),
    (
        "docs/exercises.md",
        "rtl_vs_reference::every_message_of_one_and_two_bytes",
        "testbench/tests/rtl_vs_reference.rs",
        "fn every_message_of_one_and_two_bytes()",
    ),
    (
        "docs/exercises.md",
        "`units.pre_error_valid | delayed_tuser[0]`",
        "hdl/src/utf8_decoder/output_register.rs",
        "self.units.pre_error_valid.val() | self.delayed_tuser.q.val().get_bit(0)",
    ),
    (
        "docs/exercises.md",
        "cores::utf8_decoder::tests::the_decoder_ports_come_from_its_block",
        "sim/src/cores/utf8_decoder.rs",
        "fn the_decoder_ports_come_from_its_block()",
    ),
    (
        "docs/exercises.md",
        "`committed_gtkw_file_is_up_to_date` fails",
        "sim/tests/figures.rs",
        "fn committed_gtkw_file_is_up_to_date()",
    ),
    (
        "docs/exercises.md",
        "`utf8hdl: the clock period must be at least 4 ns`",
        "sim/src/waveform.rs",
        "the clock period must be at least 4 ns",
    ),
    (
        "docs/09-formal.md",
        "(in `faxis_core_harness.vh`, `reg f_ready_history; ... <=\n   m_axis_tready;`)",
        "hdl/formal/faxis_core_harness.vh",
        "f_ready_history <= {f_ready_history, m_axis_tready};",
    ),
    (
        "docs/10-wide-decoder.md",
        "Change `LaneDecoder`'s window",
        "hdl/src/utf8_decoder_wide/stages/s4_lane_decoder.rs",
        "pub struct LaneDecoder<const N: usize>",
    ),
    (
        "docs/10-wide-decoder.md",
        "passes `random_beats_x8`",
        "testbench/tests/wide_decoder.rs",
        "random_beats_x8,",
    ),
    (
        "docs/11-core-family.md",
        "(make `waits` always low)",
        "hdl/src/utf16_decoder.rs",
        "waits: Signal<Local, Bit>,",
    ),
    (
        "docs/11-core-family.md",
        "lower `Utf8Encoder::LATENCY`",
        "hdl/src/utf8_encoder.rs",
        "pub const LATENCY: u64",
    ),
];

#[test]
fn every_line_and_test_an_exercise_names_exists() {
    let mut missing = Vec::new();
    for (page, says, file, holds) in REFERENCES {
        if !folded(&read(page)).contains(&folded(says)) {
            missing.push(format!("{page} no longer says {says:?}"));
        }
        if !folded(&read(file)).contains(&folded(holds)) {
            missing.push(format!(
                "{file} does not hold {holds:?}, which {page} names"
            ));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// Exercise 3's test compiles against the harness as it is, and runs up
/// to the port the reader is asked to add, which the decoder does not
/// have yet: it stops there, not before.
#[test]
fn exercise_3s_test_compiles_and_waits_for_its_port() {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = catch_unwind(AssertUnwindSafe(
        blocks::test_file_1::is_ascii_flags_the_ascii_characters,
    ));
    std::panic::set_hook(hook);
    let panic = outcome.expect_err("the decoder has no m_axis_is_ascii yet");
    let message = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    assert!(message.contains("on a `None` value"), "{message}");
    let exercise = read("docs/exercises.md");
    let port = exercise.find(r#"position(|p| p == "m_axis_is_ascii").unwrap()"#);
    assert!(port.is_some(), "the test looks the port up by name");
}

/// Exercise 4's figure compiles, and is not one of the decoder's figures
/// yet.
#[test]
fn exercise_4s_figure_compiles() {
    let figure = blocks::figure_1();
    assert_eq!(figure.name, "overlong");
    assert!(!repository().join("docs/figures/overlong.svg").exists());
}
