//! # Lab 3: three- and four-octet characters
//!
//! **Objective.** A lead says how many continuing octets follow by its
//! leading ones (RFC 3629 §3): `110yyyyy` one, `1110zzzz` two, `11110uuu`
//! three; each continuing octet `10xxxxxx` adds six bits. Replace lab 2's
//! one-bit "a continuing byte is due" with a count of the octets still due
//! (the decoder's `bytes_left`, chapter 3), and gather the free bits as
//! they come. The input is well formed: every code point from U+0000 to
//! U+FFFF but the surrogates, then every 251st above, as one message, then
//! short messages that end and start with characters of three and four
//! octets; the sink is always ready.
//!
//! **This starting file** is lab 2's solution: it takes every lead for a
//! two-octet one, so `utf8hdl lab check 3` stops at the first three-octet
//! character, U+0800 (`E0 A0 80`): `tdata=00000020 tuser=0 left before the
//! bytes that decide it were accepted` (a word after two of its three
//! bytes).
//!
//! **Exercises.**
//! 1. Replace `continuing` with a 2-bit `bytes_left` loaded from the lead
//!    (1, 2 or 3) and counted down; mask the lead's free bits by its length
//!    (`0x1F`, `0x0F`, `0x07`); emit the word with the last continuing
//!    octet.
//! 2. The chapter 3 decoder keeps `bytes_left` as a thermometer code
//!    (`00011` for two left). What does that save in logic, and what does
//!    it cost in flops?

use rust_hdl::prelude::*;

/// Decodes UTF-8 of one to four octets, one byte per clock.
#[derive(LogicBlock, Default)]
pub struct LongCharacterDecoder {
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
    /// The lead's free bits.
    lead_bits: DFF<Bits<32>>,
    /// A lead was taken: the next byte completes the character.
    /// TODO (exercise 1): a count of the continuing octets still due.
    continuing: DFF<Bit>,
    word: DFF<Bits<32>>,
    valid: DFF<Bit>,
    last: DFF<Bit>,
}

impl Logic for LongCharacterDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, lead_bits, continuing, word, valid, last);
        self.s_axis_tready.next = true;
        self.valid.d.next = false;
        if self.s_axis_tvalid.val() {
            self.last.d.next = self.s_axis_tlast.val();
            if self.continuing.q.val() {
                self.word.d.next = (self.lead_bits.q.val() << 6)
                    | (bit_cast::<32, 8>(self.s_axis_tdata.val()) & 0x3F);
                self.valid.d.next = true;
                self.continuing.d.next = false;
            } else if self.s_axis_tdata.val().get_bit(7) {
                self.lead_bits.d.next = bit_cast::<32, 8>(self.s_axis_tdata.val()) & 0x1F;
                self.continuing.d.next = true;
            } else {
                self.word.d.next = bit_cast::<32, 8>(self.s_axis_tdata.val());
                self.valid.d.next = true;
            }
        }
        if self.rst.val() {
            self.valid.d.next = false;
            self.continuing.d.next = false;
        }
        self.m_axis_tdata.next = self.word.q.val();
        self.m_axis_tuser.next = 0.into();
        self.m_axis_tvalid.next = self.valid.q.val();
        self.m_axis_tlast.next = self.last.q.val();
    }
}
