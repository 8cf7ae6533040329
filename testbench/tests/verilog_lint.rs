//! The exported Verilog: lint-clean in Verilator (`-Wall`, no warning
//! disabled) and Icarus, structurally sound in yosys (no latches, no
//! implicit wires), formally equivalent to rust-hdl's own Verilog, and
//! usable with both profiles in one design.
//!
//! Each test needs its tool on `PATH` and is skipped (with a message)
//! without it, unless `UTF8HDL_REQUIRE_TOOLS=1`.

use std::path::{Path, PathBuf};
use std::process::Command;

use rust_hdl::prelude::*;
use utf8hdl_hdl::stream::{AxisOutputRegister, SkidBuffer};
use utf8hdl_hdl::utf8_decoder::classifier::ByteClassifier;
use utf8hdl_hdl::utf8_decoder::fsm::DecoderFsm;
use utf8hdl_hdl::utf8_decoder::output_register::OutputRegister;
use utf8hdl_hdl::{Profile, Utf8Decoder};
use utf8hdl_sim::core::{ports, Core, Dir, Port};
use utf8hdl_sim::cores::utf8_decoder::Decoder;
use utf8hdl_synth::board::board_verilog;
use utf8hdl_synth::board::boards::BOARDS;
use utf8hdl_synth::fusesoc::module_name;
use utf8hdl_synth::tools;
use utf8hdl_synth::verilog::{
    all_cores, export, export_hierarchical, raw_verilog, top_name, verilog_hierarchical,
    write_verilog, RTL_DIR,
};

fn tempdir(what: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("utf8hdl-lint-{what}-"))
        .tempdir()
        .unwrap()
}

