//! # `Utf8Encoder`: UCS-4 words in, UTF-8 bytes out, one byte per clock
//!
//! Each word on `s_axis` leaves as the octets of ISO/IEC 10646-1 Annex R
//! Table 4 (RFC 3629 §3 for `rfc3629`), one a beat, with no gap in
//! `m_axis_tvalid` while words are waiting: the next word is encoded into
//! `pending` in the cycle its predecessor's last octet leaves. A word the
//! profile cannot encode (a surrogate, D800–DFFF; above 10FFFF in
//! rfc3629; bit 31 set in iso10646) leaves as U+FFFD's octets EF BF BD,
//! each with `m_axis_tuser[0]` set.
//!
//! ## Parameter
//! `profile`: which values are encodable ([`Profile::max_value`]).
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clk`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `s_axis_tdata` | in | 32 | a UCS-4 word |
//! | `s_axis_tvalid`/`tready`/`tlast` | in/out/in | 1 | `tready` registered |
//! | `m_axis_tdata` | out | 8 | an octet, registered |
//! | `m_axis_tuser` | out | 1 | registered: the octet belongs to the U+FFFD of a word that cannot be encoded |
//! | `m_axis_tvalid`/`tready`/`tlast` | out/in/out | 1 | `tlast` on the last octet of the message's last word |
//!
//! Its `s_axis_tready` is the shared [`SkidBuffer`]'s, its `m_axis` the
//! shared [`AxisOutputRegister`]'s.
//!
//! ## Latency
//! Four cycles from a word's acceptance to its first octet on `m_axis`
//! (the classifying stage, the octet stage, `pending`, then the output
//! register); then one octet a cycle. The classifying stage registers the
//! word with its field tests (can it be encoded? which lengths' top bands
//! have a bit set?), so that the choice of its octets reads flops, not the
//! skid buffer's mux; the octet stage registers the chosen octets, so that
//! `pending`, whose enables read `take`, loads flops, not the choice.
//!
//! ```text
//! cycle            0     1     2     3     4     5     6     7     8     9     10    11
//! s_axis_tdata     41    20AC  42    43    44    45    45    45                       (each taken in its cycle)
//! s_axis_tready    1     1     1     1     1     0     0     1     1     1     1     1     44 waits in the skid buffer
//! classifying            41    20AC  42    43    43    43    44    45
//! octet stage                  41    20AC  42    42    42    43    44    45
//! units pending    0     0     0     1     3     2     1     1     1     1     1     0
//! m_axis_tdata                             41    E2    82    AC    42    43    44    45
//! ```
//!
//! ## Invariants
//! Proven for all time, on the exported Verilog, in
//! `hdl/formal/utf8_encoder_properties.v` (`utf8hdl formal --core encoder`),
//! but the second, which is about its inside:
//! * While `m_axis_tvalid & !m_axis_tready`, every `m_axis_*` output holds.
//! * `pending` holds at most 6 units, and a word is taken from the octet
//!   stage only in a cycle where `pending` empties.
//! * Once words have been offered and `m_axis_tready` high for four
//!   cycles, `m_axis_tvalid` is high: the output never waits for input
//!   that is there.
//! * `m_axis_tuser[0]` is set only on the octets EF BF BD (proven), and
//!   exactly on those of a word that cannot be encoded (tested).
//! * Each byte register's copy of a stage's valid flag equals it, and
//!   each enable figured a cycle ahead equals its definition: `moves` is
//!   `!valid | octets_move`, `octets_move` is `!octets_valid | take`
//!   (proven on the registers, `COPIES`).

use rust_hdl::prelude::*;

use crate::stream::{
    axis_core, axis_shell_logic, with_axis_ports, BytewiseRegister, PendingUnits, SkidBuffer,
};
use crate::utf8_decoder_wide::wiring::LaneBus;
use crate::Profile;

