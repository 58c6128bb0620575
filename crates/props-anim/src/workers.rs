//! [`Workers`]: persistent worker threads for evaluating large crowds (a rayon pool, started
//! once; spawning threads per frame would cost tens of microseconds). Work is split into
//! contiguous runs of instances, each evaluated by the same code as on one thread, so results
//! are bitwise identical whatever the number of threads.

/// A pool of worker threads, kept for the program's life.
#[derive(Debug)]
pub struct Workers {
    pool: rayon::ThreadPool,
}

/// Why the pool could not start.
#[derive(Debug, thiserror::Error)]
#[error("could not start worker threads: {0}")]
pub struct WorkersError(#[from] rayon::ThreadPoolBuildError);

impl Workers {
    /// A pool of `threads` threads (0: one per core).
    pub fn new(threads: usize) -> Result<Self, WorkersError> {
        let pool =
            rayon::ThreadPoolBuilder::new().num_threads(threads).thread_name(|i| format!("props-anim-{i}")).build()?;
        Ok(Self { pool })
    }

    /// Threads in the pool.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Runs `f` on one of the pool's threads and waits for it; parallel work inside it (such
    /// as [`crate::crowd::Crowd::update`]) uses the pool's threads.
    ///
    /// Each call from outside the pool hands a job to the pool's queue, whose storage (rayon's
    /// injector) allocates a block of about 1.5 KB every 63 calls and frees the previous
    /// one, and wakes a pool thread and waits to be woken (about 5 us a frame on a 2-vCPU
    /// machine). A frame loop that runs inside one `install` avoids both:
    /// [`crate::crowd::Crowd::update`] called from a pool thread queues its work locally, without
    /// allocating, and that thread works until the frame is done.
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.install(f)
    }

    /// Runs `a` and `b`, at once on the pool's threads, and returns both results (inside
    /// [`Workers::install`], without allocating).
    pub fn join<A: Send, B: Send>(&self, a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
        self.pool.install(|| rayon::join(a, b))
    }

    /// Calls `f` on every item, several at once on the pool's threads: each item is a task of
    /// its own, for a few uneven items (a thread busy with a large one leaves the others to
    /// the rest).
    pub fn for_each_mut<T: Send>(&self, items: &mut [T], f: impl Fn(&mut T) + Send + Sync) {
        use rayon::prelude::*;
        self.pool.install(|| items.par_iter_mut().with_max_len(1).for_each(f));
    }

    /// Calls `f` on every run of consecutive items that `same` (called on neighbours) puts
    /// together, several runs at once on the pool's threads.
    pub fn for_each_run_mut<T: Send>(
        &self,
        items: &mut [T],
        same: impl Fn(&T, &T) -> bool + Send + Sync,
        f: impl Fn(&mut [T]) + Send + Sync,
    ) {
        use rayon::prelude::*;
        self.pool.install(|| items.par_chunk_by_mut(same).for_each(f));
    }

    /// Calls `f` on each chunk of `chunk` consecutive items (the last may be shorter), with
    /// the chunk's number, several at once on the pool's threads.
    pub fn for_each_chunk_mut<T: Send>(
        &self,
        items: &mut [T],
        chunk: usize,
        f: impl Fn(usize, &mut [T]) + Send + Sync,
    ) {
        use rayon::prelude::*;
        self.pool.install(|| items.par_chunks_mut(chunk.max(1)).enumerate().for_each(|(k, chunk)| f(k, chunk)));
    }
}
