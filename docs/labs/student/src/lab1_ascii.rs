//! # Lab 1: ASCII passthrough
//!
//! **Objective.** A byte 00–7F is a character on its own (RFC 3629 §3:
//! "the octet ... 0xxxxxxx"), and its UCS-4 word is the byte, zero-extended.
//! Forward every byte as its word, one cycle later, with `m_axis_tlast` on
//! the word of a message's last byte. The input is ASCII only, in
//! messages (every ASCII byte up and down, then short ones, down to one
//! byte), and the sink is always ready (lab 5 adds backpressure). Every
//! output must be a register: the check fails an output that moves in the
//! same cycle as an input, before the clock's edge.
//!
//! **This starting file** forwards the words, but never raises
//! `m_axis_tlast`, so `utf8hdl lab check 1` reports, at the first word of
//! the second message: `expected no more words in the message
//! (m_axis_tlast), got tdata=00000041 tuser=0`.
//!
//! **Exercises.**
//! 1. Register `s_axis_tlast` beside the word and drive `m_axis_tlast`
//!    from it. Check with `cargo run --release -- lab check 1`.
//! 2. Why must `tlast` be registered with the word, not passed straight
//!    from `s_axis_tlast` to `m_axis_tlast`? (Draw the two cycles; then
//!    try it: the check names the output that follows an input.)

use rust_hdl::prelude::*;

/// Forwards each ASCII byte as a 32-bit word, registered.
#[derive(LogicBlock, Default)]
pub struct AsciiPassthrough {
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
    word: DFF<Bits<32>>,
    valid: DFF<Bit>,
}

impl Logic for AsciiPassthrough {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, word, valid);
        self.s_axis_tready.next = true;
        self.word.d.next = bit_cast::<32, 8>(self.s_axis_tdata.val());
        self.valid.d.next = self.s_axis_tvalid.val() & !self.rst.val();
        self.m_axis_tdata.next = self.word.q.val();
        self.m_axis_tuser.next = 0.into();
        self.m_axis_tvalid.next = self.valid.q.val();
        // TODO (exercise 1): the word of a message's last byte carries tlast.
        self.m_axis_tlast.next = false;
    }
}