/// Runs a command in `dir`; returns (success, stdout + stderr).
fn run(dir: &Path, program: &str, args: &[&str]) -> (bool, String) {
    let out = Command::new(program)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

/// The lane counts whose cores the fast tier lints; the wider cores take
/// most of the tools' time and are linted in the slow tier.
const FAST_LANES: usize = 4;

/// The committed export of every core the project ships (each kind, both
/// profiles, each lane count) with at most (`wide` false) or more than
/// (`wide` true) [`FAST_LANES`] lanes: its module name and file, in the
/// committed folder `dir`. They are what the export writes now
/// (`rtl_fresh` checks it byte for byte), so linting them lints the
/// export without exporting every core once a tool.
fn committed_cores(wide: bool) -> (PathBuf, Vec<(String, String)>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(RTL_DIR);
    let cores = all_cores()
        .filter(|&(_, _, lanes)| (lanes > FAST_LANES) == wide)
        .map(|(kind, profile, lanes)| {
            let top = module_name(kind, profile, lanes).expect("a registered core");
            let file = format!("{top}.v");
            (top, file)
        })
        .collect();
    (dir, cores)
}

/// Verilator `-Wall`, no warning disabled, in its default language
/// (SystemVerilog) and in Verilog-2005, on each committed core.
fn lints_clean_in_verilator(wide: bool) {
    if !tools::require("verilator") {
        return;
    }
    let (dir, cores) = committed_cores(wide);
    for (_, file) in cores {
        for extra in [&[][..], &["--language", "1364-2005"][..]] {
            let mut args = vec!["--lint-only", "-Wall"];
            args.extend(extra);
            args.push(&file);
            let (ok, text) = run(&dir, "verilator", &args);
            assert!(ok && text.trim().is_empty(), "verilator {args:?}:\n{text}");
        }
    }
}

/// Yosys reads each committed core with no implicit wire, and its
/// `check -assert` passes with no latch.
fn passes_yosys_check_with_no_latches(wide: bool) {
    if !tools::require("yosys") {
        return;
    }
    let (dir, cores) = committed_cores(wide);
    for (top, file) in cores {
        let script = format!(
            "read_verilog -noautowire {file}; hierarchy -check -top {top}; proc; check -assert; \
             select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr"
        );
        let (ok, text) = run(&dir, "yosys", &["-q", "-p", &script]);
        assert!(ok, "yosys {top}:\n{text}");
    }
}

/// Icarus Verilog compiles each committed core as Verilog-2005 with
/// `-Wall` and says nothing.
fn compiles_in_icarus_without_warnings(wide: bool) {
    if !tools::require("iverilog") {
        return;
    }
    let (dir, cores) = committed_cores(wide);
    for (top, file) in cores {
        let (ok, text) = run(
            &dir,
            "iverilog",
            &["-g2005", "-Wall", "-o", "/dev/null", &file],
        );
        assert!(ok && text.trim().is_empty(), "iverilog {top}:\n{text}");
    }
}

#[test]
fn every_exported_core_lints_clean_in_verilator() {
    lints_clean_in_verilator(false);
}

#[test]
#[ignore = "slow: Verilator on the cores of 8 lanes and more"]
fn every_wide_exported_core_lints_clean_in_verilator() {
    lints_clean_in_verilator(true);
}

#[test]
fn every_exported_core_passes_yosys_check_with_no_latches() {
    passes_yosys_check_with_no_latches(false);
}

#[test]
#[ignore = "slow: yosys on the cores of 8 lanes and more"]
fn every_wide_exported_core_passes_yosys_check_with_no_latches() {
    passes_yosys_check_with_no_latches(true);
}

#[test]
fn every_exported_core_compiles_in_icarus_without_warnings() {
    compiles_in_icarus_without_warnings(false);
}

#[test]
#[ignore = "slow: Icarus on the cores of 8 lanes and more"]
fn every_wide_exported_core_compiles_in_icarus_without_warnings() {
    compiles_in_icarus_without_warnings(true);
}

/// Rewrites every identifier holding `$` (rust-hdl's path separator, kept
/// by the flat export) into the escaped name yosys's `flatten` gives the same
/// signal in the hierarchical original (`decoder$gathered$q` ->
/// `\decoder.gathered.q `), so `equiv_make` pairs up every flop.
fn hierarchical_names(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut in_comment = false;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            in_comment = false;
        }
        if !in_comment && c == '/' && chars.get(i + 1) == Some(&'/') {
            in_comment = true;
        }
        let boundary =
            i == 0 || !(chars[i - 1].is_alphanumeric() || "_$'\\".contains(chars[i - 1]));
        if !in_comment && boundary && (c.is_ascii_alphabetic() || c == '_') {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            if word.contains('$') {
                out.push('\\');
                out.push_str(&word.replace('$', "."));
                out.push(' ');
            } else {
                out.push_str(&word);
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Proves in yosys that `gate` (the flat export, top `gate_top`) computes
/// exactly what `gold` (rust-hdl's Verilog, top `top`) does: every flop and
/// output paired by name, then `equiv_simple` and `equiv_induct`.
/// `proc -norom`: yosys would make the case table of the `LeadTable` a
/// ROM, which `equiv_make` does not take.
fn prove_equivalent(what: &str, gold: &str, gate: &str, gate_top: &str) {
    let dir = tempdir(what);
    std::fs::write(dir.path().join("gold.v"), gold).unwrap();
    std::fs::write(dir.path().join("gate.v"), hierarchical_names(gate)).unwrap();
    let script = format!(
        "read_verilog gold.v; hierarchy -top top; proc -norom; flatten; opt_clean; rename top gold; design -stash gold; \
         read_verilog gate.v; hierarchy -top {gate_top}; proc -norom; opt_clean; rename {gate_top} gate; design -stash gate; \
         design -copy-from gold -as gold gold; design -copy-from gate -as gate gate; \
         equiv_make gold gate equiv; hierarchy -top equiv; equiv_simple; equiv_induct; equiv_status -assert"
    );
    let (ok, text) = run(dir.path(), "yosys", &["-p", &script]);
    let summary: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("equiv") || l.contains("ERROR") || l.contains("proven"))
        .collect();
    assert!(
        ok,
        "yosys could not prove {what} equivalent (files in {}):\n{}",
        dir.keep().display(),
        summary.join("\n")
    );
    assert!(text.contains("Equivalence successfully proven!"), "{text}");
}

fn export_is_equivalent(profile: Profile) {
    if !tools::require("yosys") {
        return;
    }
    let gold = raw_verilog(profile).unwrap();
    let gate = utf8hdl_synth::verilog(profile);
    prove_equivalent(profile.name(), &gold, &gate, &top_name(profile));
}

#[test]
fn yosys_proves_export_equivalent_to_rust_hdl_rfc3629() {
    export_is_equivalent(Profile::Rfc3629);
}

#[test]
fn yosys_proves_export_equivalent_to_rust_hdl_iso10646() {
    export_is_equivalent(Profile::Iso10646);
}

/// A design instantiating both profiles: no module name in common, and it
/// lints clean.
#[test]
fn both_profiles_fit_in_one_design() {
    if !tools::require_all(&["verilator", "yosys"]) {
        return;
    }
    let dir = tempdir("both");
    let mut files = Vec::new();
    for profile in Profile::ALL {
        files.push(write_verilog(profile, dir.path()).unwrap());
    }
    // Written from the core's ports: the inputs are shared, each
    // instance's outputs get wires of their own.
    let ports = ports(&Decoder(Profile::Rfc3629).block()).unwrap();
    let own = |p: &Port, i: usize| format!("{}_{i}", p.name);
    let mut declarations = String::new();
    let mut names: Vec<String> = Vec::new();
    for p in &ports {
        let copies = match p.dir {
            Dir::In => vec![p.name.clone()],
            Dir::Out => (0..Profile::ALL.len()).map(|i| own(p, i)).collect(),
        };
        for name in copies {
            declarations += &format!("    {} wire {}{name};\n", p.dir.verilog(), p.range());
            names.push(name);
        }
    }
    let mut wrapper = format!("module both({});\n{declarations}", names.join(", "));
    for (i, profile) in Profile::ALL.into_iter().enumerate() {
        let connections: Vec<String> = ports
            .iter()
            .map(|p| match p.dir {
                Dir::In => format!(".{0}({0})", p.name),
                Dir::Out => format!(".{}({})", p.name, own(p, i)),
            })
            .collect();
        wrapper += &format!(
            "    {} u_{i} ({});\n",
            top_name(profile),
            connections.join(", ")
        );
    }
    wrapper += "endmodule\n";
    std::fs::write(dir.path().join("both.v"), wrapper).unwrap();
    let names: Vec<&str> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_str().unwrap())
        .collect();
    let mut args = vec!["--lint-only", "-Wall", "--top-module", "both", "both.v"];
    args.extend(&names);
    let (ok, text) = run(dir.path(), "verilator", &args);
    assert!(ok && text.trim().is_empty(), "verilator:\n{text}");

    // The hierarchical exports of both profiles, read together: every
    // module name is distinct.
    let mut script = String::new();
    for profile in Profile::ALL {
        let name = format!("{}_hier.v", &top_name(profile));
        std::fs::write(
            dir.path().join(&name),
            verilog_hierarchical(profile).unwrap(),
        )
        .unwrap();
        script += &format!("read_verilog {name}; ");
    }
    script += "read_verilog both.v; hierarchy -check -top both; proc; check -assert";
    let (ok, text) = run(dir.path(), "yosys", &["-q", "-p", &script]);
    assert!(ok, "yosys:\n{text}");
}

/// The hierarchical export draws only DECLFILENAME (several modules in one
/// file).
#[test]
fn hierarchical_export_lints_clean_but_for_file_names() {
    if !tools::require("verilator") {
        return;
    }
    let dir = tempdir("hier");
    for profile in Profile::ALL {
        let name = format!("{}.v", &top_name(profile));
        std::fs::write(
            dir.path().join(&name),
            verilog_hierarchical(profile).unwrap(),
        )
        .unwrap();
        let (_, text) = run(dir.path(), "verilator", &["--lint-only", "-Wall", &name]);
        for line in text.lines().filter(|l| l.starts_with('%')) {
            assert!(
                line.starts_with("%Warning-DECLFILENAME")
                    || line.starts_with("%Error: Exiting due to"),
                "{profile}: {line}\n{text}"
            );
        }
    }
}

#[test]
fn synthesis_bench_lints_clean() {
    if !tools::require("verilator") {
        return;
    }
    let dir = tempdir("bench");
    for profile in Profile::ALL {
        let design = write_verilog(profile, dir.path()).unwrap();
        let bench = format!("{}_bench.v", &top_name(profile));
        let ports = ports(&Decoder(profile).block()).unwrap();
        let text = utf8hdl_synth::flow::bench(&top_name(profile), &ports);
        std::fs::write(dir.path().join(&bench), text).unwrap();
        let (ok, text) = run(
            dir.path(),
            "verilator",
            &[
                "--lint-only",
                "-Wall",
                &bench,
                design.file_name().unwrap().to_str().unwrap(),
            ],
        );
        assert!(ok && text.trim().is_empty(), "verilator {profile}:\n{text}");
    }
}

// ------------------------------------------------------------------------
// The export on expression forms the decoder does not use today.

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
enum Phase {
    Idle,
    Load,
    Shift,
}

/// A block using the forms that rust-hdl writes width-exact once the export
/// has sized its literals and zero-extensions: literals in arithmetic,
/// comparisons and assignments, bit and slice selects with constant and
/// signal indices, shifts by literals and by signals, reductions, widening
/// `bit_cast`s (to 16 bits, which rust-hdl masks with `16'hffff`), a `for`
/// loop, a constant, and an enum register in a `match`.
#[derive(LogicBlock)]
struct Forms {
    clock: Signal<In, Clock>,
    a: Signal<In, Bits<8>>,
    b: Signal<In, Bits<12>>,
    sel: Signal<In, Bits<3>>,
    go: Signal<In, Bit>,
    y: Signal<Out, Bits<16>>,
    w: Signal<Out, Bits<8>>,
    f: Signal<Out, Bit>,
    field: Signal<Local, Bits<2>>,
    wide: Signal<Local, Bits<16>>,
    phase: DFF<Phase>,
    acc: DFF<Bits<16>>,
    count: DFF<Bits<5>>,
    limit: Constant<Bits<5>>,
}

impl Default for Forms {
    fn default() -> Self {
        Forms {
            clock: Default::default(),
            a: Default::default(),
            b: Default::default(),
            sel: Default::default(),
            go: Default::default(),
            y: Default::default(),
            w: Default::default(),
            f: Default::default(),
            field: Default::default(),
            wide: Default::default(),
            phase: Default::default(),
            acc: Default::default(),
            count: Default::default(),
            limit: Constant::new(31.into()),
        }
    }
}

impl Logic for Forms {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, phase, acc, count);
        self.field.next = self.a.val().get_bits::<2>(3);
        self.wide.next = 0.into();
        for i in 0..8 {
            if self.a.val().get_bit(i) {
                self.wide.next = self.wide.val() | (1 << i);
            }
        }
        self.y.next = (bit_cast::<16, 8>(self.a.val()) + self.acc.q.val()) ^ self.wide.val();
        self.w.next = (self.a.val() + 1) ^ (self.a.val() << self.sel.val());
        self.f.next = (self.b.val() == 0x40)
            | (self.sel.val() < 5)
            | self.a.val().get_bit(self.sel.val().index())
            | self.b.val().any()
            | self.a.val().all()
            | self.b.val().xor()
            | (self.field.val() == 2);
        match self.phase.q.val() {
            Phase::Idle => {
                if self.go.val() && (self.count.q.val() != self.limit.val()) {
                    self.phase.d.next = Phase::Load;
                }
            }
            Phase::Load => {
                self.acc.d.next = (self.acc.q.val() << 4) | bit_cast::<16, 12>(self.b.val());
                self.phase.d.next = Phase::Shift;
            }
            Phase::Shift => {
                self.acc.d.next = self.acc.q.val() >> 1;
                self.count.d.next = self.count.q.val() - 1;
                if self.count.q.val() == 0 {
                    self.phase.d.next = Phase::Idle;
                }
            }
        }
    }
}

