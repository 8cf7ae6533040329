//! # The registry: every kind of core, each in one module
//!
//! Each kind of core is one module here, named for its Verilog module, that
//! holds everything that is only about it: its [`Core`]s (block, lanes,
//! latency, waveform state), its reference model, and its [`Description`]
//! (its command-line name and help, the lane counts and profiles it comes
//! in, what its ports carry, its formal plan, its figures in the guide).
//! [`Kind::ALL`] registers the kinds: the command line, the exporter, the
//! formal runner, FuseSoC, the datasheet, the figures and the tests iterate
//! it, and the one `match` on a kind is [`Kind::description`] (with
//! [`with_any_core!`](crate::with_any_core), which binds a kind's core
//! type).
//!
//! A new core is its block (`hdl/src/`), its module here (its figures are
//! optional) with one line in [`Kind`], [`Kind::ALL`] and
//! [`Kind::description`], its reference (`sim/reference/src/`), and its
//! formal plan ([`formal`]) with its property file (`hdl/formal/`).
//! Without the module or its line the workspace does not compile; the
//! test `every_registered_kind_has_all_its_parts` fails when a registered
//! kind has no block, module, reference or property file where its name
//! says, and `every_registered_kind_has_a_formal_plan` when a core has no
//! plan, no checks, or a property file that does not state them.

use std::fmt;
use std::str::FromStr;

#[cfg(test)]
use crate::core::Core;
use crate::figures::Figure;
use crate::reference::Profile;
use formal::Formal;

pub mod char_properties;
pub mod formal;
pub mod utf16_decoder;
pub mod utf16_encoder;
pub mod utf8_decoder;
pub mod utf8_encoder;
pub mod utf8_validator;

/// A kind of core of the family.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// UTF-8 → UCS-4 ([`utf8_decoder`]).
    Decoder,
    /// UCS-4 → UTF-8 ([`utf8_encoder`]).
    Encoder,
    /// UCS-4 → UTF-16 ([`utf16_encoder`]).
    Utf16Encoder,
    /// UTF-16 → UCS-4 ([`utf16_decoder`]).
    Utf16Decoder,
    /// UCS-4 words with their character properties ([`char_properties`]).
    Properties,
    /// UTF-8 bytes passed on with their errors marked ([`utf8_validator`]).
    Validator,
}

/// What the registry holds of a kind of core, beside its [`Core`]s: the
/// facts every harness, the command line and the datasheet read.
#[derive(Debug)]
pub struct Description {
    /// Its name on the command line (`--core decoder`).
    pub name: &'static str,
    /// What it does, for `--help`: `UTF-8 -> UCS-4, 1 to 32 bytes per clock`.
    pub summary: &'static str,
    /// What such a core is, for a datasheet or a file header:
    /// `UTF-8 -> UCS-4 decoder`.
    pub title: &'static str,
    /// How its lanes and `tuser` read, for a datasheet or a file header:
    /// lines of text.
    pub port_notes: fn(lanes: usize) -> &'static str,
    /// The lane counts it comes in.
    pub lane_counts: &'static [usize],
    /// The profiles it comes in.
    pub profiles: &'static [Profile],
    /// Its reference model's source file, from the repository's root: the
    /// specification it is written from, clause by clause.
    pub reference: &'static str,
    /// Its waveform figures in the guide (`utf8hdl wave`).
    pub figures: &'static [Figure],
    /// The formal plan of its core of `lanes` lanes: its properties and
    /// how each is checked (`utf8hdl formal`).
    pub formal: fn(lanes: usize) -> &'static Formal,
    /// Whether the board demos (`utf8hdl synth --board`) are built around
    /// its 1-lane core; `--board` refuses the other kinds.
    pub on_boards: bool,
    /// When its latency ([`Core::LATENCY`](crate::core::Core::LATENCY)) is
    /// the figure, beside `m_axis_tready` high, for the datasheet: empty
    /// for a core whose every beat takes it.
    pub latency_holds: &'static str,
}

impl Kind {
    /// Every kind, in the order the command line and the datasheet list
    /// them.
    pub const ALL: [Kind; 6] = [
        Kind::Decoder,
        Kind::Encoder,
        Kind::Utf16Encoder,
        Kind::Utf16Decoder,
        Kind::Properties,
        Kind::Validator,
    ];

