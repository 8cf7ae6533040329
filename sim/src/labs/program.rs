//! The program of a crate of lab blocks (`labs` for the starting files,
//! `lab-solutions` for the solutions): `list`, or `check ID [--vcd FILE]
//! [--svg FILE]`, which runs the lab's block compiled into the program and
//! gives a verdict that names the block's file, and says when the file is
//! no longer the text the program was built from (stale). On a failure it
//! shows the input around the place where the run went wrong and can
//! write the waveform of the cycles around it. A signal stops it as it
//! stops `utf8hdl` ([`crate::interrupt`]): no waveform file is left
//! half written.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use super::{report, source_on_disk, workspace, LabBlock, Source, LABS, PERIOD};
use crate::figures::View;
use crate::output::{check_stdout, commit_all, OutputFile};
use crate::report::summary_lines;
use crate::wave_svg;

/// Cycles of the waveform before the mismatch's cycle (the run stops at
/// it, so it is the last).
const BEFORE: u64 = 15;

/// The program's name and the package cargo builds it from, for its
/// messages: `labs`, `utf8hdl-labs`.
pub struct Program {
    pub name: &'static str,
    pub package: &'static str,
}

/// What `check` was asked.
struct Check {
    id: String,
    vcd: Option<PathBuf>,
    svg: Option<PathBuf>,
}

impl Program {
    fn usage(&self) -> String {
        format!(
            "usage: {} list | check LAB [--vcd FILE] [--svg FILE]",
            self.name
        )
    }

    /// Parses the arguments after the program's name.
    fn parse(&self, args: &[String]) -> Result<Option<Check>> {
        match args.first().map(String::as_str) {
            Some("list") if args.len() == 1 => return Ok(None),
            Some("check") => {}
            _ => bail!("{}", self.usage()),
        }
        let mut check = Check {
            id: String::new(),
            vcd: None,
            svg: None,
        };
        let mut rest = args[1..].iter();
        while let Some(arg) = rest.next() {
            let slot = match arg.as_str() {
                "--vcd" => &mut check.vcd,
                "--svg" => &mut check.svg,
                id if check.id.is_empty() && !id.starts_with('-') => {
                    check.id = id.to_string();
                    continue;
                }
                _ => bail!("unexpected '{arg}': {}", self.usage()),
            };
            let Some(path) = rest.next() else {
                bail!("{arg} needs a FILE: {}", self.usage());
            };
            *slot = Some(PathBuf::from(path));
        }
        if check.id.is_empty() {
            bail!("which lab? {}", self.usage());
        }
        if check.vcd.is_some() && check.vcd == check.svg {
            bail!("--vcd and --svg name the same file");
        }
        Ok(Some(check))
    }

    /// Runs the program on its arguments with `blocks`: exit status 0 when
    /// the block passes, 1 when it differs from the reference, 2 for a
    /// usage error or a stale verdict.
    pub fn main(&self, blocks: &[LabBlock]) -> ExitCode {
        let args: Vec<String> = std::env::args().skip(1).collect();
        // It starts no other program: nothing to stop but itself.
        let started = crate::interrupt::handle_signals(self.name, || {});
        match started
            .map_err(anyhow::Error::from)
            .and_then(|()| self.run(blocks, &args))
        {
            Ok(code) => code,
            Err(e) => {
                let _ = writeln!(std::io::stderr(), "{}: {e:#}", self.name);
                ExitCode::from(2)
            }
        }
    }

