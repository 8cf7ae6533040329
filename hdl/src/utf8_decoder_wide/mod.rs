//! # `Utf8WideDecoder`: a UTF-8 → UCS-4 decoder of N bytes per clock
//!
//! The 1-lane [`Utf8Decoder`](crate::Utf8Decoder) for wide AXI4-Stream
//! buses: N byte lanes in, N word lanes out, at N bytes per clock whatever
//! the bytes, with the same units (one U+FFFD per maximal subpart), the
//! same `tuser` encoding and the same message rules.
//!
//! ## Parameters
//! * `N`, the lanes: 2, 4, 8, 16 or 32, through the aliases
//!   [`Utf8DecoderX2`] … [`Utf8DecoderX32`] (the other parameters of
//!   [`Utf8WideDecoder`] are widths and the queue's size, which stable
//!   Rust cannot compute from N).
//! * The [`Profile`], as for the 1-lane core:
//!   `Utf8DecoderX8::new(Profile::Iso10646)`.
//!
//! Module names: `utf8_decoder_x<N>` (rfc3629) and
//! `utf8_decoder_iso10646_x<N>`; the 1-lane core keeps `utf8_decoder` and
//! `utf8_decoder_iso10646`.
//!
//! ## Ports
//! Lane *i* is the *i*-th byte or word in stream order; lane 0 comes first.
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clk`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `s_axis_tdata` | in | 8N | byte lane *i* = bits [8i+7:8i] |
//! | `s_axis_tkeep` | in | N | a lane with `tkeep` low is a null byte, skipped wherever it is |
//! | `s_axis_tvalid`, `s_axis_tlast` | in | 1 | |
//! | `s_axis_tready` | out | 1 | a flop |
//! | `m_axis_tdata` | out | 32N | word lane *i* = bits [32i+31:32i]; U+FFFD for an error |
//! | `m_axis_tuser` | out | 4N | lane *i* = bits [4i+3:4i]: bit 0 = error, bits 3:1 = [`ErrorKind`](crate::ErrorKind) code |
//! | `m_axis_tkeep` | out | N | packed: a beat's k words fill lanes 0..k-1 |
//! | `m_axis_tvalid`, `m_axis_tlast` | out | 1 | |
//! | `m_axis_tready` | in | 1 | |
//!
//! ## The pipeline
//! No stage stalls: every stage moves its beat on every clock, with a
//! valid bit. Backpressure stops at the output queue, and `s_axis_tready`
//! is a flop computed from the beats in flight, so no enable fans out to
//! the pipeline's registers. The two packings (bytes, then words) count
//! and move lanes in log₂ N levels each, and every level is registered, so
//! no path grows with N: N adds cycles, not logic between flops.
//!
//! ```text
//!  stage     1                2                3             4              5                queue
//!  s_axis ─▶ ByteLanes ─────▶ LookaheadHold ─▶ LaneTables ─▶ LaneDecoder ─▶ WordLanes ─────▶ BeatFifo ─▶ m_axis
//!    ▲       the beat;         one beat waits   classes;      lane facts;    count skips     RAM write,
//!    │       count skips       for the byte     classes       slots          (log₂ N),       read, m_axis
//!    │       (log₂ N), move    behind it        moved; rows;                 move (log₂ N),  flops
//!    │       (log₂ N); packed;                  window                       U+FFFD; packed
//!    │       staged (tail)                      (history
//!    │                                          of five)
//!    │       3 + 2 log₂ N      1                4             2              1 + 2 log₂ N    3
//!    └── BeatCredits: s_axis_tready = (beats in flight < 2^QUEUE), a flop
//! ```
//!
//! Each stage is one block, with its own datasheet, in [`stages`], whose
//! table names the registers of each stage in order (1a, 1b, …); the output
//! queue ([`BeatFifo`], its [`BeatRam`](queue::BeatRam)) and the
//! [`BeatCredits`] are in [`queue`]. The stages share the network that
//! packs lanes ([`packing`]) and a few combinational helpers ([`wiring`]),
//! and read the 1-lane decoder's tables
//! ([`OctetTable`](crate::utf8_decoder::octet_table::OctetTable),
//! [`LeadTable`](crate::utf8_decoder::lead_table::LeadTable)).
//!
//! ## Latency
//! [`Utf8WideDecoder::LATENCY`] = 14 + 4 log₂ N cycles, the sum of the
//! stages' own (the diagram above): with a byte behind every
//! beat (or its `tlast`) and `m_axis_tready` high, the units of a beat
//! accepted in cycle *t* are on `m_axis` in cycle *t* + LATENCY, so a
//! stream of B beats takes B + LATENCY cycles. Each packing (`ByteLanes`,
//! `WordLanes`) has two registered levels per bit of N (count, then move),
//! so that no path grows with N.
//!
//! ```text
//! cycle          0       1       2      3       4       5       …   11         …   18
//! s_axis_tdata   41 C2   41 42                                                            N = 2
//! ByteLanes          41 C2   41 42  (the beat, count, move, packed, staged)
//! LookaheadHold                             41 C2   41 42          C2 waits for the 41 behind it
//! LaneDecoder                                                   41 !C2 41 42   slots: 41 breaks C2
//! m_axis_tdata                                                                0041 FFFD  0041 0042
//! m_axis_tuser                                                                0    7     0    0
//! ```
//!
//! A beat whose last byte may leave a sequence open (bit 7 set) waits in
//! the [`LookaheadHold`] (stage 2) for the next byte or
//! the end of the message; at line rate one is always there, so the latency
//! is constant.
//!
//! ## Backpressure
//! The [`BeatFifo`] holds
//! [`Utf8WideDecoder::QUEUE_BEATS`] beats: 32 for N ≤ 16, 64 for N = 32.
//! [`BeatCredits`] counts the beats accepted
//! and neither sent nor dropped, and keeps them at most that, so the queue
//! never overflows whatever `m_axis_tready` does. At line rate LATENCY + 1
//! beats are in flight (31 for N = 16, 35 for N = 32), fewer than the
//! queue holds, so `s_axis_tready` never falls; with `m_axis_tready` low
//! for long, it falls once the queue's beats are inside, and rises again a
//! cycle after `m_axis` takes a beat.
//!
//! ## Why no carry: at most one unit per byte, in the beat of its last byte
//! The words of a beat are those of the units whose **last byte** is in it.
//! Units are disjoint spans of bytes, so a beat of k bytes ends at most k
//! of them: every beat fits in N word lanes, and nothing is ever carried
//! to the next beat. The beat that *breaks* a sequence can complete N + 1
//! units (the broken sequence's U+FFFD, then its own N words), but the
//! U+FFFD belongs to the beat before, where the sequence's last byte is:
//! stages 2 and 3 look one byte ahead (the next lane, the next beat's first
//! byte, or the end of the message) to put it there. Over a message there are
//! never more units than bytes, for the same reason. The tests check the
//! bound on every output beat, and the cycle count of the worst case,
//! `C2 41` at every alignment.
//!
//! ## Messages
//! * Each message ends with exactly one `m_axis_tlast`, on the beat that
//!   carries its last unit.
//! * A message whose last input beat has only null lanes ends on the beat of
//!   its last unit if that unit was still waiting for the end, or else with
//!   one beat of `m_axis_tkeep` 0 and `m_axis_tlast` 1; so does a message
//!   with no bytes at all.
//! * No state crosses a message boundary.
//!
//! ## Invariants
//! * `s_axis_tready` and every `m_axis_*` output come from flops.
//! * With `m_axis_tready` high, `s_axis_tready` is high on every cycle after
//!   reset: N bytes per clock, whatever the bytes and the `tkeep`.
//! * The words of all beats, in lane order, are the reference decoder's
//!   units for the bytes of the non-null lanes.
//!
//! ## Size and speed
//! Resources, Fmax and GB/s of each width and profile, measured with
//! `utf8hdl synth --lanes N --device D --seeds 3` (every port registered
//! in a bench), are in the datasheet, `docs/datasheet.md#utf8_decoder_xn`;
//! the paths that limit the core, and the ideas measured that did not
//! help, are in the design notes, `docs/design.md`.

