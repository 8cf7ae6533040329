//! # `UnitWord`: a unit's `tuser` and value in one lane (combinational)
//!
//! One 36-bit lane per unit, so that one [`LanePacker`](crate::wide::lane_packer::LanePacker)
//! moves both. A block per lane because `#[hdl_gen]` evaluates the width of
//! a `bit_cast` in Rust, which it cannot do inside a loop over lanes.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `value`, `tuser` | in | 32, 4 | a unit |
//! | `unit` | out | 36 | `tuser` in bits 35:32, `value` below |

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct UnitWord {
    pub value: Signal<In, Bits<32>>,
    pub tuser: Signal<In, Bits<4>>,
    pub unit: Signal<Out, Bits<36>>,
}

impl Logic for UnitWord {
    #[hdl_gen]
    fn update(&mut self) {
        self.unit.next =
            bit_cast::<36, 32>(self.value.val()) | (bit_cast::<36, 4>(self.tuser.val()) << 32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_word_is_synthesizable() {
        crate::assert_synthesizable(UnitWord::default());
    }
}
