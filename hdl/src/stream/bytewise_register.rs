//! # `BytewiseRegister`: a pipeline register loaded a byte at a time, each byte under an enable of its own
//!
//! The payload of a pipeline stage whose valid flag lives in the block
//! around it. That block loads its flag as a stage does (`!valid |
//! advance`: the stage is empty, or its content moves on), and this
//! register loads the payload the same way, but byte by byte: each byte
//! has its own copy of the flag, and its enable reads that copy. An
//! enable shared by every flop of a wide stage reaches more than 15 flops,
//! so nextpnr-ice40 promotes it to a global buffer, and the route to the
//! buffer at the die's edge was the limit of the encoders and the
//! output register on the HX8K; here no enable reaches more than eight.
//! The copies hold the same value as the owner's flag in every state;
//! each one's next value reads its own, so synthesis keeps them apart.
//!
//! ## Parameter
//! `D`: the payload's width, whole bytes.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high (clears the copies) |
//! | `d` | in | D | the payload offered to the stage |
//! | `d_valid` | in | 1 | the owner's flag's next value when the stage loads |
//! | `advance` | in | 1 | the stage's content moves on this cycle |
//! | `q` | out | D | the payload, registered |
//!
//! ## Latency
//! One cycle, as the owner's flag: byte *b* takes `d` in every cycle
//! where its copy is low or `advance` is high.
//!
//! ```text
//! cycle          0    1    2    3    4
//! d, d_valid     a,1  b,1  b,1  c,1
//! advance        0    0    1    1
//! copies         0    1    1    1    1
//! q                   a    a    b    c
//! ```
//!
//! ## Invariants
//! With the owner's flag loaded as `!flag | advance` takes `d_valid`, and
//! cleared by `rst`:
//! * every copy equals the flag;
//! * while the flag is set, `q` is the `d` of the cycle the stage last
//!   loaded.
//!
//! Proven for the block alone, with such a flag beside it, for all time
//! (`utf8hdl formal --block bytewise_register`,
//! `hdl/formal/blocks/bytewise_register_properties.v`); the owners prove
//! the first of their own flag (the encoders' `COPIES`, the output
//! register's `copy_is_tvalid`).

use rust_hdl::prelude::*;

use crate::many;
use crate::utf8_decoder_wide::wiring::LaneBus;

#[derive(LogicBlock)]
pub struct BytewiseRegister<const D: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub d: Signal<In, Bits<D>>,
    pub d_valid: Signal<In, Bit>,
    pub advance: Signal<In, Bit>,
    pub q: Signal<Out, Bits<D>>,
    /// The payload, a byte a register.
    bytes: Vec<DFF<Bits<8>>>,
    /// Each byte's copy of the owner's flag, and its enable.
    valid: Vec<DFF<Bit>>,
    loads: Vec<Signal<Local, Bit>>,
    bus: LaneBus<8, D>,
}

impl<const D: usize> Default for BytewiseRegister<D> {
    fn default() -> Self {
        assert_eq!(D % 8, 0, "BytewiseRegister<D>: whole bytes");
        BytewiseRegister {
            clock: Default::default(),
            rst: Default::default(),
            d: Default::default(),
            d_valid: Default::default(),
            advance: Default::default(),
            q: Default::default(),
            bytes: many(D / 8),
            valid: many(D / 8),
            loads: many(D / 8),
            bus: Default::default(),
        }
    }
}

impl<const D: usize> Logic for BytewiseRegister<D> {
    #[hdl_gen]
    fn update(&mut self) {
        for b in 0..(D / 8) {
            self.bytes[b].clock.next = self.clock.val();
            self.valid[b].clock.next = self.clock.val();
            self.bytes[b].d.next = self.bytes[b].q.val();
            self.valid[b].d.next = self.valid[b].q.val();
            self.loads[b].next = !self.valid[b].q.val() | self.advance.val();
            if self.loads[b].val() {
                self.bytes[b].d.next = self.d.val().get_bits::<8>(8 * b);
                self.valid[b].d.next = self.d_valid.val();
            }
            if self.rst.val() {
                self.valid[b].d.next = false;
            }
            self.bus.lane[b].next = self.bytes[b].q.val();
        }
        self.q.next = self.bus.bus.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytewise_register_is_synthesizable() {
        crate::assert_synthesizable(BytewiseRegister::<32>::default());
        crate::assert_synthesizable(BytewiseRegister::<8>::default());
    }
}
