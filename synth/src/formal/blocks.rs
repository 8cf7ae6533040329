//! # The blocks' contracts, each proven alone
//!
//! A core's proof sees only its ports; the blocks that the cores are built
//! from (the skid buffer that makes `s_axis_tready` a flop, the register
//! that makes every `m_axis_*` output one, the encoders' queue of units,
//! the wide core's queue, credit count and packer, the 1-lane decoder's
//! FSM) are proven here on theirs, each exported alone as a module of its
//! own name. A block's property
//! file (`hdl/formal/blocks/<block>_properties.v`) states the invariants
//! of its datasheet (its doc comment) as assertions, with a shadow of what
//! the block holds, kept from its ports, and proves them for all time by
//! k-induction (smtbmc, `mode prove`): the depth is the induction's `k`,
//! and a block's proof takes seconds, whatever core it sits in. What the
//! induction needs beyond the ports is stated on the block's registers,
//! bound by their exported names ([`bind`](super::bind)), each looked up
//! in the block's Verilog before the proof runs.
//!
//! `utf8hdl formal --block NAME` runs one; `--verilog FILE` proves a file
//! of the user's instead (its top module named as the block), which is how
//! the tests show that each invariant fails on a planted bug.

use std::path::Path;

use anyhow::{bail, Context, Result};
use rust_hdl::prelude::*;
use utf8hdl_hdl::stream::{AxisOutputRegister, BytewiseRegister, PendingUnits, SkidBuffer};
use utf8hdl_hdl::utf8_decoder::fsm::DecoderFsm;
use utf8hdl_hdl::utf8_decoder_wide::packing::LanePacker;
use utf8hdl_hdl::utf8_decoder_wide::queue::{BeatCredits, BeatFifo};
use utf8hdl_hdl::Profile;
use utf8hdl_sim::cores::formal::Source;
use utf8hdl_sim::formal_source;

use super::bind::bind_internals;
use super::{declares_module, failed, report, Outcome, Tools};
use crate::verilog::export;

const TEMPLATE: &str = include_str!("../../../hdl/formal/block.sby.in");
/// What every block proof reads beside its property file, each by its
/// file name alone: the AXI4-Stream rules, and the start of a proof of a
/// block with an `m_axis` (its reset, the rules on `m_axis`), which such a
/// property file includes.
pub const SHARED: [Source; 2] = [
    formal_source!("faxis_master.v"),
    formal_source!("blocks/fblock_m_axis.vh"),
];

/// The name under which a shared source is written beside a proof: its
/// file name, without its folder in `hdl/formal/`.
fn file_name(source: &Source) -> &'static str {
    source.name.rsplit('/').next().unwrap_or(source.name)
}

/// One block's proof.
pub struct BlockProof {
    /// Its module in the proof, and its name for `--block`.
    pub name: &'static str,
    /// The instance that is proven, for the report.
    pub instance: &'static str,
    /// Its property file, whose top module is `<name>_properties`.
    pub properties: Source,
    /// The Verilog macros its proof defines: a property file that serves
    /// two forms of a block tells them apart by one.
    pub defines: &'static [&'static str],
    /// The induction's depth: cycles of history that the invariants need.
    pub depth: u32,
    /// The block, exported alone as the module [`BlockProof::name`].
    pub verilog: fn() -> Result<String>,
}

/// `text` as a proof with `defines` reads it: the lines of each
/// `` `ifdef``/`` `ifndef`` branch not taken dropped, and the directives
/// themselves, so that the names bound are the proof's own.
fn preprocessed(text: &str, defines: &[&str]) -> String {
    // One entry an open `ifdef: whether its lines are read, and whether
    // the lines around it are.
    let mut open: Vec<(bool, bool)> = Vec::new();
    let mut out = String::new();
    for line in text.lines() {
        let reading = open.last().is_none_or(|&(taken, _)| taken);
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("`ifdef"), Some(name)) => {
                open.push((reading && defines.contains(&name), reading))
            }
            (Some("`ifndef"), Some(name)) => {
                open.push((reading && !defines.contains(&name), reading))
            }
            (Some("`else"), _) => {
                if let Some((taken, outer)) = open.pop() {
                    open.push((outer && !taken, outer));
                }
            }
            (Some("`endif"), _) => {
                open.pop();
            }
            _ if reading => {
                out.push_str(line);
                out.push('\n');
            }
            _ => {}
        }
    }
    out
}

/// `block`, connected and exported as the module `name`.
fn alone<B: Block>(mut block: B, name: &str) -> Result<String> {
    block.connect_all();
    export(&block, name)
}

