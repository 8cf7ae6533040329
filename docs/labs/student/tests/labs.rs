//! The starting files (docs/labs.md): each fails for the reason its lab
//! states (in a student's copy, a solved lab fails this test: its file is
//! no longer the one committed), each block is the text of its own file,
//! the crate does not depend on the solutions, and the `labs` program
//! names the file in its verdict, says when it is stale, and shows a
//! failure: the input around it, and its waveform.

use std::path::Path;
use std::process::Command;

use utf8hdl_labs::BLOCKS;
use utf8hdl_sim::labs::{source_on_disk, LabBlock, Source, LABS, STUDENT};

/// The workspace's root.
fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."))
}

/// The first difference of each starting file, as its lab's doc comment
/// (and docs/labs.md) states it.
#[test]
fn every_starting_file_fails_for_its_stated_reason() {
    let reasons = [
        (
            "1",
            "expected no more words in the message (m_axis_tlast), got tdata=00000041 tuser=0",
        ),
        (
            "2",
            "tdata=000000C2 tuser=0 left before the bytes that decide it were accepted",
        ),
        ("3", "byte offset 0: expected U+0000 ok, got no word"),
        (
            "3a",
            "byte offset 0: expected U+FFFD truncated, got no word",
        ),
        ("3b", "byte offset 0: expected U+0800 ok, got no word"),
        ("4", "byte offset 0: expected U+FFFD overlong, got no word"),
        ("5", "byte offset 0: expected U+0000 ok, got no word"),
        ("6", "byte offset 0: expected U+FFFD overlong, got no word"),
        ("7", "byte offset 0: expected U+FFFD overlong, got no word"),
        ("8", "m_axis_tkeep 10 is not packed"),
    ];
    assert_eq!(reasons.len(), LABS.len(), "a reason for every lab");
    for (block, (id, reason)) in BLOCKS.iter().zip(reasons) {
        assert_eq!(block.lab.id, id);
        let mismatch = block.check().mismatch.expect("the starting file fails");
        assert!(
            mismatch.to_string().contains(reason),
            "lab {id}: {mismatch}"
        );
        let source = block.built_from;
        let file = block.file();
        // The doc comment's words, without its `//!`s.
        let text = source
            .split_whitespace()
            .filter(|word| *word != "//!")
            .collect::<Vec<_>>()
            .join(" ");
        assert!(text.contains(reason), "{file} states the reason: {reason}");
    }
}

/// The guide (docs/labs.md) shows each lab's check of its starting file
/// as it is: the block of text under `$ cargo run --release -- lab check
/// ID` holds the line of its first difference, cycle included.
#[test]
fn the_guide_shows_each_starting_files_first_difference() {
    let guide = std::fs::read_to_string(root().join("docs/labs.md")).unwrap();
    for block in BLOCKS {
        let id = block.lab.id;
        let command = format!("$ cargo run --release -- lab check {id}\n");
        let at = guide
            .find(&command)
            .unwrap_or_else(|| panic!("docs/labs.md runs no `lab check {id}`"));
        let shown = &guide[at..at + guide[at..].find("```").unwrap()];
        let mismatch = block.check().mismatch.unwrap().to_string();
        assert!(
            shown.lines().any(|line| line == mismatch),
            "lab {id}: docs/labs.md does not show `{mismatch}`:\n{shown}"
        );
    }
}

/// Each lab's embedded text is its own file's: a test build has just
/// compiled every file, so they are the same, unless a `built_from` names
/// another lab's file than its `file`.
#[test]
fn each_block_embeds_its_own_file() {
    for block in BLOCKS {
        let (path, source) = source_on_disk(block, root());
        assert_eq!(source, Source::Built, "{}", path.display());
    }
}

/// The crate builds without the solutions: in a copy of the workspace
/// without `docs/labs/solutions` (its other folders linked), cargo
/// resolves the starting files' crate, and nothing it depends on, at any
/// depth, is the solutions' crate.
#[test]
fn the_starting_files_do_not_depend_on_the_solutions() {
    let copy = tempfile::tempdir().unwrap();
    for file in ["Cargo.toml", "Cargo.lock"] {
        std::fs::copy(root().join(file), copy.path().join(file)).unwrap();
    }
    for dir in ["sim", "hdl", "testbench", "synth", STUDENT] {
        let link = copy.path().join(dir);
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(root().join(dir).canonicalize().unwrap(), link).unwrap();
    }
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "--prefix",
            "none",
            "-e",
            "normal,build",
        ])
        .args(["-p", "utf8hdl-labs", "--manifest-path"])
        .arg(copy.path().join("Cargo.toml"))
        .output()
        .unwrap();
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(tree.contains("utf8hdl-sim"), "{tree}");
    assert!(!tree.contains("utf8hdl-lab-solutions"), "{tree}");
}

/// A lab root of its own that holds a copy of `block`'s file.
fn lab_root(block: &LabBlock) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(block.file());
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, block.built_from).unwrap();
    dir
}

