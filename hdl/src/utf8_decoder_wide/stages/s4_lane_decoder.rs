//! # `LaneDecoder`: stage 4 of the wide decoder, every lane decided at once
//!
//! Reads the window that [`LaneTables`](crate::utf8_decoder_wide::stages::LaneTables)
//! registers (the five bytes before the beat, the beat, what follows it)
//! and registers one *slot* per lane: the unit whose last byte is that
//! lane, if any.
//!
//! ## How: no state machine, a window
//! A sequence is at most six octets long, so what a byte is follows from the
//! five bytes before it. For each lane, at each distance `d` = 1..5: is the
//! byte the `d`-th octet after a first octet that takes it? That is, every
//! octet between is a continuing octet, the first octet's second octet is
//! in its `second_allowed`, and the sequence is longer than `d`. Its first
//! register, 4a, holds that, split by whether the sequence ends at the byte
//! (`complete_d`: it is `d + 1` octets long) or goes on (`open_d`). A byte
//! that no first octet takes and cannot start a sequence is a unit on its
//! own (`malformed`); every byte that can start one does (maximal subparts,
//! Unicode §3.9: the octet that breaks a sequence starts the next unit).
//!
//! ## Which lane carries a unit: the lane of its last byte
//! A character's last byte is known from the window. A sequence that is
//! cut short ends at its last byte too, which is known from the byte after
//! it: the next lane, or, for the beat's last byte, the next beat's first
//! byte or the end of the message (`lane_next_*`, for which the
//! [`LookaheadHold`](crate::utf8_decoder_wide::stages::LookaheadHold)
//! waited). So each lane carries at most one unit, and a beat of k bytes at
//! most k units: **no beat ever needs more than N slots, and no carry is
//! needed**, although the beat that *breaks* a sequence may complete N + 1
//! units (the broken one, then N words): the broken one travels in the
//! beat before, with its last byte.
//!
//! ## Parameters
//! * `N`: the lanes.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `lane_*[i]`, `prev_*[t]`, `window_tlast`, `window_valid` | in | | the window, from [`LaneTables`](crate::utf8_decoder_wide::stages::LaneTables) |
//! | `slot_valid[i]`, `slot_tuser[i]`, `slot_value[i]` | out | 1, 4, 32 | registered: the unit whose last byte is lane `i`; `slot_value` is meaningless for an error |
//! | `beat_valid`, `beat_tlast` | out | 1 | registered: the slots hold a beat |
//!
//! ## Latency
//! Two cycles, on every cycle: the lane facts (4a), then the slots (4b).
//!
//! ```text
//! clock          _/‾\_/‾\_/‾\_/‾\_
//! lane_length    <2  1 ><1  1 >                 N = 2, bytes C2 41 42 43
//! open_1              <0  0 ><0  0 >
//! slot_valid                <1  1 ><1  1 >
//! slot_tuser                <7  0 ><0  0 >      C2 is cut short by 41: truncated
//! ```
//!
//! ## Invariants
//! * A slot holds at most one unit, so `beat_valid` slots never exceed N.
//! * Only present lanes have a unit.

use rust_hdl::prelude::*;

use crate::utf8_decoder_wide::many;

use crate::utf8_decoder::lead_table::error_tuser;
use crate::utf8_decoder_wide::wiring::ZeroExtend;
use utf8hdl_reference::ErrorKind;