axis_core! {
    #[derive(LogicBlock)]
    pub struct Utf8Encoder<s_axis_tdata: 32, m_axis_tdata: 8, m_axis_tuser: 1> {
        skid_buffer: SkidBuffer<32>,
        /// The word's octets, sent one a clock, and the `m_axis` register.
        pending: PendingUnits<8, 6>,
        /// Above the profile's largest value, as masks (a magnitude compare
        /// becomes a carry chain, 36 levels on the iCE40): a bit set above its
        /// bit length, or its top bit set with a bit of `above_low` (the
        /// largest value's low bits are all ones below some bit).
        beyond: Constant<Bits<32>>,
        top_bit: Constant<Bits<32>>,
        above_low: Constant<Bits<32>>,
        /// The profile has words of five and six octets (iso10646). In
        /// rfc3629 those lengths are never set: such a word cannot be
        /// encoded, and synthesis removes the two lengths, their octets and
        /// `pending`'s last two units.
        long_words: Constant<Bit>,
        /// The classifying stage: the word, with its `tvalid` and `tlast`,
        /// and what it is, as `pending` is offered it.
        valid: DFF<Bit>,
        last: DFF<Bit>,
        /// The stage takes the skid buffer's word: it is empty, or the octet
        /// stage takes its word. A flop, figured a cycle ahead, so that the
        /// skid buffer's and the stage's enables are one LUT from flops.
        moves: DFF<Bit>,
        /// The word, loaded a byte at a time, each byte under an enable of
        /// its own read from its own copy of `valid`: one enable for the
        /// whole stage reaches more than 15 flops, so nextpnr-ice40
        /// promotes it to a global buffer, and the route to the buffer at
        /// the die's edge was half the critical path.
        word: BytewiseRegister<32>,
        /// The word cannot be encoded.
        unencodable: DFF<Bit>,
        /// Some bit of the top band of each length from two to six octets
        /// is set (bits 10–7, 15–11, 20–16, 25–21, 31–26; Table 4).
        band_set: [DFF<Bit>; 5],
        /// Its length in octets, one to six, one-hot (none for a word of a
        /// length the profile lacks): the highest band set.
        length_is: [Signal<Local, Bit>; 6],
        /// Each length's flag, eight times, and none for a word that cannot
        /// be encoded; the error's flag eight times.
        length_mask: [Signal<Local, Bits<8>>; 6],
        error_mask: Signal<Local, Bits<8>>,
        /// Continuing octet k: 80 + bits 6k+5..6k of the word (Table 4).
        continuing_0: Signal<Local, Bits<8>>,
        continuing_1: Signal<Local, Bits<8>>,
        continuing_2: Signal<Local, Bits<8>>,
        continuing_3: Signal<Local, Bits<8>>,
        continuing_4: Signal<Local, Bits<8>>,
        /// The octet stage: the word's octets, chosen from the classifying
        /// stage's flags, with their `keep` flags, as `pending` is offered
        /// them. Chosen in front of `pending`, the octets were four LUT
        /// levels behind `take` on the HX8K; here `pending` reads flops.
        octets: BytewiseRegister<48>,
        octets_valid: DFF<Bit>,
        octets_keep: [DFF<Bit>; 6],
        octets_error: DFF<Bit>,
        octets_last: DFF<Bit>,
        /// The octet stage takes the classifying stage's word: it is
        /// empty, or `pending` takes its octets. A flop, figured a cycle
        /// ahead from `pending`'s next `take`.
        octets_move: DFF<Bit>,
        /// The chosen octets, the first in 0, into the octet stage.
        chosen: [Signal<Local, Bits<8>>; 6],
        chosen_bus: LaneBus<8, 48>,
    }
}

impl Utf8Encoder {
    /// Four cycles from a word's acceptance to its first octet on
    /// `m_axis`: the classifying stage, the octet stage, `pending`, then
    /// the output register.
    pub const LATENCY: u64 = 4;

    pub fn new(profile: Profile) -> Self {
        let max = u64::from(profile.max_value());
        let length = 64 - max.leading_zeros() as usize;
        let mask = |bits: usize| (1u64 << bits) - 1;
        let low = max & mask(length - 1);
        assert_eq!(
            low & (low + 1),
            0,
            "the masks need a largest value 1xx..x11..1"
        );
        with_axis_ports!(Utf8Encoder {
            skid_buffer: Default::default(),
            pending: Default::default(),
            beyond: Constant::new((!mask(length) & u64::from(u32::MAX)).into()),
            top_bit: Constant::new((1u64 << (length - 1)).into()),
            above_low: Constant::new((mask(length - 1) & !max).into()),
            long_words: Constant::new(max > 0x1F_FFFF),
            valid: Default::default(),
            last: Default::default(),
            moves: Default::default(),
            word: Default::default(),
            unencodable: Default::default(),
            band_set: Default::default(),
            length_is: Default::default(),
            length_mask: Default::default(),
            error_mask: Default::default(),
            continuing_0: Default::default(),
            continuing_1: Default::default(),
            continuing_2: Default::default(),
            continuing_3: Default::default(),
            continuing_4: Default::default(),
            octets: Default::default(),
            octets_valid: Default::default(),
            octets_keep: Default::default(),
            octets_error: Default::default(),
            octets_last: Default::default(),
            octets_move: Default::default(),
            chosen: Default::default(),
            chosen_bus: Default::default(),
        })
    }
}

