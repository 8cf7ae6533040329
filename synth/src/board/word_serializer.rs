//! # `WordSerializer`: 4-lane beats of words into one word a cycle
//!
//! Takes a beat of the wide decoder (four 32-bit word lanes and their
//! `tkeep`) and sends its kept words one a cycle, lowest lane first; a
//! null lane costs a cycle and sends nothing. The beat's `tlast` goes with
//! its last kept word; a beat with no word kept is dropped, `tlast` and all
//! (what follows the serializer, the UTF-8 encoder, needs no message
//! boundary to echo bytes). `tuser` is not carried: the decoder's error
//! words are U+FFFD already.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clk`, `rst` | in | 1 | clock; synchronous reset |
//! | `s_axis_tdata` | in | 128 | word lane *i* in bits 32*i*+31..32*i* |
//! | `s_axis_tkeep` | in | 4 | the lanes holding a word |
//! | `s_axis_tvalid`, `s_axis_tready`, `s_axis_tlast` | | 1 | the beat |
//! | `m_axis_tdata` | out | 32 | a word |
//! | `m_axis_tvalid`, `m_axis_tready`, `m_axis_tlast` | | 1 | the word |
//!
//! Every output is a flop: the beat is held in a register that shifts down
//! a lane as each lane leaves.
//!
//! ```text
//! cycle           0      1      2      3
//! s_axis_tkeep    1011   --     --     --
//! s_axis_tready   1      0      0      0
//! m_axis_tvalid   0      1      1      0     (lane 2 null)   1 at cycle 4
//! ```
//!
//! ## Invariants
//! * `s_axis_tready` is high exactly while no lane is held: a beat goes
//!   in only once the last one is out.
//! * `m_axis_tvalid` is the held lowest lane's `tkeep` bit.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct WordSerializer {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub s_axis_tdata: Signal<In, Bits<128>>,
    pub s_axis_tkeep: Signal<In, Bits<4>>,
    pub s_axis_tvalid: Signal<In, Bit>,
    pub s_axis_tready: Signal<Out, Bit>,
    pub s_axis_tlast: Signal<In, Bit>,
    pub m_axis_tdata: Signal<Out, Bits<32>>,
    pub m_axis_tvalid: Signal<Out, Bit>,
    pub m_axis_tready: Signal<In, Bit>,
    pub m_axis_tlast: Signal<Out, Bit>,
    lanes: DFF<Bits<128>>,
    keep: DFF<Bits<4>>,
    last: DFF<Bit>,
}

impl Logic for WordSerializer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, lanes, keep, last);
        self.s_axis_tready.next = !self.keep.q.val().any();
        self.m_axis_tdata.next = self.lanes.q.val().get_bits::<32>(0);
        self.m_axis_tvalid.next = self.keep.q.val().get_bit(0);
        self.m_axis_tlast.next = self.last.q.val() & (self.keep.q.val() == 1);
        if !self.keep.q.val().any() {
            if self.s_axis_tvalid.val() {
                self.lanes.d.next = self.s_axis_tdata.val();
                self.keep.d.next = self.s_axis_tkeep.val();
                self.last.d.next = self.s_axis_tlast.val();
            }
        } else if !self.keep.q.val().get_bit(0) | self.m_axis_tready.val() {
            self.lanes.d.next = self.lanes.q.val() >> 32;
            self.keep.d.next = self.keep.q.val() >> 1;
        }
        if self.rst.val() {
            self.keep.d.next = 0.into();
        }
    }
}
