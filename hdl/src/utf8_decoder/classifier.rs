//! # `ByteClassifier`: pipeline stage 1
//!
//! Reads each byte's row of the [`OctetTable`] (Annex R Table 1, split where
//! the second-byte bounds of the decoder need it) and then of the
//! [`LeadTable`] (what the class means to a decoder), and registers what the
//! decoder needs from both, so that the decoder decides from flops alone.
//! Three registers deep, each with a short path into it:
//! * `taken_*`: the byte as it leaves the skid buffer, so the buffer's mux
//!   is not on the classification path;
//! * `read_*`: its [`OctetTable`] row (class, one-hot continuation range,
//!   free bits);
//! * `classified.*`: its [`LeadTable`] row as the decoder uses it, and
//!   `in_bound`, the continuation range checked against the second-byte
//!   bound of the valid byte before it (`second_allowed`, that byte's
//!   [`LeadTable`] row), which is the only byte whose bound can apply.
//!
//! ## Parameter
//! The [`Profile`], which fixes its [`OctetTable`].
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `advance` | in | 1 | take the next byte (or a bubble) this cycle |
//! | `byte.tdata`/`tvalid`/`tlast` | in | 8/1/1 | [`BeatIn`]: the byte to classify |
//! | `classified.continuation` | out | 1 | [`ClassifiedOut`], every field registered: a continuing octet (80–BF) |
//! | `classified.in_bound` | out | 1 | a continuing octet within the second-byte bound of the valid byte before it (any continuing octet when that byte has none) |
//! | `classified.free_bits` | out | 8 | the free bits (the `x`s of Table 1) |
//! | `classified.start_left` | out | 5 | the decoder's `bytes_left` (thermometer code) when the byte starts a unit: the lead's length − 1, 0 for a byte that is no lead or has `last` |
//! | `classified.start_word` | out | 1 | starting a unit, the byte is one at once (`start_left` is 0) |
//! | `classified.start_tuser` | out | 4 | that unit's `tuser`: the [`LeadTable`]'s `malformed_tuser`, truncated for a lead |
//! | `classified.outside_tuser` | out | 4 | the [`LeadTable`]'s `outside_tuser` |
//! | `classified.last`, `classified.valid` | out | 1 | the byte's `tlast` and `tvalid` |
//!
//! ## Latency
//! Three cycles.
//!
//! ```text
//! clock                   _/‾\_/‾\_/‾\_/‾\_/‾\_/‾\_
//! byte.tdata               < E2>< 82>< 41>
//! taken_tdata                   < E2>< 82>< 41>
//! read_class                         <Lead3><Cont80><Ascii>
//! classified.start_left                   <00011><00000><00000>
//! classified.in_bound                     <  0  ><  1  ><  0  >
//! classified.free_bits                    < 02  >< 02  >< 41  >
//! ```
//!
//! ## Invariants
//! * `free_bits` has only the free-bit positions of the byte's class set.
//! * `in_bound` implies `continuation`.
//! * `start_left` is a thermometer code, and 0 exactly when `start_word`.
//! * While `advance` is low every register holds.

use rust_hdl::prelude::*;

use crate::stream::BeatIn;
use crate::utf8_decoder::lead_table::{error_tuser, LeadTable};
use crate::utf8_decoder::octet_table::OctetTable;
use utf8hdl_reference::{ErrorKind, Profile};

/// What one byte can be, as far as the decoder is concerned.
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum ByteClass {
    /// 00–7F: a whole character.
    Ascii,
    /// Continuing octets, split at the second-byte bounds: 80–83, 84–87,
    /// 88–8F, 90–9F, A0–BF.
    Cont80,
    Cont84,
    Cont88,
    Cont90,
    ContA0,
    /// C2–DF: first of 2.
    Lead2,
    /// E0: first of 3, second byte A0–BF.
    LeadE0,
    /// ED: first of 3, second byte 80–9F (no surrogates).
    LeadED,
    /// E1–EC, EE–EF: first of 3.
    Lead3,
    /// F0: first of 4, second byte 90–BF.
    LeadF0,
    /// F4 in rfc3629: first of 4, second byte 80–8F (up to U+10FFFF).
    LeadF4,
    /// F1–F3 (and F4–F7 in iso10646): first of 4.
    Lead4,
    /// F8 (iso10646): first of 5, second byte 88–BF.
    LeadF8,
    /// F9–FB (iso10646): first of 5.
    Lead5,
    /// FC (iso10646): first of 6, second byte 84–BF.
    LeadFC,
    /// FD (iso10646): first of 6.
    Lead6,
    /// C0, C1: could only start an overlong form.
    OverlongLead,
    /// F5–FD in rfc3629: beyond U+10FFFF.
    OutOfRangeLead,
    /// FE, FF.
    Invalid,
}

