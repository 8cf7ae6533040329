//! The guide's labs (docs/labs.md): every solution passes its check, with
//! exactly the reference's units, and every starting file fails for the
//! reason its lab states. (In a student's copy, a solved lab fails the
//! second test: its starting file is no longer the one committed.)

use utf8hdl_hdl::Profile;
use utf8hdl_sim::labs::{check, LABS};
use utf8hdl_sim::reference::decode;

#[test]
fn every_solution_passes() {
    for lab in LABS {
        let summary = check(lab.number, true).unwrap();
        assert!(
            summary.agree(),
            "lab {}: {}",
            lab.number,
            summary.mismatch.unwrap()
        );
        let input = (lab.input)();
        assert_eq!(summary.bytes as usize, input.len());
        assert_eq!(
            summary.words as usize,
            decode(&input, Profile::Rfc3629).len()
        );
    }
}

/// The first difference of each starting file, as its lab's doc comment
/// (and docs/labs.md) states it.
#[test]
fn every_starting_file_fails_for_its_stated_reason() {
    let reasons = [
        (1, "the message's m_axis_tlast never came"),
        (
            2,
            "tdata=000000C2 tuser=0 left before the bytes that decide it were accepted",
        ),
        (
            3,
            "tdata=00000020 tuser=0 left before the bytes that decide it were accepted",
        ),
    ];
    assert_eq!(reasons.len(), LABS.len(), "a reason for every lab");
    for (number, reason) in reasons {
        let summary = check(number, false).unwrap();
        let mismatch = summary.mismatch.expect("the starting file fails");
        assert!(
            mismatch.to_string().contains(reason),
            "lab {number}: {mismatch}"
        );
        let file = LABS[number - 1].file;
        let source =
            std::fs::read_to_string(format!("{}/../{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        // The doc comment's words, without its `//!`s.
        let text = source
            .split_whitespace()
            .filter(|word| *word != "//!")
            .collect::<Vec<_>>()
            .join(" ");
        assert!(text.contains(reason), "{file} states the reason: {reason}");
    }
}
