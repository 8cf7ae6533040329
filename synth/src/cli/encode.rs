//! `utf8hdl encode`: UCS-4 or UTF-16 to UTF-8 in the RTL. UTF-16 goes
//! through a chain, the UTF-16 decoder, before the UTF-8 encoder.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, ValueEnum};
use utf8hdl_hdl::Profile;
use utf8hdl_sim::checker::{Stalls, Stimulus};
use utf8hdl_sim::core::Core;
use utf8hdl_sim::cores::utf16_decoder;
use utf8hdl_sim::cores::utf8_encoder::Encoder;
use utf8hdl_sim::input::Input;
use utf8hdl_sim::output::{check_destinations, commit_all, OutputFile};

use super::args::{profile_parser, EngineChoice, StatsFormat, MAX_VCD_PERIOD_NS};
use super::chain::{self, LaneBits, Stage};
use super::engine::{resolve, run_on};
use super::progress::Progress;
use super::report::{note, report_stage};
use super::waveform::Waveform;

/// What `encode` reads: UCS-4 words or UTF-16 code units, in either byte
/// order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Encoding {
    /// UCS-4 (UTF-32) words, most significant byte first.
    Ucs4be,
    /// UCS-4 words, least significant byte first.
    Ucs4le,
    /// UTF-16 code units, most significant byte first.
    Utf16be,
    /// UTF-16 code units, least significant byte first.
    Utf16le,
}

impl Encoding {
    /// Bytes a word or code unit.
    fn unit_bytes(self) -> usize {
        match self {
            Encoding::Ucs4be | Encoding::Ucs4le => 4,
            Encoding::Utf16be | Encoding::Utf16le => 2,
        }
    }

    /// The unit that `bytes`, [`Encoding::unit_bytes`] of them, hold.
    fn unit(self, bytes: &[u8]) -> u32 {
        match (self, bytes) {
            (Encoding::Ucs4be, &[a, b, c, d]) => u32::from_be_bytes([a, b, c, d]),
            (Encoding::Ucs4le, &[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
            (Encoding::Utf16be, &[a, b]) => u32::from(u16::from_be_bytes([a, b])),
            (Encoding::Utf16le, &[a, b]) => u32::from(u16::from_le_bytes([a, b])),
            _ => unreachable!("the input is cut into units of unit_bytes"),
        }
    }

    /// The cores that make UCS-4 words of its units, before the UTF-8
    /// encoder.
    fn to_words(self) -> &'static [&'static dyn Stage] {
        match self {
            Encoding::Ucs4be | Encoding::Ucs4le => &[],
            Encoding::Utf16be | Encoding::Utf16le => &[&utf16_decoder::Decoder],
        }
    }
}

#[derive(Args)]
pub struct EncodeArgs {
    /// A file, or - for standard input [default: -].
    input: Option<PathBuf>,
    /// What the input is.
    #[arg(long, value_enum)]
    from: Encoding,
    /// Which UTF-8 the encoder writes: rfc3629 (1–4 octets) or iso10646
    /// (1–6 octets).
    #[arg(long, default_value = "rfc3629", value_parser = profile_parser())]
    profile: Profile,
    /// Where the UTF-8 goes: a path, or - for standard output.
    #[arg(long, short = 'o', default_value = "-")]
    output: PathBuf,
    /// Print the encoder's summary as one JSON object on the last line of
    /// stderr.
    #[arg(long, value_enum)]
    stats: Option<StatsFormat>,
    /// Write a VCD waveform of the UTF-8 encoder's run to PATH.
    #[arg(long, value_name = "PATH")]
    vcd: Option<PathBuf>,
    /// The clock period in the VCD, in ns (4 to 1000000).
    #[arg(long, value_name = "NS", default_value_t = 10, requires = "vcd",
          value_parser = clap::value_parser!(u64).range(4..=MAX_VCD_PERIOD_NS))]
    vcd_period: u64,
    /// The simulator of every core in the chain: rust-hdl's, a Verilator
    /// model of the exported Verilog, or auto (as for `sim`).
    #[arg(long, value_enum, default_value = "auto")]
    engine: EngineChoice,
}

/// `utf8hdl encode`: UCS-4 through `Utf8Encoder`, or UTF-16 through
/// `Utf16Decoder` and then `Utf8Encoder`, each run checked against its
/// reference. The input is read whole first, so that a trailing partial
/// unit is refused before any output is written (standard output cannot
/// be taken back).
pub fn run(args: &EncodeArgs) -> Result<ExitCode> {
    let input = Input::from_arg(Some(args.input.as_deref().unwrap_or(Path::new("-"))));
    let mut outputs = vec![("--output", args.output.as_path())];
    outputs.extend(args.vcd.as_deref().map(|p| ("--vcd", p)));
    check_destinations(&input, &outputs)?;
    let bytes = input.read_all()?;
    let width = args.from.unit_bytes();
    anyhow::ensure!(
        bytes.len() % width == 0,
        "{} ends in a partial {}-byte unit: {} bytes is not a whole number of them ({} left over)",
        input.describe(),
        width,
        bytes.len(),
        bytes.len() % width
    );
    let units = bytes.chunks_exact(width);
    // One engine for the whole chain, chosen on its input (every core of
    // it has one lane).
    let engine = resolve(args.engine, 1, Some(units.len() as u64));
    let units = units.map(|unit| LaneBits::of(args.from.unit(unit)));
    let full_rate = Stimulus::stalls(Stalls::Never, Stalls::Never, 1);
    let mut words = Vec::with_capacity(bytes.len() / width);
    let chained = chain::through(
        args.from.to_words(),
        engine,
        units.collect(),
        &full_rate,
        |lane, _| {
            words.push(lane.into_lane());
            Ok(())
        },
    )?;
    if !chained.agree() {
        return Ok(ExitCode::from(1));
    }
    let mut output = OutputFile::create(Some(&args.output))?;
    let encoder = Encoder(args.profile);
    let mut waveform = (args.vcd.as_deref())
        .map(|p| Waveform::to_file(p, 0..u64::MAX, args.vcd_period, &encoder))
        .transpose()?;
    let probes = waveform.as_ref().map_or(0..0, Waveform::window);
    let mut progress = Progress::bytes(Some(bytes.len() as u64));
    let summary = run_on(
        encoder,
        engine,
        words.into_iter(),
        &full_rate,
        |unit| {
            progress.set((unit.span.end * width) as u64);
            Ok(output.write_all(&unit.code_units)?)
        },
        probes,
        &mut |cycle, values| {
            if let (Some(w), Some(values)) = (waveform.as_mut(), values) {
                w.record(cycle, values);
            }
        },
    );
    progress.finish();
    let summary = summary?;
    report_stage(&encoder.name(), &summary);
    if let Some(StatsFormat::Json) = args.stats {
        note(summary.to_json());
    }
    let waveform = waveform.map(Waveform::into_file).transpose()?;
    if !summary.agree() {
        // The waveform shows where the encoder went wrong.
        commit_all(waveform)?;
        return Ok(ExitCode::from(1));
    }
    commit_all([output].into_iter().chain(waveform))?;
    Ok(ExitCode::SUCCESS)
}
