//! # `ZeroExtend`: a byte as a 32-bit word (combinational)
//!
//! `#[hdl_gen]` evaluates the width of a `bit_cast` in Rust when it writes
//! the Verilog, which it cannot do inside a loop over lanes; a block per lane
//! can. (`#[hdl_gen]` also cannot index twice, `a[i].b[j]`, so it has
//! plain ports rather than lanes.)
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `byte` | in | 8 | |
//! | `word` | out | 32 | `byte` in bits 7:0, zeros above |

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_extend_is_synthesizable() {
        crate::assert_synthesizable(ZeroExtend::default());
    }
}
