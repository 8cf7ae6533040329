//! # Lab 7: the full decoder
//!
//! **Objective.** The decoder of chapters 2 to 5 in small: lab 6's two
//! stages under backpressure, as lab 5 taught. A word shown on `m_axis`
//! while `m_axis_tready` is low holds until it is taken; every output,
//! `s_axis_tready` included, is a flop; after a cycle in which the sink
//! was ready, `s_axis_tready` is high (one byte per clock while the sink
//! takes every word; the checker allows the lab's latency, 2). The input
//! is lab 4's (every kind of error among valid characters, and messages
//! that end inside a character in every state); the source idles on a
//! cycle in four and the sink stalls on one in two, at random (a fixed
//! seed).
//!
//! **This starting file** is lab 6's solution, which ignores
//! `m_axis_tready`, so `utf8hdl lab check 7` stops the first time the sink
//! stalls with a word on `m_axis`, the overlong `C0` of RFC 3629 §3's
//! `C0 80`, replaced by the U+FFFD of its `80`: `a stalled word did not
//! hold: tdata=0000FFFD tuser=9 tlast=0 became tdata=0000FFFD tuser=5
//! tlast=0`.
//!
//! **Exercises.**
//! 1. Make the pipeline stop as one: every register (the classifier's
//!    row, the decoder's state, the holding register, the `m_axis` flops)
//!    loads only when `advance = !m_axis_tvalid | m_axis_tready`, so give
//!    the classifier an `advance` input. Then lab 5's skid register and
//!    registered `s_axis_tready` in front of the classifier.
//! 2. Lab 4 showed that the holding register never holds two words at
//!    one byte per clock. Does that still hold with stalls on either
//!    side, and why? What in this design is the `SkidBuffer`, the
//!    `ByteClassifier`, the `DecoderFsm` and the `OutputRegister` of
//!    chapter 5's pipeline?

use rust_hdl::prelude::*;

/// Stage 1: registers, for each byte, the row of the classification table
/// that says what the byte means (RFC 3629 §3's table, chapter 2), so that
/// the decoder after it never compares a raw byte. Latency 1.
///
/// | byte | `continuing` | `free_bits` | `opens` | `low`–`high` | `outside` | `error` |
/// |---|---|---|---|---|---|---|
/// | 00–7F | 0 | 7 bits | 0 | | | 0 |
/// | 80–BF | 1 | 6 bits | 0 | | | 5 `unexpected_continuation` |
/// | C0–C1 | 0 | | 0 | | | 9 `overlong` |
/// | C2–DF | 0 | 5 bits | 1 | 00–3F | | 0 |
/// | E0 | 0 | 4 bits | 2 | 20–3F (A0–BF) | 9 `overlong` | 0 |
/// | E1–EC, EE–EF | 0 | 4 bits | 2 | 00–3F | | 0 |
/// | ED | 0 | 4 bits | 2 | 00–1F (80–9F) | B `surrogate` | 0 |
/// | F0 | 0 | 3 bits | 3 | 10–3F (90–BF) | 9 `overlong` | 0 |
/// | F1–F3 | 0 | 3 bits | 3 | 00–3F | | 0 |
/// | F4 | 0 | 3 bits | 3 | 00–0F (80–8F) | D `out_of_range` | 0 |
/// | F5–FD | 0 | | 0 | | | D `out_of_range` |
/// | FE–FF | 0 | | 0 | | | 3 `invalid_byte` |
///
/// Blank cells keep the defaults (`free_bits` the byte, bounds 00–3F,
/// `outside` 7 `truncated`), which the decoder never reads there.
#[derive(LogicBlock, Default)]
pub struct ByteClassifier {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// The byte, as `s_axis` offers it.
    pub tdata: Signal<In, Bits<8>>,
    pub tvalid: Signal<In, Bit>,
    pub tlast: Signal<In, Bit>,
    /// The row of the byte of the cycle before: a byte, and its `tlast`.
    pub valid: Signal<Out, Bit>,
    pub last: Signal<Out, Bit>,
    /// A continuing octet, 10xxxxxx.
    pub continuing: Signal<Out, Bit>,
    /// The byte's free bits (the `x`s of RFC 3629 §3's table), zero-extended.
    pub free_bits: Signal<Out, Bits<8>>,
    /// A lead: the continuing octets it needs (0 for any other byte).
    pub opens: Signal<Out, Bits<2>>,
    /// A lead: the bounds of the free bits of the octet after it.
    pub low: Signal<Out, Bits<8>>,
    pub high: Signal<Out, Bits<8>>,
    /// A lead: the `tuser` of a continuing octet outside those bounds.
    pub outside: Signal<Out, Bits<4>>,
    /// A byte that cannot start a unit: the `tuser` of its U+FFFD.
    pub error: Signal<Out, Bits<4>>,
    row_valid: DFF<Bit>,
    row_last: DFF<Bit>,
    row_continuing: DFF<Bit>,
    row_free_bits: DFF<Bits<8>>,
    row_opens: DFF<Bits<2>>,
    row_low: DFF<Bits<8>>,
    row_high: DFF<Bits<8>>,
    row_outside: DFF<Bits<4>>,
    row_error: DFF<Bits<4>>,
}

