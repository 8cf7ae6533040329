//! The labs' checks catch the mistakes a teacher expects (docs/labs.md).
//! Each planted mistake is a lab's solution with one change, written by
//! `build.rs` from the solution's own text (so it follows the solution as
//! it changes), and its lab's check, on the lab's messages and stimulus,
//! must fail with a message that points at the cause. (`labs.rs` checks
//! that every solution passes.)

use utf8hdl_sim::checker::run_checked;
use utf8hdl_sim::core::Core;
use utf8hdl_sim::harness::Harness;
use utf8hdl_sim::labs::{self, Reference, ALWAYS_READY};

/// The solutions, each with one mistake: `mutants::<mistake>::<Block>`.
mod mutants {
    include!(concat!(env!("OUT_DIR"), "/lab_mistakes.rs"));
}

/// The first failure of block `C` under lab `id`'s check.
fn failure<C: Core<Input = u8, Model = Reference> + Default>(id: &str) -> String {
    let lab = labs::find(id).unwrap();
    let summary = labs::run::<C>(&(lab.input)(), &lab.stimulus, 0..0).summary;
    match summary.mismatch {
        Some(mismatch) => mismatch.to_string(),
        None => panic!("lab {id}'s check passes a planted mistake"),
    }
}

/// `name: lab N, Block, latency [; tkeep], "text", ...;`: a test that lab
/// N's check fails `mutants::name::Block` with a message that contains
/// each text.
macro_rules! mistakes {
    ($($(#[doc = $doc:literal])* $name:ident: lab $lab:literal, $block:ident, $latency:literal
       $(; $tkeep:ident)?, $($reason:literal),+;)*) => {$(
        $(#[doc = $doc])*
        #[test]
        fn $name() {
            utf8hdl_sim::lab_core!(
                Mistake, mutants::$name::$block, stringify!($name), $latency $(; $tkeep)?
            );
            let failure = failure::<Mistake>($lab);
            $(assert!(failure.contains($reason), "lab {}: {failure}", $lab);)+
        }
    )*};
}

/// What the check says of any output that follows an input.
const NOT_A_REGISTER: &str = "before the clock's rising edge";

mistakes! {
    /// Lab 1's question 2 answered wrong: a wire from `s_axis_tlast`,
    /// which the decoder's harness alone takes for a register (below).
    lab1_combinational_tlast: lab "1", AsciiPassthrough, 1,
        "m_axis_tlast follows s_axis_tlast combinationally", "m_axis_tlast must be a register";
    lab1_combinational_tvalid: lab "1", AsciiPassthrough, 1,
        "m_axis_tvalid follows s_axis_tvalid combinationally", "m_axis_tvalid must be a register";
    /// Set by the first message's end, never cleared: the second
    /// message's first word ends it.
    lab1_sticky_tlast: lab "1", AsciiPassthrough, 1,
        "m_axis_tlast before the message's last byte was accepted";
    /// U+0100 is `C4 80`: the 80's top bit lands in the word.
    lab2_continuing_byte_unmasked: lab "2", TwoByteDecoder, 1,
        "expected U+0100 ok, got tdata=00000180";
    /// The first message ends with U+07FF, whose word has no tlast: the
    /// next message's U+0080 comes where the end was due.
    lab2_tlast_of_the_lead: lab "2", TwoByteDecoder, 1,
        "expected no more words in the message (m_axis_tlast), got tdata=00000080";
    /// U+10000 (`F0 90 80 80`) leaves after three of its four bytes.
    lab3_four_octet_lead_counts_two: lab "3", LongCharacterDecoder, 1,
        "tdata=00000400 tuser=0 left before the bytes that decide it were accepted";
    /// The first character above U+FFFFF of the input loses its top bit.
    lab3_four_octet_lead_mask: lab "3", LongCharacterDecoder, 1,
        "expected U+10007F ok, got tdata=0000007F";
    /// `a E2 82` ends a message with no U+FFFD; the next starts with AC,
    /// which completes the € of the message before.
    lab3a_message_end_ignored: lab "3a", OpenSequenceDecoder, 1,
        "byte offset 41: expected U+FFFD truncated, got tdata=000020AC";
    /// `C3` then `E2 82 AC`: the é's U+FFFD is missing before the €.
    lab3a_broken_sequence_silent: lab "3a", OpenSequenceDecoder, 1,
        "byte offset 0: expected U+FFFD truncated, got tdata=000020AC";
    /// `E0 9F BF`, an overlong U+07FF, decoded.
    lab3b_e0_takes_80: lab "3b", BoundsDecoder, 1,
        "byte offset 3: expected U+FFFD overlong, got tdata=000007FF";
    /// `ED A0 80` decoded as U+D800.
    lab3b_surrogates_decoded: lab "3b", BoundsDecoder, 1,
        "expected U+FFFD surrogate, got tdata=0000D800";
    /// `F4 90 80 80` decoded as U+110000, one above the last code point.
    lab3b_f4_takes_90: lab "3b", BoundsDecoder, 1,
        "expected U+FFFD out_of_range, got tdata=00110000";
    /// `C0 80`, RFC 3629 §3's overlong U+0000, decoded.
    lab3b_c0_c1_as_leads: lab "3b", BoundsDecoder, 1,
        "expected U+FFFD overlong, got tdata=00000000";
    /// `E0 9F BF`: E0's U+FFFD covers 9F too, so the U+FFFD of BF comes
    /// where 9F's was due, and U+0FFF where BF's was.
    lab3b_rejected_byte_swallowed: lab "3b", BoundsDecoder, 1,
        "byte offset 5: expected U+FFFD unexpected_continuation, got tdata=00000FFF";
    /// `a C3` ends a message; the next starts with A9, which carries on the
    /// é of the message before instead of being a lone continuing octet.
    lab4_message_end_ignored: lab "4", ErrorPolicyDecoder, 1,
        "expected U+FFFD unexpected_continuation, got tdata=000000E9";
    /// `E0 80 80`: the first 80 breaks E0 and is lost, so one
    /// unexpected_continuation is missing.
    lab4_breaking_byte_swallowed: lab "4", ErrorPolicyDecoder, 1,
        "expected U+FFFD unexpected_continuation, got tdata=0000FFFD tuser=9";
    /// `E0 80 80` is overlong, not truncated.
    lab4_bounds_error_truncated: lab "4", ErrorPolicyDecoder, 1,
        "expected U+FFFD overlong, got tdata=0000FFFD tuser=7";
    /// Lab 5's question 2 answered wrong: a path from the sink to the
    /// source.
    lab5_combinational_tready: lab "5", BackpressurePassthrough, 1,
        "s_axis_tready follows m_axis_tready combinationally", "s_axis_tready must be a register";
    /// The byte accepted while the skid register is full is dropped.
    lab5_always_ready: lab "5", BackpressurePassthrough, 1,
        "expected U+0006 ok, got tdata=0000000C";
    lab6_message_end_ignored: lab "6", ClassifiedDecoder, 2,
        "expected U+FFFD unexpected_continuation, got tdata=000000E9";
    /// RFC 3629 §3's `C0 80` decoded as U+0000.
    lab6_c0_c1_as_leads: lab "6", ClassifiedDecoder, 2,
        "byte offset 0: expected U+FFFD overlong, got tdata=00000000";
    lab6_f5_as_invalid: lab "6", ClassifiedDecoder, 2,
        "expected U+FFFD out_of_range, got tdata=0000FFFD tuser=3";
    lab7_message_end_ignored: lab "7", FullDecoder, 2,
        "expected U+FFFD unexpected_continuation, got tdata=000000E9";
    /// `ED A0 80` decoded as U+D800.
    lab7_surrogates_accepted: lab "7", FullDecoder, 2,
        "expected U+FFFD surrogate, got tdata=0000D800";
    /// `E0 80 80` decoded as U+0000.
    lab7_overlongs_accepted: lab "7", FullDecoder, 2,
        "expected U+FFFD overlong, got tdata=00000000";
    /// U+0085 straddles two beats, and gets lane 0's bits for its lead's.
    lab8_pending_lead_from_lane_0: lab "8", WideStepDecoder, 1; tkeep,
        "expected U+0085 ok, got tdata=00000385";
    lab8_lead_in_lane_1_gives_a_word: lab "8", WideStepDecoder, 1; tkeep,
        "tdata=00000382 tuser=0 left before the bytes that decide it were accepted";
}

/// What the checks missed before they ran on many messages and on
/// [`labs::Registered`]: lab 1's wired `m_axis_tlast` passes the decoder's
/// harness (which samples the outputs before it drives the inputs, so the
/// wire shows the `tlast` of the cycle before, as a register would), and
/// lab 4's decoder that ignores message ends passes the lab's bytes as one
/// message.
#[test]
fn what_a_plain_check_on_one_message_misses() {
    utf8hdl_sim::lab_core!(
        Wired,
        mutants::lab1_combinational_tlast::AsciiPassthrough,
        "lab1",
        1
    );
    let bytes = (labs::find("1").unwrap().input)().concat();
    let summary = run_checked(
        Harness::new(Wired),
        bytes.iter().copied(),
        &ALWAYS_READY,
        |_| Ok::<(), ()>(()),
        &mut |_, _| {},
    )
    .unwrap();
    assert!(summary.agree(), "{}", summary.mismatch.unwrap());
    assert!(failure::<Wired>("1").contains(NOT_A_REGISTER));

    utf8hdl_sim::lab_core!(
        EndsIgnored,
        mutants::lab4_message_end_ignored::ErrorPolicyDecoder,
        "lab4",
        1
    );
    let one_message = vec![(labs::find("4").unwrap().input)().concat()];
    let summary = labs::run::<EndsIgnored>(&one_message, &ALWAYS_READY, 0..0).summary;
    assert!(summary.agree(), "{}", summary.mismatch.unwrap());
}
