//! What one lane of a stream carries, and how many lanes a core's
//! ports have.

use std::fmt;

use anyhow::{bail, Result};

use super::*;

/// The most lanes a core's streams may have (items per clock).
pub const MAX_LANES: usize = 32;

/// What one lane of a stream carries, as its `tdata` and `tuser` bits: a
/// byte, a decoded word with its error kind, ... Lane *i* of a port is bits
/// `W`·*i* + `W` − 1 .. `W`·*i* of it, for `W` bits a lane.
pub trait Lane: Copy + Default + Eq + fmt::Debug + fmt::Display + 'static {
    /// What one is called (`byte`).
    const NAME: &'static str;

    /// `tdata` bits a lane, 1 to 32.
    const TDATA: usize;
    /// `tuser` bits a lane, 0 to 8; 0 for a stream without `tuser`.
    const TUSER: usize;

    /// Its `tdata` bits.
    fn tdata(&self) -> u32;

    /// Its `tuser` bits.
    fn tuser(&self) -> u32 {
        0
    }

    /// The lane whose ports hold these bits.
    fn from_bits(tdata: u32, tuser: u32) -> Self;
}

/// Lanes of `tdata` alone, no `tuser`: a byte (a UTF-8 stream), a UTF-16
/// code unit, a UCS-4 word (a stream of characters).
macro_rules! plain_lanes {
    ($($code_unit:ty: $name:literal),*) => {$(
        impl Lane for $code_unit {
            const NAME: &'static str = $name;
            const TDATA: usize = <$code_unit>::BITS as usize;
            const TUSER: usize = 0;

            fn tdata(&self) -> u32 {
                u32::from(*self)
            }

            fn from_bits(tdata: u32, _tuser: u32) -> Self {
                tdata as $code_unit
            }
        }
    )*};
}

plain_lanes!(u8: "byte", u16: "code unit", u32: "word");

/// The [`Lane`] of a struct `$lane { tdata: u32, tuser: u8 }`: a word and
/// `$tuser` bits of `tuser` about it (a decoded word and its error kind, a
/// word and its property flags).
#[macro_export]
macro_rules! word_lane {
    ($lane:ident, tuser: $tuser:literal) => {
        impl $crate::core::Lane for $lane {
            const NAME: &'static str = "word";
            const TDATA: usize = 32;
            const TUSER: usize = $tuser;

            fn tdata(&self) -> u32 {
                self.tdata
            }

            fn tuser(&self) -> u32 {
                u32::from(self.tuser)
            }

            fn from_bits(tdata: u32, tuser: u32) -> $lane {
                $lane {
                    tdata,
                    tuser: tuser as u8,
                }
            }
        }
    };
}

/// A code unit and one `tuser` bit: whether it belongs to the U+FFFD an
/// encoder sends for a value it cannot encode. The encoders' output lane:
/// an octet ([`Octet`](crate::cores::utf8_encoder::Octet)) or a UTF-16 code unit.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Flagged<T> {
    pub tdata: T,
    pub error: bool,
}

macro_rules! flagged_lanes {
    ($($code_unit:ty: $name:literal),*) => {$(
        impl Lane for Flagged<$code_unit> {
            const NAME: &'static str = $name;
            const TDATA: usize = <$code_unit>::BITS as usize;
            const TUSER: usize = 1;

            fn tdata(&self) -> u32 {
                u32::from(self.tdata)
            }

            fn tuser(&self) -> u32 {
                u32::from(self.error)
            }

            fn from_bits(tdata: u32, tuser: u32) -> Self {
                Flagged {
                    tdata: tdata as $code_unit,
                    error: tuser & 1 == 1,
                }
            }
        }
    )*};
}

flagged_lanes!(u8: "octet", u16: "code unit");

impl<T: fmt::UpperHex> fmt::Display for Flagged<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = 2 * std::mem::size_of::<T>();
        write!(
            f,
            "tdata={:0digits$X} tuser={}",
            self.tdata,
            u8::from(self.error)
        )
    }
}

/// Which side of a core moves on every clock at full rate: the rule its
/// checker holds it to ([`Core::RATE`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rate {
    /// Its input: once `m_axis_tready` has been high for [`Core::LATENCY`]
    /// cycles, `s_axis_tready` is high. For a core whose input beat never
    /// makes more than one output beat (the decoders).
    Input,
    /// Its output: once beats have been offered on `s_axis` and
    /// `m_axis_tready` has been high for [`Core::LATENCY`] cycles,
    /// `m_axis_tvalid` is high; `s_axis_tready` falls while an input's
    /// outputs leave. For a core whose input may make several output beats
    /// (the encoders).
    Output,
}

/// How many lanes a core's streams have, and whether they say which of
/// them carry an item: what its ports say ([`Lanes::of`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Lanes {
    /// Items per beat, on `s_axis` and on `m_axis` alike.
    pub count: usize,
    /// The streams have `tkeep` (`s_axis_tkeep` and `m_axis_tkeep`): an
    /// input lane may be null, and an output beat carries from none to
    /// `count` items.
    pub tkeep: bool,
}

impl Lanes {
    /// The lanes of a core with `ports` whose streams carry `I` in and `O`
    /// out: `s_axis_tdata` is `I::TDATA` bits a lane, `s_axis_tuser`
    /// `I::TUSER` (no port at 0), and likewise `m_axis_*` for `O`; `tkeep`
    /// (one bit a lane) is on both streams or on neither. A core of several
    /// lanes needs it: a message need not fill its last beat.
    pub fn of<I: Lane, O: Lane>(ports: &[Port]) -> Result<Lanes> {
        let width = |name: &str| ports.iter().find(|p| p.name == name).map(|p| p.width);
        let Some(tdata) = width("s_axis_tdata") else {
            bail!("the core has no s_axis_tdata");
        };
        let count = tdata / I::TDATA;
        anyhow::ensure!(
            tdata % I::TDATA == 0 && (1..=MAX_LANES).contains(&count),
            "s_axis_tdata is {tdata} bits: not {} bits a lane for 1 to {MAX_LANES} lanes",
            I::TDATA
        );
        for (name, bits) in [
            ("s_axis_tuser", I::TUSER),
            ("m_axis_tdata", O::TDATA),
            ("m_axis_tuser", O::TUSER),
        ] {
            let expected = (bits > 0).then_some(bits * count);
            anyhow::ensure!(
                width(name) == expected,
                "{name} is not {bits} bits for each of the {count} lanes of s_axis_tdata"
            );
        }
        let tkeep = match (width("s_axis_tkeep"), width("m_axis_tkeep")) {
            (None, None) if count == 1 => false,
            (None, None) => bail!("a core of {count} lanes needs s_axis_tkeep and m_axis_tkeep"),
            (Some(s), Some(m)) if s == count && m == count => true,
            _ => bail!("s_axis_tkeep and m_axis_tkeep must both be one bit a lane"),
        };
        Ok(Lanes { count, tkeep })
    }

    /// `tkeep` with every lane kept.
    pub fn all(self) -> u32 {
        u32::MAX >> (32 - self.count)
    }

    /// Whether `beat` fits these lanes: it keeps no lane beyond them, and
    /// without `tkeep`, every lane.
    pub fn admit<L: Lane>(self, beat: &Beat<L>) -> bool {
        match self.tkeep {
            true => beat.tkeep & !self.all() == 0,
            false => beat.tkeep == self.all(),
        }
    }
}
