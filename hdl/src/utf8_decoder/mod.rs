//! # `Utf8Decoder`: a UTF-8 → UCS-4 decoder of one byte per clock
//!
//! A UTF-8 → UCS-4 decoder between two AXI4-Stream interfaces. It takes one
//! byte per clock whatever the bytes, flags every malformed sequence with
//! one U+FFFD per maximal subpart (Unicode §3.9), and names the error kind in
//! `m_axis_tuser`.
//!
//! ## Parameter
//! The [`Profile`], fixed when the design is built:
//! `Utf8Decoder::new(Profile::Iso10646)`.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clk` | in | 1 | clock |
//! | `rst` | in | 1 | synchronous reset, active high |
//! | `s_axis_tdata` | in | 8 | UTF-8 byte |
//! | `s_axis_tvalid` | in | 1 | handshake |
//! | `s_axis_tready` | out | 1 | handshake (a flop) |
//! | `s_axis_tlast` | in | 1 | last byte of a message |
//! | `m_axis_tdata` | out | 32 | UCS-4 word (U+FFFD for an error) |
//! | `m_axis_tuser` | out | 4 | bit 0 = error; bits 3:1 = [`ErrorKind`](crate::ErrorKind) code |
//! | `m_axis_tvalid` | out | 1 | handshake |
//! | `m_axis_tready` | in | 1 | handshake |
//! | `m_axis_tlast` | out | 1 | last word of a message |
//!
//! ## The pipeline
//! ```text
//!  s_axis ─▶ SkidBuffer ─byte─▶ ByteClassifier ─classified─▶ DecoderFsm ─units─▶ OutputRegister ─▶ m_axis
//!            (tready flop)       stage 1: byte, class,        stage 2: FSM        stage 3: m_axis flops
//!                                lead row (3 registers)       (error, word)       (word waits a cycle)
//!                 ▲                                                                      │
//!                 └────────────────────────────── advance ◀──────────────────────────────┘
//! ```
//!
//! Its parts, in pipeline order: the shared [`SkidBuffer`], then this
//! folder's [`classifier`] (which reads the [`octet_table`] and the
//! [`lead_table`], shared with the wide decoder), [`fsm`] and
//! [`output_register`].
//!
//! Each link between two blocks is one bundle, joined here:
//! [`BeatOut`], [`ClassifiedOut`], [`UnitsOut`]. `advance`, `clock` and
//! `rst` fan out to several blocks, so they stay single signals.
//!
//! ## Latency
//! With `m_axis_tready` high, the word of a byte accepted in cycle *t*
//! is on `m_axis` in cycle *t* + 6. The U+FFFD of a sequence that the byte
//! breaks comes one cycle earlier, in *t* + 5: the slot that the previous
//! byte, part of the broken sequence, left empty. So `C2 41` gives U+FFFD
//! then U+0041 on consecutive cycles, and the stream never slows down.
//!
//! ```text
//! cycle          0    1    2    3    4    5    6    7    8
//! s_axis_tdata   C2   41   42
//! s_axis_tready  1    1    1    1    1    1    1    1    1
//! read_class               L2   As   As
//! pre_error                               1
//! word                                    0041 0042
//! m_axis_tdata                                 FFFD 0041 0042
//! m_axis_tuser                                 7    0    0    (truncated = code 3)
//! ```
//!
//! ## Invariants
//! * `s_axis_tready` and every `m_axis_*` output come straight from flops.
//! * With `m_axis_tready` high, `s_axis_tready` is high on every cycle after
//!   reset: one byte per clock, whatever the bytes.
//! * The words are exactly the reference decoder's units, with `tlast` on
//!   the last unit of each message; no state crosses a message boundary.
//! * `rst` clears every partial sequence and buffered word; no `m_axis_tvalid`
//!   until new input arrives.

pub mod classifier;
pub mod fsm;
pub mod lead_table;
pub mod octet_table;
pub mod output_register;

use rust_hdl::prelude::*;

use crate::stream::{axis_core, with_axis_ports, BeatOut, SkidBuffer};
use crate::utf8_decoder::classifier::{ByteClassifier, ClassifiedOut};
use crate::utf8_decoder::fsm::{DecoderFsm, UnitsOut};
use crate::utf8_decoder::output_register::OutputRegister;
use utf8hdl_reference::Profile;

axis_core! {
    #[derive(LogicBlock)]
    pub struct Utf8Decoder<s_axis_tdata: 8, m_axis_tdata: 32, m_axis_tuser: 4> {
        pub skid_buffer: SkidBuffer<8>,
        pub classifier: ByteClassifier,
        pub decoder: DecoderFsm,
        pub output_register: OutputRegister,
    }
}

impl Utf8Decoder {
    /// Cycles from a byte's acceptance to its word on `m_axis`, with
    /// `m_axis_tready` high (the datasheet's *Latency*): skid buffer, three
    /// classifier stages, the FSM and the output register.
    pub const LATENCY: u64 = 6;

    pub fn new(profile: Profile) -> Self {
        with_axis_ports!(Utf8Decoder {
            skid_buffer: Default::default(),
            classifier: ByteClassifier::new(profile),
            decoder: DecoderFsm::new(profile),
            output_register: Default::default(),
        })
    }
}

impl Logic for Utf8Decoder {
    #[hdl_gen]
    fn update(&mut self) {
        self.skid_buffer.clock.next = self.clk.val();
        self.classifier.clock.next = self.clk.val();
        self.decoder.clock.next = self.clk.val();
        self.output_register.clock.next = self.clk.val();
        self.skid_buffer.rst.next = self.rst.val();
        self.classifier.rst.next = self.rst.val();
        self.decoder.rst.next = self.rst.val();
        self.output_register.rst.next = self.rst.val();

        self.skid_buffer.s_axis_tdata.next = self.s_axis_tdata.val();
        self.skid_buffer.s_axis_tvalid.next = self.s_axis_tvalid.val();
        self.skid_buffer.s_axis_tlast.next = self.s_axis_tlast.val();
        self.s_axis_tready.next = self.skid_buffer.s_axis_tready.val();

        self.skid_buffer.advance.next = self.output_register.advance.val();
        self.classifier.advance.next = self.output_register.advance.val();
        self.decoder.advance.next = self.output_register.advance.val();

        BeatOut::<8>::join(&mut self.skid_buffer.byte, &mut self.classifier.byte);
        ClassifiedOut::join(
            &mut self.classifier.classified,
            &mut self.decoder.classified,
        );
        UnitsOut::join(&mut self.decoder.units, &mut self.output_register.units);

        self.output_register.m_axis_tready.next = self.m_axis_tready.val();

        self.m_axis_tdata.next = self.output_register.m_axis_tdata.val();
        self.m_axis_tuser.next = self.output_register.m_axis_tuser.val();
        self.m_axis_tvalid.next = self.output_register.m_axis_tvalid.val();
        self.m_axis_tlast.next = self.output_register.m_axis_tlast.val();
    }
}
