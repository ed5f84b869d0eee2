//! Requests made before they are asked for: while a dependency graph is collected, the files
//! its nodes will need (an artifact and its first checksum file) are fetched into memory, so
//! that downloading them after conflict resolution finds the answers waiting instead of
//! starting a round of requests then. Without it a cold resolution is the chain of POMs, then
//! conflict resolution, then every artifact in rounds of the requests in flight; with it the
//! artifacts travel while the POM chain is still being read.
//!
//! What this owns: the table of answers started ahead, keyed by repository and URL, each
//! taken at most once (the download that takes it sees exactly what its own request would
//! have returned: the body and response, or the repository's 404); the bound on how many run at
//! once (the session's requests in flight, at most what one HTTP/2 connection carries: there
//! they have a connection of their own, so they never take the streams of the POMs the
//! collection waits for) and on the memory that answers nobody took yet may hold ([`BUDGET`],
//! each at most [`MAX_BODY`]). What it does not own: which files to ask for and from which
//! repository (the downloader decides, as its own first attempt would, and asks only when the
//! file is not already local, the version is a fixed release and no repository filter is
//! configured), and nothing here writes to the local repository: an answer nobody takes (a
//! version that lost a conflict) is dropped, so the local repository holds what Maven's would.
//! Any answer that is not a body or a 404 (a timeout, a 5xx, a body too large) is a miss: the
//! download asks the server itself.

use crate::transport::{Fetched, TransportError};
use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{watch, Semaphore};

/// Largest body kept in memory; a larger file is left to its download.
pub(crate) const MAX_BODY: u64 = 4 << 20;
/// Bytes that answers nobody took yet may hold; beyond it nothing more is started.
pub(crate) const BUDGET: u64 = 128 << 20;

/// What a request made ahead returned, as the download will see it.
#[derive(Debug)]
pub(crate) enum Answer {
    /// The body and the response.
    Body(Vec<u8>, Fetched),
    /// The repository does not have it (404/410).
    NotFound {
        repository: String,
        url: String,
        status: u16,
    },
    /// Anything else: the download asks again.
    Miss,
}

impl Answer {
    fn of(result: Result<(Vec<u8>, Fetched), TransportError>) -> Self {
        match result {
            Ok((body, fetched)) => Answer::Body(body, fetched),
            Err(TransportError::NotFound {
                repository,
                url,
                status,
            }) => Answer::NotFound {
                repository,
                url,
                status,
            },
            Err(e) => {
                tracing::trace!(error = %e, "a request made ahead failed; the download asks again");
                Answer::Miss
            }
        }
    }

    /// The answer as the transport gave it.
    pub(crate) fn result(&self) -> Option<Result<(Vec<u8>, Fetched), TransportError>> {
        match self {
            Answer::Body(body, fetched) => Some(Ok((body.clone(), fetched.clone()))),
            Answer::NotFound {
                repository,
                url,
                status,
            } => Some(Err(TransportError::NotFound {
                repository: repository.clone(),
                url: url.clone(),
                status: *status,
            })),
            Answer::Miss => None,
        }
    }

    fn held(&self) -> u64 {
        match self {
            Answer::Body(body, _) => body.len() as u64,
            _ => 0,
        }
    }
}

type Slot = watch::Receiver<Option<Arc<Answer>>>;

/// The answers started ahead (one table per downloader, shared by all its calls).
#[derive(Debug)]
pub(crate) struct Prefetches {
    table: Mutex<HashMap<String, Entry>>,
    /// Bytes held by finished answers still in the table.
    held: AtomicU64,
    at_once: Semaphore,
    serial: AtomicU64,
}

#[derive(Debug)]
struct Entry {
    serial: u64,
    slot: Slot,
}

impl Prefetches {
    /// A table whose requests run at most `at_once` at a time.
    pub(crate) fn new(at_once: usize) -> Self {
        Prefetches {
            table: Mutex::new(HashMap::new()),
            held: AtomicU64::new(0),
            at_once: Semaphore::new(at_once.max(1)),
            serial: AtomicU64::new(0),
        }
    }
}

/// The table's key of `url` asked from repository `repository`.
pub(crate) fn key(repository: &str, url: &str) -> String {
    format!("{repository}|{url}")
}

