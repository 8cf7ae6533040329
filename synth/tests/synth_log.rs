//! `utf8hdl synth --dir D` keeps yosys's whole log, as the README says,
//! while the terminal shows only the report.

use crate::common::{entries, path_str, temp_dir, utf8hdl};
use utf8hdl_synth::{tools, Device};

#[test]
#[ignore = "slow: yosys and nextpnr for HX8K"]
fn synth_dir_keeps_the_whole_yosys_log() {
    if !tools::require_all(&Device::Hx8k.tools()) {
        return;
    }
    let dir = temp_dir();
    let kept = dir.path().join("work");
    let args = ["synth", "--device", "hx8k", "--seeds", "1", "--dir"];
    let out = utf8hdl(&[&args[..], &[path_str(&kept)]].concat(), b"");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let log = std::fs::read_to_string(kept.join("yosys.log")).unwrap();
    // `synth_ice40` ends with `stat`: once for the core, once for the bench.
    assert!(
        log.matches("Number of cells:").count() >= 2 && log.contains("SB_LUT4"),
        "yosys.log has no cell statistics ({} bytes): {log:.2000}",
        log.len()
    );
    for said in [&stdout, &stderr] {
        assert!(
            !said.contains("Number of cells:") && !said.contains("Executing"),
            "yosys's log reached the terminal: {said}"
        );
    }
    // The tools' private TMPDIRs are gone from the kept directory.
    let files = entries(&kept);
    assert!(
        files.iter().all(|name| !name.starts_with(".tmp")),
        "{files:?}"
    );
}