    fn run(&self, blocks: &[LabBlock], args: &[String]) -> Result<ExitCode> {
        let Some(check) = self.parse(args)? else {
            check_stdout()?;
            let mut out = std::io::stdout().lock();
            let width = LABS.iter().map(|lab| lab.title.len()).max().unwrap_or(0);
            for block in blocks {
                let lab = block.lab;
                writeln!(out, "{:>2}  {:width$}  {}", lab.id, lab.title, block.file())?;
            }
            return Ok(ExitCode::SUCCESS);
        };
        let lab = super::find(&check.id)?;
        let block = blocks
            .iter()
            .find(|block| block.lab.id == lab.id)
            .context("the lab has no block in this program")?;
        let outputs = [&check.vcd, &check.svg].map(|path| {
            path.as_deref()
                .map(|path| OutputFile::create(Some(path)))
                .transpose()
        });
        let [vcd, svg] = outputs;
        let (vcd, svg) = (vcd?, svg?);
        let (file, source) = source_on_disk(block, &workspace(block.crate_dir));
        let file = file.display().to_string();

        let messages = (lab.input)();
        let run = (block.run)(&messages, &lab.stimulus, 0..0);
        let mut lines = summary_lines(&run.summary);
        let mut waveform = None;
        if let Some(mismatch) = &run.summary.mismatch {
            let at = report::offset(mismatch, run.agreed_to);
            lines.extend(report::around(&messages, mismatch, at));
            if vcd.is_some() || svg.is_some() {
                let window = mismatch.cycle.saturating_sub(BEFORE)..mismatch.cycle + 1;
                let title = format!(
                    "lab {}, {}: cycles {}..{}, the mismatch at cycle {}",
                    lab.id, lab.title, window.start, window.end, mismatch.cycle
                );
                let recorded = (block.run)(&messages, &lab.stimulus, window.clone());
                waveform = Some((recorded, window, title));
            }
        }
        let mut written = Vec::new();
        if let Some((recorded, window, title)) = &waveform {
            if let Some(mut vcd) = vcd {
                vcd.write_all(&recorded.vcd)?;
                written.push(vcd);
            }
            if let Some(mut svg) = svg {
                let drawn = draw(recorded, window.clone(), title)?;
                svg.write_all(drawn.as_bytes())?;
                written.push(svg);
            }
            lines.push(format!(
                "the waveform of cycles {}..{}: {}",
                window.start,
                window.end,
                [&check.vcd, &check.svg]
                    .into_iter()
                    .flatten()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(" and ")
            ));
        } else if vcd.is_some() || svg.is_some() {
            lines.push("no waveform written: there is no mismatch to show".into());
        }
        commit_all(written)?;

        let passes = run.summary.agree();
        let verdict = match passes {
            true => "passes",
            false => "differs from the reference (the lines above)",
        };
        let label = format!("lab {}, {}", lab.id, lab.title);
        let rebuild = format!(
            "`cargo run --release -p {} -- check {}`",
            self.package, lab.id
        );
        let (verdict, stale) = match source {
            Source::Built => (format!("{label}: {file} {verdict}"), None),
            Source::Changed => (
                format!(
                    "{label}: {file}, as it was when {} was built, {verdict}",
                    self.name
                ),
                Some(format!(
                    "stale: {file} has changed since {} was built; {rebuild} checks it as it is",
                    self.name
                )),
            ),
            Source::Missing(e) => (
                format!(
                    "{label}: {file}, as it was when {} was built, {verdict}",
                    self.name
                ),
                Some(format!(
                    "stale: cannot read {file} ({e}), which {} was built from",
                    self.name
                )),
            ),
        };
        lines.push(verdict);
        let mut err = std::io::stderr().lock();
        for line in &lines {
            writeln!(err, "{line}")?;
        }
        if let Some(stale) = stale {
            writeln!(err, "{}: {stale}", self.name)?;
            return Ok(ExitCode::from(2));
        }
        Ok(match passes {
            true => ExitCode::SUCCESS,
            false => ExitCode::from(1),
        })
    }
}

/// The timing diagram of a recorded run's `window`: the guide's rows of
/// the decoder's ports (a lab's block has no other signals to show).
fn draw(run: &super::Run, window: std::ops::Range<u64>, title: &str) -> Result<String> {
    let port = |path: &str| path.matches('.').count() == 1;
    let rows: Vec<wave_svg::Row> = View::All
        .rows(run.lanes)
        .into_iter()
        .filter(|row| {
            port(row.path) && row.valid.is_none_or(port) && row.moves.enable().is_none_or(port)
        })
        .collect();
    wave_svg::render(
        run.vcd.as_slice(),
        Some(&run.scope),
        &rows,
        PERIOD,
        window,
        title,
    )
}
