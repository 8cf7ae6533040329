//! # `OpenLeadHold`: beats wait here while a first octet in them is open
//!
//! A first octet is marked when its sequence is known to be malformed, and
//! that may be only some beats later ([`BeatMarks`](crate::utf8_validator::BeatMarks)).
//! The beat that holds it waits here, and the beats behind it wait in
//! order, until it is `resolved`: its lane then takes `resolved_tuser`.
//! Every other beat passes straight through, one a cycle.
//!
//! The beats behind an open first octet are continuing octets only (any
//! other byte decides it, and so does a beat of no byte, which reaches
//! this block only with `tlast`), so behind it wait fewer beats than its
//! sequence has octets: the beat that brings the last continuing octet
//! decides it. Beats ahead of it leave one a cycle, as fast as beats come
//! in, so the hold never has more beats in use than the profile's longest
//! sequence has octets, and that is how many places it has (4 in
//! rfc3629, 6 in iso10646): all may be in use at once, and the oldest
//! then leaves as the next beat takes its place.
//!
//! ## Parameters
//! `N`, `TDATA` = 8N, `TUSER` = 4N: the lanes and the beat's widths; the
//! places, given to [`OpenLeadHold::new`] ([`places`]).
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset |
//! | `write`, `tdata`, `tkeep`, `tlast`, `tuser`, `open` | in | | a beat, its marks, its open lane (one hot, or 0) |
//! | `pass` | in | 1 | the beat written goes past: it loads the next place's registers but takes no place (it must have no open lane, and the hold must be `idle`) |
//! | `resolved`, `resolved_tuser` | in | 1, 4 | the open first octet is decided, with its mark |
//! | `release` | out | 1 | registered: a beat leaves |
//! | `idle` | out | 1 | registered: no beat is in a place or in the output register, and `write` may be passed by |
//! | `tdata_out`, `tuser_out`, `tkeep_out`, `tlast_out` | out | | registered: the beat that leaves |
//!
//! ## Latency
//! Two cycles for a beat with nothing open before it: written into its
//! place at one clock edge, into the output register at the next.
//! The output register keeps the choice of the oldest beat off the
//! queue's RAM that `release` writes. A beat that finds the hold `idle`
//! and has no open lane need not wait here at all; the validator then
//! writes it into its queue itself.
//!
//! ```text
//! clock     _/‾\_/‾\_/‾\_/‾\_
//! write     _/‾‾‾\_________
//! (place)   _____/‾‾‾\_____      the beat is the oldest, none open: it leaves
//! release   _________/‾‾‾\_
//! ```
//!
//! ## Invariants
//! * `idle` is high exactly when no place is in use and the output
//!   register is empty: a beat with no open lane may then go straight on
//!   to the queue (the validator's bypass), since none is before it.
//! * Beats are released in the order they were written, each once.
//! * A beat is released only once none of its lanes is open.
//! * The places in use are those from `read_at` to `write_at` (all of
//!   them when the two meet and the oldest is in use); a place with an
//!   open lane is in use and is `open_at`'s.
//!
//! The last two, with [`BeatMarks`](crate::utf8_validator::BeatMarks)'
//! (its `carry` ends with the first octet open here, and takes the
//! continuing octets of the beats behind it), are assertions of the
//! validator's proof of full rate (`hdl/formal/utf8_validator_properties.v`).

use rust_hdl::prelude::*;

use crate::many;
use crate::utf8_decoder_wide::wiring::OrOf;
use crate::utf8_validator::HoldPlace;
use utf8hdl_reference::Profile;

/// The places of the hold of a validator of `profile`: one per octet of
/// its longest sequence (the validator's proof reads each place's
/// registers, up to eight).
pub fn places(profile: Profile) -> usize {
    profile.longest_sequence()
}

