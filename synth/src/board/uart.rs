//! # 8N1 UART receiver and transmitter
//!
//! One start bit (low), eight data bits LSB first, one stop bit (high); the
//! line idles high. The bit time is `clocks_per_bit` clock cycles, fixed
//! when the block is built (104 for 115200 baud from 12 MHz: 0.16 % fast,
//! well inside a UART's tolerance).
//!
//! ## `UartRx` ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset |
//! | `rx` | in | 1 | the line (asynchronous: two synchronising flops) |
//! | `data` | out | 8 | the last byte received |
//! | `valid` | out | 1 | high for one cycle when `data` is new |
//! | `framing_error` | out | 1 | high for one cycle when a stop bit was low (byte dropped) |
//!
//! The receiver starts on the falling edge of the start bit, checks the
//! start bit again half a bit later, then samples each bit in its middle.
//!
//! ## `UartTx` ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset |
//! | `data`, `valid` | in | 8/1 | a byte to send, taken when `ready` is high |
//! | `ready` | out | 1 | idle: `valid` now starts a frame |
//! | `tx` | out | 1 | the line (a flop) |

use rust_hdl::prelude::*;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum RxState {
    Idle,
    Start,
    Data,
    Stop,
}

#[derive(LogicBlock)]
pub struct UartRx {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub rx: Signal<In, Bit>,
    pub data: Signal<Out, Bits<8>>,
    pub valid: Signal<Out, Bit>,
    pub framing_error: Signal<Out, Bit>,
    /// The line, inverted (so the flops' power-up 0 reads as idle), through
    /// two synchronising flops.
    low_meta: DFF<Bit>,
    low: DFF<Bit>,
    state: DFF<RxState>,
    count: DFF<Bits<16>>,
    bit: DFF<Bits<3>>,
    shift: DFF<Bits<8>>,
    data_reg: DFF<Bits<8>>,
    valid_reg: DFF<Bit>,
    error_reg: DFF<Bit>,
    full_bit: Constant<Bits<16>>,
    half_bit: Constant<Bits<16>>,
}

impl UartRx {
    pub fn new(clocks_per_bit: u16) -> Self {
        assert!(clocks_per_bit >= 4, "a bit needs at least 4 clocks");
        UartRx {
            clock: Default::default(),
            rst: Default::default(),
            rx: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            framing_error: Default::default(),
            low_meta: Default::default(),
            low: Default::default(),
            state: Default::default(),
            count: Default::default(),
            bit: Default::default(),
            shift: Default::default(),
            data_reg: Default::default(),
            valid_reg: Default::default(),
            error_reg: Default::default(),
            full_bit: Constant::new((clocks_per_bit as u64 - 1).into()),
            half_bit: Constant::new((clocks_per_bit as u64 / 2 - 1).into()),
        }
    }

    /// The bit time it was built with, in clock cycles.
    pub fn clocks_per_bit(&self) -> u16 {
        self.full_bit.val().index() as u16 + 1
    }
}

impl Logic for UartRx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, low_meta, low, state, count, bit, shift, data_reg, valid_reg, error_reg
        );
        self.low_meta.d.next = !self.rx.val();
        self.low.d.next = self.low_meta.q.val();
        self.data.next = self.data_reg.q.val();
        self.valid.next = self.valid_reg.q.val();
        self.framing_error.next = self.error_reg.q.val();
        self.valid_reg.d.next = false;
        self.error_reg.d.next = false;
        if self.count.q.val().any() {
            self.count.d.next = self.count.q.val() - 1;
        }
        match self.state.q.val() {
            RxState::Idle => {
                if self.low.q.val() {
                    self.count.d.next = self.half_bit.val();
                    self.state.d.next = RxState::Start;
                }
            }
            RxState::Start => {
                if !self.count.q.val().any() {
                    if self.low.q.val() {
                        self.count.d.next = self.full_bit.val();
                        self.bit.d.next = 0.into();
                        self.state.d.next = RxState::Data;
                    } else {
                        // A glitch, not a start bit.
                        self.state.d.next = RxState::Idle;
                    }
                }
            }
            RxState::Data => {
                if !self.count.q.val().any() {
                    self.shift.d.next = (self.shift.q.val() >> 1).replace_bit(7, !self.low.q.val());
                    self.count.d.next = self.full_bit.val();
                    self.bit.d.next = self.bit.q.val() + 1;
                    if self.bit.q.val().all() {
                        self.state.d.next = RxState::Stop;
                    }
                }
            }
            RxState::Stop => {
                if !self.count.q.val().any() {
                    if self.low.q.val() {
                        self.error_reg.d.next = true;
                    } else {
                        self.data_reg.d.next = self.shift.q.val();
                        self.valid_reg.d.next = true;
                    }
                    self.state.d.next = RxState::Idle;
                }
            }
        }
        if self.rst.val() {
            self.state.d.next = RxState::Idle;
            self.valid_reg.d.next = false;
            self.error_reg.d.next = false;
        }
    }
}

#[derive(LogicBlock)]
pub struct UartTx {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub data: Signal<In, Bits<8>>,
    pub valid: Signal<In, Bit>,
    pub ready: Signal<Out, Bit>,
    pub tx: Signal<Out, Bit>,
    /// The frame still to send, LSB first: start bit, data, stop bit.
    frame: DFF<Bits<10>>,
    /// Bits of the frame still to send; 0 when idle.
    bits_left: DFF<Bits<4>>,
    count: DFF<Bits<16>>,
    /// The line, inverted (so the power-up 0 is an idle line).
    tx_low: DFF<Bit>,
    full_bit: Constant<Bits<16>>,
}

impl UartTx {
    pub fn new(clocks_per_bit: u16) -> Self {
        assert!(clocks_per_bit >= 4, "a bit needs at least 4 clocks");
        UartTx {
            clock: Default::default(),
            rst: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            ready: Default::default(),
            tx: Default::default(),
            frame: Default::default(),
            bits_left: Default::default(),
            count: Default::default(),
            tx_low: Default::default(),
            full_bit: Constant::new((clocks_per_bit as u64 - 1).into()),
        }
    }
}

impl Logic for UartTx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, frame, bits_left, count, tx_low);
        self.tx.next = !self.tx_low.q.val();
        self.ready.next = !self.bits_left.q.val().any();
        if self.bits_left.q.val().any() {
            if self.count.q.val().any() {
                self.count.d.next = self.count.q.val() - 1;
            } else {
                self.bits_left.d.next = self.bits_left.q.val() - 1;
                self.count.d.next = self.full_bit.val();
                self.tx_low.d.next = !self.frame.q.val().get_bit(0);
                self.frame.d.next = self.frame.q.val() >> 1;
                if self.bits_left.q.val() == 1 {
                    // The stop bit has had its time: idle.
                    self.tx_low.d.next = false;
                }
            }
        } else if self.valid.val() {
            // Start bit now; the rest of the frame (data, stop) follows.
            self.tx_low.d.next = true;
            self.frame.d.next = bit_cast::<10, 8>(self.data.val()) | 0x100;
            self.bits_left.d.next = 10.into();
            self.count.d.next = self.full_bit.val();
        }
        if self.rst.val() {
            self.bits_left.d.next = 0.into();
            self.tx_low.d.next = false;
        }
    }
}
