//! The Verilator engine: a core's exported Verilog compiled by Verilator
//! into a shared library, loaded with `libloading`, and stepped from the
//! same harness and checker as rust-hdl's engine.
//!
//! **Why an in-tree shim.** Measured here on the decoder (4M cycles):
//! Verilator's own C++ harness reaches 18.3M cycles/s; a shared library
//! with one packed call per cycle, loaded with `libloading`, 15.7M;
//! `marlin-verilator` 0.21's static model 9.9M, below the 10M target, and
//! it needs Verilator ≥ 5.025 (Debian has 5.006) and accepts no C++ flags;
//! its dynamic model 0.48M. So the shim is ours, and small: [`shim`] writes
//! it from the core's ports and probes, so any core goes through it.
//!
//! **One call per cycle.** `model_step(model, inputs, outputs, probes)`
//! reads the outputs as the cycle begins (they are flops), drives the
//! inputs, lets the clock-low half settle, copies the probes (when asked:
//! the VCD window), and raises the clock. Every value travels as 32-bit
//! words, least significant first, in port order: a port of up to 32 bits
//! is one word, of 33 to 64 (Verilator's `QData`) two, and a wider one
//! (a `VlWide` of 32-bit words, as a wide core's `tdata`) one word each.
//!
//! **The probes** are the core's waveform signals ([`probes`]): the ports,
//! and the state paths of [`Core::STATE`], which the flattened Verilog
//! names `decoder$bytes_left$q`. Verilator would optimise most of them
//! away, so the model is built from a copy of the Verilog whose probe
//! declarations carry `/*verilator public_flat_rd*/`, which keeps them as
//! members of the model's root (`rootp->utf8_decoder__DOT__decoder__024bytes_left__024q`).
//! The VCD is then written by the same recorder as rust-hdl's: the same
//! content, and the same `.gtkw` file.
//!
//! **The cache.** A model is built once per Verilog text, shim and
//! Verilator version, in the user's cache directory
//! (`~/.cache/utf8hdl/verilator/<hash>`), never in the working directory;
//! building takes a few seconds, loading a cached one a few milliseconds.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

use std::ops::Range;

use anyhow::{anyhow, bail, Context, Result};
use utf8hdl_sim::core::{
    ports, probes, Beat, Core, Dir, InputsOf, Outputs, OutputsOf, Port, Role, Signals, Values,
};
use utf8hdl_sim::harness::Engine;

/// The tools a model build needs.
pub const TOOLS: [&str; 3] = ["verilator", "g++", "make"];

/// 32-bit words a value of `width` bits travels in.
fn words(width: usize) -> usize {
    width.div_ceil(32)
}

/// The flat Verilog name of a probe path (`decoder.bytes_left.q` is
/// `decoder$bytes_left$q`), and the member Verilator gives it in the model's
/// root once it is public.
fn flat_name(path: &str) -> String {
    path.replace('.', "$")
}

fn member(top: &str, path: &str) -> String {
    let flat = flat_name(path);
    if path.contains('.') {
        format!("rootp->{top}__DOT__{}", flat.replace('$', "__024"))
    } else {
        flat
    }
}

/// `verilog` with the declarations of the internal `probes` marked public,
/// so that Verilator keeps them readable.
fn with_public_probes(verilog: &str, probes: &[String]) -> Result<String> {
    let mut text = String::with_capacity(verilog.len() + 64 * probes.len());
    let wanted: Vec<String> = probes
        .iter()
        .filter(|p| p.contains('.'))
        .map(|p| flat_name(p))
        .collect();
    let mut found = vec![false; wanted.len()];
    for line in verilog.lines() {
        let trimmed = line.trim();
        let declaration = trimmed.starts_with("reg ") || trimmed.starts_with("wire ");
        let name = trimmed
            .strip_suffix(';')
            .and_then(|d| d.rsplit([' ', ']']).next());
        match name.and_then(|n| wanted.iter().position(|w| w == n)) {
            Some(i) if declaration => {
                found[i] = true;
                text += line.strip_suffix(';').unwrap();
                text += " /*verilator public_flat_rd*/;\n";
            }
            _ => {
                text += line;
                text += "\n";
            }
        }
    }
    if let Some(i) = found.iter().position(|f| !f) {
        bail!("the exported Verilog declares no '{}'", wanted[i]);
    }
    Ok(text)
}