#[derive(LogicBlock)]
pub struct LaneDecoder<const N: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub lane_present: Vec<Signal<In, Bit>>,
    pub lane_is_cont: Vec<Signal<In, Bit>>,
    pub lane_next_cont: Vec<Signal<In, Bit>>,
    pub lane_next_fits: Vec<Signal<In, Bit>>,
    pub lane_length: Vec<Signal<In, Bits<3>>>,
    pub lane_outside: Vec<Signal<In, Bits<4>>>,
    pub lane_malformed: Vec<Signal<In, Bits<4>>>,
    pub lane_free: Vec<Signal<In, Bits<8>>>,
    pub prev_is_cont: Vec<Signal<In, Bit>>,
    pub prev_next_fits: Vec<Signal<In, Bit>>,
    pub prev_length: Vec<Signal<In, Bits<3>>>,
    pub prev_free: Vec<Signal<In, Bits<8>>>,
    pub window_tlast: Signal<In, Bit>,
    pub window_valid: Signal<In, Bit>,
    pub slot_valid: Vec<Signal<Out, Bit>>,
    pub slot_tuser: Vec<Signal<Out, Bits<4>>>,
    pub slot_value: Vec<Signal<Out, Bits<32>>>,
    pub beat_valid: Signal<Out, Bit>,
    pub beat_tlast: Signal<Out, Bit>,
    /// The window: `prev_*` then `lane_*`; place `k + 5` is lane `k`
    /// (up to the last lane but one for `length` and `next_fits`: a first
    /// octet is read at distances 1 to 5 before a lane).
    window_is_cont: Vec<Signal<Local, Bit>>,
    window_next_fits: Vec<Signal<Local, Bit>>,
    window_length: Vec<Signal<Local, Bits<3>>>,
    /// What the window holds and no lane reads (Verilator's lint passes
    /// over a signal named `unused_*`): whether the two oldest places are
    /// continuing octets (a byte five or four places back can only be a
    /// first octet or its second).
    unused_oldest_cont: Signal<Local, Bit>,
    /// The free bits, zero-extended, for gathering.
    window_wide_free: Vec<ZeroExtend>,
    /// 4a: per lane, a first octet `d` back takes the byte and the
    /// sequence ends there (`complete_d`) or goes on (`open_d`; never for
    /// d = 5, six octets being the longest sequence).
    complete1: Vec<DFF<Bit>>,
    complete2: Vec<DFF<Bit>>,
    complete3: Vec<DFF<Bit>>,
    complete4: Vec<DFF<Bit>>,
    complete5: Vec<DFF<Bit>>,
    open1: Vec<DFF<Bit>>,
    open2: Vec<DFF<Bit>>,
    open3: Vec<DFF<Bit>>,
    open4: Vec<DFF<Bit>>,
    /// The next byte continues the lane's sequence, if the lane leaves one
    /// open; it is a continuing octet (so a broken sequence is broken by
    /// its second octet's range, `outside`, rather than cut short).
    next_continues: Vec<DFF<Bit>>,
    next_is_continuing: Vec<DFF<Bit>>,
    /// The lane's own byte: present, a first octet, its errors, its
    /// free bits; and every free bit of the six places up to it, each
    /// place six bits above the next (Annex R Note 5).
    own_present: Vec<DFF<Bit>>,
    own_lead: Vec<DFF<Bit>>,
    own_outside: Vec<DFF<Bits<4>>>,
    own_malformed: Vec<DFF<Bits<4>>>,
    own_free: Vec<DFF<Bits<32>>>,
    gathered: Vec<DFF<Bits<32>>>,
    partial_tlast: DFF<Bit>,
    partial_valid: DFF<Bit>,
    /// 4b: the slots, and the logic that decides them.
    complete: Vec<Signal<Local, Bit>>,
    still_open: Vec<Signal<Local, Bit>>,
    cut_short: Vec<Signal<Local, Bit>>,
    alone: Vec<Signal<Local, Bit>>,
    registered_slot_valid: Vec<DFF<Bit>>,
    registered_slot_tuser: Vec<DFF<Bits<4>>>,
    registered_slot_value: Vec<DFF<Bits<32>>>,
    registered_beat_valid: DFF<Bit>,
    registered_beat_tlast: DFF<Bit>,
    tuser_truncated: Constant<Bits<4>>,
}

impl<const N: usize> LaneDecoder<N> {
    /// The lane facts, then the slots.
    pub const LATENCY: u64 = 2;
}

impl<const N: usize> Default for LaneDecoder<N> {
    fn default() -> Self {
        LaneDecoder {
            clock: Default::default(),
            rst: Default::default(),
            lane_present: many(N),
            lane_is_cont: many(N),
            lane_next_cont: many(N),
            lane_next_fits: many(N),
            lane_length: many(N),
            lane_outside: many(N),
            lane_malformed: many(N),
            lane_free: many(N),
            prev_is_cont: many(5),
            prev_next_fits: many(5),
            prev_length: many(5),
            prev_free: many(5),
            window_tlast: Default::default(),
            window_valid: Default::default(),
            slot_valid: many(N),
            slot_tuser: many(N),
            slot_value: many(N),
            beat_valid: Default::default(),
            beat_tlast: Default::default(),
            window_is_cont: many(N + 5),
            window_next_fits: many(N + 4),
            window_length: many(N + 4),
            unused_oldest_cont: Default::default(),
            window_wide_free: many(N + 5),
            complete1: many(N),
            complete2: many(N),
            complete3: many(N),
            complete4: many(N),
            complete5: many(N),
            open1: many(N),
            open2: many(N),
            open3: many(N),
            open4: many(N),
            next_continues: many(N),
            next_is_continuing: many(N),
            own_present: many(N),
            own_lead: many(N),
            own_outside: many(N),
            own_malformed: many(N),
            own_free: many(N),
            gathered: many(N),
            partial_tlast: Default::default(),
            partial_valid: Default::default(),
            complete: many(N),
            still_open: many(N),
            cut_short: many(N),
            alone: many(N),
            registered_slot_valid: many(N),
            registered_slot_tuser: many(N),
            registered_slot_value: many(N),
            registered_beat_valid: Default::default(),
            registered_beat_tlast: Default::default(),
            tuser_truncated: error_tuser(ErrorKind::Truncated),
        }
    }
}

