//! # `MarkClass`: one byte's mark class, from the decoder's tables (combinational)
//!
//! Everything the validator needs to know of a byte from the tables: the
//! [`OctetTable`] and the [`LeadTable`] the decoders read, folded into 13
//! bits. [`LaneLookup`](crate::utf8_validator::LaneLookup) tabulates this
//! block for all 256 bytes when the design is built and reads the table;
//! no core synthesizes it as it is written here.
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
//! | `class` | out | 13 | its mark class |
//!
//! ## Latency
//! None: combinational.

use rust_hdl::prelude::*;

use crate::utf8_decoder::lead_table::LeadTable;
use crate::utf8_decoder::octet_table::OctetTable;
use utf8hdl_reference::Profile;

/// The bits of a mark class.
pub const MARK_CLASS: usize = 13;

#[derive(LogicBlock)]
pub struct MarkClass {
    pub tdata: Signal<In, Bits<8>>,
    pub class: Signal<Out, Bits<MARK_CLASS>>,
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

impl MarkClass {
    pub fn new(profile: Profile) -> Self {
        MarkClass {
            tdata: Default::default(),
            class: Default::default(),
            octet: OctetTable::new(profile),
            lead: Default::default(),
            continuing: Default::default(),
            need: Default::default(),
            range: Default::default(),
            kind: Default::default(),
            unused_tables: Default::default(),
        }
    }

    /// The mark class of every byte, in the byte's place.
    pub fn table(profile: Profile) -> Vec<u16> {
        let mut block = MarkClass::new(profile);
        block.connect_all();
        (0..=255u64)
            .map(|byte| {
                block.tdata.next = byte.into();
                assert!(simulate(&mut block, 100), "MarkClass is combinational");
                block.class.val().to_u64() as u16
            })
            .collect()
    }
}

impl Logic for MarkClass {
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
        self.class.next = (bit_cast::<MARK_CLASS, 4>(self.kind.val()) << 9)
            | (bit_cast::<MARK_CLASS, 5>(self.range.val()) << 4)
            | (bit_cast::<MARK_CLASS, 3>(self.need.val()) << 1)
            | bit_cast::<MARK_CLASS, 1>(self.continuing.val());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mark_class_is_synthesizable() {
        crate::assert_synthesizable(MarkClass::new(Profile::Rfc3629));
    }

    /// A few rows of the class table, from the spec's tables: RFC 3629
    /// §4's grammar (E0's second octet is A0–BF, F4's 80–8F) and ISO/IEC
    /// 10646-1 Annex R (FC leads six octets in iso10646; rfc3629 has no
    /// such lead).
    #[test]
    fn rows_of_the_table_follow_the_spec() {
        use utf8hdl_reference::ErrorKind;
        let field = |class: u16| {
            (
                class & 1,
                (class >> 1) & 7,
                (class >> 4) & 0x1F,
                (class >> 9) & 0xF,
            )
        };
        let tuser = |kind: ErrorKind| u16::from(kind.tuser());
        let rfc = MarkClass::table(Profile::Rfc3629);
        let iso = MarkClass::table(Profile::Iso10646);
        // ASCII: nothing to say.
        assert_eq!(field(rfc[0x41]), (0, 0, 0, 0));
        // A continuing octet 80–83: range bit 0, unexpected on its own.
        assert_eq!(
            field(rfc[0x80]),
            (1, 0, 0b00001, tuser(ErrorKind::UnexpectedContinuation))
        );
        // E0: three octets, its second octet A0–BF only (range bit 4).
        assert_eq!(field(rfc[0xE0]).1, 2);
        assert_eq!(field(rfc[0xE0]).2, 0b10000);
        // F4: four octets, its second octet 80–8F (range bits 0–2).
        assert_eq!(field(rfc[0xF4]).1, 3);
        assert_eq!(field(rfc[0xF4]).2, 0b00111);
        // FC: no lead in rfc3629, a six-octet lead in iso10646.
        assert_eq!(field(rfc[0xFC]).1, 0);
        assert_ne!(field(rfc[0xFC]).3, 0);
        assert_eq!(field(iso[0xFC]).1, 5);
        // FE: never a byte of UTF-8.
        assert_eq!(field(iso[0xFE]), (0, 0, 0, tuser(ErrorKind::InvalidByte)));
    }
}
