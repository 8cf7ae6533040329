//! # Lab 4: the error policy
//!
//! **Objective.** Malformed input becomes one U+FFFD per maximal subpart
//! (Unicode §3.9, chapter 4), with its kind in `m_axis_tuser`: bit 0 set,
//! bits 3:1 the code, so `tuser` is 3 `invalid_byte` (FE, FF),
//! 5 `unexpected_continuation` (80–BF where a unit starts), 7 `truncated`
//! (a sequence ended by a byte that cannot continue it, or by the end of
//! the message), 9 `overlong` (C0, C1; E0 80–9F; F0 80–8F), B `surrogate`
//! (ED A0–BF), D `out_of_range` (F5–FD; F4 90–BF). The byte that breaks a
//! sequence is not part of its error: it is read again as the start of
//! the next unit. Lab 3b did this for a continuing octet outside its
//! lead's bounds, whose own word is always U+FFFD
//! `unexpected_continuation`, and lab 3a for a lead, which gives no word
//! of its own. Here any byte may break a sequence: ASCII (`E2 82 41` is
//! U+FFFD `truncated`, then U+0041), C0, F5 or FF, or a lead that its
//! message's end leaves alone (`E2 82 F0`); and the byte after a second
//! byte out of bounds may give any word (`E0 80 41`). One byte then gives
//! two words of any kind, and the byte after it may give one too. Keep
//! one byte per clock (`s_axis_tready` high); the sink is always ready.
//! The input is in messages: chapter 4's cases as one (`C0 80`,
//! `E0 80 80`, `ED A0 80`, `F4 90 80 80`, F5, FF, lone continuing octets,
//! sequences broken by ASCII and by leads, ...); then messages that end
//! inside a character, after each of its bytes but the last, each
//! followed by a message that starts with the rest of the character (no
//! state crosses a message's end: an open sequence is U+FFFD `truncated`,
//! with `m_axis_tlast`); then a fixed-seed random mix of characters and
//! every kind of error, cut into messages at random, the last ending in
//! `E2 82 F0`.
//!
//! **This starting file** holds the ports and sends no word, so `utf8hdl
//! lab check 4` reports, at the first word due (that of C0, RFC 3629 §3's
//! overlong `C0 80`): `byte offset 0: expected U+FFFD overlong, got no
//! word`.
//!
//! **Exercises.**
//! 1. Bring in your lab 3b block. Let any byte break the open sequence:
//!    it gives the sequence's error and then its own unit. Keep the second
//!    word in a holding register that sends it in the next cycle, before
//!    the word of the byte of that cycle, which may be held in its turn.
//! 2. Show that the holding register never has to hold two words, at one
//!    byte per clock: which bytes give two words, and what must come
//!    before the next one? (The decoder of chapter 3 delays every word by
//!    a cycle instead; compare.)

use rust_hdl::prelude::*;

/// Decodes UTF-8 (RFC 3629 §3), one byte per clock, and replaces each
/// maximal subpart of malformed input with one U+FFFD, its kind in
/// `m_axis_tuser`.
#[derive(LogicBlock, Default)]
pub struct ErrorPolicyDecoder {
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

impl Logic for ErrorPolicyDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        // TODO (exercise 1): your lab 3b block, where any byte may break a
        // sequence, with a holding register for the second word.
        self.s_axis_tready.next = true;
        self.m_axis_tdata.next = 0.into();
        self.m_axis_tuser.next = 0.into();
        self.m_axis_tvalid.next = false;
        self.m_axis_tlast.next = false;
    }
}
