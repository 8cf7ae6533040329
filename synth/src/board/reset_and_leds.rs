//! # `ResetAndLeds`: a board's power-on reset and its two status LEDs
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock` | in | 1 | the board's oscillator |
//! | `lose` | in | 1 | input was lost in this cycle (a full FIFO, a framing error) |
//! | `rst` | out | 1 | high for the first 16 cycles after power-up |
//! | `led_lost` | out | 1 | the LED that stays lit, until reset, once input was lost |
//! | `led_ready` | out | 1 | the LED lit once out of reset |
//!
//! The LEDs' pins are driven for the board's polarity (`leds_active_low`).
//! `rst` comes from a 4-bit counter's flops, which power up at 0 (their
//! `initial` value, which every supported part loads with the bitstream).

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ResetAndLeds {
    pub clock: Signal<In, Clock>,
    pub lose: Signal<In, Bit>,
    pub rst: Signal<Out, Bit>,
    pub led_lost: Signal<Out, Bit>,
    pub led_ready: Signal<Out, Bit>,
    /// Cycles since power-up, up to 15.
    por: DFF<Bits<4>>,
    lost: DFF<Bit>,
    /// The board's LEDs light when their pin is low.
    leds_active_low: Constant<Bit>,
}

impl ResetAndLeds {
    pub fn new(leds_active_low: bool) -> Self {
        ResetAndLeds {
            clock: Default::default(),
            lose: Default::default(),
            rst: Default::default(),
            led_lost: Default::default(),
            led_ready: Default::default(),
            por: Default::default(),
            lost: Default::default(),
            leds_active_low: Constant::new(leds_active_low),
        }
    }
}

impl Logic for ResetAndLeds {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, por, lost);
        self.rst.next = !self.por.q.val().all();
        if !self.por.q.val().all() {
            self.por.d.next = self.por.q.val() + 1;
        }
        if self.lose.val() {
            self.lost.d.next = true;
        }
        if !self.por.q.val().all() {
            self.lost.d.next = false;
        }
        self.led_lost.next = self.lost.q.val() ^ self.leds_active_low.val();
        self.led_ready.next = self.por.q.val().all() ^ self.leds_active_low.val();
    }
}
