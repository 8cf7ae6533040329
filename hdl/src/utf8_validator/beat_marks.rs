//! # `BeatMarks`: every lane's mark, and the carry between beats
//!
//! The scanned beat ([`LaneScan`](crate::utf8_validator::LaneScan)) gives
//! each lane the forward summary of the lanes up to it and the backward
//! summary of the lanes from it. This stage marks every lane from those
//! ([`LaneMark`]). The message's earlier beats matter only to the
//! continuing octets at the beat's start: the forward summary of those
//! beats, held in `carry`, becomes one figure for the whole beat, `room`,
//! the continuing octets its open first octet still takes, so no lane's
//! path goes through a join with `carry`. Most of `room` is a register,
//! `carry_room`, that follows `carry` from itself and the beat's summary
//! without waiting for the join; the rest is whether the beat's first
//! byte is a second octet that `carry`'s first octet takes. `carry` takes
//! in the beat (one [`ForwardJoin`]).
//!
//! A first octet whose sequence runs past its beat is left unmarked and
//! reported `open`; `carry` then ends with it. The next beat with bytes
//! decides it from `carry` and the beat's backward summary (lane 0's): it
//! is `resolved`, with `resolved_tuser` its mark (0 when the sequence
//! completes). [`OpenLeadHold`](crate::utf8_validator::OpenLeadHold)
//! marks it, in the beat it holds.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset |
//! | `data[i]`, `keep[i]`, `forward[i]`, `backward[i]`, `beat`, `last` | in | | the scanned beat (`data[i]`: the byte and its mark class, [`SCANNED_LANE`]) |
//! | `tdata`, `tkeep`, `tlast`, `tuser` | out | 8N, N, 1, 4N | registered: the beat, each lane's mark |
//! | `write` | out | 1 | registered: a beat is out |
//! | `open` | out | N | registered: the lane (one hot) of the first octet whose sequence runs past the beat |
//! | `resolved`, `resolved_tuser` | out | 1, 4 | registered: the first octet left open before this beat is decided, with its mark |
//! | `closed` | out | 1 | registered: a beat is out, and no first octet is open after it, in it or in an earlier beat |
//!
//! ## Latency
//! One cycle.
//!
//! ## Invariants
//! * At most one lane of a beat is `open`, and none in a beat with `tlast`.
//! * `carry_room` is `carry`'s `need` − `trail` when `carry` ends in an
//!   open first octet whose second octet, if any, it took; else 0.
//! * A beat that resolves an open first octet comes after the beat that
//!   left it open, with only beats of continuing octets between.

use rust_hdl::prelude::*;

use crate::many;
use crate::utf8_decoder::lead_table::error_tuser;
use crate::utf8_decoder_wide::wiring::LaneBus;
use crate::utf8_validator::{ForwardJoin, LaneMark, SCANNED_LANE};
use utf8hdl_reference::ErrorKind;

