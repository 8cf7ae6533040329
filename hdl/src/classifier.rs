//! # `ByteClassifier`: pipeline stage 1
//!
//! Maps each byte to its [`ByteClass`] through the [`OctetTable`] (Annex R
//! Table 1, split where the second-byte bounds of the decoder need it) and
//! registers the class with the byte's free bits. Everything the decoder decides depends on the class,
//! so registering it here keeps the decoder's logic short.
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
//! | `classified.byte_class` | out | 5 | [`ClassifiedOut`], every field registered: the [`ByteClass`] |
//! | `classified.continuation` | out | 5 | one-hot range of a continuing octet: bit 0 = 80–83, 1 = 84–87, 2 = 88–8F, 3 = 90–9F, 4 = A0–BF; 0 otherwise |
//! | `classified.free_bits` | out | 8 | the free bits (the `x`s of Table 1) |
//! | `classified.last`, `classified.valid` | out | 1 | the byte's `tlast` and `tvalid` |
//!
//! ## Latency
//! One cycle.
//!
//! ```text
//! clock                   _/‾\_/‾\_/‾\_/‾\_
//! byte.tdata               < E2>< 82>< 41>
//! classified.byte_class         <Lead3><Cont80><Ascii>
//! classified.free_bits          < 02 >< 02 >< 41 >
//! ```
//!
//! ## Invariants
//! * `free_bits` has only the free-bit positions of `byte_class` set.
//! * `continuation` is the class's range as one hot bit (the decoder tests
//!   it against its bound with a single AND-OR, which keeps its logic short).
//! * While `advance` is low every output holds.

use rust_hdl::prelude::*;

use crate::octet_table::OctetTable;
use crate::skid_buffer::BeatIn;
use utf8hdl_reference::Profile;

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
/// [`ClassifiedIn`]. Every field is a flop of the classifier.
#[derive(LogicInterface, Default)]
#[join = "ClassifiedIn"]
pub struct ClassifiedOut {
    pub byte_class: Signal<Out, ByteClass>,
    /// One hot: bit 0 = 80–83, 1 = 84–87, 2 = 88–8F, 3 = 90–9F, 4 = A0–BF;
    /// 0 for a byte that is not a continuing octet.
    pub continuation: Signal<Out, Bits<5>>,
    /// The `x`s of Table 1, at the low end.
    pub free_bits: Signal<Out, Bits<8>>,
    pub last: Signal<Out, Bit>,
    pub valid: Signal<Out, Bit>,
}

/// The receiving end of a [`ClassifiedOut`].
#[derive(LogicInterface, Default)]
#[join = "ClassifiedOut"]
pub struct ClassifiedIn {
    pub byte_class: Signal<In, ByteClass>,
    pub continuation: Signal<In, Bits<5>>,
    pub free_bits: Signal<In, Bits<8>>,
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
    byte_class: DFF<ByteClass>,
    continuation: DFF<Bits<5>>,
    free_bits: DFF<Bits<8>>,
    last: DFF<Bit>,
    valid: DFF<Bit>,
    /// Annex R Table 1 for this byte.
    octets: OctetTable,
}

impl ByteClassifier {
    pub fn new(profile: Profile) -> Self {
        ByteClassifier {
            clock: Default::default(),
            rst: Default::default(),
            advance: Default::default(),
            byte: Default::default(),
            classified: Default::default(),
            byte_class: Default::default(),
            continuation: Default::default(),
            free_bits: Default::default(),
            last: Default::default(),
            valid: Default::default(),
            octets: OctetTable::new(profile),
        }
    }
}

impl Logic for ByteClassifier {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            byte_class,
            continuation,
            free_bits,
            last,
            valid
        );
        self.classified.byte_class.next = self.byte_class.q.val();
        self.classified.continuation.next = self.continuation.q.val();
        self.classified.free_bits.next = self.free_bits.q.val();
        self.classified.last.next = self.last.q.val();
        self.classified.valid.next = self.valid.q.val();
        self.octets.tdata.next = self.byte.tdata.val();
        if self.advance.val() {
            self.valid.d.next = self.byte.tvalid.val();
            self.last.d.next = self.byte.tlast.val();
            self.byte_class.d.next = self.octets.byte_class.val();
            self.continuation.d.next = self.octets.continuation.val();
            self.free_bits.d.next = self.octets.free_bits.val();
        }
        if self.rst.val() {
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
