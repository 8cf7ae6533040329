//! # `LaneTables`: stage 3 of the wide decoder, each byte's row and the window
//!
//! Its first register, 3a, holds the [`OctetTable`] class of each byte of
//! the beat that leaves the
//! [`LookaheadHold`](crate::utf8_decoder_wide::stages::LookaheadHold), of
//! the byte behind it (`next_*`), and of the beat's last five bytes (its
//! tail). The table reads each byte with bit 7 set, and bit 7 is registered
//! beside the class (`class_ascii`): the table's first choice, ASCII or
//! not, has a constant leg, which yosys makes the class flops' synchronous
//! reset, so that a lane's class flops would need an `LSR` net of their own
//! and nextpnr could not pack them with the table's last LUTs (at N = 16 a
//! byte → the table → a class flop is then a critical path, with 3 ns on
//! its last net). The second, 3b, holds the classes again, with no logic:
//! it is there for the distance. At N = 16 a lane's table and its
//! [`LeadTable`] rows sit apart on the device, and with the rows read
//! straight from the class registers nextpnr places each class flop beside
//! its rows: with one register, the slowest path of every seed is a byte →
//! the [`OctetTable`] (3 LUT levels) → a class flop, its last net across
//! the device (a register before the tables instead moves the tables beside
//! it and leaves that net where it is). The third, 3c, holds the
//! [`LeadTable`] rows, and only there, at the table's input, does an ASCII
//! byte's class become `Ascii`: the rows are ANDed with masks (below), so
//! the choice is LUT logic. (Made `Ascii` in 3b, the 3b class flops would
//! take `class_ascii` as their `LSR`, and at N = 16 a 3b class flop → its
//! rows becomes the path, with 3.8 ns on its first net.) The two tables are
//! two registers apart because together they are four LUT levels from a
//! byte, each byte's bits fanning out to some twenty LUTs, which in one
//! cycle is the wide core's slowest path on ECP5 (1.5 ns of logic and 5.3
//! ns of routing at N = 8). The fourth, 3d, holds the *window*: for the
//! five bytes of the message before the beat (`prev_*`) and for the beat's
//! bytes, what a decision reads of each: whether it is a continuing octet,
//! whether the byte after it is one (`next_cont`) and falls in its
//! second-octet ranges (`next_fits`), its length as a first octet, its free
//! bits. From the window alone,
//! [`LaneDecoder`](crate::utf8_decoder_wide::stages::LaneDecoder) decides
//! every lane. (3d reduces each byte's two five-bit ranges to these two
//! bits, so that no decision reads more than eight: with the ranges, the
//! longest ones read 33 bits, three LUT levels, a critical path at N = 16.)
//!
//! ## The one loop: the history
//! The five bytes before a beat are the last five of (the five before the
//! beat ahead, then that beat's k bytes): for place t, place t + k of the
//! history if t + k < 5, else place t of the beat ahead's tail. The
//! history register is the only state that depends on itself, and its
//! logic is a choice among six, whatever N. A beat with `tlast` empties it
//! (length 0: no first octet before the next message), so no state crosses
//! a message boundary.
//!
//! The history keeps, of each byte, only what a byte after it reads: its
//! continuation range, the length and second-octet ranges of a first
//! octet, and its free bits.
//!
//! ## Parameters
//! * `N`: the lanes.
//! * The [`Profile`], through the [`OctetTable`]s.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `byte[i]`, `present[i]`, `tail[t]`, `tlast`, `valid`, `next_byte`, `next_is_end` | in | | the beat leaving the [`LookaheadHold`](crate::utf8_decoder_wide::stages::LookaheadHold) |
//! | `lane_present[i]`, `lane_length[i]`, `lane_outside[i]`, `lane_malformed[i]`, `lane_free[i]` | out | 1, 3, 4, 4, 8 | registered: lane `i`'s rows (see [`OctetTable`], [`LeadTable`]) |
//! | `lane_is_cont[i]` | out | 1 | registered: lane `i` is a continuing octet |
//! | `lane_next_cont[i]`, `lane_next_fits[i]` | out | 1 | registered: the byte after lane `i` (the next lane, or after the beat's last byte the next beat's first) is a continuing octet of the same message; and is in lane `i`'s `second_allowed` ranges |
//! | `prev_is_cont[t]`, `prev_next_fits[t]`, `prev_length[t]`, `prev_free[t]` | out | 1, 1, 3, 8 | registered: the same, for the five bytes before the beat, oldest first (the byte after place 4 is lane 0); length 0 where there is none |
//! | `window_tlast`, `window_valid` | out | 1 | registered |
//!
//! ## Latency
//! Four cycles, on every cycle: 3a to 3d.
//!
//! ```text
//! clock         _/‾\_/‾\_/‾\_/‾\_/‾\_/‾\_
//! byte[0..1]    <E2 82><AC 41>                                  N = 2
//! class               <L3 C80><CA0 Ovl>                         (3a; 41 read as C1)
//! class_ascii         <0  0  ><0   1  >
//! moved_class               <L3 C80><CA0 Ovl>                   (3b)
//! moved_ascii               <0  0  ><0   1  >                   (Asc into the LeadTable)
//! lane_length                     <3  0 ><0  1 >                (3c)
//! prev_length                           <. . . 0 0><. . . 3 0>
//! ```
//!
//! ## Invariants
//! * After a beat with `tlast`, every `prev_length` is 0.

