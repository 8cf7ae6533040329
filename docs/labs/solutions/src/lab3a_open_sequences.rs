//! Lab 3a, solved: a sequence held open until it completes, or until a
//! lead or the message's end closes it. See
//! `docs/labs/student/src/lab3a_open_sequences.rs`.

use rust_hdl::prelude::*;

/// Decodes UTF-8 of one to four octets (RFC 3629 §3), one byte per clock,
/// and closes a sequence that cannot go on with one U+FFFD `truncated`
/// (`m_axis_tuser` 7): when a lead comes where a continuing octet is due
/// (the lead then opens its own sequence), or when the message ends inside
/// the character. A continuing octet with no sequence open is a U+FFFD
/// `unexpected_continuation` (5) of its own.
///
/// Invariant: a byte gives at most one word, on the lab's input: a lead
/// that breaks a sequence gives the sequence's word and none of its own
/// (it opens the next), and the lab's input never ends a message with
/// such a lead, nor breaks a sequence with a byte that is a unit by
/// itself (lab 4's two words from one byte).
#[derive(LogicBlock, Default)]
pub struct OpenSequenceDecoder {
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
    /// Continuing octets still due: 0 when no sequence is open.
    bytes_left: DFF<Bits<2>>,
    word: DFF<Bits<32>>,
    tuser: DFF<Bits<4>>,
    valid: DFF<Bit>,
    last: DFF<Bit>,
    /// The byte, zero-extended.
    octet: Signal<Local, Bits<32>>,
    /// The byte is 10xxxxxx.
    continuing: Signal<Local, Bit>,
}

impl Logic for OpenSequenceDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, gathered, bytes_left, word, tuser, valid, last);
        self.s_axis_tready.next = true;
        self.octet.next = bit_cast::<32, 8>(self.s_axis_tdata.val());
        self.continuing.next =
            self.s_axis_tdata.val().get_bit(7) & !self.s_axis_tdata.val().get_bit(6);
        self.valid.d.next = false;
        if self.s_axis_tvalid.val() {
            self.last.d.next = self.s_axis_tlast.val();
            self.tuser.d.next = 0.into();
            if self.continuing.val() & (self.bytes_left.q.val() != 0) {
                self.gathered.d.next = (self.gathered.q.val() << 6) | (self.octet.val() & 0x3F);
                self.bytes_left.d.next = self.bytes_left.q.val() - 1;
                if self.bytes_left.q.val() == 1 {
                    self.word.d.next = (self.gathered.q.val() << 6) | (self.octet.val() & 0x3F);
                    self.valid.d.next = true;
                } else if self.s_axis_tlast.val() {
                    // The message ends inside the character.
                    self.word.d.next = 0xFFFD.into();
                    self.tuser.d.next = 0x7.into(); // truncated
                    self.valid.d.next = true;
                    self.bytes_left.d.next = 0.into();
                }
            } else if self.continuing.val() {
                self.word.d.next = 0xFFFD.into();
                self.tuser.d.next = 0x5.into(); // unexpected_continuation
                self.valid.d.next = true;
            } else {
                if self.bytes_left.q.val() != 0 {
                    // Not the continuing octet that was due.
                    self.word.d.next = 0xFFFD.into();
                    self.tuser.d.next = 0x7.into(); // truncated
                    self.valid.d.next = true;
                }
                if !self.s_axis_tdata.val().get_bit(7) {
                    self.word.d.next = self.octet.val();
                    self.valid.d.next = true;
                    self.bytes_left.d.next = 0.into();
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
                if self.s_axis_tdata.val().get_bit(7) & self.s_axis_tlast.val() {
                    // A lead that ends its message: it is all there is.
                    self.word.d.next = 0xFFFD.into();
                    self.tuser.d.next = 0x7.into(); // truncated
                    self.valid.d.next = true;
                    self.bytes_left.d.next = 0.into();
                }
            }
        }
        if self.rst.val() {
            self.valid.d.next = false;
            self.bytes_left.d.next = 0.into();
        }
        self.m_axis_tdata.next = self.word.q.val();
        self.m_axis_tuser.next = self.tuser.q.val();
        self.m_axis_tvalid.next = self.valid.q.val();
        self.m_axis_tlast.next = self.last.q.val();
    }
}
