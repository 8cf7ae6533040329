//! Lab 2, solved: one- and two-octet characters. See
//! `docs/labs/student/src/lab2_two_bytes.rs`.

use rust_hdl::prelude::*;

/// Decodes `0xxxxxxx` and `110yyyyy 10xxxxxx`, one byte per clock, a word
/// a cycle after the byte that completes it.
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
    /// The lead's five free bits, `yyyyy`.
    lead_bits: DFF<Bits<32>>,
    /// A lead was taken: the next byte completes the character.
    continuing: DFF<Bit>,
    word: DFF<Bits<32>>,
    valid: DFF<Bit>,
    last: DFF<Bit>,
}

impl Logic for TwoByteDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, lead_bits, continuing, word, valid, last);
        self.s_axis_tready.next = true;
        self.valid.d.next = false;
        if self.s_axis_tvalid.val() {
            self.last.d.next = self.s_axis_tlast.val();
            if self.continuing.q.val() {
                // 10xxxxxx: yyyyy followed by xxxxxx.
                self.word.d.next = (self.lead_bits.q.val() << 6)
                    | (bit_cast::<32, 8>(self.s_axis_tdata.val()) & 0x3F);
                self.valid.d.next = true;
                self.continuing.d.next = false;
            } else if self.s_axis_tdata.val().get_bit(7) {
                // 110yyyyy: no word yet.
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
