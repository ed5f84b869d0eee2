//! Download: Maven 2 layout, metadata, checksums, local repository and the parallel scheduler.
//!
//! Entry points: [`Resolver`] (async) and [`BlockingResolver`], configured by a
//! [`ResolverConfig`] holding the repositories (as the repository module produced them) and the
//! local repository path. See [`resolver`] for the flow per artifact, and [`segment`] for how
//! values from outside become paths (only through validated segments).
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

pub mod checksum;
pub mod coords;
pub mod error;
pub mod layout;
pub mod ledger;
pub mod local;
pub mod metadata;
pub mod policy;
pub mod progress;
pub mod properties;
pub mod resolver;
pub mod segment;

pub use coords::{Coordinate, CoordinateError};
pub use error::DownloadError;
pub use policy::{Clock, ManualClock, SystemClock};
pub use progress::{NoProgress, ProgressListener};
pub use resolver::{
    BlockingResolver, ChecksumOutcome, DownloadLimits, ResolvedArtifact, Resolver, ResolverConfig,
    DEFAULT_IN_FLIGHT,
};
pub use segment::{RepoPath, Segment, SegmentError, SegmentKind};
