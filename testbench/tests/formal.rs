//! The formal proofs (`utf8hdl formal`, [`utf8hdl_synth::formal`]) for both
//! profiles, and mutants of the exported Verilog that each must fail, named
//! by the property that catches them.
//!
//! Each mutant is a small text edit on the exported Verilog. The test first
//! asserts that the edit applied (exactly one site found, the text changed),
//! so a change to the export makes it fail loudly instead of proving the
//! unchanged core and passing vacuously. Where it can, a mutant finds its
//! site from a top port (following the assignments back to the flop that
//! drives it), which survives renames inside the core; the others name the
//! constant they change by the suffix of its name.

use std::path::Path;

use utf8hdl_hdl::Profile;
use utf8hdl_sim::core::Core;
use utf8hdl_sim::cores::utf8_validator::Validator;
use utf8hdl_sim::cores::Kind;
use utf8hdl_synth::formal::{self, Check, Method, Options, Outcome};
use utf8hdl_synth::verilog;

/// The checks of the plan of the `lanes`-lane core of `kind`.
fn checks(kind: Kind, lanes: usize) -> &'static [Check] {
    kind.formal(lanes).checks
}

/// The outcome of each of `checks` on the `lanes`-lane core of `kind`, for
/// `profile`, on its exported Verilog or on `verilog_file`, by property
/// name.
fn prove(
    kind: Kind,
    profile: Profile,
    lanes: usize,
    verilog_file: Option<&Path>,
    checks: Vec<Check>,
    dir: &Path,
) -> Vec<(String, Outcome)> {
    let options = Options {
        profile,
        verilog: verilog_file.map(Path::to_path_buf),
        depth: formal::DEFAULT_DEPTH,
        covers: false,
        dir: dir.to_path_buf(),
        checks,
        jobs: utf8hdl_synth::parallel::cores(),
    };
    let mut outcomes = Vec::new();
    formal::run(kind, lanes, &options, |check, ran| {
        eprintln!(
            "{kind} {profile} x{lanes} {}: {} ({:.0} s)",
            check.property, ran.outcome, ran.seconds
        );
        outcomes.push((check.property.to_string(), ran.outcome.clone()));
    })
    .unwrap_or_else(|e| panic!("utf8hdl formal --core {kind} could not run: {e:#}"));
    outcomes
}

/// The one check of `checks` that `is_it` picks; `what` names it when
/// there is no single one.
fn the_check(checks: &[Check], what: &str, is_it: impl Fn(&Check) -> bool) -> Vec<Check> {
    let chosen: Vec<Check> = checks.iter().copied().filter(|c| is_it(c)).collect();
    assert_eq!(chosen.len(), 1, "no single check {what}");
    chosen
}

/// The one check of `checks` that runs the sby task `task`.
fn of_task(checks: &[Check], task: &str) -> Vec<Check> {
    the_check(checks, &format!("runs the task {task}"), |c| c.task == task)
}

/// `mutated`, the Verilog `original` of `core` with a bug planted, fails
/// the check of `task`, `assertion` among what failed; whether its
/// counterexample came with a trace (`None`: no tools).
#[track_caller]
fn mutant_fails<C: Core>(
    core: &C,
    original: &str,
    mutated: &str,
    task: &str,
    assertion: &str,
) -> Option<bool> {
    assert_ne!(mutated, original, "the mutant changed nothing");
    let lanes = core.lanes().unwrap().count;
    let check = of_task(checks(C::KIND, lanes), task);
    let (what, traced) =
        planted_bug_failures(C::KIND, core.profile(), lanes, &core.name(), mutated, check)?;
    assert!(
        what.iter().any(|w| w == assertion),
        "the mutant failed {what:?}, not {assertion}"
    );
    Some(traced)
}

