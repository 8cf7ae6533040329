//! The datasheet is what the committed records render, every record
//! measured the design as it is now, and a stale record or a hand-edited
//! datasheet is caught by name.

use std::fs;
use std::path::{Path, PathBuf};

use utf8hdl_synth::datasheet::{
    load_bench_records, load_proof_records, load_records, render, sheets, stale_proof_records,
    stale_records, DATASHEET, RECORDS_DIR,
};
use utf8hdl_synth::verilog::{all_cores, verilog_file};
use utf8hdl_synth::Device;

use crate::common::*;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `docs/datasheet.md` is exactly what `utf8hdl datasheet` renders from
/// `docs/results/`: nobody edited it by hand, and nobody forgot to render
/// it after recording.
#[test]
fn the_datasheet_is_what_the_records_render() {
    let records = load_records(&root().join(RECORDS_DIR)).unwrap();
    let benches = load_bench_records(&root().join(RECORDS_DIR)).unwrap();
    let proofs = load_proof_records(&root().join(RECORDS_DIR)).unwrap();
    let committed = fs::read_to_string(root().join(DATASHEET)).unwrap();
    assert!(
        render(&sheets().unwrap(), &records, &benches, &proofs).unwrap() == committed,
        "{DATASHEET} is not what the records render: run `utf8hdl datasheet` from the \
         repository's root"
    );
}

/// Every record's netlist is what the export writes now: a design change
/// cannot leave old figures in the datasheet.
#[test]
fn every_record_measured_the_design_as_it_is() {
    let records = load_records(&root().join(RECORDS_DIR)).unwrap();
    let mut stale = stale_records(&records).unwrap();
    let proofs = load_proof_records(&root().join(RECORDS_DIR)).unwrap();
    stale.extend(stale_proof_records(&proofs).unwrap());
    assert!(stale.is_empty(), "stale records:\n{}", stale.join("\n"));
}

/// The devices each core is published on have a record: every 1-lane core
/// on the HX8K, the UP5K, the ECP5-25K and both Gowin parts; the wide decoder's x8 and x16 on
/// the ECP5-25K (10 GbE at 8 and 16 bytes per clock) and x32 on the
/// ECP5-85K.
#[test]
fn every_published_core_has_its_records() {
    let records = load_records(&root().join(RECORDS_DIR)).unwrap();
    let has =
        |top: &str, device: Device| records.iter().any(|r| r.top == top && r.device == device);
    let mut missing = Vec::new();
    for top in [
        "utf8_decoder",
        "utf8_decoder_iso10646",
        "utf8_encoder",
        "utf8_encoder_iso10646",
        "utf16_encoder",
        "utf16_decoder",
        "char_properties",
    ] {
        for device in [
            Device::Hx8k,
            Device::Up5k,
            Device::Ecp5_25k,
            Device::Gw1nr9,
            Device::Gw2ar18,
        ] {
            if !has(top, device) {
                missing.push(format!("{top} on {}", device.name()));
            }
        }
    }
    for (top, device) in [
        ("utf8_decoder_x8", Device::Ecp5_25k),
        ("utf8_decoder_iso10646_x8", Device::Ecp5_25k),
        ("utf8_decoder_x16", Device::Ecp5_25k),
        ("utf8_decoder_iso10646_x16", Device::Ecp5_25k),
        ("utf8_decoder_x32", Device::Ecp5_85k),
    ] {
        if !has(top, device) {
            missing.push(format!("{top} on {}", device.name()));
        }
    }
    assert!(missing.is_empty(), "no record of: {}", missing.join(", "));
}

