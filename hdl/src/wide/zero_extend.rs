//! # `ZeroExtend` and `UnitWord`: widening one lane (combinational)
//!
//! `#[hdl_gen]` evaluates the width of a `bit_cast` in Rust when it writes
//! the Verilog, which it cannot do inside a loop over lanes; a block per lane
//! can. (`#[hdl_gen]` also cannot index twice, `a[i].b[j]`, so these have
//! plain ports rather than lanes.)
//!
//! ## Ports of `ZeroExtend`
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `byte` | in | 8 | |
//! | `word` | out | 32 | `byte` in bits 7:0, zeros above |
//!
//! ## Ports of `UnitWord`
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `value`, `tuser` | in | 32, 4 | a unit |
//! | `unit` | out | 36 | `tuser` in bits 35:32, `value` below |

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct ZeroExtend {
    pub byte: Signal<In, Bits<8>>,
    pub word: Signal<Out, Bits<32>>,
}

impl Logic for ZeroExtend {
    #[hdl_gen]
    fn update(&mut self) {
        self.word.next = bit_cast::<32, 8>(self.byte.val());
    }
}

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
    fn zero_extend_is_synthesizable() {
        crate::assert_synthesizable(ZeroExtend::default());
        crate::assert_synthesizable(UnitWord::default());
    }
}
