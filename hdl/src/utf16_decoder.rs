//! # `Utf16Decoder`: UTF-16 code units in, UCS-4 words out, one unit per clock
//!
//! Each code unit on `s_axis` is read as RFC 2781 §2.2 says: a unit
//! outside D800–DFFF is its own character; a high surrogate (D800–DBFF)
//! followed by a low one (DC00–DFFF) is one character of 10000–10FFFF;
//! any other surrogate is an error and leaves as one U+FFFD, with
//! `m_axis_tuser` = {`Surrogate`, 1}, the decoders' error encoding
//! ([`ErrorKind::tuser`](crate::ErrorKind::tuser)). A unit after a lone
//! high surrogate is read again on its own, so every unit but the high
//! half of a pair makes one word: the output never needs more than one
//! word a clock, and the core takes a unit on every clock.
//!
//! UTF-16 carries exactly RFC 3629's values, so the core has no profile.
//! Its two ends are the shared [`SkidBuffer`] and [`AxisOutputRegister`].
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clk`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `s_axis_tdata` | in | 16 | a code unit |
//! | `s_axis_tvalid`/`tready`/`tlast` | in/out/in | 1 | `tready` registered |
//! | `m_axis_tdata` | out | 32 | a UCS-4 word, registered |
//! | `m_axis_tuser` | out | 4 | registered: bit 0 = error, bits 3:1 = 5 (`Surrogate`) |
//! | `m_axis_tvalid`/`tready`/`tlast` | out/in/out | 1 | `tlast` on the message's last word |
//!
//! ## Latency
//! Three cycles from a unit's acceptance to its word on `m_axis` (`next`,
//! the classifying stage; `held`; then the output register). A high
//! surrogate waits in `held` for the unit after it, unless it ends its
//! message; the pair leaves three cycles after its low half is accepted.
//! `next` registers each unit with what it is (high or low surrogate), so
//! that the decision on `held` reads flops, not the skid buffer's mux.
//!
//! ```text
//! cycle            0     1     2     3     4     5     6     7
//! s_axis_tdata     0041  D83D  DE00  DC00  0042
//! next                   0041  D83D  DE00  DC00  0042
//! held                         0041  D83D  DE00  DC00  0042
//! m_axis_tdata                       41    -     1F600 FFFD  42
//! ```
//!
//! ## Invariants
//! Proven for all time, on the exported Verilog, in
//! `hdl/formal/utf16_decoder_properties.v`:
//! * While `m_axis_tvalid & !m_axis_tready`, every `m_axis_*` output holds.
//! * Once `m_axis_tready` has been high for three cycles, `s_axis_tready`
//!   is high: one unit a clock.
//! * A word is never a surrogate; an error word is FFFD.
//!
//! And tested against Rust's `decode_utf16` under every stall pattern
//! (`testbench/tests/utf16.rs`): `paired` is set only while `held` is a
//! low surrogate, which the output's choice relies on.

use rust_hdl::prelude::*;

use crate::stream::{axis_core, axis_shell_logic, with_axis_ports, AxisOutputRegister, SkidBuffer};
use crate::ErrorKind;

