//! # `BackwardJoin`: the backward summary of two adjacent stretches (combinational)
//!
//! `joined` summarises the bytes of `earlier` followed by those of `later`
//! (the fields are [`ByteSummary`](crate::utf8_validator::ByteSummary)'s):
//! the continuing octets at the start of `earlier` go on into `later` when
//! `earlier` has nothing else. Associative, with the empty stretch as its
//! identity.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `earlier`, `later` | in | 9 | backward summaries |
//! | `joined` | out | 9 | the summary of both |
//!
//! ## Latency
//! None: combinational.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct BackwardJoin {
    pub earlier: Signal<In, Bits<9>>,
    pub later: Signal<In, Bits<9>>,
    pub joined: Signal<Out, Bits<9>>,
    /// The two `lead`s, and their sum, one bit wider.
    earlier_lead: Signal<Local, Bits<3>>,
    later_lead: Signal<Local, Bits<3>>,
    lead_sum: Signal<Local, Bits<4>>,
    /// The joined `lead`, saturating at 7.
    lead: Signal<Local, Bits<3>>,
}

impl Logic for BackwardJoin {
    #[hdl_gen]
    fn update(&mut self) {
        self.earlier_lead.next = self.earlier.val().get_bits::<3>(1);
        self.later_lead.next = self.later.val().get_bits::<3>(1);
        self.lead_sum.next =
            bit_cast::<4, 3>(self.earlier_lead.val()) + bit_cast::<4, 3>(self.later_lead.val());
        self.lead.next = self.lead_sum.val().get_bits::<3>(0);
        if self.lead_sum.val().get_bit(3) {
            self.lead.next = 7.into();
        }
        self.joined.next = self.earlier.val();
        if self.earlier.val().get_bit(0) {
            // `earlier` is continuing octets only: `all` of both, the
            // `lead`s added, and `later`'s `first` if `earlier` is empty.
            self.joined.next =
                (self.earlier.val() & 0b1_1111_0000) | (bit_cast::<9, 3>(self.lead.val()) << 1);
            if self.earlier_lead.val() == 0 {
                self.joined.next =
                    (self.later.val() & 0b1_1111_0000) | (bit_cast::<9, 3>(self.lead.val()) << 1);
            }
            if self.later.val().get_bit(0) {
                self.joined.next = self.joined.val() | 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backward_join_is_synthesizable() {
        crate::assert_synthesizable(BackwardJoin::default());
    }
}