use rust_hdl::prelude::*;

use crate::utf8_decoder_wide::many;

use crate::utf8_decoder::classifier::ByteClass;
use crate::utf8_decoder::lead_table::LeadTable;
use crate::utf8_decoder::octet_table::OctetTable;
use utf8hdl_reference::Profile;

#[derive(LogicBlock)]
pub struct LaneTables<const N: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub byte: Vec<Signal<In, Bits<8>>>,
    pub present: Vec<Signal<In, Bit>>,
    pub tail: Vec<Signal<In, Bits<8>>>,
    pub tlast: Signal<In, Bit>,
    pub valid: Signal<In, Bit>,
    pub next_byte: Signal<In, Bits<8>>,
    pub next_is_end: Signal<In, Bit>,
    pub lane_present: Vec<Signal<Out, Bit>>,
    pub lane_is_cont: Vec<Signal<Out, Bit>>,
    pub lane_next_cont: Vec<Signal<Out, Bit>>,
    pub lane_next_fits: Vec<Signal<Out, Bit>>,
    pub lane_length: Vec<Signal<Out, Bits<3>>>,
    pub lane_outside: Vec<Signal<Out, Bits<4>>>,
    pub lane_malformed: Vec<Signal<Out, Bits<4>>>,
    pub lane_free: Vec<Signal<Out, Bits<8>>>,
    pub prev_is_cont: Vec<Signal<Out, Bit>>,
    pub prev_next_fits: Vec<Signal<Out, Bit>>,
    pub prev_length: Vec<Signal<Out, Bits<3>>>,
    pub prev_free: Vec<Signal<Out, Bits<8>>>,
    pub window_tlast: Signal<Out, Bit>,
    pub window_valid: Signal<Out, Bit>,
    tables: Vec<OctetTable>,
    leads: Vec<LeadTable>,
    next_table: OctetTable,
    tail_tables: Vec<OctetTable>,
    tail_leads: Vec<LeadTable>,
    /// The rows' parts that the neighbours of a beat do not need: the
    /// next byte's class and free bits, the tail's error kinds (Verilator's
    /// lint passes over a signal named `unused_*`; yosys removes them).
    unused_rows: Signal<Local, Bit>,
    /// Masks. A lane that is not present, and every row of a beat that is
    /// not valid, reads as nothing: no continuing octet, no first octet,
    /// no unit; so does the byte after a beat that ends its message
    /// (`next5`). The rows are ANDed with these masks rather than chosen
    /// by them, and that is why they exist: a row written as a choice
    /// among constants ends in a multiplexer with a constant leg, which
    /// yosys makes the flop's synchronous set/reset. On ECP5 such a flop
    /// holds a slice's `LSR` alone, and its set-up is longer: with the
    /// rows chosen, the `LSR` of `class_cont` is the critical path at
    /// N = 16, that of `row_malformed` at N = 8 (2 LUTs, 6.9 ns). ANDed,
    /// each row is LUT logic
    /// into D. `high*` (the byte is present and has bit 7 set: the
    /// table's continuation range and free bits hold), `ascii8` (present
    /// and ASCII: its own low seven bits are free), their `tail_*` twins
    /// (the beat is valid) and `next5` mask 3a; `class_*`
    /// mask 3c's rows and are decoded from 3b's `moved_present`
    /// and `moved_valid` (they keep their `class_*` names although they
    /// read 3b: the Verilog, and so the netlist whose Fmax the
    /// datasheet gives, spells them so).
    high5: Vec<Signal<Local, Bits<5>>>,
    high8: Vec<Signal<Local, Bits<8>>>,
    ascii8: Vec<Signal<Local, Bits<8>>>,
    tail_high5: Vec<Signal<Local, Bits<5>>>,
    tail_high8: Vec<Signal<Local, Bits<8>>>,
    tail_ascii8: Vec<Signal<Local, Bits<8>>>,
    class_present3: Vec<Signal<Local, Bits<3>>>,
    class_present4: Vec<Signal<Local, Bits<4>>>,
    class_present5: Vec<Signal<Local, Bits<5>>>,
    next5: Signal<Local, Bits<5>>,
    class_valid3: Signal<Local, Bits<3>>,
    class_valid5: Signal<Local, Bits<5>>,
    /// 3a: the classes, and what the lead table does not change.
    class_present: Vec<DFF<Bit>>,
    /// The byte is ASCII; `class_class` is then the class its table gave
    /// for it with bit 7 set, which 3c reads as `Ascii`.
    class_ascii: Vec<DFF<Bit>>,
    class_class: Vec<DFF<ByteClass>>,
    class_cont: Vec<DFF<Bits<5>>>,
    class_free: Vec<DFF<Bits<8>>>,
    /// The continuation range of the byte after the beat; 0 when the
    /// message ends there.
    class_next_cont: DFF<Bits<5>>,
    class_tail_ascii: Vec<DFF<Bit>>,
    class_tail_class: Vec<DFF<ByteClass>>,
    class_tail_cont: Vec<DFF<Bits<5>>>,
    class_tail_free: Vec<DFF<Bits<8>>>,
    class_tlast: DFF<Bit>,
    class_valid: DFF<Bit>,
    /// 3b: the classes again, and nothing else: the lanes' rows sit
    /// apart from their tables (see the datasheet).
    moved_present: Vec<DFF<Bit>>,
    moved_ascii: Vec<DFF<Bit>>,
    moved_class: Vec<DFF<ByteClass>>,
    moved_cont: Vec<DFF<Bits<5>>>,
    moved_free: Vec<DFF<Bits<8>>>,
    moved_next_cont: DFF<Bits<5>>,
    moved_tail_ascii: Vec<DFF<Bit>>,
    moved_tail_class: Vec<DFF<ByteClass>>,
    moved_tail_cont: Vec<DFF<Bits<5>>>,
    moved_tail_free: Vec<DFF<Bits<8>>>,
    moved_tlast: DFF<Bit>,
    moved_valid: DFF<Bit>,
    /// 3c: the rows.
    row_present: Vec<DFF<Bit>>,
    row_cont: Vec<DFF<Bits<5>>>,
    row_length: Vec<DFF<Bits<3>>>,
    row_allowed: Vec<DFF<Bits<5>>>,
    row_outside: Vec<DFF<Bits<4>>>,
    row_malformed: Vec<DFF<Bits<4>>>,
    row_free: Vec<DFF<Bits<8>>>,
    /// The continuation range of the byte after each lane: the next
    /// lane's, or, after the beat's last byte, the byte after the beat's.
    row_next_cont: Vec<DFF<Bits<5>>>,
    row_tail_cont: Vec<DFF<Bits<5>>>,
    row_tail_length: Vec<DFF<Bits<3>>>,
    row_tail_allowed: Vec<DFF<Bits<5>>>,
    row_tail_free: Vec<DFF<Bits<8>>>,
    /// The beat has exactly `c` bytes, for c < 5 (none set: five or more).
    row_count_is: Vec<DFF<Bit>>,
    row_tlast: DFF<Bit>,
    row_valid: DFF<Bit>,
    /// The history: the five bytes of the message before the beat in
    /// 3c, oldest first.
    history_cont: Vec<DFF<Bits<5>>>,
    history_length: Vec<DFF<Bits<3>>>,
    history_allowed: Vec<DFF<Bits<5>>>,
    history_free: Vec<DFF<Bits<8>>>,
    /// 3d: the window, as the facts the decisions read: whether each
    /// byte is a continuing octet, and whether the byte after it is one
    /// (`next_cont`) in its second-octet ranges (`next_fits`).
    window_present: Vec<DFF<Bit>>,
    window_is_cont: Vec<DFF<Bit>>,
    window_next_cont: Vec<DFF<Bit>>,
    window_next_fits: Vec<DFF<Bit>>,
    window_length: Vec<DFF<Bits<3>>>,
    window_outside: Vec<DFF<Bits<4>>>,
    window_malformed: Vec<DFF<Bits<4>>>,
    window_free: Vec<DFF<Bits<8>>>,
    window_prev_is_cont: Vec<DFF<Bit>>,
    window_prev_next_fits: Vec<DFF<Bit>>,
    window_prev_length: Vec<DFF<Bits<3>>>,
    window_prev_free: Vec<DFF<Bits<8>>>,
    window_beat_tlast: DFF<Bit>,
    window_beat_valid: DFF<Bit>,
}