impl ByteClass {
    /// Every class, in code order (the encoding `LogicState` gives them).
    pub const ALL: [ByteClass; 20] = [
        ByteClass::Ascii,
        ByteClass::Cont80,
        ByteClass::Cont84,
        ByteClass::Cont88,
        ByteClass::Cont90,
        ByteClass::ContA0,
        ByteClass::Lead2,
        ByteClass::LeadE0,
        ByteClass::LeadED,
        ByteClass::Lead3,
        ByteClass::LeadF0,
        ByteClass::LeadF4,
        ByteClass::Lead4,
        ByteClass::LeadF8,
        ByteClass::Lead5,
        ByteClass::LeadFC,
        ByteClass::Lead6,
        ByteClass::OverlongLead,
        ByteClass::OutOfRangeLead,
        ByteClass::Invalid,
    ];
}

/// A classified byte, from the classifier to the decoder; joined to a
/// [`ClassifiedIn`]. Every field is a flop of the classifier: its
/// [`LeadTable`] row is read here, a cycle before the decoder needs it.
#[derive(LogicInterface, Default)]
#[join = "ClassifiedIn"]
pub struct ClassifiedOut {
    /// A continuing octet (80–BF).
    pub continuation: Signal<Out, Bit>,
    /// A continuing octet in the range that the previous valid byte allows
    /// for its second octet: any continuing octet, unless that byte was E0,
    /// ED, F0, F4 (rfc3629), F8 or FC and this one is outside its bound.
    pub in_bound: Signal<Out, Bit>,
    /// The `x`s of Table 1, at the low end.
    pub free_bits: Signal<Out, Bits<8>>,
    /// The decoder's `bytes_left` (a thermometer code: bit k set while more
    /// than k continuing octets are due) when this byte starts a unit: the
    /// lead's length − 1, or 0 when the byte is no lead or `last` is set.
    pub start_left: Signal<Out, Bits<5>>,
    /// Starting a unit, the byte is one at once (`start_left` is 0).
    pub start_word: Signal<Out, Bit>,
    /// That unit's `tuser`: the [`LeadTable`]'s `malformed_tuser`, or
    /// truncated for a lead.
    pub start_tuser: Signal<Out, Bits<4>>,
    /// The [`LeadTable`]'s `outside_tuser`.
    pub outside_tuser: Signal<Out, Bits<4>>,
    pub last: Signal<Out, Bit>,
    pub valid: Signal<Out, Bit>,
}

/// The receiving end of a [`ClassifiedOut`].
#[derive(LogicInterface, Default)]
#[join = "ClassifiedOut"]
pub struct ClassifiedIn {
    pub continuation: Signal<In, Bit>,
    pub in_bound: Signal<In, Bit>,
    pub free_bits: Signal<In, Bits<8>>,
    pub start_left: Signal<In, Bits<5>>,
    pub start_word: Signal<In, Bit>,
    pub start_tuser: Signal<In, Bits<4>>,
    pub outside_tuser: Signal<In, Bits<4>>,
    pub last: Signal<In, Bit>,
    pub valid: Signal<In, Bit>,
}

#[derive(LogicBlock)]
pub struct ByteClassifier {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub advance: Signal<In, Bit>,
    pub byte: BeatIn<8>,
    pub classified: ClassifiedOut,
    continuation: DFF<Bit>,
    in_bound: DFF<Bit>,
    free_bits: DFF<Bits<8>>,
    start_left: DFF<Bits<5>>,
    start_word: DFF<Bit>,
    start_tuser: DFF<Bits<4>>,
    outside_tuser: DFF<Bits<4>>,
    last: DFF<Bit>,
    valid: DFF<Bit>,
    /// The byte as taken from the skid buffer: classified from flops, so
    /// the buffer's mux is not on the classification path.
    pub taken_tdata: DFF<Bits<8>>,
    pub taken_tvalid: DFF<Bit>,
    taken_tlast: DFF<Bit>,
    /// The byte's [`OctetTable`] row, registered: its [`LeadTable`] row
    /// is read from flops.
    pub read_class: DFF<ByteClass>,
    pub read_continuation: DFF<Bits<5>>,
    read_free_bits: DFF<Bits<8>>,
    read_last: DFF<Bit>,
    pub read_valid: DFF<Bit>,
    /// The [`LeadTable`]'s `second_allowed` of the last valid byte read.
    pub second_allowed: DFF<Bits<5>>,
    /// Annex R Table 1 for this byte.
    octets: OctetTable,
    /// What its class means.
    lead: LeadTable,
    /// The byte starts a sequence of 2 or more octets.
    is_lead: Signal<Local, Bit>,
    /// Its length − 1 as a thermometer code.
    lead_left: Signal<Local, Bits<5>>,
    /// All ones, or 0 for a byte with `last`.
    keep_left: Signal<Local, Bits<5>>,
    /// Truncated for a lead, 0 otherwise.
    lead_tuser: Signal<Local, Bits<4>>,
    /// The truncated error, from [`ErrorKind`].
    tuser_truncated: Constant<Bits<4>>,
}