impl<const N: usize> Logic for LaneDecoder<N> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(
            self,
            clock,
            partial_tlast,
            partial_valid,
            registered_beat_valid,
            registered_beat_tlast
        );
        for k in 0..N {
            self.complete1[k].clock.next = self.clock.val();
            self.complete2[k].clock.next = self.clock.val();
            self.complete3[k].clock.next = self.clock.val();
            self.complete4[k].clock.next = self.clock.val();
            self.complete5[k].clock.next = self.clock.val();
            self.open1[k].clock.next = self.clock.val();
            self.open2[k].clock.next = self.clock.val();
            self.open3[k].clock.next = self.clock.val();
            self.open4[k].clock.next = self.clock.val();
            self.next_continues[k].clock.next = self.clock.val();
            self.next_is_continuing[k].clock.next = self.clock.val();
            self.own_present[k].clock.next = self.clock.val();
            self.own_lead[k].clock.next = self.clock.val();
            self.own_outside[k].clock.next = self.clock.val();
            self.own_malformed[k].clock.next = self.clock.val();
            self.own_free[k].clock.next = self.clock.val();
            self.gathered[k].clock.next = self.clock.val();
            self.registered_slot_valid[k].clock.next = self.clock.val();
            self.registered_slot_tuser[k].clock.next = self.clock.val();
            self.registered_slot_value[k].clock.next = self.clock.val();
            self.slot_valid[k].next = self.registered_slot_valid[k].q.val();
            self.slot_tuser[k].next = self.registered_slot_tuser[k].q.val();
            self.slot_value[k].next = self.registered_slot_value[k].q.val();
        }
        self.beat_valid.next = self.registered_beat_valid.q.val();
        self.beat_tlast.next = self.registered_beat_tlast.q.val();

        // The window.
        for t in 0..5 {
            self.window_is_cont[t].next = self.prev_is_cont[t].val();
            self.window_next_fits[t].next = self.prev_next_fits[t].val();
            self.window_length[t].next = self.prev_length[t].val();
            self.window_wide_free[t].byte.next = self.prev_free[t].val();
        }
        for k in 0..N {
            self.window_is_cont[k + 5].next = self.lane_is_cont[k].val();
            self.window_wide_free[k + 5].byte.next = self.lane_free[k].val();
        }
        for k in 0..(N - 1) {
            self.window_next_fits[k + 5].next = self.lane_next_fits[k].val();
            self.window_length[k + 5].next = self.lane_length[k].val();
        }
        self.unused_oldest_cont.next = self.window_is_cont[0].val() | self.window_is_cont[1].val();

        // 4a: what each lane's byte is, from the five before it: a
        // first octet `d` places back whose next byte fits it, and
        // continuing octets after that.
        for k in 0..N {
            self.complete1[k].d.next =
                (self.window_length[k + 4].val() == 2) & self.window_next_fits[k + 4].val();
            self.open1[k].d.next =
                (self.window_length[k + 4].val() > 2) & self.window_next_fits[k + 4].val();
            self.complete2[k].d.next = (self.window_length[k + 3].val() == 3)
                & self.window_next_fits[k + 3].val()
                & self.window_is_cont[k + 5].val();
            self.open2[k].d.next = (self.window_length[k + 3].val() > 3)
                & self.window_next_fits[k + 3].val()
                & self.window_is_cont[k + 5].val();
            self.complete3[k].d.next = (self.window_length[k + 2].val() == 4)
                & self.window_next_fits[k + 2].val()
                & self.window_is_cont[k + 4].val()
                & self.window_is_cont[k + 5].val();
            self.open3[k].d.next = (self.window_length[k + 2].val() > 4)
                & self.window_next_fits[k + 2].val()
                & self.window_is_cont[k + 4].val()
                & self.window_is_cont[k + 5].val();
            self.complete4[k].d.next = (self.window_length[k + 1].val() == 5)
                & self.window_next_fits[k + 1].val()
                & self.window_is_cont[k + 3].val()
                & self.window_is_cont[k + 4].val()
                & self.window_is_cont[k + 5].val();
            self.open4[k].d.next = (self.window_length[k + 1].val() > 5)
                & self.window_next_fits[k + 1].val()
                & self.window_is_cont[k + 3].val()
                & self.window_is_cont[k + 4].val()
                & self.window_is_cont[k + 5].val();
            // Six octets is the longest sequence: none is open five after
            // its first octet.
            self.complete5[k].d.next = (self.window_length[k].val() == 6)
                & self.window_next_fits[k].val()
                & self.window_is_cont[k + 2].val()
                & self.window_is_cont[k + 3].val()
                & self.window_is_cont[k + 4].val()
                & self.window_is_cont[k + 5].val();
            // A character's value is its free bits (Annex R Note 5): those
            // of the lane and of the octets before it, six bits each.
            self.gathered[k].d.next = self.window_wide_free[k + 5].word.val()
                | (self.window_wide_free[k + 4].word.val() << 6)
                | (self.window_wide_free[k + 3].word.val() << 12)
                | (self.window_wide_free[k + 2].word.val() << 18)
                | (self.window_wide_free[k + 1].word.val() << 24)
                | (self.window_wide_free[k].word.val() << 30);
            self.own_present[k].d.next = self.lane_present[k].val();
            self.own_lead[k].d.next = self.lane_length[k].val() > 1;
            self.own_outside[k].d.next = self.lane_outside[k].val();
            self.own_malformed[k].d.next = self.lane_malformed[k].val();
            self.own_free[k].d.next = self.window_wide_free[k + 5].word.val();
            // A first octet checks its second octet's range; any later
            // octet of the sequence may be any continuing octet.
            self.next_is_continuing[k].d.next = self.lane_next_cont[k].val();
            self.next_continues[k].d.next = self.lane_next_cont[k].val()
                & ((self.lane_length[k].val() < 2) | self.lane_next_fits[k].val());
        }
        self.partial_tlast.d.next = self.window_tlast.val();
        self.partial_valid.d.next = self.window_valid.val() & !self.rst.val();

        // 4b: the slots.
        for k in 0..N {
            self.complete[k].next = self.complete1[k].q.val()
                | self.complete2[k].q.val()
                | self.complete3[k].q.val()
                | self.complete4[k].q.val()
                | self.complete5[k].q.val();
            self.still_open[k].next = self.own_lead[k].q.val()
                | self.open1[k].q.val()
                | self.open2[k].q.val()
                | self.open3[k].q.val()
                | self.open4[k].q.val();
            self.cut_short[k].next = self.still_open[k].val() & !self.next_continues[k].q.val();
            // A first octet is never malformed, so a byte in a sequence
            // still open is one that a first octet absorbed.
            self.alone[k].next = self.own_malformed[k].q.val().any()
                & !self.complete[k].val()
                & !self.still_open[k].val();
            // Every present byte is one of: ASCII, the end of a complete
            // character, a unit on its own, or in a sequence still open;
            // so a lane ends a unit unless its sequence is open and the
            // next byte continues it. (Written so, the decision reads 8
            // flops, two LUT levels; as the OR of the four cases it read
            // 19, and was the slowest path into 4b.)
            self.registered_slot_valid[k].d.next = self.partial_valid.q.val()
                & self.own_present[k].q.val()
                & !(self.still_open[k].val() & self.next_continues[k].q.val());
            self.registered_slot_tuser[k].d.next = 0.into();
            if self.alone[k].val() {
                self.registered_slot_tuser[k].d.next = self.own_malformed[k].q.val();
            }
            if self.cut_short[k].val() {
                self.registered_slot_tuser[k].d.next = self.tuser_truncated.val();
                // A continuing octet right after a first octet, outside its
                // `second_allowed`, names the rule it broke.
                if self.own_lead[k].q.val() & self.next_is_continuing[k].q.val() {
                    self.registered_slot_tuser[k].d.next = self.own_outside[k].q.val();
                }
            }
            // The value keeps the gathered bits of the sequence's octets:
            // 11, 16, 21, 26 or 31 of them for 2 to 6 octets.
            self.registered_slot_value[k].d.next = self.own_free[k].q.val();
            if self.complete1[k].q.val() {
                self.registered_slot_value[k].d.next = self.gathered[k].q.val() & 0x7FF;
            }
            if self.complete2[k].q.val() {
                self.registered_slot_value[k].d.next = self.gathered[k].q.val() & 0xFFFF;
            }
            if self.complete3[k].q.val() {
                self.registered_slot_value[k].d.next = self.gathered[k].q.val() & 0x1F_FFFF;
            }
            if self.complete4[k].q.val() {
                self.registered_slot_value[k].d.next = self.gathered[k].q.val() & 0x3FF_FFFF;
            }
            if self.complete5[k].q.val() {
                self.registered_slot_value[k].d.next = self.gathered[k].q.val() & 0x7FFF_FFFF;
            }
        }
        self.registered_beat_valid.d.next = self.partial_valid.q.val() & !self.rst.val();
        self.registered_beat_tlast.d.next = self.partial_tlast.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_decoder_is_synthesizable() {
        crate::assert_synthesizable(LaneDecoder::<4>::default());
        crate::assert_synthesizable(LaneDecoder::<2>::default());
    }
}
