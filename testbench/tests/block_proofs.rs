//! Each shared block's contract is proven alone (`utf8hdl formal
//! --block`), and each invariant of it fails on a bug planted for it.

use std::path::Path;

use utf8hdl_synth::formal::blocks::{BlockProof, BLOCKS};
use utf8hdl_synth::formal::{self, Outcome};

/// A bug planted in a block's export: lines replaced, each found once.
struct Plant {
    block: &'static str,
    /// The bug, as a designer would make it.
    what: &'static str,
    /// Each line, and what replaces it (nothing, when empty); more than one
    /// where the bug is in every lane's copy of a block's state.
    edits: &'static [(&'static str, &'static str)],
    /// The assertion that must fail.
    caught_by: &'static str,
}

const PLANTS: &[Plant] = &[
    Plant {
        block: "skid_buffer",
        what: "ready stays high while a beat is held, so a second one is taken",
        edits: &[("            ready$d = 1'b0;", "            ready$d = 1'b1;")],
        caught_by: "ready_is_room",
    },
    Plant {
        block: "skid_buffer",
        what: "the held beat's payload is not captured",
        edits: &[("            buffered_tdata$d = s_axis_tdata;", "")],
        caught_by: "held_beat_first",
    },
    Plant {
        block: "skid_buffer",
        what: "with nothing held, the pipeline is offered a stale payload",
        edits: &[("            byte$tdata = s_axis_tdata;", "            byte$tdata = buffered_tdata$q;")],
        caught_by: "pass_through",
    },
    Plant {
        block: "skid_buffer",
        what: "a beat offered while the pipeline advances is held back",
        edits: &[("        if (advance) begin", "        if (advance & !s_axis_tvalid) begin")],
        caught_by: "full_rate",
    },
    Plant {
        block: "skid_buffer",
        what: "a reset does not empty the buffer",
        edits: &[("        if (rst) begin", "        if (1'b0) begin")],
        caught_by: "ready_is_room",
    },
    Plant {
        block: "axis_output_register",
        what: "the register loads while its beat is stalled",
        edits: &[
            ("        if (!tvalid$q | m_axis_tready) begin", "        if (1'b1) begin"),
            ("        tdata$advance = m_axis_tready;", "        tdata$advance = 1'b1;"),
        ],
        caught_by: "stall_holds_payload",
    },
    Plant {
        block: "axis_output_register",
        what: "tdata's byte loads while its beat is stalled",
        edits: &[("        tdata$advance = m_axis_tready;", "        tdata$advance = 1'b1;")],
        caught_by: "stall_holds_payload",
    },
    Plant {
        block: "axis_output_register",
        what: "a reset does not clear tdata's copy of tvalid",
        edits: &[("            tdata$valid$0$d = 1'b0;", "")],
        caught_by: "copy_is_tvalid",
    },
    Plant {
        block: "axis_output_register",
        what: "a reset does not empty the register",
        edits: &[("            tvalid$d = 1'b0;", "")],
        caught_by: "reset_clears_tvalid",
    },
    Plant {
        block: "axis_output_register",
        what: "s_axis_tready is high while the spare is in use",
        edits: &[("            s_axis_tready = !spare_valid$q;", "            s_axis_tready = 1'b1;")],
        caught_by: "ready_is_room",
    },
    Plant {
        block: "axis_output_register",
        what: "s_axis_tready_next misses the beat offered to an empty spare",
        edits: &[(
            "        s_axis_tready_next = rst | ~registered_ready | !tvalid$q | m_axis_tready | (!spare_valid$q & !s_axis_tvalid);",
            "        s_axis_tready_next = rst | ~registered_ready | !tvalid$q | m_axis_tready | !spare_valid$q;",
        )],
        caught_by: "ready_ahead",
    },
    Plant {
        block: "axis_output_register",
        what: "the spare beat is sent with the offered beat's tdata",
        edits: &[("            tdata$d = spare_tdata$q;", "")],
        caught_by: "oldest_first",
    },
    Plant {
        block: "axis_output_register",
        what: "an offered beat's tdata is not loaded",
        edits: &[("        tdata$d = s_axis_tdata;", "        tdata$d = 8'h0;")],
        caught_by: "oldest_first",
    },
    Plant {
        block: "axis_output_register",
        what: "a beat that left stays valid",
        edits: &[
            ("                tvalid$d = s_axis_tvalid;", "                tvalid$d = tvalid$q | s_axis_tvalid;"),
            (
                "        tdata$d_valid = spare_valid$q | s_axis_tvalid;",
                "        tdata$d_valid = tdata$valid$0$q | spare_valid$q | s_axis_tvalid;",
            ),
        ],
        caught_by: "valid_is_held",
    },
    Plant {
        block: "axis_output_register",
        what: "the spare is not emptied when its beat moves on",
        edits: &[("                spare_valid$d = 1'b0;", "")],
        caught_by: "spare_is_second",
    },
    Plant {
        block: "axis_output_register",
        what: "the spare's tdata is not captured",
        edits: &[("            spare_tdata$d = s_axis_tdata;", "")],
        caught_by: "spare_holds_second",
    },
    Plant {
        block: "axis_output_register_passing_ready",
        what: "the register loads while its beat is stalled",
        edits: &[("        if (!tvalid$q | m_axis_tready) begin", "        if (1'b1) begin")],
        caught_by: "stall_holds_payload",
    },
    Plant {
        block: "axis_output_register_passing_ready",
        what: "a reset does not clear tdata's copy of tvalid",
        edits: &[("            tdata$valid$0$d = 1'b0;", "")],
        caught_by: "copy_is_tvalid",
    },
    Plant {
        block: "axis_output_register_passing_ready",
        what: "s_axis_tready ignores the consumer",
        edits: &[("            s_axis_tready = !tvalid$q | m_axis_tready;", "            s_axis_tready = !tvalid$q;")],
        caught_by: "ready_is_room",
    },
    Plant {
        block: "axis_output_register_passing_ready",
        what: "an accepted beat's tdata is not loaded",
        edits: &[("        tdata$d = s_axis_tdata;", "        tdata$d = 8'h0;")],
        caught_by: "loads_offer",
    },
    Plant {
        block: "axis_output_register_passing_ready",
        what: "a beat that left stays valid",
        edits: &[
            ("                tvalid$d = s_axis_tvalid;", "                tvalid$d = tvalid$q | s_axis_tvalid;"),
            (
                "        tdata$d_valid = spare_valid$q | s_axis_tvalid;",
                "        tdata$d_valid = tdata$valid$0$q | spare_valid$q | s_axis_tvalid;",
            ),
        ],
        caught_by: "sent_once",
    },
    Plant {
        block: "axis_output_register_passing_ready",
        what: "the spare is used whatever the form",
        edits: &[(
            "        else if (registered_ready & !spare_valid$q) begin",
            "        else if (!spare_valid$q) begin",
        )],
        caught_by: "spare_unused",
    },
    Plant {
        block: "beat_fifo",
        what: "`returned` ignores whether a beat is on m_axis",
        edits: &[(
            "        returned = tvalid_out$0$q & m_axis_tready;",
            "        returned = m_axis_tready;",
        )],
        caught_by: "returned_is_handshake",
    },
    Plant {
        block: "beat_fifo",
        what: "lane 1's m_axis word is loaded from lane 0's memory",
        edits: &[(
            "            tdata_out$1$d = ram$read_tdata$1;",
            "            tdata_out$1$d = ram$read_tdata$0;",
        )],
        caught_by: "leaves_in_order",
    },
    Plant {
        block: "beat_fifo",
        what: "a fetch waits for the read register to empty, in every lane",
        edits: &[
            (
                "        fetch$0 = not_empty$0$q & (!fetched$0$q | output_free$0);",
                "        fetch$0 = not_empty$0$q & !fetched$0$q;",
            ),
            (
                "        fetch$1 = not_empty$1$q & (!fetched$1$q | output_free$1);",
                "        fetch$1 = not_empty$1$q & !fetched$1$q;",
            ),
        ],
        caught_by: "no_bubble",
    },
    Plant {
        block: "beat_fifo",
        what: "a fetch moves the read pointer back",
        edits: &[(
            "            read_pointer_ahead$d = read_pointer_ahead$q + 'h1;",
            "            read_pointer_ahead$d = read_pointer_ahead$q - 'h1;",
        )],
        caught_by: "count_is_pointers",
    },
    Plant {
        block: "beat_fifo",
        what: "a write moves the write pointer past the queue's size",
        edits: &[(
            "            write_pointer$d = write_pointer$q + 'h1;",
            "            write_pointer$d = write_pointer$q + 'h5;",
        )],
        caught_by: "within_size",
    },
    Plant {
        block: "beat_fifo",
        what: "a write into an empty RAM does not set `one_left`",
        edits: &[(
            "            one_left$d = !not_empty$0$q;",
            "            one_left$d = 1'b0;",
        )],
        caught_by: "flags_match_pointers",
    },
    Plant {
        block: "beat_fifo",
        what: "a reset sets the read pointer's second copy one too far",
        edits: &[(
            "            read_pointer_two_ahead$d = 'h2;",
            "            read_pointer_two_ahead$d = 'h3;",
        )],
        caught_by: "pointers_in_step",
    },
    Plant {
        block: "beat_fifo",
        what: "a reset sets lane 1's write address apart from lane 0's",
        edits: &[(
            "            write_address$1$d = 'h0;",
            "            write_address$1$d = 'h1;",
        )],
        caught_by: "lane_copies_agree",
    },
    Plant {
        block: "beat_fifo",
        what: "lane 1's memory stores lane 0's word",
        edits: &[(
            "            beats$1[ram$write_address$1] <= {ram$write_tkeep[1], ram$write_tuser[7:4], ram$write_tdata[63:32]};",
            "            beats$1[ram$write_address$1] <= {ram$write_tkeep[1], ram$write_tuser[7:4], ram$write_tdata[31:0]};",
        )],
        caught_by: "tracked_in_memory",
    },
    Plant {
        block: "beat_fifo",
        what: "lane 1's memory is read at the write address",
        edits: &[(
            "        if (ram$read_enable$1) {ram$read_tkeep$1, ram$read_tuser$1, ram$read_tdata$1} <= beats$1[ram$read_address$1];",
            "        if (ram$read_enable$1) {ram$read_tkeep$1, ram$read_tuser$1, ram$read_tdata$1} <= beats$1[ram$write_address$1];",
        )],
        caught_by: "tracked_in_read_register",
    },
    Plant {
        block: "beat_fifo",
        what: "lane 1's m_axis registers load while their beat is stalled",
        edits: &[(
            "        if (output_free$1 & fetched$1$q) begin",
            "        if (fetched$1$q) begin",
        )],
        caught_by: "stall_holds_payload",
    },
    Plant {
        block: "beat_fifo",
        what: "a reset does not clear m_axis_tvalid",
        edits: &[("            tvalid_out$0$d = 1'b0;", "")],
        caught_by: "reset_clears_tvalid",
    },
    Plant {
        block: "beat_fifo_passing",
        what: "a beat passes only into empty m_axis registers, not ones a beat leaves",
        edits: &[
            (
                "        passing$0 = write & !not_empty$0$q & !fetched$0$q & output_free$0;",
                "        passing$0 = write & !not_empty$0$q & !fetched$0$q & !tvalid_out$0$q;",
            ),
            (
                "        passing$1 = write & !not_empty$1$q & !fetched$1$q & output_free$1;",
                "        passing$1 = write & !not_empty$1$q & !fetched$1$q & !tvalid_out$1$q;",
            ),
        ],
        caught_by: "passes_when_empty",
    },
    Plant {
        block: "beat_fifo_passing",
        what: "a passing beat also moves the write pointer",
        edits: &[("            write_pointer$d = write_pointer$q;", "")],
        caught_by: "count_is_pointers",
    },
    Plant {
        block: "beat_fifo_passing",
        what: "lane 1's m_axis word is loaded from lane 0 of a passing beat",
        edits: &[(
            "            tdata_out$1$d = lane_tdata$1;",
            "            tdata_out$1$d = lane_tdata$0;",
        )],
        caught_by: "leaves_in_order",
    },
    Plant {
        block: "beat_credits",
        what: "an accepted beat leaves s_axis_tready high at one credit left",
        edits: &[(
            "        ready$d = leaves | fits_two;",
            "        ready$d = leaves | fits_one;",
        )],
        caught_by: "ready_only_with_room",
    },
    Plant {
        block: "beat_credits",
        what: "a reset leaves s_axis_tready low",
        edits: &[("            ready$d = 1'b1;", "            ready$d = 1'b0;")],
        caught_by: "ready_when_room",
    },
    Plant {
        block: "beat_credits",
        what: "a late drop is never counted",
        edits: &[("        late$d = dropped_late;", "        late$d = 1'b0;")],
        caught_by: "counts_in_flight",
    },
    Plant {
        block: "beat_credits",
        what: "s_axis_tready falls with one credit still free",
        edits: &[(
            "        fits_one = in_flight$q < limit;",
            "        fits_one = in_flight$q < limit_less_one;",
        )],
        caught_by: "ready_is_count",
    },
    Plant {
        block: "decoder_fsm",
        what: "a sequence broken by a continuing octet names the breaking byte's bound",
        edits: &[(
            "                        pre_error_tuser$d = outside_tuser$q;",
            "                        pre_error_tuser$d = classified$outside_tuser;",
        )],
        caught_by: "broken_sequence_is_one_error",
    },
    Plant {
        block: "decoder_fsm",
        what: "a byte's word loses its tlast",
        edits: &[(
            "            word_tlast$d = classified$last;",
            "            word_tlast$d = 1'b0;",
        )],
        caught_by: "unit_of_each_byte",
    },
    Plant {
        block: "decoder_fsm",
        what: "the profile's value mask is a bit short",
        edits: &[(
            "    localparam  value_mask = 'h1fffff;",
            "    localparam  value_mask = 'hfffff;",
        )],
        caught_by: "character_value",
    },
    Plant {
        block: "decoder_fsm",
        what: "a continuing octet that is not the last one due loses its free bits",
        edits: &[(
            "                gathered$d = ((gathered$q << 'h6) | free_bits_wide) & value_mask;",
            "                gathered$d = bytes_left$q['h1] ? (gathered$q << 'h6) & value_mask : ((gathered$q << 'h6) | free_bits_wide) & value_mask;",
        )],
        caught_by: "gathers_free_bits",
    },
    Plant {
        block: "decoder_fsm",
        what: "a continuing octet counts for two",
        edits: &[(
            "                bytes_left$d = bytes_left$q >> 'h1;",
            "                bytes_left$d = bytes_left$q >> 'h2;",
        )],
        caught_by: "bytes_left_is_owed",
    },
    Plant {
        block: "decoder_fsm",
        what: "a message that ends inside a sequence leaves it open",
        edits: &[("                    bytes_left$d = 'h0;", "")],
        caught_by: "closed_after_last",
    },
    Plant {
        block: "decoder_fsm",
        what: "`outside_tuser` is loaded from the wrong column",
        edits: &[(
            "                outside_tuser$d = classified$outside_tuser;",
            "                outside_tuser$d = classified$start_tuser;",
        )],
        caught_by: "outside_of_byte_before",
    },
    Plant {
        block: "lane_packer",
        what: "the move by 2 takes lane 1's data from the wrong lane",
        edits: &[(
            "            level2$1$data_in = level1$3$data;",
            "            level2$1$data_in = level1$2$data;",
        )],
        caught_by: "lanes_packed",
    },
    Plant {
        block: "lane_packer",
        what: "lane 5's packed keep is lane 4's",
        edits: &[(
            "        keep_out$5 = level3$5$keep & ~|level3$5$value;",
            "        keep_out$5 = level3$4$keep & ~|level3$4$value;",
        )],
        caught_by: "keep_packed",
    },
    Plant {
        block: "lane_packer",
        what: "the beat's null count skips a level, so it is the next beat's",
        edits: &[(
            "        nulls$2$d = nulls$1$q;",
            "        nulls$2$d = nulls$0$q;",
        )],
        caught_by: "nulls_counted",
    },
    Plant {
        block: "lane_packer",
        what: "a reset does not clear the beat at the skip count's second level",
        edits: &[(
            "        skips$beats$beat$1$d = skips$beats$beat$0$q & !skips$beats$rst;",
            "        skips$beats$beat$1$d = skips$beats$beat$0$q;",
        )],
        caught_by: "beat_in_order",
    },
    Plant {
        block: "bytewise_register",
        what: "a reset does not clear byte 1's copy of the flag",
        edits: &[("            valid$1$d = 1'b0;", "")],
        caught_by: "copies_are_flag",
    },
    Plant {
        block: "bytewise_register",
        what: "byte 1 loads only when the stage advances, not when it is empty",
        edits: &[("        loads$1 = !valid$1$q | advance;", "        loads$1 = advance;")],
        caught_by: "copies_are_flag",
    },
    Plant {
        block: "bytewise_register",
        what: "byte 1 loads the payload's byte 0",
        edits: &[(
            "            bytes$1$d = d[('h8 * 1)+:(8)];",
            "            bytes$1$d = d[('h8 * 0)+:(8)];",
        )],
        caught_by: "holds_loaded",
    },
    Plant {
        block: "pending_units",
        what: "a word is taken while its predecessor's last unit is stalled",
        edits: &[(
            "        take_ahead$d = !keep$0$d | (!keep$1$d & output_register$s_axis_tready_next);",
            "        take_ahead$d = !keep$0$d | !keep$1$d;",
        )],
        caught_by: "take_when_free",
    },
    Plant {
        block: "pending_units",
        what: "tlast goes with every unit of a message's last word",
        edits: &[(
            "        output_register$s_axis_tlast = last$q & !keep$1$q;",
            "        output_register$s_axis_tlast = last$q;",
        )],
        caught_by: "oldest_first",
    },
    Plant {
        block: "pending_units",
        what: "a word's third flag is set whatever its length",
        edits: &[("            keep$2$d = keep_in$2;", "            keep$2$d = 1'b1;")],
        caught_by: "keep_is_run",
    },
    Plant {
        block: "pending_units",
        what: "the first flag stays set when its unit leaves",
        edits: &[("            keep$0$d = keep$1$q;", "            keep$0$d = keep$0$q;")],
        caught_by: "counts_units",
    },
    Plant {
        block: "pending_units",
        what: "a reset does not clear the output register's copy of tvalid",
        edits: &[("            output_register$tdata$valid$0$d = 1'b0;", "")],
        caught_by: "copy_is_tvalid",
    },
    Plant {
        block: "pending_units",
        what: "the output register's spare loses a unit's flag",
        edits: &[("            output_register$spare_tuser$d = output_register$s_axis_tuser;", "")],
        caught_by: "spare_is_second",
    },
    Plant {
        block: "pending_units",
        what: "the first unit does not move down when it leaves",
        edits: &[("            units$0$d = units$1$q;", "            units$0$d = units$0$q;")],
        caught_by: "kept_are_next_0",
    },
    Plant {
        block: "pending_units",
        what: "a word's second unit is loaded from its first",
        edits: &[("            units$1$d = units_in$1;", "            units$1$d = units_in$0;")],
        caught_by: "kept_are_next_1",
    },
    Plant {
        block: "pending_units",
        what: "a word's third unit is loaded from its second",
        edits: &[("            units$2$d = units_in$2;", "            units$2$d = units_in$1;")],
        caught_by: "kept_are_next_2",
    },
];