impl ByteClassifier {
    pub fn new(profile: Profile) -> Self {
        ByteClassifier {
            clock: Default::default(),
            rst: Default::default(),
            advance: Default::default(),
            byte: Default::default(),
            classified: Default::default(),
            continuation: Default::default(),
            in_bound: Default::default(),
            free_bits: Default::default(),
            start_left: Default::default(),
            start_word: Default::default(),
            start_tuser: Default::default(),
            outside_tuser: Default::default(),
            last: Default::default(),
            valid: Default::default(),
            taken_tdata: Default::default(),
            taken_tvalid: Default::default(),
            taken_tlast: Default::default(),
            read_class: Default::default(),
            read_continuation: Default::default(),
            read_free_bits: Default::default(),
            read_last: Default::default(),
            read_valid: Default::default(),
            second_allowed: Default::default(),
            octets: OctetTable::new(profile),
            lead: Default::default(),
            is_lead: Default::default(),
            lead_left: Default::default(),
            keep_left: Default::default(),
            lead_tuser: Default::default(),
            tuser_truncated: error_tuser(ErrorKind::Truncated),
        }
    }
}

impl Logic for ByteClassifier {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            continuation,
            in_bound,
            free_bits,
            start_left,
            start_word,
            start_tuser,
            outside_tuser,
            last,
            valid,
            taken_tdata,
            taken_tvalid,
            taken_tlast,
            read_class,
            read_continuation,
            read_free_bits,
            read_last,
            read_valid,
            second_allowed
        );
        self.classified.continuation.next = self.continuation.q.val();
        self.classified.in_bound.next = self.in_bound.q.val();
        self.classified.free_bits.next = self.free_bits.q.val();
        self.classified.start_left.next = self.start_left.q.val();
        self.classified.start_word.next = self.start_word.q.val();
        self.classified.start_tuser.next = self.start_tuser.q.val();
        self.classified.outside_tuser.next = self.outside_tuser.q.val();
        self.classified.last.next = self.last.q.val();
        self.classified.valid.next = self.valid.q.val();
        self.octets.tdata.next = self.taken_tdata.q.val();
        self.lead.byte_class.next = self.read_class.q.val();
        // `start_*` are ANDs and ORs of these, not choices between
        // constants, which synthesis would turn into the flops' set and
        // reset (slow to route on the iCE40).
        self.is_lead.next = self.lead.lead_length.val() > 1;
        self.lead_left.next = 0.into();
        if self.lead.lead_length.val() == 2 {
            self.lead_left.next = 0b00001.into();
        } else if self.lead.lead_length.val() == 3 {
            self.lead_left.next = 0b00011.into();
        } else if self.lead.lead_length.val() == 4 {
            self.lead_left.next = 0b00111.into();
        } else if self.lead.lead_length.val() == 5 {
            self.lead_left.next = 0b01111.into();
        } else if self.lead.lead_length.val() == 6 {
            self.lead_left.next = 0b11111.into();
        }
        // A lead with `last` starts no sequence.
        self.keep_left.next = 0b11111.into();
        if self.read_last.q.val() {
            self.keep_left.next = 0.into();
        }
        // A lead yields no word, unless the message ends on it: then it is
        // truncated (a lead's `malformed_tuser` is 0).
        self.lead_tuser.next = 0.into();
        if self.is_lead.val() {
            self.lead_tuser.next = self.tuser_truncated.val();
        }
        if self.advance.val() {
            self.taken_tdata.d.next = self.byte.tdata.val();
            self.taken_tvalid.d.next = self.byte.tvalid.val();
            self.taken_tlast.d.next = self.byte.tlast.val();
            self.read_valid.d.next = self.taken_tvalid.q.val();
            self.read_last.d.next = self.taken_tlast.q.val();
            self.read_class.d.next = self.octets.byte_class.val();
            self.read_continuation.d.next = self.octets.continuation.val();
            self.read_free_bits.d.next = self.octets.free_bits.val();
            self.valid.d.next = self.read_valid.q.val();
            self.last.d.next = self.read_last.q.val();
            self.continuation.d.next = self.read_continuation.q.val().any();
            self.in_bound.d.next =
                (self.read_continuation.q.val() & self.second_allowed.q.val()).any();
            self.free_bits.d.next = self.read_free_bits.q.val();
            self.outside_tuser.d.next = self.lead.outside_tuser.val();
            self.start_left.d.next = self.lead_left.val() & self.keep_left.val();
            self.start_word.d.next = !self.is_lead.val() | self.read_last.q.val();
            self.start_tuser.d.next = self.lead.malformed_tuser.val() | self.lead_tuser.val();
            if self.read_valid.q.val() {
                self.second_allowed.d.next = self.lead.second_allowed.val();
            }
        }
        if self.rst.val() {
            self.taken_tvalid.d.next = false;
            self.read_valid.d.next = false;
            self.valid.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ALL` lists the classes in the order of their codes, which is what
    /// waveform viewers that name the codes rely on.
    #[test]
    fn all_is_in_code_order() {
        for (code, class) in ByteClass::ALL.iter().enumerate() {
            let bits: Bits<5> = (*class).into();
            assert_eq!(bits.to_u64(), code as u64, "{class:?}");
        }
    }

    #[test]
    fn byte_classifier_is_synthesizable() {
        for profile in Profile::ALL {
            crate::assert_synthesizable(ByteClassifier::new(profile));
        }
    }
}