#[derive(LogicBlock)]
pub struct BeatMarks<const N: usize, const TDATA: usize, const TUSER: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub data: Vec<Signal<In, Bits<SCANNED_LANE>>>,
    pub keep: Vec<Signal<In, Bit>>,
    pub forward: Vec<Signal<In, Bits<17>>>,
    pub backward: Vec<Signal<In, Bits<9>>>,
    pub beat: Signal<In, Bit>,
    pub last: Signal<In, Bit>,
    pub tdata: Signal<Out, Bits<TDATA>>,
    pub tkeep: Signal<Out, Bits<N>>,
    pub tlast: Signal<Out, Bit>,
    pub tuser: Signal<Out, Bits<TUSER>>,
    pub write: Signal<Out, Bit>,
    pub open: Signal<Out, Bits<N>>,
    pub resolved: Signal<Out, Bit>,
    pub resolved_tuser: Signal<Out, Bits<4>>,
    pub closed: Signal<Out, Bit>,
    /// The forward summary of the message's beats so far (the empty
    /// stretch, 1, at its start).
    carry: DFF<Bits<17>>,
    /// The continuing octets `carry`'s open first octet still takes (its
    /// `need` − `trail`), 0 when none is open or its second octet was
    /// refused: figured from itself and the beat's forward summary, not
    /// from the next `carry`, so that neither the join nor any lane's mark
    /// waits for the figuring.
    carry_room: DFF<Bits<3>>,
    /// The next `carry`.
    next_carry: Signal<Local, Bits<17>>,
    /// The forward summary of the whole beat (its last lane's), its
    /// `trail` and `need`.
    beat_forward: Signal<Local, Bits<17>>,
    beat_trail: Signal<Local, Bits<3>>,
    beat_need: Signal<Local, Bits<3>>,
    /// The next `carry_room` when the beat has another byte than
    /// continuing octets: the continuing octets its own last first octet
    /// still takes.
    beat_room: Signal<Local, Bits<3>>,
    /// The beat's own last first octet is open at its end: `beat_room`
    /// is not 0.
    beat_opens: Signal<Local, Bit>,
    /// `carry`'s open first octet stays open through a beat of continuing
    /// octets only: `carry_left` is not 0.
    carry_stays_open: Signal<Local, Bit>,
    /// The next `carry_room` when the beat has only continuing octets:
    /// `carry_room` less those, if `carry`'s first octet takes them.
    carry_left: Signal<Local, Bits<3>>,
    /// `carry` joined with the whole beat: the next `carry`.
    after: ForwardJoin,
    marks: Vec<LaneMark>,
    /// `carry` ends in a first octet whose sequence is still open.
    carry_open: Signal<Local, Bit>,
    /// `carry`'s `trail`, and the beat's leading continuing octets
    /// (lane 0's backward `lead`).
    carry_trail: Signal<Local, Bits<3>>,
    beat_lead: Signal<Local, Bits<3>>,
    /// The mark of `carry`'s open first octet when its second octet is a
    /// continuing octet outside its `mask`. The mask tells the first
    /// octet's kind: it allows A0–BF after E0, F0, F8 and FC (overlong
    /// forms), 80–9F after ED (surrogates), 80–8F after F4 (beyond
    /// U+10FFFF); so the mark needs no register of its own.
    carry_outside: Signal<Local, Bits<4>>,
    /// The continuing octets at the beat's start that `carry`'s open first
    /// octet takes: [`LaneMark`]'s `room`.
    room: Signal<Local, Bits<3>>,
    resolving: Signal<Local, Bit>,
    resolving_tuser: Signal<Local, Bits<4>>,
    tdata_out: Vec<DFF<Bits<8>>>,
    tdata_bus: LaneBus<8, TDATA>,
    tkeep_out: Vec<DFF<Bit>>,
    tkeep_bus: LaneBus<1, N>,
    tuser_out: Vec<DFF<Bits<4>>>,
    tuser_bus: LaneBus<4, TUSER>,
    open_out: Vec<DFF<Bit>>,
    open_bus: LaneBus<1, N>,
    tlast_out: DFF<Bit>,
    write_out: DFF<Bit>,
    /// `closed`: a flop of its own, figured from the next `carry_room`,
    /// so that what reads it (the validator's choice to pass its hold by,
    /// and through it the queue's write enable) reads one flop.
    closed_out: DFF<Bit>,
    resolved_out: DFF<Bit>,
    resolved_tuser_out: DFF<Bits<4>>,
    tuser_truncated: Constant<Bits<4>>,
    tuser_overlong: Constant<Bits<4>>,
    tuser_surrogate: Constant<Bits<4>>,
    tuser_out_of_range: Constant<Bits<4>>,
}

impl<const N: usize, const TDATA: usize, const TUSER: usize> Default
    for BeatMarks<N, TDATA, TUSER>
{
    fn default() -> Self {
        assert_eq!((TDATA, TUSER), (8 * N, 4 * N), "BeatMarks: 8N and 4N");
        BeatMarks {
            clock: Default::default(),
            rst: Default::default(),
            data: many(N),
            keep: many(N),
            forward: many(N),
            backward: many(N),
            beat: Default::default(),
            last: Default::default(),
            tdata: Default::default(),
            tkeep: Default::default(),
            tlast: Default::default(),
            tuser: Default::default(),
            write: Default::default(),
            open: Default::default(),
            resolved: Default::default(),
            resolved_tuser: Default::default(),
            closed: Default::default(),
            carry: Default::default(),
            carry_room: Default::default(),
            next_carry: Default::default(),
            beat_forward: Default::default(),
            beat_trail: Default::default(),
            beat_need: Default::default(),
            beat_room: Default::default(),
            beat_opens: Default::default(),
            carry_stays_open: Default::default(),
            carry_left: Default::default(),
            after: Default::default(),
            marks: many(N),
            carry_open: Default::default(),
            carry_trail: Default::default(),
            beat_lead: Default::default(),
            carry_outside: Default::default(),
            room: Default::default(),
            resolving: Default::default(),
            resolving_tuser: Default::default(),
            tdata_out: many(N),
            tdata_bus: Default::default(),
            tkeep_out: many(N),
            tkeep_bus: Default::default(),
            tuser_out: many(N),
            tuser_bus: Default::default(),
            open_out: many(N),
            open_bus: Default::default(),
            tlast_out: Default::default(),
            write_out: Default::default(),
            closed_out: Default::default(),
            resolved_out: Default::default(),
            resolved_tuser_out: Default::default(),
            tuser_truncated: error_tuser(ErrorKind::Truncated),
            tuser_overlong: error_tuser(ErrorKind::Overlong),
            tuser_surrogate: error_tuser(ErrorKind::Surrogate),
            tuser_out_of_range: error_tuser(ErrorKind::OutOfRange),
        }
    }
}

