//! # `CharProperties`: UCS-4 words through, each with its properties in `tuser`
//!
//! Forwards every word unchanged, one a clock, with four flags that a
//! consumer often needs at line rate, each as the Unicode Standard
//! defines it:
//!
//! | `m_axis_tuser` bit | property | values |
//! |---|---|---|
//! | 0 | control (general category Cc) | 0000–001F, 007F, 0080–009F |
//! | 1 | private use (Co) | E000–F8FF, F0000–FFFFD, 100000–10FFFD |
//! | 2 | noncharacter | FDD0–FDEF, and xFFFE, xFFFF of planes 0–16 |
//! | 3 | outside the BMP | above FFFF |
//!
//! A value above 10FFFF is no code point: it has bit 3 only.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clk`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `s_axis_tdata` | in | 32 | a UCS-4 word |
//! | `s_axis_tvalid`/`tready`/`tlast` | in/out/in | 1 | `tready` registered |
//! | `m_axis_tdata` | out | 32 | the same word, registered |
//! | `m_axis_tuser` | out | 4 | registered: its flags (above) |
//! | `m_axis_tvalid`/`tready`/`tlast` | out/in/out | 1 | `tlast` with the message's last word |
//!
//! The flags are computed between the shared [`SkidBuffer`] and
//! [`AxisOutputRegister`], in two stages: a register of the word's field
//! tests (is bits 31–16 clear, is bits 15–8 F8, ...), each a few LUTs from
//! the skid buffer, then the flags from those tests into the output
//! register. On an iCE40 a word's tests and its flags in one cycle made
//! a path of five logic levels behind the skid buffer's mux; split, each
//! stage is two or three.
//!
//! ## Latency
//! Two cycles: the field tests' register, then the output register. The
//! two stages move together, so the pipeline stalls as one; it never
//! stalls the stream itself: with `m_axis_tready` high, `s_axis_tready` is
//! high.
//!
//! ```text
//! cycle            0     1     2     3     4
//! s_axis_tdata     41    7F    1F600
//! m_axis_tdata                 41    7F    1F600
//! m_axis_tuser                 0     1     8
//! ```
//!
//! ## Invariants
//! Proven for all time in `hdl/formal/char_properties_properties.v`:
//! * While `m_axis_tvalid & !m_axis_tready`, every `m_axis_*` output holds.
//! * Once `m_axis_tready` has been high for a cycle, `s_axis_tready` is high.
//! * `m_axis_tuser` is the flags of `m_axis_tdata`, by the table above.

use rust_hdl::prelude::*;

use crate::stream::{axis_core, axis_shell_logic, with_axis_ports, AxisOutputRegister, SkidBuffer};

axis_core! {
    #[derive(LogicBlock)]
    pub struct CharProperties<s_axis_tdata: 32, m_axis_tdata: 32, m_axis_tuser: 4> {
        skid_buffer: SkidBuffer<32>,
        output_register: AxisOutputRegister<32, 4>,
        /// The output register's next `s_axis_tready`, which this core does
        /// not read (Verilator's lint passes over `unused_*`; yosys removes
        /// it).
        unused_ready_next: Signal<Local, Bit>,
        /// The word between the two stages, with its `tvalid` and `tlast`.
        word: DFF<Bits<32>>,
        word_valid: DFF<Bit>,
        word_last: DFF<Bit>,
        /// Stage 1's tests of the word's bit fields, each a few LUTs deep,
        /// which stage 2 combines into the flags. The word is in the BMP,
        /// and in planes 0–16.
        in_bmp: DFF<Bit>,
        in_planes: DFF<Bit>,
        /// Bits 15–8 are clear; bits 7–0 are 00–1F, 7F or 80–9F.
        high_byte_clear: DFF<Bit>,
        control_low_byte: DFF<Bit>,
        /// Bits 15–0 are E000–F8FF; bits 20–16 are plane 15 or 16.
        private_use_bmp: DFF<Bit>,
        private_use_plane: DFF<Bit>,
        /// Bits 15–0 are xFFFE or xFFFF; FDD0–FDEF.
        last_two: DFF<Bit>,
        noncharacter_bmp: DFF<Bit>,
        /// Its flags, bit by bit.
        control: Signal<Local, Bit>,
        private_use: Signal<Local, Bit>,
        noncharacter: Signal<Local, Bit>,
        /// Each flag in its bit of `m_axis_tuser`.
        control_flag: Signal<Local, Bits<4>>,
        private_use_flag: Signal<Local, Bits<4>>,
        noncharacter_flag: Signal<Local, Bits<4>>,
        non_bmp_flag: Signal<Local, Bits<4>>,
    }
}

impl Default for CharProperties {
    fn default() -> Self {
        with_axis_ports!(CharProperties {
            skid_buffer: Default::default(),
            // Its flags are two levels deep behind their register: `spare`'s
            // mux in front of `m_axis` would cost more than a ready passed
            // from `m_axis_tready` (HX8K, 31 seeds).
            output_register: AxisOutputRegister::passing_ready(),
            unused_ready_next: Default::default(),
            word: Default::default(),
            word_valid: Default::default(),
            word_last: Default::default(),
            in_bmp: Default::default(),
            in_planes: Default::default(),
            high_byte_clear: Default::default(),
            control_low_byte: Default::default(),
            private_use_bmp: Default::default(),
            private_use_plane: Default::default(),
            last_two: Default::default(),
            noncharacter_bmp: Default::default(),
            control: Default::default(),
            private_use: Default::default(),
            noncharacter: Default::default(),
            control_flag: Default::default(),
            private_use_flag: Default::default(),
            noncharacter_flag: Default::default(),
            non_bmp_flag: Default::default(),
        })
    }
}