impl<const N: usize> LaneTables<N> {
    /// The classes, the classes moved, the rows, then the window.
    pub const LATENCY: u64 = 4;

    pub fn new(profile: Profile) -> Self {
        LaneTables {
            clock: Default::default(),
            rst: Default::default(),
            byte: many(N),
            present: many(N),
            tail: many(5),
            tlast: Default::default(),
            valid: Default::default(),
            next_byte: Default::default(),
            next_is_end: Default::default(),
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
            tables: (0..N).map(|_| OctetTable::new(profile)).collect(),
            leads: many(N),
            next_table: OctetTable::new(profile),
            tail_tables: (0..5).map(|_| OctetTable::new(profile)).collect(),
            tail_leads: many(5),
            unused_rows: Default::default(),
            high5: many(N),
            high8: many(N),
            ascii8: many(N),
            tail_high5: many(5),
            tail_high8: many(5),
            tail_ascii8: many(5),
            class_present3: many(N),
            class_present4: many(N),
            class_present5: many(N),
            next5: Default::default(),
            class_valid3: Default::default(),
            class_valid5: Default::default(),
            class_present: many(N),
            class_ascii: many(N),
            class_class: many(N),
            class_cont: many(N),
            class_free: many(N),
            class_next_cont: Default::default(),
            class_tail_ascii: many(5),
            class_tail_class: many(5),
            class_tail_cont: many(5),
            class_tail_free: many(5),
            class_tlast: Default::default(),
            class_valid: Default::default(),
            moved_present: many(N),
            moved_ascii: many(N),
            moved_class: many(N),
            moved_cont: many(N),
            moved_free: many(N),
            moved_next_cont: Default::default(),
            moved_tail_ascii: many(5),
            moved_tail_class: many(5),
            moved_tail_cont: many(5),
            moved_tail_free: many(5),
            moved_tlast: Default::default(),
            moved_valid: Default::default(),
            row_present: many(N),
            row_cont: many(N),
            row_length: many(N),
            row_allowed: many(N),
            row_outside: many(N),
            row_malformed: many(N),
            row_free: many(N),
            row_next_cont: many(N),
            row_tail_cont: many(5),
            row_tail_length: many(5),
            row_tail_allowed: many(5),
            row_tail_free: many(5),
            row_count_is: many(5),
            row_tlast: Default::default(),
            row_valid: Default::default(),
            history_cont: many(5),
            history_length: many(5),
            history_allowed: many(5),
            history_free: many(5),
            window_present: many(N),
            window_is_cont: many(N),
            window_next_cont: many(N),
            window_next_fits: many(N),
            window_length: many(N),
            window_outside: many(N),
            window_malformed: many(N),
            window_free: many(N),
            window_prev_is_cont: many(5),
            window_prev_next_fits: many(5),
            window_prev_length: many(5),
            window_prev_free: many(5),
            window_beat_tlast: Default::default(),
            window_beat_valid: Default::default(),
        }
    }
}

