//! # `WideEchoTop`: the echo through the 4-lane decoder
//!
//! ```text
//!  rx ─▶ UartRx ─▶ 512-byte FIFO ─▶ ByteGatherer ─▶ Utf8DecoderX4 ─▶ WordSerializer ─▶ Utf8Encoder ─▶ UartTx ─▶ tx
//! ```
//!
//! The echo of [`super::BoardTop`] (`--board NAME-echo`), with the wide
//! decoder in the place of the 1-lane one (`--board NAME-wide`): what
//! comes back is the input as `String::from_utf8_lossy` makes it. The
//! bytes reach the decoder four to a beat, or fewer, the rest of the beat's
//! lanes null: a beat leaves the [`ByteGatherer`] when it is full, at a line
//! feed (which ends a message, as on the other demos) or after four bytes'
//! time without input. So on the board the wide core meets partial beats,
//! null lanes in every place a typist's pauses put them, and sequences
//! split across beats. A UART carries a ten-thousandth of what the core can
//! take: the demo shows it correct on the part, not fast.
//!
//! Ports, LEDs and reset are [`super::BoardTop`]'s.

use rust_hdl::prelude::*;
use utf8hdl_hdl::utf8_decoder_wide::Utf8DecoderX4;
use utf8hdl_hdl::{Profile, Utf8Encoder};

use super::boards::Board;
use super::byte_gatherer::ByteGatherer;
use super::uart_front::UartFront;
use super::word_serializer::WordSerializer;

#[derive(LogicBlock)]
pub struct WideEchoTop {
    pub clk: Signal<In, Clock>,
    pub rx: Signal<In, Bit>,
    pub tx: Signal<Out, Bit>,
    pub led_lost: Signal<Out, Bit>,
    pub led_ready: Signal<Out, Bit>,
    front: UartFront,
    gatherer: ByteGatherer,
    decoder: Utf8DecoderX4,
    serializer: WordSerializer,
    encoder: Utf8Encoder,
}

impl WideEchoTop {
    /// The top for `board` with `clocks_per_bit` clock cycles per UART bit.
    pub fn new(board: &Board, profile: Profile, clocks_per_bit: u16) -> Self {
        // Four bytes' time (ten bits a byte) without input.
        let timeout = clocks_per_bit.saturating_mul(40);
        WideEchoTop {
            clk: Default::default(),
            rx: Default::default(),
            tx: Default::default(),
            led_lost: Default::default(),
            led_ready: Default::default(),
            front: UartFront::new(board.leds_active_low, clocks_per_bit),
            gatherer: ByteGatherer::new(timeout),
            decoder: Utf8DecoderX4::new(profile),
            serializer: Default::default(),
            encoder: Utf8Encoder::new(profile),
        }
    }
}

impl Logic for WideEchoTop {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, front);
        self.gatherer.clk.next = self.clk.val();
        self.decoder.clk.next = self.clk.val();
        self.serializer.clk.next = self.clk.val();
        self.encoder.clk.next = self.clk.val();
        self.gatherer.rst.next = self.front.rst.val();
        self.decoder.rst.next = self.front.rst.val();
        self.serializer.rst.next = self.front.rst.val();
        self.encoder.rst.next = self.front.rst.val();
        self.front.rx.next = self.rx.val();
        self.led_lost.next = self.front.led_lost.val();
        self.led_ready.next = self.front.led_ready.val();

        // front -> gatherer -> decoder -> serializer -> encoder -> tx
        self.gatherer.s_axis_tdata.next = self.front.m_axis_tdata.val();
        self.gatherer.s_axis_tlast.next = self.front.m_axis_tlast.val();
        self.gatherer.s_axis_tvalid.next = self.front.m_axis_tvalid.val();
        self.front.m_axis_tready.next = self.gatherer.s_axis_tready.val();
        self.decoder.s_axis_tdata.next = self.gatherer.m_axis_tdata.val();
        self.decoder.s_axis_tkeep.next = self.gatherer.m_axis_tkeep.val();
        self.decoder.s_axis_tlast.next = self.gatherer.m_axis_tlast.val();
        self.decoder.s_axis_tvalid.next = self.gatherer.m_axis_tvalid.val();
        self.gatherer.m_axis_tready.next = self.decoder.s_axis_tready.val();
        self.serializer.s_axis_tdata.next = self.decoder.m_axis_tdata.val();
        self.serializer.s_axis_tkeep.next = self.decoder.m_axis_tkeep.val();
        self.serializer.s_axis_tlast.next = self.decoder.m_axis_tlast.val();
        self.serializer.s_axis_tvalid.next = self.decoder.m_axis_tvalid.val();
        self.decoder.m_axis_tready.next = self.serializer.s_axis_tready.val();
        self.encoder.s_axis_tdata.next = self.serializer.m_axis_tdata.val();
        self.encoder.s_axis_tlast.next = self.serializer.m_axis_tlast.val();
        self.encoder.s_axis_tvalid.next = self.serializer.m_axis_tvalid.val();
        self.serializer.m_axis_tready.next = self.encoder.s_axis_tready.val();
        self.front.s_axis_tdata.next = self.encoder.m_axis_tdata.val();
        self.front.s_axis_tvalid.next = self.encoder.m_axis_tvalid.val();
        self.encoder.m_axis_tready.next = self.front.s_axis_tready.val();
        self.tx.next = self.front.tx.val();
    }
}
