//! Lab 5, solved: lab 1's passthrough under backpressure. See
//! `docs/labs/student/src/lab5_backpressure.rs`.

use rust_hdl::prelude::*;

/// Forwards each ASCII byte as a 32-bit word and honours `m_axis_tready`;
/// every output is a flop.
///
/// The output register loads when it is empty or its word is being taken
/// (`advance = !m_axis_tvalid | m_axis_tready`), and holds otherwise.
/// `s_axis_tready` is a flop, so it falls one cycle late: the byte accepted
/// in the cycle where `advance` falls waits in a one-entry skid register,
/// and the output register takes it before any new byte.
///
/// Invariants: `s_axis_tready == !skid_valid`, so a byte is accepted only
/// when there is room for it; bytes leave in the order they came, none
/// lost or duplicated; after a cycle with `m_axis_tready` high,
/// `s_axis_tready` is high (one byte per clock while the sink takes them).
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
    /// The registered `s_axis_tready`: the skid register is empty.
    ready: DFF<Bit>,
    /// A byte accepted while the output register could not take it.
    skid_valid: DFF<Bit>,
    skid_word: DFF<Bits<32>>,
    skid_last: DFF<Bit>,
    /// The `m_axis` flops.
    word: DFF<Bits<32>>,
    valid: DFF<Bit>,
    last: DFF<Bit>,
    /// The output register loads this cycle.
    advance: Signal<Local, Bit>,
}

impl Logic for BackpressurePassthrough {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, ready, skid_valid, skid_word, skid_last, word, valid, last);
        self.s_axis_tready.next = self.ready.q.val();
        self.advance.next = !self.valid.q.val() | self.m_axis_tready.val();
        if self.advance.val() {
            // Load the oldest byte not yet sent: the skid's, else the input's.
            if self.skid_valid.q.val() {
                self.word.d.next = self.skid_word.q.val();
                self.last.d.next = self.skid_last.q.val();
                self.valid.d.next = true;
            } else {
                self.word.d.next = bit_cast::<32, 8>(self.s_axis_tdata.val());
                self.last.d.next = self.s_axis_tlast.val();
                self.valid.d.next = self.s_axis_tvalid.val() & self.ready.q.val();
            }
            self.skid_valid.d.next = false;
            self.ready.d.next = true;
        } else if self.s_axis_tvalid.val() & self.ready.q.val() {
            // Accepted, but the word ahead of it holds: keep it, and drop
            // s_axis_tready from the next cycle.
            self.skid_valid.d.next = true;
            self.skid_word.d.next = bit_cast::<32, 8>(self.s_axis_tdata.val());
            self.skid_last.d.next = self.s_axis_tlast.val();
            self.ready.d.next = false;
        }
        if self.rst.val() {
            self.valid.d.next = false;
            self.skid_valid.d.next = false;
            self.ready.d.next = true;
        }
        self.m_axis_tdata.next = self.word.q.val();
        self.m_axis_tuser.next = 0.into();
        self.m_axis_tvalid.next = self.valid.q.val();
        self.m_axis_tlast.next = self.last.q.val();
    }
}
