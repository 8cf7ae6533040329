//! # `OutputRegister`: pipeline stage 3, the `m_axis` side
//!
//! Every `m_axis_*` output is a flop here. Each cycle it loads either the
//! error of a sequence that stage 2 has just registered (`pre_error_*`), or
//! the word stage 2 registered one cycle earlier, which waits in
//! `delayed_*`. They never compete (see the invariants of
//! [`DecoderFsm`](crate::decoder::DecoderFsm)), so no FIFO is needed: two
//! registers, and the whole pipeline holds while a word waits. U+FFFD is
//! substituted here, under a choice made only of flops, which keeps the
//! 32-bit load off the decoder's critical path.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `pre_error_valid`, `pre_error_tuser` | in | 1/4 | a U+FFFD to send next |
//! | `word_tvalid`/`tdata`/`tuser`/`tlast` | in | 1/32/4/1 | the next word, sent one cycle later |
//! | `m_axis_tdata`/`tuser`/`tvalid`/`tlast` | out | 32/4/1/1 | registered |
//! | `m_axis_tready` | in | 1 | handshake |
//! | `advance` | out | 1 | the pipeline may move: `!m_axis_tvalid \| m_axis_tready` |
//!
//! ## Latency
//! One cycle for `pre_error_*`, two for `word_*`.
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
//! * A U+FFFD from `pre_error_*` never carries `tlast`: the byte that broke
//!   the sequence still has its own unit to come.
//! * `m_axis_tdata` is U+FFFD exactly when `m_axis_tuser[0]` is set.

use rust_hdl::prelude::*;

use crate::interface::REPLACEMENT;

#[derive(LogicBlock)]
pub struct OutputRegister {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub pre_error_valid: Signal<In, Bit>,
    pub pre_error_tuser: Signal<In, Bits<4>>,
    pub word_tvalid: Signal<In, Bit>,
    pub word_tdata: Signal<In, Bits<32>>,
    pub word_tuser: Signal<In, Bits<4>>,
    pub word_tlast: Signal<In, Bit>,
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
    tdata_reg: DFF<Bits<32>>,
    tuser_reg: DFF<Bits<4>>,
    tvalid_reg: DFF<Bit>,
    tlast_reg: DFF<Bit>,
    replacement: Constant<Bits<32>>,
}

impl Default for OutputRegister {
    fn default() -> Self {
        OutputRegister {
            clock: Default::default(),
            rst: Default::default(),
            pre_error_valid: Default::default(),
            pre_error_tuser: Default::default(),
            word_tvalid: Default::default(),
            word_tdata: Default::default(),
            word_tuser: Default::default(),
            word_tlast: Default::default(),
            m_axis_tdata: Default::default(),
            m_axis_tuser: Default::default(),
            m_axis_tvalid: Default::default(),
            m_axis_tlast: Default::default(),
            m_axis_tready: Default::default(),
            advance: Default::default(),
            delayed_tvalid: Default::default(),
            delayed_tdata: Default::default(),
            delayed_tuser: Default::default(),
            delayed_tlast: Default::default(),
            tdata_reg: Default::default(),
            tuser_reg: Default::default(),
            tvalid_reg: Default::default(),
            tlast_reg: Default::default(),
            replacement: Constant::new((REPLACEMENT as u64).into()),
        }
    }
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
            tdata_reg,
            tuser_reg,
            tvalid_reg,
            tlast_reg
        );
        self.m_axis_tdata.next = self.tdata_reg.q.val();
        self.m_axis_tuser.next = self.tuser_reg.q.val();
        self.m_axis_tvalid.next = self.tvalid_reg.q.val();
        self.m_axis_tlast.next = self.tlast_reg.q.val();
        self.advance.next = !self.tvalid_reg.q.val() | self.m_axis_tready.val();
        if !self.tvalid_reg.q.val() | self.m_axis_tready.val() {
            self.delayed_tvalid.d.next = self.word_tvalid.val();
            self.delayed_tdata.d.next = self.word_tdata.val();
            self.delayed_tuser.d.next = self.word_tuser.val();
            self.delayed_tlast.d.next = self.word_tlast.val();
            if self.pre_error_valid.val() {
                self.tvalid_reg.d.next = true;
                self.tuser_reg.d.next = self.pre_error_tuser.val();
                self.tlast_reg.d.next = false;
            } else {
                self.tvalid_reg.d.next = self.delayed_tvalid.q.val();
                self.tuser_reg.d.next = self.delayed_tuser.q.val();
                self.tlast_reg.d.next = self.delayed_tlast.q.val();
            }
            if self.pre_error_valid.val() | self.delayed_tuser.q.val().get_bit(0) {
                self.tdata_reg.d.next = self.replacement.val();
            } else {
                self.tdata_reg.d.next = self.delayed_tdata.q.val();
            }
        }
        if self.rst.val() {
            self.delayed_tvalid.d.next = false;
            self.tvalid_reg.d.next = false;
        }
    }
}
