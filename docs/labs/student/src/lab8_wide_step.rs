//! # Lab 8: one wide step
//!
//! **Objective.** Lab 2's decoder two lanes wide, the first step towards
//! chapter 10's `Utf8WideDecoder`: two bytes in each beat
//! (`s_axis_tdata[15:0]`, lane 0 first in stream order), up to two words
//! out (`m_axis_tdata[63:0]`, `m_axis_tkeep[1:0]`), one beat per clock.
//! A character may straddle two beats (its lead in lane 1, its continuing
//! octet in lane 0 of the next beat), so a lane decides from the byte
//! before it, which may be in the beat before. The words leave packed
//! (AXI4-Stream's continuous aligned stream, chapter 10): a beat's k words
//! fill lanes 0 to k-1. The input is every code point from U+0000 to
//! U+07FF in UTF-8, with a "." after every seventh, so that characters
//! meet both alignments (4,260 bytes, as one message, every lane kept),
//! then short messages of an even length; the sink is always ready.
//!
//! **This starting file** decodes each lane in place, so a beat whose lane
//! 0 holds a lead and whose lane 1 completes it shows its one word in lane
//! 1, and `utf8hdl lab check 8` stops at the first such beat, that of
//! U+0080: `m_axis_tkeep 10 is not packed`.
//!
//! **Exercises.**
//! 1. Pack the words: when lane 0 gives none, lane 1's word moves to lane
//!    0 (and `m_axis_tkeep` is `01`, or `00` for a beat that gives none).
//! 2. With N lanes, how many words can a beat give, and where can lane
//!    *i*'s word go? Chapter 10 counts the empty lanes before each lane
//!    and moves each word by that count in log₂ N registered levels: why
//!    not one N-to-1 multiplexer per lane? And what must a lead in the
//!    last lane wait for before its message can end (the
//!    `LookaheadHold`)?

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
/// TODO (exercise 1): pack the words.
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
            // TODO (exercise 1): packed, lane 0 first. Each lane in place:
            self.words.d.next =
                bit_cast::<64, 32>(self.word0.val()) | (bit_cast::<64, 32>(self.word1.val()) << 32);
            self.keep.d.next = 0b00.into();
            if self.gives0.val() & self.gives1.val() {
                self.keep.d.next = 0b11.into();
            } else if self.gives1.val() {
                self.keep.d.next = 0b10.into();
            } else if self.gives0.val() {
                self.keep.d.next = 0b01.into();
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
