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
//! | 11:7 | `mask` | the ranges its second octet may be in, one hot as [`OctetTable`]'s `continuation` |
//! | 16:12 | `first` | the range of the byte after that last other byte (of its first byte when `all`); 0 when there is none |
//!
//! ## The backward summary (9 bits)
//! | bits | field | meaning |
//! |---|---|---|
//! | 0 | `all` | every byte is a continuing octet |
//! | 3:1 | `lead` | the continuing octets at its start (saturating at 7) |
//! | 8:4 | `first` | the range of its first byte when it is a continuing octet, else 0 |
//!
//! ## The mark class (13 bits)
//! What the byte's own mark needs from the tables
//! ([`LaneMark`](crate::utf8_validator::LaneMark)), looked up here, where
//! the byte is read anyway, and carried to the mark with the byte:
//!
//! | bits | field | continuing octet | first octet | other byte |
//! |---|---|---|---|---|
//! | 0 | `continuing` | 1 | 0 | 0 |
//! | 3:1 | `need` | 0 | the sequence's length − 1 | 0 |
//! | 8:4 | `range` | its range | the ranges its second octet may be in | 0 |
//! | 12:9 | `kind` | its mark when unexpected | its mark when its second octet is a continuing octet outside `range` | its mark (0 for ASCII) |
//!
//! A null lane (`keep` low) is the empty stretch: `all`, everything else 0.
//! [`ForwardJoin`](crate::utf8_validator::ForwardJoin) and
//! [`BackwardJoin`](crate::utf8_validator::BackwardJoin) join two adjacent
//! stretches; the empty stretch changes nothing.
//!
//! ## Parameter
//! The [`Profile`], through the [`OctetTable`].
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `tdata`, `keep` | in | 8, 1 | the byte, and whether the lane holds one |
//! | `forward`, `backward` | out | 17, 9 | its summaries |
//! | `lane` | out | 21 | the byte (7:0) and its mark class (20:8), whatever `keep`: the lane as the scan carries it ([`SCANNED_LANE`]) |
//!
//! ## Latency
//! None: combinational.

use rust_hdl::prelude::*;

use crate::utf8_decoder::lead_table::LeadTable;
use crate::utf8_decoder::octet_table::OctetTable;
use crate::utf8_validator::SCANNED_LANE;
use utf8hdl_reference::Profile;

#[derive(LogicBlock)]
pub struct ByteSummary {
    pub tdata: Signal<In, Bits<8>>,
    pub keep: Signal<In, Bit>,
    pub forward: Signal<Out, Bits<17>>,
    pub backward: Signal<Out, Bits<9>>,
    pub lane: Signal<Out, Bits<SCANNED_LANE>>,
    octet: OctetTable,
    /// The mark class, and its fields but `need`.
    mark_class: Signal<Local, Bits<13>>,
    continuing: Signal<Local, Bit>,
    range: Signal<Local, Bits<5>>,
    kind: Signal<Local, Bits<4>>,
    lead: LeadTable,
    /// The continuing octets a first octet asks for, 0 for any other byte.
    need: Signal<Local, Bits<3>>,
    /// What the tables say that the summaries do not need (Verilator's
    /// lint passes over `unused_*`; yosys removes it).
    unused_tables: Signal<Local, Bit>,
}

impl ByteSummary {
    pub fn new(profile: Profile) -> Self {
        ByteSummary {
            tdata: Default::default(),
            keep: Default::default(),
            forward: Default::default(),
            backward: Default::default(),
            lane: Default::default(),
            octet: OctetTable::new(profile),
            mark_class: Default::default(),
            continuing: Default::default(),
            range: Default::default(),
            kind: Default::default(),
            lead: Default::default(),
            need: Default::default(),
            unused_tables: Default::default(),
        }
    }
}

impl Logic for ByteSummary {
    #[hdl_gen]
    fn update(&mut self) {
        self.octet.tdata.next = self.tdata.val();
        self.lead.byte_class.next = self.octet.byte_class.val();
        self.unused_tables.next = self.octet.free_bits.val().any();
        self.need.next = 0.into();
        if self.lead.lead_length.val() > 1 {
            self.need.next = self.lead.lead_length.val() - 1;
        }
        // The mark class's fields.
        self.continuing.next = self.octet.continuation.val() != 0;
        self.range.next = 0.into();
        self.kind.next = self.lead.malformed_tuser.val();
        if self.continuing.val() {
            self.range.next = self.octet.continuation.val();
        } else if self.need.val() != 0 {
            self.range.next = self.lead.second_allowed.val();
            self.kind.next = self.lead.outside_tuser.val();
        }
        self.mark_class.next = (bit_cast::<13, 4>(self.kind.val()) << 9)
            | (bit_cast::<13, 5>(self.range.val()) << 4)
            | (bit_cast::<13, 3>(self.need.val()) << 1);
        if self.continuing.val() {
            self.mark_class.next = (bit_cast::<13, 4>(self.kind.val()) << 9)
                | (bit_cast::<13, 5>(self.range.val()) << 4)
                | 1;
        }
        self.lane.next =
            (bit_cast::<21, 13>(self.mark_class.val()) << 8) | bit_cast::<21, 8>(self.tdata.val());
        // The empty stretch.
        self.forward.next = 1.into();
        self.backward.next = 1.into();
        // Both read the mark class's fields, so that the tables are
        // looked up once.
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
        crate::assert_synthesizable(ByteSummary::new(Profile::Rfc3629));
    }
}
