//! Cores in a chain, as the RTL would wire them: each core runs on the
//! lanes the core before it sent on `m_axis` (their `tdata` and `tuser`
//! bits), checked against its own reference before the next one starts.
//! A chain is a list of [`Stage`]s, any core of the family; [`through`]
//! runs it.

use anyhow::{Context, Result};
use utf8hdl_sim::checker::Stimulus;
use utf8hdl_sim::core::{Core, Lane, Unit};

use super::args::EngineChoice;
use super::engine::run_on;
use super::progress::Progress;
use super::report::report_stage;

/// One lane on its way from a core of a chain to the next: its bits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LaneBits {
    pub tdata: u32,
    pub tuser: u32,
}

impl LaneBits {
    pub fn of<L: Lane>(lane: L) -> LaneBits {
        LaneBits {
            tdata: lane.tdata(),
            tuser: lane.tuser(),
        }
    }

    /// The lane that the next core takes in.
    pub fn into_lane<L: Lane>(self) -> L {
        L::from_bits(self.tdata, self.tuser)
    }
}

/// A core's checked run in a chain, as its summary says it.
pub struct StageRun {
    /// The core's Verilog module name.
    pub core: String,
    pub agree: bool,
    /// Its summary, as `--stats json` shows it.
    pub json: serde_json::Value,
}

/// A core that takes its place in a chain: any core of the family.
pub trait Stage {
    /// Runs the core on `inputs`, on `engine`, under `stimulus`, checked
    /// against its reference, and puts its summary on stderr; `on_lane`
    /// gets every lane it sends, with the index of the input its unit
    /// starts at.
    fn run(
        &self,
        engine: EngineChoice,
        inputs: &[LaneBits],
        stimulus: &Stimulus,
        on_lane: &mut dyn FnMut(LaneBits, usize) -> Result<()>,
    ) -> Result<StageRun>;
}

impl<C: Core + Copy> Stage for C {
    fn run(
        &self,
        engine: EngineChoice,
        inputs: &[LaneBits],
        stimulus: &Stimulus,
        on_lane: &mut dyn FnMut(LaneBits, usize) -> Result<()>,
    ) -> Result<StageRun> {
        let core = self.name();
        let mut progress = Progress::items(core.clone(), inputs.len() as u64);
        let summary = run_on(
            *self,
            engine,
            inputs.iter().map(|input| input.into_lane()),
            stimulus,
            |unit| {
                progress.set(unit.span().end as u64);
                let from = unit.span().start;
                (unit.outputs()).try_for_each(|lane| on_lane(LaneBits::of(lane), from))
            },
            0..0,
            &mut |_, _| {},
        );
        progress.finish();
        let summary = summary?;
        report_stage(&core, &summary);
        Ok(StageRun {
            core,
            agree: summary.agree(),
            json: summary.to_json(),
        })
    }
}

/// The runs of a chain's stages, up to the first that differs from its
/// reference.
pub struct Chained {
    pub runs: Vec<StageRun>,
}

impl Chained {
    /// Whether every stage agreed with its reference.
    pub fn agree(&self) -> bool {
        self.runs.iter().all(|run| run.agree)
    }
}

/// `lanes` through `stages`, one after another; `on_lane` gets the lanes
/// the last one sends (`lanes` themselves when there is no stage), each
/// with the index in `lanes` of the lane it comes from. A stage that
/// differs from its reference ends the chain.
pub fn through(
    stages: &[&dyn Stage],
    engine: EngineChoice,
    mut lanes: Vec<LaneBits>,
    stimulus: &Stimulus,
    mut on_lane: impl FnMut(LaneBits, usize) -> Result<()>,
) -> Result<Chained> {
    let mut chained = Chained { runs: Vec::new() };
    // Where each of `lanes` comes from, once a stage has made them.
    let mut origins: Option<Vec<usize>> = None;
    for (i, stage) in stages.iter().enumerate() {
        let last = i + 1 == stages.len();
        let (mut sent, mut sent_origins) = (Vec::new(), Vec::new());
        let run = stage.run(engine, &lanes, stimulus, &mut |lane, from| {
            let origin = match &origins {
                None => from,
                Some(origins) => *origins
                    .get(from)
                    .with_context(|| format!("a unit starts at input {from}, beyond the last"))?,
            };
            if last {
                return on_lane(lane, origin);
            }
            sent.push(lane);
            sent_origins.push(origin);
            Ok(())
        })?;
        let agree = run.agree;
        chained.runs.push(run);
        if !agree {
            return Ok(chained);
        }
        (lanes, origins) = (sent, Some(sent_origins));
    }
    if stages.is_empty() {
        (lanes.into_iter().enumerate()).try_for_each(|(i, lane)| on_lane(lane, i))?;
    }
    Ok(chained)
}

#[cfg(test)]
mod tests {
    use utf8hdl_sim::checker::Stalls;
    use utf8hdl_sim::cores::{utf16_decoder, utf16_encoder};

    use super::*;

    /// Words through the UTF-16 encoder and back through the UTF-16
    /// decoder, both stalled at random, come out as they went in, each
    /// from its own word; with no stage they pass as they are.
    #[test]
    fn a_chain_gives_back_what_its_cores_undo() {
        let words: [u32; 5] = [0x41, 0xE9, 0x1F600, 0x10FFFF, 0xFFFD];
        let lanes = || words.map(LaneBits::of).to_vec();
        let expected: Vec<(u32, usize)> = words.iter().copied().zip(0..).collect();
        let stimulus = Stimulus::stalls(Stalls::Random(0.3), Stalls::Random(0.3), 1);
        let round_trip: [&dyn Stage; 2] = [&utf16_encoder::Encoder, &utf16_decoder::Decoder];
        for stages in [&[][..], &round_trip] {
            let mut out = Vec::new();
            let chained = through(
                stages,
                EngineChoice::RustHdl,
                lanes(),
                &stimulus,
                |lane, origin| {
                    out.push((lane.tdata, origin));
                    Ok(())
                },
            )
            .unwrap();
            assert!(chained.agree());
            assert_eq!(chained.runs.len(), stages.len());
            assert_eq!(out, expected);
        }
    }
}
