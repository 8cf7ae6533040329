//! # `BeatCredits`: `s_axis_tready`, from the beats in flight
//!
//! The wide decoder's stages never stall, so a beat accepted on `s_axis`
//! must find room in the [`BeatFifo`](crate::wide::beat_fifo::BeatFifo)
//! whenever it gets there. This counter keeps the beats *in flight*
//! (accepted, and neither sent on `m_axis` nor dropped on the way) at most
//! `LIMIT`, the queue's size: `s_axis_tready` is high when one more fits.
//! Drops are counted a cycle late (registered), which only makes the count
//! high for a cycle, never low.
//!
//! At line rate (`m_axis_tready` high) the beats in flight are the
//! pipeline's stages, fewer than `LIMIT`, so `s_axis_tready` stays high.
//!
//! ## Parameters
//! * `LIMIT`: the beats the queue holds (at most 63).
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `accepted` | in | 1 | a beat was accepted on `s_axis` |
//! | `returned` | in | 1 | a beat left on `m_axis` |
//! | `dropped_early`, `dropped_late` | in | 1 | a beat was dropped at the [`LookaheadHold`](crate::wide::lookahead_hold::LookaheadHold), at the [`WordLanes`](crate::wide::word_lanes::WordLanes) |
//! | `s_axis_tready` | out | 1 | registered; high from the first cycle after reset |
//!
//! ## Invariants
//! * `in_flight` ≤ `LIMIT`, and it is never below the beats truly in
//!   flight.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct BeatCredits<const LIMIT: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub accepted: Signal<In, Bit>,
    pub returned: Signal<In, Bit>,
    pub dropped_early: Signal<In, Bit>,
    pub dropped_late: Signal<In, Bit>,
    pub s_axis_tready: Signal<Out, Bit>,
    in_flight: DFF<Bits<6>>,
    early: DFF<Bit>,
    late: DFF<Bit>,
    ready: DFF<Bit>,
    /// The change of `in_flight`, as one in and three out.
    plus: Signal<Local, Bits<6>>,
    minus_returned: Signal<Local, Bits<6>>,
    minus_early: Signal<Local, Bits<6>>,
    minus_late: Signal<Local, Bits<6>>,
    next_in_flight: Signal<Local, Bits<6>>,
    limit: Constant<Bits<6>>,
}

impl<const LIMIT: usize> Default for BeatCredits<LIMIT> {
    fn default() -> Self {
        assert!(LIMIT < 64, "BeatCredits: at most 63 beats");
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
            plus: Default::default(),
            minus_returned: Default::default(),
            minus_early: Default::default(),
            minus_late: Default::default(),
            next_in_flight: Default::default(),
            limit: Constant::new((LIMIT as u64).into()),
        }
    }
}

impl<const LIMIT: usize> Logic for BeatCredits<LIMIT> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, in_flight, early, late, ready);
        self.s_axis_tready.next = self.ready.q.val();
        self.early.d.next = self.dropped_early.val();
        self.late.d.next = self.dropped_late.val();
        self.plus.next = 0.into();
        if self.accepted.val() {
            self.plus.next = 1.into();
        }
        self.minus_returned.next = 0.into();
        if self.returned.val() {
            self.minus_returned.next = 1.into();
        }
        self.minus_early.next = 0.into();
        if self.early.q.val() {
            self.minus_early.next = 1.into();
        }
        self.minus_late.next = 0.into();
        if self.late.q.val() {
            self.minus_late.next = 1.into();
        }
        self.next_in_flight.next = self.in_flight.q.val() + self.plus.val()
            - self.minus_returned.val()
            - self.minus_early.val()
            - self.minus_late.val();
        self.in_flight.d.next = self.next_in_flight.val();
        self.ready.d.next = self.next_in_flight.val() < self.limit.val();
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
        crate::assert_synthesizable(BeatCredits::<16>::default());
    }
}
