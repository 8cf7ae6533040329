//! The Verilator engine: a core's exported Verilog compiled by Verilator
//! into a shared library, loaded with `libloading`, and stepped from the
//! same harness and checker as rust-hdl's engine.
//!
//! **Why an in-tree shim.** Measured on the decoder, a shared library
//! with one packed call per cycle, loaded with `libloading`, comes close
//! to Verilator's own C++ harness, while `marlin-verilator` 0.21's static
//! model is markedly slower (its dynamic model far slower still), and it
//! needs Verilator ≥ 5.025 (Debian has 5.006) and accepts no C++ flags.
//! So the shim is ours, and small: [`shim`] writes it from the core's
//! ports and probes, so any core goes through it. The engines' speeds
//! are in `docs/datasheet.md#simulation-speed`.
//!
//! **One call a batch of cycles.** `model_step(model, inputs, outputs,
//! probes)` runs one cycle: it reads the outputs as the cycle begins (they
//! are flops), drives the inputs (the data lines of `s_axis` only while a
//! beat is offered: they hold their last value otherwise, as in rust-hdl's
//! engine), lets the clock-low half settle and copies the probes (when
//! asked: the VCD window), and raises the clock. Without probes, the
//! model is evaluated once a cycle, at the rising edge: Verilator's `eval`
//! settles the logic from the inputs before it acts on a clock edge, so
//! the clock-low evaluation only showed the probes (see the shim). A run
//! of the checker goes through `model_run`, which does the same for every
//! cycle of a [`Batch`] (up to a thousand), walking its beats through the
//! AXI handshake itself, and leaves each cycle's outputs and probes in
//! arrays that the checker then reads: a call across the library costs
//! little once for so many cycles. Every value travels as 32-bit
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
//! **The cache.** A model is built once per Verilog text, shim, Verilator
//! version and C++ flags (their SHA-256 is the model's key) in
//! `~/.cache/utf8hdl/verilator/<top>-<key>`, or in `$UTF8HDL_CACHE/verilator`
//! when the environment variable `UTF8HDL_CACHE` ([`CACHE_VAR`]) names
//! another cache root; never in the working directory. Building takes
//! seconds to a minute, loading a cached model a few milliseconds, once a
//! process: its instances share the library.
//!
//! A cached model is loaded only once it is checked: a build writes the
//! directory's `stamp` (the key, and the size and SHA-256 of `libmodel.so`)
//! only once it is complete, and a run compares the library with it, its
//! size first, then its bytes. A truncated, emptied or garbled library
//! would crash the loader (SIGBUS) or fail it for good; a model that is
//! missing or fails the check is rebuilt instead, with a line saying why.
//!
//! A build runs aside, in a `.build-*` directory of the cache, and is swapped
//! into place complete: a damaged directory is renamed aside (`.stale-*`),
//! the new one renamed in, the old one removed; a model that another run
//! put in place meanwhile is used as it is. Builds in one cache take turns
//! (a lock on its folder, released with the process that holds it): runs
//! that need the same model at once build it once, and a run that waited
//! says so in a line. A build's tools run in a
//! process group that dies with utf8hdl, however utf8hdl ends
//! ([`crate::tools`]); what a killed run leaves in the cache (`.stale-*`,
//! and `.build-*` directories older than an hour, which is also how long a
//! failed build's logs are kept) is removed when a later run starts a build.
//!
//! A cache that cannot be written (read-only, or no cache directory at
//! all) does not stop a run: the model is built in a private temporary
//! directory, removed once loaded, with a line saying so and how to keep
//! models (set `UTF8HDL_CACHE` to a writable directory). A complete model
//! in a read-only cache is still used.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Mutex;

use anyhow::{bail, Context, Result};
use utf8hdl_sim::core::{
    ports, probes, Beat, Core, Dir, InputsOf, Lane, Outputs, OutputsOf, Port, Role, Values,
};
use utf8hdl_sim::harness::{Batch, Cycle, EachCycle, Engine};

mod cache;
mod shim;

use cache::{key_of, model_library};
pub use shim::shim;
use shim::{with_public_probes, words};

/// The tools a model build needs.
pub const TOOLS: [&str; 3] = ["verilator", "g++", "make"];