/// What `check` (one) found failed on `mutated`, the Verilog of `top`, the
/// `lanes`-lane core of `kind` with a bug planted, and whether its
/// counterexample came with a trace (checked to be a VCD); `None`: no
/// tools. A proof that passes fails the test.
#[track_caller]
fn planted_bug_failures(
    kind: Kind,
    profile: Profile,
    lanes: usize,
    top: &str,
    mutated: &str,
    check: Vec<Check>,
) -> Option<(Vec<String>, bool)> {
    if !formal::require_tools() {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(format!("{top}.v"));
    std::fs::write(&file, mutated).unwrap();
    let property = check[0].property;
    let outcomes = prove(kind, profile, lanes, Some(&file), check, dir.path());
    match &outcomes[0].1 {
        Outcome::Failed { what, trace } => {
            if let Some(trace) = trace {
                let vcd = std::fs::read_to_string(trace).unwrap();
                assert!(
                    vcd.contains("$enddefinitions"),
                    "{} is not a VCD",
                    trace.display()
                );
            }
            Some((what.clone(), trace.is_some()))
        }
        other => panic!("the planted bug in {top} was not caught by {property}: {other}"),
    }
}

fn every_property_holds(profile: Profile, covers: usize) {
    every_property_holds_for(Kind::Decoder, profile, 1, checks(Kind::Decoder, 1), covers);
}

/// Each of `checks` passes on the `lanes`-lane core of `kind`: proven,
/// passed by BMC to the default depth at least, or `covers` covers reached.
fn every_property_holds_for(
    kind: Kind,
    profile: Profile,
    lanes: usize,
    checks: &[Check],
    covers: usize,
) {
    if !formal::require_tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let outcomes = prove(kind, profile, lanes, None, checks.to_vec(), dir.path());
    assert_eq!(outcomes.len(), checks.len());
    for (check, (property, outcome)) in checks.iter().zip(&outcomes) {
        match check.method {
            Method::Prove | Method::Induct => {
                assert_eq!(outcome, &Outcome::Proven, "{property}")
            }
            // The default depth, or more for a wide core: its latency
            // and a few beats past it.
            Method::Bmc => assert!(
                matches!(outcome, Outcome::PassedBmc { depth } if *depth >= formal::DEFAULT_DEPTH),
                "{property}: {outcome}"
            ),
            Method::Cover => match outcome {
                Outcome::Covered {
                    covers: reached, ..
                } => {
                    assert_eq!(reached.len(), covers, "{property}: {reached:?}")
                }
                other => panic!("{property}: {other}"),
            },
        }
    }
    // Nothing written where the traces would go when all pass.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
#[ignore = "slow: SymbiYosys proofs of every property of the 1-lane decoder, rfc3629"]
fn rfc3629_every_property_holds() {
    // Six error kinds, C2 41, a stall, a reset in a sequence.
    every_property_holds(Profile::Rfc3629, 9);
}

#[test]
#[ignore = "slow: SymbiYosys proofs of every property of the 1-lane decoder, iso10646"]
fn iso10646_every_property_holds() {
    // No out_of_range in iso10646.
    every_property_holds(Profile::Iso10646, 8);
}

/// The one line of `text` that satisfies `is_site`, or `None` when there
/// is none or more than one.
fn only_line(text: &str, is_site: impl Fn(&str) -> bool) -> Option<&str> {
    let mut sites = text.lines().filter(|l| is_site(l));
    let site = sites.next()?;
    sites.next().is_none().then_some(site)
}

/// A localparam whose name ends with `suffix`: `(line, width, value)` of
/// `localparam [4:0] decoder$second_80_9f = 5'hf;`.
fn localparam<'a>(text: &'a str, suffix: &str) -> Option<(&'a str, &'a str, &'a str)> {
    let line = only_line(text, |l| {
        l.trim_start().starts_with("localparam") && l.contains(&format!("{suffix} ="))
    })?;
    let (width, value) = line
        .split_once('=')?
        .1
        .trim()
        .trim_end_matches(';')
        .split_once("'h")?;
    Some((line, width, value))
}

/// Allows every continuation range after the lead `lead`: in the
/// decoder's case arm `ByteClass$<lead>:`, the one assignment to the
/// one-hot mask `*$allowed$d` is set to all five ranges.
fn allow_every_second_octet(text: &str, lead: &str) -> Option<String> {
    let arm = format!("ByteClass${lead}:");
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| l.trim() == arm)?;
    let site = lines[start + 1..]
        .iter()
        .take_while(|l| !l.trim().starts_with("ByteClass$"))
        .find(|l| l.contains("$second_allowed = "))?;
    let (target, value) = site.trim().strip_suffix(';')?.split_once(" = ")?;
    (value != "'h1f").then(|| {
        text.replacen(
            site,
            &site.replace(
                &format!("{target} = {value};"),
                &format!("{target} = 'h1f;"),
            ),
            1,
        )
    })
}

/// The right-hand side of the one assignment `name = rhs;`.
fn driver<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let prefix = format!("{name} = ");
    let line = only_line(text, |l| l.trim_start().starts_with(&prefix))?;
    line.trim().strip_prefix(&prefix)?.strip_suffix(';')
}

/// The flop (`x$q`) that drives the top port `port`, through plain
/// assignments.
fn flop_driving<'a>(text: &'a str, port: &str) -> Option<&'a str> {
    let mut signal = driver(text, port)?;
    for _ in 0..8 {
        if signal.ends_with("$q") {
            return Some(signal);
        }
        signal = driver(text, signal)?;
    }
    None
}

struct Mutant {
    name: &'static str,
    /// The RTL construct it changes.
    targets: &'static str,
    apply: fn(&str) -> Option<String>,
    /// The property that must catch it, and the assertions that may fail
    /// (abc pdr reports the first one it disproves).
    property: &'static str,
    assertions: &'static [&'static str],
}

const ED_BOUND_WIDENED: Mutant = Mutant {
    name: "ED bound widened",
    targets: "the lead table's allowed second-byte mask after ED (80-9F, in its \
              `ByteClass$LeadED` case arm) set to every continuation range: \
              ED A0 80 decodes to U+D800",
    apply: |v| allow_every_second_octet(v, "LeadED"),
    property: "P4 no unflagged error",
    assertions: &["p4_character_not_surrogate"],
};

