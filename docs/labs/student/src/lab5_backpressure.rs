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
//! **This starting file** holds the ports and sends no word, so `utf8hdl
//! lab check 5` reports, at the first word due: `byte offset 0: expected
//! U+0000 ok, got no word`. Your lab 1 block, brought in as it is, ignores
//! `m_axis_tready`: the first time the sink stalls with a word on
//! `m_axis`, that word is replaced by the next (`a stalled word did not
//! hold: tdata=00000001 tuser=0 tlast=0 became tdata=00000002 tuser=0
//! tlast=0`).
//!
//! **Exercises.**
//! 1. Bring in your lab 1 block. Load the output register only when it is empty or its word is being
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

/// Forwards each ASCII byte as a 32-bit word and honours `m_axis_tready`.
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
}

impl Logic for BackpressurePassthrough {
    #[hdl_gen]
    fn update(&mut self) {
        // TODO (exercise 1): your lab 1 block, whose output register holds
        // while the sink stalls, with a skid register and a registered
        // s_axis_tready.
        self.s_axis_tready.next = true;
        self.m_axis_tdata.next = 0.into();
        self.m_axis_tuser.next = 0.into();
        self.m_axis_tvalid.next = false;
        self.m_axis_tlast.next = false;
    }
}