axis_core! {
    #[derive(LogicBlock)]
    pub struct Utf16Decoder<s_axis_tdata: 16, m_axis_tdata: 32, m_axis_tuser: 4> {
        skid_buffer: SkidBuffer<16>,
        output_register: AxisOutputRegister<32, 4>,
        /// The output register's next `s_axis_tready`, which this core does
        /// not read (Verilator's lint passes over `unused_*`; yosys removes
        /// it).
        unused_ready_next: Signal<Local, Bit>,
        /// `m_axis_tuser` of an unpaired surrogate.
        surrogate_tuser: Constant<Bits<4>>,
        /// What `held` is: a high surrogate that does not end its message
        /// (it waits for the unit after it), a surrogate of either half;
        /// registered as the unit comes in, so that `held_valid` and the
        /// output's choice read flops, not `held`'s compares.
        held_opens: DFF<Bit>,
        held_is_surrogate: DFF<Bit>,
        /// The classifying stage: the unit after `held`, with its `tvalid`
        /// and `tlast`, and what it is: the lookahead a held high surrogate
        /// needs, read from flops.
        next: DFF<Bits<16>>,
        next_valid: DFF<Bit>,
        next_last: DFF<Bit>,
        next_is_high: DFF<Bit>,
        next_is_low: DFF<Bit>,
        /// `next` comes into `held` this cycle; the skid buffer's unit comes
        /// into `next`.
        held_takes: Signal<Local, Bit>,
        next_takes: Signal<Local, Bit>,
        /// A held high surrogate cannot be decided yet: no unit follows it so
        /// far and its message goes on.
        waits: Signal<Local, Bit>,
        /// `held` is the high half of a pair: it leaves into `pair_high`, and
        /// no word leaves with it.
        first_half: Signal<Local, Bit>,
        /// `held` is decided and leaves this cycle.
        leaves: Signal<Local, Bit>,
        /// `held`, as 32 bits.
        held_wide: Signal<Local, Bits<32>>,
        /// The unit being decided, as its low ten bits (a pair's share)
        /// and its high six, which load under enables of their own.
        held: Signal<Local, Bits<16>>,
        held_low: DFF<Bits<10>>,
        held_high: DFF<Bits<6>>,
        held_valid: DFF<Bit>,
        held_last: DFF<Bit>,
        /// `held` is the low half of a pair whose high half left before it;
        /// `pair_high` is that half's share of the value: its ten bits, moved
        /// up ten, plus 10000 (RFC 2781 §2.2 steps 5 and 6).
        paired: DFF<Bit>,
        pair_high: DFF<Bits<32>>,
    }
}

impl Default for Utf16Decoder {
    fn default() -> Self {
        with_axis_ports!(Utf16Decoder {
            skid_buffer: Default::default(),
            output_register: Default::default(),
            unused_ready_next: Default::default(),
            surrogate_tuser: Constant::new(u64::from(ErrorKind::Surrogate.tuser()).into()),
            held_opens: Default::default(),
            held_is_surrogate: Default::default(),
            next: Default::default(),
            next_valid: Default::default(),
            next_last: Default::default(),
            next_is_high: Default::default(),
            next_is_low: Default::default(),
            held_takes: Default::default(),
            next_takes: Default::default(),
            waits: Default::default(),
            first_half: Default::default(),
            leaves: Default::default(),
            held_wide: Default::default(),
            held: Default::default(),
            held_low: Default::default(),
            held_high: Default::default(),
            held_valid: Default::default(),
            held_last: Default::default(),
            paired: Default::default(),
            pair_high: Default::default(),
        })
    }
}

impl Utf16Decoder {
    /// Three cycles from a unit's acceptance to its word on `m_axis`.
    pub const LATENCY: u64 = 3;
}

