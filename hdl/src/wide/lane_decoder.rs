//! # `LaneDecoder`: stages 2 and 3 of the wide decoder, every lane at once
//!
//! Stage 2 registers the [`OctetTable`] and [`LeadTable`] rows of each of
//! the dense bytes that
//! [`ByteLanes`](crate::wide::byte_lanes::ByteLanes) holds. Stage 3 decides,
//! for every lane at once, which unit ends at it, and registers one *slot*
//! per lane.
//!
//! ## How: no state machine, a window
//! A sequence is at most six octets long, so what a byte is follows from the
//! five bytes before it. The *window* is those five (`history_*`, the last
//! bytes of the message that left this stage) followed by the beat's lanes.
//! For each lane, at each distance `d` = 1..5 (`from_leadd`): is the byte the
//! `d`-th octet after a first octet that takes it? That is, every octet
//! between is a continuing octet (so the first octet is the nearest one
//! that is not), the sequence is longer than `d`, and its second octet is in
//! the first octet's `second_allowed`. A byte that no first octet takes and
//! cannot start a sequence is a unit on its own (`malformed_tuser`); every
//! byte that can start one does (maximal subparts, Unicode §3.9: the octet
//! that breaks a sequence starts the next unit).
//!
//! ## Which lane carries a unit: the lane of its last byte
//! A unit is in the slot of its last byte. A character's last byte is known
//! from the window. A sequence that is cut short ends at its last byte too,
//! but that is known only from the *next* byte: the next lane, or, for the
//! last lane, the first byte of the beat behind (`next_*` from stage 1), or
//! the end of the message. So each lane carries at most one unit, and a beat
//! of k bytes at most k units: **no beat ever needs more than N slots, and
//! no carry is needed**, although the beat that *breaks* a sequence may
//! complete N + 1 units (the broken one, then N words): the broken one
//! travels in the beat before, with its last byte.
//!
//! The price: when the beat's last byte may leave a sequence open (it is a
//! first or a continuing octet) and no byte is behind it yet, the beat waits
//! here (`waiting`) until a byte or the end of the message comes. With bytes
//! arriving on every cycle it never waits. (Waiting on "may" rather than
//! "does" keeps the window's logic off the enables of every register.)
//!
//! ## Parameters
//! * `N`: the lanes.
//! * The [`Profile`], through the [`OctetTable`]s.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `advance` | in | 1 | the slots move on this cycle (the output stage takes them) |
//! | `byte[i]`, `count`, `tlast`, `valid` | in | 8, 8, 1, 1 | stage 1's registers |
//! | `taken` | out | 1 | stage 1's beat is taken this cycle |
//! | `slot_valid[i]`, `slot_tuser[i]`, `slot_value[i]` | out | 1, 4, 32 | registered: the unit whose last byte is lane `i`; `slot_value` is meaningless for an error |
//! | `beat_valid`, `beat_tlast` | out | 1 | registered: the slots hold a beat (it is sent if it has a unit or `tlast`) |
//!
//! ## Latency
//! Two cycles after stage 1, with a byte behind every beat:
//!
//! ```text
//! clock          _/‾\_/‾\_/‾\_/‾\_
//! byte[0..1]      <C2 41><42 43>           N = 2
//! lane_length          <2  1 ><1  1 >
//! slot_valid                <1  1 ><1  1 >
//! slot_tuser                <7  0 ><0  0 >  C2 is cut short by 41: truncated
//! ```
//!
//! ## Invariants
//! * A slot holds at most one unit, so `beat_valid` slots never exceed N.
//! * `history_present` is all low after a beat with `tlast`: no state
//!   crosses a message boundary.
//! * A beat leaves stage 2 only with its last lane decided: `waiting`
//!   implies that stage 1 holds no byte and the message has not ended.

use rust_hdl::prelude::*;

use crate::lead_table::{error_tuser, LeadTable};
use crate::octet_table::OctetTable;
use crate::wide::zero_extend::ZeroExtend;
use utf8hdl_reference::{ErrorKind, Profile};

