//! # `ForwardJoin`: the forward summary of two adjacent stretches (combinational)
//!
//! `joined` summarises the bytes of `earlier` followed by those of `later`
//! (the fields are [`ByteSummary`](crate::utf8_validator::ByteSummary)'s):
//! a stretch of continuing octets extends the one before it, anything else
//! replaces it. The join is associative and the empty stretch is its
//! identity, so a prefix network may group the lanes in any way.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `earlier`, `later` | in | 17 | forward summaries |
//! | `joined` | out | 17 | the summary of both |
//!
//! ## Latency
//! None: combinational.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct ForwardJoin {
    pub earlier: Signal<In, Bits<17>>,
    pub later: Signal<In, Bits<17>>,
    pub joined: Signal<Out, Bits<17>>,
    /// The two `trail`s, and their sum, one bit wider.
    earlier_trail: Signal<Local, Bits<3>>,
    later_trail: Signal<Local, Bits<3>>,
    trail_sum: Signal<Local, Bits<4>>,
    /// The joined `trail`, saturating at 7.
    trail: Signal<Local, Bits<3>>,
    /// The joined `first`.
    first: Signal<Local, Bits<5>>,
}

impl Logic for ForwardJoin {
    #[hdl_gen]
    fn update(&mut self) {
        self.earlier_trail.next = self.earlier.val().get_bits::<3>(1);
        self.later_trail.next = self.later.val().get_bits::<3>(1);
        self.trail_sum.next =
            bit_cast::<4, 3>(self.earlier_trail.val()) + bit_cast::<4, 3>(self.later_trail.val());
        self.trail.next = self.trail_sum.val().get_bits::<3>(0);
        if self.trail_sum.val().get_bit(3) {
            self.trail.next = 7.into();
        }
        // The byte after the last other one: already in `earlier` if it
        // ends in a continuing octet, else `later`'s first.
        self.first.next = self.later.val().get_bits::<5>(12);
        if self.earlier_trail.val() != 0 {
            self.first.next = self.earlier.val().get_bits::<5>(12);
        }
        self.joined.next = self.later.val();
        if self.later.val().get_bit(0) {
            // `all`, `need` and `mask` from `earlier`.
            self.joined.next = (self.earlier.val() & 0b0_0000_1111_1111_0001)
                | (bit_cast::<17, 3>(self.trail.val()) << 1)
                | (bit_cast::<17, 5>(self.first.val()) << 12);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forward_join_is_synthesizable() {
        crate::assert_synthesizable(ForwardJoin::default());
    }
}
