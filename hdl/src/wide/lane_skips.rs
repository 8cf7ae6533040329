//! # `LaneSkips`: how far each kept lane of a beat moves to pack it (combinational)
//!
//! The first half of packing a beat (the second is the
//! [`LanePacker`](crate::wide::lane_packer::LanePacker), with a register
//! between them where timing needs one): a kept lane moves down by the
//! number of dropped lanes before it, its *skip*. A parallel prefix
//! (Kogge–Stone) counts them in log₂ N levels of adders.
//!
//! ## Parameter
//! `N`: the lanes, at most 32.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `keep_in[i]` | in | 1 | lane `i` is kept |
//! | `skip[i]` | out | 5 | for a kept lane, the dropped lanes before it |
//! | `any_kept` | out | 1 | some lane is kept |
//! | `nulls` | out | 5 | the dropped lanes of the beat, modulo 32 |
//!
//! ```text
//! keep_in    1  0  1  0  0  1
//! skip       0     1        3
//! ```
//!
//! The five levels are written out, for N up to 32: the `#[hdl_gen]`
//! subset indexes arrays only by loop variables and literals.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct LaneSkips<const N: usize> {
    pub keep_in: Vec<Signal<In, Bit>>,
    pub skip: Vec<Signal<Out, Bits<5>>>,
    pub any_kept: Signal<Out, Bit>,
    pub nulls: Signal<Out, Bits<5>>,
    /// `nulls0[i]` is 1 for a dropped lane; after level `k`, `nullsk[i]`
    /// counts the dropped lanes among the 2^k up to `i`.
    nulls0: Vec<Signal<Local, Bits<5>>>,
    nulls1: Vec<Signal<Local, Bits<5>>>,
    nulls2: Vec<Signal<Local, Bits<5>>>,
    nulls3: Vec<Signal<Local, Bits<5>>>,
    nulls4: Vec<Signal<Local, Bits<5>>>,
    nulls5: Vec<Signal<Local, Bits<5>>>,
}

impl<const N: usize> Default for LaneSkips<N> {
    fn default() -> Self {
        assert!((1..=32).contains(&N), "LaneSkips has 1 to 32 lanes");
        fn lanes<T: Default>(n: usize) -> Vec<T> {
            (0..n).map(|_| T::default()).collect()
        }
        LaneSkips {
            keep_in: lanes(N),
            skip: lanes(N),
            any_kept: Default::default(),
            nulls0: lanes(N),
            nulls1: lanes(N),
            nulls2: lanes(N),
            nulls3: lanes(N),
            nulls4: lanes(N),
            nulls5: lanes(N),
            nulls: Default::default(),
        }
    }
}

impl<const N: usize> Logic for LaneSkips<N> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..N {
            self.nulls0[i].next = 0.into();
            if !self.keep_in[i].val() {
                self.nulls0[i].next = 1.into();
            }
        }
        for i in 0..N.min(1) {
            self.nulls1[i].next = self.nulls0[i].val();
        }
        for i in 1..N {
            self.nulls1[i].next = self.nulls0[i].val() + self.nulls0[i - 1].val();
        }
        for i in 0..N.min(2) {
            self.nulls2[i].next = self.nulls1[i].val();
        }
        for i in 2..N {
            self.nulls2[i].next = self.nulls1[i].val() + self.nulls1[i - 2].val();
        }
        for i in 0..N.min(4) {
            self.nulls3[i].next = self.nulls2[i].val();
        }
        for i in 4..N {
            self.nulls3[i].next = self.nulls2[i].val() + self.nulls2[i - 4].val();
        }
        for i in 0..N.min(8) {
            self.nulls4[i].next = self.nulls3[i].val();
        }
        for i in 8..N {
            self.nulls4[i].next = self.nulls3[i].val() + self.nulls3[i - 8].val();
        }
        for i in 0..N.min(16) {
            self.nulls5[i].next = self.nulls4[i].val();
        }
        for i in 16..N {
            self.nulls5[i].next = self.nulls4[i].val() + self.nulls4[i - 16].val();
        }
        // Five bits count up to 31 dropped lanes; 32 of 32 wraps to 0.
        for i in (N - 1)..N {
            self.nulls.next = self.nulls5[i].val();
        }
        // Whether any lane is kept is an OR of the lanes, not a test of the
        // whole count: the count's adders are the longest path here.
        self.any_kept.next = false;
        for i in 0..N {
            self.any_kept.next = self.any_kept.val() | self.keep_in[i].val();
        }
        // A kept lane has no dropped lane at its own place, so the
        // inclusive count is its skip.
        for i in 0..N {
            self.skip[i].next = self.nulls5[i].val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_skips_is_synthesizable() {
        crate::assert_synthesizable(LaneSkips::<8>::default());
        crate::assert_synthesizable(LaneSkips::<32>::default());
    }
}
