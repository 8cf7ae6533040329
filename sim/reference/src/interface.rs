//! The two facts that the hardware, the reference and the CLI must agree on:
//! which UTF-8 a design accepts ([`Profile`]) and how a malformed unit is
//! labelled ([`ErrorKind`]).

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// Which definition of UTF-8 a decoder implements. The hardware fixes it when
/// it is built; it is not a runtime pin.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// RFC 3629 §3: 1–4 octets, U+0000..U+10FFFF, surrogates excluded.
    #[default]
    Rfc3629,
    /// ISO/IEC 10646-1:1993 Amd. 2 Annex R (and RFC 2044): 1–6 octets, up to
    /// 7FFF FFFF; surrogates excluded too (Annex R Note 3).
    Iso10646,
}

impl Profile {
    pub const ALL: [Profile; 2] = [Profile::Rfc3629, Profile::Iso10646];

    /// The name used on the command line and in module names.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Rfc3629 => "rfc3629",
            Profile::Iso10646 => "iso10646",
        }
    }

    // What a profile accepts, one capability per method. Each is an
    // exhaustive `match`, so a new profile makes the compiler point here,
    // and the hardware and the reference read only these methods.

    /// The largest UCS-4 value the profile encodes.
    pub fn max_value(self) -> u32 {
        match self {
            Profile::Rfc3629 => 0x10_FFFF,
            Profile::Iso10646 => 0x7FFF_FFFF,
        }
    }

    /// The octets of the longest sequence: "from 1 to 4 octets" (RFC 3629
    /// §3), from 1 to 6 in Annex R (Table 1's six forms).
    pub fn longest_sequence(self) -> usize {
        match self {
            Profile::Rfc3629 => 4,
            Profile::Iso10646 => 6,
        }
    }

    /// The largest first octet: F4 in RFC 3629 ("the octet values C0, C1,
    /// F5 to FF never appear", §3), FD in Annex R (Table 1: FE and FF are
    /// not used). The first octets above it, up to FD, are out of range.
    pub fn last_lead(self) -> u8 {
        match self {
            Profile::Rfc3629 => 0xF4,
            Profile::Iso10646 => 0xFD,
        }
    }

    /// The second octets that may follow F4: 80–8F in RFC 3629 (§4's
    /// `%xF4 %x80-8F 2( UTF8-tail )`, which stops at U+10FFFF), any continuing
    /// octet in Annex R.
    pub fn second_after_f4(self) -> RangeInclusive<u8> {
        match self {
            Profile::Rfc3629 => 0x80..=0x8F,
            Profile::Iso10646 => 0x80..=0xBF,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Profile {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Profile::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown profile '{s}' (expected rfc3629 or iso10646)"))
    }
}

/// Why a unit is malformed. The codes are an interface: the hardware carries
/// them in `m_axis_tuser[3:1]`, and the CLI prints [`ErrorKind::name`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ErrorKind {
    /// FE or FF, in both profiles.
    InvalidByte = 1,
    /// 80–BF where a sequence should start.
    UnexpectedContinuation = 2,
    /// An open sequence ended by a byte that cannot continue it, or by the
    /// end of the message.
    Truncated = 3,
    /// A lead that can only start a longer-than-needed form: C0, C1, or E0,
    /// F0, F8, FC followed by a too-small second byte.
    Overlong = 4,
    /// ED followed by A0–BF: U+D800..U+DFFF.
    Surrogate = 5,
    /// Beyond the profile's range (rfc3629 only): F5–FD, or F4 90–BF.
    OutOfRange = 6,
}

impl ErrorKind {
    pub const ALL: [ErrorKind; 6] = [
        ErrorKind::InvalidByte,
        ErrorKind::UnexpectedContinuation,
        ErrorKind::Truncated,
        ErrorKind::Overlong,
        ErrorKind::Surrogate,
        ErrorKind::OutOfRange,
    ];

    /// The code carried in `m_axis_tuser[3:1]`.
    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn from_code(code: u8) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|k| k.code() == code)
    }

    /// `m_axis_tuser` of the U+FFFD of this kind: bit 0 set (an error),
    /// the code in bits 3:1. A character's `tuser` is 0. This and
    /// [`ErrorKind::from_tuser`] are the one definition of the encoding.
    pub fn tuser(self) -> u8 {
        self.code() << 1 | 1
    }

    /// The error kind that a unit's `tuser` names, or `None` for a
    /// character; a value that is neither is `Err(tuser)`.
    pub fn from_tuser(tuser: u8) -> Result<Option<ErrorKind>, u8> {
        match (tuser & 1, tuser >> 1) {
            (0, 0) => Ok(None),
            (1, code) => ErrorKind::from_code(code).map(Some).ok_or(tuser),
            _ => Err(tuser),
        }
    }

    /// The name the CLI prints.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::InvalidByte => "invalid_byte",
            ErrorKind::UnexpectedContinuation => "unexpected_continuation",
            ErrorKind::Truncated => "truncated",
            ErrorKind::Overlong => "overlong",
            ErrorKind::Surrogate => "surrogate",
            ErrorKind::OutOfRange => "out_of_range",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// U+FFFD REPLACEMENT CHARACTER, the word sent for every malformed unit.
pub const REPLACEMENT: u32 = 0xFFFD;
