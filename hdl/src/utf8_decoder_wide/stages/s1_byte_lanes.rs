//! # `ByteLanes`: stage 1 of the wide decoder, the beat's bytes made dense
//!
//! Registers each accepted `s_axis` beat (1a, the beat registers), then
//! drops its null lanes (`tkeep` low) and registers the k kept bytes in
//! lanes 0..k-1 (1b, the [`LanePacker`]: 2 log₂ N registered levels, which
//! count each lane's skip and then move it; 1c, the packed registers), and
//! registers them once more beside the tail (1d, the staged registers). No
//! register has an enable: a beat moves on every cycle, and a cycle without
//! one carries `valid` low. A beat with no byte and no `tlast` still
//! travels (the
//! [`LookaheadHold`](crate::utf8_decoder_wide::stages::LookaheadHold) drops
//! it and returns its credit).
//!
//! Beside the dense bytes, `tail` gives the beat's last five bytes in order
//! (`tail[4]` is the last), for the decoder's history: the five places
//! before the beat, then its k bytes, shifted down by k: log₂ N + 1 levels
//! of 2:1 multiplexers (where a selection by the last byte's lane would be
//! a chain of N). The levels of bits 2 and above of k run between the
//! packed and the staged registers (1c, 1d), those of bits 1 and 0 after
//! them, for stage 2 to register: at N = 16, all five in one cycle
//! (and the hold's choice after them) were the critical path, 5 LUT levels
//! and 6.9 ns on the ECP5-25K.
//!
//! ## Parameters
//! * `N`: the lanes; `TDATA` = 8N, the width of `s_axis_tdata`.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `s_axis_tdata`, `s_axis_tkeep`, `s_axis_tlast` | in | 8N, N, 1 | the beat |
//! | `accepted` | in | 1 | the beat is taken this cycle (`s_axis_tvalid & s_axis_tready`) |
//! | `byte[i]`, `present[i]` | out | 8, 1 | registered: the `i`-th kept byte; lanes 0..k-1 are present |
//! | `tail[t]` | out | 8 | two multiplexer levels after the staged registers: the beat's last five bytes, `tail[4]` last; 0 before the first of fewer than five |
//! | `tlast`, `valid` | out | 1 | registered |
//!
//! ## Latency
//! 3 + 2 log₂ N cycles ([`ByteLanes::LATENCY`]), on every cycle (the
//! figure is drawn for a packer of two levels, counting then moving).
//!
//! ```text
//! clock         _/‾\_/‾\_/‾\_/‾\_/‾\_/‾\_
//! accepted      ‾‾‾‾‾\___
//! s_axis_tdata  <61 . 62 63>                  (. = a null lane, N = 4)
//! 1a beat            <61 . 62 63>
//! skip                    <0  . 1  1 >
//! packed                       <61 62 63 00>
//! byte[0..3]                         <61 62 63 00>
//! present                            <1  1  1  0 >
//! tail[0..4]                         <.  .  61 62 63>
//! ```
//!
//! ## Invariants
//! * Bytes leave in the order they came; none is lost or made up.
//! * `present` is dense: lanes 0..k-1.

use rust_hdl::prelude::*;

use crate::utf8_decoder_wide::many;

use crate::utf8_decoder_wide::packing::LanePacker;

/// The places of the tail's shifter after it has moved by bit `bit` of k
/// (and every bit above it), for `n` lanes: what is left to move is below
/// 2^bit, so the tail's five places need 4 + 2^bit of them; above the top
/// bit k can have (2^bit > n), nothing has moved yet: all n + 5.
const fn tail_places(n: usize, bit: u32) -> usize {
    if 1 << bit <= n {
        4 + (1 << bit)
    } else {
        n + 5
    }
}

/// The places that move at bit `bit`: those whose source, 2^bit above, is
/// a place of the level before.
const fn tail_moves(n: usize, bit: u32) -> usize {
    if 1 << bit > n {
        return 0;
    }
    let before = if bit == 5 {
        n + 5
    } else {
        tail_places(n, bit + 1)
    };
    let moves = before - (1 << bit);
    if moves < tail_places(n, bit) {
        moves
    } else {
        tail_places(n, bit)
    }
}

