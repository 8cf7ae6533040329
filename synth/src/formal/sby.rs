//! The sby file of a core's proof, written from its formal plan
//! ([`Formal`]), the core's figures and one template,
//! `hdl/formal/core.sby.in`: a task per check, and one `<task>_trace` per
//! proof, which looks for the counterexample of a failed proof that gave
//! none.

use utf8hdl_hdl::Profile;
use utf8hdl_sim::cores::formal::{BmcEngine, Check, Method};

use super::Proof;

const TEMPLATE: &str = include_str!("../../../hdl/formal/core.sby.in");

/// The engine of the proofs: pdr with the GipSAT solver (ported from
/// rIC3; `-f` orders the flops by cost, as abc recommends with it): the
/// 1-lane decoder's P5 proves in 185 s (rfc3629) and 282 s (iso10646) of
/// CPU, against 516 s and 544 s with abc's own SAT solver. sby adds `-l`
/// (the anytime schedule), which GipSAT does not support (abc aborts in
/// `pdrSat.c`); the last `-l` toggles it off again.
const PDR: &str = "abc pdr -s -f -l";

/// How the tasks of one tag run: sby's mode, its engine, and its depth
/// (none for a proof).
#[derive(Copy, Clone, PartialEq, Eq)]
struct Mode {
    tag: &'static str,
    mode: &'static str,
    engine: &'static str,
    depth: Option<u32>,
}

impl Mode {
    /// The mode of `proof`'s checks by `method`.
    fn of(proof: &Proof, method: Method) -> Mode {
        match method {
            Method::Prove => Mode {
                tag: "prove",
                mode: "prove",
                engine: PDR,
                depth: None,
            },
            Method::Induct => Mode {
                tag: "induct",
                mode: "prove",
                engine: "smtbmc yices",
                depth: Some(proof.plan.induction_depth),
            },
            Method::Bmc => Mode {
                tag: "bmc",
                depth: Some(proof.depth),
                ..Mode::bmc(proof)
            },
            Method::Cover => Mode {
                tag: "cover",
                mode: "cover",
                engine: "smtbmc yices",
                depth: Some(proof.cover_depth()),
            },
        }
    }

    /// The mode of the `<task>_trace` tasks: their property by BMC, to
    /// [`Proof::trace_depth`].
    fn trace(proof: &Proof) -> Mode {
        Mode {
            tag: "trace",
            depth: Some(proof.trace_depth()),
            ..Mode::bmc(proof)
        }
    }

    /// BMC, on the plan's engine.
    fn bmc(proof: &Proof) -> Mode {
        let engine = match proof.plan.bmc_engine {
            BmcEngine::Yices => "smtbmc yices",
            BmcEngine::AbcBmc3 => "abc bmc3",
        };
        Mode {
            tag: "bmc",
            mode: "bmc",
            engine,
            depth: None,
        }
    }

    /// How the task table of the file's header says it.
    fn how(self) -> String {
        match (self.mode, self.depth) {
            ("cover", Some(depth)) => format!("cover, {depth} cycles"),
            ("prove", Some(depth)) => format!("prove ({depth}-induction)"),
            (_, Some(depth)) => format!("BMC, {depth} cycles"),
            (_, None) => "prove (abc pdr)".to_string(),
        }
    }
}

/// The task that looks for `check`'s counterexample when its proof fails
/// without one.
pub(super) fn trace_task(check: &Check) -> String {
    format!("{}_trace", check.task)
}

/// The file's name: the core's module, `<top>.sby`.
pub(super) fn file_name(proof: &Proof) -> String {
    format!("{}.sby", proof.top)
}

/// One task of the file: its name, its mode, the property it checks and
/// its defines.
struct Task {
    name: String,
    mode: Mode,
    property: &'static str,
    defines: &'static [&'static str],
}

