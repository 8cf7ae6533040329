//! # `LaneLookup`: one byte's table lookups, its mark class (combinational)
//!
//! Everything the validator needs to know of a byte from the tables, looked
//! up once, on `s_axis`, so that the input register holds it with the byte:
//! [`ByteSummary`](crate::utf8_validator::ByteSummary) builds the byte's
//! scan summaries from it, and [`LaneMark`](crate::utf8_validator::LaneMark)
//! its mark, neither reading a table. Placing the lookups in front of the
//! input register splits the longest 1-lane path (the tables, then the
//! summaries, into the scan's register) in two.
//!
//! ## The mark class (13 bits)
//! | bits | field | continuing octet | first octet | other byte |
//! |---|---|---|---|---|
//! | 0 | `continuing` | 1 | 0 | 0 |
//! | 3:1 | `need` | 0 | the sequence's length − 1 | 0 |
//! | 8:4 | `range` | its range (one hot, as [`OctetTable`]'s `continuation`) | the ranges its second octet may be in | 0 |
//! | 12:9 | `kind` | its mark when unexpected | its mark when its second octet is a continuing octet outside `range` | its mark (0 for ASCII) |
//!
//! ## Parameter
//! The [`Profile`], through the [`OctetTable`].
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `tdata` | in | 8 | the byte |
//! | `lane` | out | 21 | the byte (7:0) and its mark class (20:8): the lane as the input register and the scan carry it ([`SCANNED_LANE`]) |
//!
//! ## Latency
//! None: combinational.

use rust_hdl::prelude::*;

use crate::utf8_decoder::lead_table::LeadTable;
use crate::utf8_decoder::octet_table::OctetTable;
use crate::utf8_validator::SCANNED_LANE;
use utf8hdl_reference::Profile;

#[derive(LogicBlock)]
pub struct LaneLookup {
    pub tdata: Signal<In, Bits<8>>,
    pub lane: Signal<Out, Bits<SCANNED_LANE>>,
    octet: OctetTable,
    lead: LeadTable,
    /// The mark class's fields: `need` is 0 for a continuing octet, so the
    /// class is their OR, each in its place.
    continuing: Signal<Local, Bits<1>>,
    need: Signal<Local, Bits<3>>,
    range: Signal<Local, Bits<5>>,
    kind: Signal<Local, Bits<4>>,
    /// What the tables say that the class does not need (Verilator's lint
    /// passes over `unused_*`; yosys removes it).
    unused_tables: Signal<Local, Bit>,
}

impl LaneLookup {
    pub fn new(profile: Profile) -> Self {
        LaneLookup {
            tdata: Default::default(),
            lane: Default::default(),
            octet: OctetTable::new(profile),
            lead: Default::default(),
            continuing: Default::default(),
            need: Default::default(),
            range: Default::default(),
            kind: Default::default(),
            unused_tables: Default::default(),
        }
    }
}

impl Logic for LaneLookup {
    #[hdl_gen]
    fn update(&mut self) {
        self.octet.tdata.next = self.tdata.val();
        self.lead.byte_class.next = self.octet.byte_class.val();
        self.unused_tables.next = self.octet.free_bits.val().any();
        self.need.next = 0.into();
        if self.lead.lead_length.val() > 1 {
            self.need.next = self.lead.lead_length.val() - 1;
        }
        self.continuing.next = 0.into();
        self.range.next = 0.into();
        self.kind.next = self.lead.malformed_tuser.val();
        if self.octet.continuation.val() != 0 {
            self.continuing.next = 1.into();
            self.range.next = self.octet.continuation.val();
        } else if self.need.val() != 0 {
            self.range.next = self.lead.second_allowed.val();
            self.kind.next = self.lead.outside_tuser.val();
        }
        self.lane.next = (bit_cast::<21, 4>(self.kind.val()) << 17)
            | (bit_cast::<21, 5>(self.range.val()) << 12)
            | (bit_cast::<21, 3>(self.need.val()) << 9)
            | (bit_cast::<21, 1>(self.continuing.val()) << 8)
            | bit_cast::<21, 8>(self.tdata.val());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_lookup_is_synthesizable() {
        crate::assert_synthesizable(LaneLookup::new(Profile::Rfc3629));
    }
}