pub mod packing;
pub mod queue;
pub mod stages;
pub mod wiring;

use rust_hdl::prelude::*;

use crate::utf8_decoder_wide::queue::{BeatCredits, BeatFifo};
use crate::utf8_decoder_wide::stages::{
    ByteLanes, LaneDecoder, LaneTables, LookaheadHold, WordLanes,
};
use crate::{axis_core, with_axis_ports};
use utf8hdl_reference::Profile;

/// 2 lanes: `utf8_decoder_x2`; a 32-beat queue.
pub type Utf8DecoderX2 = Utf8WideDecoder<2, 16, 64, 8, 5>;
/// 4 lanes: `utf8_decoder_x4`; a 32-beat queue.
pub type Utf8DecoderX4 = Utf8WideDecoder<4, 32, 128, 16, 5>;
/// 8 lanes, a 64-bit bus (10 GbE): `utf8_decoder_x8`; a 32-beat queue.
pub type Utf8DecoderX8 = Utf8WideDecoder<8, 64, 256, 32, 5>;
/// 16 lanes: `utf8_decoder_x16`; a 32-beat queue (31 in flight at line rate).
pub type Utf8DecoderX16 = Utf8WideDecoder<16, 128, 512, 64, 5>;
/// 32 lanes: `utf8_decoder_x32`; a 64-beat queue (35 in flight at line rate).
pub type Utf8DecoderX32 = Utf8WideDecoder<32, 256, 1024, 128, 6>;

