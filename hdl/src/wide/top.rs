//! # `Utf8WideDecoder`: the top block of the wide decoder
//!
//! Wires the stages; its datasheet is the documentation of [`crate::wide`].

use rust_hdl::prelude::*;

use crate::wide::beat_credits::BeatCredits;
use crate::wide::beat_fifo::BeatFifo;
use crate::wide::byte_lanes::ByteLanes;
use crate::wide::lane_decoder::LaneDecoder;
use crate::wide::lane_tables::LaneTables;
use crate::wide::lookahead_hold::LookaheadHold;
use crate::wide::word_lanes::WordLanes;
use utf8hdl_reference::Profile;

/// The wide decoder of `N` lanes. The other parameters are figures that
/// stable Rust cannot compute from `N`; use the aliases
/// ([`Utf8DecoderX8`](crate::wide::Utf8DecoderX8) and the others), which
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
> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub s_axis_tdata: Signal<In, Bits<TDATA_IN>>,
    pub s_axis_tkeep: Signal<In, Bits<N>>,
    pub s_axis_tvalid: Signal<In, Bit>,
    pub s_axis_tready: Signal<Out, Bit>,
    pub s_axis_tlast: Signal<In, Bit>,
    pub m_axis_tdata: Signal<Out, Bits<TDATA_OUT>>,
    pub m_axis_tuser: Signal<Out, Bits<TUSER>>,
    pub m_axis_tkeep: Signal<Out, Bits<N>>,
    pub m_axis_tvalid: Signal<Out, Bit>,
    pub m_axis_tready: Signal<In, Bit>,
    pub m_axis_tlast: Signal<Out, Bit>,
    pub credits: BeatCredits<QUEUE>,
    pub byte_lanes: ByteLanes<N, TDATA_IN>,
    pub hold: LookaheadHold<N>,
    pub lane_tables: LaneTables<N>,
    pub lane_decoder: LaneDecoder<N>,
    pub word_lanes: WordLanes<N, TDATA_OUT, TUSER>,
    pub queue: BeatFifo<N, TDATA_OUT, TUSER, QUEUE>,
    accepted: Signal<Local, Bit>,
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
    /// stages' (the datasheet, [`crate::wide`]). The one figure the
    /// harnesses read, through `Core::LATENCY`.
    pub const LATENCY: u64 = ByteLanes::<N, TDATA_IN>::LATENCY
        + LookaheadHold::<N>::LATENCY
        + LaneTables::<N>::LATENCY
        + LaneDecoder::<N>::LATENCY
        + WordLanes::<N, TDATA_OUT, TUSER>::LATENCY
        + BeatFifo::<N, TDATA_OUT, TUSER, QUEUE>::LATENCY;

    /// The beats the output queue holds, and so the most beats in flight.
    pub const QUEUE_BEATS: usize = 1 << QUEUE;

    pub fn new(profile: Profile) -> Self {
        assert_eq!(TDATA_IN, 8 * N, "Utf8WideDecoder: TDATA_IN is 8N");
        assert!(
            Self::LATENCY + 1 < Self::QUEUE_BEATS as u64,
            "Utf8WideDecoder: the queue holds more beats than are in flight at line rate"
        );
        Utf8WideDecoder {
            clk: Default::default(),
            rst: Default::default(),
            s_axis_tdata: Default::default(),
            s_axis_tkeep: Default::default(),
            s_axis_tvalid: Default::default(),
            s_axis_tready: Default::default(),
            s_axis_tlast: Default::default(),
            m_axis_tdata: Default::default(),
            m_axis_tuser: Default::default(),
            m_axis_tkeep: Default::default(),
            m_axis_tvalid: Default::default(),
            m_axis_tready: Default::default(),
            m_axis_tlast: Default::default(),
            credits: Default::default(),
            byte_lanes: Default::default(),
            hold: Default::default(),
            lane_tables: LaneTables::new(profile),
            lane_decoder: Default::default(),
            word_lanes: Default::default(),
            queue: Default::default(),
            accepted: Default::default(),
        }
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