impl Logic for ByteClassifier {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clk,
            row_valid,
            row_last,
            row_continuing,
            row_free_bits,
            row_opens,
            row_low,
            row_high,
            row_outside,
            row_error
        );
        self.row_valid.d.next = self.tvalid.val() & !self.rst.val();
        self.row_last.d.next = self.tlast.val();
        self.row_continuing.d.next = false;
        self.row_free_bits.d.next = self.tdata.val();
        self.row_opens.d.next = 0.into();
        self.row_low.d.next = 0x00.into();
        self.row_high.d.next = 0x3F.into();
        self.row_outside.d.next = 0x7.into(); // truncated
        self.row_error.d.next = 0.into();
        if self.tdata.val() < 0x80 {
            // ASCII: the defaults.
        } else if self.tdata.val() < 0xC0 {
            self.row_continuing.d.next = true;
            self.row_free_bits.d.next = self.tdata.val() & 0x3F;
            self.row_error.d.next = 0x5.into(); // unexpected_continuation
        } else if self.tdata.val() < 0xC2 {
            self.row_error.d.next = 0x9.into(); // overlong
        } else if self.tdata.val() < 0xE0 {
            self.row_free_bits.d.next = self.tdata.val() & 0x1F;
            self.row_opens.d.next = 1.into();
        } else if self.tdata.val() < 0xF0 {
            self.row_free_bits.d.next = self.tdata.val() & 0x0F;
            self.row_opens.d.next = 2.into();
            if self.tdata.val() == 0xE0 {
                self.row_low.d.next = 0x20.into();
                self.row_outside.d.next = 0x9.into(); // overlong
            }
            if self.tdata.val() == 0xED {
                self.row_high.d.next = 0x1F.into();
                self.row_outside.d.next = 0xB.into(); // surrogate
            }
        } else if self.tdata.val() < 0xF5 {
            self.row_free_bits.d.next = self.tdata.val() & 0x07;
            self.row_opens.d.next = 3.into();
            if self.tdata.val() == 0xF0 {
                self.row_low.d.next = 0x10.into();
                self.row_outside.d.next = 0x9.into(); // overlong
            }
            if self.tdata.val() == 0xF4 {
                self.row_high.d.next = 0x0F.into();
                self.row_outside.d.next = 0xD.into(); // out_of_range
            }
        } else if self.tdata.val() < 0xFE {
            self.row_error.d.next = 0xD.into(); // out_of_range
        } else {
            self.row_error.d.next = 0x3.into(); // invalid_byte
        }
        self.valid.next = self.row_valid.q.val();
        self.last.next = self.row_last.q.val();
        self.continuing.next = self.row_continuing.q.val();
        self.free_bits.next = self.row_free_bits.q.val();
        self.opens.next = self.row_opens.q.val();
        self.low.next = self.row_low.q.val();
        self.high.next = self.row_high.q.val();
        self.outside.next = self.row_outside.q.val();
        self.error.next = self.row_error.q.val();
    }
}