#[test]
fn export_handles_every_width_exact_form() {
    if !tools::require_all(&["verilator", "yosys"]) {
        return;
    }
    let mut uut = Forms::default();
    uut.connect_all();
    let flat = export(&uut, "forms").unwrap();
    let dir = tempdir("forms");
    std::fs::write(dir.path().join("forms.v"), &flat).unwrap();
    let (ok, text) = run(
        dir.path(),
        "verilator",
        &["--lint-only", "-Wall", "forms.v"],
    );
    assert!(ok && text.trim().is_empty(), "verilator:\n{text}\n{flat}");
    assert!(export_hierarchical(&uut, "forms").is_ok());
    prove_equivalent("forms", &generate_verilog(&uut), &flat, "forms");
}

/// Each block on its own exports to one module that lints clean and that
/// yosys accepts (`check -assert`, no latches).
#[test]
fn every_block_is_synthesizable_on_its_own() {
    if !tools::require_all(&["verilator", "yosys"]) {
        return;
    }
    fn exported<U: Block>(mut uut: U, name: String) -> (String, String) {
        uut.connect_all();
        let text = export(&uut, &name).unwrap();
        (name, text)
    }
    let dir = tempdir("blocks");
    let mut blocks = vec![
        exported(SkidBuffer::<8>::default(), "skid_buffer".into()),
        exported(
            AxisOutputRegister::<32, 4>::default(),
            "axis_output_register".into(),
        ),
        exported(OutputRegister::default(), "output_register".into()),
    ];
    for profile in Profile::ALL {
        blocks.push(exported(
            ByteClassifier::new(profile),
            format!("classifier_{profile}"),
        ));
        blocks.push(exported(
            DecoderFsm::new(profile),
            format!("decoder_{profile}"),
        ));
    }
    for (name, text) in blocks {
        let file = format!("{name}.v");
        std::fs::write(dir.path().join(&file), text).unwrap();
        let (ok, lint) = run(dir.path(), "verilator", &["--lint-only", "-Wall", &file]);
        assert!(ok && lint.trim().is_empty(), "verilator {name}:\n{lint}");
        let script = format!(
            "read_verilog -noautowire {file}; hierarchy -check -top {name}; proc; check -assert; \
             select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr"
        );
        let (ok, log) = run(dir.path(), "yosys", &["-q", "-p", &script]);
        assert!(ok, "yosys {name}:\n{log}");
    }
}

