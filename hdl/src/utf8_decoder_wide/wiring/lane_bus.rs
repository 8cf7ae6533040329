//! # `LaneBus`: N lanes side by side in one vector (combinational)
//!
//! `bus` = {`lane[N-1]`, …, `lane[0]`}: lane `i` is bits [Wi+W-1:Wi].
//!
//! rust-hdl 0.46 has no way to write this in `#[hdl_gen]`: its `set_bit`
//! statement does not compile (the macro builds the assignment from a
//! `String` where it needs an expression), `set_bits` has no translation,
//! and `.next` cannot be read back to accumulate. So this block writes
//! its one line of Verilog itself, and its `update` does the same in Rust;
//! the co-simulation tests check that the two agree.
//!
//! ## Parameters
//! * `W`: the width of a lane; `NW`, the width of the bus, a multiple of
//!   `W`: the bus has N = NW / W lanes (a count stable Rust cannot name
//!   in a type, so that a block of any width can have its bytes joined).
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `lane[i]` | in | W | lane `i` |
//! | `bus` | out | NW | the lanes, lane 0 in the low bits |

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct LaneBus<const W: usize, const NW: usize> {
    pub lane: Vec<Signal<In, Bits<W>>>,
    pub bus: Signal<Out, Bits<NW>>,
}

impl<const W: usize, const NW: usize> Default for LaneBus<W, NW> {
    fn default() -> Self {
        assert_eq!(NW % W, 0, "LaneBus<W, NW>: NW is a multiple of W");
        LaneBus {
            lane: (0..NW / W).map(|_| Default::default()).collect(),
            bus: Default::default(),
        }
    }
}

impl<const W: usize, const NW: usize> Logic for LaneBus<W, NW> {
    fn update(&mut self) {
        let mut bus = Bits::<NW>::default();
        for (i, lane) in self.lane.iter().enumerate() {
            bus.set_bits::<W>(i * W, lane.val());
        }
        self.bus.next = bus;
    }

    fn connect(&mut self) {
        self.bus.connect();
    }

    fn hdl(&self) -> Verilog {
        let lanes: Vec<String> = (0..NW / W).rev().map(|i| format!("lane${i}")).collect();
        Verilog::Custom(format!("always @(*) bus = {{{}}};", lanes.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_bus_is_synthesizable() {
        crate::assert_synthesizable(LaneBus::<9, 36>::default());
    }

    #[test]
    fn lane_zero_is_the_low_end() {
        let mut uut = LaneBus::<4, 12>::default();
        uut.connect_all();
        for (i, lane) in uut.lane.iter_mut().enumerate() {
            lane.next = (0xA + i as u64).into();
        }
        assert!(simulate(&mut uut, 10));
        assert_eq!(uut.bus.val().to_u64(), 0xCBA);
        assert!(generate_verilog(&uut).contains("bus = {lane$2, lane$1, lane$0};"));
    }
}