axis_shell_logic! {
    impl Logic for Utf8Encoder {
        output: pending,
        flops: [valid, last, unencodable, octets_valid, octets_error, octets_last, octets_move, moves],
        #[hdl_gen]
        fn update(&mut self) {
            for b in 0..5 {
                self.band_set[b].clock.next = self.clk.val();
                self.band_set[b].d.next = self.band_set[b].q.val();
            }
            for l in 0..6 {
                self.octets_keep[l].clock.next = self.clk.val();
                self.octets_keep[l].d.next = self.octets_keep[l].q.val();
            }
            // The classifying stage takes the skid buffer's word when it is
            // empty or the octet stage takes its own (`moves`): the tests
            // of the word's fields in one cycle, the choice of its octets
            // in the next.
            self.skid_buffer.advance.next = self.moves.q.val();
            clock!(self, clk, word);
            self.word.rst.next = self.rst.val();
            self.word.d.next = self.skid_buffer.byte.tdata.val();
            self.word.d_valid.next = self.skid_buffer.byte.tvalid.val();
            self.word.advance.next = self.octets_move.q.val();
            if self.moves.q.val() {
                self.valid.d.next = self.skid_buffer.byte.tvalid.val();
                self.last.d.next = self.skid_buffer.byte.tlast.val();
                self.unencodable.d.next = ((self.skid_buffer.byte.tdata.val() & self.beyond.val())
                    != 0)
                    | (((self.skid_buffer.byte.tdata.val() & self.top_bit.val()) != 0)
                        & ((self.skid_buffer.byte.tdata.val() & self.above_low.val()) != 0))
                    | (self.skid_buffer.byte.tdata.val().get_bits::<21>(11) == 0x1B);
                self.band_set[0].d.next = self.skid_buffer.byte.tdata.val().get_bits::<4>(7) != 0;
                self.band_set[1].d.next = self.skid_buffer.byte.tdata.val().get_bits::<5>(11) != 0;
                self.band_set[2].d.next = self.skid_buffer.byte.tdata.val().get_bits::<5>(16) != 0;
                self.band_set[3].d.next = self.skid_buffer.byte.tdata.val().get_bits::<5>(21) != 0;
                self.band_set[4].d.next = self.skid_buffer.byte.tdata.val().get_bits::<6>(26) != 0;
            }
            // One to six octets (Table 4): the bits above the length's are
            // zero, and some bit of its top band is set.
            self.length_is[0].next = !(self.band_set[0].q.val()
                | self.band_set[1].q.val()
                | self.band_set[2].q.val()
                | self.band_set[3].q.val()
                | self.band_set[4].q.val());
            self.length_is[1].next = self.band_set[0].q.val()
                & !(self.band_set[1].q.val()
                    | self.band_set[2].q.val()
                    | self.band_set[3].q.val()
                    | self.band_set[4].q.val());
            self.length_is[2].next = self.band_set[1].q.val()
                & !(self.band_set[2].q.val() | self.band_set[3].q.val() | self.band_set[4].q.val());
            self.length_is[3].next =
                self.band_set[2].q.val() & !(self.band_set[3].q.val() | self.band_set[4].q.val());
            self.length_is[4].next =
                self.band_set[3].q.val() & !self.band_set[4].q.val() & self.long_words.val();
            self.length_is[5].next = self.band_set[4].q.val() & self.long_words.val();

            if self.rst.val() {
                self.valid.d.next = false;
            }
            // Annex R Table 4: the first octet is the length's marker and the
            // word's high bits; each continuing octet is 80 + 6 bits.
            self.continuing_0.next = (self.word.q.val().get_bits::<8>(0) & 0x3F) | 0x80;
            self.continuing_1.next = (self.word.q.val().get_bits::<8>(6) & 0x3F) | 0x80;
            self.continuing_2.next =
                (self.word.q.val().get_bits::<8>(12) & 0x3F) | 0x80;
            self.continuing_3.next =
                (self.word.q.val().get_bits::<8>(18) & 0x3F) | 0x80;
            self.continuing_4.next =
                (self.word.q.val().get_bits::<8>(24) & 0x3F) | 0x80;
            // Each octet is an OR of one term a length, each term ANDed with
            // that length's one-hot flag (a priority chain of the lengths
            // was five LUT levels in front of `pending`'s registers).
            for l in 0..6 {
                self.length_mask[l].next = 0.into();
                if self.length_is[l].val() & !self.unencodable.q.val() {
                    self.length_mask[l].next = 0xFF.into();
                }
            }
            self.error_mask.next = 0.into();
            if self.unencodable.q.val() {
                self.error_mask.next = 0xFF.into();
            }
            self.chosen[0].next = (self.error_mask.val() & 0xEF)
                | (self.length_mask[0].val() & self.word.q.val().get_bits::<8>(0))
                | (self.length_mask[1].val()
                    & ((self.word.q.val().get_bits::<8>(6) & 0x1F) | 0xC0))
                | (self.length_mask[2].val()
                    & ((self.word.q.val().get_bits::<8>(12) & 0x0F) | 0xE0))
                | (self.length_mask[3].val()
                    & ((self.word.q.val().get_bits::<8>(18) & 0x07) | 0xF0))
                | (self.length_mask[4].val()
                    & ((self.word.q.val().get_bits::<8>(24) & 0x03) | 0xF8))
                // Bit 31 is clear here: a word with it set cannot be encoded.
                | (self.length_mask[5].val()
                    & ((self.word.q.val().get_bits::<8>(24) >> 6) | 0xFC));
            self.chosen[1].next = (self.error_mask.val() & 0xBF)
                | (self.length_mask[1].val() & self.continuing_0.val())
                | (self.length_mask[2].val() & self.continuing_1.val())
                | (self.length_mask[3].val() & self.continuing_2.val())
                | (self.length_mask[4].val() & self.continuing_3.val())
                | (self.length_mask[5].val() & self.continuing_4.val());
            self.chosen[2].next = (self.error_mask.val() & 0xBD)
                | (self.length_mask[2].val() & self.continuing_0.val())
                | (self.length_mask[3].val() & self.continuing_1.val())
                | (self.length_mask[4].val() & self.continuing_2.val())
                | (self.length_mask[5].val() & self.continuing_3.val());
            self.chosen[3].next = (self.length_mask[3].val() & self.continuing_0.val())
                | (self.length_mask[4].val() & self.continuing_1.val())
                | (self.length_mask[5].val() & self.continuing_2.val());
            self.chosen[4].next = (self.length_mask[4].val() & self.continuing_0.val())
                | (self.length_mask[5].val() & self.continuing_1.val());
            self.chosen[5].next = self.length_mask[5].val() & self.continuing_0.val();
            // The octet stage takes the classifying stage's word when it is
            // empty or `pending` takes its octets (`octets_move`); the
            // octets load byte by byte, the flags under `octets_move`.
            for l in 0..6 {
                self.chosen_bus.lane[l].next = self.chosen[l].val();
            }
            clock!(self, clk, octets);
            self.octets.rst.next = self.rst.val();
            self.octets.d.next = self.chosen_bus.bus.val();
            self.octets.d_valid.next = self.valid.q.val();
            self.octets.advance.next = self.pending.take.val();
            if self.octets_move.q.val() {
                // Octet k is one of the word's when its length is more than
                // k octets; an unencodable word becomes U+FFFD's three. One
                // length is set for every word that can be encoded (the
                // tests partition the 32-bit values, less the lengths the
                // profile lacks), so "more than one octet" is "not one".
                self.octets_keep[0].d.next = true;
                self.octets_keep[1].d.next = self.unencodable.q.val() | !self.length_is[0].val();
                self.octets_keep[2].d.next = self.unencodable.q.val()
                    | !(self.length_is[0].val() | self.length_is[1].val());
                self.octets_keep[3].d.next = !self.unencodable.q.val()
                    & (self.length_is[3].val() | self.length_is[4].val() | self.length_is[5].val());
                self.octets_keep[4].d.next = !self.unencodable.q.val()
                    & (self.length_is[4].val() | self.length_is[5].val());
                self.octets_keep[5].d.next = !self.unencodable.q.val() & self.length_is[5].val();
                self.octets_valid.d.next = self.valid.q.val();
                self.octets_error.d.next = self.unencodable.q.val();
                self.octets_last.d.next = self.last.q.val();
            }
            if self.rst.val() {
                self.octets_valid.d.next = false;
            }
            // Each stage's enable, a cycle ahead, from the next values of its
            // flag and of the enable behind it.
            self.octets_move.d.next = !self.octets_valid.d.val() | self.pending.take_next.val();
            self.moves.d.next = !self.valid.d.val() | self.octets_move.d.val();
            // The octets wait in `pending`, which takes the next word when
            // its last octet leaves.
            for l in 0..6 {
                self.pending.units_in[l].next = self.octets.q.val().get_bits::<8>(8 * l);
                self.pending.keep_in[l].next = self.octets_keep[l].q.val();
            }
            self.pending.error_in.next = self.octets_error.q.val();
            self.pending.last_in.next = self.octets_last.q.val();
            self.pending.valid_in.next = self.octets_valid.q.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_encoder_is_synthesizable() {
        crate::assert_synthesizable(Utf8Encoder::new(Profile::Rfc3629));
    }
}
