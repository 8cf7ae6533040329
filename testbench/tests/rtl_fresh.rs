//! The Verilog and FuseSoC core files the repository ships in `synth/rtl/`
//! (for users without Rust: FuseSoC, cocotb, their own flows) are what
//! `utf8hdl verilog --all` writes now, file for file and byte for byte, and
//! nothing else is there.

use std::collections::BTreeSet;
use std::path::Path;

use utf8hdl_synth::fusesoc::{module_name, rtl_files, vectors_name};
use utf8hdl_synth::verilog::{all_cores, REGENERATE, RTL_DIR};

#[test]
fn the_committed_rtl_files_are_what_the_export_writes_now() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(RTL_DIR);
    let mut stale = Vec::new();
    let mut expected = BTreeSet::new();
    let files = all_cores().flat_map(|(kind, profile, lanes)| {
        rtl_files(kind, profile, lanes).expect("the export works")
    });
    for (name, text) in files {
        match std::fs::read_to_string(dir.join(&name)) {
            Ok(committed) if committed == text => {}
            Ok(committed) => {
                let line = committed
                    .lines()
                    .zip(text.lines())
                    .position(|(a, b)| a != b)
                    .map_or(committed.lines().count().min(text.lines().count()), |i| i)
                    + 1;
                stale.push(format!("{RTL_DIR}/{name}: differs from line {line}"));
            }
            Err(e) => stale.push(format!("{RTL_DIR}/{name}: {e}")),
        }
        expected.insert(name);
    }
    let present: BTreeSet<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|name| name.ends_with(".v") || name.ends_with(".core"))
                .collect()
        })
        .unwrap_or_default();
    for extra in present.difference(&expected) {
        stale.push(format!(
            "{RTL_DIR}/{extra}: not a file the export writes (delete it)"
        ));
    }
    assert!(
        stale.is_empty(),
        "the committed files are stale; from the repository's root run\n    {REGENERATE}\n\
         and commit {RTL_DIR}/:\n{}",
        stale.join("\n")
    );
    assert_eq!(
        expected.len(),
        2 * 29,
        "a .v and a .core for each of 2 profiles x (6 decoder lane counts + the UTF-8 encoder + \
         6 validator lane counts) + the 2 UTF-16 cores + properties"
    );
}

/// The FuseSoC bench can run every core: the vectors its core file names
/// (those of the core's 1-lane module) exist, and the bench's core file
/// carries them.
#[test]
fn the_fusesoc_bench_has_every_core_s_vectors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let bench = root.join("testbench/fusesoc");
    let bench_core = std::fs::read_to_string(bench.join("utf8hdl_tb.core")).unwrap();
    let mut missing = BTreeSet::new();
    for (kind, profile, lanes) in all_cores() {
        let name = module_name(kind, profile, lanes).unwrap();
        let vectors = vectors_name(kind, profile).unwrap();
        for file in [format!("{vectors}.in.hex"), format!("{vectors}.out.hex")] {
            if !bench.join(&file).is_file() || !bench_core.contains(&format!("- {file}:")) {
                missing.insert(format!("{name}: testbench/fusesoc/{file}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "vectors missing (run python3 testbench/cocotb/vectors.py):\n{}",
        missing.into_iter().collect::<Vec<_>>().join("\n")
    );
}
