//! Independent jobs on a few threads: the seeds of a place-and-route run,
//! the checks of a proof. (A work queue of `std::thread::scope`, an atomic
//! counter and a channel: rayon's pool would be a dependency for these few
//! lines, and its results do not come back in order as they end.)

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use anyhow::Result;

/// The jobs to run at once by default: the machine's cores.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// `work(0)`, …, `work(count - 1)` on at most `jobs` threads, their
/// results in that order; the first error, if any. `done(i, &result)` is
/// called on the calling thread in index order, each as soon as job `i`
/// and every job before it have ended well (it is not called from the
/// first error on). Once a job has failed no other job starts: the jobs
/// under way end, and the lowest index's error is among them, since jobs
/// start in index order.
pub fn in_parallel<T: Send>(
    count: usize,
    jobs: usize,
    work: impl Fn(usize) -> Result<T> + Sync,
    mut done: impl FnMut(usize, &T),
) -> Result<Vec<T>> {
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<Result<T>>> = (0..count).map(|_| None).collect();
    std::thread::scope(|scope| {
        let (sender, ended) = mpsc::channel();
        for _ in 0..jobs.clamp(1, count.max(1)) {
            let (sender, next, work) = (sender.clone(), &next, &work);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    return;
                }
                let result = work(i);
                if result.is_err() {
                    next.store(count, Ordering::Relaxed);
                }
                if sender.send((i, result)).is_err() {
                    return;
                }
            });
        }
        // The workers hold the only senders: the loop ends with them.
        drop(sender);
        let mut reported = 0;
        for (i, result) in ended {
            results[i] = Some(result);
            while let Some(Some(Ok(value))) = results.get(reported) {
                done(reported, value);
                reported += 1;
            }
        }
    });
    // Past the first error, a job that never started is `None`.
    results
        .into_iter()
        .map_while(|result| result)
        .collect::<Result<Vec<T>>>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::anyhow;
    use std::sync::Mutex;

    /// Every index is worked once, whatever the jobs; the results come back
    /// in index order, each reported in that order, and the error returned
    /// is the lowest index's, with nothing reported from it on.
    #[test]
    fn in_parallel_keeps_the_order_and_the_first_error() {
        for jobs in [1, 2, 3, 7] {
            let seen = Mutex::new(Vec::new());
            let mut reported = Vec::new();
            let squares = in_parallel(
                5,
                jobs,
                |i| {
                    seen.lock().unwrap().push(i);
                    // The later jobs end first.
                    std::thread::sleep(std::time::Duration::from_millis(10 * (5 - i as u64)));
                    Ok(i * i)
                },
                |i, square| reported.push((i, *square)),
            )
            .unwrap();
            assert_eq!(squares, [0, 1, 4, 9, 16], "jobs {jobs}");
            assert_eq!(reported, [(0, 0), (1, 1), (2, 4), (3, 9), (4, 16)]);
            let mut seen = seen.into_inner().unwrap();
            seen.sort();
            assert_eq!(seen, [0, 1, 2, 3, 4], "jobs {jobs}");
            let mut reported = Vec::new();
            let failed = in_parallel(
                6,
                jobs,
                |i| match i {
                    2 | 4 => Err(anyhow!("seed {} failed", i + 1)),
                    _ => Ok(i),
                },
                |i, _| reported.push(i),
            );
            assert_eq!(failed.unwrap_err().to_string(), "seed 3 failed");
            assert_eq!(reported, [0, 1], "jobs {jobs}");
        }
    }
}