impl Prefetches {
    fn table(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether more may start (the memory budget is not spent).
    pub(crate) fn has_room(&self) -> bool {
        self.held.load(Ordering::Relaxed) < BUDGET
    }

    /// Starts `request` under `key` on `handle` unless the key is there already; true when
    /// it started. The request runs once a place among those at once is free, and not at all
    /// when the budget is spent by then or the key was forgotten meanwhile.
    pub(crate) fn start<F>(
        self: &Arc<Self>,
        key: String,
        handle: &tokio::runtime::Handle,
        request: F,
    ) -> bool
    where
        F: Future<Output = Result<(Vec<u8>, Fetched), TransportError>> + Send + 'static,
    {
        let serial = self.serial.fetch_add(1, Ordering::Relaxed);
        let (tx, slot) = watch::channel(None);
        {
            let mut table = self.table();
            if table.contains_key(&key) || !self.has_room() {
                return false;
            }
            table.insert(key.clone(), Entry { serial, slot });
        }
        let this = self.clone();
        handle.spawn(async move {
            let answer = match this.at_once.acquire().await {
                // Nobody waits for it any more (forgotten): not asked.
                Ok(_permit) if this.has_room() && !tx.is_closed() => Answer::of(request.await),
                _ => Answer::Miss,
            };
            let answer = Arc::new(answer);
            {
                // Counted while it sits in the table; whoever removes it uncounts it.
                let table = this.table();
                if table.get(&key).is_some_and(|e| e.serial == serial) {
                    this.held.fetch_add(answer.held(), Ordering::Relaxed);
                }
                // Sent under the lock: a taker sees the answer counted iff it is in the slot.
                let _ = tx.send(Some(answer));
            }
        });
        true
    }

    /// Takes the answer started under `key`, waiting for it if it is still on its way; `None`
    /// when nothing was started (or it was taken already).
    pub(crate) async fn take(&self, key: &str) -> Option<Arc<Answer>> {
        let mut slot = {
            let mut table = self.table();
            let entry = table.remove(key)?;
            if let Some(a) = &*entry.slot.borrow() {
                self.held.fetch_sub(a.held(), Ordering::Relaxed);
            }
            entry.slot
        };
        let answer = slot.wait_for(|a| a.is_some()).await.ok()?.clone();
        answer
    }

    /// Drops the answers of `keys` nobody took (a call's, once its downloads are done).
    pub(crate) fn forget(&self, keys: &[String]) {
        let mut table = self.table();
        for k in keys {
            if let Some(entry) = table.remove(k) {
                if let Some(a) = &*entry.slot.borrow() {
                    self.held.fetch_sub(a.held(), Ordering::Relaxed);
                }
            }
        }
    }

    /// How many answers wait in the table (for tests).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.table().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fetched(len: usize) -> Result<(Vec<u8>, Fetched), TransportError> {
        Ok((
            vec![7; len],
            Fetched {
                url: url::Url::parse("https://repo.example/a.jar").unwrap(),
                status: 200,
                headers: Default::default(),
                bytes: len as u64,
                retries: 0,
            },
        ))
    }

    #[tokio::test]
    async fn an_answer_is_taken_once_and_counted_while_it_waits() {
        let p = Arc::new(Prefetches::new(4));
        let h = tokio::runtime::Handle::current();
        assert!(p.start("r|a".into(), &h, async { fetched(10) }));
        assert!(
            !p.start("r|a".into(), &h, async { fetched(10) }),
            "one request per key"
        );
        let a = p.take("r|a").await.expect("started");
        assert!(matches!(&*a, Answer::Body(b, _) if b.len() == 10));
        assert!(p.take("r|a").await.is_none(), "taken once");
        assert_eq!(p.held.load(Ordering::Relaxed), 0);
    }

    #[tokio::test]
    async fn a_404_is_replayed_and_other_failures_are_misses() {
        let p = Arc::new(Prefetches::new(4));
        let h = tokio::runtime::Handle::current();
        p.start("r|gone".into(), &h, async {
            Err(TransportError::NotFound {
                repository: "r".into(),
                url: "https://repo.example/gone.jar".into(),
                status: 404,
            })
        });
        p.start("r|down".into(), &h, async {
            Err(TransportError::Setup("no route".into()))
        });
        let gone = p.take("r|gone").await.unwrap();
        assert!(matches!(gone.result(), Some(Err(e)) if e.is_not_found()));
        let down = p.take("r|down").await.unwrap();
        assert!(down.result().is_none(), "asked again by the download");
    }

    #[tokio::test]
    async fn a_forgotten_request_still_queued_is_never_made_and_a_taken_one_is() {
        let p = Arc::new(Prefetches::new(1));
        let h = tokio::runtime::Handle::current();
        let (release, wait) = tokio::sync::oneshot::channel::<()>();
        p.start("r|busy".into(), &h, async move {
            let _ = wait.await;
            fetched(1)
        });
        let made = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let m = made.clone();
        p.start("r|forgotten".into(), &h, async move {
            m.store(true, Ordering::SeqCst);
            fetched(1)
        });
        p.start("r|taken".into(), &h, async { fetched(3) });
        p.forget(&["r|forgotten".into()]);
        let taken = tokio::spawn({
            let p = p.clone();
            async move { p.take("r|taken").await }
        });
        release.send(()).unwrap();
        let taken = tokio::time::timeout(std::time::Duration::from_secs(5), taken)
            .await
            .expect("answered")
            .unwrap()
            .expect("started");
        assert!(
            matches!(&*taken, Answer::Body(b, _) if b.len() == 3),
            "made for its taker"
        );
        assert!(!made.load(Ordering::SeqCst), "nobody wanted it");
    }

    #[tokio::test]
    async fn forgotten_answers_free_their_memory_and_the_budget_stops_new_ones() {
        let p = Arc::new(Prefetches::new(4));
        let h = tokio::runtime::Handle::current();
        p.start("r|a".into(), &h, async { fetched(1000) });
        // finished and counted
        for _ in 0..200 {
            if p.held.load(Ordering::Relaxed) == 1000 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        assert_eq!(p.held.load(Ordering::Relaxed), 1000);
        p.forget(&["r|a".into(), "r|never".into()]);
        assert_eq!(p.held.load(Ordering::Relaxed), 0);
        assert_eq!(p.len(), 0);
        p.held.store(BUDGET, Ordering::Relaxed);
        assert!(
            !p.start("r|b".into(), &h, async { fetched(1) }),
            "no room: not started"
        );
    }
}
