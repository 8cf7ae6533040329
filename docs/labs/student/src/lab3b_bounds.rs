//! # Lab 3b: bounds
//!
//! **Objective.** Lab 3a's decoder takes every byte with leading ones for
//! a lead and every continuing octet after one. RFC 3629 §4's table is
//! narrower: the leads are C2–F4, and after E0, ED, F0 and F4 the second
//! byte has bounds of its own (A0–BF after E0, 80–9F after ED, 90–BF
//! after F0, 80–8F after F4; 80–BF after any other lead), which rule out
//! the overlong forms, the surrogates and what lies above U+10FFFF. A byte
//! outside C2–F4 that cannot be a character alone is one U+FFFD with its
//! kind in `m_axis_tuser`: C0, C1 9 `overlong`; F5–FD D `out_of_range`;
//! FE, FF 3 `invalid_byte`. A second byte outside its lead's bounds ends
//! the maximal subpart at the lead (chapter 4): the lead alone is one
//! U+FFFD (9 `overlong` after E0 and F0, B `surrogate` after ED,
//! D `out_of_range` after F4), and the byte is read again where a unit
//! starts, a continuing octet with no sequence open: a U+FFFD
//! `unexpected_continuation` (5) of its own. `E0 80 80` is three U+FFFD,
//! `F4 90 80 80` four. That byte gives two words; the second is always
//! U+FFFD `unexpected_continuation`, and in this lab's input the bytes
//! after it, until a lead of a character, are continuing octets, each of
//! which owes the same word again, so it can wait a cycle in one flop.
//! Everything lab 3a closed is closed as there. The input is in
//! messages: both sides of every bound, and every lead outside C2–F4, as
//! one; then lab 3a's messages that end inside a character, the bounded
//! ones among them; then messages that end just after a second byte out
//! of bounds (its U+FFFD carries `m_axis_tlast`); then a fixed-seed random
//! mix of all of these. One byte per clock; the sink is always ready.
//!
//! **This starting file** holds the ports and sends no word, so `utf8hdl
//! lab check 3b` reports, at the first word due (that of U+0800, `E0 A0
//! 80`): `byte offset 0: expected U+0800 ok, got no word`.
//!
//! **Exercises.**
//! 1. Bring in your lab 3a block. Register, with each lead, the bounds of
//!    the byte after it and the `tuser` of a continuing octet outside them;
//!    give C0, C1 and F5–FF their U+FFFD; and for a second byte out of
//!    bounds send the lead's U+FFFD, then the byte's own in the next cycle.
//!    Check with `cargo run --release -- lab check 3b`.
//! 2. Why does RFC 3629 bound the second byte only, never the third or the
//!    fourth? And why is `E0 80` two U+FFFD, not one (what would a decoder
//!    that swallowed the `80` do with `E0 80 41`, or with `E0 2F`)?

use rust_hdl::prelude::*;

/// Lab 3a's decoder, held to RFC 3629 §4's bounds.
#[derive(LogicBlock, Default)]
pub struct BoundsDecoder {
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

impl Logic for BoundsDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        self.s_axis_tready.next = true;
        self.m_axis_tdata.next = 0.into();
        self.m_axis_tuser.next = 0.into();
        self.m_axis_tvalid.next = false;
        self.m_axis_tlast.next = false;
    }
}