const F4_BOUND_WIDENED: Mutant = Mutant {
    name: "F4 bound widened",
    targets: "the lead table's allowed second-byte mask after F4 (80-8F, in its \
              `ByteClass$LeadF4` case arm) set to every continuation range: \
              F4 90 80 80 decodes to U+110000",
    apply: |v| allow_every_second_octet(v, "LeadF4"),
    property: "P4 no unflagged error",
    assertions: &["p4_character_in_range"],
};

const KINDS_SWAPPED: Mutant = Mutant {
    name: "overlong and surrogate kind codes swapped",
    targets: "the decoder's TUSER constants `*tuser_overlong` and `*tuser_surrogate` \
              exchange values: every word stays a flagged U+FFFD, with the wrong kind",
    apply: |v| {
        let (overlong, _, overlong_value) = localparam(v, "tuser_overlong")?;
        let (surrogate, _, surrogate_value) = localparam(v, "tuser_surrogate")?;
        let swapped = |line: &str, from: &str, to: &str| {
            line.replace(&format!("'h{from};"), &format!("'h{to};"))
        };
        Some(
            v.replace(
                overlong,
                &swapped(overlong, overlong_value, surrogate_value),
            )
            .replace(
                surrogate,
                &swapped(surrogate, surrogate_value, overlong_value),
            ),
        )
    },
    property: "P6 equals the spec model, m_axis_tready high",
    assertions: &["p6_tuser_matches_model"],
};

const STALL_DROPS_TVALID: Mutant = Mutant {
    name: "a stall drops tvalid",
    targets: "the flop that drives m_axis_tvalid (found from the port) loads 0 instead \
              of holding when it is not loaded: a stalled word's tvalid drops",
    apply: |v| {
        let q = flop_driving(v, "m_axis_tvalid")?;
        let d = format!("{}$d", q.strip_suffix("$q")?);
        let hold = only_line(v, |l| l.trim() == format!("{d} = {q};"))?;
        Some(v.replace(hold, &hold.replace(&format!("= {q};"), "= 1'b0;")))
    },
    property: "P2 m_axis keeps the AXI4-Stream rules",
    assertions: &["stall_holds_payload"],
};

const TLAST_LOST: Mutant = Mutant {
    name: "a lost tlast",
    targets: "the assignment to the port m_axis_tlast is masked by the error flag that \
              drives m_axis_tuser[0]: a message that ends in an error word loses its tlast",
    apply: |v| {
        let tlast = driver(v, "m_axis_tlast")?;
        let tuser = driver(v, "m_axis_tuser")?;
        let line = only_line(v, |l| l.trim() == format!("m_axis_tlast = {tlast};"))?;
        Some(v.replace(
            line,
            &line.replace(&format!("= {tlast};"), &format!("= {tlast} & ~{tuser}[0];")),
        ))
    },
    property: "P5 message framing",
    // Every P5 assertion sees it: which one abc pdr reports first varies.
    assertions: &[
        "p5_tlast_follows_input",
        "p5_tlast_in_flight_bounded",
        "p5_tlast_catches_up",
    ],
};

const ERROR_AFTER_LAST: Mutant = Mutant {
    name: "a U+FFFD after every tlast",
    targets: "the FSM's test for an open sequence to break (`bytes_left` bit 0, before \
              `pre_error_valid` is set) also passes on a byte with tlast: a one-byte \
              message gives two units",
    apply: |v| {
        let open = "if (decoder$bytes_left$q['h0]) begin";
        let line = only_line(v, |l| l.trim() == open)?;
        Some(v.replace(
            line,
            &line.replace(
                "decoder$bytes_left$q['h0]",
                "decoder$bytes_left$q['h0] | decoder$classified$last",
            ),
        ))
    },
    property: "P5 no more units than bytes, per message",
    // The induction fails on one of its invariants, or on the property;
    // the trace's BMC on the first to break.
    assertions: &[
        "p5_units_not_more_than_bytes",
        "p5_units_credit_covers_due",
        "p5_units_error_alone",
    ],
};

/// Slow tests, one a mutant: `$test` sees a proof of the `$lanes`-lane
/// decoder with `$mutant` applied fail ([`mutant_fails_for`]).
macro_rules! mutant_tests {
    ($($test:ident: $mutant:ident at $lanes:literal,)*) => {$(
        #[test]
        #[ignore = "slow: SymbiYosys on a mutant of a decoder"]
        fn $test() {
            mutant_fails_for(&$mutant, $lanes);
        }
    )*};
}