#[derive(LogicBlock)]
pub struct LaneDecoder<const N: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub advance: Signal<In, Bit>,
    pub byte: Vec<Signal<In, Bits<8>>>,
    pub present: Vec<Signal<In, Bit>>,
    pub tlast: Signal<In, Bit>,
    pub valid: Signal<In, Bit>,
    pub taken: Signal<Out, Bit>,
    pub slot_valid: Vec<Signal<Out, Bit>>,
    pub slot_tuser: Vec<Signal<Out, Bits<4>>>,
    pub slot_value: Vec<Signal<Out, Bits<32>>>,
    pub beat_valid: Signal<Out, Bit>,
    pub beat_tlast: Signal<Out, Bit>,
    tables: Vec<OctetTable>,
    leads: Vec<LeadTable>,
    /// Stage 2: the beat's lanes, as their tables say (`lane_present`:
    /// the lane holds a byte).
    lane_present: Vec<DFF<Bit>>,
    lane_cont: Vec<DFF<Bits<5>>>,
    lane_length: Vec<DFF<Bits<3>>>,
    lane_allowed: Vec<DFF<Bits<5>>>,
    lane_outside: Vec<DFF<Bits<4>>>,
    lane_malformed: Vec<DFF<Bits<4>>>,
    lane_free: Vec<DFF<Bits<8>>>,
    pub beat_in_stage: DFF<Bit>,
    lane_tlast: DFF<Bit>,
    /// The last five bytes of the message before the beat, oldest first.
    history_present: Vec<DFF<Bit>>,
    history_cont: Vec<DFF<Bits<5>>>,
    history_length: Vec<DFF<Bits<3>>>,
    history_allowed: Vec<DFF<Bits<5>>>,
    history_outside: Vec<DFF<Bits<4>>>,
    history_malformed: Vec<DFF<Bits<4>>>,
    history_free: Vec<DFF<Bits<8>>>,
    /// The window: `history_*` then `lane_*`.
    window_present: Vec<Signal<Local, Bit>>,
    window_cont: Vec<Signal<Local, Bits<5>>>,
    window_length: Vec<Signal<Local, Bits<3>>>,
    window_allowed: Vec<Signal<Local, Bits<5>>>,
    window_outside: Vec<Signal<Local, Bits<4>>>,
    window_malformed: Vec<Signal<Local, Bits<4>>>,
    /// The free bits, zero-extended, for gathering.
    window_wide_free: Vec<ZeroExtend>,
    from_lead1: Vec<Signal<Local, Bit>>,
    from_lead2: Vec<Signal<Local, Bit>>,
    from_lead3: Vec<Signal<Local, Bit>>,
    from_lead4: Vec<Signal<Local, Bit>>,
    from_lead5: Vec<Signal<Local, Bit>>,
    /// A first octet takes the lane's byte.
    absorbed: Vec<Signal<Local, Bit>>,
    /// The lane's byte ends a character (and `value_mask` keeps its bits).
    complete: Vec<Signal<Local, Bit>>,
    value_mask: Vec<Signal<Local, Bits<32>>>,
    /// After the lane's byte, a sequence still needs octets.
    still_open: Vec<Signal<Local, Bit>>,
    /// What comes after the lane: a byte with these `continuation` ranges,
    /// or the end of the message.
    next_cont: Vec<Signal<Local, Bits<5>>>,
    next_is_end: Vec<Signal<Local, Bit>>,
    /// Whether the next byte stays in the lane's open sequence.
    next_continues: Vec<Signal<Local, Bit>>,
    /// The beat's last byte may leave a sequence open: it is a first
    /// octet or a continuing octet. Registered with the beat, so that
    /// whether the beat waits is two gates from flops, not the window's
    /// logic (it drives the enable of every register here).
    tail_may_be_open: DFF<Bit>,
    /// Lane `k` holds the last byte of the beat in stage 2 (`last_lane`),
    /// of the beat in stage 1 (`last_incoming`).
    last_lane: Vec<Signal<Local, Bit>>,
    last_incoming: Vec<Signal<Local, Bit>>,
    /// The beat cannot leave yet: see the module documentation.
    pub waiting: Signal<Local, Bit>,
    go: Signal<Local, Bit>,
    /// Stage 1 holds an empty beat with `tlast`: the end of the message,
    /// which ends the open sequence of this beat and is then dropped.
    end_behind: Signal<Local, Bit>,
    merge_end: Signal<Local, Bit>,
    next_slot_valid: Vec<Signal<Local, Bit>>,
    registered_slot_valid: Vec<DFF<Bit>>,
    registered_slot_tuser: Vec<DFF<Bits<4>>>,
    registered_slot_value: Vec<DFF<Bits<32>>>,
    registered_beat_valid: DFF<Bit>,
    registered_beat_tlast: DFF<Bit>,
    tuser_truncated: Constant<Bits<4>>,
}