/// Every task of `proof`'s file: its checks, then the trace of each proof.
fn tasks(proof: &Proof) -> Vec<Task> {
    let checks = proof.plan.checks;
    let task = |check: &Check, name, mode| Task {
        name,
        mode,
        property: check.property,
        defines: check.defines,
    };
    let mut tasks: Vec<Task> = checks
        .iter()
        .map(|c| task(c, c.task.to_string(), Mode::of(proof, c.method)))
        .collect();
    let proofs = checks.iter().filter(|c| c.method.is_proof());
    tasks.extend(proofs.map(|c| task(c, trace_task(c), Mode::trace(proof))));
    tasks
}

/// The sby file of `proof`.
pub(super) fn sby(proof: &Proof) -> String {
    let plan = proof.plan;
    let tasks = tasks(proof);
    let mut modes: Vec<Mode> = Vec::new();
    let mut defines: Vec<&str> = Vec::new();
    for task in &tasks {
        if !modes.contains(&task.mode) {
            modes.push(task.mode);
        }
        for define in task.defines {
            if !defines.contains(define) {
                defines.push(define);
            }
        }
    }
    let tag = |define: &str| define.to_lowercase();
    let lines = |lines: Vec<String>| lines.join("\n");

    let width = tasks.iter().map(|t| t.name.len()).max().unwrap_or(0);
    let task_table = tasks.iter().map(|t| {
        let (name, property, how) = (&t.name, t.property, t.mode.how());
        format!("#   {name:width$}  {property}: {how}")
    });
    let task_lines = tasks.iter().map(|t| {
        let tags: Vec<String> = t.defines.iter().map(|d| tag(d)).collect();
        format!("{:width$}  {} {}", t.name, t.mode.tag, tags.join(" "))
    });
    let mut options = Vec::new();
    let mut engines = Vec::new();
    for Mode {
        tag,
        mode,
        engine,
        depth,
    } in modes
    {
        options.push(format!("{tag}: mode {mode}"));
        options.extend(depth.map(|depth| format!("{tag}: depth {depth}")));
        engines.push(format!("{tag}: {engine}"));
    }
    let define_lines = defines
        .iter()
        .map(|d| format!("{}: read -define {d}", tag(d)));
    let verilog = plan.sources();
    let sources: Vec<&str> = verilog
        .clone()
        .map(|s| s.name)
        .filter(|name| name.ends_with(".v"))
        .collect();
    let files = [format!("{}.v", proof.top)]
        .into_iter()
        .chain(verilog.map(|s| s.name.to_string()));
    let profile_define = match proof.profile {
        Profile::Rfc3629 => "",
        Profile::Iso10646 => " UTF8_ISO10646",
    };

    let mut text = TEMPLATE.to_string();
    for (key, value) in [
        ("core", proof.top.clone()),
        ("properties", plan.top().to_string()),
        (
            "first_task",
            tasks.first().map_or(String::new(), |t| t.name.clone()),
        ),
        ("task_table", lines(task_table.collect())),
        ("tasks", lines(task_lines.collect())),
        ("timeout", plan.timeout.to_string()),
        ("options", lines(options)),
        ("engines", lines(engines)),
        ("defines", lines(define_lines.collect())),
        ("lanes", proof.lanes.to_string()),
        ("latency", proof.latency.to_string()),
        ("profile_define", profile_define.to_string()),
        ("sources", sources.join(" ")),
        ("files", lines(files.collect())),
    ] {
        text = text.replace(&format!("{{{key}}}"), &value);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formal::Options;
    use std::path::{Path, PathBuf};
    use utf8hdl_sim::cores::formal::{COVER_PAST_LATENCY, DEPTH_PAST_LATENCY};
    use utf8hdl_sim::cores::Kind;

    fn proof(kind: Kind, lanes: usize, profile: Profile) -> Proof {
        let options = Options {
            profile,
            verilog: None,
            depth: 1,
            covers: false,
            dir: PathBuf::new(),
            checks: Vec::new(),
            jobs: 1,
        };
        Proof::new(kind, lanes, &options).unwrap()
    }

    /// The core's module, lanes and latency, and the bounded depth, are the
    /// core's own; every placeholder of the template is filled.
    #[test]
    fn the_sby_file_states_every_figure_of_the_core() {
        use utf8hdl_sim::core::Core;
        let core = utf8hdl_sim::cores::utf8_decoder::WideDecoder::<2>(Profile::Iso10646);
        let latency = utf8hdl_sim::cores::utf8_decoder::WideDecoder::<2>::LATENCY;
        let text = sby(&proof(Kind::Decoder, 2, Profile::Iso10646));
        let define = format!(
            "read -define UTF8_DUT={} LANES=2 F_LATENCY={latency} UTF8_ISO10646\n",
            core.name()
        );
        assert!(text.contains(&define), "{text}");
        let depth = latency as u32 + DEPTH_PAST_LATENCY;
        assert!(text.contains(&format!("bmc: depth {depth}\n")), "{text}");
        assert!(text.contains("prep -top utf8_wide_decoder_properties\n"));
        assert!(!text.contains('{') && !text.contains('}'), "{text}");
        // The covers go past the latency of the widest core proven, whose
        // latency is more than the plan's depth for them.
        let latency = utf8hdl_sim::cores::utf8_decoder::WideDecoder::<4>::LATENCY as u32;
        let text = sby(&proof(Kind::Decoder, 4, Profile::Rfc3629));
        let depth = latency + COVER_PAST_LATENCY;
        assert!(depth > Kind::Decoder.formal(4).cover_depth);
        assert!(text.contains(&format!("cover: depth {depth}\n")), "{text}");
    }

    /// Every core's file has a task for each check of its plan, and a
    /// trace task for each proof, each with its check's defines.
    #[test]
    fn every_check_of_every_core_is_a_task() {
        for kind in Kind::ALL {
            for (profile, lanes) in kind.variants() {
                let text = sby(&proof(kind, lanes, profile));
                let tasks = text.split("[tasks]\n").nth(1).unwrap();
                let tasks: Vec<&str> = tasks.lines().take_while(|l| !l.is_empty()).collect();
                let line = |name: &str| {
                    tasks
                        .iter()
                        .find(|l| l.split_whitespace().next() == Some(name))
                        .unwrap_or_else(|| panic!("{kind} x{lanes}: no task {name}: {text}"))
                };
                for check in kind.formal(lanes).checks {
                    let mut names = vec![check.task.to_string()];
                    if check.method.is_proof() {
                        names.push(trace_task(check));
                    }
                    for name in names {
                        for define in check.defines {
                            let tag = define.to_lowercase();
                            assert!(line(&name).split_whitespace().any(|t| t == tag));
                            let read = format!("{tag}: read -define {define}\n");
                            assert!(text.contains(&read), "{kind}: {read}");
                        }
                    }
                }
            }
        }
    }

    /// Every file of `hdl/formal/` is read by some core's or block's proof,
    /// or is a template: none is left over.
    #[test]
    fn every_file_of_hdl_formal_is_read() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hdl/formal");
        let plans = Kind::ALL.into_iter().flat_map(|kind| {
            kind.lane_counts()
                .iter()
                .map(move |&lanes| kind.formal(lanes))
        });
        let read: Vec<&str> = plans
            .flat_map(|plan| plan.sources().map(|s| s.name))
            .chain(
                super::super::blocks::BLOCKS
                    .iter()
                    .map(|b| b.properties.name),
            )
            .chain(super::super::blocks::SHARED.iter().map(|s| s.name))
            .collect();
        let blocks = std::fs::read_dir(dir.join("blocks"))
            .unwrap()
            .map(|entry| format!("blocks/{}", entry.unwrap().file_name().to_str().unwrap()));
        let files = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .filter(|name| name != "blocks");
        for name in files.chain(blocks) {
            assert!(
                ["core.sby.in", "block.sby.in"].contains(&name.as_str())
                    || read.contains(&name.as_str()),
                "hdl/formal/{name} is read by no proof"
            );
        }
    }
}
