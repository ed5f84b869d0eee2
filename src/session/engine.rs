//! The engine of a session: what one [`Session`](super::Session) uses for every dependency and
//! download call it answers, made once (on the first such call) and kept for the session's
//! lifetime.
//!
//! - one runtime ([`OwnedRuntime`]): all I/O of the session runs there, whichever runtime (or
//!   none) the caller uses, so pooled connections outlive the calls that opened them;
//! - one downloader ([`Downloader`]): one transport (connection pool, TLS configuration,
//!   per-proxy and per-server authentication state, route memory), one local repository, one
//!   bound on requests in flight shared by all calls, one update-check record (Maven's
//!   session-scoped "already checked") and one ledger;
//! - one pool of collector threads ([`CollectorPool`]): every call's collection runs there, a
//!   few at a time (twice the cores), the others waiting in line with their descriptors
//!   already being read ahead;
//! - one descriptor reader ([`DescriptorReader`]): the session's descriptor and model cache
//!   (descriptors per artifact and repository list, raw parents, imported management, parsed
//!   files), which also holds the in-flight reads, so that two calls asking for the same POM
//!   fetch it once.
//!
//! What is per call (the collector's state, a collection's mark and replay in the ledger) is
//! made for each call from these ([`Engine::source`]).

use crate::download::{Downloader, DownloaderConfig, ProgressListener};
use crate::repository::Selectors;
use crate::resolution::collect::fetch::{ReadAheadMemory, RepositorySource};
use crate::resolution::pom::DescriptorReader;
use crate::runtime::{CollectorPool, OwnedRuntime};
use std::collections::HashMap;
use std::sync::Arc;

/// See the [module documentation](self).
pub(crate) struct Engine {
    pub(crate) runtime: OwnedRuntime,
    pub(crate) reader: Arc<DescriptorReader>,
    pub(crate) selectors: Selectors,
    pub(crate) listener: Arc<dyn ProgressListener>,
    /// What the session's collections read ahead below (shared by all of them).
    read_ahead: Arc<ReadAheadMemory>,
    /// The threads the calls' collections run on, a few at a time.
    pub(crate) collectors: CollectorPool,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("runtime", &self.runtime)
            .field("downloader", self.downloader())
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// Builds the runtime, the downloader (transport: extra CA files are read now) and the
    /// reader.
    pub(crate) fn new(
        config: DownloaderConfig,
        selectors: Selectors,
        system_properties: HashMap<String, String>,
        user_properties: HashMap<String, String>,
    ) -> Result<Engine, super::SessionError> {
        let runtime = OwnedRuntime::new("m2r-session")
            .map_err(|source| super::SessionError::Runtime { source })?;
        let listener = config.listener.clone();
        let downloader =
            Downloader::new(config).map_err(|source| super::SessionError::Downloader {
                source: Box::new(source),
            })?;
        let reader = Arc::new(DescriptorReader::new(
            downloader,
            selectors.clone(),
            system_properties,
            user_properties,
        ));
        let collectors = CollectorPool::new(
            "m2r-collect",
            CollectorPool::threads_for_machine(),
            runtime.handle().clone(),
        );
        Ok(Engine {
            runtime,
            reader,
            selectors,
            listener,
            read_ahead: Arc::default(),
            collectors,
        })
    }

    /// The session's downloader.
    pub(crate) fn downloader(&self) -> &Downloader {
        self.reader.downloader()
    }

    /// The collector's source for one collection, over the session's reader, fetching on the
    /// engine's runtime.
    pub(crate) fn source(&self) -> RepositorySource {
        RepositorySource::new(
            self.reader.clone(),
            self.selectors.clone(),
            self.runtime.handle().clone(),
            self.read_ahead.clone(),
        )
    }

    /// Forgets what the session checked and read (Maven: a new session), keeping connections,
    /// learned authentication and parsed files.
    pub(crate) fn refresh(&self) {
        self.downloader().forget_checks();
        self.reader.forget_answers();
        self.read_ahead.clear();
    }
}
