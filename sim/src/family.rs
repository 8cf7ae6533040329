//! # The family: every kind of core, by name
//!
//! The command line and the export name a core by its kind ([`Kind`]),
//! profile and lanes; [`with_any_core!`](crate::with_any_core) binds the
//! one core they name, for code that works on any [`Core`](crate::core::Core).

use std::fmt;
use std::str::FromStr;

use crate::core::Model;
use crate::decoder::LANE_COUNTS;
use crate::reference::Profile;

/// A kind of core of the family.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// UTF-8 → UCS-4 ([`crate::decoder`]).
    Decoder,
    /// UCS-4 → UTF-8 ([`crate::encoder`]).
    Encoder,
    /// UCS-4 → UTF-16 ([`crate::utf16`]).
    Utf16Encoder,
    /// UTF-16 → UCS-4 ([`crate::utf16`]).
    Utf16Decoder,
    /// UCS-4 words with their character properties ([`crate::properties`]).
    Properties,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Decoder,
        Kind::Encoder,
        Kind::Utf16Encoder,
        Kind::Utf16Decoder,
        Kind::Properties,
    ];

    /// Its name on the command line (`--core decoder`): its model's
    /// [`Model::KIND`], the one place the name is written.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Decoder => <crate::decoder::Reference as Model>::KIND,
            Kind::Encoder => <crate::encoder::Reference as Model>::KIND,
            Kind::Utf16Encoder => <crate::utf16::EncoderReference as Model>::KIND,
            Kind::Utf16Decoder => <crate::utf16::DecoderReference as Model>::KIND,
            Kind::Properties => <crate::properties::Reference as Model>::KIND,
        }
    }

    /// The lane counts it comes in.
    pub fn lane_counts(self) -> &'static [usize] {
        match self {
            Kind::Decoder => &LANE_COUNTS,
            Kind::Encoder | Kind::Utf16Encoder | Kind::Utf16Decoder | Kind::Properties => &[1],
        }
    }

    /// The profiles it comes in. UTF-16 carries exactly RFC 3629's values,
    /// and Unicode's properties are defined for them, so the UTF-16 cores
    /// and the properties core have that one.
    pub fn profiles(self) -> &'static [Profile] {
        match self {
            Kind::Decoder | Kind::Encoder => &Profile::ALL,
            Kind::Utf16Encoder | Kind::Utf16Decoder | Kind::Properties => &[Profile::Rfc3629],
        }
    }
}

impl Kind {
    /// Whether the kind comes in `lanes` lanes and `profile`; if not, why.
    pub fn check(self, lanes: usize, profile: Profile) -> Result<(), String> {
        if !self.lane_counts().contains(&lanes) {
            let counts: Vec<String> = self.lane_counts().iter().map(|n| n.to_string()).collect();
            let lanes_word = if counts.len() == 1 { "lane" } else { "lanes" };
            return Err(format!(
                "no {lanes}-lane {self} core: it comes in {} {lanes_word}",
                counts.join(", ")
            ));
        }
        if !self.profiles().contains(&profile) {
            return Err(format!(
                "no {profile} {self} core: it has one profile, rfc3629 (U+0000..U+10FFFF)"
            ));
        }
        Ok(())
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kind {
    type Err = String;

    fn from_str(s: &str) -> Result<Kind, String> {
        Kind::ALL
            .into_iter()
            .find(|kind| kind.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Kind::ALL.into_iter().map(Kind::name).collect();
                format!("no core '{s}' (cores: {})", names.join(", "))
            })
    }
}

/// Runs `$body` with `$core` bound to the core of kind `$kind`, `$lanes`
/// lanes and `$profile`; `$body` must work on any core. A lane count or a
/// profile the kind does not come in makes the enclosing function (which
/// returns an `anyhow::Result`) return an error.
#[macro_export]
macro_rules! with_any_core {
    ($kind:expr, $lanes:expr, $profile:expr, |$core:ident| $body:expr) => {{
        let (kind, lanes, profile): ($crate::family::Kind, usize, $crate::reference::Profile) =
            ($kind, $lanes, $profile);
        if let Err(why) = kind.check(lanes, profile) {
            return Err(anyhow::anyhow!(why));
        }
        match kind {
            $crate::family::Kind::Decoder => $crate::with_core!(lanes, profile, |$core| $body),
            $crate::family::Kind::Encoder => {
                let $core = $crate::encoder::Encoder(profile);
                $body
            }
            $crate::family::Kind::Utf16Encoder => {
                let $core = $crate::utf16::Encoder;
                $body
            }
            $crate::family::Kind::Utf16Decoder => {
                let $core = $crate::utf16::Decoder;
                $body
            }
            $crate::family::Kind::Properties => {
                let $core = $crate::properties::Properties;
                $body
            }
        }
    }};
}
