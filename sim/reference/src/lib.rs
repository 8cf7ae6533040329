//! The bottom layer of utf8hdl: what the hardware and the software must
//! agree on ([`Profile`], [`ErrorKind`]) and the reference decoders and
//! encoders every other part is checked against: UTF-8 ([`decode`],
//! [`encode`], [`validate`]) and UTF-16 ([`utf16`]); and the character
//! properties ([`properties`]).
//! Pure software, written from the specifications: it uses nothing from
//! rust-hdl or the RTL.
//!
//! Layers read one way: this crate ← `utf8hdl-hdl` ← `utf8hdl-sim` ←
//! `utf8hdl-synth` (with the `utf8hdl` command line).

mod interface;
pub mod properties;
pub mod utf16;
mod utf8;
mod validate;

pub use interface::{ErrorKind, Profile, REPLACEMENT};
pub use utf8::{decode, encode, Decoder, Unit};
pub use validate::{first_unit, validate, Malformed};
