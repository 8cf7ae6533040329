//! What the program tells its user besides its output: notes and run
//! summaries on standard error, a command's report on standard output,
//! and an error as one line with its exit status.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;
use utf8hdl_sim::checker::Summary;
use utf8hdl_sim::core::Unit;
use utf8hdl_sim::report::{acts_on_terminal, summary_lines};

/// A line on stderr. Nothing is left to tell if stderr cannot be written.
pub fn note(line: impl std::fmt::Display) {
    let _ = writeln!(io::stderr(), "{line}");
}

/// The summary of a run, line by line on stderr.
pub fn note_summary<U: Unit>(summary: &Summary<U>) {
    for line in summary_lines(summary) {
        note(line);
    }
}

/// The summary of one core's run in a chain, each line after its name.
pub fn report_stage<U: Unit>(core: &str, summary: &Summary<U>) {
    for line in summary_lines(summary) {
        note(format_args!("{core}: {line}"));
    }
}

/// Standard output, for a command's report, once it is known to be
/// writable: a closed one fails before the run, not silently after it.
pub fn report_stdout() -> Result<io::StdoutLock<'static>> {
    utf8hdl_sim::output::check_stdout()?;
    Ok(io::stdout().lock())
}

/// Usage and I/O errors are one line on stderr and exit status 2.
pub fn fail(message: &str) -> ExitCode {
    note(format_args!("utf8hdl: {}", visible(message)));
    ExitCode::from(2)
}

/// `message` with every character a terminal would act on escaped, so that
/// it stays one line that only says something (a path may hold anything).
pub fn visible(message: &str) -> String {
    message
        .chars()
        .map(|c| match acts_on_terminal(c) {
            true => c.escape_default().to_string(),
            false => c.to_string(),
        })
        .collect()
}

/// An error and its causes on one line, each cause said once: a context
/// that already ends with its cause's text (an I/O error wrapped with the
/// path it concerns) is not followed by that text again.
pub fn one_line(error: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if line.ends_with(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

/// clap's error without its usage and tips: the first paragraph, joined
/// into one line (it keeps the list of possible values), and the help to
/// read: `subcommand`'s, when the error is in one (clap's error does not
/// always say which).
pub fn usage_error(error: &clap::Error, subcommand: Option<&str>) -> String {
    let text = error.to_string();
    let paragraph: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty())
        .collect();
    let help = match subcommand {
        Some(name) => format!("utf8hdl {name} --help"),
        None => "utf8hdl --help".into(),
    };
    format!(
        "{} (see {help})",
        paragraph.join(" ").trim_start_matches("error: ")
    )
}

/// Whether the error comes of a closed pipe on an output.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// tempfile's persist error displays as its I/O error and has that
    /// error as its source too: `{:#}` alone would say the cause twice.
    #[test]
    fn a_cause_that_repeats_its_context_is_said_once() {
        let dir = tempfile::tempdir().unwrap();
        let persist = tempfile::NamedTempFile::new_in(dir.path())
            .unwrap()
            .persist(dir.path())
            .unwrap_err();
        let (shown, cause) = (persist.to_string(), persist.error.to_string());
        assert!(shown.ends_with(&cause), "{shown}");
        let error = anyhow::Error::new(persist).context("cannot write 'd'");
        assert_eq!(format!("{error:#}").matches(&cause).count(), 2);
        assert_eq!(one_line(&error), format!("cannot write 'd': {shown}"));
    }
}