/// The C++ shim for the module `top` with `ports` and the waveform
/// `probes` (paths, widths).
pub fn shim(top: &str, ports: &[Port], probes: &Signals) -> String {
    let mut copy_out = String::new();
    let mut offset = 0;
    for p in ports.iter().filter(|p| p.dir == Dir::Out) {
        copy_out += &read_words("out", offset, &p.name, p.width);
        offset += words(p.width);
    }
    let mut drive = String::new();
    offset = 0;
    for p in ports
        .iter()
        .filter(|p| p.dir == Dir::In && p.role != Role::Clock)
    {
        drive += &write_words("in", offset, &p.name, p.width);
        offset += words(p.width);
    }
    let mut copy_probes = String::new();
    offset = 0;
    for (path, &width) in probes.paths.iter().zip(&probes.widths) {
        copy_probes += &read_words("probes", offset, &member(top, path), width);
        offset += words(width);
    }
    format!(
        r#"// The utf8hdl Verilator shim for {top}: written by utf8hdl-synth from the
// core's ports and probes (see synth/src/verilator.rs); do not edit.
#include <cstdint>
#include "Vmodel.h"
#include "Vmodel___024root.h"
#include "verilated.h"

struct Model {{
    VerilatedContext context;
    Vmodel top{{&context}};
}};

extern "C" {{

void* model_new() {{
    Model* model = new Model;
    model->top.clk = 0;
    model->top.eval();
    return model;
}}

void model_free(void* model) {{
    delete static_cast<Model*>(model);
}}

void model_outputs(void* model, uint32_t* out) {{
    Vmodel& t = static_cast<Model*>(model)->top;
{copy_out}}}

void model_step(void* model, const uint32_t* in, uint32_t* out, uint32_t* probes) {{
    Vmodel& t = static_cast<Model*>(model)->top;
{copy_out}{drive}    t.clk = 0;
    t.eval();
    if (probes) {{
{copy_probes}    }}
    t.clk = 1;
    t.eval();
}}

}}
"#
    )
}

/// C++ that copies `source` (`width` bits) into `array` from `offset`.
fn read_words(array: &str, offset: usize, source: &str, width: usize) -> String {
    match width {
        0..=32 => format!("    {array}[{offset}] = t.{source};\n"),
        33..=64 => format!(
            "    {array}[{offset}] = uint32_t(t.{source});\n    {array}[{}] = uint32_t(t.{source} >> 32);\n",
            offset + 1
        ),
        _ => (0..words(width))
            .map(|i| format!("    {array}[{}] = t.{source}[{i}];\n", offset + i))
            .collect(),
    }
}

/// C++ that drives `target` (`width` bits) from `array` at `offset`.
fn write_words(array: &str, offset: usize, target: &str, width: usize) -> String {
    match width {
        0..=32 => format!("    t.{target} = {array}[{offset}];\n"),
        33..=64 => format!(
            "    t.{target} = uint64_t({array}[{offset}]) | uint64_t({array}[{}]) << 32;\n",
            offset + 1
        ),
        _ => (0..words(width))
            .map(|i| format!("    t.{target}[{i}] = {array}[{}];\n", offset + i))
            .collect(),
    }
}

