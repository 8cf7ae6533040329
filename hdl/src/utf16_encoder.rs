//! # `Utf16Encoder`: UCS-4 words in, UTF-16 code units out, one unit per clock
//!
//! Each word on `s_axis` leaves as its code units (RFC 2781 §2.1): a value
//! below 10000 as itself, one up to 10FFFF as a surrogate pair, high
//! surrogate first, one unit a beat, with no gap in `m_axis_tvalid` while
//! words are waiting. A word UTF-16 cannot carry (a surrogate, D800–DFFF,
//! or a value above 10FFFF) leaves as FFFD with `m_axis_tuser[0]` set.
//!
//! UTF-16 carries exactly RFC 3629's values, so the core has no profile.
//! Its shape is [`Utf8Encoder`](crate::Utf8Encoder)'s with two pending
//! units instead of six, and the same shared [`SkidBuffer`] and
//! [`AxisOutputRegister`] at its two ends.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clk`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `s_axis_tdata` | in | 32 | a UCS-4 word |
//! | `s_axis_tvalid`/`tready`/`tlast` | in/out/in | 1 | `tready` registered |
//! | `m_axis_tdata` | out | 16 | a code unit, registered |
//! | `m_axis_tuser` | out | 1 | registered: the unit is the FFFD sent for a word UTF-16 cannot carry |
//! | `m_axis_tvalid`/`tready`/`tlast` | out/in/out | 1 | `tlast` on the last unit of the message's last word |
//!
//! ## Latency
//! Three cycles from a word's acceptance to its first unit on `m_axis`
//! (the classifying stage, `pending`, then the output register); then one
//! unit a cycle. The classifying stage registers the word with its field
//! tests (a surrogate? above 10FFFF? a pair?), so that the choice of its
//! units reads flops, not the skid buffer's mux.
//!
//! ```text
//! cycle            0     1     2     3     4     5     6
//! s_axis_tdata     41    1F600 42    43                (each taken in its cycle)
//! s_axis_tready    1     1     1     1     0     1     43 waits in the skid buffer
//! classifying            41    1F600 42    42    43
//! units pending    0     0     1     2     1     1
//! m_axis_tdata                       0041  D83D  DE00  0042
//! ```
//!
//! ## Invariants
//! Proven for all time, on the exported Verilog, in
//! `hdl/formal/utf16_encoder_properties.v`, but the second, which is about
//! its inside:
//! * While `m_axis_tvalid & !m_axis_tready`, every `m_axis_*` output holds.
//! * `pending` holds at most 2 units, and a word is taken from the
//!   classifying stage only in a cycle where `pending` empties.
//! * Once words have been offered and `m_axis_tready` high for three
//!   cycles, `m_axis_tvalid` is high.
//! * A high surrogate on `m_axis` is always followed by a low one in the
//!   same message, and a low one always follows a high one.
//! * Each byte register's copy of the classifying stage's `valid` equals
//!   it (proven on the registers, `COPIES`).

use rust_hdl::prelude::*;

use crate::stream::{axis_core, axis_shell_logic, BytewiseRegister, PendingUnits, SkidBuffer};

axis_core! {
    #[derive(LogicBlock, Default)]
    pub struct Utf16Encoder<s_axis_tdata: 32, m_axis_tdata: 16, m_axis_tuser: 1> {
        skid_buffer: SkidBuffer<32>,
        /// The word's code units, sent one a clock, and the `m_axis` register.
        pending: PendingUnits<16, 2>,
        /// The classifying stage: the word, with its `tvalid` and `tlast`,
        /// and what it is, as `pending` is offered it.
        /// Loaded a byte at a time, as the UTF-8 encoder's is.
        word: BytewiseRegister<32>,
        /// Bits 31–26 of the word, which no unit reads (a pair's U' has 20
        /// bits); named so that Verilator's lint passes over them, and
        /// Yosys removes their flops.
        unused_word_top: Signal<Local, Bits<6>>,
        valid: DFF<Bit>,
        last: DFF<Bit>,
        /// The stage takes the skid buffer's word: it is empty, or `pending`
        /// takes its word. A flop, figured a cycle ahead from `pending`'s
        /// next `take`, so that the skid buffer's and the stage's enables
        /// are one LUT from flops.
        moves: DFF<Bit>,
        /// The word cannot be carried: a surrogate, or above 10FFFF (bits
        /// 31–21 set, or bit 20 with one of 19–16; masks, not a magnitude
        /// compare, which is a carry chain on an iCE40).
        unencodable: DFF<Bit>,
        /// It needs a surrogate pair.
        paired: DFF<Bit>,
        /// Its units: the high and the low surrogate of a pair (RFC 2781 §2.1
        /// step 4, from U' = U − 10000).
        high_surrogate: Signal<Local, Bits<16>>,
        low_surrogate: Signal<Local, Bits<16>>,
    }
}

