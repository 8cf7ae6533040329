//! # `ByteGatherer`: a byte stream into 4-lane beats
//!
//! Gathers the bytes of an 8-bit stream into beats of four lanes for the
//! wide decoder: a beat leaves when its four lanes are full, at a byte
//! marked last (`s_axis_tlast`: a message ends), or when no byte came for
//! `timeout` cycles (so that what a person types is echoed without waiting
//! for three more keys). A beat that leaves early keeps its bytes in its
//! highest lanes and marks the others null in `tkeep`: the wide decoder
//! takes null lanes anywhere.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clk`, `rst` | in | 1 | clock; synchronous reset |
//! | `s_axis_tdata`, `s_axis_tvalid`, `s_axis_tready` | | 8 | the bytes |
//! | `s_axis_tlast` | in | 1 | the byte ends a message: its beat leaves with it |
//! | `m_axis_tdata` | out | 32 | lane *i* in bits 8*i*+7..8*i*, earlier bytes in lower lanes |
//! | `m_axis_tkeep` | out | 4 | the lanes holding a byte |
//! | `m_axis_tvalid`, `m_axis_tready`, `m_axis_tlast` | | 1 | the beat |
//!
//! Every output is a flop. A byte shifts in from the top lane, so after
//! *k* bytes the top *k* lanes hold them, in order.
//!
//! ```text
//! cycle           0    1    2    3    4
//! s_axis_tdata    41   42   43   44   --
//! s_axis_tready   1    1    1    1    0
//! m_axis_tvalid   0    0    0    0    1     tdata 44434241, tkeep 1111
//! ```
//!
//! ## Invariants
//! * `s_axis_tready` is low exactly while a beat waits on `m_axis`: one
//!   byte at a time goes in, and none while a beat is held.
//! * A held beat has at least one lane kept, and its kept lanes are the
//!   highest ones.

use rust_hdl::prelude::*;

utf8hdl_hdl::axis_core! {
    #[derive(LogicBlock)]
    pub struct ByteGatherer<s_axis_tdata: 8, m_axis_tdata: 32, m_axis_tkeep: 4> {
        lanes: DFF<Bits<32>>,
        keep: DFF<Bits<4>>,
        last: DFF<Bit>,
        /// A beat waits on `m_axis`.
        full: DFF<Bit>,
        /// Cycles since the last byte, while a beat is partly gathered.
        idle: DFF<Bits<16>>,
        /// The idle cycles after which a partly gathered beat leaves.
        timeout: Constant<Bits<16>>,
    }
}

impl ByteGatherer {
    /// A gatherer whose partly gathered beat leaves after `timeout` cycles
    /// without a byte.
    pub fn new(timeout: u16) -> Self {
        utf8hdl_hdl::with_axis_ports!(ByteGatherer[m_axis_tkeep] {
            lanes: Default::default(),
            keep: Default::default(),
            last: Default::default(),
            full: Default::default(),
            idle: Default::default(),
            timeout: Constant::new(u64::from(timeout).into()),
        })
    }
}

impl Logic for ByteGatherer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, lanes, keep, last, full, idle);
        self.m_axis_tdata.next = self.lanes.q.val();
        self.m_axis_tkeep.next = self.keep.q.val();
        self.m_axis_tvalid.next = self.full.q.val();
        self.m_axis_tlast.next = self.last.q.val();
        self.s_axis_tready.next = !self.full.q.val();
        if self.full.q.val() & self.m_axis_tready.val() {
            self.full.d.next = false;
            self.keep.d.next = 0.into();
            self.last.d.next = false;
        }
        if !self.full.q.val() & self.s_axis_tvalid.val() {
            self.lanes.d.next =
                (self.lanes.q.val() >> 8) | (bit_cast::<32, 8>(self.s_axis_tdata.val()) << 24);
            self.keep.d.next = (self.keep.q.val() >> 1) | 8;
            self.idle.d.next = 0.into();
            // The fourth byte (three lanes kept already), or the last of
            // its message.
            if self.keep.q.val().get_bit(1) | self.s_axis_tlast.val() {
                self.full.d.next = true;
                self.last.d.next = self.s_axis_tlast.val();
            }
        }
        if !self.full.q.val() & !self.s_axis_tvalid.val() & self.keep.q.val().any() {
            self.idle.d.next = self.idle.q.val() + 1;
            if self.idle.q.val() == self.timeout.val() {
                self.full.d.next = true;
                self.idle.d.next = 0.into();
            }
        }
        if self.rst.val() {
            self.full.d.next = false;
            self.keep.d.next = 0.into();
            self.last.d.next = false;
            self.idle.d.next = 0.into();
        }
    }
}
