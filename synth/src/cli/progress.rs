//! Progress on standard error for runs long enough to wonder about: drawn
//! only on a terminal (indicatif draws nothing on a pipe or a file), and
//! only once a run has taken a second.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before its progress is drawn.
const QUIET_FOR: Duration = Duration::from_secs(1);
/// Updates between two looks at the clock.
const UPDATES_PER_CHECK: u32 = 4096;

/// Bytes done, out of a total when it is known.
pub struct Progress {
    bar: ProgressBar,
    start: Instant,
    shown: bool,
    updates: u32,
}

impl Progress {
    /// A bar with the bytes done, the rate and the estimated time left; a
    /// spinner with the bytes done and the time taken when `total` is
    /// unknown (standard input).
    pub fn bytes(total: Option<u64>) -> Progress {
        let template = match total {
            Some(_) => {
                "{bar:40} {decimal_bytes}/{decimal_total_bytes} {decimal_bytes_per_sec} eta {eta}"
            }
            None => "{spinner} {decimal_bytes} {decimal_bytes_per_sec} {elapsed}",
        };
        Progress::quiet_at_first(total, template)
    }

    /// A bar for the cores of a chain: `what` (a core), the items done out
    /// of `total`, the rate and the estimated time left.
    pub fn items(what: String, total: u64) -> Progress {
        let template = "{msg} {bar:40} {human_pos}/{human_len} {per_sec} eta {eta}";
        let progress = Progress::quiet_at_first(Some(total), template);
        progress.bar.set_message(what);
        progress
    }

    /// A bar in `template`, hidden until the run has taken [`QUIET_FOR`].
    fn quiet_at_first(total: Option<u64>, template: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
        bar.set_style(ProgressStyle::with_template(template).expect("a valid template"));
        Progress {
            bar,
            start: Instant::now(),
            shown: false,
            updates: 0,
        }
    }

    /// A task whose progress cannot be measured (an external tool): a
    /// spinner with `message` and the time taken, drawn at once.
    pub fn task(message: String) -> Progress {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("a valid template"),
        );
        bar.set_message(message);
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress {
            bar,
            start: Instant::now(),
            shown: true,
            updates: 0,
        }
    }

    /// Records `done` bytes or items; cheap enough to call for every unit.
    pub fn set(&mut self, done: u64) {
        self.updates += 1;
        if self.updates < UPDATES_PER_CHECK {
            return;
        }
        self.updates = 0;
        if !self.shown && self.start.elapsed() >= QUIET_FOR {
            self.shown = true;
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        self.bar.set_position(done);
    }

    /// Erases the bar.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}