/// Every block with a proof of its own.
pub const BLOCKS: [BlockProof; 10] = [
    BlockProof {
        name: "skid_buffer",
        instance: "SkidBuffer<8>",
        properties: formal_source!("blocks/skid_buffer_properties.v"),
        defines: &[],
        depth: 6,
        verilog: || alone(SkidBuffer::<8>::default(), "skid_buffer"),
    },
    BlockProof {
        name: "axis_output_register",
        instance: "AxisOutputRegister<8, 2>",
        properties: formal_source!("blocks/axis_output_register_properties.v"),
        defines: &[],
        depth: 6,
        verilog: || {
            alone(
                AxisOutputRegister::<8, 2>::default(),
                "axis_output_register",
            )
        },
    },
    BlockProof {
        name: "axis_output_register_passing_ready",
        instance: "AxisOutputRegister<8, 2>::passing_ready()",
        properties: formal_source!("blocks/axis_output_register_passing_ready_properties.v"),
        defines: &[],
        depth: 6,
        verilog: || {
            alone(
                AxisOutputRegister::<8, 2>::passing_ready(),
                "axis_output_register_passing_ready",
            )
        },
    },
    BlockProof {
        name: "bytewise_register",
        instance: "BytewiseRegister<16>",
        properties: formal_source!("blocks/bytewise_register_properties.v"),
        defines: &[],
        depth: 4,
        verilog: || alone(BytewiseRegister::<16>::default(), "bytewise_register"),
    },
    BlockProof {
        name: "pending_units",
        instance: "PendingUnits<8, 3>",
        properties: formal_source!("blocks/pending_units_properties.v"),
        defines: &[],
        depth: 6,
        verilog: || alone(PendingUnits::<8, 3>::default(), "pending_units"),
    },
    BlockProof {
        name: "beat_fifo",
        instance: "BeatFifo<2, 32, 4, 64, 8, 2>",
        properties: formal_source!("blocks/beat_fifo_properties.v"),
        defines: &[],
        depth: 6,
        verilog: || alone(BeatFifo::<2, 32, 4, 64, 8, 2>::default(), "beat_fifo"),
    },
    BlockProof {
        name: "beat_fifo_passing",
        instance: "BeatFifo<2, 32, 4, 64, 8, 2>::passing_when_empty()",
        properties: formal_source!("blocks/beat_fifo_properties.v"),
        defines: &["PASSING_WHEN_EMPTY"],
        depth: 6,
        verilog: || {
            alone(
                BeatFifo::<2, 32, 4, 64, 8, 2>::passing_when_empty(),
                "beat_fifo_passing",
            )
        },
    },
    BlockProof {
        name: "beat_credits",
        instance: "BeatCredits<2>",
        properties: formal_source!("blocks/beat_credits_properties.v"),
        defines: &[],
        depth: 6,
        verilog: || alone(BeatCredits::<2>::default(), "beat_credits"),
    },
    BlockProof {
        name: "decoder_fsm",
        instance: "DecoderFsm (rfc3629)",
        properties: formal_source!("blocks/decoder_fsm_properties.v"),
        defines: &[],
        depth: 6,
        verilog: || alone(DecoderFsm::new(Profile::Rfc3629), "decoder_fsm"),
    },
    BlockProof {
        name: "lane_packer",
        instance: "LanePacker<8, 8>",
        properties: formal_source!("blocks/lane_packer_properties.v"),
        defines: &[],
        depth: 8,
        verilog: || alone(LanePacker::<8, 8>::default(), "lane_packer"),
    },
];

impl BlockProof {
    /// The block whose `--block` name is `name`.
    pub fn named(name: &str) -> Result<&'static BlockProof> {
        BLOCKS.iter().find(|b| b.name == name).with_context(|| {
            let names: Vec<_> = BLOCKS.iter().map(|b| b.name).collect();
            format!("no block '{name}' (blocks: {})", names.join(", "))
        })
    }

    /// The top module of its property file.
    fn properties_top(&self) -> String {
        format!("{}_properties", self.name)
    }

    /// Its sby file, from the template.
    fn sby(&self) -> String {
        let shared: Vec<&str> = SHARED.iter().map(file_name).collect();
        let defines = match self.defines {
            [] => String::new(),
            defines => format!("read -define {}\n", defines.join(" ")),
        };
        TEMPLATE
            .replace("{block}", self.name)
            .replace("{instance}", self.instance)
            .replace("{properties}", &self.properties_top())
            .replace("{depth}", &self.depth.to_string())
            .replace("{defines}", &defines)
            .replace("{shared}", &shared.join("\n"))
    }

    /// The files of its proof, by name: the block's Verilog (`verilog`, or
    /// its export), the sby file and the sources it reads.
    pub fn files(&self, verilog: Option<&Path>) -> Result<Vec<(String, String)>> {
        let block = match verilog {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                if !declares_module(&text, self.name) {
                    bail!("{} has no module {}", path.display(), self.name);
                }
                text
            }
            None => (self.verilog)()?,
        };
        // `read -formal` defines FORMAL.
        let defines: Vec<&str> = ["FORMAL"].iter().chain(self.defines).copied().collect();
        let properties = preprocessed(self.properties.text, &defines);
        let block = bind_internals(&block, self.name, &properties)?;
        let shared = SHARED
            .iter()
            .map(|source| (file_name(source).to_string(), source.text.to_string()));
        Ok([
            (format!("{}.v", self.name), block),
            (format!("{}.sby", self.name), self.sby()),
            (
                format!("{}.v", self.properties_top()),
                self.properties.text.to_string(),
            ),
        ]
        .into_iter()
        .chain(shared)
        .collect())
    }

    /// Proves its contract, on `verilog` or its export; a counterexample's
    /// VCD goes to `dir`. An `Err` is a usage or tool error, not a failed
    /// property.
    pub fn prove(&self, verilog: Option<&Path>, dir: &Path) -> Result<Outcome> {
        let files = self.files(verilog)?;
        let tools = Tools::find()?;
        if !dir.is_dir() {
            bail!("{} is not a directory", dir.display());
        }
        let work = utf8hdl_sim::output::ScratchDir::new("utf8hdl-formal-")
            .context("creating a work directory")?;
        for (name, text) in files {
            std::fs::write(work.path().join(name), text)?;
        }
        let log = tools.sby(&format!("{}.sby", self.name), work.path(), "prove")?;
        let status = report::sby_status(&log).ok_or_else(|| report::sby_error("prove", &log))?;
        Ok(match status {
            "PASS" => Outcome::Proven,
            "FAIL" => failed(
                report::failed_assertions(&log),
                report::counterexample(&log),
                work.path(),
                dir,
                &format!("formal-{}.vcd", self.name.replace('_', "-")),
            )?,
            status => Outcome::Unknown {
                status: status.to_lowercase(),
            },
        })
    }
}
