//! What a run found: its [`Summary`], and the first [`Failure`] if any.

use std::fmt;
use std::time::Duration;

use utf8hdl_hdl::ErrorKind;

use crate::core::{Core, Lane, Unit};

/// What went wrong first, on a core whose model's units are `U`.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure<U: Unit> {
    /// An output lane differs from the model's unit: `expected` is `None`
    /// when the message has no more units (its `tlast` was due), `actual`
    /// when the design stopped sending.
    Word {
        expected: Option<U>,
        actual: Option<U::Output>,
    },
    /// `m_axis_tlast` came where the message had not ended, or never came.
    Tlast(String),
    /// An AXI4-Stream rule or a datasheet invariant was broken.
    Protocol(String),
}

/// The first failure, and its cycle.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch<U: Unit> {
    pub cycle: u64,
    pub failure: Failure<U>,
    /// What the core's inputs are called ([`Lane::NAME`]), for offsets.
    pub inputs: &'static str,
}

impl<U: Unit> fmt::Display for Mismatch<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (expected, actual) = match &self.failure {
            Failure::Protocol(rule) => {
                return write!(f, "the RTL broke a rule at cycle {}: {rule}", self.cycle)
            }
            Failure::Tlast(what) => {
                return write!(
                    f,
                    "RTL and reference differ at cycle {}: {what}",
                    self.cycle
                )
            }
            Failure::Word { expected, actual } => (expected, actual),
        };
        write!(f, "RTL and reference differ at cycle {}", self.cycle)?;
        match expected {
            Some(u) => write!(
                f,
                ", {} offset {}: expected {}",
                self.inputs,
                u.span().start,
                u.describe()
            )?,
            None => write!(f, ": expected no more words in the message (m_axis_tlast)")?,
        }
        match actual {
            Some(w) => write!(f, ", got {w}"),
            None => write!(f, ", got no word"),
        }
    }
}

/// A summary's name for a count of `name`s: `bytes`, `code_units`.
pub fn plural_key(name: &str) -> String {
    format!("{}s", name.replace(' ', "_"))
}

/// What a run measured, on a core whose model's units are `U`.
#[derive(Clone, Debug)]
pub struct Summary<U: Unit> {
    /// Inputs accepted (bytes, for a decoder; null lanes not counted).
    pub inputs: u64,
    /// Units delivered (a decoder's words).
    pub units: u64,
    /// Errors by kind code (index 0 is unused).
    pub errors_by_code: [u64; 7],
    /// What an input is called ([`Lane::NAME`] of the core's input).
    pub input_name: &'static str,
    /// The kinds of error the core reports ([`Core::ERROR_KINDS`]).
    pub error_kinds: &'static [ErrorKind],
    /// Cycles from the first (where the first beat is offered) up to and
    /// including the one that delivers the last beat, or the one where the
    /// design fails.
    pub cycles: u64,
    /// All cycles simulated, including reset and the quiet cycles after.
    pub simulated_cycles: u64,
    pub elapsed: Duration,
    pub mismatch: Option<Mismatch<U>>,
}

impl<U: Unit> Summary<U> {
    /// Nothing yet, for `C`.
    pub fn of<C: Core>() -> Self {
        Summary {
            inputs: 0,
            units: 0,
            errors_by_code: [0; 7],
            input_name: C::Input::NAME,
            error_kinds: C::ERROR_KINDS,
            cycles: 0,
            simulated_cycles: 0,
            elapsed: Duration::ZERO,
            mismatch: None,
        }
    }
}

impl<U: Unit> Summary<U> {
    pub fn errors(&self) -> u64 {
        self.errors_by_code.iter().sum()
    }
    pub fn agree(&self) -> bool {
        self.mismatch.is_none()
    }
    pub fn inputs_per_cycle(&self) -> f64 {
        self.inputs as f64 / self.cycles.max(1) as f64
    }
    pub fn cycles_per_second(&self) -> f64 {
        self.simulated_cycles as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
    /// The `--stats json` object.
    pub fn to_json(&self) -> serde_json::Value {
        let inputs = plural_key(self.input_name);
        let mut json = serde_json::json!({
            "errors": self.errors(),
            "errors_by_kind": self.error_kinds.iter()
                .map(|k| (k.name().to_string(), self.errors_by_code[k.code() as usize].into()))
                .collect::<serde_json::Map<_, _>>(),
            "cycles": self.cycles,
            "cycles_per_second": self.cycles_per_second(),
            "agree": self.agree(),
        });
        json[format!("{inputs}_per_cycle")] = self.inputs_per_cycle().into();
        json[&inputs] = self.inputs.into();
        json[plural_key(U::NAME)] = self.units.into();
        json
    }
}
