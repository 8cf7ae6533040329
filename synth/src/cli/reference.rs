//! `utf8hdl reference`: the input through the software reference decoder.

use std::process::ExitCode;

use anyhow::Result;
use utf8hdl_sim::output::UnitWriter;
use utf8hdl_sim::reference;

use super::args::StreamArgs;
use super::progress::Progress;

pub fn run(args: &StreamArgs) -> Result<ExitCode> {
    args.check()?;
    let input = args.for_format(args.input(&[])?)?;
    let mut stream = input.open()?;
    let mut writer = UnitWriter::create(Some(&args.output), args.format, &input)?;
    let mut progress = Progress::bytes(input.len_hint());
    let written = reference::Decoder::new(&mut stream, args.profile).try_for_each(|unit| {
        progress.set(unit.span.end as u64);
        match args.properties {
            true => writer.write_with_properties(&unit, reference::properties::flags(unit.value)),
            false => writer.write(&unit),
        }
    });
    progress.finish();
    written?;
    stream.finish()?;
    writer.commit()?;
    Ok(ExitCode::SUCCESS)
}