/// `mutant` applied to the `lanes`-lane core (1: the 1-lane one) fails.
fn mutant_fails_for(mutant: &Mutant, lanes: usize) {
    let profile = Profile::Rfc3629;
    let core = || -> anyhow::Result<(String, String)> {
        Ok(utf8hdl_sim::with_core!(lanes, profile, |core| (
            verilog::core_verilog(&core)?,
            core.name()
        )))
    };
    let (original, top) = core().unwrap();
    let mutated = (mutant.apply)(&original).unwrap_or_else(|| {
        panic!(
            "mutant '{}' found no single site in the exported Verilog; it targets {}: \
             update the mutant to the new export",
            mutant.name, mutant.targets
        )
    });
    assert_ne!(
        mutated, original,
        "mutant '{}' changed nothing",
        mutant.name
    );
    // Only the check that must catch it: `utf8hdl formal` runs them all,
    // the others cost time here and prove nothing more.
    let check = the_check(
        checks(Kind::Decoder, lanes),
        &format!("is named {}", mutant.property),
        |c| c.property == mutant.property,
    );
    let Some((what, traced)) =
        planted_bug_failures(Kind::Decoder, profile, lanes, &top, &mutated, check)
    else {
        return;
    };
    assert!(
        what.iter().any(|w| mutant.assertions.contains(&w.as_str())),
        "mutant '{}' ({}): {} failed on {what:?}, not on one of {:?}",
        mutant.name,
        mutant.targets,
        mutant.property,
        mutant.assertions
    );
    assert!(traced, "mutant '{}': a counterexample trace", mutant.name);
}

mutant_tests! {
    mutant_ed_bound_widened_fails: ED_BOUND_WIDENED at 1,
    mutant_f4_bound_widened_fails: F4_BOUND_WIDENED at 1,
    mutant_kind_codes_swapped_fails: KINDS_SWAPPED at 1,
    mutant_stall_dropping_tvalid_fails: STALL_DROPS_TVALID at 1,
    mutant_lost_tlast_fails: TLAST_LOST at 1,
    mutant_error_after_last_fails: ERROR_AFTER_LAST at 1,
}

#[test]
#[ignore = "slow: SymbiYosys proofs of every property of the 2-lane decoder, rfc3629"]
fn wide_x2_rfc3629_every_property_holds() {
    // N + 1 units, an empty message, sparse tkeep.
    every_property_holds_for(
        Kind::Decoder,
        Profile::Rfc3629,
        2,
        checks(Kind::Decoder, 2),
        3,
    );
}

#[test]
#[ignore = "slow: SymbiYosys proofs of every property of the 2-lane decoder, iso10646"]
fn wide_x2_iso10646_every_property_holds() {
    every_property_holds_for(
        Kind::Decoder,
        Profile::Iso10646,
        2,
        checks(Kind::Decoder, 2),
        3,
    );
}

/// P6 at four lanes, by BMC: what two lanes cannot show, a four-octet
/// sequence inside one beat and carries across three lane boundaries.
/// P6 alone: two lanes check the others. abc bmc3 to the latency + 4
/// takes under two minutes of one core, so it runs in CI.
#[test]
#[ignore = "slow: SymbiYosys bounded proof of P6 on the 4-lane decoder"]
fn wide_x4_rfc3629_equals_the_spec_model() {
    let model = of_task(checks(Kind::Decoder, 4), "model");
    every_property_holds_for(Kind::Decoder, Profile::Rfc3629, 4, &model, 0);
}

/// The covers at four lanes: its N + 1 units come later than at two, past
/// the plan's depth, so the runner seeks them to the core's latency and
/// more.
#[test]
#[ignore = "slow: SymbiYosys covers of the 4-lane decoder"]
fn wide_x4_covers_are_reached() {
    let covers = of_task(checks(Kind::Decoder, 4), "cover");
    every_property_holds_for(Kind::Decoder, Profile::Rfc3629, 4, &covers, 3);
}

/// P3 at four lanes, for all time, in both profiles: the invariants read
/// registers whose names and number (the packers' levels) depend on N.
#[test]
#[ignore = "slow: SymbiYosys induction of P3 on the 4-lane decoder"]
fn wide_x4_full_rate_is_proven() {
    let rate = of_task(checks(Kind::Decoder, 4), "rate");
    for profile in Profile::ALL {
        every_property_holds_for(Kind::Decoder, profile, 4, &rate, 0);
    }
}

/// `port = rhs;` becomes `port = <edit(rhs)>;`, at its one assignment.
fn edit_port(text: &str, port: &str, edit: impl Fn(&str) -> String) -> Option<String> {
    let rhs = driver(text, port)?;
    let line = only_line(text, |l| l.trim() == format!("{port} = {rhs};"))?;
    Some(text.replace(
        line,
        &line.replace(&format!("= {rhs};"), &format!("= {};", edit(rhs))),
    ))
}

const WIDE_TKEEP_FORCED: Mutant = Mutant {
    name: "x2: m_axis_tkeep lane 1 forced",
    targets: "the assignment to the port m_axis_tkeep ORs in bit 1: a beat of no \
              unit (tkeep 00) leaves with tkeep 10, not packed",
    apply: |v| edit_port(v, "m_axis_tkeep", |rhs| format!("{rhs} | 2'b10")),
    property: "P4 no unflagged error, packed tkeep",
    assertions: &["p4_tkeep_packed"],
};

const WIDE_ERROR_BIT_DROPPED: Mutant = Mutant {
    name: "x2: lane 1's tuser error bit dropped",
    targets: "the assignment to the port m_axis_tuser clears bit 4 (lane 1's error \
              flag): a U+FFFD in lane 1 leaves as a character with a kind code",
    apply: |v| edit_port(v, "m_axis_tuser", |rhs| format!("{rhs} & ~8'h10")),
    property: "P4 no unflagged error, packed tkeep",
    assertions: &["p4_character_has_no_kind"],
};