#[derive(LogicBlock)]
pub struct ByteLanes<const N: usize, const TDATA: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub s_axis_tdata: Signal<In, Bits<TDATA>>,
    pub s_axis_tkeep: Signal<In, Bits<N>>,
    pub s_axis_tlast: Signal<In, Bit>,
    pub accepted: Signal<In, Bit>,
    pub byte: Vec<Signal<Out, Bits<8>>>,
    pub present: Vec<Signal<Out, Bit>>,
    pub tail: Vec<Signal<Out, Bits<8>>>,
    pub tlast: Signal<Out, Bit>,
    pub valid: Signal<Out, Bit>,
    /// 1a: the beat as it came.
    beat_byte: Vec<DFF<Bits<8>>>,
    beat_keep: Vec<DFF<Bit>>,
    beat_tlast: DFF<Bit>,
    beat_valid: DFF<Bit>,
    /// 1b: the packing, 2 log₂ N registered levels.
    packer: LanePacker<N, 8>,
    /// N, for the count of kept lanes.
    lanes: Constant<Bits<6>>,
    /// 1c: the packed beat, with k, the kept lanes.
    packed_byte: Vec<DFF<Bits<8>>>,
    packed_present: Vec<DFF<Bit>>,
    packed_count: DFF<Bits<6>>,
    packed_tlast: DFF<Bit>,
    packed_valid: DFF<Bit>,
    /// 1d: the staged beat, the packed beat a cycle later, beside the tail's
    /// shifter halfway (`staged_tail`, the places left after the moves by
    /// bits 2 and above of k, and `staged_low_count`, bits 1 and 0 of k).
    staged_byte: Vec<DFF<Bits<8>>>,
    staged_present: Vec<DFF<Bit>>,
    staged_tail: Vec<DFF<Bits<8>>>,
    staged_low_count: DFF<Bits<2>>,
    staged_tlast: DFF<Bit>,
    staged_valid: DFF<Bit>,
    /// The tail's shifter: `tail_in` is five empty places then the dense
    /// lanes; `by32` … `by1` move them down by each bit of k, most
    /// significant first, so that each level keeps only the places the next
    /// one reads ([`tail_places`]).
    tail_in: Vec<Signal<Local, Bits<8>>>,
    by32: Vec<Signal<Local, Bits<8>>>,
    by16: Vec<Signal<Local, Bits<8>>>,
    by8: Vec<Signal<Local, Bits<8>>>,
    by4: Vec<Signal<Local, Bits<8>>>,
    by2: Vec<Signal<Local, Bits<8>>>,
    by1: Vec<Signal<Local, Bits<8>>>,
}

impl<const N: usize, const TDATA: usize> ByteLanes<N, TDATA> {
    /// The cycles from `accepted` to `valid`: the beat (1a), the packer
    /// (1b), the packed (1c) and the staged (1d) registers.
    pub const LATENCY: u64 = 3 + LanePacker::<N, 8>::LATENCY;
}

impl<const N: usize, const TDATA: usize> Default for ByteLanes<N, TDATA> {
    fn default() -> Self {
        assert_eq!(TDATA, 8 * N, "ByteLanes<N, TDATA>: TDATA is 8N");
        ByteLanes {
            clock: Default::default(),
            rst: Default::default(),
            s_axis_tdata: Default::default(),
            s_axis_tkeep: Default::default(),
            s_axis_tlast: Default::default(),
            accepted: Default::default(),
            byte: many(N),
            present: many(N),
            tail: many(5),
            tlast: Default::default(),
            valid: Default::default(),
            beat_byte: many(N),
            beat_keep: many(N),
            beat_tlast: Default::default(),
            beat_valid: Default::default(),
            packer: Default::default(),
            packed_byte: many(N),
            packed_present: many(N),
            lanes: Constant::new((N as u64).into()),
            packed_count: Default::default(),
            packed_tlast: Default::default(),
            packed_valid: Default::default(),
            staged_byte: many(N),
            staged_present: many(N),
            staged_tail: many(tail_places(N, 2)),
            staged_low_count: Default::default(),
            staged_tlast: Default::default(),
            staged_valid: Default::default(),
            tail_in: many(N + 5),
            by32: many(tail_places(N, 5)),
            by16: many(tail_places(N, 4)),
            by8: many(tail_places(N, 3)),
            by4: many(tail_places(N, 2)),
            by2: many(tail_places(N, 1)),
            by1: many(tail_places(N, 0)),
        }
    }
}