/// Every core whose formal plan runs in CI (every 1-lane core, and the
/// wide decoder and the validator at 2 and 4 lanes) has a proof record,
/// and its checks are the core's plan, in order, each passed: the
/// datasheet's proof times are those of the proofs `utf8hdl formal` runs
/// now.
#[test]
fn every_proven_core_has_a_proof_record_of_its_plan() {
    let proofs = load_proof_records(&root().join(RECORDS_DIR)).unwrap();
    let mut missing = Vec::new();
    for (kind, profile, lanes) in all_cores().filter(|&(_, _, lanes)| lanes <= 4) {
        let (file, _) = verilog_file(kind, profile, lanes).unwrap();
        let top = file.trim_end_matches(".v");
        let Some(record) = proofs.iter().find(|r| r.top == top) else {
            missing.push(top.to_string());
            continue;
        };
        let plan: Vec<&str> = kind
            .formal(lanes)
            .checks
            .iter()
            .map(|c| c.property)
            .collect();
        let recorded: Vec<&str> = record.checks.iter().map(|c| c.property.as_str()).collect();
        assert_eq!(recorded, plan, "{top}'s record is not of its plan");
        for check in &record.checks {
            assert!(
                check.outcome == "proven"
                    || check.outcome.starts_with("passed BMC")
                    || check.outcome.starts_with("all "),
                "{top}: {} {}",
                check.property,
                check.outcome
            );
        }
    }
    assert!(
        missing.is_empty(),
        "no proof record of: {}",
        missing.join(", ")
    );
}

/// A proof record whose hash is not the export's is named, with the
/// command that proves the core again.
#[test]
fn a_stale_proof_record_is_named_with_the_command_that_proves_it() {
    let dir = copy_of_the_records();
    let record = dir
        .path()
        .join(RECORDS_DIR)
        .join("formal.utf8_decoder.json");
    with_a_stale_hash(&record);
    let proofs = load_proof_records(&dir.path().join(RECORDS_DIR)).unwrap();
    let stale = stale_proof_records(&proofs).unwrap();
    assert_eq!(stale.len(), 1, "{stale:?}");
    assert!(
        stale[0].starts_with("docs/results/formal.utf8_decoder.json: the design changed")
            && stale[0].contains("utf8hdl formal --core decoder --profile rfc3629 --lanes 1"),
        "{}",
        stale[0]
    );
}

/// A copy of the repository's records and datasheet in a temporary
/// directory, laid out as the repository's root.
fn copy_of_the_records() -> tempfile::TempDir {
    let dir = temp_dir();
    fs::create_dir_all(dir.path().join(RECORDS_DIR)).unwrap();
    for entry in fs::read_dir(root().join(RECORDS_DIR)).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(
            &path,
            dir.path().join(RECORDS_DIR).join(path.file_name().unwrap()),
        )
        .unwrap();
    }
    fs::copy(root().join(DATASHEET), dir.path().join(DATASHEET)).unwrap();
    fs::copy(root().join("README.md"), dir.path().join("README.md")).unwrap();
    dir
}

