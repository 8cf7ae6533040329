//! # `ByteSummary`: what one lane's byte adds to the two scans (combinational)
//!
//! The validator decides every lane of a beat at once from two summaries
//! of the kept bytes around it, each computed by a prefix network
//! ([`LaneScan`](crate::utf8_validator::LaneScan)) from one summary per
//! byte. This block writes a byte's two summaries: the *forward* one (what
//! a byte after it needs to know: is it inside an open sequence?) and the
//! *backward* one (what a first octet before it needs to know: does its
//! sequence complete?).
//!
//! ## The forward summary of a stretch of bytes (17 bits)
//! | bits | field | meaning |
//! |---|---|---|
//! | 0 | `all` | every byte of the stretch is a continuing octet (an empty stretch too) |
//! | 3:1 | `trail` | the continuing octets at its end (saturating at 7) |
//! | 6:4 | `need` | the continuing octets its last other byte asks for: the sequence's length − 1 for a first octet, 0 for anything else |
//! | 11:7 | `mask` | the ranges its second octet may be in, one hot as [`OctetTable`](crate::utf8_decoder::octet_table::OctetTable)'s `continuation` |
//! | 16:12 | `first` | the range of the byte after that last other byte (of its first byte when `all`); 0 when there is none |
//!
//! ## The backward summary (9 bits)
//! | bits | field | meaning |
//! |---|---|---|
//! | 0 | `all` | every byte is a continuing octet |
//! | 3:1 | `lead` | the continuing octets at its start (saturating at 7) |
//! | 8:4 | `first` | the range of its first byte when it is a continuing octet, else 0 |
//!
//! Both are built from the byte's mark class
//! ([`LaneLookup`](crate::utf8_validator::LaneLookup)), looked up before
//! the input register: no table is read here.
//!
//! A null lane (`keep` low) is the empty stretch: `all`, everything else 0.
//! [`ForwardJoin`](crate::utf8_validator::ForwardJoin) and
//! [`BackwardJoin`](crate::utf8_validator::BackwardJoin) join two adjacent
//! stretches; the empty stretch changes nothing.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `continuing`, `need`, `range` | in | 1, 3, 5 | the byte's mark class's fields of those names |
//! | `keep` | in | 1 | whether the lane holds a byte |
//! | `forward`, `backward` | out | 17, 9 | its summaries |
//!
//! ## Latency
//! None: combinational.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct ByteSummary {
    pub continuing: Signal<In, Bit>,
    pub need: Signal<In, Bits<3>>,
    pub range: Signal<In, Bits<5>>,
    pub keep: Signal<In, Bit>,
    pub forward: Signal<Out, Bits<17>>,
    pub backward: Signal<Out, Bits<9>>,
}

impl Logic for ByteSummary {
    #[hdl_gen]
    fn update(&mut self) {
        // The empty stretch.
        self.forward.next = 1.into();
        self.backward.next = 1.into();
        if self.keep.val() & self.continuing.val() {
            // all, one continuing octet, its range.
            self.forward.next = (bit_cast::<17, 5>(self.range.val()) << 12) | 0b0011;
            self.backward.next = (bit_cast::<9, 5>(self.range.val()) << 4) | 0b0011;
        } else if self.keep.val() {
            // need, and the range of its second octet (0 for a byte that
            // starts no sequence: no `trail` is below its `need`).
            self.forward.next = (bit_cast::<17, 5>(self.range.val()) << 7)
                | (bit_cast::<17, 3>(self.need.val()) << 4);
            self.backward.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_summary_is_synthesizable() {
        crate::assert_synthesizable(ByteSummary::default());
    }
}