type NewFn = unsafe extern "C" fn() -> *mut std::ffi::c_void;
type FreeFn = unsafe extern "C" fn(*mut std::ffi::c_void);
type OutputsFn = unsafe extern "C" fn(*mut std::ffi::c_void, *mut u32);
type StepFn = unsafe extern "C" fn(*mut std::ffi::c_void, *const u32, *mut u32, *mut u32);
type RunFn = unsafe extern "C" fn(
    *mut std::ffi::c_void,
    u64,
    *const u8,
    *const u32,
    u64,
    u32,
    *mut u32,
    *mut u32,
) -> u64;

/// A model's library loaded into this process, and its entry points. A
/// library is loaded once a process (the benchmark and a chain make
/// several instances of a model), and never unloaded.
struct Library {
    new: NewFn,
    free: FreeFn,
    outputs: OutputsFn,
    step: StepFn,
    run: RunFn,
}

/// The library of the model of `verilog` (top module `top`) with `shim`,
/// built on first use and loaded on the first call of the process.
fn library(
    top: &str,
    verilog: &str,
    shim: &str,
    progress: &dyn Fn(&str),
) -> Result<&'static Library> {
    static LOADED: Mutex<BTreeMap<String, &'static Library>> = Mutex::new(BTreeMap::new());
    let key = key_of(verilog, shim)?;
    let mut loaded = LOADED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(&library) = loaded.get(&key) {
        return Ok(library);
    }
    let model = model_library(top, verilog, shim, &key, progress)?;
    let path = &model.library;
    // SAFETY: the library is the shim above, built for this core; its
    // functions have exactly these signatures.
    let library = unsafe {
        // Every symbol resolved now, so that a broken model is an error
        // here rather than a crash at its first call.
        let flags = libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_LOCAL;
        let library: libloading::Library = libloading::os::unix::Library::open(Some(path), flags)
            .with_context(|| {
                format!(
                    "cannot load the Verilator model '{}' although it matches its stamp; \
                     remove its directory to have it rebuilt",
                    path.display()
                )
            })?
            .into();
        let entries = Library {
            new: *library.get(b"model_new")?,
            free: *library.get(b"model_free")?,
            outputs: *library.get(b"model_outputs")?,
            step: *library.get(b"model_step")?,
            run: *library.get(b"model_run")?,
        };
        // Kept loaded until the process ends: its entry points are used
        // by instances that may live as long.
        std::mem::forget(library);
        entries
    };
    let library: &'static Library = Box::leak(Box::new(library));
    loaded.insert(key, library);
    Ok(library)
}

/// A core's Verilog compiled by Verilator: an [`Engine`].
pub struct Verilated<C: Core> {
    core: C,
    model: *mut std::ffi::c_void,
    library: &'static Library,
    inputs: Vec<u32>,
    outputs: Vec<u32>,
    /// How many words the probes take.
    probe_words: usize,
    /// A block's beats as input words, one set a beat; its outputs and
    /// probes, one set a cycle (see [`Engine::run`]).
    batch_beats: Vec<u32>,
    batch_outputs: Vec<u32>,
    batch_probes: Vec<u32>,
    input_at: InputsAt,
    output_at: OutputsAt,
    /// Lanes of each stream.
    lanes: usize,
}

impl<C: Core> Verilated<C> {
    /// The model of `core`, whose exported Verilog is `verilog`, built on
    /// first use. `progress` is told when a build starts (it takes seconds).
    pub fn new(core: C, verilog: &str, progress: &dyn Fn(&str)) -> Result<Self> {
        let ports = ports(&core.block())?;
        let probes = probes(&core)?;
        let top = core.name();
        let public = with_public_probes(verilog, &ports, &probes.paths)?;
        let shim = shim(&top, &ports, &probes);
        let library = library(&top, &public, &shim, progress)?;
        let size = |dir: Dir| -> usize {
            ports
                .iter()
                .filter(|p| p.dir == dir && p.role != Role::Clock)
                .map(|p| words(p.width))
                .sum()
        };
        let (input_at, output_at) = (InputsAt::of(&ports)?, OutputsAt::of(&ports)?);
        let lanes = core.lanes()?.count;
        Ok(Verilated {
            // SAFETY: the library's `model_new` takes nothing and returns
            // a new model.
            model: unsafe { (library.new)() },
            library,
            inputs: vec![0; size(Dir::In)],
            outputs: vec![0; size(Dir::Out)],
            probe_words: probes.widths.iter().map(|&w| words(w)).sum(),
            batch_beats: Vec::new(),
            batch_outputs: Vec::new(),
            batch_probes: Vec::new(),
            input_at,
            output_at,
            lanes,
            core,
        })
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
            encode_beat(at, self.lanes, beat, &mut self.inputs);
        }
        self.inputs[at.m_axis_tready] = inputs.m_axis_tready as u32;
    }
}

