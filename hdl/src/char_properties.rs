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
//! [`AxisOutputRegister`].
//!
//! ## Latency
//! One cycle: the output register. It never stalls the stream itself: with
//! `m_axis_tready` high, `s_axis_tready` is high.
//!
//! ```text
//! cycle            0     1     2     3
//! s_axis_tdata     41    7F    1F600
//! m_axis_tdata           41    7F    1F600
//! m_axis_tuser           0     1     8
//! ```
//!
//! ## Invariants
//! Proven for all time in `hdl/formal/char_properties_properties.v`:
//! * While `m_axis_tvalid & !m_axis_tready`, every `m_axis_*` output holds.
//! * Once `m_axis_tready` has been high for a cycle, `s_axis_tready` is high.
//! * `m_axis_tuser` is the flags of `m_axis_tdata`, by the table above.

use rust_hdl::prelude::*;

use crate::stream::{axis_core, axis_shell_logic, AxisOutputRegister, SkidBuffer};

axis_core! {
    #[derive(LogicBlock, Default)]
    pub struct CharProperties<s_axis_tdata: 32, m_axis_tdata: 32, m_axis_tuser: 4> {
        skid_buffer: SkidBuffer<32>,
        output_register: AxisOutputRegister<32, 4>,
        /// The word is in the BMP, and in planes 0–16.
        in_bmp: Signal<Local, Bit>,
        in_planes: Signal<Local, Bit>,
        /// Its low 16 bits.
        low: Signal<Local, Bits<16>>,
        /// Its flags, bit by bit.
        control: Signal<Local, Bit>,
        private_use: Signal<Local, Bit>,
        noncharacter: Signal<Local, Bit>,
        /// Bit 3 of the flags, in place.
        non_bmp_flag: Signal<Local, Bits<4>>,
    }
}

impl CharProperties {
    /// One cycle from a word's acceptance to its flags on `m_axis`.
    pub const LATENCY: u64 = 1;
}

axis_shell_logic! {
    impl Logic for CharProperties {
        output: output_register,
        #[hdl_gen]
        fn update(&mut self) {
            self.in_bmp.next = self.skid_buffer.byte.tdata.val().get_bits::<16>(16) == 0;
            // Planes 0–16: bits 31–21 clear, and bits 19–16 clear if bit 20 is set.
            self.in_planes.next = (self.skid_buffer.byte.tdata.val().get_bits::<11>(21) == 0)
                & !(self.skid_buffer.byte.tdata.val().get_bit(20)
                    & (self.skid_buffer.byte.tdata.val().get_bits::<4>(16) != 0));
            self.low.next = self.skid_buffer.byte.tdata.val().get_bits::<16>(0);
            // 00–1F, 7F, 80–9F.
            self.control.next = self.in_bmp.val()
                & (self.low.val().get_bits::<8>(8) == 0)
                & ((self.low.val().get_bits::<3>(5) == 0)
                    | (self.low.val().get_bits::<8>(0) == 0x7F)
                    | (self.low.val().get_bits::<3>(5) == 4));
            // E000–F8FF in the BMP (E, F0–F7, F8 above the low byte); planes 15
            // and 16 but their last two.
            self.private_use.next = (self.in_bmp.val()
                & ((self.low.val().get_bits::<4>(12) == 0xE)
                    | (self.low.val().get_bits::<5>(11) == 0x1E)
                    | (self.low.val().get_bits::<8>(8) == 0xF8)))
                | (self.in_planes.val()
                    & ((self.skid_buffer.byte.tdata.val().get_bits::<5>(16) == 0x0F)
                        | (self.skid_buffer.byte.tdata.val().get_bits::<5>(16) == 0x10))
                    & (self.low.val().get_bits::<15>(1) != 0x7FFF));
            self.noncharacter.next = (self.in_bmp.val()
                & ((self.low.val().get_bits::<12>(4) == 0xFDD)
                    | (self.low.val().get_bits::<12>(4) == 0xFDE)))
                | (self.in_planes.val() & (self.low.val().get_bits::<15>(1) == 0x7FFF));

            self.non_bmp_flag.next = 0.into();
            if !self.in_bmp.val() {
                self.non_bmp_flag.next = 8.into();
            }

            // The word passes through, with its flags; the first three exclude
            // each other, and a control is in the BMP.
            self.skid_buffer.advance.next = self.output_register.s_axis_tready.val();
            self.output_register.s_axis_tvalid.next = self.skid_buffer.byte.tvalid.val();
            self.output_register.s_axis_tdata.next = self.skid_buffer.byte.tdata.val();
            self.output_register.s_axis_tlast.next = self.skid_buffer.byte.tlast.val();
            if self.control.val() {
                self.output_register.s_axis_tuser.next = 1.into();
            } else if self.private_use.val() {
                self.output_register.s_axis_tuser.next = self.non_bmp_flag.val() | 2;
            } else if self.noncharacter.val() {
                self.output_register.s_axis_tuser.next = self.non_bmp_flag.val() | 4;
            } else {
                self.output_register.s_axis_tuser.next = self.non_bmp_flag.val();
            }
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