/// A copy of the workspace's lab 1 file, edited when `edit`, in a lab root
/// of its own, and `labs check 1 ARGS` run there.
fn check_lab1(edit: bool, args: &[&str]) -> (tempfile::TempDir, std::process::Output) {
    let dir = lab_root(&BLOCKS[0]);
    let file = dir.path().join(BLOCKS[0].file());
    let text = BLOCKS[0].built_from.to_string();
    let text = if edit {
        text + "// the student's edit\n"
    } else {
        text
    };
    std::fs::write(&file, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_labs"))
        .args(["check", "1"])
        .args(args)
        .current_dir(dir.path())
        .output()
        .unwrap();
    (dir, out)
}

/// The verdict names the file; once the file has changed since the
/// program was built, the verdict says it is about the version built, and
/// a line says the file is stale and how to check it as it is (status 2).
#[test]
fn the_verdict_names_the_file_and_says_when_it_is_stale() {
    let file = BLOCKS[0].file();
    let (_dir, out) = check_lab1(false, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let last = stderr.lines().last().unwrap();
    assert_eq!(
        last,
        format!("lab 1, ASCII passthrough: {file} differs from the reference (the lines above)")
    );
    assert!(!stderr.contains("stale"), "{stderr}");

    let (_dir, out) = check_lab1(true, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines[lines.len() - 2],
        format!(
            "lab 1, ASCII passthrough: {file}, as it was when labs was built, differs from the \
             reference (the lines above)"
        )
    );
    assert_eq!(
        lines[lines.len() - 1],
        format!(
            "labs: stale: {file} has changed since labs was built; `cargo run --release -p \
             utf8hdl-labs -- check 1` checks it as it is"
        )
    );
}

/// A failure shows the input around it, the unit expected and the word
/// that came; `--vcd` and `--svg` get the waveform of the cycles around
/// it, the mismatch's the last.
#[test]
fn a_failure_shows_the_input_around_it_and_its_waveform() {
    let (dir, out) = check_lab1(false, &["--vcd", "wave.vcd", "--svg", "wave.svg"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    for line in [
        "the input around byte offset 256, as the reference decodes it",
        "   255..256  00                 U+0000      \u{2400}  (tlast: its message ends)",
        ">  256..257  41                 U+0041      A  (tlast: its message ends)",
        "expected: no word (the message had ended: m_axis_tlast was due on the word before)",
        "got:      tdata=00000041 tuser=0",
        "the waveform of cycles 242..258: ",
    ] {
        assert!(stderr.contains(line), "{line}\n{stderr}");
    }
    let vcd = std::fs::read_to_string(dir.path().join("wave.vcd")).unwrap();
    // Cycle k's rising edge is at 10k ns: the first and last recorded, and
    // the edge that ends the last.
    assert!(
        vcd.contains("\n#2420\n") && vcd.contains("\n#2570\n"),
        "{vcd}"
    );
    assert!(!vcd.contains("\n#2410\n") && !vcd.contains("\n#2590\n"));
    assert!(vcd.contains("m_axis_tlast"), "{vcd}");
    let svg = std::fs::read_to_string(dir.path().join("wave.svg")).unwrap();
    assert!(
        svg.contains("lab 1, ASCII passthrough: cycles 242..258, the mismatch at cycle 257"),
        "{svg}"
    );
    assert!(svg.contains("m_axis_tlast") && svg.contains("</svg>"));
}

/// A waveform that cannot be written is one line and status 2, before any
/// run, and nothing is left behind.
#[test]
fn a_waveform_that_cannot_be_written_is_one_line() {
    let (dir, out) = check_lab1(false, &["--vcd", "no/such/dir/wave.vcd"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("labs: "), "{stderr}");
    assert!(!dir.path().join("no").exists());
}

/// Ctrl-C (SIGINT) while `labs check 3 --vcd FILE` runs leaves neither
/// FILE nor a temporary file beside it, says so in one line, and exits
/// with 130, as `utf8hdl` does. Lab 3's starting file sends no word, so
/// its check runs the lab's whole input twice (the second time for the
/// waveform): the signal is sent as soon as the temporary file appears,
/// and a run that ends first, on a busy machine, is tried again.
#[test]
fn a_signal_leaves_no_waveform_file_behind() {
    let block = BLOCKS.iter().find(|block| block.lab.id == "3").unwrap();
    let mut stopped = 0;
    for _ in 0..10 {
        let root = lab_root(block);
        let out = root.path().join("out");
        std::fs::create_dir(&out).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_labs"))
            .args(["check", "3", "--vcd", "out/wave.vcd"])
            .current_dir(root.path())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let entries = || -> Vec<String> {
            std::fs::read_dir(&out)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        };
        while entries().is_empty() && child.try_wait().unwrap().is_none() {}
        if child.try_wait().unwrap().is_none() {
            let kill = Command::new("kill")
                .args(["-INT", &child.id().to_string()])
                .status()
                .unwrap();
            assert!(kill.success());
        }
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        let left = entries();
        if output.status.code() == Some(1) {
            // Finished before the signal: the waveform, whole.
            assert_eq!(left, ["wave.vcd"], "{stderr}");
            continue;
        }
        assert_eq!(output.status.code(), Some(130), "{stderr}");
        assert!(
            stderr.ends_with("labs: stopped by SIGINT; unfinished output files were removed\n"),
            "{stderr}"
        );
        // The waveform, if the signal came after it was whole, and nothing
        // else.
        assert!(left.iter().all(|name| name == "wave.vcd"), "{left:?}");
        stopped += usize::from(left.is_empty());
    }
    assert!(stopped > 0, "every run ended before its signal");
}
