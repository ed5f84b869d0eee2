//! The async runtime an engine owns: a small multi-threaded Tokio runtime on which all of a
//! session's I/O runs (connections, TLS handshakes, downloads, POM reads), whoever calls.
//!
//! Why a runtime of its own: a session outlives any single call, and its pooled connections
//! are tasks of the runtime they were opened on. If they lived on the caller's runtime, a
//! build tool that calls from a short-lived runtime (one per request, `#[tokio::test]`) would
//! lose them when that runtime stops; and a blocking caller would need a runtime per call. So
//! async methods hand their work to this runtime and await the answer (a [`Task`] can be
//! awaited from any executor), and blocking methods wait for it on the caller's thread.
//!
//! Blocking inside a Tokio runtime would stall (or, with `block_on`, panic) one of its worker
//! threads: [`OwnedRuntime::block_on`] refuses with [`RuntimeError::Nested`] instead. Dropping
//! the runtime never blocks either (its remaining tasks are cancelled in the background), so a
//! session may be dropped from async code.
//!
//! This module does not know what runs on it.

pub(crate) mod pool;

pub(crate) use pool::CollectorPool;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Why the runtime could not run a call.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RuntimeError {
    /// A `blocking_*` method was called on a thread that runs inside a Tokio runtime.
    #[error(
        "a blocking method was called inside a Tokio runtime: use the async method instead \
         (it runs on the session's own runtime, from any runtime), or call from a thread \
         outside the runtime (std::thread::spawn)"
    )]
    Nested,
    /// The runtime's threads could not be started.
    #[error("cannot start the async runtime")]
    Start(#[source] std::io::Error),
    /// The task of the call panicked or was cancelled.
    #[error("the task of the call failed")]
    TaskFailed(#[source] tokio::task::JoinError),
    /// The collection of the call panicked (the message), or the session's engine stopped
    /// before it ran.
    #[error("the collection of the call failed: {0}")]
    Panicked(String),
}

/// A multi-threaded runtime that shuts down without blocking when dropped.
pub(crate) struct OwnedRuntime {
    runtime: Option<tokio::runtime::Runtime>,
    handle: tokio::runtime::Handle,
}

impl std::fmt::Debug for OwnedRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OwnedRuntime")
            .field("workers", &self.handle.metrics().num_workers())
            .finish()
    }
}

impl OwnedRuntime {
    /// A runtime with worker threads sized to the machine (2 to 4: the work is I/O, and the
    /// collector runs on blocking threads of its own), named `name`.
    pub(crate) fn new(name: &str) -> Result<OwnedRuntime, RuntimeError> {
        let workers = std::thread::available_parallelism()
            .map(|n| n.get().clamp(2, 4))
            .unwrap_or(2);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(workers)
            .thread_name(name)
            .enable_all()
            .build()
            .map_err(RuntimeError::Start)?;
        let handle = runtime.handle().clone();
        Ok(OwnedRuntime {
            runtime: Some(runtime),
            handle,
        })
    }

    /// The runtime's handle.
    pub(crate) fn handle(&self) -> &tokio::runtime::Handle {
        &self.handle
    }

    /// Runs `future` on the runtime; the answer is awaited through the [`Task`] (from any
    /// executor). Dropping the task cancels the work.
    pub(crate) fn spawn<F>(&self, future: F) -> Task<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        Task(self.handle.spawn(future))
    }

    /// Runs `future` on the runtime and waits for it on this thread; refused inside a Tokio
    /// runtime ([`RuntimeError::Nested`]).
    pub(crate) fn block_on<F>(&self, future: F) -> Result<F::Output, RuntimeError>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        refuse_nested()?;
        let task = self.spawn(future);
        self.handle.block_on(task)
    }
}

/// [`RuntimeError::Nested`] when this thread runs inside a Tokio runtime (a worker, a blocking
/// thread of `spawn_blocking`, or inside `block_on`).
pub(crate) fn refuse_nested() -> Result<(), RuntimeError> {
    match tokio::runtime::Handle::try_current() {
        Ok(_) => Err(RuntimeError::Nested),
        Err(_) => Ok(()),
    }
}

impl Drop for OwnedRuntime {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

/// A call running on an [`OwnedRuntime`]: a future of its answer, cancelled when dropped.
pub(crate) struct Task<T>(tokio::task::JoinHandle<T>);

impl<T> Future for Task<T> {
    type Output = Result<T, RuntimeError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0)
            .poll(cx)
            .map(|r| r.map_err(RuntimeError::TaskFailed))
    }
}

impl<T> Drop for Task<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocking_inside_a_runtime_is_refused_and_async_callers_of_any_runtime_are_served() {
        let rt = OwnedRuntime::new("test-engine").unwrap();
        assert_eq!(rt.block_on(async { 1 + 1 }).unwrap(), 2);
        let caller = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let answer = caller.block_on(async {
            assert!(matches!(
                rt.block_on(async { 0 }),
                Err(RuntimeError::Nested)
            ));
            rt.spawn(async { std::thread::current().name().map(str::to_string) })
                .await
                .unwrap()
        });
        assert_eq!(answer.as_deref(), Some("test-engine"));
        // dropped inside a runtime: no panic
        caller.block_on(async move { drop(rt) });
    }
}