pub(crate) use crate::many;

axis_core! {
    /// The wide decoder of `N` lanes. The other parameters are figures that
    /// stable Rust cannot compute from `N`; use the aliases
    /// ([`Utf8DecoderX8`] and the others), which
    /// set them: `TDATA_IN` = 8N, `TDATA_OUT` = 32N, `TUSER` = 4N, and
    /// `QUEUE`, the output queue's address bits: it holds 2^QUEUE beats, more
    /// than are in flight at line rate ([`Utf8WideDecoder::LATENCY`] + 1), so
    /// that the credits never stop `s_axis` while `m_axis` takes every beat.
    #[derive(LogicBlock)]
    pub struct Utf8WideDecoder<
        const N: usize,
        const TDATA_IN: usize,
        const TDATA_OUT: usize,
        const TUSER: usize,
        const QUEUE: usize,
    >[lanes: N, s_axis_tdata: TDATA_IN, m_axis_tdata: TDATA_OUT, m_axis_tuser: TUSER] {
        pub credits: BeatCredits<QUEUE>,
        pub byte_lanes: ByteLanes<N, TDATA_IN>,
        pub hold: LookaheadHold<N>,
        pub lane_tables: LaneTables<N>,
        pub lane_decoder: LaneDecoder<N>,
        pub word_lanes: WordLanes<N, TDATA_OUT, TUSER>,
        pub queue: BeatFifo<N, 32, 4, TDATA_OUT, TUSER, QUEUE>,
        accepted: Signal<Local, Bit>,
    }
}

impl<
        const N: usize,
        const TDATA_IN: usize,
        const TDATA_OUT: usize,
        const TUSER: usize,
        const QUEUE: usize,
    > Utf8WideDecoder<N, TDATA_IN, TDATA_OUT, TUSER, QUEUE>
{
    /// The cycles from a beat on `s_axis` to its units on `m_axis`, with a
    /// byte behind every beat and `m_axis_tready` high: the sum of the
    /// stages' (the datasheet, above). The one figure the
    /// harnesses read, through `Core::LATENCY`.
    pub const LATENCY: u64 = ByteLanes::<N, TDATA_IN>::LATENCY
        + LookaheadHold::<N>::LATENCY
        + LaneTables::<N>::LATENCY
        + LaneDecoder::<N>::LATENCY
        + WordLanes::<N, TDATA_OUT, TUSER>::LATENCY
        + BeatFifo::<N, 32, 4, TDATA_OUT, TUSER, QUEUE>::LATENCY;

    /// The beats the output queue holds, and so the most beats in flight.
    pub const QUEUE_BEATS: usize = 1 << QUEUE;

    pub fn new(profile: Profile) -> Self {
        assert_eq!(TDATA_IN, 8 * N, "Utf8WideDecoder: TDATA_IN is 8N");
        assert!(
            Self::LATENCY + 1 < Self::QUEUE_BEATS as u64,
            "Utf8WideDecoder: the queue holds more beats than are in flight at line rate"
        );
        with_axis_ports!(lanes Utf8WideDecoder {
            credits: Default::default(),
            byte_lanes: Default::default(),
            hold: Default::default(),
            lane_tables: LaneTables::new(profile),
            lane_decoder: Default::default(),
            word_lanes: Default::default(),
            queue: Default::default(),
            accepted: Default::default(),
        })
    }
}