#[derive(LogicBlock)]
pub struct OpenLeadHold<const N: usize, const TDATA: usize, const TUSER: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub write: Signal<In, Bit>,
    pub pass: Signal<In, Bit>,
    pub tdata: Signal<In, Bits<TDATA>>,
    pub tkeep: Signal<In, Bits<N>>,
    pub tlast: Signal<In, Bit>,
    pub tuser: Signal<In, Bits<TUSER>>,
    pub open: Signal<In, Bits<N>>,
    pub resolved: Signal<In, Bit>,
    pub resolved_tuser: Signal<In, Bits<4>>,
    pub release: Signal<Out, Bit>,
    pub idle: Signal<Out, Bit>,
    pub tdata_out: Signal<Out, Bits<TDATA>>,
    pub tuser_out: Signal<Out, Bits<TUSER>>,
    pub tkeep_out: Signal<Out, Bits<N>>,
    pub tlast_out: Signal<Out, Bit>,
    places: Vec<HoldPlace<N, TDATA, TUSER>>,
    /// One hot: where the next beat is written, where the oldest is, and
    /// where the open first octet is.
    write_at: Vec<DFF<Bit>>,
    read_at: Vec<DFF<Bit>>,
    open_at: Vec<DFF<Bit>>,
    /// Term `k` of each: place `k` holds the oldest beat and it can leave
    /// (full, no lane open), and that beat's fields, zero elsewhere (the
    /// read pointer is one-hot): the head is the OR of the places' terms,
    /// a shallow tree, where an `if` per place would be a chain of
    /// multiplexers.
    leaving: OrOf<Bit>,
    head_tdata: OrOf<Bits<TDATA>>,
    head_tuser: OrOf<Bits<TUSER>>,
    head_tkeep: OrOf<Bits<N>>,
    head_tlast: OrOf<Bit>,
    /// The output register.
    out_valid: DFF<Bit>,
    out_tdata: DFF<Bits<TDATA>>,
    out_tuser: DFF<Bits<TUSER>>,
    out_tkeep: DFF<Bits<N>>,
    out_tlast: DFF<Bit>,
    /// No place in use and the output register empty: true after a clock
    /// on which no place was in use and no beat was kept (a place in use
    /// either stays in use or leaves into the output register).
    idle_reg: DFF<Bit>,
    /// Some place is in use: the OR of the places' `full`.
    in_use: OrOf<Bit>,
    /// The beat written takes the next place. Only the places' `full` and
    /// the write pointer read it: the places' other registers load
    /// whenever a beat is written, so the `pass` decision stays off their
    /// enables.
    fill: Signal<Local, Bit>,
}

impl<const N: usize, const TDATA: usize, const TUSER: usize> OpenLeadHold<N, TDATA, TUSER> {
    /// A hold of `places` places (two at least).
    pub fn new(places: usize) -> Self {
        assert_eq!((TDATA, TUSER), (8 * N, 4 * N), "OpenLeadHold: 8N and 4N");
        assert!(places >= 2, "OpenLeadHold: two places at least");
        OpenLeadHold {
            clock: Default::default(),
            rst: Default::default(),
            write: Default::default(),
            pass: Default::default(),
            tdata: Default::default(),
            tkeep: Default::default(),
            tlast: Default::default(),
            tuser: Default::default(),
            open: Default::default(),
            resolved: Default::default(),
            resolved_tuser: Default::default(),
            release: Default::default(),
            idle: Default::default(),
            tdata_out: Default::default(),
            tuser_out: Default::default(),
            tkeep_out: Default::default(),
            tlast_out: Default::default(),
            places: many(places),
            write_at: many(places),
            read_at: many(places),
            open_at: many(places),
            leaving: OrOf::new(places),
            head_tdata: OrOf::new(places),
            head_tuser: OrOf::new(places),
            head_tkeep: OrOf::new(places),
            head_tlast: OrOf::new(places),
            out_valid: Default::default(),
            out_tdata: Default::default(),
            out_tuser: Default::default(),
            out_tkeep: Default::default(),
            out_tlast: Default::default(),
            idle_reg: Default::default(),
            in_use: OrOf::new(places),
            fill: Default::default(),
        }
    }
}

