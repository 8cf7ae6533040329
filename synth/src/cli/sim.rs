//! `utf8hdl sim`: the input through the decoder RTL cycle by cycle, every
//! word checked against the reference, with its waveform on request. UTF-16
//! and the properties are the RTL's too: the decoded words go on through a
//! chain of cores ([`after_decoder`]) before they are written.

use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use utf8hdl_sim::checker::{run_checked, Stalls, Stimulus};
use utf8hdl_sim::core::{Core, Unit as _};
use utf8hdl_sim::cores::char_properties::Properties;
use utf8hdl_sim::cores::utf16_encoder;
use utf8hdl_sim::cores::utf8_decoder::Reference;
use utf8hdl_sim::harness::{Engine, Harness};
use utf8hdl_sim::input::{ByteStream, Input};
use utf8hdl_sim::output::{commit_all, Format, UnitWriter};
use utf8hdl_sim::reference::Unit;
use utf8hdl_sim::with_core;

use super::args::{
    lanes_parser, parse_probability, parse_window, EngineChoice, StatsFormat, StreamArgs,
    MAX_VCD_PERIOD_NS,
};
use super::chain::{self, LaneBits, Stage};
use super::engine::{on_engine, OnEngine};
use super::progress::Progress;
use super::report::{note, note_summary};
use super::waveform::{Diagram, Waveform};

/// The cycles `sim --svg` draws unless `--vcd-cycles` says, and the most
/// it draws: a timing diagram is read cycle by cycle.
const SVG_CYCLES: u64 = 64;
const MAX_SVG_CYCLES: u64 = 400;

#[derive(Args)]
#[group(id = "waveform", args = ["vcd", "svg"], multiple = true, required = false)]
pub struct SimArgs {
    #[command(flatten)]
    pub stream: StreamArgs,
    /// Write a VCD waveform to PATH.
    #[arg(long, value_name = "PATH")]
    pub vcd: Option<PathBuf>,
    /// Draw the waveform as an SVG timing diagram to PATH, with the
    /// guide's signals and renderer: the --vcd-cycles window, or the
    /// first 64 cycles (at most 400).
    #[arg(long, value_name = "PATH")]
    pub svg: Option<PathBuf>,
    /// Only record cycles FROM..TO (TO exclusive) in the VCD or SVG.
    #[arg(long, value_name = "FROM..TO", value_parser = parse_window, requires = "waveform",
          allow_hyphen_values = true)]
    pub vcd_cycles: Option<Range<u64>>,
    /// The clock period in the VCD, in ns (4 to 1000000).
    #[arg(long, value_name = "NS", default_value_t = 10, requires = "waveform",
          value_parser = clap::value_parser!(u64).range(4..=MAX_VCD_PERIOD_NS))]
    pub vcd_period: u64,
    /// Probability that a cycle has s_axis_tvalid low while no beat waits
    /// (0 ≤ P ≤ 0.99); an offered beat is held until it is taken.
    #[arg(long, value_name = "P", default_value_t = 0.0, value_parser = parse_probability)]
    pub stall_in: f64,
    /// Probability that a cycle has m_axis_tready low (0 ≤ P ≤ 0.99).
    #[arg(long, value_name = "P", default_value_t = 0.0, value_parser = parse_probability)]
    pub stall_out: f64,
    /// Seed for the stall patterns and the null lanes.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Bytes per clock of the core.
    #[arg(long, default_value = "1", value_parser = lanes_parser())]
    pub lanes: usize,
    /// Probability that a lane of a beat is null, s_axis_tkeep low
    /// (0 ≤ P ≤ 0.99; needs --lanes 2 or more, whose cores have tkeep).
    #[arg(long, value_name = "P", default_value_t = 0.0, value_parser = parse_probability)]
    pub null_lanes: f64,
    /// The simulator: rust-hdl's (the design as written), a Verilator
    /// model of the exported Verilog (built on first use, needs verilator,
    /// g++ and make), or auto: Verilator for a wide core or a large input
    /// when it is installed, rust-hdl otherwise.
    #[arg(long, value_enum, default_value = "auto")]
    pub engine: EngineChoice,
    /// Print the summary as one JSON object on the last line of stderr.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub stats: Option<StatsFormat>,
}

