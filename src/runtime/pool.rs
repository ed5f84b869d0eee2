//! The threads an engine's collections run on: at most a few at once, the other calls waiting
//! in line, in the order they came.
//!
//! A collection is blocking code (Maven's depth-first walk, waiting on the runtime for each
//! descriptor it has not got yet), so it needs a thread of its own. A build tool may start 40
//! calls at once; with a thread each (Tokio's blocking pool) they contend for 2 cores, and each
//! thread allocates in a heap of its own, so memory the kernel must zero page by page grows
//! with every thread. A few threads that take the calls one after another do the same work
//! with a fraction of the memory and, on a warm build, in a fraction of the time. What a call
//! waits for while in line is not lost: the descriptors it will read are started when it is
//! queued (the session's read ahead, see `Session::collecting`).
//!
//! A queued call whose caller went away (the future was dropped) is never run. A call that
//! panics answers [`RuntimeError::Panicked`]; the thread goes on with the next one.
//!
//! This module knows nothing of what the calls compute.

use super::RuntimeError;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Condvar, Mutex};
use std::task::{Context, Poll};

type Job = Box<dyn FnOnce() + Send + 'static>;

#[derive(Default)]
struct State {
    queue: VecDeque<Job>,
    threads: usize,
    idle: usize,
    closed: bool,
}

struct Shared {
    state: Mutex<State>,
    work: Condvar,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        match self.state.lock() {
            Ok(s) => s,
            Err(e) => e.into_inner(),
        }
    }
}

/// See the [module documentation](self).
pub(crate) struct CollectorPool {
    shared: Arc<Shared>,
    max: usize,
    name: String,
    handle: tokio::runtime::Handle,
}

impl std::fmt::Debug for CollectorPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.shared.lock();
        f.debug_struct("CollectorPool")
            .field("max", &self.max)
            .field("threads", &state.threads)
            .field("queued", &state.queue.len())
            .finish()
    }
}

impl CollectorPool {
    /// A pool of at most `max` threads named `name`, each inside `handle`'s runtime (so that
    /// the calls may block on it and spawn on it).
    pub(crate) fn new(name: &str, max: usize, handle: tokio::runtime::Handle) -> Self {
        CollectorPool {
            shared: Arc::new(Shared {
                state: Mutex::new(State::default()),
                work: Condvar::new(),
            }),
            max: max.max(1),
            name: name.to_string(),
            handle,
        }
    }

    /// Twice the processors this process may use, at least 4.
    pub(crate) fn threads_for_machine() -> usize {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        (2 * cores).max(4)
    }

    /// Runs `work` on a thread of the pool when one is free; the answer is awaited through the
    /// returned future (from any executor). Dropping the future before the work started
    /// means it never runs.
    pub(crate) fn spawn<R, F>(&self, work: F) -> PoolTask<R>
    where
        F: FnOnce() -> R + Send + 'static,
        R: Send + 'static,
    {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            if tx.is_closed() {
                return;
            }
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
                .map_err(|payload| panic_text(payload.as_ref()));
            let _ = tx.send(out);
        });
        let start_thread = {
            let mut state = self.shared.lock();
            state.queue.push_back(job);
            if state.idle > 0 {
                self.shared.work.notify_one();
            }
            // More work queued than idle threads to wake: another thread, if the bound allows.
            let start = state.queue.len() > state.idle && state.threads < self.max;
            if start {
                state.threads += 1;
            }
            start
        };
        if start_thread {
            self.start_thread();
        }
        PoolTask(rx)
    }

    fn start_thread(&self) {
        let shared = self.shared.clone();
        let handle = self.handle.clone();
        let started = std::thread::Builder::new()
            .name(self.name.clone())
            .spawn(move || {
                let _runtime = handle.enter();
                worker(&shared);
            });
        if started.is_err() {
            // No thread: the queued work waits for the pool's other threads (there is at least
            // one unless this was the first; then run it here, on the caller's thread, rather
            // than never).
            let mut state = self.shared.lock();
            state.threads -= 1;
            if state.threads == 0 {
                let jobs: Vec<Job> = state.queue.drain(..).collect();
                drop(state);
                for job in jobs {
                    job();
                }
            }
        }
    }
}

fn worker(shared: &Shared) {
    let mut state = shared.lock();
    loop {
        if let Some(job) = state.queue.pop_front() {
            drop(state);
            job();
            state = shared.lock();
            continue;
        }
        if state.closed {
            state.threads -= 1;
            return;
        }
        state.idle += 1;
        state = match shared.work.wait(state) {
            Ok(s) => s,
            Err(e) => e.into_inner(),
        };
        state.idle -= 1;
    }
}

impl Drop for CollectorPool {
    fn drop(&mut self) {
        // The threads finish what is queued (each job answers or finds its caller gone) and end.
        self.shared.lock().closed = true;
        self.shared.work.notify_all();
    }
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// The answer of work given to a [`CollectorPool`].
pub(crate) struct PoolTask<R>(tokio::sync::oneshot::Receiver<Result<R, String>>);

impl<R> Future for PoolTask<R> {
    type Output = Result<R, RuntimeError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0).poll(cx).map(|r| match r {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(message)) => Err(RuntimeError::Panicked(message)),
            Err(_) => Err(RuntimeError::Panicked(
                "the session's engine stopped before the call ran".to_string(),
            )),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn at_most_max_threads_run_the_calls_in_order_and_a_panic_is_an_answer() {
        let rt = runtime();
        let pool = CollectorPool::new("test-pool", 2, rt.handle().clone());
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let order = Arc::new(Mutex::new(Vec::new()));
        let tasks: Vec<_> = (0..10)
            .map(|i| {
                let (running, most, order) = (running.clone(), most.clone(), order.clone());
                pool.spawn(move || {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    order.lock().unwrap().push(i);
                    // inside the runtime: the calls may block on it
                    let v = tokio::runtime::Handle::current().block_on(async { i * 2 });
                    std::thread::sleep(std::time::Duration::from_millis(2));
                    running.fetch_sub(1, Ordering::SeqCst);
                    v
                })
            })
            .collect();
        let answers: Vec<usize> = rt
            .block_on(futures_util::future::join_all(tasks))
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(answers, (0..10).map(|i| i * 2).collect::<Vec<_>>());
        assert!(most.load(Ordering::SeqCst) <= 2, "at most 2 at once");
        let started = order.lock().unwrap().clone();
        assert_eq!(started.len(), 10);
        assert!(
            started[..2].iter().all(|&i| i < 2),
            "the first two first: {started:?}"
        );
        let failed = rt.block_on(pool.spawn(|| -> usize { panic!("boom") }));
        assert!(matches!(failed, Err(RuntimeError::Panicked(m)) if m == "boom"));
        assert_eq!(
            rt.block_on(pool.spawn(|| 7)).unwrap(),
            7,
            "the thread goes on"
        );
    }

    #[test]
    fn a_call_whose_caller_left_is_never_run() {
        let rt = runtime();
        let pool = CollectorPool::new("test-pool", 1, rt.handle().clone());
        let (release, gate) = std::sync::mpsc::channel::<()>();
        let first = pool.spawn(move || gate.recv().unwrap());
        let ran = Arc::new(AtomicUsize::new(0));
        let r = ran.clone();
        drop(pool.spawn(move || r.fetch_add(1, Ordering::SeqCst)));
        release.send(()).unwrap();
        rt.block_on(first).unwrap();
        rt.block_on(pool.spawn(|| ())).unwrap();
        assert_eq!(ran.load(Ordering::SeqCst), 0);
    }
}