fn tool_output(program: &str, args: &[&str]) -> Result<String> {
    let out = crate::tools::output(Command::new(program).args(args))
        .with_context(|| format!("cannot run {program}: is it installed?"))?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Where models are cached.
fn cache_root() -> Result<PathBuf> {
    let base = dirs::cache_dir().ok_or_else(|| anyhow!("no cache directory for this user"))?;
    Ok(base.join("utf8hdl").join("verilator"))
}

/// Builds (or finds in the cache) the model library of `verilog`, whose top
/// module is `top`, with `shim`. `progress` is told when a build starts.
fn model_library(top: &str, verilog: &str, shim: &str, progress: &dyn Fn(&str)) -> Result<PathBuf> {
    for tool in TOOLS {
        if crate::tools::find(tool).is_none() {
            bail!("--engine verilator needs {tool}, which is not on PATH");
        }
    }
    let version = tool_output("verilator", &["--version"])?;
    let mut hasher = DefaultHasher::new();
    (verilog, shim, &version, OPTIMIZE).hash(&mut hasher);
    let dir = cache_root()?.join(format!("{top}-{:016x}", hasher.finish()));
    let library = dir.join("libmodel.so");
    if library.is_file() {
        return Ok(library);
    }
    progress(&format!(
        "building the Verilator model of {top} (once; cached in {})",
        dir.display()
    ));
    let parent = dir.parent().expect("a cache path has a parent");
    std::fs::create_dir_all(parent)
        .with_context(|| format!("cannot create '{}'", parent.display()))?;
    // Built aside and renamed into place, so that a build that fails or is
    // interrupted leaves nothing a later run would load. A failed build is
    // kept, so that the log its error names is there to read.
    let build = utf8hdl_sim::output::ScratchDir::new_in(parent, ".build-")?;
    if let Err(e) = build_in(build.path(), top, verilog, shim) {
        let _kept = build.keep();
        return Err(e);
    }
    match build.rename_to(&dir) {
        Ok(()) => {}
        // Another run built the same model meanwhile: use that one.
        Err(_) if library.is_file() => {}
        Err(e) => {
            return Err(e).with_context(|| format!("cannot move the model to '{}'", dir.display()));
        }
    }
    Ok(library)
}

/// Verilates `verilog` (top module `top`) and compiles it with `shim` into
/// `dir/libmodel.so`, each tool's output in a log beside it.
fn build_in(dir: &Path, top: &str, verilog: &str, shim: &str) -> Result<()> {
    std::fs::write(dir.join(format!("{top}.v")), verilog)?;
    std::fs::write(dir.join("shim.cpp"), shim)?;
    let file = format!("{top}.v");
    let args = [
        "--cc",
        &file,
        "--top-module",
        top,
        "--prefix",
        "Vmodel",
        "-O3",
        "--Mdir",
        "obj",
    ];
    crate::tools::run(dir, "verilator", &args, "verilator.log")?;
    let root = tool_output("verilator", &["--getenv", "VERILATOR_ROOT"])?;
    let include = format!("{root}/include");
    let mut sources: Vec<String> = std::fs::read_dir(dir.join("obj"))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cpp"))
        .map(|p| p.display().to_string())
        .collect();
    sources.sort();
    sources.push(format!("{include}/verilated.cpp"));
    sources.push(format!("{include}/verilated_threads.cpp"));
    sources.push("shim.cpp".into());
    // A makefile so that the sources compile on every core.
    let objects: Vec<String> = (0..sources.len()).map(|i| format!("o{i}.o")).collect();
    let mut makefile = format!(
        "CXXFLAGS = {OPTIMIZE} -std=c++17 -Iobj -I{include} -I{include}/vltstd\n\
         libmodel.so: {}\n\t$(CXX) -shared -pthread -o $@ $^\n",
        objects.join(" ")
    );
    for (object, source) in objects.iter().zip(&sources) {
        makefile += &format!("{object}: {source}\n\t$(CXX) $(CXXFLAGS) -c -o $@ $<\n");
    }
    std::fs::write(dir.join("Makefile"), makefile)?;
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    crate::tools::run(
        dir,
        "make",
        &["-s".to_string(), format!("-j{jobs}")],
        "make.log",
    )?;
    Ok(())
}

/// The C++ flags of a model: as fast as the compiler makes it, and
/// position-independent for a shared library.
const OPTIMIZE: &str = "-O3 -fPIC -fno-semantic-interposition -w";

type NewFn = unsafe extern "C" fn() -> *mut std::ffi::c_void;
type FreeFn = unsafe extern "C" fn(*mut std::ffi::c_void);
type OutputsFn = unsafe extern "C" fn(*mut std::ffi::c_void, *mut u32);
type StepFn = unsafe extern "C" fn(*mut std::ffi::c_void, *const u32, *mut u32, *mut u32);

/// A core's Verilog compiled by Verilator: an [`Engine`].
pub struct Verilated<C: Core> {
    core: C,
    model: *mut std::ffi::c_void,
    free: FreeFn,
    outputs_fn: OutputsFn,
    step_fn: StepFn,
    inputs: Vec<u32>,
    outputs: Vec<u32>,
    /// How many words the probes take.
    probe_words: usize,
    input_at: InputsAt,
    output_at: OutputsAt,
    /// Lanes of each stream.
    lanes: usize,
    /// The outputs of the last step, decoded in place.
    decoded: OutputsOf<C>,
    // Last: the library must outlive every call into it.
    _library: libloading::Library,
}

impl<C: Core> Verilated<C> {
    /// The model of `core`, whose exported Verilog is `verilog`, built on
    /// first use. `progress` is told when a build starts (it takes seconds).
    pub fn new(core: C, verilog: &str, progress: &dyn Fn(&str)) -> Result<Self> {
        let ports = ports(&core.block())?;
        let probes = probes(&core)?;
        let top = core.name();
        let public = with_public_probes(verilog, &probes.paths)?;
        let shim = shim(&top, &ports, &probes);
        let input_at = InputsAt::of(&ports)?;
        let output_at = OutputsAt::of(&ports)?;
        let lanes = core.lanes()?.count;
        let path = model_library(&top, &public, &shim, progress)?;
        // SAFETY: the library is the shim above, built for this core; its
        // functions have exactly these signatures.
        unsafe {
            // Every symbol resolved now, so that a broken model is an error
            // here rather than a crash at its first call.
            let flags = libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_LOCAL;
            let library: libloading::Library =
                libloading::os::unix::Library::open(Some(&path), flags)
                    .with_context(|| format!("cannot load '{}'", path.display()))?
                    .into();
            let new: NewFn = *library.get(b"model_new")?;
            let free: FreeFn = *library.get(b"model_free")?;
            let outputs_fn: OutputsFn = *library.get(b"model_outputs")?;
            let step_fn: StepFn = *library.get(b"model_step")?;
            let size = |dir: Dir| -> usize {
                ports
                    .iter()
                    .filter(|p| p.dir == dir && p.role != Role::Clock)
                    .map(|p| words(p.width))
                    .sum()
            };
            let (inputs, outputs) = (vec![0; size(Dir::In)], vec![0; size(Dir::Out)]);
            let probe_words = probes.widths.iter().map(|&w| words(w)).sum();
            Ok(Verilated {
                core,
                model: new(),
                free,
                outputs_fn,
                step_fn,
                inputs,
                outputs,
                probe_words,
                input_at,
                output_at,
                lanes,
                decoded: Outputs::default(),
                _library: library,
            })
        }
    }

    /// Decodes the output words into `outputs`, in place: a beat is large,
    /// and this runs on every cycle.
    fn decode_outputs(at: &OutputsAt, lanes: usize, words: &[u32], outputs: &mut OutputsOf<C>) {
        outputs.s_axis_tready = words[at.s_axis_tready] != 0;
        if words[at.m_axis_tvalid] == 0 {
            outputs.m_axis = None;
            return;
        }
        let beat = outputs.m_axis.get_or_insert_with(|| Beat::new(&[], false));
        beat.load(
            lanes,
            &words[at.m_axis_tdata.clone()],
            at.m_axis_tuser.clone().map_or(&[], |r| &words[r]),
            at.m_axis_tkeep.map(|k| words[k]),
            words[at.m_axis_tlast] != 0,
        );
    }

    /// Drives the input words from `inputs`; data lines hold their last
    /// value while no beat is offered, as in rust-hdl's engine.
    fn encode_inputs(&mut self, inputs: &InputsOf<C>) {
        let at = &self.input_at;
        self.inputs[at.rst] = inputs.rst as u32;
        self.inputs[at.s_axis_tvalid] = inputs.s_axis.is_some() as u32;
        if let Some(beat) = &inputs.s_axis {
            let tdata = &mut self.inputs[at.s_axis_tdata.clone()];
            tdata.copy_from_slice(&beat.tdata_words(self.lanes)[..tdata.len()]);
            if let Some(range) = at.s_axis_tuser.clone() {
                let tuser = &mut self.inputs[range];
                tuser.copy_from_slice(&beat.tuser_words(self.lanes)[..tuser.len()]);
            }
            if let Some(k) = at.s_axis_tkeep {
                self.inputs[k] = beat.tkeep;
            }
            self.inputs[at.s_axis_tlast] = beat.tlast as u32;
        }
        self.inputs[at.m_axis_tready] = inputs.m_axis_tready as u32;
    }
}

/// Where each port of `dir` (but the clock) is in the words the shim
/// passes: port after port, each in whole 32-bit words.
fn words_at(ports: &[Port], dir: Dir) -> impl Fn(&str) -> Result<Range<usize>> + '_ {
    move |name| {
        let mut offset = 0;
        for p in ports
            .iter()
            .filter(|p| p.dir == dir && p.role != Role::Clock)
        {
            if p.name == name {
                return Ok(offset..offset + words(p.width));
            }
            offset += words(p.width);
        }
        bail!("the core has no {} port {name}", dir.verilog())
    }
}