impl<const N: usize, const TDATA: usize> Logic for ByteLanes<N, TDATA> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(
            self,
            clock,
            beat_tlast,
            beat_valid,
            packed_count,
            packed_tlast,
            packed_valid,
            staged_low_count,
            staged_tlast,
            staged_valid
        );
        for i in 0..N {
            self.beat_byte[i].clock.next = self.clock.val();
            self.beat_keep[i].clock.next = self.clock.val();
            self.packed_byte[i].clock.next = self.clock.val();
            self.packed_present[i].clock.next = self.clock.val();
            self.staged_byte[i].clock.next = self.clock.val();
            self.staged_present[i].clock.next = self.clock.val();
        }
        for i in 0..tail_places(N, 2) {
            self.staged_tail[i].clock.next = self.clock.val();
        }

        // 1a: the beat.
        for i in 0..N {
            self.beat_byte[i].d.next = self.s_axis_tdata.val().get_bits::<8>(8 * i);
            self.beat_keep[i].d.next = self.s_axis_tkeep.val().get_bit(i);
        }
        self.beat_tlast.d.next = self.s_axis_tlast.val();
        self.beat_valid.d.next = self.accepted.val() & !self.rst.val();

        // 1b, 1c: the packing's levels, then the packed registers.
        self.packer.clock.next = self.clock.val();
        self.packer.rst.next = self.rst.val();
        self.packer.beat_in.next = self.beat_valid.q.val();
        self.packer.last_in.next = self.beat_tlast.q.val();
        for i in 0..N {
            self.packer.lane_in[i].next = self.beat_byte[i].q.val();
            self.packer.keep_in[i].next = self.beat_keep[i].q.val();
            self.packed_byte[i].d.next = self.packer.lane_out[i].val();
            self.packed_present[i].d.next = self.packer.keep_out[i].val();
        }
        self.packed_count.d.next = self.lanes.val() - self.packer.nulls_out.val();
        self.packed_tlast.d.next = self.packer.last_out.val();
        self.packed_valid.d.next = self.packer.beat_out.val() & !self.rst.val();

        // 1d: the staged registers.
        for i in 0..N {
            self.staged_byte[i].d.next = self.packed_byte[i].q.val();
            self.staged_present[i].d.next = self.packed_present[i].q.val();
            self.byte[i].next = self.staged_byte[i].q.val();
            self.present[i].next = self.staged_present[i].q.val();
        }
        self.staged_low_count.d.next = self.packed_count.q.val().get_bits::<2>(0);
        self.staged_tlast.d.next = self.packed_tlast.q.val();
        self.staged_valid.d.next = self.packed_valid.q.val() & !self.rst.val();
        // The tail: five empty places (zero: no sequence is open after
        // them), then the beat's bytes, moved down by k.
        for t in 0..5 {
            self.tail_in[t].next = 0.into();
        }
        for i in 0..N {
            self.tail_in[i + 5].next = self.packed_byte[i].q.val();
        }
        for i in 0..tail_places(N, 5) {
            self.by32[i].next = self.tail_in[i].val();
        }
        if self.packed_count.q.val().get_bit(5) {
            for i in 0..tail_moves(N, 5) {
                self.by32[i].next = self.tail_in[i + 32].val();
            }
        }
        for i in 0..tail_places(N, 4) {
            self.by16[i].next = self.by32[i].val();
        }
        if self.packed_count.q.val().get_bit(4) {
            for i in 0..tail_moves(N, 4) {
                self.by16[i].next = self.by32[i + 16].val();
            }
        }
        for i in 0..tail_places(N, 3) {
            self.by8[i].next = self.by16[i].val();
        }
        if self.packed_count.q.val().get_bit(3) {
            for i in 0..tail_moves(N, 3) {
                self.by8[i].next = self.by16[i + 8].val();
            }
        }
        for i in 0..tail_places(N, 2) {
            self.by4[i].next = self.by8[i].val();
        }
        if self.packed_count.q.val().get_bit(2) {
            for i in 0..tail_moves(N, 2) {
                self.by4[i].next = self.by8[i + 4].val();
            }
        }
        for i in 0..tail_places(N, 2) {
            self.staged_tail[i].d.next = self.by4[i].val();
        }
        for i in 0..tail_places(N, 1) {
            self.by2[i].next = self.staged_tail[i].q.val();
        }
        if self.staged_low_count.q.val().get_bit(1) {
            for i in 0..tail_moves(N, 1) {
                self.by2[i].next = self.staged_tail[i + 2].q.val();
            }
        }
        for i in 0..tail_places(N, 0) {
            self.by1[i].next = self.by2[i].val();
        }
        if self.staged_low_count.q.val().get_bit(0) {
            for i in 0..tail_moves(N, 0) {
                self.by1[i].next = self.by2[i + 1].val();
            }
        }
        for t in 0..5 {
            self.tail[t].next = self.by1[t].val();
        }
        self.tlast.next = self.staged_tlast.q.val();
        self.valid.next = self.staged_valid.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_lanes_is_synthesizable() {
        crate::assert_synthesizable(ByteLanes::<4, 32>::default());
        crate::assert_synthesizable(ByteLanes::<8, 64>::default());
    }
}