impl<const N: usize, const TDATA: usize, const TUSER: usize> Logic for BeatMarks<N, TDATA, TUSER> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            carry,
            carry_room,
            tlast_out,
            write_out,
            closed_out,
            resolved_out,
            resolved_tuser_out
        );
        // The first octet left open before this beat: decided by the
        // beat's first bytes (lane 0's backward summary), or by `tlast`.
        self.carry_open.next = self.carry_room.q.val() != 0;
        self.carry_trail.next = self.carry.q.val().get_bits::<3>(1);
        self.beat_lead.next = self.backward[0].val().get_bits::<3>(1);
        // `carry`'s open first octet takes the beat's first continuing
        // octets if it takes the second octet: already in `carry`, or the
        // beat's first byte.
        self.room.next = 0.into();
        if (self.carry_trail.val() != 0)
            | ((self.backward[0].val().get_bits::<5>(4) & self.carry.q.val().get_bits::<5>(7)) != 0)
        {
            self.room.next = self.carry_room.q.val();
        }
        self.carry_outside.next = self.tuser_out_of_range.val();
        if self.carry.q.val().get_bit(11) {
            self.carry_outside.next = self.tuser_overlong.val();
        } else if self.carry.q.val().get_bit(10) {
            self.carry_outside.next = self.tuser_surrogate.val();
        }
        // Each lane, behind the beat's lanes before it.
        self.marks[0].forward.next = 1.into();
        for i in 1..N {
            self.marks[i].forward.next = self.forward[i - 1].val();
        }
        for i in 0..N {
            self.marks[i].mark_class.next = self.data[i].val().get_bits::<13>(8);
            self.marks[i].keep.next = self.keep[i].val();
            self.marks[i].room.next = self.room.val();
            self.marks[i].last.next = self.last.val();
        }
        for i in 0..N.saturating_sub(1) {
            self.marks[i].backward.next = self.backward[i + 1].val();
        }
        for i in N.saturating_sub(1)..N {
            self.marks[i].backward.next = 1.into();
        }

        self.resolving.next = false;
        self.resolving_tuser.next = 0.into();
        if self.beat.val() & self.carry_open.val() {
            if self.backward[0].val().get_bits::<4>(0) == 1 {
                // No byte in the beat: only `tlast` decides.
                self.resolving.next = self.last.val();
                self.resolving_tuser.next = self.tuser_truncated.val();
            } else if (self.carry.q.val().get_bits::<3>(1) == 0)
                & ((self.backward[0].val().get_bits::<5>(4) & self.carry.q.val().get_bits::<5>(7))
                    == 0)
            {
                self.resolving.next = true;
                self.resolving_tuser.next = self.tuser_truncated.val();
                if self.backward[0].val().get_bits::<5>(4) != 0 {
                    self.resolving_tuser.next = self.carry_outside.val();
                }
            } else if self.beat_lead.val() >= self.carry_room.q.val() {
                // Its sequence completes: `carry_room` is what it lacked.
                self.resolving.next = true;
            } else if !self.backward[0].val().get_bit(0) | self.last.val() {
                self.resolving.next = true;
                self.resolving_tuser.next = self.tuser_truncated.val();
            }
        }

        for i in N.saturating_sub(1)..N {
            self.beat_forward.next = self.forward[i].val();
        }
        self.after.earlier.next = self.carry.q.val();
        self.after.later.next = self.beat_forward.val();
        self.next_carry.next = self.carry.q.val();
        if self.beat.val() {
            self.next_carry.next = self.after.joined.val();
            if self.last.val() {
                self.next_carry.next = 1.into();
            }
        }
        if self.rst.val() {
            self.next_carry.next = 1.into();
        }
        self.carry.d.next = self.next_carry.val();
        // `carry_room` follows `carry` without waiting for the join: a
        // beat with another byte than continuing octets ends in its own
        // last first octet, open when fewer continuing octets follow it
        // than it needs and the second octet, if there is one, is in its
        // range; a beat of continuing octets only (or none) shortens
        // `carry`'s, if its first byte is a second octet that `carry`'s
        // first octet takes.
        self.beat_trail.next = self.beat_forward.val().get_bits::<3>(1);
        self.beat_need.next = self.beat_forward.val().get_bits::<3>(4);
        self.beat_opens.next = (self.beat_trail.val() < self.beat_need.val())
            & ((self.beat_trail.val() == 0)
                | ((self.beat_forward.val().get_bits::<5>(12)
                    & self.beat_forward.val().get_bits::<5>(7))
                    != 0));
        self.beat_room.next = 0.into();
        if self.beat_opens.val() {
            self.beat_room.next = self.beat_need.val() - self.beat_trail.val();
        }
        self.carry_stays_open.next = (self.carry_room.q.val() > self.beat_trail.val())
            & ((self.carry_trail.val() != 0)
                | (self.beat_trail.val() == 0)
                | ((self.beat_forward.val().get_bits::<5>(12)
                    & self.carry.q.val().get_bits::<5>(7))
                    != 0));
        self.carry_left.next = 0.into();
        if self.carry_stays_open.val() {
            self.carry_left.next = self.carry_room.q.val() - self.beat_trail.val();
        }
        self.carry_room.d.next = self.carry_room.q.val();
        if self.beat.val() {
            self.carry_room.d.next = self.beat_room.val();
            if self.beat_forward.val().get_bit(0) {
                self.carry_room.d.next = self.carry_left.val();
            }
            if self.last.val() {
                self.carry_room.d.next = 0.into();
            }
        }
        if self.rst.val() {
            self.carry_room.d.next = 0.into();
        }

        // The registered outputs.
        self.write_out.d.next = self.beat.val();
        // The next `carry_room` is 0 (or the beat has `tlast`), told from
        // the conditions that choose it, not from the differences, whose
        // carry chains would be on this flop's path.
        self.closed_out.d.next = self.beat.val()
            & (self.last.val()
                | (self.beat_forward.val().get_bit(0) & !self.carry_stays_open.val())
                | (!self.beat_forward.val().get_bit(0) & !self.beat_opens.val()));
        self.tlast_out.d.next = self.last.val();
        self.resolved_out.d.next = self.resolving.val();
        self.resolved_tuser_out.d.next = self.resolving_tuser.val();
        for i in 0..N {
            self.tdata_out[i].clock.next = self.clock.val();
            self.tkeep_out[i].clock.next = self.clock.val();
            self.tuser_out[i].clock.next = self.clock.val();
            self.open_out[i].clock.next = self.clock.val();
            self.tdata_out[i].d.next = self.data[i].val().get_bits::<8>(0);
            self.tkeep_out[i].d.next = self.keep[i].val();
            self.tuser_out[i].d.next = self.marks[i].tuser.val();
            self.open_out[i].d.next = self.marks[i].open.val();
            self.tdata_bus.lane[i].next = self.tdata_out[i].q.val();
            self.tkeep_bus.lane[i].next = self.tkeep_out[i].q.val().into();
            self.open_bus.lane[i].next = self.open_out[i].q.val().into();
            self.tuser_bus.lane[i].next = self.tuser_out[i].q.val();
        }
        self.tdata.next = self.tdata_bus.bus.val();
        self.tuser.next = self.tuser_bus.bus.val();
        self.tkeep.next = self.tkeep_bus.bus.val();
        self.open.next = self.open_bus.bus.val();
        self.tlast.next = self.tlast_out.q.val();
        self.write.next = self.write_out.q.val();
        self.closed.next = self.closed_out.q.val();
        self.resolved.next = self.resolved_out.q.val();
        self.resolved_tuser.next = self.resolved_tuser_out.q.val();
        if self.rst.val() {
            self.write_out.d.next = false;
            self.closed_out.d.next = false;
            self.resolved_out.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beat_marks_is_synthesizable() {
        crate::assert_synthesizable(BeatMarks::<2, 16, 8>::default());
        crate::assert_synthesizable(BeatMarks::<8, 64, 32>::default());
    }
}