/// The block's export with `plant`'s lines replaced, or why it cannot be.
fn planted(plant: &Plant) -> Result<String, String> {
    let block = BlockProof::named(plant.block).map_err(|e| e.to_string())?;
    let mut verilog = (block.verilog)().map_err(|e| e.to_string())?;
    for (line, replaced_by) in plant.edits {
        let sites = verilog.lines().filter(|l| l == line).count();
        if sites != 1 {
            return Err(format!(
                "'{line}' is on {sites} lines of the {} export, not one: update the plant to the export",
                plant.block
            ));
        }
        let replacement = if replaced_by.is_empty() {
            String::new()
        } else {
            format!("{replaced_by}\n")
        };
        verilog = verilog.replacen(&format!("{line}\n"), &replacement, 1);
    }
    Ok(verilog)
}

/// Every plant still finds its one line in today's export, and every
/// invariant of every property file has a plant, in one of the blocks
/// that the file serves.
#[test]
fn every_plant_finds_its_line_and_every_invariant_has_one() {
    for plant in PLANTS {
        planted(plant).unwrap();
    }
    let file_of = |block: &str| BlockProof::named(block).unwrap().properties.name;
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
                    .any(|p| file_of(p.block) == block.properties.name && p.caught_by == label),
                "{}'s invariant {label} has no planted bug",
                block.properties.name
            );
        }
    }
}