const WIDE_TLAST_EVERY_BEAT: Mutant = Mutant {
    name: "x2: a tlast on every beat",
    targets: "the assignment to the port m_axis_tlast ORs in m_axis_tvalid: every beat \
              ends a message, more tlasts out than in",
    apply: |v| edit_port(v, "m_axis_tlast", |rhs| format!("{rhs} | m_axis_tvalid")),
    property: "P5 no more tlasts out than in",
    assertions: &["p5_tlast_follows_input", "p5_tlast_in_flight_bounded"],
};

const WIDE_LAST_BEAT_FILLED: Mutant = Mutant {
    name: "x2: the last beat of a message filled",
    targets: "the assignment to the port m_axis_tkeep ORs in the beat's tlast on both \
              lanes: a message of one byte gives two units (packed, zero, so P4 holds)",
    apply: |v| {
        let tlast = driver(v, "m_axis_tlast")?.to_string();
        edit_port(v, "m_axis_tkeep", |rhs| format!("{rhs} | {{2{{{tlast}}}}}"))
    },
    property: "P5 no more units than bytes, per message",
    assertions: &["p5_units_not_more_than_bytes"],
};

const WIDE_READY_DROPS_ON_TLAST: Mutant = Mutant {
    name: "x2: s_axis_tready drops while a tlast is out",
    targets: "the assignment to the port s_axis_tready is masked by m_axis_tlast: \
              a bubble after every message at full rate",
    apply: |v| edit_port(v, "s_axis_tready", |rhs| format!("{rhs} & !m_axis_tlast")),
    property: "P3 full rate",
    assertions: &["p3_full_rate"],
};

const WIDE_CONTINUATION_MASK_NARROWED: Mutant = Mutant {
    name: "x2: lane 1's continuation bits 'h3f -> 'h1f",
    targets: "lane 1's lane table (`*$tables$1$free_bits`, not a tail table's) keeps 5 \
              free bits of a byte, not 6: D6 A2 decodes to U+0582, not U+05A2, a \
              character that no rule of P2-P5 tells from the right one",
    apply: |v| {
        let line = only_line(v, |l| {
            l.contains("$tables$1$free_bits = ") && l.trim_end().ends_with(" & 'h3f;")
        })?;
        Some(v.replace(line, &line.replace(" & 'h3f;", " & 'h1f;")))
    },
    property: "P6 equals the spec model, m_axis_tready high",
    assertions: &["p6_tdata_matches_model"],
};

/// The line of `text` that assigns `lhs`, with `from` in it replaced by
/// `to`.
fn edit_assignment(text: &str, lhs: &str, from: &str, to: &str) -> Option<String> {
    let line = only_line(text, |l| {
        l.trim_start().starts_with(&format!("{lhs} = ")) && l.contains(from)
    })?;
    Some(text.replace(line, &line.replace(from, to)))
}

const WIDE_CREDITS_MISS_ACCEPTED: Mutant = Mutant {
    name: "x2: the credits never count an accepted beat",
    targets: "the credit counter's `accepted` input is tied low: s_axis_tready never \
              falls, and a stalled consumer lets more beats in than the queue holds \
              (the invariant sees it two cycles after the first beat)",
    apply: |v| edit_assignment(v, "credits$accepted", "= accepted;", "= 1'b0;"),
    property: "P3 full rate",
    assertions: &["credits_count_beats"],
};

const WIDE_QUEUE_LANE_EMPTIED: Mutant = Mutant {
    name: "x2: the queue's lane 1 empties on every fetch",
    targets: "lane 1's copy of `not_empty` falls on any fetch, not only on the last \
              beat's: it no longer agrees with lane 0's (which the induction finds, \
              and BMC from reset only once a beat reaches the queue)",
    apply: |v| {
        edit_assignment(
            v,
            "queue$not_empty$1$d",
            "(queue$fetch$1 & queue$one_left$q)",
            "queue$fetch$1",
        )
    },
    property: "P3 full rate",
    assertions: &["queue_lane_copies_agree"],
};

mutant_tests! {
    wide_mutant_credits_miss_accepted_fails: WIDE_CREDITS_MISS_ACCEPTED at 2,
    wide_mutant_queue_lane_emptied_fails: WIDE_QUEUE_LANE_EMPTIED at 2,
    wide_mutant_continuation_mask_narrowed_fails: WIDE_CONTINUATION_MASK_NARROWED at 2,
}

#[test]
#[ignore = "slow: SymbiYosys safety proofs of the 8-lane decoder"]
fn wide_x8_rfc3629_safety_holds() {
    every_property_holds_for(
        Kind::Decoder,
        Profile::Rfc3629,
        8,
        checks(Kind::Decoder, 8),
        0,
    );
}