axis_shell_logic! {
    impl Logic for Utf16Decoder {
        output: output_register,
        flops: [
            next,
            next_valid,
            next_last,
            next_is_high,
            next_is_low,
            held_low,
            held_high,
            held_valid,
            held_last,
            held_opens,
            held_is_surrogate,
            paired,
            pair_high,
        ],
        #[hdl_gen]
        fn update(&mut self) {
            self.unused_ready_next.next = self.output_register.s_axis_tready_next.val();
            self.held.next = bit_cast::<16, 6>(self.held_high.q.val()) << 10
                | bit_cast::<16, 10>(self.held_low.q.val());
            self.held_wide.next = bit_cast::<32, 16>(self.held.val());
            self.waits.next = self.held_opens.q.val() & !self.next_valid.q.val();
            self.first_half.next = self.held_opens.q.val() & self.next_is_low.q.val();
            self.leaves.next =
                self.held_valid.q.val() & self.output_register.s_axis_tready.val() & !self.waits.val();
            // `held` takes `next`'s unit when it is empty or its own leaves;
            // `next` takes the skid buffer's then, or while it is empty.
            // With a unit in `next`, `held` never waits, so it leaves when
            // the output register has room: both enables are one LUT4 from
            // flops.
            self.held_takes.next = self.next_valid.q.val()
                & (!self.held_valid.q.val() | self.output_register.s_axis_tready.val());
            self.next_takes.next = !self.next_valid.q.val()
                | !self.held_valid.q.val()
                | self.output_register.s_axis_tready.val();
            self.skid_buffer.advance.next = self.next_takes.val();

            // The word of `held`, offered once it is decided; the first half of
            // a pair offers none: its word leaves with the second.
            self.output_register.s_axis_tvalid.next =
                self.held_valid.q.val() & !self.waits.val() & !self.first_half.val();
            self.output_register.s_axis_tlast.next = self.held_last.q.val();
            // `paired` is set only while `held` is a low surrogate, so it
            // alone chooses the pair's word: each bit of the choice reads
            // two flags and two bits, one LUT4.
            if self.paired.q.val() {
                self.output_register.s_axis_tdata.next =
                    self.pair_high.q.val() | (self.held_wide.val() & 0x3FF);
                self.output_register.s_axis_tuser.next = 0.into();
            } else if self.held_is_surrogate.q.val() {
                self.output_register.s_axis_tdata.next = 0xFFFD.into();
                self.output_register.s_axis_tuser.next = self.surrogate_tuser.val();
            } else {
                self.output_register.s_axis_tdata.next = self.held_wide.val();
                self.output_register.s_axis_tuser.next = 0.into();
            }
            if self.leaves.val() {
                self.paired.d.next = self.first_half.val();
            }
            // The pair's share is figured whenever `held` opens a pair, which
            // a unit it is read with (a low surrogate) never does.
            if self.held_opens.q.val() {
                self.pair_high.d.next = ((self.held_wide.val() & 0x3FF) + 0x40) << 10;
            }
            // The unit's low bits load as `held_valid` rises; its high bits
            // and flags load whenever `held` is empty or leaves, a unit
            // coming in or not (they are read only while `held_valid` is
            // high): two enables, neither over the fifteen flops at which
            // nextpnr-ice40 promotes an enable to a global buffer, whose
            // route was the limit in a third of the seeds.
            if self.held_takes.val() {
                self.held_low.d.next = self.next.q.val().get_bits::<10>(0);
            }
            if !self.held_valid.q.val() | self.leaves.val() {
                self.held_high.d.next = self.next.q.val().get_bits::<6>(10);
                self.held_last.d.next = self.next_last.q.val();
                self.held_opens.d.next = self.next_is_high.q.val() & !self.next_last.q.val();
                self.held_is_surrogate.d.next = self.next_is_high.q.val() | self.next_is_low.q.val();
            }
            if self.next_takes.val() {
                self.next.d.next = self.skid_buffer.byte.tdata.val();
                self.next_valid.d.next = self.skid_buffer.byte.tvalid.val();
                self.next_last.d.next = self.skid_buffer.byte.tlast.val();
                self.next_is_high.d.next =
                    self.skid_buffer.byte.tdata.val().get_bits::<6>(10) == 0x36;
                self.next_is_low.d.next =
                    self.skid_buffer.byte.tdata.val().get_bits::<6>(10) == 0x37;
            }
            if self.held_takes.val() | self.leaves.val() {
                self.held_valid.d.next = self.held_takes.val();
            }
            if self.rst.val() {
                self.next_valid.d.next = false;
                self.held_valid.d.next = false;
                self.paired.d.next = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_decoder_is_synthesizable() {
        crate::assert_synthesizable(Utf16Decoder::default());
    }
}
