//! # Lab 3a: open sequences
//!
//! **Objective.** Lab 3's decoder meets sequences that do not complete. A
//! lead opens a sequence, which stays open until its last continuing
//! octet comes; two things close it early, each with one U+FFFD
//! `truncated` (`m_axis_tuser` 7, chapter 4): a lead where a continuing
//! octet is due (the lead then opens a sequence of its own), and the end
//! of the message (the U+FFFD carries `m_axis_tlast`, and the next
//! message starts from nothing). A continuing octet with no sequence open
//! is a U+FFFD `unexpected_continuation` (5) of its own. The input is
//! well-formed characters of every length, sequences broken by a lead
//! (`E2 82` then `C3 A9`), messages that end inside a character after
//! each of its bytes but the last, each followed by a message that starts
//! with the rest of it (lone continuing octets), and a fixed-seed random
//! mix of all of these; the sink is always ready. No byte in it gives two
//! words: a byte that breaks a sequence and is a unit by itself (`E2 82
//! 41`) is lab 4's.
//!
//! **This starting file** holds the ports and sends no word, so `utf8hdl
//! lab check 3a` reports, at the first word due (that of `C3` broken by
//! `E2`): `byte offset 0: expected U+FFFD truncated, got no word`.
//!
//! **Exercises.**
//! 1. Bring in your lab 3 block (its registers and its `update`), add a
//!    registered `m_axis_tuser`, and close an open sequence as above.
//!    Check with `cargo run --release -- lab check 3a`.
//! 2. When `C3` breaks `E2 82`, why must the U+FFFD of `E2 82` leave in
//!    `C3`'s cycle rather than later? And why can this block not do the
//!    same for `E2 82 41` with one word a cycle?

use rust_hdl::prelude::*;

/// Lab 3's decoder, closing the sequences that cannot complete.
#[derive(LogicBlock, Default)]
pub struct OpenSequenceDecoder {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub s_axis_tdata: Signal<In, Bits<8>>,
    pub s_axis_tvalid: Signal<In, Bit>,
    pub s_axis_tready: Signal<Out, Bit>,
    pub s_axis_tlast: Signal<In, Bit>,
    pub m_axis_tdata: Signal<Out, Bits<32>>,
    pub m_axis_tuser: Signal<Out, Bits<4>>,
    pub m_axis_tvalid: Signal<Out, Bit>,
    pub m_axis_tready: Signal<In, Bit>,
    pub m_axis_tlast: Signal<Out, Bit>,
}

impl Logic for OpenSequenceDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        self.s_axis_tready.next = true;
        self.m_axis_tdata.next = 0.into();
        self.m_axis_tuser.next = 0.into();
        self.m_axis_tvalid.next = false;
        self.m_axis_tlast.next = false;
    }
}