    /// Its description, from its module.
    pub fn description(self) -> &'static Description {
        match self {
            Kind::Decoder => &utf8_decoder::DESCRIPTION,
            Kind::Encoder => &utf8_encoder::DESCRIPTION,
            Kind::Utf16Encoder => &utf16_encoder::DESCRIPTION,
            Kind::Utf16Decoder => &utf16_decoder::DESCRIPTION,
            Kind::Properties => &char_properties::DESCRIPTION,
            Kind::Validator => &utf8_validator::DESCRIPTION,
        }
    }

    /// Its name on the command line (`--core decoder`).
    pub fn name(self) -> &'static str {
        self.description().name
    }

    /// What it does, for `--help`.
    pub fn summary(self) -> &'static str {
        self.description().summary
    }

    /// The lane counts it comes in.
    pub fn lane_counts(self) -> &'static [usize] {
        self.description().lane_counts
    }

    /// The profiles it comes in.
    pub fn profiles(self) -> &'static [Profile] {
        self.description().profiles
    }

    /// The formal plan of its core of `lanes` lanes.
    pub fn formal(self, lanes: usize) -> &'static Formal {
        (self.description().formal)(lanes)
    }

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

    /// The name its cores' modules share: its 1-lane core's, or its
    /// narrowest core's without the lanes (`utf8_validator` of
    /// `utf8_validator_x2`). Its block, description, property file and the
    /// FuseSoC bench's vectors are named for it.
    pub fn stem(self, profile: Profile) -> anyhow::Result<String> {
        let lanes = self.lane_counts()[0];
        let name =
            crate::with_any_core!(self, lanes, profile, |core| crate::core::Core::name(&core));
        Ok(name
            .strip_suffix(&format!("_x{lanes}"))
            .unwrap_or(&name)
            .to_string())
    }

    /// Every core of the kind: each profile and lane count it comes in.
    pub fn variants(self) -> impl Iterator<Item = (Profile, usize)> {
        self.profiles().iter().flat_map(move |&profile| {
            self.lane_counts()
                .iter()
                .map(move |&lanes| (profile, lanes))
        })
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

/// Runs `$body` with `$core` bound to the core that `$lanes` picks among
/// the arms `count => core`; any other count makes the enclosing function
/// (which returns an `anyhow::Result`) return an error that names the
/// counts there are. Each kind of many lane counts says its arms once
/// ([`with_core!`](crate::with_core), [`with_validator!`](crate::with_validator)).
#[macro_export]
macro_rules! with_lane_count {
    ($lanes:expr, $what:literal, |$core:ident| $body:expr; $($count:literal => $make:expr),+ $(,)?) => {
        match $lanes {
            $($count => {
                let $core = $make;
                $body
            })+
            n => {
                return Err(anyhow::anyhow!(
                    "no {n}-lane {}: it comes in {} lanes",
                    $what,
                    [$(stringify!($count)),+].join(", ")
                ))
            }
        }
    };
}

/// Runs `$body` with `$core` bound to the core of kind `$kind`, `$lanes`
/// lanes and `$profile`; `$body` must work on any core. A lane count or a
/// profile the kind does not come in makes the enclosing function (which
/// returns an `anyhow::Result`) return an error.
#[macro_export]
macro_rules! with_any_core {
    ($kind:expr, $lanes:expr, $profile:expr, |$core:ident| $body:expr) => {{
        let (kind, lanes, profile): ($crate::cores::Kind, usize, $crate::reference::Profile) =
            ($kind, $lanes, $profile);
        if let Err(why) = kind.check(lanes, profile) {
            return Err(anyhow::anyhow!(why));
        }
        match kind {
            $crate::cores::Kind::Decoder => $crate::with_core!(lanes, profile, |$core| $body),
            $crate::cores::Kind::Encoder => {
                let $core = $crate::cores::utf8_encoder::Encoder(profile);
                $body
            }
            $crate::cores::Kind::Utf16Encoder => {
                let $core = $crate::cores::utf16_encoder::Encoder;
                $body
            }
            $crate::cores::Kind::Utf16Decoder => {
                let $core = $crate::cores::utf16_decoder::Decoder;
                $body
            }
            $crate::cores::Kind::Properties => {
                let $core = $crate::cores::char_properties::Properties;
                $body
            }
            $crate::cores::Kind::Validator => {
                $crate::with_validator!(lanes, profile, |$core| $body)
            }
        }
    }};
}

/// The widths of a core's `tdata` and `tuser` ports, by name, in port
/// order: what its lanes carry, as its tests state it.
#[cfg(test)]
pub(crate) fn data_widths<C: Core>(core: &C) -> Vec<(&'static str, usize)> {
    crate::core::ports(&core.block())
        .unwrap()
        .into_iter()
        .filter(|p| p.name.ends_with("tdata") || p.name.ends_with("tuser"))
        .map(|p| (&*p.name.clone().leak(), p.width))
        .collect()
}

/// An N-lane core's ports: `count` lanes with `tkeep`, the module name
/// `name`, and every probe of its waveform found.
#[cfg(test)]
pub(crate) fn assert_lane_ports<C: Core>(core: C, count: usize, name: &str) {
    let lanes = core.lanes().unwrap();
    assert_eq!(lanes, crate::core::Lanes { count, tkeep: true }, "{name}");
    assert_eq!(core.name(), name);
    crate::core::probes(&core).unwrap();
}

/// A 1-lane core's ports: one lane each way, no `tkeep`, every probe of
/// its waveform found, and `widths` the widths of its `tdata` and `tuser`
/// ports ([`data_widths`]).
#[cfg(test)]
pub(crate) fn assert_one_lane_ports<C: Core>(core: &C, widths: &[(&str, usize)]) {
    let one = crate::core::Lanes {
        count: 1,
        tkeep: false,
    };
    assert_eq!(core.lanes().unwrap(), one);
    crate::core::probes(core).unwrap();
    assert_eq!(data_widths(core), widths);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind's core, for every variant the registry lists, is the
    /// kind's: its [`Core::KIND`] names it back, so a core cannot be
    /// registered under another kind's entry.
    #[test]
    fn every_variant_is_a_core_of_its_kind() {
        fn kind_of<C: Core>(_: &C) -> Kind {
            C::KIND
        }
        fn check(kind: Kind, profile: Profile, lanes: usize) -> anyhow::Result<()> {
            with_any_core!(kind, lanes, profile, |core| {
                assert_eq!(kind_of(&core), kind, "{kind} {profile} x{lanes}");
                assert_eq!(core.profile(), profile);
                Ok(())
            })
        }
        for kind in Kind::ALL {
            for (profile, lanes) in kind.variants() {
                check(kind, profile, lanes).unwrap();
            }
        }
    }

    /// A registered kind has every part a core is made of, where its name
    /// says: its block (`hdl/src/<module>.rs` or `hdl/src/<module>/`), its
    /// module here, its reference, and its property file
    /// (`hdl/formal/<module>_properties.v`), `<module>` being its
    /// [`Kind::stem`].
    #[test]
    fn every_registered_kind_has_all_its_parts() {
        fn module_of(kind: Kind) -> anyhow::Result<String> {
            kind.stem(Profile::Rfc3629)
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for kind in Kind::ALL {
            let module = module_of(kind).unwrap();
            let block = [
                format!("hdl/src/{module}.rs"),
                format!("hdl/src/{module}/mod.rs"),
            ];
            assert!(
                block.iter().any(|path| root.join(path).is_file()),
                "{kind}: no block {block:?}"
            );
            for part in [
                format!("sim/src/cores/{module}.rs"),
                kind.description().reference.to_string(),
                format!("hdl/formal/{module}_properties.v"),
            ] {
                assert!(root.join(&part).is_file(), "{kind}: no {part}");
            }
        }
    }

    /// Every core of every kind has a formal plan: a property file whose
    /// module is named after it and that instantiates the core, checks
    /// (each with its own task), and for each check the defines that select
    /// its properties, each one tested by the property file or by what the
    /// file includes.
    #[test]
    fn every_registered_kind_has_a_formal_plan() {
        for kind in Kind::ALL {
            for &lanes in kind.lane_counts() {
                let plan = kind.formal(lanes);
                let sources: String = plan.sources().map(|s| s.text).collect();
                let core = format!("the {lanes}-lane {kind} core");
                let properties = plan.properties.text;
                let top = plan.top();
                assert!(
                    properties.contains(&format!("module {top} ")),
                    "{core}: {} has no module {top}",
                    plan.properties.name
                );
                let harness = |name| properties.contains(&format!("`include \"{name}\""));
                assert!(
                    harness("faxis_core_harness.vh") || harness("faxis_lanes_harness.vh"),
                    "{core}: {} includes no harness, so no instance of the core",
                    plan.properties.name
                );
                assert!(!plan.checks.is_empty(), "{core} has no formal checks");
                for (i, check) in plan.checks.iter().enumerate() {
                    let what = format!("{core}: {}", check.property);
                    let task = check.task;
                    assert!(
                        plan.checks[..i].iter().all(|c| c.task != task),
                        "{what}: a second check of the task {task}"
                    );
                    assert!(!check.defines.is_empty(), "{what} selects no property");
                    for define in check.defines {
                        let tested = format!("`ifdef {define}\n");
                        assert!(
                            sources.contains(&tested),
                            "{what}: no property file tests {define}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn names_parse_back_and_unknown_names_list_the_cores() {
        for kind in Kind::ALL {
            assert_eq!(kind.name().parse::<Kind>(), Ok(kind));
        }
        let err = "decodr".parse::<Kind>().unwrap_err();
        assert!(err.contains("decoder, encoder"), "{err}");
    }
}