const WIDE_X8_ERROR_BIT_DROPPED: Mutant = Mutant {
    name: "x8: lane 7's tuser error bit dropped",
    targets: "the assignment to the port m_axis_tuser clears bit 28 (lane 7's error \
              flag): a U+FFFD in lane 7 leaves as a character with a kind code",
    apply: |v| edit_port(v, "m_axis_tuser", |rhs| format!("{rhs} & ~32'h1000_0000")),
    property: "P4 no unflagged error, packed tkeep",
    assertions: &["p4_character_has_no_kind"],
};

mutant_tests! {
    wide_x8_mutant_error_bit_dropped_fails: WIDE_X8_ERROR_BIT_DROPPED at 8,
    wide_mutant_tlast_every_beat_fails: WIDE_TLAST_EVERY_BEAT at 2,
    wide_mutant_last_beat_filled_fails: WIDE_LAST_BEAT_FILLED at 2,
    wide_mutant_ready_drops_on_tlast_fails: WIDE_READY_DROPS_ON_TLAST at 2,
    wide_mutant_tkeep_forced_fails: WIDE_TKEEP_FORCED at 2,
    wide_mutant_error_bit_dropped_fails: WIDE_ERROR_BIT_DROPPED at 2,
}

/// The encoders, the UTF-16 decoder and the properties core, in every
/// profile they come in: every proof holds and every cover is reached (for
/// the UTF-8 encoder a flagged octet, a TLAST, a four-octet lead; for the
/// UTF-16 cores a flagged or error unit, a TLAST, a surrogate pair; for
/// the properties core each flag and a TLAST).
#[test]
#[ignore = "slow: SymbiYosys proofs of the encoders, the UTF-16 decoder and the properties core"]
fn the_other_one_lane_cores_every_property_holds() {
    if !formal::require_tools() {
        return;
    }
    let kinds = [
        Kind::Encoder,
        Kind::Utf16Encoder,
        Kind::Utf16Decoder,
        Kind::Properties,
    ];
    for (kind, &profile) in kinds
        .iter()
        .flat_map(|&k| k.profiles().iter().map(move |p| (k, p)))
    {
        let dir = tempfile::tempdir().unwrap();
        let checks = checks(kind, 1);
        let outcomes = prove(kind, profile, 1, None, checks.to_vec(), dir.path());
        assert_eq!(outcomes.len(), checks.len());
        for (property, outcome) in &outcomes {
            match outcome {
                Outcome::Proven => {}
                Outcome::Covered { covers, .. } => {
                    let expected = if kind == Kind::Properties { 5 } else { 3 };
                    assert_eq!(covers.len(), expected, "{property}")
                }
                other => panic!("{kind} {profile} {property}: {other}"),
            }
        }
    }
}

/// The encoder mutated so that the next word comes in only once `pending`
/// is empty, a cycle too late: each word of more than one octet then
/// leaves a gap in `m_axis_tvalid`, which P3 must catch. (Found by the one
/// assignment to `pending$take`; the simulation's own check of this rule is
/// `Rate::Output` in the checker.)
#[test]
#[ignore = "slow: SymbiYosys on a mutant of the UTF-8 encoder"]
fn encoder_mutant_gap_between_words_fails() {
    let profile = Profile::Rfc3629;
    let core = utf8hdl_sim::cores::utf8_encoder::Encoder(profile);
    let original = verilog::core_verilog(&core).unwrap();
    let take = driver(&original, "pending$take").expect("one assignment to take");
    // `pending` is empty when its first unit's flag is clear; a name the
    // export no longer declares would be an undriven net, not this bug.
    assert!(
        original.contains("reg  pending$keep$0$q;"),
        "pending's first flag is not in the export: update the mutant"
    );
    let mutated = original.replacen(
        &format!("pending$take = {take};"),
        "pending$take = !pending$keep$0$q;",
        1,
    );
    let traced = mutant_fails(&core, &original, &mutated, "rate", "p3_one_octet_per_clock");
    assert_ne!(traced, Some(false), "a counterexample trace");
}

/// The encoder mutated so that one byte's copy of the classifying stage's
/// `valid` loads only when `pending` takes a word, not when the stage is
/// empty or the octet stage takes its word: after the first word that copy
/// lags `valid`, which the invariant of the copies must catch. (Found by
/// the one assignment to `word$loads$2`.)
#[test]
#[ignore = "slow: SymbiYosys on a mutant of the UTF-8 encoder"]
fn encoder_mutant_copy_of_valid_lags_fails() {
    let profile = Profile::Rfc3629;
    let core = utf8hdl_sim::cores::utf8_encoder::Encoder(profile);
    let original = verilog::core_verilog(&core).unwrap();
    let moves = driver(&original, "word$loads$2").expect("one assignment to word$loads$2");
    let mutated = original.replacen(
        &format!("word$loads$2 = {moves};"),
        "word$loads$2 = pending$take;",
        1,
    );
    let traced = mutant_fails(&core, &original, &mutated, "copies", "copies_equal_valid");
    assert_ne!(traced, Some(false), "a counterexample trace");
}

