//! The external tools (yosys, nextpnr, iverilog, verilator, ...) and the one
//! policy for tests that need them.

use std::path::PathBuf;

/// Where `name` is on `PATH`, if it is.
pub fn find(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

#[cfg(not(unix))]
fn is_executable(path: &std::path::Path) -> bool {
    path.is_file()
}

/// Whether a test that needs the tool `name` should run.
///
/// Returns `true` when the tool is on `PATH`. When it is not, the test is
/// skipped with a message on stderr and this returns `false` — unless the
/// environment variable `UTF8HDL_REQUIRE_TOOLS=1` is set (as in CI), in which
/// case a missing tool is a failure and this panics.
pub fn require(name: &str) -> bool {
    find(name).is_some() || missing(&format!("{name} is not on PATH"))
}

/// [`require`]'s policy for a tool found some other way: `what` names it
/// ("pyosys's yosys-abc"), `present` says whether it was found.
pub fn require_that(what: &str, present: bool) -> bool {
    present || missing(&format!("{what} is not installed"))
}

fn missing(reason: &str) -> bool {
    if std::env::var("UTF8HDL_REQUIRE_TOOLS").as_deref() == Ok("1") {
        panic!("{reason}, and UTF8HDL_REQUIRE_TOOLS=1 requires it");
    }
    eprintln!("SKIPPED: {reason} (set UTF8HDL_REQUIRE_TOOLS=1 to make this a failure)");
    false
}

/// [`require`] for several tools; every missing one is reported.
pub fn require_all(names: &[&str]) -> bool {
    // Not `all`: it would stop at the first missing tool and hide the rest.
    names.iter().filter(|name| !require(name)).count() == 0
}

/// Runs `program` with `args` in `dir`, saving its stdout and stderr to
/// `dir/log`. Fails with the log's last lines when the program fails.
pub fn run<S: AsRef<std::ffi::OsStr>>(
    dir: &std::path::Path,
    program: &str,
    args: &[S],
    log: &str,
) -> anyhow::Result<String> {
    use anyhow::Context;
    let out = std::process::Command::new(program)
        .current_dir(dir)
        .args(args)
        .output()
        .with_context(|| format!("running {program}"))?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    std::fs::write(dir.join(log), &text)?;
    if !out.status.success() {
        let tail: Vec<&str> = text.lines().rev().take(30).collect();
        anyhow::bail!(
            "{program} failed ({}); log in {}:\n{}",
            out.status,
            dir.join(log).display(),
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        );
    }
    Ok(text)
}
