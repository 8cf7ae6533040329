//! # Lab 2: two-octet characters
//!
//! **Objective.** U+0080 to U+07FF take two octets, `110yyyyy 10xxxxxx`
//! (RFC 3629 §3's table): the word is `yyyyyxxxxxx`. Extend lab 1 so that
//! a lead byte (C2–DF) is remembered and the continuing byte after it
//! completes the word; ASCII is as in lab 1. The input is well formed:
//! every code point from U+0000 to U+07FF, in order, as one message, then
//! short messages that end and start with two-octet characters; the sink
//! is always ready.
//!
//! **This starting file** is lab 1's starting file: it emits a word for
//! every byte, the lead too, and no `m_axis_tlast`, so `utf8hdl lab check
//! 2` stops at the first two-octet character, U+0080
//! (`C2 80`): `tdata=000000C2 tuser=0 left before the bytes that decide it
//! were accepted` (a word for `C2` alone, which cannot be known before the
//! byte after it).
//!
//! **Exercises.**
//! 1. Bring in your lab 1 block's `tlast`. Add a register for the lead's
//!    free bits and one that says a continuing byte is due; emit no word
//!    for the lead, and `(yyyyy << 6) | xxxxxx` for the byte after it.
//! 2. Which `s_axis_tlast` goes with the word of `C2 80`, and why is the
//!    answer "the `80`'s"?

use rust_hdl::prelude::*;

/// Decodes `0xxxxxxx` and `110yyyyy 10xxxxxx`, one byte per clock.
#[derive(LogicBlock, Default)]
pub struct TwoByteDecoder {
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

impl Logic for TwoByteDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, word, valid);
        self.s_axis_tready.next = true;
        // TODO (exercise 1): a lead gives no word; the continuing byte
        // after it completes one.
        self.word.d.next = bit_cast::<32, 8>(self.s_axis_tdata.val());
        self.valid.d.next = self.s_axis_tvalid.val() & !self.rst.val();
        self.m_axis_tdata.next = self.word.q.val();
        self.m_axis_tuser.next = 0.into();
        self.m_axis_tvalid.next = self.valid.q.val();
        // TODO (exercise 1): the word of a message's last byte carries tlast.
        self.m_axis_tlast.next = false;
    }
}
