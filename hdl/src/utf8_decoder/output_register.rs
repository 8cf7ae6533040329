//! # `OutputRegister`: pipeline stage 3, the `m_axis` side
//!
//! Every `m_axis_*` output is a flop here. Each cycle it loads either the
//! error of a sequence that stage 2 has just registered
//! (`units.pre_error_*`), or the word stage 2 registered one cycle earlier
//! (`units.word_*`), which waits in `delayed_*`. They never compete (see the invariants of
//! [`DecoderFsm`](crate::utf8_decoder::fsm::DecoderFsm)), so no FIFO is needed: two
//! registers, and the whole pipeline holds while a word waits. U+FFFD is
//! substituted here, under a choice made only of flops, which keeps the
//! 32-bit load off the decoder's critical path. (The other 1-lane cores,
//! with one source each, share the plain
//! [`AxisOutputRegister`](crate::stream::AxisOutputRegister).)
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `units.pre_error_valid`/`pre_error_tuser` | in | 1/4 | [`UnitsIn`]: a U+FFFD to send next |
//! | `units.word_tvalid`/`word_tdata`/`word_tuser`/`word_tlast` | in | 1/32/4/1 | the next word, sent one cycle later |
//! | `m_axis_tdata`/`tuser`/`tvalid`/`tlast` | out | 32/4/1/1 | registered |
//! | `m_axis_tready` | in | 1 | handshake |
//! | `advance` | out | 1 | the pipeline may move: `!m_axis_tvalid \| m_axis_tready` |
//!
//! ## Latency
//! One cycle for `units.pre_error_*`, two for `units.word_*`.
//!
//! ```text
//! clock          _/‾\_/‾\_/‾\_/‾\_/‾\_
//! m_axis_tready   ‾‾‾‾‾‾‾‾‾\_______/‾‾‾‾
//! m_axis_tvalid   ___/‾‾‾‾‾‾‾‾‾‾‾‾‾‾‾‾‾‾
//! m_axis_tdata       < w0 >< w1 ......>< w2 >   w1 holds while tready is low
//! advance         ‾‾‾‾‾‾‾‾‾\_______/‾‾‾‾
//! ```
//!
//! ## Invariants
//! * While `m_axis_tvalid & !m_axis_tready`, every `m_axis_*` output holds.
//! * A U+FFFD from `units.pre_error_*` never carries `tlast`: the byte that broke
//!   the sequence still has its own unit to come.
//! * `m_axis_tdata` is U+FFFD exactly when `m_axis_tuser[0]` is set.

use rust_hdl::prelude::*;

use crate::utf8_decoder::fsm::UnitsIn;

#[derive(LogicBlock, Default)]
pub struct OutputRegister {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub units: UnitsIn,
    pub m_axis_tdata: Signal<Out, Bits<32>>,
    pub m_axis_tuser: Signal<Out, Bits<4>>,
    pub m_axis_tvalid: Signal<Out, Bit>,
    pub m_axis_tlast: Signal<Out, Bit>,
    pub m_axis_tready: Signal<In, Bit>,
    pub advance: Signal<Out, Bit>,
    delayed_tvalid: DFF<Bit>,
    delayed_tdata: DFF<Bits<32>>,
    delayed_tuser: DFF<Bits<4>>,
    delayed_tlast: DFF<Bit>,
    tdata: DFF<Bits<32>>,
    tuser: DFF<Bits<4>>,
    tvalid: DFF<Bit>,
    tlast: DFF<Bit>,
}

impl Logic for OutputRegister {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            delayed_tvalid,
            delayed_tdata,
            delayed_tuser,
            delayed_tlast,
            tdata,
            tuser,
            tvalid,
            tlast
        );
        self.m_axis_tdata.next = self.tdata.q.val();
        self.m_axis_tuser.next = self.tuser.q.val();
        self.m_axis_tvalid.next = self.tvalid.q.val();
        self.m_axis_tlast.next = self.tlast.q.val();
        self.advance.next = !self.tvalid.q.val() | self.m_axis_tready.val();
        if !self.tvalid.q.val() | self.m_axis_tready.val() {
            self.delayed_tvalid.d.next = self.units.word_tvalid.val();
            self.delayed_tdata.d.next = self.units.word_tdata.val();
            self.delayed_tuser.d.next = self.units.word_tuser.val();
            self.delayed_tlast.d.next = self.units.word_tlast.val();
            if self.units.pre_error_valid.val() {
                self.tvalid.d.next = true;
                self.tuser.d.next = self.units.pre_error_tuser.val();
                self.tlast.d.next = false;
            } else {
                self.tvalid.d.next = self.delayed_tvalid.q.val();
                self.tuser.d.next = self.delayed_tuser.q.val();
                self.tlast.d.next = self.delayed_tlast.q.val();
            }
            if self.units.pre_error_valid.val() | self.delayed_tuser.q.val().get_bit(0) {
                // U+FFFD, the crate's `REPLACEMENT`.
                self.tdata.d.next = 0xFFFD.into();
            } else {
                self.tdata.d.next = self.delayed_tdata.q.val();
            }
        }
        if self.rst.val() {
            self.delayed_tvalid.d.next = false;
            self.tvalid.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_register_is_synthesizable() {
        crate::assert_synthesizable(OutputRegister::default());
    }
}