/// `core` mutated so that an enable figured a cycle ahead (the assignment
/// `ahead`, which reads `pending`'s `take_next`) reads `pending`'s `take`
/// of this cycle instead: it lags what it stands for, which the invariant
/// `assertion` of the `COPIES` check must catch.
fn lagging_enable_fails<C: Core>(core: &C, ahead: &str, assertion: &str) {
    let original = verilog::core_verilog(core).unwrap();
    assert!(
        original.contains(ahead),
        "{ahead}: the enable, figured ahead"
    );
    let lagging = ahead.replace("pending$take_next", "pending$take");
    let mutated = original.replacen(ahead, &lagging, 1);
    let traced = mutant_fails(core, &original, &mutated, "copies", assertion);
    assert_ne!(traced, Some(false), "a counterexample trace");
}

/// The UTF-8 encoder's octet stage's enable, lagging.
#[test]
#[ignore = "slow: SymbiYosys on a mutant of the UTF-8 encoder"]
fn encoder_mutant_octet_enable_lags_fails() {
    lagging_enable_fails(
        &utf8hdl_sim::cores::utf8_encoder::Encoder(Profile::Iso10646),
        "octets_move$d = !octets_valid$d | pending$take_next;",
        "octets_move_ahead",
    );
}

/// The UTF-16 encoder's classifying stage's enable, lagging.
#[test]
#[ignore = "slow: SymbiYosys on a mutant of the UTF-16 encoder"]
fn utf16_encoder_mutant_stage_enable_lags_fails() {
    lagging_enable_fails(
        &utf8hdl_sim::cores::utf16_encoder::Encoder,
        "moves$d = !valid$d | pending$take_next;",
        "moves_ahead",
    );
}

/// The UTF-16 encoder mutated to send a pair's low half first: P4's rule
/// that a low surrogate follows a high one, and only then, must catch it.
#[test]
#[ignore = "slow: SymbiYosys on a mutant of the UTF-16 encoder"]
fn utf16_encoder_mutant_pair_swapped_fails() {
    let core = utf8hdl_sim::cores::utf16_encoder::Encoder;
    let original = verilog::core_verilog(&core).unwrap();
    let mutated = original
        .replacen(
            "pending$units_in$0 = high_surrogate;",
            "pending$units_in$0 = low_surrogate;",
            1,
        )
        .replacen(
            "pending$units_in$1 = low_surrogate;",
            "pending$units_in$1 = high_surrogate;",
            1,
        );
    mutant_fails(&core, &original, &mutated, "safety", "p4_low_after_high");
}

/// The properties core mutated so that F9xx is private use instead of F8xx:
/// P4's flags, from the Unicode ranges written as magnitudes, must catch it.
#[test]
#[ignore = "slow: SymbiYosys on a mutant of the properties core"]
fn properties_mutant_private_use_range_moved_fails() {
    let core = utf8hdl_sim::cores::char_properties::Properties;
    let original = verilog::core_verilog(&core).unwrap();
    let mutated = original.replacen(
        "(skid_buffer$byte$tdata[('h8)+:(8)] == 'hf8)",
        "(skid_buffer$byte$tdata[('h8)+:(8)] == 'hf9)",
        1,
    );
    mutant_fails(&core, &original, &mutated, "safety", "p4_flags");
}

/// The N-lane rfc3629 validator with `line` of its Verilog replaced by
/// `planted` fails the check of `task` at `assertion`.
#[track_caller]
fn validator_mutant_fails<const N: usize>(line: &str, planted: &str, task: &str, assertion: &str)
where
    Validator<N>: Core,
{
    let core = Validator::<N>(Profile::Rfc3629);
    let original = verilog::core_verilog(&core).unwrap();
    let mutated = original.replacen(line, planted, 1);
    mutant_fails(&core, &original, &mutated, task, assertion);
}

/// P6 fails on a validator whose mark of a sequence truncated across a
/// beat has the code of a surrogate: the planted bug is caught.
#[test]
#[ignore = "slow: SymbiYosys on a mutant of the 2-lane validator"]
fn validator_mutant_truncated_marked_as_surrogate_fails() {
    validator_mutant_fails::<2>(
        "localparam  marks$tuser_truncated = 4'h7;",
        "localparam  marks$tuser_truncated = 4'hb;",
        "model",
        "p6_mark_is_spec",
    );
}

/// P4 fails on a validator that marks the invalid byte FE with a kind
/// code no profile has (7), in its lane 0's table of mark classes: the
/// planted bug is caught.
#[test]
#[ignore = "slow: SymbiYosys on a mutant of the 2-lane validator"]
fn validator_mutant_unknown_kind_fails() {
    validator_mutant_fails::<2>(
        "8'hfe: lookups$0$lane[20:8] = 13'h0600;",
        "8'hfe: lookups$0$lane[20:8] = 13'h1e00;",
        "shape",
        "p4_mark_is_an_error",
    );
}

/// P3 fails on a validator whose hold of beats with an open first octet
/// closes its ring of write places at place 2, not 3 (the last of four):
/// from place 2 its write pointer moves to places 3 and 0 at once, two
/// places written with one beat.
#[test]
#[ignore = "slow: SymbiYosys on a mutant of the 1-lane validator"]
fn validator_mutant_hold_ring_short_fails() {
    validator_mutant_fails::<1>(
        "hold$write_at$0$d = hold$write_at$3$q;",
        "hold$write_at$0$d = hold$write_at$2$q;",
        "rate",
        "hold_pointers_one_hot",
    );
}

