//! # `BeatCredits`: `s_axis_tready`, from the beats in flight
//!
//! The wide decoder's stages never stall, so a beat accepted on `s_axis`
//! must find room in the [`BeatFifo`](crate::utf8_decoder_wide::queue::BeatFifo)
//! whenever it gets there. This counter keeps the beats *in flight*
//! (accepted, and neither sent on `m_axis` nor dropped on the way) at most
//! 2^A, the queue's size: `s_axis_tready` is high when one more fits.
//! Drops are counted a cycle late (registered), which only makes the count
//! high for a cycle, never low.
//!
//! At line rate (`m_axis_tready` high) the beats in flight are the
//! pipeline's stages, fewer than 2^A, so `s_axis_tready` stays high.
//!
//! ## Parameters
//! * `A`: the queue's address bits, at most 6: it holds 2^A beats.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `accepted` | in | 1 | a beat was accepted on `s_axis` |
//! | `returned` | in | 1 | a beat left on `m_axis` |
//! | `dropped_early`, `dropped_late` | in | 1 | a beat was dropped at the [`LookaheadHold`](crate::utf8_decoder_wide::stages::LookaheadHold), at the [`WordLanes`](crate::utf8_decoder_wide::stages::WordLanes) |
//! | `s_axis_tready` | out | 1 | registered; high from the first cycle after reset |
//!
//! ## Timing
//! `s_axis_tready` is decided from two compares of the `in_flight` flop
//! (room for one more, room for two), chosen at the end by `accepted` and
//! whether a beat leaves: `s_axis_tvalid` reaches the `ready` flop through
//! one LUT. (Compared after the count's add and subtract, it was the
//! critical path at N = 8: 9 cells, 6.64 ns.)
//!
//! ## Invariants
//! * `in_flight` ≤ 2^A, and it is never below the beats truly in
//!   flight.
//! * A beat is accepted only when `in_flight` < 2^A (`s_axis_tready` was
//!   high), so when a beat leaves, the count after the cycle is below
//!   2^A whatever came in.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct BeatCredits<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub accepted: Signal<In, Bit>,
    pub returned: Signal<In, Bit>,
    pub dropped_early: Signal<In, Bit>,
    pub dropped_late: Signal<In, Bit>,
    pub s_axis_tready: Signal<Out, Bit>,
    in_flight: DFF<Bits<7>>,
    early: DFF<Bit>,
    late: DFF<Bit>,
    ready: DFF<Bit>,
    /// How many beats leave this cycle (of `returned` and the two drops):
    /// an odd number; two or more.
    leaving_odd: Signal<Local, Bit>,
    leaving_many: Signal<Local, Bit>,
    /// The change of `in_flight`, -3 to +1, as a table of the four flags:
    /// the count is then one adder. (Written as one add and three
    /// subtracts, yosys made it a tree of adders, and at N = 8 the path
    /// from `early` through it was critical: 10 cells, 5.8 ns.)
    change: Signal<Local, Bits<7>>,
    /// Room for one more beat; for two.
    fits_one: Signal<Local, Bit>,
    fits_two: Signal<Local, Bit>,
    /// A beat leaves the count this cycle.
    leaves: Signal<Local, Bit>,
    limit: Constant<Bits<7>>,
    limit_less_one: Constant<Bits<7>>,
}

impl<const A: usize> Default for BeatCredits<A> {
    fn default() -> Self {
        assert!(A <= 6, "BeatCredits: at most 2^6 beats");
        BeatCredits {
            clock: Default::default(),
            rst: Default::default(),
            accepted: Default::default(),
            returned: Default::default(),
            dropped_early: Default::default(),
            dropped_late: Default::default(),
            s_axis_tready: Default::default(),
            in_flight: Default::default(),
            early: Default::default(),
            late: Default::default(),
            ready: Default::default(),
            leaving_odd: Default::default(),
            leaving_many: Default::default(),
            change: Default::default(),
            fits_one: Default::default(),
            fits_two: Default::default(),
            leaves: Default::default(),
            limit: Constant::new((1u64 << A).into()),
            limit_less_one: Constant::new(((1u64 << A) - 1).into()),
        }
    }
}

impl<const A: usize> Logic for BeatCredits<A> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, in_flight, early, late, ready);
        self.s_axis_tready.next = self.ready.q.val();
        self.early.d.next = self.dropped_early.val();
        self.late.d.next = self.dropped_late.val();
        self.leaving_odd.next = self.returned.val() ^ self.early.q.val() ^ self.late.q.val();
        self.leaving_many.next = (self.returned.val() & self.early.q.val())
            | (self.returned.val() & self.late.q.val())
            | (self.early.q.val() & self.late.q.val());
        // 1 in, less 0, 1, 2 or 3 out (7 bits, two's complement).
        if self.accepted.val() {
            self.change.next = 1.into();
            if self.leaving_odd.val() {
                self.change.next = 0.into();
                if self.leaving_many.val() {
                    self.change.next = 0x7E.into();
                }
            } else if self.leaving_many.val() {
                self.change.next = 0x7F.into();
            }
        } else {
            self.change.next = 0.into();
            if self.leaving_odd.val() {
                self.change.next = 0x7F.into();
                if self.leaving_many.val() {
                    self.change.next = 0x7D.into();
                }
            } else if self.leaving_many.val() {
                self.change.next = 0x7E.into();
            }
        }
        self.in_flight.d.next = self.in_flight.q.val() + self.change.val();
        // The next count is below the limit: a beat leaves (see the
        // invariants), or none does and there is room for what came in.
        self.fits_one.next = self.in_flight.q.val() < self.limit.val();
        self.fits_two.next = self.in_flight.q.val() < self.limit_less_one.val();
        self.leaves.next = self.returned.val() | self.early.q.val() | self.late.q.val();
        self.ready.d.next = self.leaves.val() | self.fits_two.val();
        if !self.accepted.val() {
            self.ready.d.next = self.leaves.val() | self.fits_one.val();
        }
        if self.rst.val() {
            self.in_flight.d.next = 0.into();
            self.early.d.next = false;
            self.late.d.next = false;
            // Nothing is in flight after reset: ready at once, as the
            // 1-lane core's skid buffer is.
            self.ready.d.next = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beat_credits_is_synthesizable() {
        crate::assert_synthesizable(BeatCredits::<4>::default());
    }
}
