//! Work side by side on plain threads, beside the rayon pool.

/// Runs `jobs` on plain threads, at most as many as the rayon pool has, and returns their results in
/// order. Not on the rayon pool: the jobs use it (the PDF writer compresses on it,
/// a game parses its faces on it), and a pool thread blocked waiting for jobs that
/// wait for the pool would never finish.
pub fn in_parallel<T: Send, F: FnOnce() -> T + Send>(jobs: Vec<F>) -> Vec<T> {
    // As many as the rayon pool has (one per core, or RAYON_NUM_THREADS).
    let threads = rayon::current_num_threads().min(jobs.len());
    if threads <= 1 {
        return jobs.into_iter().map(|f| f()).collect();
    }
    let count = jobs.len();
    let queue = std::sync::Mutex::new(jobs.into_iter().enumerate());
    let done = std::sync::Mutex::new(Vec::with_capacity(count));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let Some((i, job)) = queue.lock().ok().and_then(|mut q| q.next()) else {
                    break;
                };
                let result = job();
                if let Ok(mut d) = done.lock() {
                    d.push((i, result));
                }
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_default();
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// Runs `a` and `b` side by side, `b` on a plain thread of its own (not on the
/// rayon pool, for [`in_parallel`]'s reason), and returns both results; one after
/// the other, on the caller's thread, when the rayon pool has one thread
/// (RAYON_NUM_THREADS=1).
pub fn both<A, B: Send>(a: impl FnOnce() -> A, b: impl FnOnce() -> B + Send) -> (A, B) {
    if rayon::current_num_threads() <= 1 {
        let a = a();
        return (a, b());
    }
    std::thread::scope(|s| {
        let b = s.spawn(b);
        let a = a();
        match b.join() {
            Ok(b) => (a, b),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn in_parallel_returns_results_in_job_order() {
        // More jobs than threads, finishing out of order.
        let jobs: Vec<_> = (0..17u64)
            .map(|i| {
                move || {
                    std::thread::sleep(std::time::Duration::from_millis((17 - i) % 5));
                    i * i
                }
            })
            .collect();
        let want: Vec<u64> = (0..17).map(|i| i * i).collect();
        assert_eq!(super::in_parallel(jobs), want);
        let none: Vec<fn() -> u8> = Vec::new();
        assert!(super::in_parallel(none).is_empty());
    }

    #[test]
    fn both_returns_each_result() {
        let (a, b) = super::both(|| "a".repeat(3), || 2 + 2);
        assert_eq!((a.as_str(), b), ("aaa", 4));
    }
}
