//! Lab 8, solved: two bytes a clock, the words packed. See
//! `docs/labs/student/src/lab8_wide_step.rs`.

use rust_hdl::prelude::*;

/// Lab 2's decoder two lanes wide: two bytes in each beat, up to two words
/// out, one beat per clock, latency 1.
///
/// Lane *i* is the *i*-th byte or word in stream order. A lane gives a
/// word unless its byte is a lead: an ASCII byte is its word, and a
/// continuing octet completes the lead just before it, which is in lane 0
/// of this beat (for lane 1) or in lane 1 of the beat before (for lane 0,
/// kept in `pending_bits`). The words leave packed: when lane 0 gives none
/// (its lead waits for lane 1), lane 1's word moves to lane 0.
///
/// Invariants: `m_axis_tkeep` is `00`, `01` or `11`; a beat gives no word
/// only when its bytes are a lone lead in lane 1, and then `m_axis_tvalid`
/// is low unless the beat ends the message (a null beat that carries
/// `tlast`).
#[derive(LogicBlock, Default)]
pub struct WideStepDecoder {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub s_axis_tdata: Signal<In, Bits<16>>,
    pub s_axis_tkeep: Signal<In, Bits<2>>,
    pub s_axis_tvalid: Signal<In, Bit>,
    pub s_axis_tready: Signal<Out, Bit>,
    pub s_axis_tlast: Signal<In, Bit>,
    pub m_axis_tdata: Signal<Out, Bits<64>>,
    pub m_axis_tuser: Signal<Out, Bits<8>>,
    pub m_axis_tkeep: Signal<Out, Bits<2>>,
    pub m_axis_tvalid: Signal<Out, Bit>,
    pub m_axis_tready: Signal<In, Bit>,
    pub m_axis_tlast: Signal<Out, Bit>,
    /// The free bits of a lead in lane 1 of the beat before.
    pending_bits: DFF<Bits<32>>,
    /// The `m_axis` flops.
    words: DFF<Bits<64>>,
    keep: DFF<Bits<2>>,
    valid: DFF<Bit>,
    last: DFF<Bit>,
    /// Each lane's byte, zero-extended.
    octet0: Signal<Local, Bits<32>>,
    octet1: Signal<Local, Bits<32>>,
    /// Each lane's word, and whether it gives one.
    word0: Signal<Local, Bits<32>>,
    word1: Signal<Local, Bits<32>>,
    gives0: Signal<Local, Bit>,
    gives1: Signal<Local, Bit>,
}

impl Logic for WideStepDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, pending_bits, words, keep, valid, last);
        self.s_axis_tready.next = true;
        self.octet0.next = bit_cast::<32, 16>(self.s_axis_tdata.val() & 0xFF);
        self.octet1.next = bit_cast::<32, 16>(self.s_axis_tdata.val() >> 8);
        // A lane's byte: ASCII 0xxxxxxx, continuing 10xxxxxx, lead 110xxxxx.
        self.gives0.next = !(self.octet0.val().get_bit(7) & self.octet0.val().get_bit(6));
        self.gives1.next = !(self.octet1.val().get_bit(7) & self.octet1.val().get_bit(6));
        self.word0.next = self.octet0.val();
        if self.octet0.val().get_bit(7) {
            self.word0.next = (self.pending_bits.q.val() << 6) | (self.octet0.val() & 0x3F);
        }
        self.word1.next = self.octet1.val();
        if self.octet1.val().get_bit(7) {
            self.word1.next = ((self.octet0.val() & 0x1F) << 6) | (self.octet1.val() & 0x3F);
        }
        self.valid.d.next = false;
        if self.s_axis_tvalid.val() {
            self.pending_bits.d.next = self.octet1.val() & 0x1F;
            self.valid.d.next = self.gives0.val() | self.gives1.val() | self.s_axis_tlast.val();
            self.last.d.next = self.s_axis_tlast.val();
            // Packed: lane 0 first.
            if self.gives0.val() {
                self.words.d.next = bit_cast::<64, 32>(self.word0.val())
                    | (bit_cast::<64, 32>(self.word1.val()) << 32);
                self.keep.d.next = 0b01.into();
                if self.gives1.val() {
                    self.keep.d.next = 0b11.into();
                }
            } else {
                self.words.d.next = bit_cast::<64, 32>(self.word1.val());
                self.keep.d.next = 0b00.into();
                if self.gives1.val() {
                    self.keep.d.next = 0b01.into();
                }
            }
        }
        if self.rst.val() {
            self.valid.d.next = false;
        }
        self.m_axis_tdata.next = self.words.q.val();
        self.m_axis_tuser.next = 0.into();
        self.m_axis_tkeep.next = self.keep.q.val();
        self.m_axis_tvalid.next = self.valid.q.val();
        self.m_axis_tlast.next = self.last.q.val();
    }
}
