//! The Verilog the repository ships in `synth/rtl/` (for users without
//! Rust: FuseSoC, cocotb, their own flows) is what `utf8hdl verilog` writes
//! now, core for core and byte for byte, and nothing else is there.

use std::collections::BTreeSet;
use std::path::Path;

use utf8hdl_sim::family::Kind;
use utf8hdl_synth::verilog::{all_cores, verilog_file, REGENERATE, RTL_DIR};

#[test]
fn the_committed_verilog_is_what_the_export_writes_now() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(RTL_DIR);
    let mut stale = Vec::new();
    let mut expected = BTreeSet::new();
    for (kind, profile, lanes) in all_cores() {
        let (name, text) = verilog_file(kind, profile, lanes).expect("the export works");
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
                .filter(|name| name.ends_with(".v"))
                .collect()
        })
        .unwrap_or_default();
    for extra in present.difference(&expected) {
        stale.push(format!(
            "{RTL_DIR}/{extra}: not a core the export writes (delete it)"
        ));
    }
    assert!(
        stale.is_empty(),
        "the committed Verilog is stale; from the repository's root run\n    {REGENERATE}\n\
         and commit {RTL_DIR}/:\n{}",
        stale.join("\n")
    );
    assert_eq!(
        expected.len(),
        17,
        "2 profiles x (6 decoder lane counts + the UTF-8 encoder) + the 2 UTF-16 cores + properties"
    );
}

/// FuseSoC reaches every decoder: `utf8hdl.core` lists each decoder's file
/// in `synth/rtl/` (and names its module as a toplevel), and the Verilog
/// bench instantiates each module. (The encoders and the UTF-16 decoder
/// have no FuseSoC core yet.)
#[test]
fn the_fusesoc_core_and_bench_name_every_core() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let core = std::fs::read_to_string(root.join("utf8hdl.core")).unwrap();
    let bench = std::fs::read_to_string(root.join("testbench/fusesoc/utf8hdl_tb.v")).unwrap();
    let mut missing = Vec::new();
    let decoders = all_cores().filter(|(kind, _, _)| *kind == Kind::Decoder);
    for (_, profile, lanes) in decoders {
        let module = utf8hdl_sim::decoder::module_name(profile, lanes);
        if !core.contains(&format!("({RTL_DIR}/{module}.v)"))
            || !core.contains(&format!("({module})"))
        {
            missing.push(format!("utf8hdl.core: {module}"));
        }
        if !bench.contains(&format!(" {module} dut(")) {
            missing.push(format!("testbench/fusesoc/utf8hdl_tb.v: {module}"));
        }
    }
    assert!(
        missing.is_empty(),
        "cores not reached:\n{}",
        missing.join("\n")
    );
}