/// How the lanes of a chain's last core are written.
#[derive(Copy, Clone)]
enum Written {
    /// As they are.
    Alone(fn(&mut UnitWriter, LaneBits) -> io::Result<()>),
    /// Beside the decoded unit they come from, which is held for them.
    BesideUnit(fn(&mut UnitWriter, &Unit, LaneBits) -> io::Result<()>),
}

/// The cores the decoded words go through before they are written, for
/// the output `stream` asks for, each with how its lanes are written when
/// it is the last: a line a core.
fn after_decoder(stream: &StreamArgs) -> Vec<(&'static dyn Stage, Written)> {
    let utf16_out = matches!(stream.format, Format::Utf16be | Format::Utf16le);
    let chain: [(bool, &'static dyn Stage, Written); 2] = [
        (
            utf16_out,
            &utf16_encoder::Encoder,
            Written::Alone(|out, lane| out.write_code_units(&[lane.into_lane()])),
        ),
        (
            stream.properties,
            &Properties,
            Written::BesideUnit(|out, unit, lane| {
                out.write_with_properties(unit, lane.tuser as u8)
            }),
        ),
    ];
    let wanted = chain.into_iter().filter(|&(wanted, ..)| wanted);
    wanted.map(|(_, stage, written)| (stage, written)).collect()
}

pub fn run(args: &SimArgs) -> Result<ExitCode> {
    with_core!(args.lanes, args.stream.profile, |core| sim_of(core, args))
}

fn sim_of<C: Core<Input = u8, Model = Reference> + Copy>(
    core: C,
    args: &SimArgs,
) -> Result<ExitCode> {
    args.stream.check()?;
    anyhow::ensure!(
        args.null_lanes == 0.0 || core.lanes()?.tkeep,
        "--null-lanes needs a core with s_axis_tkeep (--lanes 2 or more)"
    );
    // The arguments and the input are checked before an engine is chosen
    // (and a model perhaps built): a usage error is one line, at once.
    let mut others = Vec::new();
    others.extend(args.vcd.as_deref().map(|p| ("--vcd", p)));
    others.extend(args.svg.as_deref().map(|p| ("--svg", p)));
    let input = args.stream.input(&others)?;
    anyhow::ensure!(
        args.svg.is_none() || svg_window(args).end - svg_window(args).start <= MAX_SVG_CYCLES,
        "--svg draws at most {MAX_SVG_CYCLES} cycles; choose them with --vcd-cycles FROM..TO"
    );
    let input = args.stream.for_format(input)?;
    let stream = input.open()?;
    let size = input.len_hint();
    on_engine(
        args.engine,
        core,
        size,
        SimOn {
            args,
            input,
            stream,
        },
    )
}

/// The cycles `sim --svg` draws.
fn svg_window(args: &SimArgs) -> Range<u64> {
    args.vcd_cycles.clone().unwrap_or(0..SVG_CYCLES)
}

/// [`sim_on`], on whichever engine `--engine` chose.
struct SimOn<'a> {
    args: &'a SimArgs,
    input: Input,
    stream: ByteStream,
}

impl<C: Core<Input = u8, Model = Reference>> OnEngine<C> for SimOn<'_> {
    type Output = ExitCode;

    fn run<E: Engine<Core = C>>(
        self,
        engine: EngineChoice,
        new_engine: impl Fn() -> Result<E>,
    ) -> Result<ExitCode> {
        sim_on(Harness::on(new_engine()?), engine, self)
    }
}