/// Where the input ports are in the input words (a port of one bit or a
/// lane mask is one word; `tdata` is several for several lanes).
struct InputsAt {
    rst: usize,
    s_axis_tvalid: usize,
    s_axis_tdata: Range<usize>,
    s_axis_tuser: Option<Range<usize>>,
    s_axis_tkeep: Option<usize>,
    s_axis_tlast: usize,
    m_axis_tready: usize,
}

impl InputsAt {
    fn of(ports: &[Port]) -> Result<Self> {
        let at = words_at(ports, Dir::In);
        Ok(InputsAt {
            rst: at("rst")?.start,
            s_axis_tvalid: at("s_axis_tvalid")?.start,
            s_axis_tdata: at("s_axis_tdata")?,
            s_axis_tuser: at("s_axis_tuser").ok(),
            s_axis_tkeep: at("s_axis_tkeep").ok().map(|r| r.start),
            s_axis_tlast: at("s_axis_tlast")?.start,
            m_axis_tready: at("m_axis_tready")?.start,
        })
    }
}

/// Where the output ports are in the output words.
struct OutputsAt {
    s_axis_tready: usize,
    m_axis_tvalid: usize,
    m_axis_tdata: Range<usize>,
    m_axis_tuser: Option<Range<usize>>,
    m_axis_tkeep: Option<usize>,
    m_axis_tlast: usize,
}

