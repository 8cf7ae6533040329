//! # `LeadTable`: what a byte's class means to a decoder (combinational)
//!
//! The second-octet column of the well-formed table (Unicode Table 3-7;
//! Annex R for 5 and 6 octets) and the error of every octet that starts no
//! sequence, for a [`ByteClass`] from the [`OctetTable`](crate::utf8_decoder::octet_table::OctetTable).
//! Both cores read it: the 1-lane [`DecoderFsm`](crate::utf8_decoder::fsm::DecoderFsm)
//! for its one byte, the wide core's
//! [`LaneTables`](crate::utf8_decoder_wide::stages::LaneTables) for every lane.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `byte_class` | in | 5 | the [`ByteClass`] |
//! | `lead_length` | out | 3 | the octets of the sequence the byte starts: 1 for 00–7F, 2–6 for a first octet, 0 for an octet that starts none (a continuing octet, or a malformed one) |
//! | `second_allowed` | out | 5 | the ranges (one hot, as the classifier's `continuation`) the second octet may be in: all five, but after E0, ED, F0, F4 (rfc3629), F8 and FC |
//! | `outside_tuser` | out | 4 | the `tuser` of the sequence when its second octet is a continuing octet outside `second_allowed`; truncated otherwise |
//! | `malformed_tuser` | out | 4 | the `tuser` of the byte as a unit on its own when it starts no sequence, 0 when it does |
//!
//! ## Latency
//! None: combinational.
//!
//! ## Invariants
//! * Exactly one of `lead_length != 0` and `malformed_tuser != 0` holds.
//! * A continuing octet's `malformed_tuser` is the unexpected-continuation
//!   error: what it is when no sequence takes it.

use rust_hdl::prelude::*;

use crate::utf8_decoder::classifier::ByteClass;
use utf8hdl_reference::ErrorKind;

/// `m_axis_tuser` for an error ([`ErrorKind::tuser`]), as a constant.
pub fn error_tuser(kind: ErrorKind) -> Constant<Bits<4>> {
    Constant::new(u64::from(kind.tuser()).into())
}

#[derive(LogicBlock)]
pub struct LeadTable {
    pub byte_class: Signal<In, ByteClass>,
    pub lead_length: Signal<Out, Bits<3>>,
    pub second_allowed: Signal<Out, Bits<5>>,
    pub outside_tuser: Signal<Out, Bits<4>>,
    pub malformed_tuser: Signal<Out, Bits<4>>,
    /// The error codes, from [`ErrorKind`] (the only constants here that
    /// are not literals: the encoding of `tuser` is defined there).
    tuser_invalid_byte: Constant<Bits<4>>,
    tuser_unexpected_continuation: Constant<Bits<4>>,
    tuser_truncated: Constant<Bits<4>>,
    tuser_overlong: Constant<Bits<4>>,
    tuser_surrogate: Constant<Bits<4>>,
    tuser_out_of_range: Constant<Bits<4>>,
}

impl Default for LeadTable {
    fn default() -> Self {
        LeadTable {
            byte_class: Default::default(),
            lead_length: Default::default(),
            second_allowed: Default::default(),
            outside_tuser: Default::default(),
            malformed_tuser: Default::default(),
            tuser_invalid_byte: error_tuser(ErrorKind::InvalidByte),
            tuser_unexpected_continuation: error_tuser(ErrorKind::UnexpectedContinuation),
            tuser_truncated: error_tuser(ErrorKind::Truncated),
            tuser_overlong: error_tuser(ErrorKind::Overlong),
            tuser_surrogate: error_tuser(ErrorKind::Surrogate),
            tuser_out_of_range: error_tuser(ErrorKind::OutOfRange),
        }
    }
}

impl Logic for LeadTable {
    #[hdl_gen]
    fn update(&mut self) {
        self.lead_length.next = 0.into();
        self.second_allowed.next = 0b11111.into();
        self.outside_tuser.next = self.tuser_truncated.val();
        self.malformed_tuser.next = self.tuser_unexpected_continuation.val();
        match self.byte_class.val() {
            ByteClass::Ascii => {
                self.lead_length.next = 1.into();
                self.malformed_tuser.next = 0.into();
            }
            ByteClass::Lead2 => {
                self.lead_length.next = 2.into();
                self.malformed_tuser.next = 0.into();
            }
            ByteClass::LeadE0 => {
                // A0–BF
                self.lead_length.next = 3.into();
                self.malformed_tuser.next = 0.into();
                self.second_allowed.next = 0b10000.into();
                self.outside_tuser.next = self.tuser_overlong.val();
            }
            ByteClass::LeadED => {
                // 80–9F
                self.lead_length.next = 3.into();
                self.malformed_tuser.next = 0.into();
                self.second_allowed.next = 0b01111.into();
                self.outside_tuser.next = self.tuser_surrogate.val();
            }
            ByteClass::Lead3 => {
                self.lead_length.next = 3.into();
                self.malformed_tuser.next = 0.into();
            }
            ByteClass::LeadF0 => {
                // 90–BF
                self.lead_length.next = 4.into();
                self.malformed_tuser.next = 0.into();
                self.second_allowed.next = 0b11000.into();
                self.outside_tuser.next = self.tuser_overlong.val();
            }
            ByteClass::LeadF4 => {
                // 80–8F: `Profile::second_after_f4` of rfc3629
                self.lead_length.next = 4.into();
                self.malformed_tuser.next = 0.into();
                self.second_allowed.next = 0b00111.into();
                self.outside_tuser.next = self.tuser_out_of_range.val();
            }
            ByteClass::Lead4 => {
                self.lead_length.next = 4.into();
                self.malformed_tuser.next = 0.into();
            }
            ByteClass::LeadF8 => {
                // 88–BF
                self.lead_length.next = 5.into();
                self.malformed_tuser.next = 0.into();
                self.second_allowed.next = 0b11100.into();
                self.outside_tuser.next = self.tuser_overlong.val();
            }
            ByteClass::Lead5 => {
                self.lead_length.next = 5.into();
                self.malformed_tuser.next = 0.into();
            }
            ByteClass::LeadFC => {
                // 84–BF
                self.lead_length.next = 6.into();
                self.malformed_tuser.next = 0.into();
                self.second_allowed.next = 0b11110.into();
                self.outside_tuser.next = self.tuser_overlong.val();
            }
            ByteClass::Lead6 => {
                self.lead_length.next = 6.into();
                self.malformed_tuser.next = 0.into();
            }
            ByteClass::OverlongLead => {
                self.malformed_tuser.next = self.tuser_overlong.val();
            }
            ByteClass::OutOfRangeLead => {
                self.malformed_tuser.next = self.tuser_out_of_range.val();
            }
            ByteClass::Invalid => {
                self.malformed_tuser.next = self.tuser_invalid_byte.val();
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lead_table_is_synthesizable() {
        crate::assert_synthesizable(LeadTable::default());
    }
}