impl<const N: usize, const TDATA: usize, const TUSER: usize> Logic
    for OpenLeadHold<N, TDATA, TUSER>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, out_valid, out_tdata, out_tuser, out_tkeep, out_tlast, idle_reg);
        for k in 0..self.places.len() {
            self.write_at[k].clock.next = self.clock.val();
            self.read_at[k].clock.next = self.clock.val();
            self.open_at[k].clock.next = self.clock.val();
            self.write_at[k].d.next = self.write_at[k].q.val();
            self.read_at[k].d.next = self.read_at[k].q.val();
            self.open_at[k].d.next = self.open_at[k].q.val();
            self.leaving.term[k].next =
                self.read_at[k].q.val() & self.places[k].full.val() & !self.places[k].open.val();
            self.head_tdata.term[k].next = 0.into();
            self.head_tuser.term[k].next = 0.into();
            self.head_tkeep.term[k].next = 0.into();
            self.head_tlast.term[k].next = false;
            if self.read_at[k].q.val() {
                self.head_tdata.term[k].next = self.places[k].tdata.val();
                self.head_tuser.term[k].next = self.places[k].tuser.val();
                self.head_tkeep.term[k].next = self.places[k].tkeep.val();
                self.head_tlast.term[k].next = self.places[k].tlast.val();
            }
            self.in_use.term[k].next = self.places[k].full.val();
        }
        self.out_valid.d.next = self.leaving.any.val();
        self.out_tdata.d.next = self.head_tdata.any.val();
        self.out_tuser.d.next = self.head_tuser.any.val();
        self.out_tkeep.d.next = self.head_tkeep.any.val();
        self.out_tlast.d.next = self.head_tlast.any.val();
        self.fill.next = self.write.val() & !self.pass.val();
        self.idle_reg.d.next = !self.in_use.any.val() & !self.fill.val();
        self.idle.next = self.idle_reg.q.val();
        self.release.next = self.out_valid.q.val();
        self.tdata_out.next = self.out_tdata.q.val();
        self.tuser_out.next = self.out_tuser.q.val();
        self.tkeep_out.next = self.out_tkeep.q.val();
        self.tlast_out.next = self.out_tlast.q.val();
        for k in 0..self.places.len() {
            self.places[k].clock.next = self.clock.val();
            self.places[k].rst.next = self.rst.val();
            self.places[k].write.next = self.write.val() & self.write_at[k].q.val();
            self.places[k].fill.next = self.fill.val() & self.write_at[k].q.val();
            self.places[k].tdata_in.next = self.tdata.val();
            self.places[k].tkeep_in.next = self.tkeep.val();
            self.places[k].tlast_in.next = self.tlast.val();
            self.places[k].tuser_in.next = self.tuser.val();
            self.places[k].open_in.next = self.open.val();
            self.places[k].clear.next = self.leaving.any.val() & self.read_at[k].q.val();
            self.places[k].resolve.next = self.resolved.val() & self.open_at[k].q.val();
            self.places[k].resolved_tuser.next = self.resolved_tuser.val();
            if self.write.val() & (self.open.val() != 0) {
                self.open_at[k].d.next = self.write_at[k].q.val();
            }
        }
        // The rings close from the last place to place 0, in a loop of one
        // turn: `#[hdl_gen]` indexes by loop variables and literals only.
        if self.leaving.any.val() {
            for k in 1..self.places.len() {
                self.read_at[k].d.next = self.read_at[k - 1].q.val();
            }
            for last in (self.places.len() - 1)..self.places.len() {
                self.read_at[0].d.next = self.read_at[last].q.val();
            }
        }
        if self.fill.val() {
            for k in 1..self.places.len() {
                self.write_at[k].d.next = self.write_at[k - 1].q.val();
            }
            for last in (self.places.len() - 1)..self.places.len() {
                self.write_at[0].d.next = self.write_at[last].q.val();
            }
        }
        if self.rst.val() {
            self.out_valid.d.next = false;
            self.idle_reg.d.next = true;
            for k in 0..1 {
                self.write_at[k].d.next = true;
                self.read_at[k].d.next = true;
            }
            for k in 1..self.places.len() {
                self.write_at[k].d.next = false;
                self.read_at[k].d.next = false;
            }
            for k in 0..self.places.len() {
                self.open_at[k].d.next = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_lead_hold_is_synthesizable() {
        crate::assert_synthesizable(OpenLeadHold::<2, 16, 8>::new(4));
        crate::assert_synthesizable(OpenLeadHold::<32, 256, 128>::new(6));
    }
}
