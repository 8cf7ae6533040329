//! # `OctetTable`: what one octet is, as a table (combinational)
//!
//! Annex R Table 1, read from the most significant bit down, split where the
//! second-octet bounds need it, and narrowed by the [`Profile`]. Both cores
//! read it: the 1-lane [`ByteClassifier`](crate::utf8_decoder::classifier::ByteClassifier)
//! registers it for one byte, the wide core's
//! [`LaneTables`](crate::utf8_decoder_wide::stages::LaneTables) for every lane;
//! the [`LeadTable`](crate::utf8_decoder::lead_table::LeadTable) then says what the class
//! means to a decoder.
//!
//! ## Parameter
//! The [`Profile`], through [`Constant`]s fixed when the design is built:
//! `leads_to_f7`, `leads_to_fb`, `leads_to_fd` ([`Profile::last_lead`],
//! row by row: the first octets beyond the last lead are `OutOfRangeLead`;
//! a last lead must end a row of Table 1: F4, F7, FB or FD) and `f4_bounded`
//! (whether [`Profile::second_after_f4`] narrows F4's second octet, making
//! F4 a `LeadF4`; otherwise it is a `Lead4`).
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `tdata` | in | 8 | the octet |
//! | `byte_class` | out | 5 | its [`ByteClass`] |
//! | `continuation` | out | 5 | one-hot range of a continuing octet: bit 0 = 80–83, 1 = 84–87, 2 = 88–8F, 3 = 90–9F, 4 = A0–BF; 0 otherwise |
//! | `free_bits` | out | 8 | the free bits (the `x`s of Table 1), at the low end |
//!
//! ## Latency
//! None: combinational.
//!
//! ## Invariants
//! * `free_bits` has only the free-bit positions of the octet set.
//! * `continuation != 0` exactly for 80–BF.

use rust_hdl::prelude::*;

use crate::utf8_decoder::classifier::ByteClass;
use utf8hdl_reference::Profile;

#[derive(LogicBlock)]
pub struct OctetTable {
    pub tdata: Signal<In, Bits<8>>,
    pub byte_class: Signal<Out, ByteClass>,
    pub continuation: Signal<Out, Bits<5>>,
    pub free_bits: Signal<Out, Bits<8>>,
    /// Whether F5–F7, F8–FB and FC–FD are leads or `OutOfRangeLead`:
    /// [`Profile::last_lead`], row by row of Table 1 (a comparison with
    /// the last lead would cost a carry chain).
    leads_to_f7: Constant<Bit>,
    leads_to_fb: Constant<Bit>,
    leads_to_fd: Constant<Bit>,
    /// Whether F4's second octet is bounded ([`Profile::second_after_f4`]).
    f4_bounded: Constant<Bit>,
}

impl OctetTable {
    pub fn new(profile: Profile) -> Self {
        OctetTable {
            tdata: Default::default(),
            byte_class: Default::default(),
            continuation: Default::default(),
            free_bits: Default::default(),
            leads_to_f7: Constant::new(profile.last_lead() >= 0xF7),
            leads_to_fb: Constant::new(profile.last_lead() >= 0xFB),
            leads_to_fd: Constant::new(profile.last_lead() >= 0xFD),
            f4_bounded: Constant::new(profile.second_after_f4() != (0x80..=0xBF)),
        }
    }
}

impl Logic for OctetTable {
    #[hdl_gen]
    fn update(&mut self) {
        self.continuation.next = 0.into();
        // Table 1 reads the octet from its most significant bit down: the
        // position of the first ZERO bit says what the octet is, and the
        // bits below it are free (7 − n for the first of n).
        if !self.tdata.val().get_bit(7) {
            self.byte_class.next = ByteClass::Ascii;
            self.free_bits.next = self.tdata.val() & 0x7F;
        } else if !self.tdata.val().get_bit(6) {
            self.free_bits.next = self.tdata.val() & 0x3F;
            if self.tdata.val().get_bit(5) {
                self.byte_class.next = ByteClass::ContA0;
                self.continuation.next = 0b10000.into();
            } else if self.tdata.val().get_bit(4) {
                self.byte_class.next = ByteClass::Cont90;
                self.continuation.next = 0b01000.into();
            } else if self.tdata.val().get_bit(3) {
                self.byte_class.next = ByteClass::Cont88;
                self.continuation.next = 0b00100.into();
            } else if self.tdata.val().get_bit(2) {
                self.byte_class.next = ByteClass::Cont84;
                self.continuation.next = 0b00010.into();
            } else {
                self.byte_class.next = ByteClass::Cont80;
                self.continuation.next = 0b00001.into();
            }
        } else if !self.tdata.val().get_bit(5) {
            self.free_bits.next = self.tdata.val() & 0x1F;
            // C0 and C1 carry at most 7 bits: always an overlong form.
            if self.tdata.val().get_bit(4)
                | self.tdata.val().get_bit(3)
                | self.tdata.val().get_bit(2)
                | self.tdata.val().get_bit(1)
            {
                self.byte_class.next = ByteClass::Lead2;
            } else {
                self.byte_class.next = ByteClass::OverlongLead;
            }
        } else if !self.tdata.val().get_bit(4) {
            self.free_bits.next = self.tdata.val() & 0x0F;
            if self.tdata.val() == 0xE0 {
                self.byte_class.next = ByteClass::LeadE0;
            } else if self.tdata.val() == 0xED {
                self.byte_class.next = ByteClass::LeadED;
            } else {
                self.byte_class.next = ByteClass::Lead3;
            }
        } else if !self.tdata.val().get_bit(3) {
            self.free_bits.next = self.tdata.val() & 0x07;
            if self.tdata.val() == 0xF0 {
                self.byte_class.next = ByteClass::LeadF0;
            } else if (self.tdata.val() == 0xF4) & self.f4_bounded.val() {
                self.byte_class.next = ByteClass::LeadF4;
            } else if self.tdata.val().get_bit(2) & !self.leads_to_f7.val() {
                // F5–F7 (F4 was the last lead)
                self.byte_class.next = ByteClass::OutOfRangeLead;
            } else {
                self.byte_class.next = ByteClass::Lead4;
            }
        } else if !self.tdata.val().get_bit(2) {
            self.free_bits.next = self.tdata.val() & 0x03;
            if !self.leads_to_fb.val() {
                self.byte_class.next = ByteClass::OutOfRangeLead;
            } else if self.tdata.val() == 0xF8 {
                self.byte_class.next = ByteClass::LeadF8;
            } else {
                self.byte_class.next = ByteClass::Lead5;
            }
        } else if !self.tdata.val().get_bit(1) {
            self.free_bits.next = self.tdata.val() & 0x01;
            if !self.leads_to_fd.val() {
                self.byte_class.next = ByteClass::OutOfRangeLead;
            } else if self.tdata.val() == 0xFC {
                self.byte_class.next = ByteClass::LeadFC;
            } else {
                self.byte_class.next = ByteClass::Lead6;
            }
        } else {
            self.free_bits.next = 0.into();
            self.byte_class.next = ByteClass::Invalid;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octet_table_is_synthesizable() {
        for profile in Profile::ALL {
            crate::assert_synthesizable(OctetTable::new(profile));
        }
    }
}
