//! # Lab 6: the byte classifier
//!
//! **Objective.** Lab 4's decoder in two pipeline stages (chapter 2). A
//! classifier registers, for each byte, its row of the classification
//! table: what the byte means (a continuing octet; its free bits; as a
//! lead, the continuing octets it needs, the bounds of the octet after it
//! and the kind of a continuing octet outside them; as any other byte, the
//! kind of its U+FFFD). The decoder after it reads only rows, never a raw
//! byte, so its logic no longer waits for the byte's comparisons: they
//! happened a cycle before. Bounds are on a continuing octet's free bits
//! (A0–BF is 20–3F). The classifier's ports and registers are given, and
//! its rows of ASCII and of continuing octets; the rest of its table, and
//! the decoder (`ClassifiedDecoder`), are yours. One byte per clock, the
//! sink always ready; the input is lab 4's (every kind of error among
//! valid characters, and messages that end inside a character in every
//! state).
//!
//! **This starting file**'s decoder sends no word, so `utf8hdl lab check
//! 6` reports, at the first word due (that of C0, RFC 3629 §3's overlong
//! `C0 80`): `byte offset 0: expected U+FFFD overlong, got no word`. Its
//! classifier takes every byte but ASCII and continuing octets for an
//! invalid one: your lab 4 decoder on these rows gives `C0` the U+FFFD of
//! an invalid byte (`expected U+FFFD overlong, got tdata=0000FFFD
//! tuser=3`).
//!
//! **Exercises.**
//! 1. Bring in your lab 4 decoder, reading the classifier's row where it
//!    read the byte: a continuing octet continues the open sequence when
//!    its free bits lie within the bounds of its lead's row; a row that
//!    starts a unit opens `opens` octets, or is a word (its free bits, or
//!    U+FFFD with its `error`). Then complete the table from RFC 3629 §3
//!    and chapter 2: C0 and C1, the leads C2–DF, E0–EF and F0–F4 (with the
//!    bounds and `outside` kinds of E0, ED, F0 and F4), F5–FD and FE–FF.
//! 2. The table is a function of 8 bits; how many LUT4 levels can a bit
//!    of it need, and why is it better paid in a stage of its own than in
//!    the decoder's cycle? What did the split cost (latency, flops)?
//!    The project's classifier (chapter 2) is three registers deep, not
//!    one: which path does each of them cut?

use rust_hdl::prelude::*;

/// Stage 1: registers, for each byte, the row of the classification table
/// that says what the byte means (RFC 3629 §3's table, chapter 2), so that
/// the decoder after it never compares a raw byte. Latency 1.
/// TODO (exercise 1): the rows of C0–FF.
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
        } else {
            // TODO (exercise 1): C0 and C1; the leads C2-DF, E0-EF and
            // F0-F4; F5-FD; FE and FF.
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
/// One byte per clock, the sink always ready; a word two cycles after the
/// byte that decides it (latency 2).
#[derive(LogicBlock, Default)]
pub struct ClassifiedDecoder {
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
}

impl Logic for ClassifiedDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        self.classifier.clk.next = self.clk.val();
        self.classifier.rst.next = self.rst.val();
        self.classifier.tdata.next = self.s_axis_tdata.val();
        self.classifier.tvalid.next = self.s_axis_tvalid.val();
        self.classifier.tlast.next = self.s_axis_tlast.val();
        self.s_axis_tready.next = true;
        // TODO (exercise 1): your lab 4 decoder, reading the classifier's
        // row (`classifier.valid`, `classifier.continuing`, ...) where it
        // read the byte.
        self.m_axis_tdata.next = 0.into();
        self.m_axis_tuser.next = 0.into();
        self.m_axis_tvalid.next = false;
        self.m_axis_tlast.next = false;
    }
}