impl<const N: usize> Logic for LaneTables<N> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(
            self,
            clock,
            class_next_cont,
            class_tlast,
            class_valid,
            moved_next_cont,
            moved_tlast,
            moved_valid,
            row_tlast,
            row_valid,
            window_beat_tlast,
            window_beat_valid
        );
        for i in 0..N {
            self.class_present[i].clock.next = self.clock.val();
            self.class_ascii[i].clock.next = self.clock.val();
            self.moved_present[i].clock.next = self.clock.val();
            self.moved_class[i].clock.next = self.clock.val();
            self.moved_ascii[i].clock.next = self.clock.val();
            self.moved_cont[i].clock.next = self.clock.val();
            self.moved_free[i].clock.next = self.clock.val();
            self.class_class[i].clock.next = self.clock.val();
            self.class_cont[i].clock.next = self.clock.val();
            self.class_free[i].clock.next = self.clock.val();
            self.row_present[i].clock.next = self.clock.val();
            self.row_cont[i].clock.next = self.clock.val();
            self.row_next_cont[i].clock.next = self.clock.val();
            self.row_length[i].clock.next = self.clock.val();
            self.row_allowed[i].clock.next = self.clock.val();
            self.row_outside[i].clock.next = self.clock.val();
            self.row_malformed[i].clock.next = self.clock.val();
            self.row_free[i].clock.next = self.clock.val();
            self.window_present[i].clock.next = self.clock.val();
            self.window_is_cont[i].clock.next = self.clock.val();
            self.window_next_cont[i].clock.next = self.clock.val();
            self.window_next_fits[i].clock.next = self.clock.val();
            self.window_length[i].clock.next = self.clock.val();
            self.window_outside[i].clock.next = self.clock.val();
            self.window_malformed[i].clock.next = self.clock.val();
            self.window_free[i].clock.next = self.clock.val();
        }
        for t in 0..5 {
            self.class_tail_class[t].clock.next = self.clock.val();
            self.class_tail_ascii[t].clock.next = self.clock.val();
            self.moved_tail_class[t].clock.next = self.clock.val();
            self.moved_tail_ascii[t].clock.next = self.clock.val();
            self.moved_tail_cont[t].clock.next = self.clock.val();
            self.moved_tail_free[t].clock.next = self.clock.val();
            self.class_tail_cont[t].clock.next = self.clock.val();
            self.class_tail_free[t].clock.next = self.clock.val();
            self.row_tail_cont[t].clock.next = self.clock.val();
            self.row_tail_length[t].clock.next = self.clock.val();
            self.row_tail_allowed[t].clock.next = self.clock.val();
            self.row_tail_free[t].clock.next = self.clock.val();
            self.row_count_is[t].clock.next = self.clock.val();
            self.history_cont[t].clock.next = self.clock.val();
            self.history_length[t].clock.next = self.clock.val();
            self.history_allowed[t].clock.next = self.clock.val();
            self.history_free[t].clock.next = self.clock.val();
            self.window_prev_is_cont[t].clock.next = self.clock.val();
            self.window_prev_next_fits[t].clock.next = self.clock.val();
            self.window_prev_length[t].clock.next = self.clock.val();
            self.window_prev_free[t].clock.next = self.clock.val();
        }

        // The masks.
        for i in 0..N {
            self.high5[i].next = 0.into();
            self.high8[i].next = 0.into();
            self.ascii8[i].next = 0.into();
            if self.present[i].val() & self.byte[i].val().get_bit(7) {
                self.high5[i].next = 0x1F.into();
                self.high8[i].next = 0xFF.into();
            }
            if self.present[i].val() & !self.byte[i].val().get_bit(7) {
                self.ascii8[i].next = 0x7F.into();
            }
            self.class_present3[i].next = 0.into();
            self.class_present4[i].next = 0.into();
            self.class_present5[i].next = 0.into();
            if self.moved_present[i].q.val() {
                self.class_present3[i].next = 0x7.into();
                self.class_present4[i].next = 0xF.into();
                self.class_present5[i].next = 0x1F.into();
            }
        }
        for t in 0..5 {
            self.tail_high5[t].next = 0.into();
            self.tail_high8[t].next = 0.into();
            self.tail_ascii8[t].next = 0.into();
            if self.valid.val() & self.tail[t].val().get_bit(7) {
                self.tail_high5[t].next = 0x1F.into();
                self.tail_high8[t].next = 0xFF.into();
            }
            if self.valid.val() & !self.tail[t].val().get_bit(7) {
                self.tail_ascii8[t].next = 0x7F.into();
            }
        }
        self.next5.next = 0.into();
        if self.valid.val() & !self.next_is_end.val() {
            self.next5.next = 0x1F.into();
        }
        self.class_valid3.next = 0.into();
        self.class_valid5.next = 0.into();
        if self.moved_valid.q.val() {
            self.class_valid3.next = 0x7.into();
            self.class_valid5.next = 0x1F.into();
        }

        // 3a: the classes. A table reads its byte with bit 7 set, and
        // bit 7 itself is registered beside it (`class_ascii`): a class
        // that chose ASCII by bit 7 would be a choice with a constant leg,
        // a set/reset (see the datasheet).
        for i in 0..N {
            self.tables[i].tdata.next = self.byte[i].val() | 0x80;
            self.class_present[i].d.next = self.present[i].val();
            self.class_ascii[i].d.next = !self.byte[i].val().get_bit(7);
            self.class_class[i].d.next = self.tables[i].byte_class.val();
            self.class_cont[i].d.next = self.tables[i].continuation.val() & self.high5[i].val();
            self.class_free[i].d.next = (self.tables[i].free_bits.val() & self.high8[i].val())
                | (self.byte[i].val() & self.ascii8[i].val());
        }
        self.next_table.tdata.next = self.next_byte.val();
        self.class_next_cont.d.next = self.next_table.continuation.val() & self.next5.val();
        for t in 0..5 {
            self.tail_tables[t].tdata.next = self.tail[t].val() | 0x80;
            self.class_tail_ascii[t].d.next = !self.tail[t].val().get_bit(7);
            self.class_tail_class[t].d.next = self.tail_tables[t].byte_class.val();
            self.class_tail_cont[t].d.next =
                self.tail_tables[t].continuation.val() & self.tail_high5[t].val();
            self.class_tail_free[t].d.next = (self.tail_tables[t].free_bits.val()
                & self.tail_high8[t].val())
                | (self.tail[t].val() & self.tail_ascii8[t].val());
        }
        self.class_tlast.d.next = self.tlast.val();
        self.class_valid.d.next = self.valid.val() & !self.rst.val();

        // 3b: the classes, moved.
        for i in 0..N {
            self.moved_present[i].d.next = self.class_present[i].q.val();
            self.moved_class[i].d.next = self.class_class[i].q.val();
            self.moved_ascii[i].d.next = self.class_ascii[i].q.val();
            self.moved_cont[i].d.next = self.class_cont[i].q.val();
            self.moved_free[i].d.next = self.class_free[i].q.val();
        }
        for t in 0..5 {
            self.moved_tail_class[t].d.next = self.class_tail_class[t].q.val();
            self.moved_tail_ascii[t].d.next = self.class_tail_ascii[t].q.val();
            self.moved_tail_cont[t].d.next = self.class_tail_cont[t].q.val();
            self.moved_tail_free[t].d.next = self.class_tail_free[t].q.val();
        }
        self.moved_next_cont.d.next = self.class_next_cont.q.val();
        self.moved_tlast.d.next = self.class_tlast.q.val();
        self.moved_valid.d.next = self.class_valid.q.val() & !self.rst.val();

        // 3c: the rows, of `Ascii` for an ASCII byte (the choice is
        // inside the rows' logic: each row flop is ANDed with its mask).
        // A table's input is written once, by if/else: written twice, its
        // first value is a glitch that the table's rows carry back into
        // this block, and Icarus never settles (a zero-delay loop).
        for i in 0..N {
            if self.moved_ascii[i].q.val() {
                self.leads[i].byte_class.next = ByteClass::Ascii;
            } else {
                self.leads[i].byte_class.next = self.moved_class[i].q.val();
            }
            self.row_present[i].d.next = self.moved_present[i].q.val();
            self.row_cont[i].d.next = self.moved_cont[i].q.val();
            self.row_length[i].d.next =
                self.leads[i].lead_length.val() & self.class_present3[i].val();
            self.row_allowed[i].d.next =
                self.leads[i].second_allowed.val() & self.class_present5[i].val();
            self.row_outside[i].d.next =
                self.leads[i].outside_tuser.val() & self.class_present4[i].val();
            self.row_malformed[i].d.next =
                self.leads[i].malformed_tuser.val() & self.class_present4[i].val();
            self.row_free[i].d.next = self.moved_free[i].q.val();
        }
        for i in 0..N {
            self.row_next_cont[i].d.next = self.moved_next_cont.q.val();
        }
        for i in 0..(N - 1) {
            if self.moved_present[i + 1].q.val() {
                self.row_next_cont[i].d.next = self.moved_cont[i + 1].q.val();
            }
        }
        self.unused_rows.next = (self.next_table.byte_class.val() == ByteClass::Ascii)
            | self.next_table.free_bits.val().any();
        for t in 0..5 {
            self.unused_rows.next = self.unused_rows.val()
                | self.tail_leads[t].outside_tuser.val().any()
                | self.tail_leads[t].malformed_tuser.val().any();
        }
        for t in 0..5 {
            if self.moved_tail_ascii[t].q.val() {
                self.tail_leads[t].byte_class.next = ByteClass::Ascii;
            } else {
                self.tail_leads[t].byte_class.next = self.moved_tail_class[t].q.val();
            }
            self.row_tail_cont[t].d.next = self.moved_tail_cont[t].q.val();
            self.row_tail_length[t].d.next =
                self.tail_leads[t].lead_length.val() & self.class_valid3.val();
            self.row_tail_allowed[t].d.next =
                self.tail_leads[t].second_allowed.val() & self.class_valid5.val();
            self.row_tail_free[t].d.next = self.moved_tail_free[t].q.val();
        }
        // The count, from the dense lanes: c bytes when lane c is the first
        // without one.
        self.row_count_is[0].d.next = !self.moved_present[0].q.val();
        for c in 1..5 {
            self.row_count_is[c].d.next = false;
        }
        for c in 1..N.min(5) {
            self.row_count_is[c].d.next =
                self.moved_present[c - 1].q.val() & !self.moved_present[c].q.val();
        }
        // Fewer than five lanes: all of them present is a count below five.
        for c in N..(N + 1).min(5) {
            self.row_count_is[c].d.next = self.moved_present[c - 1].q.val();
        }
        self.row_tlast.d.next = self.moved_tlast.q.val();
        self.row_valid.d.next = self.moved_valid.q.val() & !self.rst.val();

        // The history: the last five of (history, then the beat's bytes).
        for t in 0..5 {
            self.history_cont[t].d.next = self.history_cont[t].q.val();
            self.history_length[t].d.next = self.history_length[t].q.val();
            self.history_allowed[t].d.next = self.history_allowed[t].q.val();
            self.history_free[t].d.next = self.history_free[t].q.val();
        }
        if self.row_valid.q.val() {
            for t in 0..5 {
                self.history_cont[t].d.next = self.row_tail_cont[t].q.val();
                self.history_length[t].d.next = self.row_tail_length[t].q.val();
                self.history_allowed[t].d.next = self.row_tail_allowed[t].q.val();
                self.history_free[t].d.next = self.row_tail_free[t].q.val();
            }
            // Place t keeps history place t + c when the beat has c < 5 - t
            // bytes (a loop per place: indices are loop variables).
            for c in 0..5 {
                if self.row_count_is[c].q.val() {
                    self.history_cont[0].d.next = self.history_cont[c].q.val();
                    self.history_length[0].d.next = self.history_length[c].q.val();
                    self.history_allowed[0].d.next = self.history_allowed[c].q.val();
                    self.history_free[0].d.next = self.history_free[c].q.val();
                }
            }
            for c in 0..4 {
                if self.row_count_is[c].q.val() {
                    self.history_cont[1].d.next = self.history_cont[c + 1].q.val();
                    self.history_length[1].d.next = self.history_length[c + 1].q.val();
                    self.history_allowed[1].d.next = self.history_allowed[c + 1].q.val();
                    self.history_free[1].d.next = self.history_free[c + 1].q.val();
                }
            }
            for c in 0..3 {
                if self.row_count_is[c].q.val() {
                    self.history_cont[2].d.next = self.history_cont[c + 2].q.val();
                    self.history_length[2].d.next = self.history_length[c + 2].q.val();
                    self.history_allowed[2].d.next = self.history_allowed[c + 2].q.val();
                    self.history_free[2].d.next = self.history_free[c + 2].q.val();
                }
            }
            for c in 0..2 {
                if self.row_count_is[c].q.val() {
                    self.history_cont[3].d.next = self.history_cont[c + 3].q.val();
                    self.history_length[3].d.next = self.history_length[c + 3].q.val();
                    self.history_allowed[3].d.next = self.history_allowed[c + 3].q.val();
                    self.history_free[3].d.next = self.history_free[c + 3].q.val();
                }
            }
            if self.row_count_is[0].q.val() {
                self.history_cont[4].d.next = self.history_cont[4].q.val();
                self.history_length[4].d.next = self.history_length[4].q.val();
                self.history_allowed[4].d.next = self.history_allowed[4].q.val();
                self.history_free[4].d.next = self.history_free[4].q.val();
            }
        }
        if (self.row_valid.q.val() & self.row_tlast.q.val()) | self.rst.val() {
            for t in 0..5 {
                self.history_length[t].d.next = 0.into();
            }
        }

        // 3d: the window.
        for i in 0..N {
            self.window_present[i].d.next = self.row_present[i].q.val();
            self.window_is_cont[i].d.next = self.row_cont[i].q.val().any();
            self.window_next_cont[i].d.next = self.row_next_cont[i].q.val().any();
            self.window_next_fits[i].d.next =
                (self.row_next_cont[i].q.val() & self.row_allowed[i].q.val()).any();
            self.window_length[i].d.next = self.row_length[i].q.val();
            self.window_outside[i].d.next = self.row_outside[i].q.val();
            self.window_malformed[i].d.next = self.row_malformed[i].q.val();
            self.window_free[i].d.next = self.row_free[i].q.val();
            self.lane_present[i].next = self.window_present[i].q.val();
            self.lane_is_cont[i].next = self.window_is_cont[i].q.val();
            self.lane_next_cont[i].next = self.window_next_cont[i].q.val();
            self.lane_next_fits[i].next = self.window_next_fits[i].q.val();
            self.lane_length[i].next = self.window_length[i].q.val();
            self.lane_outside[i].next = self.window_outside[i].q.val();
            self.lane_malformed[i].next = self.window_malformed[i].q.val();
            self.lane_free[i].next = self.window_free[i].q.val();
        }
        for t in 0..5 {
            self.window_prev_is_cont[t].d.next = self.history_cont[t].q.val().any();
            self.window_prev_length[t].d.next = self.history_length[t].q.val();
            self.window_prev_free[t].d.next = self.history_free[t].q.val();
            self.prev_is_cont[t].next = self.window_prev_is_cont[t].q.val();
            self.prev_next_fits[t].next = self.window_prev_next_fits[t].q.val();
            self.prev_length[t].next = self.window_prev_length[t].q.val();
            self.prev_free[t].next = self.window_prev_free[t].q.val();
        }
        for t in 0..4 {
            self.window_prev_next_fits[t].d.next =
                (self.history_cont[t + 1].q.val() & self.history_allowed[t].q.val()).any();
        }
        // The byte after the history is the beat's first.
        self.window_prev_next_fits[4].d.next =
            (self.row_cont[0].q.val() & self.history_allowed[4].q.val()).any();
        self.window_beat_tlast.d.next = self.row_tlast.q.val();
        self.window_beat_valid.d.next = self.row_valid.q.val() & !self.rst.val();
        self.window_tlast.next = self.window_beat_tlast.q.val();
        self.window_valid.next = self.window_beat_valid.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_tables_is_synthesizable() {
        for profile in Profile::ALL {
            crate::assert_synthesizable(LaneTables::<4>::new(profile));
        }
        crate::assert_synthesizable(LaneTables::<2>::new(Profile::Rfc3629));
    }
}
