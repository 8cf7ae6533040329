//! Each shared block's contract is proven alone (`utf8hdl formal
//! --block`), and each invariant of it fails on a bug planted for it.

use std::path::Path;

use utf8hdl_synth::formal::blocks::{BlockProof, BLOCKS};
use utf8hdl_synth::formal::{self, Outcome};

/// A bug planted in a block's export: one line replaced.
struct Plant {
    block: &'static str,
    /// The bug, as a designer would make it.
    what: &'static str,
    line: &'static str,
    replaced_by: &'static str,
    /// The assertion that must fail.
    caught_by: &'static str,
}

const PLANTS: &[Plant] = &[
    Plant {
        block: "skid_buffer",
        what: "ready stays high while a beat is held, so a second one is taken",
        line: "            ready$d = 1'b0;",
        replaced_by: "            ready$d = 1'b1;",
        caught_by: "ready_is_room",
    },
    Plant {
        block: "skid_buffer",
        what: "the held beat's payload is not captured",
        line: "            buffered_tdata$d = s_axis_tdata;",
        replaced_by: "",
        caught_by: "held_beat_first",
    },
    Plant {
        block: "skid_buffer",
        what: "with nothing held, the pipeline is offered a stale payload",
        line: "            byte$tdata = s_axis_tdata;",
        replaced_by: "            byte$tdata = buffered_tdata$q;",
        caught_by: "pass_through",
    },
    Plant {
        block: "skid_buffer",
        what: "a beat offered while the pipeline advances is held back",
        line: "        if (advance) begin",
        replaced_by: "        if (advance & !s_axis_tvalid) begin",
        caught_by: "full_rate",
    },
    Plant {
        block: "skid_buffer",
        what: "a reset does not empty the buffer",
        line: "        if (rst) begin",
        replaced_by: "        if (1'b0) begin",
        caught_by: "ready_is_room",
    },
    Plant {
        block: "axis_output_register",
        what: "the register loads while its beat is stalled",
        line: "        if (!tvalid$q | m_axis_tready) begin",
        replaced_by: "        if (1'b1) begin",
        caught_by: "stall_holds_payload",
    },
    Plant {
        block: "axis_output_register",
        what: "a reset does not empty the register",
        line: "            tvalid$d = 1'b0;",
        replaced_by: "            tvalid$d = s_axis_tvalid;",
        caught_by: "reset_clears_tvalid",
    },
    Plant {
        block: "axis_output_register",
        what: "s_axis_tready ignores the consumer",
        line: "        s_axis_tready = !tvalid$q | m_axis_tready;",
        replaced_by: "        s_axis_tready = !tvalid$q;",
        caught_by: "ready_is_room",
    },
    Plant {
        block: "axis_output_register",
        what: "an accepted beat's tdata is not loaded",
        line: "            tdata$d = s_axis_tdata;",
        replaced_by: "",
        caught_by: "loads_offer",
    },
    Plant {
        block: "axis_output_register",
        what: "a beat that left stays valid",
        line: "            tvalid$d = s_axis_tvalid;",
        replaced_by: "            tvalid$d = tvalid$q | s_axis_tvalid;",
        caught_by: "sent_once",
    },
];

/// The block's export with `plant`'s line replaced, or why it cannot be.
fn planted(plant: &Plant) -> Result<String, String> {
    let block = BlockProof::named(plant.block).map_err(|e| e.to_string())?;
    let verilog = (block.verilog)().map_err(|e| e.to_string())?;
    let sites = verilog.lines().filter(|l| *l == plant.line).count();
    if sites != 1 {
        return Err(format!(
            "'{}' is on {sites} lines of the {} export, not one: update the plant to the export",
            plant.line, plant.block
        ));
    }
    Ok(verilog.replacen(&format!("{}\n", plant.line), &plant.replaced_by_line(), 1))
}

impl Plant {
    fn replaced_by_line(&self) -> String {
        if self.replaced_by.is_empty() {
            String::new()
        } else {
            format!("{}\n", self.replaced_by)
        }
    }
}

/// Every plant still finds its one line in today's export, and every
/// invariant of every block has a plant.
#[test]
fn every_plant_finds_its_line_and_every_invariant_has_one() {
    for plant in PLANTS {
        planted(plant).unwrap();
    }
    for block in &BLOCKS {
        let text = block.properties.text;
        let labels = text
            .lines()
            .filter_map(|l| l.trim_start().split_once(": assert"))
            .map(|(before, _)| before.rsplit(' ').next().unwrap().trim());
        for label in labels {
            assert!(
                PLANTS
                    .iter()
                    .any(|p| p.block == block.name && p.caught_by == label),
                "{}'s invariant {label} has no planted bug",
                block.name
            );
        }
    }
}

#[test]
#[ignore = "slow: SymbiYosys proofs of each shared block"]
fn every_block_contract_is_proven() {
    if !formal::require_tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for block in &BLOCKS {
        let outcome = block.prove(None, dir.path()).unwrap();
        assert!(
            matches!(outcome, Outcome::Proven),
            "{}: {outcome}",
            block.name
        );
    }
}

#[test]
#[ignore = "slow: SymbiYosys on each planted bug of the shared blocks"]
fn each_planted_bug_fails_its_invariant() {
    if !formal::require_tools() {
        return;
    }
    for plant in PLANTS {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(format!("{}.v", plant.block));
        std::fs::write(&file, planted(plant).unwrap()).unwrap();
        let block = BlockProof::named(plant.block).unwrap();
        let outcome = block.prove(Some(&file), dir.path()).unwrap();
        match &outcome {
            Outcome::Failed { what, .. } => assert!(
                what.iter().any(|w| w.contains(plant.caught_by)),
                "{} ({}): failed {what:?}, not {}",
                plant.block,
                plant.what,
                plant.caught_by
            ),
            other => panic!(
                "{} ({}): {other}, where {} should fail",
                plant.block, plant.what, plant.caught_by
            ),
        }
        assert!(Path::new(&file).exists());
    }
}
