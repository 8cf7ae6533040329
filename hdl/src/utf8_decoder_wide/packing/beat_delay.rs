//! # `BeatDelay`: a beat's valid and `tlast` beside the levels of the packing network
//!
//! A level of a [`LaneSkips`](super::LaneSkips) or a
//! [`LanePacker`](super::LanePacker) holds a beat's lanes
//! ([`LaneRegister`](super::LaneRegister)s); this block holds, level for level,
//! whether a beat is there and its `tlast`.
//!
//! ## Parameters
//! * `N`: the lanes, a power of two from 1 to 32: the delay is log₂ N
//!   levels, one per level of the network, and one level for one lane.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `beat_in`, `last_in` | in | 1 | a beat is here; its `tlast` |
//! | `beat_out`, `last_out` | out | 1 | registered: the same, log₂ N cycles later |
//!
//! ```text
//! clock      _/‾\_/‾\_/‾\_/‾\_      (N = 4: two levels)
//! beat_in    ‾‾‾‾\___________
//! beat_out   ________/‾‾‾‾\__
//! ```
//!
//! ## Invariants
//! * `beat_out` is low for log₂ N cycles after a reset cycle: a reset
//!   clears the beat at every level.

use rust_hdl::prelude::*;

use crate::many;

/// The levels of a network of `n` lanes: log₂ n, and one for one lane (a
/// register, so that every network is registered at its outputs).
pub const fn levels(n: usize) -> usize {
    if n > 1 {
        n.ilog2() as usize
    } else {
        1
    }
}

#[derive(LogicBlock)]
pub struct BeatDelay<const N: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub beat_in: Signal<In, Bit>,
    pub last_in: Signal<In, Bit>,
    pub beat_out: Signal<Out, Bit>,
    pub last_out: Signal<Out, Bit>,
    /// Level `k`'s beat and `tlast`.
    beat: Vec<DFF<Bit>>,
    last: Vec<DFF<Bit>>,
}

impl<const N: usize> Default for BeatDelay<N> {
    fn default() -> Self {
        assert!(
            N.is_power_of_two() && (1..=32).contains(&N),
            "a BeatDelay has 1, 2, 4, 8, 16 or 32 lanes"
        );
        BeatDelay {
            clock: Default::default(),
            rst: Default::default(),
            beat_in: Default::default(),
            last_in: Default::default(),
            beat_out: Default::default(),
            last_out: Default::default(),
            beat: many(levels(N)),
            last: many(levels(N)),
        }
    }
}

impl<const N: usize> Logic for BeatDelay<N> {
    #[hdl_gen]
    fn update(&mut self) {
        for k in 0..levels(N) {
            self.beat[k].clock.next = self.clock.val();
            self.last[k].clock.next = self.clock.val();
        }
        self.beat[0].d.next = self.beat_in.val() & !self.rst.val();
        self.last[0].d.next = self.last_in.val();
        for k in 1..levels(N) {
            self.beat[k].d.next = self.beat[k - 1].q.val() & !self.rst.val();
            self.last[k].d.next = self.last[k - 1].q.val();
        }
        for k in levels(N).saturating_sub(1)..levels(N) {
            self.beat_out.next = self.beat[k].q.val();
            self.last_out.next = self.last[k].q.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beat_delay_is_synthesizable() {
        crate::assert_synthesizable(BeatDelay::<1>::default());
        crate::assert_synthesizable(BeatDelay::<2>::default());
        crate::assert_synthesizable(BeatDelay::<32>::default());
    }
}
