//! Lab 3b, solved: RFC 3629 §4's bounds on a lead and on the byte after
//! it. See `docs/labs/student/src/lab3b_bounds.rs`.

use rust_hdl::prelude::*;

/// Decodes UTF-8 (RFC 3629 §4's table), one byte per clock with the sink
/// always ready, and closes what cannot be a character with one U+FFFD,
/// its kind in `m_axis_tuser` (2 × code + 1): a sequence broken by a lead
/// or by the end of its message, 7 `truncated`; a continuing octet where a
/// unit starts, 5 `unexpected_continuation`; C0 and C1, 9 `overlong`;
/// F5–FD, D `out_of_range`; FE and FF, 3 `invalid_byte`. A lead registers
/// the bounds of the byte after it (A0–BF after E0, 80–9F after ED, 90–BF
/// after F0, 80–8F after F4, 80–BF after any other) and the kind of a
/// continuing octet outside them (`overlong`, `surrogate`,
/// `out_of_range`).
///
/// A second byte out of bounds is not part of the lead's error: the lead
/// alone is the U+FFFD of that kind, and the byte is read again where a
/// unit starts, so it is a U+FFFD `unexpected_continuation` of its own.
/// That byte gives two words: the lead's goes to the `m_axis` flops, and
/// the second, always U+FFFD `unexpected_continuation`, is owed (`owed`,
/// with its `tlast`) and leaves in the next cycle.
///
/// Invariant, on the lab's input: while a word is owed, the byte of the
/// cycle gives no word (a lead that opens a character) or another U+FFFD
/// `unexpected_continuation` (a lone continuing octet), which is owed in
/// its turn. Any other word after a second byte out of bounds (`E0 80 41`)
/// would need a register of a whole word: lab 4's.
#[derive(LogicBlock, Default)]
pub struct BoundsDecoder {
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
    /// The bounds of the next continuing octet.
    low: DFF<Bits<8>>,
    high: DFF<Bits<8>>,
    /// The `tuser` of a continuing octet outside them.
    outside: DFF<Bits<4>>,
    /// The `m_axis` flops.
    word: DFF<Bits<32>>,
    tuser: DFF<Bits<4>>,
    valid: DFF<Bit>,
    last: DFF<Bit>,
    /// A U+FFFD `unexpected_continuation` still to send, and its `tlast`.
    owed: DFF<Bit>,
    owed_last: DFF<Bit>,
    /// The byte, zero-extended.
    octet: Signal<Local, Bits<32>>,
    /// The byte is 10xxxxxx.
    continuing: Signal<Local, Bit>,
    /// The byte continues the open sequence, inside its bounds.
    fits: Signal<Local, Bit>,
    /// The byte's word (the lead's U+FFFD, for a second byte out of
    /// bounds), and whether it gives one.
    gives: Signal<Local, Bit>,
    given_word: Signal<Local, Bits<32>>,
    given_tuser: Signal<Local, Bits<4>>,
    /// The byte is a second byte out of bounds: it also gives its own
    /// U+FFFD `unexpected_continuation`.
    rejected: Signal<Local, Bit>,
}

impl Logic for BoundsDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clk, gathered, bytes_left, low, high, outside, word, tuser, valid, last, owed,
            owed_last
        );
        self.s_axis_tready.next = true;
        self.octet.next = bit_cast::<32, 8>(self.s_axis_tdata.val());
        self.continuing.next =
            self.s_axis_tdata.val().get_bit(7) & !self.s_axis_tdata.val().get_bit(6);
        self.fits.next = self.continuing.val()
            & (self.bytes_left.q.val() != 0)
            & (self.s_axis_tdata.val() >= self.low.q.val())
            & (self.s_axis_tdata.val() <= self.high.q.val());
        self.gives.next = false;
        self.given_word.next = 0xFFFD.into();
        self.given_tuser.next = 0.into();
        self.rejected.next = false;
        if self.s_axis_tvalid.val() {
            if self.fits.val() {
                self.gathered.d.next = (self.gathered.q.val() << 6) | (self.octet.val() & 0x3F);
                self.bytes_left.d.next = self.bytes_left.q.val() - 1;
                self.low.d.next = 0x80.into();
                self.high.d.next = 0xBF.into();
                if self.bytes_left.q.val() == 1 {
                    self.gives.next = true;
                    self.given_word.next = (self.gathered.q.val() << 6) | (self.octet.val() & 0x3F);
                } else if self.s_axis_tlast.val() {
                    // The message ends inside the character.
                    self.gives.next = true;
                    self.given_tuser.next = 0x7.into(); // truncated
                    self.bytes_left.d.next = 0.into();
                }
            } else if self.continuing.val() & (self.bytes_left.q.val() != 0) {
                // Outside the lead's bounds: the lead alone is the error,
                // and the byte, read again, is a continuing octet where a
                // unit starts.
                self.gives.next = true;
                self.given_tuser.next = self.outside.q.val();
                self.rejected.next = true;
                self.bytes_left.d.next = 0.into();
            } else if self.continuing.val() {
                self.gives.next = true;
                self.given_tuser.next = 0x5.into(); // unexpected_continuation
            } else {
                if self.bytes_left.q.val() != 0 {
                    // Not the continuing octet that was due.
                    self.gives.next = true;
                    self.given_tuser.next = 0x7.into(); // truncated
                }
                self.bytes_left.d.next = 0.into();
                self.low.d.next = 0x80.into();
                self.high.d.next = 0xBF.into();
                if self.octet.val() < 0x80 {
                    self.gives.next = true;
                    self.given_word.next = self.octet.val();
                } else if self.octet.val() < 0xC2 {
                    self.gives.next = true;
                    self.given_tuser.next = 0x9.into(); // overlong
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
                    self.gives.next = true;
                    self.given_tuser.next = 0xD.into(); // out_of_range
                } else {
                    self.gives.next = true;
                    self.given_tuser.next = 0x3.into(); // invalid_byte
                }
                if self.s_axis_tlast.val() & (self.octet.val() >= 0xC2) & (self.octet.val() < 0xF5)
                {
                    // A lead that ends its message: it is all there is.
                    self.gives.next = true;
                    self.given_tuser.next = 0x7.into(); // truncated
                    self.bytes_left.d.next = 0.into();
                }
            }
        }
        // The owed word first; the byte's own word is then owed in turn.
        self.valid.d.next = false;
        self.owed.d.next = self.rejected.val();
        self.owed_last.d.next = self.s_axis_tlast.val();
        if self.owed.q.val() {
            self.valid.d.next = true;
            self.word.d.next = 0xFFFD.into();
            self.tuser.d.next = 0x5.into(); // unexpected_continuation
            self.last.d.next = self.owed_last.q.val();
            self.owed.d.next = self.gives.val();
        } else if self.gives.val() {
            self.valid.d.next = true;
            self.word.d.next = self.given_word.val();
            self.tuser.d.next = self.given_tuser.val();
            self.last.d.next = self.s_axis_tlast.val() & !self.rejected.val();
        }
        if self.rst.val() {
            self.valid.d.next = false;
            self.owed.d.next = false;
            self.bytes_left.d.next = 0.into();
        }
        self.m_axis_tdata.next = self.word.q.val();
        self.m_axis_tuser.next = self.tuser.q.val();
        self.m_axis_tvalid.next = self.valid.q.val();
        self.m_axis_tlast.next = self.last.q.val();
    }
}