/// Every name that a block's property file binds is in today's export,
/// and one renamed in the block is an error naming it: a proof never reads
/// a register that is no longer there.
#[test]
fn bound_names_exist_and_a_renamed_one_is_a_clear_error() {
    for block in &BLOCKS {
        block.files(None).unwrap();
    }
    let block = BlockProof::named("beat_fifo").unwrap();
    let renamed = (block.verilog)()
        .unwrap()
        .replace("write_pointer$", "write_count$");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("beat_fifo.v");
    std::fs::write(&file, renamed).unwrap();
    let err = block.files(Some(&file)).unwrap_err().to_string();
    assert!(err.contains("binds `write_pointer$q`"), "{err}");
}

/// The guide's chapter and the CLI's reference name every block that
/// `--block` proves.
#[test]
fn every_block_is_in_the_guide() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let chapter = std::fs::read_to_string(root.join("docs/09-formal.md")).unwrap();
    let cli = std::fs::read_to_string(root.join("docs/cli.md")).unwrap();
    for block in &BLOCKS {
        assert!(
            chapter.contains(&format!("formal --block {} ", block.name)),
            "docs/09-formal.md §9.9 does not show `formal --block {}`",
            block.name
        );
        assert!(
            cli.lines()
                .any(|l| l.contains("formal --block") && l.contains(block.name)),
            "docs/cli.md does not list the block {}",
            block.name
        );
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
