//! # `Utf8WideDecoder`: the top block of the wide decoder
//!
//! Wires the stages; its datasheet is the documentation of [`crate::wide`].

use rust_hdl::prelude::*;

use crate::skid_buffer::{BeatOut, SkidBuffer};
use crate::wide::byte_lanes::ByteLanes;
use crate::wide::lane_bus::LaneBus;
use crate::wide::lane_decoder::LaneDecoder;
use crate::wide::word_lanes::WordLanes;
use utf8hdl_reference::Profile;

/// The wide decoder of `N` lanes. The other parameters are widths that
/// stable Rust cannot compute from `N`; use the aliases
/// ([`Utf8DecoderX8`](crate::wide::Utf8DecoderX8) and the others), which
/// set them: `TDATA_IN` = 8N, `TBEAT` = 9N, `TDATA_OUT` = 32N, `TUSER` = 4N.
#[derive(LogicBlock)]
pub struct Utf8WideDecoder<
    const N: usize,
    const TDATA_IN: usize,
    const TBEAT: usize,
    const TDATA_OUT: usize,
    const TUSER: usize,
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
    /// Each lane's byte with its tkeep above it, for the skid buffer.
    beat: LaneBus<TBEAT, 1, TBEAT>,
    pub skid_buffer: SkidBuffer<TBEAT>,
    pub byte_lanes: ByteLanes<N, TBEAT>,
    pub lane_decoder: LaneDecoder<N>,
    pub word_lanes: WordLanes<N, TDATA_OUT, TUSER>,
}

impl<
        const N: usize,
        const TDATA_IN: usize,
        const TBEAT: usize,
        const TDATA_OUT: usize,
        const TUSER: usize,
    > Utf8WideDecoder<N, TDATA_IN, TBEAT, TDATA_OUT, TUSER>
{
    pub fn new(profile: Profile) -> Self {
        assert_eq!(TDATA_IN, 8 * N, "Utf8WideDecoder: TDATA_IN is 8N");
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
            beat: Default::default(),
            skid_buffer: Default::default(),
            byte_lanes: Default::default(),
            lane_decoder: LaneDecoder::new(profile),
            word_lanes: Default::default(),
        }
    }
}

impl<
        const N: usize,
        const TDATA_IN: usize,
        const TBEAT: usize,
        const TDATA_OUT: usize,
        const TUSER: usize,
    > Logic for Utf8WideDecoder<N, TDATA_IN, TBEAT, TDATA_OUT, TUSER>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.skid_buffer.clock.next = self.clk.val();
        self.byte_lanes.clock.next = self.clk.val();
        self.lane_decoder.clock.next = self.clk.val();
        self.word_lanes.clock.next = self.clk.val();
        self.skid_buffer.rst.next = self.rst.val();
        self.byte_lanes.rst.next = self.rst.val();
        self.lane_decoder.rst.next = self.rst.val();
        self.word_lanes.rst.next = self.rst.val();

        // The skid buffer carries each lane's byte with its tkeep.
        for i in 0..N {
            for b in 0..8 {
                self.beat.lane[9 * i + b].next = self.s_axis_tdata.val().get_bit(8 * i + b).into();
            }
            self.beat.lane[9 * i + 8].next = self.s_axis_tkeep.val().get_bit(i).into();
        }
        self.skid_buffer.s_axis_tdata.next = self.beat.bus.val();
        self.skid_buffer.s_axis_tvalid.next = self.s_axis_tvalid.val();
        self.skid_buffer.s_axis_tlast.next = self.s_axis_tlast.val();
        self.s_axis_tready.next = self.skid_buffer.s_axis_tready.val();
        self.skid_buffer.advance.next = self.byte_lanes.take.val();
        BeatOut::<TBEAT>::join(&mut self.skid_buffer.byte, &mut self.byte_lanes.beat);

        for i in 0..N {
            self.lane_decoder.byte[i].next = self.byte_lanes.byte[i].val();
            self.lane_decoder.present[i].next = self.byte_lanes.present[i].val();
        }
        self.lane_decoder.tlast.next = self.byte_lanes.tlast.val();
        self.lane_decoder.valid.next = self.byte_lanes.valid.val();
        self.byte_lanes.leaves.next = self.lane_decoder.taken.val();
        self.lane_decoder.advance.next = self.word_lanes.advance.val();

        for i in 0..N {
            self.word_lanes.slot_valid[i].next = self.lane_decoder.slot_valid[i].val();
            self.word_lanes.slot_tuser[i].next = self.lane_decoder.slot_tuser[i].val();
            self.word_lanes.slot_value[i].next = self.lane_decoder.slot_value[i].val();
        }
        self.word_lanes.beat_valid.next = self.lane_decoder.beat_valid.val();
        self.word_lanes.beat_tlast.next = self.lane_decoder.beat_tlast.val();
        self.word_lanes.m_axis_tready.next = self.m_axis_tready.val();

        self.m_axis_tdata.next = self.word_lanes.m_axis_tdata.val();
        self.m_axis_tuser.next = self.word_lanes.m_axis_tuser.val();
        self.m_axis_tkeep.next = self.word_lanes.m_axis_tkeep.val();
        self.m_axis_tvalid.next = self.word_lanes.m_axis_tvalid.val();
        self.m_axis_tlast.next = self.word_lanes.m_axis_tlast.val();
    }
}
