//! # `SkidBuffer`: the input register slice that makes `s_axis_tready` a flop
//!
//! ## Parameter
//! `W`: the payload width, 8 for a byte.
//!
//! The pipeline behind it advances on `advance`, which is combinational in
//! `m_axis_tready`. AXI4-Stream lets the producer see only registered
//! ready signals from us, so this block absorbs the one byte that arrives in
//! the cycle where `advance` falls, and drops `s_axis_tready` one cycle later.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `s_axis_tdata`/`tvalid`/`tlast` | in | W/1/1 | the incoming beat |
//! | `s_axis_tready` | out | 1 | registered: high when the buffer is empty |
//! | `advance` | in | 1 | the pipeline takes `byte` this cycle |
//! | `byte.tdata`/`tvalid`/`tlast` | out | W/1/1 | [`BeatOut`]: the oldest beat not yet taken (combinational) |
//!
//! ## Latency
//! Zero: when the buffer is empty the incoming byte passes straight through.
//!
//! ```text
//! clock           _/‾\_/‾\_/‾\_/‾\_/‾\_
//! advance          ‾‾‾‾‾‾\___/‾‾‾‾‾‾‾‾‾     the pipeline stalls for one cycle
//! s_axis_tdata     < a >< b >< c >< c >< d >
//! s_axis_tready    ‾‾‾‾‾‾‾‾‾‾\___/‾‾‾‾‾     b is buffered, so ready drops
//! byte.tdata       < a >< b >< b >< c >< d >
//! ```
//!
//! ## Invariants
//! * `s_axis_tready == !buffered_valid`: a byte is accepted only when there
//!   is room for it, and at most one byte is ever buffered.
//! * Bytes leave in the order they arrived; none is lost or duplicated.
//! * With `advance` high on every cycle, `s_axis_tready` stays high.
//!
//! These invariants are proven for the block alone, for all time
//! (`utf8hdl formal --block skid_buffer`, `hdl/formal/blocks/skid_buffer_properties.v`).

use rust_hdl::prelude::*;

/// A beat on its way down the pipeline, out of the skid buffer; joined to a
/// [`BeatIn`]. `W` is the width of its payload: 8 for the 1-lane decoder's
/// byte, tkeep and tdata together for the wide decoder's.
#[derive(LogicInterface, Default)]
#[join = "BeatIn"]
pub struct BeatOut<const W: usize> {
    pub tdata: Signal<Out, Bits<W>>,
    pub tvalid: Signal<Out, Bit>,
    pub tlast: Signal<Out, Bit>,
}

/// The receiving end of a [`BeatOut`].
#[derive(LogicInterface, Default)]
#[join = "BeatOut"]
pub struct BeatIn<const W: usize> {
    pub tdata: Signal<In, Bits<W>>,
    pub tvalid: Signal<In, Bit>,
    pub tlast: Signal<In, Bit>,
}

#[derive(LogicBlock, Default)]
pub struct SkidBuffer<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub s_axis_tdata: Signal<In, Bits<W>>,
    pub s_axis_tvalid: Signal<In, Bit>,
    pub s_axis_tlast: Signal<In, Bit>,
    pub s_axis_tready: Signal<Out, Bit>,
    pub advance: Signal<In, Bit>,
    pub byte: BeatOut<W>,
    /// The registered `s_axis_tready`.
    ready: DFF<Bit>,
    /// A byte accepted while the pipeline was stalled.
    pub buffered_valid: DFF<Bit>,
    pub buffered_tdata: DFF<Bits<W>>,
    buffered_tlast: DFF<Bit>,
}

impl<const W: usize> Logic for SkidBuffer<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            ready,
            buffered_valid,
            buffered_tdata,
            buffered_tlast
        );
        self.s_axis_tready.next = self.ready.q.val();
        if self.buffered_valid.q.val() {
            self.byte.tdata.next = self.buffered_tdata.q.val();
            self.byte.tlast.next = self.buffered_tlast.q.val();
            self.byte.tvalid.next = true;
        } else {
            self.byte.tdata.next = self.s_axis_tdata.val();
            self.byte.tlast.next = self.s_axis_tlast.val();
            self.byte.tvalid.next = self.s_axis_tvalid.val() & self.ready.q.val();
        }
        // While the buffer is empty its payload follows the input, so that
        // the payload registers' enable is the `ready` flop alone, not
        // `advance` (combinational in `m_axis_tready`): the payload is
        // read only once `buffered_valid` says a beat is held, and a beat
        // is taken into the buffer only on a cycle with `ready` high.
        if self.ready.q.val() {
            self.buffered_tdata.d.next = self.s_axis_tdata.val();
            self.buffered_tlast.d.next = self.s_axis_tlast.val();
        }
        // ready is registered as "the buffer will be empty".
        self.ready.d.next = !self.buffered_valid.q.val();
        if self.advance.val() {
            self.buffered_valid.d.next = false;
            self.ready.d.next = true;
        } else if self.s_axis_tvalid.val() & self.ready.q.val() {
            self.buffered_valid.d.next = true;
            self.ready.d.next = false;
        }
        if self.rst.val() {
            self.buffered_valid.d.next = false;
            self.ready.d.next = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skid_buffer_is_synthesizable() {
        crate::assert_synthesizable(SkidBuffer::<8>::default());
    }
}
