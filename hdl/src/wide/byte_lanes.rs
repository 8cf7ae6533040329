//! # `ByteLanes`: stage 1 of the wide decoder, the beat's bytes made dense
//!
//! Takes a beat from the skid buffer, drops its null lanes (`tkeep` low)
//! and registers the k kept bytes in lanes 0..k-1, in two steps, each
//! registered: stage 1a counts each lane's skip ([`LaneSkips`]), stage 1b
//! moves the lanes ([`LanePacker`]). A beat with no byte and no `tlast`
//! carries nothing and is dropped in stage 1a.
//!
//! ## Parameters
//! * `N`: the lanes.
//! * `TBEAT` = 9N: the skid buffer's payload; lane `i` is its bits
//!   [9i+7:9i] (the byte) and bit 9i+8 (its `tkeep`).
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `beat.tdata`/`tvalid`/`tlast` | in | 9N/1/1 | [`BeatIn`]: the beat offered |
//! | `take` | out | 1 | the beat offered is taken this cycle: the registers are empty or their beat leaves |
//! | `leaves` | in | 1 | the next stage takes the registered beat this cycle |
//! | `byte[i]` | out | 8 | registered: the `i`-th kept byte, 0 past them |
//! | `present[i]` | out | 1 | registered: `byte[i]` is a byte of the beat (lanes 0..k-1) |
//! | `tlast`, `valid` | out | 1 | registered |
//!
//! ## Latency
//! Two cycles.
//!
//! ```text
//! clock        _/‾\_/‾\_/‾\_/‾\_
//! beat.tdata    <61 . 62 63>             (. = a null lane, N = 4)
//! counted_skip       <0  . 1  1 >
//! byte[0..3]              <61 62 63 00>
//! present                 <1  1  1  0 >
//! ```
//!
//! ## Invariants
//! * `valid` implies `present[0]` or `tlast`.
//! * Bytes leave in the order they came; none is lost or made up.

use rust_hdl::prelude::*;

use crate::skid_buffer::BeatIn;
use crate::wide::lane_packer::LanePacker;
use crate::wide::lane_skips::LaneSkips;

#[derive(LogicBlock)]
pub struct ByteLanes<const N: usize, const TBEAT: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub beat: BeatIn<TBEAT>,
    pub take: Signal<Out, Bit>,
    pub leaves: Signal<In, Bit>,
    pub byte: Vec<Signal<Out, Bits<8>>>,
    pub present: Vec<Signal<Out, Bit>>,
    pub tlast: Signal<Out, Bit>,
    pub valid: Signal<Out, Bit>,
    skips: LaneSkips<N>,
    /// Stage 1a: the beat as it came, with each lane's skip counted.
    counted_byte: Vec<DFF<Bits<8>>>,
    counted_keep: Vec<DFF<Bit>>,
    counted_skip: Vec<DFF<Bits<5>>>,
    counted_tlast: DFF<Bit>,
    counted_valid: DFF<Bit>,
    packer: LanePacker<N, 8>,
    /// Stage 1b: the bytes packed.
    registered_byte: Vec<DFF<Bits<8>>>,
    registered_present: Vec<DFF<Bit>>,
    registered_tlast: DFF<Bit>,
    registered_valid: DFF<Bit>,
    free_a: Signal<Local, Bit>,
    free_b: Signal<Local, Bit>,
}

impl<const N: usize, const TBEAT: usize> Default for ByteLanes<N, TBEAT> {
    fn default() -> Self {
        assert_eq!(TBEAT, 9 * N, "ByteLanes<N, TBEAT>: TBEAT is 9N");
        ByteLanes {
            clock: Default::default(),
            rst: Default::default(),
            beat: Default::default(),
            take: Default::default(),
            leaves: Default::default(),
            byte: (0..N).map(|_| Default::default()).collect(),
            present: (0..N).map(|_| Default::default()).collect(),
            tlast: Default::default(),
            valid: Default::default(),
            skips: Default::default(),
            counted_byte: (0..N).map(|_| Default::default()).collect(),
            counted_keep: (0..N).map(|_| Default::default()).collect(),
            counted_skip: (0..N).map(|_| Default::default()).collect(),
            counted_tlast: Default::default(),
            counted_valid: Default::default(),
            packer: Default::default(),
            registered_byte: (0..N).map(|_| Default::default()).collect(),
            registered_present: (0..N).map(|_| Default::default()).collect(),
            registered_tlast: Default::default(),
            registered_valid: Default::default(),
            free_a: Default::default(),
            free_b: Default::default(),
        }
    }
}

impl<const N: usize, const TBEAT: usize> Logic for ByteLanes<N, TBEAT> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            counted_tlast,
            counted_valid,
            registered_tlast,
            registered_valid
        );
        for i in 0..N {
            self.counted_byte[i].clock.next = self.clock.val();
            self.counted_byte[i].d.next = self.counted_byte[i].q.val();
            self.counted_keep[i].clock.next = self.clock.val();
            self.counted_keep[i].d.next = self.counted_keep[i].q.val();
            self.counted_skip[i].clock.next = self.clock.val();
            self.counted_skip[i].d.next = self.counted_skip[i].q.val();
            self.registered_byte[i].clock.next = self.clock.val();
            self.registered_byte[i].d.next = self.registered_byte[i].q.val();
            self.byte[i].next = self.registered_byte[i].q.val();
            self.registered_present[i].clock.next = self.clock.val();
            self.registered_present[i].d.next = self.registered_present[i].q.val();
            self.present[i].next = self.registered_present[i].q.val();
        }
        self.tlast.next = self.registered_tlast.q.val();
        self.valid.next = self.registered_valid.q.val();

        // Stage 1b takes stage 1a's beat when it is free or its own beat
        // leaves; stage 1a takes the offered beat when it is free or its
        // own beat moves on.
        self.free_b.next = !self.registered_valid.q.val() | self.leaves.val();
        self.free_a.next = !self.counted_valid.q.val() | self.free_b.val();
        self.take.next = self.free_a.val();

        for i in 0..N {
            self.skips.keep_in[i].next = self.beat.tdata.val().get_bit(9 * i + 8);
        }
        if self.free_a.val() {
            self.counted_valid.d.next =
                self.beat.tvalid.val() & (self.skips.any_kept.val() | self.beat.tlast.val());
            self.counted_tlast.d.next = self.beat.tlast.val();
            for i in 0..N {
                self.counted_byte[i].d.next = self.beat.tdata.val().get_bits::<8>(9 * i);
                self.counted_keep[i].d.next = self.beat.tdata.val().get_bit(9 * i + 8);
                self.counted_skip[i].d.next = self.skips.skip[i].val();
            }
        }

        for i in 0..N {
            self.packer.lane_in[i].next = self.counted_byte[i].q.val();
            self.packer.keep_in[i].next = self.counted_keep[i].q.val();
            self.packer.skip_in[i].next = self.counted_skip[i].q.val();
        }
        if self.free_b.val() {
            self.registered_valid.d.next = self.counted_valid.q.val();
            self.registered_tlast.d.next = self.counted_tlast.q.val();
            for i in 0..N {
                self.registered_byte[i].d.next = self.packer.lane_out[i].val();
                self.registered_present[i].d.next = self.packer.keep_out[i].val();
            }
        }
        if self.rst.val() {
            self.counted_valid.d.next = false;
            self.registered_valid.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_lanes_is_synthesizable() {
        crate::assert_synthesizable(ByteLanes::<4, 36>::default());
    }
}