/// P3's induction fails on a validator whose `carry_room`, figured from
/// itself rather than from the joined `carry`, forgets that a first octet
/// whose second octet is still to come takes only a second octet in its
/// range: `carry_room` is no longer `carry`'s need less its trail.
#[test]
#[ignore = "slow: SymbiYosys on a mutant of the 1-lane validator"]
fn validator_mutant_carry_room_skips_the_second_octet_range_fails() {
    validator_mutant_fails::<1>(
        "((marks$carry_trail != 'h0) | (marks$beat_trail == 'h0) | ((marks$beat_forward[('hc)+:(5)] & marks$carry$q[('h7)+:(5)]) != 'h0))",
        "1'b1",
        "rate",
        "carry_room_is_need_less_trail",
    );
}

/// P3's induction fails on a validator whose credits are not given back
/// for a null beat it drops: the credits no longer count the beats inside.
#[test]
#[ignore = "slow: SymbiYosys on a mutant of the 1-lane validator"]
fn validator_mutant_dropped_beat_keeps_its_credit_fails() {
    validator_mutant_fails::<1>(
        "credits$dropped_early = accepted & null_beat;",
        "credits$dropped_early = 1'b0;",
        "rate",
        "credits_count_beats",
    );
}

/// P3 fails on a validator whose marks never see the first octet they
/// left open: no later beat decides it, so the beats behind it pile up in
/// the hold after its sequence has ended.
#[test]
#[ignore = "slow: SymbiYosys on a mutant of the 1-lane validator"]
fn validator_mutant_open_first_octet_never_decided_fails() {
    validator_mutant_fails::<1>(
        "if (marks$beat & marks$carry_open) begin",
        "if (marks$beat & 1'b0) begin",
        "rate",
        "hold_open_is_carried",
    );
}

/// P3's induction fails on a validator whose hold says it is idle after
/// a clock on which a beat was written into it: the invariant that idle
/// means empty catches it.
#[test]
#[ignore = "slow: SymbiYosys on a mutant of the 1-lane validator"]
fn validator_mutant_hold_idle_while_written_fails() {
    validator_mutant_fails::<1>(
        "hold$idle_reg$d = !hold$in_use$any & !hold$fill;",
        "hold$idle_reg$d = !hold$in_use$any;",
        "rate",
        "hold_idle_is_empty",
    );
}

/// P3's induction fails on a validator whose marks call every beat
/// closed, an open first octet in it or not: the invariant that `closed`
/// is a shut `carry` catches it.
#[test]
#[ignore = "slow: SymbiYosys on a mutant of the 1-lane validator"]
fn validator_mutant_closed_while_open_fails() {
    validator_mutant_fails::<1>(
        "marks$closed_out$d = marks$beat & (marks$last | (marks$beat_forward['h0] & !marks$carry_stays_open) | (!marks$beat_forward['h0] & !marks$beat_opens));",
        "marks$closed_out$d = marks$beat;",
        "rate",
        "marks_closed_is_carry_shut",
    );
}

/// P6 fails on a validator whose beats go past the hold while beats wait
/// in it: a beat overtakes the beat with an open first octet before it.
#[test]
#[ignore = "slow: SymbiYosys on a mutant of the 1-lane validator"]
fn validator_mutant_bypass_overtakes_the_hold_fails() {
    validator_mutant_fails::<1>(
        "bypass = marks$closed & hold$idle;",
        "bypass = marks$closed;",
        "model",
        "p6_mark_is_spec",
    );
}

/// The validator at one, two and four lanes, in `profile`: m_axis keeps
/// the AXI4-Stream rules (P2), full rate (P3, proven for all time), every
/// mark is an error of the profile and null lanes carry none (P4), no
/// `tlast` leaves that did not come in (P5), and every byte leaves as it
/// came with the mark of the specification's model (P6), by BMC to the
/// default depth.
fn validator_keeps_the_stream_rules_and_marks_as_the_spec(profile: Profile) {
    for lanes in [1, 2, 4] {
        every_property_holds_for(
            Kind::Validator,
            profile,
            lanes,
            checks(Kind::Validator, lanes),
            0,
        );
    }
}

#[test]
#[ignore = "slow: SymbiYosys checks of the 1-, 2- and 4-lane rfc3629 validator"]
fn validator_rfc3629_keeps_the_stream_rules_and_marks_as_the_spec() {
    validator_keeps_the_stream_rules_and_marks_as_the_spec(Profile::Rfc3629);
}

#[test]
#[ignore = "slow: SymbiYosys checks of the 1-, 2- and 4-lane iso10646 validator"]
fn validator_iso10646_keeps_the_stream_rules_and_marks_as_the_spec() {
    validator_keeps_the_stream_rules_and_marks_as_the_spec(Profile::Iso10646);
}
