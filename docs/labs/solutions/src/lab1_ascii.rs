//! Lab 1, solved: every byte is an ASCII character, forwarded as its
//! UCS-4 word one cycle later. See `docs/labs/student/src/lab1_ascii.rs`.

use rust_hdl::prelude::*;

/// Forwards each ASCII byte as a 32-bit word, registered. The sink is
/// always ready in this lab, so `s_axis_tready` is a constant 1.
#[derive(LogicBlock, Default)]
pub struct AsciiPassthrough {
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

impl Logic for AsciiPassthrough {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, word, valid, last);
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
