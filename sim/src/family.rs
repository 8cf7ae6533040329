//! # The family: every kind of core, by name
//!
//! The command line and the export name a core by its kind ([`Kind`]),
//! profile and lanes; [`with_any_core!`](crate::with_any_core) binds the
//! one core they name, for code that works on any [`Core`](crate::core::Core).

use std::fmt;
use std::str::FromStr;

use crate::core::Model;
use crate::decoder::LANE_COUNTS;

/// A kind of core of the family.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// UTF-8 → UCS-4 ([`crate::decoder`]).
    Decoder,
    /// UCS-4 → UTF-8 ([`crate::encoder`]).
    Encoder,
}

impl Kind {
    pub const ALL: [Kind; 2] = [Kind::Decoder, Kind::Encoder];

    /// Its name on the command line (`--core decoder`): its model's
    /// [`Model::KIND`], the one place the name is written.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Decoder => <crate::decoder::Reference as Model>::KIND,
            Kind::Encoder => <crate::encoder::Reference as Model>::KIND,
        }
    }

    /// The lane counts it comes in.
    pub fn lane_counts(self) -> &'static [usize] {
        match self {
            Kind::Decoder => &LANE_COUNTS,
            Kind::Encoder => &[1],
        }
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
            .ok_or_else(|| format!("no core '{s}' (cores: decoder, encoder)"))
    }
}

/// Runs `$body` with `$core` bound to the core of kind `$kind`, `$lanes`
/// lanes and `$profile`; `$body` must work on any core. A lane count the
/// kind does not come in makes the enclosing function (which returns an
/// `anyhow::Result`) return an error.
#[macro_export]
macro_rules! with_any_core {
    ($kind:expr, $lanes:expr, $profile:expr, |$core:ident| $body:expr) => {
        match $kind {
            $crate::family::Kind::Decoder => $crate::with_core!($lanes, $profile, |$core| $body),
            $crate::family::Kind::Encoder => match $lanes {
                1 => {
                    let $core = $crate::encoder::Encoder($profile);
                    $body
                }
                n => {
                    return Err(anyhow::anyhow!(
                        "no {n}-lane encoder: the encoder has 1 lane"
                    ))
                }
            },
        }
    };
}