/// Each board's top, in each mode, as its bitstream is built from it:
/// lint-clean in Verilator (`-Wall`) but for three warnings, which the
/// cores do not have: `WIDTH` (the UART's and the formatter's shifts and
/// masks of narrower signals, forms the export's passes do not rewrite),
/// `UNOPTFLAT` (the combinational loop between rust-hdl's
/// `SynchronousFIFO`'s full and empty flags) and `UNUSEDSIGNAL` (the
/// FIFO's and the encoder's outputs the top does not read); and accepted
/// by yosys (`check -assert`, no latches).
#[test]
fn every_board_top_lints_clean() {
    if !tools::require_all(&["verilator", "yosys"]) {
        return;
    }
    for board in BOARDS {
        for mode in board.modes() {
            let dir = tempdir("board");
            let text = board_verilog(board, Profile::Rfc3629, mode).unwrap();
            std::fs::write(dir.path().join("top.v"), text).unwrap();
            let what = format!("{} {mode:?}", board.name);
            let args = [
                "--lint-only",
                "-Wall",
                "-Wno-WIDTH",
                "-Wno-UNOPTFLAT",
                "-Wno-UNUSEDSIGNAL",
                "top.v",
            ];
            let (ok, lint) = run(dir.path(), "verilator", &args);
            assert!(ok && lint.trim().is_empty(), "verilator {what}:\n{lint}");
            let script = "read_verilog -noautowire top.v; hierarchy -check -top top; proc; \
                          check -assert; select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr";
            let (ok, log) = run(dir.path(), "yosys", &["-q", "-p", script]);
            assert!(ok, "yosys {what}:\n{log}");
        }
    }
}

/// The decoder through the generic [`export`] is the decoder's file, less
/// its header comment.
#[test]
fn export_of_the_decoder_is_the_published_file() {
    for profile in Profile::ALL {
        let mut uut = Utf8Decoder::new(profile);
        uut.connect_all();
        let body = export(&uut, &top_name(profile)).unwrap();
        assert!(utf8hdl_synth::verilog(profile).contains(&body));
    }
}
