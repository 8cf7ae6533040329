//! Lab 4, solved: one U+FFFD per maximal subpart, with its kind in
//! `m_axis_tuser`. See `docs/labs/student/src/lab4_error_policy.rs`.

use rust_hdl::prelude::*;

/// Decodes UTF-8 (RFC 3629 §3), one byte per clock with the sink always
/// ready, and replaces each maximal subpart of malformed input with one
/// U+FFFD (Unicode §3.9), its kind in `m_axis_tuser`: 2 × code + 1 (README,
/// "Error kinds"), so 3 invalid_byte, 5 unexpected_continuation,
/// 7 truncated, 9 overlong, B surrogate, D out_of_range.
///
/// A byte that breaks the open sequence gives that sequence's error, and
/// is then read as the start of a unit of its own, in the same cycle: one
/// byte, up to two words. The first goes to the `m_axis` flops, the second
/// to a holding register (`held_*`) that sends it in the next cycle.
///
/// Invariant: while `held_valid` is high no sequence is open, so the byte
/// of that cycle gives at most one word and the holding register is never
/// asked to hold two. (A second word only comes from a byte that breaks an
/// open sequence, and it leaves none open; a lead that opens one from
/// nothing gives no word, which lets the held word leave.)
#[derive(LogicBlock, Default)]
pub struct ErrorPolicyDecoder {
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
    /// The bounds of the next continuing octet: 80–BF, but after E0 A0–BF,
    /// after ED 80–9F, after F0 90–BF and after F4 80–8F.
    low: DFF<Bits<8>>,
    high: DFF<Bits<8>>,
    /// The `tuser` of a continuing octet outside those bounds (overlong,
    /// surrogate, out of range).
    outside: DFF<Bits<4>>,
    /// The `m_axis` flops.
    word: DFF<Bits<32>>,
    tuser: DFF<Bits<4>>,
    valid: DFF<Bit>,
    last: DFF<Bit>,
    /// The second word of a byte that gave two.
    held_word: DFF<Bits<32>>,
    held_tuser: DFF<Bits<4>>,
    held_valid: DFF<Bit>,
    held_last: DFF<Bit>,
    /// The byte, zero-extended (named `octet`: `byte` is a SystemVerilog
    /// keyword, which Verilator rejects in the exported Verilog).
    octet: Signal<Local, Bits<32>>,
    /// The byte continues the open sequence.
    fits: Signal<Local, Bit>,
    /// The error of the sequence this byte breaks (always U+FFFD).
    broken_valid: Signal<Local, Bit>,
    broken_tuser: Signal<Local, Bits<4>>,
    /// The byte's own unit: a character it completes or is, an error it is,
    /// or the sequence it leaves open at the end of the message.
    own_valid: Signal<Local, Bit>,
    own_word: Signal<Local, Bits<32>>,
    own_tuser: Signal<Local, Bits<4>>,
}

