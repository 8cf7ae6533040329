//! The arguments several subcommands share: the parsers of `--lanes`,
//! `--profile`, `--core` and `--format` (whose values `--help` lists with
//! their descriptions), the stall and window parsers, the stream that
//! `reference` and `sim` read and write ([`StreamArgs`]), and `--engine`.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};
use utf8hdl_hdl::Profile;
use utf8hdl_sim::cores::Kind;
use utf8hdl_sim::input::Input;
use utf8hdl_sim::output::{check_destinations, Format};

/// The highest stall probability: at 0.99 a run already takes about 100
/// cycles a byte, and nearer 1 it would never end.
const MAX_STALL: f64 = 0.99;
/// The longest clock period in a VCD, in ns (1 kHz), so that the time of
/// every cycle fits the VCD's 64-bit timestamps.
pub const MAX_VCD_PERIOD_NS: u64 = 1_000_000;
/// The lane counts `--lanes` takes: bytes per clock.
const LANE_COUNTS: [&str; 6] = ["1", "2", "4", "8", "16", "32"];

/// `--core`, `--profile`, `--lanes`: one core of the family, for the
/// subcommands that build it (`verilog`, `synth`, `formal`).
#[derive(Args, Clone, Copy)]
pub struct CoreChoice {
    /// Which core of the family.
    #[arg(id = "core", long = "core", default_value = "decoder", value_parser = kind_parser())]
    pub kind: Kind,
    /// Which UTF-8 the core reads or writes.
    #[arg(long, default_value = "rfc3629", value_parser = profile_parser())]
    pub profile: Profile,
    /// Items per clock of the core (bytes, for the decoder).
    #[arg(long, default_value = "1", value_parser = lanes_parser())]
    pub lanes: usize,
}

/// What every decoding subcommand reads and writes.
#[derive(Args)]
pub struct StreamArgs {
    /// A file, or - for standard input [default: the embedded sample].
    pub input: Option<PathBuf>,
    /// Which UTF-8: rfc3629 (1–4 octets) or iso10646 (1–6 octets).
    #[arg(long, default_value = "rfc3629", value_parser = profile_parser())]
    pub profile: Profile,
    /// How units are written.
    #[arg(long, default_value = "lines", value_parser = format_parser())]
    pub format: Format,
    /// Where units go: a path, or - for standard output.
    #[arg(long, short = 'o', default_value = "-")]
    pub output: PathBuf,
    /// With --format lines, follow each line with the character's
    /// properties (control, private_use, noncharacter, non_bmp); `sim` finds
    /// them with the properties core in the RTL.
    #[arg(long)]
    pub properties: bool,
}

impl StreamArgs {
    /// Refuses `--properties` with a format other than `lines`.
    pub fn check(&self) -> Result<()> {
        anyhow::ensure!(
            !self.properties || self.format == Format::Lines,
            "--properties needs --format lines"
        );
        Ok(())
    }

    /// The input, once no destination (`--output`, then `others`) would
    /// overwrite it or another.
    pub fn input(&self, others: &[(&str, &Path)]) -> Result<Input> {
        let input = Input::from_arg(self.input.as_deref());
        let mut outputs = vec![("--output", self.output.as_path())];
        outputs.extend_from_slice(others);
        check_destinations(&input, &outputs)?;
        Ok(input)
    }

    /// `input` as the format reads it: the table shows each unit's bytes,
    /// so it reads the input before decoding it.
    pub fn for_format(&self, input: Input) -> Result<Input> {
        match self.format {
            Format::Table => input.loaded(),
            _ => Ok(input),
        }
    }
}

/// `--stats`: how a run's summary is printed besides its lines.
#[derive(Copy, Clone, ValueEnum)]
pub enum StatsFormat {
    Json,
}

/// `--engine`: which simulator runs the cores.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineChoice {
    /// Verilator when it is installed and the core is wide (2 lanes or
    /// more) or the input large; rust-hdl otherwise.
    Auto,
    /// rust-hdl's simulation of the design as written.
    RustHdl,
    /// A Verilator model of the exported Verilog.
    Verilator,
}

/// Its name, as `--engine` takes it and the benchmark reports it.
impl fmt::Display for EngineChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (self.to_possible_value()).map_or(Ok(()), |value| f.write_str(value.get_name()))
    }
}

/// `--lanes`: one of [`LANE_COUNTS`].
pub fn lanes_parser() -> impl TypedValueParser<Value = usize> {
    PossibleValuesParser::new(LANE_COUNTS).map(|chosen| {
        chosen
            .parse()
            .expect("clap accepts only the possible values")
    })
}

/// A parser for one of a library type's named values, which clap lists in
/// `--help` and in its error for an unknown value.
fn one_of<T: Copy + Send + Sync + 'static>(
    all: &'static [T],
    name: fn(T) -> &'static str,
    help: fn(T) -> &'static str,
) -> impl TypedValueParser<Value = T> {
    let names = all
        .iter()
        .map(move |&v| PossibleValue::new(name(v)).help(help(v)));
    PossibleValuesParser::new(names).map(move |chosen| {
        *all.iter()
            .find(|&&v| name(v) == chosen)
            .expect("clap accepts only the possible values")
    })
}

/// The formats, with their descriptions, as clap's possible values.
pub fn format_parser() -> impl TypedValueParser<Value = Format> {
    one_of(&Format::ALL, Format::name, Format::description)
}

/// `--core`: the kinds of the family, each with what it does.
pub fn kind_parser() -> impl TypedValueParser<Value = Kind> {
    one_of(&Kind::ALL, Kind::name, Kind::summary)
}

/// `--profile`: the profiles, each with its range.
pub fn profile_parser() -> impl TypedValueParser<Value = Profile> {
    one_of(&Profile::ALL, Profile::name, |profile| match profile {
        Profile::Rfc3629 => "RFC 3629: 1-4 octets, up to U+10FFFF, no surrogates",
        Profile::Iso10646 => "ISO/IEC 10646-1 Annex R: 1-6 octets, up to 7FFF FFFF, no surrogates",
    })
}

/// A stall or null-lane probability, from 0 to [`MAX_STALL`].
pub fn parse_probability(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(p) if (0.0..=MAX_STALL).contains(&p) => Ok(p),
        _ => Err(format!("'{s}' is not a probability from 0 to {MAX_STALL}")),
    }
}

/// `FROM..TO`, two cycle numbers with FROM < TO; each error says which
/// part is wrong.
pub fn parse_window(s: &str) -> Result<Range<u64>, String> {
    let (from, to) = s.split_once("..").ok_or(format!(
        "'{s}' is not FROM..TO (two cycle numbers, as 100..200)"
    ))?;
    let cycle = |part: &str, name: &str| {
        part.parse::<u64>().map_err(|e| match e.kind() {
            std::num::IntErrorKind::PosOverflow => {
                format!(
                    "{name} '{part}' in '{s}' is beyond the last cycle ({})",
                    u64::MAX
                )
            }
            std::num::IntErrorKind::Empty => format!("'{s}' has no {name}"),
            _ => format!("{name} '{part}' in '{s}' is not a cycle number (0, 1, 2, ...)"),
        })
    };
    let (from, to) = (cycle(from, "FROM")?, cycle(to, "TO")?);
    match from < to {
        true => Ok(from..to),
        false => Err(format!(
            "'{s}' is an empty window: FROM must be less than TO (TO is exclusive)"
        )),
    }
}