impl OutputsAt {
    fn of(ports: &[Port]) -> Result<Self> {
        let at = words_at(ports, Dir::Out);
        Ok(OutputsAt {
            s_axis_tready: at("s_axis_tready")?.start,
            m_axis_tvalid: at("m_axis_tvalid")?.start,
            m_axis_tdata: at("m_axis_tdata")?,
            m_axis_tuser: at("m_axis_tuser").ok(),
            m_axis_tkeep: at("m_axis_tkeep").ok().map(|r| r.start),
            m_axis_tlast: at("m_axis_tlast")?.start,
        })
    }
}

impl<C: Core> Engine for Verilated<C> {
    type Core = C;

    fn core(&self) -> &C {
        &self.core
    }

    fn outputs(&self) -> OutputsOf<C> {
        let mut words = vec![0u32; self.outputs.len()];
        // SAFETY: `model` is live and `words` has room for every output.
        unsafe { (self.outputs_fn)(self.model, words.as_mut_ptr()) };
        let mut outputs = Outputs::default();
        Self::decode_outputs(&self.output_at, self.lanes, &words, &mut outputs);
        outputs
    }

    fn step(&mut self, inputs: &InputsOf<C>, probes: Option<&mut Values>) -> OutputsOf<C> {
        self.encode_inputs(inputs);
        let probe_words = match probes {
            Some(values) => {
                let words = values.all_words_mut();
                assert_eq!(
                    words.len(),
                    self.probe_words,
                    "probe values of another core"
                );
                words.as_mut_ptr()
            }
            None => std::ptr::null_mut(),
        };
        // SAFETY: `model` is live; the arrays have the sizes the shim uses.
        unsafe {
            (self.step_fn)(
                self.model,
                self.inputs.as_ptr(),
                self.outputs.as_mut_ptr(),
                probe_words,
            )
        };
        Self::decode_outputs(
            &self.output_at,
            self.lanes,
            &self.outputs,
            &mut self.decoded,
        );
        self.decoded
    }
}

impl<C: Core> Drop for Verilated<C> {
    fn drop(&mut self) {
        // SAFETY: `model` came from `model_new` and is freed once.
        unsafe { (self.free)(self.model) }
    }
}