/// Lab 4's decoder in two stages: the [`ByteClassifier`] registers each
/// byte's row, and the decoder here reads only rows, never a raw byte.
/// One byte per clock; a word two cycles after the byte that decides it
/// (latency 2).
/// TODO (exercise 1): honour `m_axis_tready`.
///
/// The decoder is lab 4's, row for byte: a continuing octet whose free
/// bits lie within the bounds its lead registered continues the open
/// sequence; any other byte breaks it (U+FFFD, `truncated` or the lead's
/// `outside` kind) and starts a unit of its own: a lead opens a sequence,
/// any other byte is a word (its free bits, or U+FFFD with its `error`).
/// The second word of a byte that gives two waits in `held_*`.
#[derive(LogicBlock, Default)]
pub struct FullDecoder {
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
    classifier: ByteClassifier,
    /// The free bits so far.
    gathered: DFF<Bits<32>>,
    /// Continuing octets still due: 0 between characters.
    bytes_left: DFF<Bits<2>>,
    /// The open sequence's bounds and `outside` kind, from its lead's row.
    low: DFF<Bits<8>>,
    high: DFF<Bits<8>>,
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
    /// The row continues the open sequence.
    fits: Signal<Local, Bit>,
    /// The error of the sequence this row breaks.
    broken_valid: Signal<Local, Bit>,
    broken_tuser: Signal<Local, Bits<4>>,
    /// The row's own unit.
    own_valid: Signal<Local, Bit>,
    own_word: Signal<Local, Bits<32>>,
    own_tuser: Signal<Local, Bits<4>>,
}

impl Logic for FullDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clk, gathered, bytes_left, low, high, outside, word, tuser, valid, last,
            held_word, held_tuser, held_valid, held_last
        );
        self.classifier.clk.next = self.clk.val();
        self.classifier.rst.next = self.rst.val();
        self.classifier.tdata.next = self.s_axis_tdata.val();
        self.classifier.tvalid.next = self.s_axis_tvalid.val();
        self.classifier.tlast.next = self.s_axis_tlast.val();
        // TODO (exercise 1): a registered s_axis_tready, low only while a
        // byte waits in the skid register.
        self.s_axis_tready.next = true;
        self.fits.next = (self.bytes_left.q.val() != 0)
            & self.classifier.continuing.val()
            & (self.classifier.free_bits.val() >= self.low.q.val())
            & (self.classifier.free_bits.val() <= self.high.q.val());
        self.broken_valid.next = false;
        self.broken_tuser.next = 0x7.into(); // truncated
        self.own_valid.next = false;
        self.own_word.next = 0xFFFD.into();
        self.own_tuser.next = 0.into();
        if self.classifier.valid.val() {
            if self.fits.val() {
                self.gathered.d.next = (self.gathered.q.val() << 6)
                    | bit_cast::<32, 8>(self.classifier.free_bits.val());
                self.bytes_left.d.next = self.bytes_left.q.val() - 1;
                self.low.d.next = 0x00.into();
                self.high.d.next = 0x3F.into();
                if self.bytes_left.q.val() == 1 {
                    self.own_valid.next = true;
                    self.own_word.next = (self.gathered.q.val() << 6)
                        | bit_cast::<32, 8>(self.classifier.free_bits.val());
                } else if self.classifier.last.val() {
                    self.own_valid.next = true;
                    self.own_tuser.next = 0x7.into(); // truncated
                }
            } else {
                if self.bytes_left.q.val() != 0 {
                    self.broken_valid.next = true;
                    if self.classifier.continuing.val() {
                        self.broken_tuser.next = self.outside.q.val();
                    }
                }
                // The row starts a unit.
                self.gathered.d.next = bit_cast::<32, 8>(self.classifier.free_bits.val());
                self.bytes_left.d.next = self.classifier.opens.val();
                self.low.d.next = self.classifier.low.val();
                self.high.d.next = self.classifier.high.val();
                self.outside.d.next = self.classifier.outside.val();
                if self.classifier.opens.val() == 0 {
                    self.own_valid.next = true;
                    self.own_tuser.next = self.classifier.error.val();
                    if self.classifier.error.val() == 0 {
                        self.own_word.next = bit_cast::<32, 8>(self.classifier.free_bits.val());
                    }
                } else if self.classifier.last.val() {
                    // A lead that the message's end leaves alone.
                    self.own_valid.next = true;
                    self.own_tuser.next = 0x7.into(); // truncated
                }
            }
            // No state crosses a message's end.
            if self.classifier.last.val() {
                self.bytes_left.d.next = 0.into();
            }
        }
        // The words in order: the held one, the broken sequence's, the
        // row's own. The first goes out, the second is held.
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
                self.held_last.d.next = self.classifier.last.val();
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
                self.held_last.d.next = self.classifier.last.val();
            }
        } else if self.own_valid.val() {
            self.valid.d.next = true;
            self.word.d.next = self.own_word.val();
            self.tuser.d.next = self.own_tuser.val();
            self.last.d.next = self.classifier.last.val();
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