impl Logic for ErrorPolicyDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clk, gathered, bytes_left, low, high, outside, word, tuser, valid, last,
            held_word, held_tuser, held_valid, held_last
        );
        self.s_axis_tready.next = true;
        self.octet.next = bit_cast::<32, 8>(self.s_axis_tdata.val());
        self.fits.next = (self.bytes_left.q.val() != 0)
            & (self.s_axis_tdata.val() >= self.low.q.val())
            & (self.s_axis_tdata.val() <= self.high.q.val());
        self.broken_valid.next = false;
        self.broken_tuser.next = 0x7.into(); // truncated
        self.own_valid.next = false;
        self.own_word.next = 0xFFFD.into();
        self.own_tuser.next = 0.into();
        if self.s_axis_tvalid.val() {
            if self.fits.val() {
                // 10xxxxxx, inside the bounds: six more bits.
                self.gathered.d.next = (self.gathered.q.val() << 6) | (self.octet.val() & 0x3F);
                self.bytes_left.d.next = self.bytes_left.q.val() - 1;
                self.low.d.next = 0x80.into();
                self.high.d.next = 0xBF.into();
                if self.bytes_left.q.val() == 1 {
                    self.own_valid.next = true;
                    self.own_word.next = (self.gathered.q.val() << 6) | (self.octet.val() & 0x3F);
                } else if self.s_axis_tlast.val() {
                    self.own_valid.next = true;
                    self.own_tuser.next = 0x7.into(); // truncated
                }
            } else {
                if self.bytes_left.q.val() != 0 {
                    // The byte breaks the open sequence: a continuing octet
                    // outside the second-byte bounds says why, any other
                    // byte leaves it truncated.
                    self.broken_valid.next = true;
                    if self.s_axis_tdata.val().get_bit(7) & !self.s_axis_tdata.val().get_bit(6) {
                        self.broken_tuser.next = self.outside.q.val();
                    }
                }
                // The byte starts a unit.
                self.bytes_left.d.next = 0.into();
                self.low.d.next = 0x80.into();
                self.high.d.next = 0xBF.into();
                self.outside.d.next = 0x7.into(); // truncated
                if self.octet.val() < 0x80 {
                    self.own_valid.next = true;
                    self.own_word.next = self.octet.val();
                } else if self.octet.val() < 0xC0 {
                    self.own_valid.next = true;
                    self.own_tuser.next = 0x5.into(); // unexpected_continuation
                } else if self.octet.val() < 0xC2 {
                    self.own_valid.next = true;
                    self.own_tuser.next = 0x9.into(); // overlong
                } else if self.octet.val() < 0xE0 {
                    self.gathered.d.next = self.octet.val() & 0x1F;
                    self.bytes_left.d.next = 1.into();
                } else if self.octet.val() < 0xF0 {
                    self.gathered.d.next = self.octet.val() & 0x0F;
                    self.bytes_left.d.next = 2.into();
                    if self.octet.val() == 0xE0 {
                        self.low.d.next = 0xA0.into();
                        self.outside.d.next = 0x9.into(); // overlong
                    }
                    if self.octet.val() == 0xED {
                        self.high.d.next = 0x9F.into();
                        self.outside.d.next = 0xB.into(); // surrogate
                    }
                } else if self.octet.val() < 0xF5 {
                    self.gathered.d.next = self.octet.val() & 0x07;
                    self.bytes_left.d.next = 3.into();
                    if self.octet.val() == 0xF0 {
                        self.low.d.next = 0x90.into();
                        self.outside.d.next = 0x9.into(); // overlong
                    }
                    if self.octet.val() == 0xF4 {
                        self.high.d.next = 0x8F.into();
                        self.outside.d.next = 0xD.into(); // out_of_range
                    }
                } else if self.octet.val() < 0xFE {
                    self.own_valid.next = true;
                    self.own_tuser.next = 0xD.into(); // out_of_range
                } else {
                    self.own_valid.next = true;
                    self.own_tuser.next = 0x3.into(); // invalid_byte
                }
                // A lead that the message's end leaves alone: truncated.
                if self.s_axis_tlast.val() & (self.octet.val() >= 0xC2) & (self.octet.val() < 0xF5)
                {
                    self.own_valid.next = true;
                    self.own_tuser.next = 0x7.into(); // truncated
                }
            }
            // No state crosses a message's end.
            if self.s_axis_tlast.val() {
                self.bytes_left.d.next = 0.into();
            }
        }
        // The words in order: the held one, the broken sequence's, the
        // byte's own. The first goes out, the second is held.
        self.valid.d.next = false;
        self.held_valid.d.next = false;
        if self.held_valid.q.val() {
            self.valid.d.next = true;
            self.word.d.next = self.held_word.q.val();
            self.tuser.d.next = self.held_tuser.q.val();
            self.last.d.next = self.held_last.q.val();
            if self.broken_valid.val() {
                self.held_valid.d.next = true;
                self.held_word.d.next = 0xFFFD.into();
                self.held_tuser.d.next = self.broken_tuser.val();
                self.held_last.d.next = false;
            } else if self.own_valid.val() {
                self.held_valid.d.next = true;
                self.held_word.d.next = self.own_word.val();
                self.held_tuser.d.next = self.own_tuser.val();
                self.held_last.d.next = self.s_axis_tlast.val();
            }
        } else if self.broken_valid.val() {
            self.valid.d.next = true;
            self.word.d.next = 0xFFFD.into();
            self.tuser.d.next = self.broken_tuser.val();
            self.last.d.next = false;
            if self.own_valid.val() {
                self.held_valid.d.next = true;
                self.held_word.d.next = self.own_word.val();
                self.held_tuser.d.next = self.own_tuser.val();
                self.held_last.d.next = self.s_axis_tlast.val();
            }
        } else if self.own_valid.val() {
            self.valid.d.next = true;
            self.word.d.next = self.own_word.val();
            self.tuser.d.next = self.own_tuser.val();
            self.last.d.next = self.s_axis_tlast.val();
        }
        if self.rst.val() {
            self.valid.d.next = false;
            self.held_valid.d.next = false;
            self.bytes_left.d.next = 0.into();
        }
        self.m_axis_tdata.next = self.word.q.val();
        self.m_axis_tuser.next = self.tuser.q.val();
        self.m_axis_tvalid.next = self.valid.q.val();
        self.m_axis_tlast.next = self.last.q.val();
    }
}