impl CharProperties {
    /// Two cycles from a word's acceptance to its flags on `m_axis`: the
    /// field tests' register and the output register.
    pub const LATENCY: u64 = 2;
}

axis_shell_logic! {
    impl Logic for CharProperties {
        output: output_register,
        flops: [
            word,
            word_valid,
            word_last,
            in_bmp,
            in_planes,
            high_byte_clear,
            control_low_byte,
            private_use_bmp,
            private_use_plane,
            last_two,
            noncharacter_bmp,
        ],
        #[hdl_gen]
        fn update(&mut self) {
            self.unused_ready_next.next = self.output_register.s_axis_tready_next.val();
            // Both stages move together, when the output register takes a
            // word: one stall for the whole pipeline, which the skid
            // buffer absorbs.
            self.skid_buffer.advance.next = self.output_register.s_axis_tready.val();
            if self.output_register.s_axis_tready.val() {
                self.word.d.next = self.skid_buffer.byte.tdata.val();
                self.word_valid.d.next = self.skid_buffer.byte.tvalid.val();
                self.word_last.d.next = self.skid_buffer.byte.tlast.val();
                self.in_bmp.d.next = self.skid_buffer.byte.tdata.val().get_bits::<16>(16) == 0;
                // Planes 0–16: bits 31–21 clear, and bits 19–16 clear if
                // bit 20 is set.
                self.in_planes.d.next = (self.skid_buffer.byte.tdata.val().get_bits::<11>(21)
                    == 0)
                    & !(self.skid_buffer.byte.tdata.val().get_bit(20)
                        & (self.skid_buffer.byte.tdata.val().get_bits::<4>(16) != 0));
                self.high_byte_clear.d.next =
                    self.skid_buffer.byte.tdata.val().get_bits::<8>(8) == 0;
                // 00–1F, 7F, 80–9F.
                self.control_low_byte.d.next =
                    (self.skid_buffer.byte.tdata.val().get_bits::<3>(5) == 0)
                        | (self.skid_buffer.byte.tdata.val().get_bits::<8>(0) == 0x7F)
                        | (self.skid_buffer.byte.tdata.val().get_bits::<3>(5) == 4);
                // E000–F8FF: E, F0–F7, F8 above the low byte.
                self.private_use_bmp.d.next =
                    (self.skid_buffer.byte.tdata.val().get_bits::<4>(12) == 0xE)
                        | (self.skid_buffer.byte.tdata.val().get_bits::<5>(11) == 0x1E)
                        | (self.skid_buffer.byte.tdata.val().get_bits::<8>(8) == 0xF8);
                self.private_use_plane.d.next =
                    (self.skid_buffer.byte.tdata.val().get_bits::<5>(16) == 0x0F)
                        | (self.skid_buffer.byte.tdata.val().get_bits::<5>(16) == 0x10);
                self.last_two.d.next =
                    self.skid_buffer.byte.tdata.val().get_bits::<15>(1) == 0x7FFF;
                self.noncharacter_bmp.d.next =
                    (self.skid_buffer.byte.tdata.val().get_bits::<12>(4) == 0xFDD)
                        | (self.skid_buffer.byte.tdata.val().get_bits::<12>(4) == 0xFDE);
            }
            if self.rst.val() {
                self.word_valid.d.next = false;
            }

            self.control.next =
                self.in_bmp.q.val() & self.high_byte_clear.q.val() & self.control_low_byte.q.val();
            // Planes 15 and 16 but their last two.
            self.private_use.next = (self.in_bmp.q.val() & self.private_use_bmp.q.val())
                | (self.in_planes.q.val()
                    & self.private_use_plane.q.val()
                    & !self.last_two.q.val());
            self.noncharacter.next = (self.in_bmp.q.val() & self.noncharacter_bmp.q.val())
                | (self.in_planes.q.val() & self.last_two.q.val());
            // The word passes through, with its flags. The first three exclude
            // each other (a control is in the BMP, and neither private use
            // nor a noncharacter), so each is its bit, with no priority
            // between them in front of the output register.
            self.output_register.s_axis_tvalid.next = self.word_valid.q.val();
            self.output_register.s_axis_tdata.next = self.word.q.val();
            self.output_register.s_axis_tlast.next = self.word_last.q.val();
            self.control_flag.next = 0.into();
            if self.control.val() {
                self.control_flag.next = 1.into();
            }
            self.private_use_flag.next = 0.into();
            if self.private_use.val() {
                self.private_use_flag.next = 2.into();
            }
            self.noncharacter_flag.next = 0.into();
            if self.noncharacter.val() {
                self.noncharacter_flag.next = 4.into();
            }
            self.non_bmp_flag.next = 0.into();
            if !self.in_bmp.q.val() {
                self.non_bmp_flag.next = 8.into();
            }
            self.output_register.s_axis_tuser.next = self.control_flag.val()
                | self.private_use_flag.val()
                | self.noncharacter_flag.val()
                | self.non_bmp_flag.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_properties_is_synthesizable() {
        crate::assert_synthesizable(CharProperties::default());
    }
}