impl<const N: usize> LaneDecoder<N> {
    pub fn new(profile: Profile) -> Self {
        fn many<T: Default>(n: usize) -> Vec<T> {
            (0..n).map(|_| T::default()).collect()
        }
        let window = N + 5;
        LaneDecoder {
            clock: Default::default(),
            rst: Default::default(),
            advance: Default::default(),
            byte: many(N),
            present: many(N),
            tlast: Default::default(),
            valid: Default::default(),
            taken: Default::default(),
            slot_valid: many(N),
            slot_tuser: many(N),
            slot_value: many(N),
            beat_valid: Default::default(),
            beat_tlast: Default::default(),
            tables: (0..N).map(|_| OctetTable::new(profile)).collect(),
            leads: many(N),
            lane_present: many(N),
            lane_cont: many(N),
            lane_length: many(N),
            lane_allowed: many(N),
            lane_outside: many(N),
            lane_malformed: many(N),
            lane_free: many(N),
            beat_in_stage: Default::default(),
            lane_tlast: Default::default(),
            history_present: many(5),
            history_cont: many(5),
            history_length: many(5),
            history_allowed: many(5),
            history_outside: many(5),
            history_malformed: many(5),
            history_free: many(5),
            window_present: many(window),
            window_cont: many(window),
            window_length: many(window),
            window_allowed: many(window),
            window_outside: many(window),
            window_malformed: many(window),
            window_wide_free: many(window),
            from_lead1: many(N),
            from_lead2: many(N),
            from_lead3: many(N),
            from_lead4: many(N),
            from_lead5: many(N),
            absorbed: many(N),
            complete: many(N),
            value_mask: many(N),
            still_open: many(N),
            next_cont: many(N),
            next_is_end: many(N),
            next_continues: many(N),
            tail_may_be_open: Default::default(),
            waiting: Default::default(),
            last_lane: many(N),
            last_incoming: many(N),
            go: Default::default(),
            end_behind: Default::default(),
            merge_end: Default::default(),
            next_slot_valid: many(N),
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
        dff_setup!(
            self,
            clock,
            beat_in_stage,
            lane_tlast,
            tail_may_be_open,
            registered_beat_valid,
            registered_beat_tlast
        );
        for k in 0..N {
            self.lane_present[k].clock.next = self.clock.val();
            self.lane_present[k].d.next = self.lane_present[k].q.val();
            self.lane_cont[k].clock.next = self.clock.val();
            self.lane_cont[k].d.next = self.lane_cont[k].q.val();
            self.lane_length[k].clock.next = self.clock.val();
            self.lane_length[k].d.next = self.lane_length[k].q.val();
            self.lane_allowed[k].clock.next = self.clock.val();
            self.lane_allowed[k].d.next = self.lane_allowed[k].q.val();
            self.lane_outside[k].clock.next = self.clock.val();
            self.lane_outside[k].d.next = self.lane_outside[k].q.val();
            self.lane_malformed[k].clock.next = self.clock.val();
            self.lane_malformed[k].d.next = self.lane_malformed[k].q.val();
            self.lane_free[k].clock.next = self.clock.val();
            self.lane_free[k].d.next = self.lane_free[k].q.val();
            self.registered_slot_valid[k].clock.next = self.clock.val();
            self.registered_slot_valid[k].d.next = self.registered_slot_valid[k].q.val();
            self.registered_slot_tuser[k].clock.next = self.clock.val();
            self.registered_slot_tuser[k].d.next = self.registered_slot_tuser[k].q.val();
            self.registered_slot_value[k].clock.next = self.clock.val();
            self.registered_slot_value[k].d.next = self.registered_slot_value[k].q.val();
            self.slot_valid[k].next = self.registered_slot_valid[k].q.val();
            self.slot_tuser[k].next = self.registered_slot_tuser[k].q.val();
            self.slot_value[k].next = self.registered_slot_value[k].q.val();
            self.tables[k].tdata.next = self.byte[k].val();
            self.leads[k].byte_class.next = self.tables[k].byte_class.val();
        }
        for t in 0..5 {
            self.history_present[t].clock.next = self.clock.val();
            self.history_present[t].d.next = self.history_present[t].q.val();
            self.history_cont[t].clock.next = self.clock.val();
            self.history_cont[t].d.next = self.history_cont[t].q.val();
            self.history_length[t].clock.next = self.clock.val();
            self.history_length[t].d.next = self.history_length[t].q.val();
            self.history_allowed[t].clock.next = self.clock.val();
            self.history_allowed[t].d.next = self.history_allowed[t].q.val();
            self.history_outside[t].clock.next = self.clock.val();
            self.history_outside[t].d.next = self.history_outside[t].q.val();
            self.history_malformed[t].clock.next = self.clock.val();
            self.history_malformed[t].d.next = self.history_malformed[t].q.val();
            self.history_free[t].clock.next = self.clock.val();
            self.history_free[t].d.next = self.history_free[t].q.val();
        }
        self.beat_valid.next = self.registered_beat_valid.q.val();
        self.beat_tlast.next = self.registered_beat_tlast.q.val();

        // The window.
        for t in 0..5 {
            self.window_present[t].next = self.history_present[t].q.val();
            self.window_cont[t].next = self.history_cont[t].q.val();
            self.window_length[t].next = self.history_length[t].q.val();
            self.window_allowed[t].next = self.history_allowed[t].q.val();
            self.window_outside[t].next = self.history_outside[t].q.val();
            self.window_malformed[t].next = self.history_malformed[t].q.val();
            self.window_wide_free[t].byte.next = self.history_free[t].q.val();
        }
        for k in 0..N {
            self.window_present[k + 5].next = self.lane_present[k].q.val();
            self.window_cont[k + 5].next = self.lane_cont[k].q.val();
            self.window_length[k + 5].next = self.lane_length[k].q.val();
            self.window_allowed[k + 5].next = self.lane_allowed[k].q.val();
            self.window_outside[k + 5].next = self.lane_outside[k].q.val();
            self.window_malformed[k + 5].next = self.lane_malformed[k].q.val();
            self.window_wide_free[k + 5].byte.next = self.lane_free[k].q.val();
        }
        // What each lane's byte is, from the five before it.
        for k in 0..N {
            self.from_lead1[k].next = (self.window_length[k + 4].val() > 1)
                & self.window_cont[k + 5].val().any()
                & (self.window_cont[k + 5].val() & self.window_allowed[k + 4].val()).any();
            self.from_lead2[k].next = (self.window_length[k + 3].val() > 2)
                & self.window_cont[k + 5].val().any()
                & self.window_cont[k + 4].val().any()
                & (self.window_cont[k + 4].val() & self.window_allowed[k + 3].val()).any();
            self.from_lead3[k].next = (self.window_length[k + 2].val() > 3)
                & self.window_cont[k + 5].val().any()
                & self.window_cont[k + 4].val().any()
                & self.window_cont[k + 3].val().any()
                & (self.window_cont[k + 3].val() & self.window_allowed[k + 2].val()).any();
            self.from_lead4[k].next = (self.window_length[k + 1].val() > 4)
                & self.window_cont[k + 5].val().any()
                & self.window_cont[k + 4].val().any()
                & self.window_cont[k + 3].val().any()
                & self.window_cont[k + 2].val().any()
                & (self.window_cont[k + 2].val() & self.window_allowed[k + 1].val()).any();
            self.from_lead5[k].next = (self.window_length[k].val() > 5)
                & self.window_cont[k + 5].val().any()
                & self.window_cont[k + 4].val().any()
                & self.window_cont[k + 3].val().any()
                & self.window_cont[k + 2].val().any()
                & self.window_cont[k + 1].val().any()
                & (self.window_cont[k + 1].val() & self.window_allowed[k].val()).any();
            self.absorbed[k].next = self.from_lead1[k].val()
                | self.from_lead2[k].val()
                | self.from_lead3[k].val()
                | self.from_lead4[k].val()
                | self.from_lead5[k].val();
            self.complete[k].next = false;
            self.value_mask[k].next = 0.into();
            if self.from_lead1[k].val() & (self.window_length[k + 4].val() == 2) {
                self.complete[k].next = true;
                self.value_mask[k].next = 0x7FF.into();
            }
            if self.from_lead2[k].val() & (self.window_length[k + 3].val() == 3) {
                self.complete[k].next = true;
                self.value_mask[k].next = 0xFFFF.into();
            }
            if self.from_lead3[k].val() & (self.window_length[k + 2].val() == 4) {
                self.complete[k].next = true;
                self.value_mask[k].next = 0x1F_FFFF.into();
            }
            if self.from_lead4[k].val() & (self.window_length[k + 1].val() == 5) {
                self.complete[k].next = true;
                self.value_mask[k].next = 0x3FF_FFFF.into();
            }
            if self.from_lead5[k].val() & (self.window_length[k].val() == 6) {
                self.complete[k].next = true;
                self.value_mask[k].next = 0x7FFF_FFFF.into();
            }
            self.still_open[k].next = (self.window_length[k + 5].val() > 1)
                | (self.from_lead1[k].val() & (self.window_length[k + 4].val() > 2))
                | (self.from_lead2[k].val() & (self.window_length[k + 3].val() > 3))
                | (self.from_lead3[k].val() & (self.window_length[k + 2].val() > 4))
                | (self.from_lead4[k].val() & (self.window_length[k + 1].val() > 5))
                | (self.from_lead5[k].val() & (self.window_length[k].val() > 6));
        }

        // What comes after each lane.
        self.end_behind.next = self.valid.val() & !self.present[0].val() & self.tlast.val();
        for k in 0..N {
            self.next_cont[k].next = self.tables[0].continuation.val();
            self.next_is_end[k].next = self.lane_tlast.q.val() | self.end_behind.val();
        }
        for k in 0..(N - 1) {
            if self.lane_present[k + 1].q.val() {
                self.next_cont[k].next = self.lane_cont[k + 1].q.val();
                self.next_is_end[k].next = false;
            }
        }
        for k in 0..N {
            // A first octet checks its second octet's range; any later
            // octet of the sequence may be any continuing octet.
            self.next_continues[k].next = !self.next_is_end[k].val()
                & self.next_cont[k].val().any()
                & ((self.window_length[k + 5].val() < 2)
                    | (self.next_cont[k].val() & self.window_allowed[k + 5].val()).any());
        }
        for k in 0..(N - 1) {
            self.last_lane[k].next =
                self.lane_present[k].q.val() & !self.lane_present[k + 1].q.val();
            self.last_incoming[k].next = self.present[k].val() & !self.present[k + 1].val();
        }
        for k in (N - 1)..N {
            self.last_lane[k].next = self.lane_present[k].q.val();
            self.last_incoming[k].next = self.present[k].val();
        }
        // Only the last lane can wait for what comes next; it waits when
        // it may, which costs nothing at line rate (stage 1 is never empty).
        self.waiting.next =
            self.tail_may_be_open.q.val() & !self.lane_tlast.q.val() & !self.valid.val();
        self.go.next = self.beat_in_stage.q.val() & !self.waiting.val() & self.advance.val();
        // The end of the message behind a beat of the same message: that
        // beat ends the message's last unit (or its open sequence does), so
        // it takes the `tlast`.
        self.merge_end.next = self.go.val() & !self.lane_tlast.q.val() & self.end_behind.val();

        // The slots.
        for k in 0..N {
            self.next_slot_valid[k].next = false;
            if self.lane_present[k].q.val() {
                if (self.window_length[k + 5].val() == 1) | self.complete[k].val() {
                    self.next_slot_valid[k].next = true;
                }
                if self.window_malformed[k + 5].val().any() & !self.absorbed[k].val() {
                    self.next_slot_valid[k].next = true;
                }
                if self.still_open[k].val() & !self.next_continues[k].val() {
                    self.next_slot_valid[k].next = true;
                }
            }
        }
        if self.advance.val() {
            self.registered_beat_valid.d.next = self.go.val();
            self.registered_beat_tlast.d.next = self.lane_tlast.q.val() | self.merge_end.val();
            for k in 0..N {
                self.registered_slot_valid[k].d.next =
                    self.go.val() & self.next_slot_valid[k].val();
                self.registered_slot_tuser[k].d.next = 0.into();
                // A character's value is its free bits (Annex R Note 5):
                // those of the lane and of the octets before it, six bits
                // each, kept as far as the first octet's.
                self.registered_slot_value[k].d.next = self.window_wide_free[k + 5].word.val();
                if self.complete[k].val() {
                    self.registered_slot_value[k].d.next =
                        (self.window_wide_free[k + 5].word.val()
                            | (self.window_wide_free[k + 4].word.val() << 6)
                            | (self.window_wide_free[k + 3].word.val() << 12)
                            | (self.window_wide_free[k + 2].word.val() << 18)
                            | (self.window_wide_free[k + 1].word.val() << 24)
                            | (self.window_wide_free[k].word.val() << 30))
                            & self.value_mask[k].val();
                }
                if self.window_malformed[k + 5].val().any() & !self.absorbed[k].val() {
                    self.registered_slot_tuser[k].d.next = self.window_malformed[k + 5].val();
                }
                if self.still_open[k].val() & !self.next_continues[k].val() {
                    self.registered_slot_tuser[k].d.next = self.tuser_truncated.val();
                    // A continuing octet right after a first octet, outside
                    // its `second_allowed`, names the rule it broke.
                    if (self.window_length[k + 5].val() > 1)
                        & !self.next_is_end[k].val()
                        & self.next_cont[k].val().any()
                    {
                        self.registered_slot_tuser[k].d.next = self.window_outside[k + 5].val();
                    }
                }
            }
        }

        // Stage 2 and the history.
        self.taken.next = (!self.beat_in_stage.q.val() | self.go.val()) & self.valid.val();
        if self.go.val() {
            self.beat_in_stage.d.next = false;
            // The history becomes the window's five places before the
            // next beat: from c, the number of bytes of this one.
            if !self.lane_present[0].q.val() {
                for t in 0..5 {
                    self.history_present[t].d.next = self.window_present[t].val();
                    self.history_cont[t].d.next = self.window_cont[t].val();
                    self.history_length[t].d.next = self.window_length[t].val();
                    self.history_allowed[t].d.next = self.window_allowed[t].val();
                    self.history_outside[t].d.next = self.window_outside[t].val();
                    self.history_malformed[t].d.next = self.window_malformed[t].val();
                    self.history_free[t].d.next =
                        self.window_wide_free[t].word.val().get_bits::<8>(0);
                }
            }
            for c in 1..(N + 1) {
                if self.last_lane[c - 1].val() {
                    for t in 0..5 {
                        self.history_present[t].d.next = self.window_present[c + t].val();
                        self.history_cont[t].d.next = self.window_cont[c + t].val();
                        self.history_length[t].d.next = self.window_length[c + t].val();
                        self.history_allowed[t].d.next = self.window_allowed[c + t].val();
                        self.history_outside[t].d.next = self.window_outside[c + t].val();
                        self.history_malformed[t].d.next = self.window_malformed[c + t].val();
                        self.history_free[t].d.next =
                            self.window_wide_free[c + t].word.val().get_bits::<8>(0);
                    }
                }
            }
            if self.lane_tlast.q.val() | self.merge_end.val() {
                for t in 0..5 {
                    self.history_present[t].d.next = false;
                    self.history_length[t].d.next = 0.into();
                }
            }
        }
        if (!self.beat_in_stage.q.val() | self.go.val()) & self.valid.val() & !self.merge_end.val()
        {
            self.beat_in_stage.d.next = true;
            self.lane_tlast.d.next = self.tlast.val();
            self.tail_may_be_open.d.next = false;
            for c in 1..(N + 1) {
                if self.last_incoming[c - 1].val() {
                    self.tail_may_be_open.d.next = (self.leads[c - 1].lead_length.val() > 1)
                        | self.tables[c - 1].continuation.val().any();
                }
            }
            for k in 0..N {
                self.lane_present[k].d.next = self.present[k].val();
                self.lane_cont[k].d.next = self.tables[k].continuation.val();
                self.lane_length[k].d.next = self.leads[k].lead_length.val();
                self.lane_allowed[k].d.next = self.leads[k].second_allowed.val();
                self.lane_outside[k].d.next = self.leads[k].outside_tuser.val();
                self.lane_malformed[k].d.next = self.leads[k].malformed_tuser.val();
                self.lane_free[k].d.next = self.tables[k].free_bits.val();
            }
        }
        if self.rst.val() {
            self.beat_in_stage.d.next = false;
            self.registered_beat_valid.d.next = false;
            for t in 0..5 {
                self.history_present[t].d.next = false;
                self.history_length[t].d.next = 0.into();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_decoder_is_synthesizable() {
        for profile in Profile::ALL {
            crate::assert_synthesizable(LaneDecoder::<4>::new(profile));
        }
    }
}
