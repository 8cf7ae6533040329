//! # Lab 5: backpressure
//!
//! **Objective.** Lab 1's passthrough, AXI4-Stream correct under a sink
//! that stalls (chapter 5): a word shown on `m_axis` while `m_axis_tready`
//! is low holds, unchanged, until it is taken; no byte is lost or
//! duplicated; every output, `s_axis_tready` included, is a flop; and
//! `s_axis_tready` is low only when it must be: after a cycle in which the
//! sink was ready, it is high (one byte per clock while the sink takes
//! every word). The check fails an output that moves in the same cycle as
//! an input, before the clock's edge. The input is every ASCII byte, up
//! and down, eight times (2,048 bytes), in messages: one of 256 bytes,
//! then 512 bytes in messages of 1 to 13, then the rest as one; the
//! source idles on a cycle in four and the sink stalls on one in two, at
//! random (a fixed seed).
//!
//! **This starting file** is lab 1's solution: it ignores `m_axis_tready`,
//! so `utf8hdl lab check 5` stops the first time the sink stalls with a
//! word on `m_axis`, which is replaced by the next: `a stalled word did
//! not hold: tdata=00000001 tuser=0 tlast=0 became tdata=00000002 tuser=0
//! tlast=0`.
//!
//! **Exercises.**
//! 1. Load the output register only when it is empty or its word is being
//!    taken (`advance = !m_axis_tvalid | m_axis_tready`). `s_axis_tready`
//!    must be a flop, so it falls a cycle after `advance` does: keep the
//!    byte accepted in that cycle in a one-entry skid register, drive
//!    `s_axis_tready` from a flop that says the skid register is empty,
//!    and let the output register take the skid's byte before a new one.
//! 2. Why not `s_axis_tready = !m_axis_tvalid | m_axis_tready`? (What path
//!    would it make from the block after this one to the block before
//!    it?) Then draw a stall of two cycles: in which cycles is
//!    `s_axis_tready` low, and which byte waits in the skid register?

use rust_hdl::prelude::*;

/// Forwards each ASCII byte as a 32-bit word, registered.
/// TODO (exercise 1): honour `m_axis_tready`.
#[derive(LogicBlock, Default)]
pub struct BackpressurePassthrough {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub s_axis_tdata: Signal<In, Bits<8>>,
    pub s_axis_tvalid: Signal<In, Bit>,
    pub s_axis_tready: Signal<Out, Bit>,
    pub s_axis_tlast: Signal<In, Bit>,
    pub m_axis_tdata: Signal<Out, Bits<32>>,
    pub m_axis_tuser: Signal<Out, Bits<4>>,
    pub m_axis_tvalid: Signal<Out, Bit>,
    pub m_axis_tready: Signal<In, Bit>,
    pub m_axis_tlast: Signal<Out, Bit>,
    word: DFF<Bits<32>>,
    valid: DFF<Bit>,
    last: DFF<Bit>,
}

impl Logic for BackpressurePassthrough {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, word, valid, last);
        // TODO (exercise 1): a registered s_axis_tready, low only while a
        // byte waits in the skid register.
        self.s_axis_tready.next = true;
        self.word.d.next = bit_cast::<32, 8>(self.s_axis_tdata.val());
        self.valid.d.next = self.s_axis_tvalid.val() & !self.rst.val();
        self.last.d.next = self.s_axis_tlast.val();
        self.m_axis_tdata.next = self.word.q.val();
        self.m_axis_tuser.next = 0.into();
        self.m_axis_tvalid.next = self.valid.q.val();
        self.m_axis_tlast.next = self.last.q.val();
    }
}
