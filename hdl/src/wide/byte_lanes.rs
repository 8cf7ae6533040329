//! # `ByteLanes`: stage 1 of the wide decoder, the beat's bytes made dense
//!
//! Takes a beat from the skid buffer, drops its null lanes (`tkeep` low)
//! with a [`LanePacker`], and registers the kept bytes in lanes 0..count-1.
//! A beat with no byte and no `tlast` carries nothing and is dropped here.
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
//! | `byte[i]` | out | 8 | registered: the `i`-th kept byte, 0 past `count` |
//! | `count` | out | 8 | registered: how many bytes |
//! | `tlast`, `valid` | out | 1 | registered |
//!
//! ## Latency
//! One cycle.
//!
//! ```text
//! clock        _/‾\_/‾\_/‾\_
//! beat.tdata    <61 . 62 63>            (. = a null lane, N = 4)
//! byte[0..3]         <61 62 63 00>
//! count              <    3     >
//! ```
//!
//! ## Invariants
//! * `valid` implies `count > 0` or `tlast`.
//! * Bytes leave in the order they came; none is lost or made up.

use rust_hdl::prelude::*;

use crate::skid_buffer::BeatIn;
use crate::wide::lane_packer::LanePacker;

#[derive(LogicBlock)]
pub struct ByteLanes<const N: usize, const TBEAT: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub beat: BeatIn<TBEAT>,
    pub take: Signal<Out, Bit>,
    pub leaves: Signal<In, Bit>,
    pub byte: Vec<Signal<Out, Bits<8>>>,
    pub count: Signal<Out, Bits<8>>,
    pub tlast: Signal<Out, Bit>,
    pub valid: Signal<Out, Bit>,
    packer: LanePacker<N, 8>,
    registered_byte: Vec<DFF<Bits<8>>>,
    registered_count: DFF<Bits<8>>,
    registered_tlast: DFF<Bit>,
    registered_valid: DFF<Bit>,
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
            count: Default::default(),
            tlast: Default::default(),
            valid: Default::default(),
            packer: Default::default(),
            registered_byte: (0..N).map(|_| Default::default()).collect(),
            registered_count: Default::default(),
            registered_tlast: Default::default(),
            registered_valid: Default::default(),
        }
    }
}

impl<const N: usize, const TBEAT: usize> Logic for ByteLanes<N, TBEAT> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            registered_count,
            registered_tlast,
            registered_valid
        );
        for i in 0..N {
            self.registered_byte[i].clock.next = self.clock.val();
            self.registered_byte[i].d.next = self.registered_byte[i].q.val();
            self.byte[i].next = self.registered_byte[i].q.val();
        }
        self.count.next = self.registered_count.q.val();
        self.tlast.next = self.registered_tlast.q.val();
        self.valid.next = self.registered_valid.q.val();

        for i in 0..N {
            self.packer.lane_in[i].next = self.beat.tdata.val().get_bits::<8>(9 * i);
            self.packer.keep_in[i].next = self.beat.tdata.val().get_bit(9 * i + 8);
        }

        self.take.next = !self.registered_valid.q.val() | self.leaves.val();
        if !self.registered_valid.q.val() | self.leaves.val() {
            self.registered_valid.d.next =
                self.beat.tvalid.val() & (self.packer.count.val().any() | self.beat.tlast.val());
            self.registered_tlast.d.next = self.beat.tlast.val();
            self.registered_count.d.next = self.packer.count.val();
            for i in 0..N {
                self.registered_byte[i].d.next = self.packer.lane_out[i].val();
            }
        }
        if self.rst.val() {
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
