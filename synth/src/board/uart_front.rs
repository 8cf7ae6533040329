//! # `UartFront`: a board's reset, its LEDs, and the bytes through its UART
//!
//! ```text
//!  rx ─▶ UartRx ─▶ 512-byte FIFO ─▶ m_axis (a message per line)
//!          └── lost: FIFO full, framing error ──▶ ResetAndLeds ─▶ led_lost, led_ready, rst
//!  tx ◀─ UartTx ◀─ s_axis (a byte a frame)
//! ```
//!
//! The front of every board demo ([`super::BoardTop`],
//! [`super::wide_echo::WideEchoTop`]): the bytes received, oldest first, as
//! an AXI4-Stream of one byte a beat, with `m_axis_tlast` on each line feed
//! (0x0A, which ends a message); and the bytes to send, one a UART frame,
//! taken from `s_axis`. A byte that arrives while the FIFO is full is
//! dropped; it, or a UART framing error, lights `led_lost` until reset.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock` | in | 1 | the board's oscillator |
//! | `rx` | in | 1 | UART from the USB-UART (FPGA receives) |
//! | `rst` | out | 1 | the power-on reset, for the blocks after this one |
//! | `led_lost` | out | 1 | an LED: input lost |
//! | `led_ready` | out | 1 | an LED: out of reset |
//! | `m_axis_tdata` | out | 8 | the oldest byte not yet taken |
//! | `m_axis_tlast` | out | 1 | it is a line feed |
//! | `m_axis_tvalid` | out | 1 | the FIFO holds a byte |
//! | `m_axis_tready` | in | 1 | the byte is taken in this cycle |
//! | `s_axis_tdata`, `s_axis_tvalid` | in | 8, 1 | a byte to send |
//! | `s_axis_tready` | out | 1 | the transmitter is idle: the byte is taken in this cycle |
//! | `tx` | out | 1 | UART to the USB-UART (FPGA sends) |
//!
//! ## Latency and timing
//! A byte is offered on `m_axis` a few cycles after `UartRx` flags it: the
//! FIFO's write, then its read side, which sees the write address a cycle
//! late (rust-hdl's `SynchronousFIFO`). `m_axis_tvalid` and `m_axis_tdata`
//! are the FIFO's outputs; `m_axis_tlast` is a compare of `m_axis_tdata`.
//! A byte leaves in the cycle `m_axis_tvalid` and `m_axis_tready` are both
//! high, and the next one is offered from the cycle after.
//!
//! ```text
//!  clock          _/‾\_/‾\_/‾\_/‾\_/‾\_/‾\_
//!  uart_rx.valid  __/‾‾‾\___________________
//!  m_axis_tvalid  ________ … ___/‾‾‾‾‾‾‾\___
//!  m_axis_tready  ______________________/‾‾‾\_
//!  m_axis_tdata   ------------< byte    >---
//! ```
//!
//! ## Invariants
//! * Bytes leave in the order they arrived, each once; none is dropped
//!   while the FIFO has room.
//! * `led_lost` stays lit from the first byte lost until reset.

use rust_hdl::prelude::*;

use super::reset_and_leds::ResetAndLeds;
use super::uart::{UartRx, UartTx};
use super::InputFifo;

#[derive(LogicBlock)]
pub struct UartFront {
    pub clock: Signal<In, Clock>,
    pub rx: Signal<In, Bit>,
    pub rst: Signal<Out, Bit>,
    pub led_lost: Signal<Out, Bit>,
    pub led_ready: Signal<Out, Bit>,
    pub m_axis_tdata: Signal<Out, Bits<8>>,
    pub m_axis_tlast: Signal<Out, Bit>,
    pub m_axis_tvalid: Signal<Out, Bit>,
    pub m_axis_tready: Signal<In, Bit>,
    pub s_axis_tdata: Signal<In, Bits<8>>,
    pub s_axis_tvalid: Signal<In, Bit>,
    pub s_axis_tready: Signal<Out, Bit>,
    pub tx: Signal<Out, Bit>,
    reset: ResetAndLeds,
    uart_rx: UartRx,
    uart_tx: UartTx,
    fifo: InputFifo,
    line_feed: Constant<Bits<8>>,
}

impl UartFront {
    /// The front of a board whose LEDs light when their pin is low if
    /// `leds_active_low`, its UART `clocks_per_bit` clock cycles a bit.
    pub fn new(leds_active_low: bool, clocks_per_bit: u16) -> Self {
        UartFront {
            clock: Default::default(),
            rx: Default::default(),
            rst: Default::default(),
            led_lost: Default::default(),
            led_ready: Default::default(),
            m_axis_tdata: Default::default(),
            m_axis_tlast: Default::default(),
            m_axis_tvalid: Default::default(),
            m_axis_tready: Default::default(),
            s_axis_tdata: Default::default(),
            s_axis_tvalid: Default::default(),
            s_axis_tready: Default::default(),
            tx: Default::default(),
            reset: ResetAndLeds::new(leds_active_low),
            uart_rx: UartRx::new(clocks_per_bit),
            uart_tx: UartTx::new(clocks_per_bit),
            fifo: Default::default(),
            line_feed: Constant::new(0x0A.into()),
        }
    }

    /// The UART's bit time, in clock cycles (its receiver's and its
    /// transmitter's are one).
    pub fn clocks_per_bit(&self) -> u16 {
        self.uart_rx.clocks_per_bit()
    }
}

impl Logic for UartFront {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, reset, uart_rx, uart_tx, fifo);
        self.uart_rx.rst.next = self.reset.rst.val();
        self.uart_tx.rst.next = self.reset.rst.val();
        self.rst.next = self.reset.rst.val();
        self.led_lost.next = self.reset.led_lost.val();
        self.led_ready.next = self.reset.led_ready.val();

        self.uart_rx.rx.next = self.rx.val();
        self.fifo.data_in.next = self.uart_rx.data.val();
        self.fifo.write.next = self.uart_rx.valid.val() & !self.fifo.full.val();
        self.reset.lose.next =
            (self.uart_rx.valid.val() & self.fifo.full.val()) | self.uart_rx.framing_error.val();

        self.m_axis_tdata.next = self.fifo.data_out.val();
        self.m_axis_tlast.next = self.fifo.data_out.val() == self.line_feed.val();
        self.m_axis_tvalid.next = !self.fifo.empty.val();
        self.fifo.read.next = !self.fifo.empty.val() & self.m_axis_tready.val();

        self.uart_tx.data.next = self.s_axis_tdata.val();
        self.uart_tx.valid.next = self.s_axis_tvalid.val();
        self.s_axis_tready.next = self.uart_tx.ready.val();
        self.tx.next = self.uart_tx.tx.val();
    }
}