/// The run of `sim` on `harness`, whose engine is `engine`: the cores
/// after the decoder run on it too.
fn sim_on<E: Engine<Core: Core<Input = u8, Model = Reference>>>(
    mut harness: Harness<E>,
    engine: EngineChoice,
    SimOn {
        args,
        input,
        mut stream,
    }: SimOn,
) -> Result<ExitCode> {
    let svg_window = svg_window(args);
    let mut writer = UnitWriter::create(Some(&args.stream.output), args.stream.format, &input)?;
    let core = harness.engine.core();
    let mut waveform = args
        .vcd
        .as_deref()
        .map(|p| {
            let window = args.vcd_cycles.clone().unwrap_or(0..u64::MAX);
            Waveform::to_file(p, window, args.vcd_period, core)
        })
        .transpose()?;
    let mut diagram = (args.svg.as_deref())
        .map(|p| Diagram::create(p, svg_window.clone(), args.vcd_period, core))
        .transpose()?;
    // The harness reads the probes only in the cycles a waveform records.
    let windows: Vec<Range<u64>> = waveform
        .iter()
        .map(Waveform::window)
        .chain(diagram.iter().map(|d| d.waveform.window()))
        .collect();
    if let (Some(start), Some(end)) = (
        windows.iter().map(|w| w.start).min(),
        windows.iter().map(|w| w.end).max(),
    ) {
        harness.probe_window = start..end;
    }
    let mut progress = Progress::bytes(input.len_hint());
    let stimulus = Stimulus {
        null_lanes: args.null_lanes,
        ..Stimulus::stalls(
            Stalls::Random(args.stall_in),
            Stalls::Random(args.stall_out),
            args.seed,
        )
    };
    // The decoded units are written as they come, or, when cores follow
    // the decoder, their words are held until the decoder's run is
    // checked (and the units too, when the output shows them).
    let after = after_decoder(&args.stream);
    let written = after.last().map(|&(_, written)| written);
    let keep_units = matches!(written, Some(Written::BesideUnit(_)));
    let (mut words, mut decoded) = (Vec::new(), Vec::new());
    let summary = run_checked(
        harness,
        &mut stream,
        &stimulus,
        |unit| {
            progress.set(unit.span.end as u64);
            if written.is_none() {
                return writer.write(unit);
            }
            // A decoder sends one word a unit: a word's index is its unit's.
            words.extend(unit.outputs().map(LaneBits::of));
            if keep_units {
                decoded.push(unit.clone());
            }
            Ok(())
        },
        &mut |cycle, values| {
            if let Some(values) = values {
                for w in waveform.iter_mut() {
                    w.record(cycle, values);
                }
                for d in diagram.iter_mut() {
                    d.waveform.record(cycle, values);
                }
            }
        },
    );
    progress.finish();
    let summary = summary?;
    stream.finish()?;
    let waveform = waveform.map(Waveform::into_file).transpose()?;
    let diagram = diagram
        .map(|d| {
            let drawn = svg_window.start..svg_window.end.min(summary.simulated_cycles);
            let title = format!(
                "{}: cycles {}..{}",
                args.stream
                    .input
                    .as_deref()
                    .map_or("the sample".into(), Path::to_string_lossy),
                drawn.start,
                drawn.end
            );
            d.draw(drawn, args.vcd_period, &title)
        })
        .transpose()?;
    let waveforms = waveform.into_iter().chain(diagram);
    let mut agree = summary.agree();
    let mut json = summary.to_json();
    if let Some(written) = written.filter(|_| agree) {
        let stages: Vec<&dyn Stage> = after.iter().map(|&(stage, _)| stage).collect();
        let chained = chain::through(
            &stages,
            engine,
            words,
            &stimulus,
            |lane, word| match written {
                Written::Alone(write) => Ok(write(&mut writer, lane)?),
                Written::BesideUnit(write) => {
                    let unit = (decoded.get(word))
                        .with_context(|| format!("no decoded unit {word} for a lane"))?;
                    Ok(write(&mut writer, unit, lane)?)
                }
            },
        )?;
        agree = chained.agree();
        for run in chained.runs {
            json[run.core] = run.json;
        }
        json["agree"] = agree.into();
    }
    if agree {
        commit_all([writer.finish()?].into_iter().chain(waveforms))?;
    } else {
        // The waveforms show the decoder's run: where it went wrong, or,
        // when only a core after it failed, what fed that core.
        commit_all(waveforms)?;
    }
    if let Some(window) = &args.vcd_cycles {
        if window.start >= summary.simulated_cycles {
            note(format_args!(
                "utf8hdl: warning: --vcd-cycles {}..{} starts after the run's last cycle ({}); \
                 the waveform holds no cycles",
                window.start,
                window.end,
                summary.simulated_cycles.saturating_sub(1)
            ));
        }
    }
    note_summary(&summary);
    if let Some(StatsFormat::Json) = args.stats {
        note(json);
    }
    Ok(if agree {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
