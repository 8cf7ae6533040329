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
//! the next unit, so one byte can give two words (`E2 82 41` is U+FFFD
//! `truncated`, then U+0041). Keep one byte per clock (`s_axis_tready`
//! high); the sink is always ready. The input is in messages: chapter 4's
//! cases as one (`C0 80`, `E0 80 80`, `ED A0 80`, `F4 90 80 80`, F5, FF,
//! lone continuing octets, ...); then messages that end inside a
//! character, after each of its bytes but the last, each followed by a
//! message that starts with the rest of the character (no state crosses a
//! message's end: an open sequence is U+FFFD `truncated`, with
//! `m_axis_tlast`); then a fixed-seed random mix of characters and every
//! kind of error, cut into messages at random, the last ending in
//! `E2 82 F0`.
//!
//! **This starting file** is lab 3's solution: it knows no errors, so
//! `utf8hdl lab check 4` stops at the first word, that of RFC 3629 §3's
//! overlong `C0 80`, which it decodes as U+0000: `byte offset 0: expected
//! U+FFFD overlong, got tdata=00000000 tuser=0`.
//!
//! **Exercises.**
//! 1. Give every byte that cannot start a unit its error word, register
//!    the second-byte bounds of E0, ED, F0 and F4 (and the kind a
//!    continuing octet outside them means) when a lead opens a sequence,
//!    and decide for each byte whether it continues the open sequence or
//!    breaks it. A byte that breaks it gives the sequence's error and then
//!    its own unit: keep the second word in a holding register that sends
//!    it in the next cycle.
//! 2. Show that the holding register never has to hold two words, at one
//!    byte per clock: which bytes give two words, and what must come
//!    before the next one? (The decoder of chapter 3 delays every word by
//!    a cycle instead; compare.)

use rust_hdl::prelude::*;

/// Decodes well-formed UTF-8 of one to four octets (RFC 3629 §3), one
/// byte per clock, a word a cycle after the byte that completes it.
/// TODO (exercise 1): one U+FFFD per maximal subpart, its kind in
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
    /// The free bits so far.
    gathered: DFF<Bits<32>>,
    /// Continuing octets still due: 0 between characters.
    bytes_left: DFF<Bits<2>>,
    word: DFF<Bits<32>>,
    valid: DFF<Bit>,
    last: DFF<Bit>,
    /// The byte, zero-extended (named `octet`: `byte` is a SystemVerilog
    /// keyword, which Verilator rejects in the exported Verilog).
    octet: Signal<Local, Bits<32>>,
}

impl Logic for ErrorPolicyDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, gathered, bytes_left, word, valid, last);
        self.s_axis_tready.next = true;
        self.octet.next = bit_cast::<32, 8>(self.s_axis_tdata.val());
        self.valid.d.next = false;
        if self.s_axis_tvalid.val() {
            self.last.d.next = self.s_axis_tlast.val();
            if self.bytes_left.q.val() != 0 {
                // 10xxxxxx: six more bits.
                self.gathered.d.next = (self.gathered.q.val() << 6) | (self.octet.val() & 0x3F);
                self.bytes_left.d.next = self.bytes_left.q.val() - 1;
                if self.bytes_left.q.val() == 1 {
                    self.word.d.next = (self.gathered.q.val() << 6) | (self.octet.val() & 0x3F);
                    self.valid.d.next = true;
                }
            } else if !self.s_axis_tdata.val().get_bit(7) {
                self.word.d.next = self.octet.val();
                self.valid.d.next = true;
            } else if !self.s_axis_tdata.val().get_bit(5) {
                // 110yyyyy
                self.gathered.d.next = self.octet.val() & 0x1F;
                self.bytes_left.d.next = 1.into();
            } else if !self.s_axis_tdata.val().get_bit(4) {
                // 1110zzzz
                self.gathered.d.next = self.octet.val() & 0x0F;
                self.bytes_left.d.next = 2.into();
            } else {
                // 11110uuu
                self.gathered.d.next = self.octet.val() & 0x07;
                self.bytes_left.d.next = 3.into();
            }
        }
        if self.rst.val() {
            self.valid.d.next = false;
            self.bytes_left.d.next = 0.into();
        }
        self.m_axis_tdata.next = self.word.q.val();
        // TODO (exercise 1): the error kinds.
        self.m_axis_tuser.next = 0.into();
        self.m_axis_tvalid.next = self.valid.q.val();
        self.m_axis_tlast.next = self.last.q.val();
    }
}