impl Utf16Encoder {
    /// Three cycles from a word's acceptance to its first unit on `m_axis`:
    /// the classifying stage, `pending`, then the output register.
    pub const LATENCY: u64 = 3;
}

axis_shell_logic! {
    impl Logic for Utf16Encoder {
        output: pending,
        flops: [valid, last, unencodable, paired, moves],
        #[hdl_gen]
        fn update(&mut self) {
            // The classifying stage takes the skid buffer's word when it is
            // empty or `pending` takes its own: the tests of the word's
            // fields in one cycle, the choice of its units in the next.
            self.skid_buffer.advance.next = self.moves.q.val();
            clock!(self, clk, word);
            self.word.rst.next = self.rst.val();
            self.word.d.next = self.skid_buffer.byte.tdata.val();
            self.word.d_valid.next = self.skid_buffer.byte.tvalid.val();
            self.word.advance.next = self.pending.take.val();
            self.unused_word_top.next = self.word.q.val().get_bits::<6>(26);
            if self.moves.q.val() {
                self.valid.d.next = self.skid_buffer.byte.tvalid.val();
                self.last.d.next = self.skid_buffer.byte.tlast.val();
                self.unencodable.d.next = (self.skid_buffer.byte.tdata.val().get_bits::<11>(21)
                    != 0)
                    | (self.skid_buffer.byte.tdata.val().get_bit(20)
                        & (self.skid_buffer.byte.tdata.val().get_bits::<4>(16) != 0))
                    | (self.skid_buffer.byte.tdata.val().get_bits::<21>(11) == 0x1B);
                self.paired.d.next = self.skid_buffer.byte.tdata.val().get_bits::<16>(16) != 0;
            }
            if self.rst.val() {
                self.valid.d.next = false;
            }
            self.moves.d.next = !self.valid.d.val() | self.pending.take_next.val();
            // U' = U − 10000 is 20 bits, so subtracting 40 from bits 25–10 (10000
            // from the word) and keeping ten of them gives U''s high ten.
            self.high_surrogate.next =
                ((self.word.q.val().get_bits::<16>(10) - 0x40) & 0x3FF) | 0xD800;
            self.low_surrogate.next = (self.word.q.val().get_bits::<16>(0) & 0x3FF) | 0xDC00;

            // The units wait in `pending`, which takes the next word when its
            // last unit leaves.
            self.pending.error_in.next = self.unencodable.q.val();
            self.pending.last_in.next = self.last.q.val();
            self.pending.valid_in.next = self.valid.q.val();
            self.pending.units_in[1].next = self.low_surrogate.val();
            self.pending.keep_in[0].next = true;
            self.pending.keep_in[1].next = self.paired.q.val() & !self.unencodable.q.val();
            if self.unencodable.q.val() {
                self.pending.units_in[0].next = 0xFFFD.into();
            } else if self.paired.q.val() {
                self.pending.units_in[0].next = self.high_surrogate.val();
            } else {
                self.pending.units_in[0].next = self.word.q.val().get_bits::<16>(0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_encoder_is_synthesizable() {
        crate::assert_synthesizable(Utf16Encoder::default());
    }
}
