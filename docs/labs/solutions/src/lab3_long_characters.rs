//! Lab 3, solved: characters of one to four octets. See
//! `docs/labs/student/src/lab3_long_characters.rs`.

use rust_hdl::prelude::*;

/// Decodes well-formed UTF-8 of one to four octets (RFC 3629 §3), one
/// byte per clock, a word a cycle after the byte that completes it.
#[derive(LogicBlock, Default)]
pub struct LongCharacterDecoder {
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
    /// The free bits so far.
    gathered: DFF<Bits<32>>,
    /// Continuing octets still due: 0 between characters.
    bytes_left: DFF<Bits<2>>,
    word: DFF<Bits<32>>,
    valid: DFF<Bit>,
    last: DFF<Bit>,
    /// The byte, zero-extended.
    octet: Signal<Local, Bits<32>>,
}

impl Logic for LongCharacterDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, gathered, bytes_left, word, valid, last);
        self.s_axis_tready.next = true;
        self.octet.next = bit_cast::<32, 8>(self.s_axis_tdata.val());
        self.valid.d.next = false;
        if self.s_axis_tvalid.val() {
            self.last.d.next = self.s_axis_tlast.val();
            if self.bytes_left.q.val() != 0 {
                // 10xxxxxx: six more bits.
                self.gathered.d.next = (self.gathered.q.val() << 6) | (self.octet.val() & 0x3F);
                self.bytes_left.d.next = self.bytes_left.q.val() - 1;
                if self.bytes_left.q.val() == 1 {
                    self.word.d.next = (self.gathered.q.val() << 6) | (self.octet.val() & 0x3F);
                    self.valid.d.next = true;
                }
            } else if !self.s_axis_tdata.val().get_bit(7) {
                self.word.d.next = self.octet.val();
                self.valid.d.next = true;
            } else if !self.s_axis_tdata.val().get_bit(5) {
                // 110yyyyy
                self.gathered.d.next = self.octet.val() & 0x1F;
                self.bytes_left.d.next = 1.into();
            } else if !self.s_axis_tdata.val().get_bit(4) {
                // 1110zzzz
                self.gathered.d.next = self.octet.val() & 0x0F;
                self.bytes_left.d.next = 2.into();
            } else {
                // 11110uuu
                self.gathered.d.next = self.octet.val() & 0x07;
                self.bytes_left.d.next = 3.into();
            }
        }
        if self.rst.val() {
            self.valid.d.next = false;
            self.bytes_left.d.next = 0.into();
        }
        self.m_axis_tdata.next = self.word.q.val();
        self.m_axis_tuser.next = 0.into();
        self.m_axis_tvalid.next = self.valid.q.val();
        self.m_axis_tlast.next = self.last.q.val();
    }
}