impl<
        const N: usize,
        const TDATA_IN: usize,
        const TDATA_OUT: usize,
        const TUSER: usize,
        const QUEUE: usize,
    > Logic for Utf8WideDecoder<N, TDATA_IN, TDATA_OUT, TUSER, QUEUE>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.credits.clock.next = self.clk.val();
        self.byte_lanes.clock.next = self.clk.val();
        self.hold.clock.next = self.clk.val();
        self.lane_tables.clock.next = self.clk.val();
        self.lane_decoder.clock.next = self.clk.val();
        self.word_lanes.clock.next = self.clk.val();
        self.queue.clock.next = self.clk.val();
        self.credits.rst.next = self.rst.val();
        self.byte_lanes.rst.next = self.rst.val();
        self.hold.rst.next = self.rst.val();
        self.lane_tables.rst.next = self.rst.val();
        self.lane_decoder.rst.next = self.rst.val();
        self.word_lanes.rst.next = self.rst.val();
        self.queue.rst.next = self.rst.val();

        self.s_axis_tready.next = self.credits.s_axis_tready.val();
        self.accepted.next = self.s_axis_tvalid.val() & self.credits.s_axis_tready.val();
        self.credits.accepted.next = self.accepted.val();
        self.credits.returned.next = self.queue.returned.val();
        self.credits.dropped_early.next = self.hold.dropped.val();
        self.credits.dropped_late.next = self.word_lanes.dropped.val();

        self.byte_lanes.s_axis_tdata.next = self.s_axis_tdata.val();
        self.byte_lanes.s_axis_tkeep.next = self.s_axis_tkeep.val();
        self.byte_lanes.s_axis_tlast.next = self.s_axis_tlast.val();
        self.byte_lanes.accepted.next = self.accepted.val();

        for i in 0..N {
            self.hold.in_byte[i].next = self.byte_lanes.byte[i].val();
            self.hold.in_present[i].next = self.byte_lanes.present[i].val();
            self.lane_tables.byte[i].next = self.hold.byte[i].val();
            self.lane_tables.present[i].next = self.hold.present[i].val();
        }
        for t in 0..5 {
            self.hold.in_tail[t].next = self.byte_lanes.tail[t].val();
            self.lane_tables.tail[t].next = self.hold.tail[t].val();
        }
        self.hold.in_tlast.next = self.byte_lanes.tlast.val();
        self.hold.in_valid.next = self.byte_lanes.valid.val();
        self.lane_tables.tlast.next = self.hold.tlast.val();
        self.lane_tables.valid.next = self.hold.valid.val();
        self.lane_tables.next_byte.next = self.hold.next_byte.val();
        self.lane_tables.next_is_end.next = self.hold.next_is_end.val();

        for i in 0..N {
            self.lane_decoder.lane_present[i].next = self.lane_tables.lane_present[i].val();
            self.lane_decoder.lane_is_cont[i].next = self.lane_tables.lane_is_cont[i].val();
            self.lane_decoder.lane_next_cont[i].next = self.lane_tables.lane_next_cont[i].val();
            self.lane_decoder.lane_next_fits[i].next = self.lane_tables.lane_next_fits[i].val();
            self.lane_decoder.lane_length[i].next = self.lane_tables.lane_length[i].val();
            self.lane_decoder.lane_outside[i].next = self.lane_tables.lane_outside[i].val();
            self.lane_decoder.lane_malformed[i].next = self.lane_tables.lane_malformed[i].val();
            self.lane_decoder.lane_free[i].next = self.lane_tables.lane_free[i].val();
        }
        for t in 0..5 {
            self.lane_decoder.prev_is_cont[t].next = self.lane_tables.prev_is_cont[t].val();
            self.lane_decoder.prev_next_fits[t].next = self.lane_tables.prev_next_fits[t].val();
            self.lane_decoder.prev_length[t].next = self.lane_tables.prev_length[t].val();
            self.lane_decoder.prev_free[t].next = self.lane_tables.prev_free[t].val();
        }
        self.lane_decoder.window_tlast.next = self.lane_tables.window_tlast.val();
        self.lane_decoder.window_valid.next = self.lane_tables.window_valid.val();

        for i in 0..N {
            self.word_lanes.slot_valid[i].next = self.lane_decoder.slot_valid[i].val();
            self.word_lanes.slot_tuser[i].next = self.lane_decoder.slot_tuser[i].val();
            self.word_lanes.slot_value[i].next = self.lane_decoder.slot_value[i].val();
        }
        self.word_lanes.beat_valid.next = self.lane_decoder.beat_valid.val();
        self.word_lanes.beat_tlast.next = self.lane_decoder.beat_tlast.val();

        self.queue.write.next = self.word_lanes.write.val();
        self.queue.tdata.next = self.word_lanes.tdata.val();
        self.queue.tuser.next = self.word_lanes.tuser.val();
        self.queue.tkeep.next = self.word_lanes.tkeep.val();
        self.queue.tlast.next = self.word_lanes.tlast.val();
        self.queue.m_axis_tready.next = self.m_axis_tready.val();
        self.m_axis_tdata.next = self.queue.m_axis_tdata.val();
        self.m_axis_tuser.next = self.queue.m_axis_tuser.val();
        self.m_axis_tkeep.next = self.queue.m_axis_tkeep.val();
        self.m_axis_tvalid.next = self.queue.m_axis_tvalid.val();
        self.m_axis_tlast.next = self.queue.m_axis_tlast.val();
    }
}