/// Sets the data ports of `s_axis` (all but `s_axis_tvalid`) in the input
/// words `words` to `beat`.
fn encode_beat<L: Lane>(at: &InputsAt, lanes: usize, beat: &Beat<L>, words: &mut [u32]) {
    beat.pack_tdata(lanes, &mut words[at.s_axis_tdata.clone()]);
    if let Some(tuser) = at.s_axis_tuser.clone() {
        beat.pack_tuser(lanes, &mut words[tuser]);
    }
    if let Some(k) = at.s_axis_tkeep {
        words[k] = beat.tkeep;
    }
    words[at.s_axis_tlast] = beat.tlast as u32;
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
        unsafe { (self.library.outputs)(self.model, words.as_mut_ptr()) };
        let mut outputs = Outputs::default();
        Self::decode_outputs(&self.output_at, self.lanes, &words, &mut outputs);
        outputs
    }

    fn step(
        &mut self,
        inputs: &InputsOf<C>,
        probes: Option<&mut Values>,
        outputs: &mut OutputsOf<C>,
    ) {
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
            (self.library.step)(
                self.model,
                self.inputs.as_ptr(),
                self.outputs.as_mut_ptr(),
                probe_words,
            )
        };
        Self::decode_outputs(&self.output_at, self.lanes, &self.outputs, outputs);
    }

    /// The whole batch in one call of the shim's `model_run`, which walks
    /// it as [`Batch`] says; then `each` sees its cycles one by one.
    fn run(
        &mut self,
        batch: &Batch<C::Input>,
        mut probes: Option<&mut Values>,
        each: &mut EachCycle<C>,
    ) -> usize {
        let (cycles, in_words) = (batch.flags.len(), self.inputs.len());
        let (out_words, probe_words) = (self.outputs.len(), self.probe_words);
        self.batch_beats.resize(batch.beats.len() * in_words, 0);
        for (beat, words) in batch
            .beats
            .iter()
            .zip(self.batch_beats.chunks_mut(in_words))
        {
            encode_beat(&self.input_at, self.lanes, beat, words);
        }
        self.batch_outputs.resize(cycles * out_words, 0);
        let probe_ptr = match probes {
            Some(_) => {
                self.batch_probes.resize(cycles * probe_words, 0);
                self.batch_probes.as_mut_ptr()
            }
            None => std::ptr::null_mut(),
        };
        // SAFETY: `model` is live; `flags` has `cycles` entries, the beats
        // `in_words` words each, and the outputs and probes room for
        // `cycles` sets, the sizes the shim uses.
        let ran = unsafe {
            (self.library.run)(
                self.model,
                cycles as u64,
                batch.flags.as_ptr(),
                self.batch_beats.as_ptr(),
                batch.beats.len() as u64,
                batch.holding as u32,
                self.batch_outputs.as_mut_ptr(),
                probe_ptr,
            )
        } as usize;
        let mut walk = batch.walk();
        let mut cycle = Cycle::default();
        for c in 0..ran {
            let inputs = batch.inputs(c, &mut walk);
            let words = &self.batch_outputs[c * out_words..(c + 1) * out_words];
            Self::decode_outputs(&self.output_at, self.lanes, words, &mut cycle.outputs);
            cycle.handshake(&inputs);
            if let Some(values) = probes.as_deref_mut() {
                let words = &self.batch_probes[c * probe_words..(c + 1) * probe_words];
                values.all_words_mut().copy_from_slice(words);
            }
            let flow = each(&inputs, &cycle, probes.as_deref(), None);
            batch.advance(&mut walk, &cycle);
            if flow.is_break() {
                return c + 1;
            }
        }
        ran
    }
}

impl<C: Core> Drop for Verilated<C> {
    fn drop(&mut self) {
        // SAFETY: `model` came from `model_new` and is freed once.
        unsafe { (self.library.free)(self.model) }
    }
}
