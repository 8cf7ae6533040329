//! # `LaneRegister`: one lane's registers in a level of the packing network
//!
//! Between two levels of a [`LaneSkips`](super::LaneSkips) count or of a
//! [`LanePacker`](super::LanePacker) move, each lane's data, its kept bit
//! and a value ride in registers: the count of dropped lanes so far, or
//! the bits of its skip still to move by. What a level computes is its
//! owner's logic; this block holds one lane of the result, so that both
//! networks' levels are the same registers.
//!
//! ## Parameters
//! * `W`: the width of a lane.
//! * `V`: the width of its value.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock` | in | 1 | clock |
//! | `data_in`, `keep_in`, `value_in` | in | W, 1, V | the lane, as the level computed it |
//! | `data`, `keep`, `value` | out | W, 1, V | registered: the same, one cycle later |
//!
//! ## Latency
//! 1 cycle, on every cycle. There is no reset: whether a beat is in the
//! level is its owner's [`BeatDelay`](super::BeatDelay), which a reset
//! clears.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct LaneRegister<const W: usize, const V: usize> {
    pub clock: Signal<In, Clock>,
    pub data_in: Signal<In, Bits<W>>,
    pub keep_in: Signal<In, Bit>,
    pub value_in: Signal<In, Bits<V>>,
    pub data: Signal<Out, Bits<W>>,
    pub keep: Signal<Out, Bit>,
    pub value: Signal<Out, Bits<V>>,
    data_reg: DFF<Bits<W>>,
    keep_reg: DFF<Bit>,
    value_reg: DFF<Bits<V>>,
}

impl<const W: usize, const V: usize> Logic for LaneRegister<W, V> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, data_reg, keep_reg, value_reg);
        self.data_reg.d.next = self.data_in.val();
        self.keep_reg.d.next = self.keep_in.val();
        self.value_reg.d.next = self.value_in.val();
        self.data.next = self.data_reg.q.val();
        self.keep.next = self.keep_reg.q.val();
        self.value.next = self.value_reg.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_register_is_synthesizable() {
        crate::assert_synthesizable(LaneRegister::<8, 6>::default());
        crate::assert_synthesizable(LaneRegister::<36, 1>::default());
    }
}