/// `utf8hdl datasheet ARGS` run in `dir`, as from the repository's root.
fn datasheet_in(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
        .arg("datasheet")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// `record` with one hex digit of its netlist's hash flipped: the record
/// of a design that has changed since it was measured.
fn with_a_stale_hash(record: &Path) {
    let text = fs::read_to_string(record).unwrap();
    let field = "\"netlist_sha256\": \"";
    let at = text.find(field).expect("a record has its netlist's hash") + field.len();
    let flipped = match &text[at..at + 1] {
        "0" => "1",
        _ => "0",
    };
    fs::write(
        record,
        format!("{}{flipped}{}", &text[..at], &text[at + 1..]),
    )
    .unwrap();
}

/// A figure of the datasheet and a latency of the README's table, edited
/// by hand: the file, and what was put in the place of what.
const HAND_EDITS: [(&str, &str, &str); 2] =
    [(DATASHEET, "**", "**1"), ("README.md", "| 6 |", "| 5 |")];

/// A record whose netlist hash is not the export's (the design changed
/// after it was measured) is named, with the command that measures it
/// again.
#[test]
fn a_stale_record_is_named_with_the_command_that_measures_it() {
    let dir = copy_of_the_records();
    let record = dir.path().join(RECORDS_DIR).join("utf8_decoder.hx8k.json");
    with_a_stale_hash(&record);
    let records = load_records(&dir.path().join(RECORDS_DIR)).unwrap();
    let stale = stale_records(&records).unwrap();
    assert_eq!(stale.len(), 1, "{stale:?}");
    assert!(
        stale[0].starts_with("docs/results/utf8_decoder.hx8k.json: the design changed")
            && stale[0].contains(
                "utf8hdl synth --core decoder --profile rfc3629 --lanes 1 --device hx8k \
                 --seeds 31 --record"
            ),
        "{}",
        stale[0]
    );
}

/// `utf8hdl datasheet --check` exits 1 on a stale record, a datasheet
/// edited by hand and a README whose table was: one line for each, naming
/// it. (Each check exports every core, so the fast tier plants all three
/// at once; the slow tier plants them one by one, and checks the copy as
/// it was first.)
#[test]
fn the_check_names_a_stale_record_and_each_hand_edited_file() {
    let dir = copy_of_the_records();
    with_a_stale_hash(&dir.path().join(RECORDS_DIR).join("utf8_decoder.hx8k.json"));
    for (file, from, to) in HAND_EDITS {
        let path = dir.path().join(file);
        let committed = fs::read_to_string(&path).unwrap();
        fs::write(&path, committed.replacen(from, to, 1)).unwrap();
    }
    let out = datasheet_in(dir.path(), &["--check"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    assert!(
        lines[0].contains("utf8_decoder.hx8k.json: the design changed"),
        "{stderr}"
    );
    for ((file, _, _), line) in HAND_EDITS.iter().zip(&lines[1..]) {
        assert!(
            line.contains(&format!("{file} is not what the records")),
            "{stderr}"
        );
    }
}

/// The check passes on the copy as it was, so it is the planted change
/// that it catches; then each change, alone, is named alone.
#[test]
#[ignore = "slow: four checks, each exporting every core"]
fn the_check_passes_a_clean_copy_and_names_each_change_alone() {
    let dir = copy_of_the_records();
    let check = |dir: &Path| datasheet_in(dir, &["--check"]);
    let clean = check(dir.path());
    assert_eq!(clean.status.code(), Some(0), "{clean:?}");

    let record = dir.path().join(RECORDS_DIR).join("utf8_decoder.hx8k.json");
    let text = fs::read_to_string(&record).unwrap();
    with_a_stale_hash(&record);
    let out = check(dir.path());
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("utf8_decoder.hx8k.json") && stderr.lines().count() == 1,
        "{stderr}"
    );
    fs::write(&record, &text).unwrap();

    for (file, from, to) in HAND_EDITS {
        let path = dir.path().join(file);
        let committed = fs::read_to_string(&path).unwrap();
        fs::write(&path, committed.replacen(from, to, 1)).unwrap();
        let out = check(dir.path());
        assert_eq!(out.status.code(), Some(1), "{file}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("{file} is not what the records"))
                && stderr.lines().count() == 1,
            "{stderr}"
        );
        fs::write(&path, committed).unwrap();
    }
}

/// Rendering writes the datasheet from the records; a record under the
/// wrong name is refused with one line.
#[test]
fn rendering_writes_the_datasheet_and_refuses_a_misnamed_record() {
    let dir = copy_of_the_records();
    fs::remove_file(dir.path().join(DATASHEET)).unwrap();
    let out = datasheet_in(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        fs::read_to_string(dir.path().join(DATASHEET)).unwrap(),
        fs::read_to_string(root().join(DATASHEET)).unwrap()
    );
    let records = dir.path().join(RECORDS_DIR);
    fs::rename(
        records.join("utf8_decoder.hx8k.json"),
        records.join("utf8_decoder.up5k-copy.json"),
    )
    .unwrap();
    let out = datasheet_in(dir.path(), &[]);
    let line = usage_failure(out);
    assert!(
        line.contains("holds the record of utf8_decoder.hx8k.json"),
        "{line}"
    );
}

/// Figures in prose that are not measurements, each with why: a line rate
/// worked out, a board's clock, a simulation's or a constraint's clock, a
/// target. Any other MHz, LUT4, GB/s or cycles/s figure must be one the
/// datasheet gives.
const NOT_MEASURED: &[(&str, &str)] = &[
    ("156.25", "10 GbE at 8 bytes per clock: 1.25 GB/s / 8"),
    ("12", "the iCEBreaker's oscillator"),
    ("27", "the Tang Nano 9K's oscillator"),
    ("25", "the ULX3S's oscillator"),
    ("100", "the primer's simulated clock"),
    ("250", "nextpnr's clock constraint in the flow"),
    ("200", "the HX8K target the design notes measure against"),
    (
        "20",
        "a design note's measured difference, with its command",
    ),
    (
        "48.76",
        "icetime's report format, quoted in a parser's comment",
    ),
];

/// Every `<number> <unit>` in `text` for the units of a measured figure,
/// the number without thousands separators; blocks that a test generates
/// (`<!-- measured by` … `<!-- end of measured -->`) are left out.
fn figures(text: &str) -> Vec<String> {
    let mut text = text.to_string();
    while let Some(start) = text.find("<!-- measured by") {
        let end = text[start..]
            .find("<!-- end of measured -->")
            .map_or(text.len(), |e| start + e);
        text.replace_range(start..end, "");
    }
    let mut found = Vec::new();
    for unit in ["MHz", "LUT4", "GB/s", "cycles/s"] {
        for (at, _) in text.match_indices(unit) {
            let before = text[..at].trim_end_matches([' ', '*', '~', 'M']);
            let digits: String = before
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let number = digits.trim_matches(['.', ',']).replace(',', "");
            if number.chars().any(|c| c.is_ascii_digit()) {
                found.push(number);
            }
        }
    }
    found
}

/// No MHz, LUT4, GB/s or cycles/s figure in the README, the changelog, the
/// guide or the sources' comments is one the datasheet does not give: the
/// figures are written once, in the records.
#[test]
fn no_figure_outside_the_datasheet_disagrees_with_it() {
    let sheet = fs::read_to_string(root().join(DATASHEET)).unwrap();
    let mut files: Vec<PathBuf> = vec![root().join("README.md"), root().join("CHANGELOG.md")];
    for entry in fs::read_dir(root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") && !path.ends_with("datasheet.md") {
            files.push(path);
        }
    }
    for crate_dir in ["hdl/src", "sim/src", "synth/src"] {
        for entry in walkdir::WalkDir::new(root().join(crate_dir)) {
            let path = entry.unwrap().into_path();
            // The datasheet's generator speaks of units, not figures.
            if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("datasheet.rs") {
                files.push(path);
            }
        }
    }
    let mut strays = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        for number in figures(&text) {
            let known = NOT_MEASURED.iter().any(|(n, _)| *n == number);
            if !known && !sheet.contains(&number) {
                strays.push(format!("{}: {number}", file.display()));
            }
        }
    }
    assert!(
        strays.is_empty(),
        "figures the datasheet does not give (link to docs/datasheet.md instead):\n{}",
        strays.join("\n")
    );
    // The scan finds what it looks for.
    assert_eq!(
        figures("at **188.2 MHz** with 3,360 LUT4, 1.51 GB/s and 0.47M cycles/s"),
        ["188.2", "3360", "1.51", "0.47"]
    );
}

/// The README's core table is what `utf8hdl datasheet` writes from the
/// cores' descriptions, and the README stays a page for users: at most 250
/// lines, with the core table, the two commands and the datasheet link on
/// its first screen.
#[test]
fn the_readme_is_short_and_its_core_table_is_generated() {
    use utf8hdl_synth::datasheet::{core_table, with_core_table};
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        with_core_table(&readme, &core_table(&sheets().unwrap())).unwrap() == readme,
        "the README's core table is not what the cores' descriptions give: run \
         `utf8hdl datasheet` from the repository's root"
    );
    let lines = readme.lines().count();
    assert!(lines <= 250, "the README has {lines} lines");
    let first_screen: String = readme.lines().take(50).collect::<Vec<_>>().join("\n");
    for expected in [
        "| `utf8_decoder` |",
        "cargo run --release ",
        "cargo test --release --workspace",
        "(docs/datasheet.md)",
    ] {
        assert!(
            first_screen.contains(expected),
            "not on the first screen: {expected}"
        );
    }
}
