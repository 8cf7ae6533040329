//! # `OrOf`: the OR of a number of terms fixed when the design is built (combinational)
//!
//! `any` = `term[0]` | `term[1]` | … | `term[K-1]`. A block that holds one
//! of K things, with a one-hot choice of which (each term masked by its
//! select), reads the chosen one as this OR: a shallow tree, where a
//! choice per term would be a chain of K multiplexers.
//!
//! rust-hdl 0.46's `#[hdl_gen]` cannot write an OR over a loop (`.next`
//! cannot be read back to accumulate), so, as [`LaneBus`](super::LaneBus)
//! does, this block writes its one line of Verilog itself and its
//! `update` does the same in Rust; the co-simulation tests check that the
//! two agree.
//!
//! ## Parameters
//! `T`: the terms' type (`Bit` or `Bits<W>`); K, the number of terms,
//! given to [`OrOf::new`].
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `term[k]` | in | T | term `k` |
//! | `any` | out | T | their OR, bit by bit |

use std::ops::BitOr;

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct OrOf<T: Synth + BitOr<Output = T>> {
    pub term: Vec<Signal<In, T>>,
    pub any: Signal<Out, T>,
}

impl<T: Synth + BitOr<Output = T>> OrOf<T> {
    /// The OR of `terms` terms (at least one).
    pub fn new(terms: usize) -> Self {
        assert!(terms > 0, "OrOf: one term at least");
        OrOf {
            term: (0..terms).map(|_| Default::default()).collect(),
            any: Default::default(),
        }
    }
}

impl<T: Synth + BitOr<Output = T>> Logic for OrOf<T> {
    fn update(&mut self) {
        self.any.next = self
            .term
            .iter()
            .fold(T::default(), |any, term| any | term.val());
    }

    fn connect(&mut self) {
        self.any.connect();
    }

    fn hdl(&self) -> Verilog {
        let terms: Vec<String> = (0..self.term.len()).map(|k| format!("term${k}")).collect();
        Verilog::Custom(format!("always @(*) any = {};", terms.join(" | ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn or_of_is_synthesizable() {
        crate::assert_synthesizable(OrOf::<Bits<8>>::new(3));
        crate::assert_synthesizable(OrOf::<Bit>::new(1));
    }

    #[test]
    fn any_is_every_term_ored() {
        let mut uut = OrOf::<Bits<8>>::new(3);
        uut.connect_all();
        for (k, term) in uut.term.iter_mut().enumerate() {
            term.next = (0x11u64 << k).into();
        }
        assert!(simulate(&mut uut, 10));
        assert_eq!(uut.any.val().to_u64(), 0x11 | 0x22 | 0x44);
        assert!(generate_verilog(&uut).contains("any = term$0 | term$1 | term$2;"));
    }
}
