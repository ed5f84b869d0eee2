//! Download: Maven 2 layout, metadata, checksums, local repository and the parallel scheduler.
//!
//! Entry points: [`Resolver`] (async) and [`BlockingResolver`], configured by a
//! [`ResolverConfig`] holding the repositories (as the repository module produced them) and the
//! local repository path ([`crate::Session::resolver_config`] fills them from a session). The
//! flow per artifact is documented in `resolver.rs`; values from outside become paths only
//! through validated segments (`segment.rs`).
//!
//! ```no_run
//! use m2resolver::download::{BlockingResolver, Coordinate, ResolverConfig};
//! use m2resolver::repository::RemoteRepository;
//! let repos = vec![RemoteRepository::new("central", "https://repo.maven.apache.org/maven2")];
//! let resolver = BlockingResolver::new(ResolverConfig::new(repos, "/tmp/m2")).unwrap();
//! let coords = [Coordinate::parse("junit:junit:4.13.2").unwrap()];
//! for r in resolver.resolve(&coords) {
//!     println!("{}", r.unwrap().path.display());
//! }
//! ```

pub(crate) mod chain;
pub(crate) mod checksum;
pub(crate) mod coords;
pub(crate) mod error;
pub(crate) mod filter;
pub(crate) mod layout;
pub(crate) mod ledger;
pub(crate) mod local;
pub(crate) mod metadata;
pub(crate) mod policy;
pub(crate) mod progress;
pub(crate) mod properties;
pub(crate) mod resolver;
pub(crate) mod segment;

#[cfg(test)]
mod path_proptests;

pub use chain::{LocalTail, TailHit};
pub use coords::{Coordinate, CoordinateError};
pub use error::DownloadError;
pub use filter::{FilterConfig, GroupRules, PrefixRules, PrefixTree, RepositoryFilter, Verdict};
pub use policy::{Clock, ManualClock, SystemClock};
pub use progress::{NoProgress, ProgressListener};
pub use resolver::{
    BlockingResolver, ChecksumOutcome, DownloadLimits, ResolvedArtifact, Resolver, ResolverConfig,
    DEFAULT_IN_FLIGHT, DEFAULT_MAX_ARTIFACT_BYTES, DEFAULT_MAX_CHECKSUM_BYTES,
    DEFAULT_MAX_METADATA_BYTES,
};
pub use segment::{RepoPath, Segment, SegmentError, SegmentKind, MAX_SEGMENT_BYTES};
