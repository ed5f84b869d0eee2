//! Where the collector gets what it reads: artifact descriptors (POMs, through the POM model
//! builder), the versions repositories list for an artifact (`maven-metadata.xml`, for ranges)
//! and how repositories that POMs declare join the list (mirrors, proxies, credentials).
//!
//! [`DescriptorSource`] is that boundary; [`MemorySource`] is an in-memory implementation for
//! tests and benchmarks. The real one (POMs and metadata through the downloader, prefetching in
//! parallel) is [`super::fetch::RepositorySource`].

use crate::repository::RemoteRepository;
use crate::resolution::artifact::{Artifact, ArtifactDescriptor};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The result of reading one artifact's descriptor, with the problem Maven would report.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum DescriptorOutcome {
    /// The POM was read.
    Found(Arc<ArtifactDescriptor>),
    /// No POM in any repository: Maven warns (`missing-pom`) and keeps the node without
    /// children.
    Missing {
        /// The artifact Maven names (after the relocations followed).
        artifact: Artifact,
        /// What Maven keeps: the artifact and relocations, no dependencies.
        partial: Arc<ArtifactDescriptor>,
        /// What the reader said.
        message: String,
    },
    /// The POM cannot be built: Maven warns (`invalid-pom`) and keeps the node without
    /// children.
    Invalid {
        /// The artifact Maven names (after the relocations followed).
        artifact: Artifact,
        /// What Maven keeps: the artifact and relocations, no dependencies.
        partial: Arc<ArtifactDescriptor>,
        /// What the reader said.
        message: String,
    },
    /// The descriptor fails (a parent or BOM that cannot be fetched, a transfer error): the
    /// node stays without children and the collection fails.
    Failed(String),
}

impl DescriptorOutcome {
    /// A missing POM of `artifact` with nothing followed.
    pub fn missing(artifact: &Artifact, message: impl Into<String>) -> Self {
        DescriptorOutcome::Missing {
            artifact: artifact.clone(),
            partial: Arc::new(ArtifactDescriptor {
                artifact: Some(artifact.clone()),
                ..ArtifactDescriptor::default()
            }),
            message: message.into(),
        }
    }
}

/// Where one listed version was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionOrigin {
    /// The local repository's own metadata (installed artifacts).
    Local,
    /// The repository at this index of the list asked.
    Remote(usize),
}

/// The collector's view of the repositories.
pub trait DescriptorSource: Send + Sync {
    /// The descriptor of `artifact`, looked up in `repositories` (already mirrored and
    /// authenticated).
    fn descriptor(
        &self,
        artifact: &Artifact,
        repositories: &Arc<[RemoteRepository]>,
    ) -> DescriptorOutcome;

    /// The versions of `artifact`'s `groupId:artifactId` that the local repository and each
    /// of `repositories` list (`maven-metadata.xml`), local first, then in repository order;
    /// a repository without metadata lists nothing.
    fn versions(
        &self,
        artifact: &Artifact,
        repositories: &[RemoteRepository],
    ) -> Vec<(String, VersionOrigin)>;

    /// `RemoteRepositoryManager.aggregateRepositories(session, dominant, declared, true)`:
    /// repositories a POM declares joined to those in force (mirrors, proxies and credentials
    /// applied to the new ones).
    fn aggregate(
        &self,
        dominant: &[RemoteRepository],
        declared: &[RemoteRepository],
    ) -> Vec<RemoteRepository>;

    /// A hint: these descriptors will probably be asked for soon (a source that fetches over
    /// the network starts them now). The answer must not depend on whether this was called.
    fn prefetch(&self, _requests: Vec<(Artifact, Arc<[RemoteRepository]>)>) {}

    /// A collection starts: the point a replay in order goes back to.
    fn begin_collection(&self) {}

    /// The collection (and its replay, if any) is over.
    fn end_collection(&self) {}

    /// Whether the answers since [`Self::begin_collection`] may depend on the order they were
    /// fetched in (a source that fetched ahead, where the local repository's content decided
    /// an answer): the collection must then be replayed in order.
    fn needs_ordered_replay(&self) -> bool {
        false
    }

    /// Forgets the answers since [`Self::begin_collection`] and from now on answers strictly in
    /// the order asked, seeing the local repository as Maven would have at each step.
    fn start_ordered_replay(&self) {}

    /// Ends the replay: fetching ahead again.
    fn end_ordered_replay(&self) {}
}

/// An in-memory repository world: descriptors by `groupId:artifactId:extension[:classifier]:version`
/// and version listings by `groupId:artifactId` and repository id.
#[derive(Debug, Default)]
pub struct MemorySource {
    descriptors: HashMap<String, DescriptorOutcome>,
    invalid: std::collections::HashSet<String>,
    /// (groupId:artifactId, repository id or "" for local) → versions.
    listings: HashMap<(String, String), Vec<String>>,
    /// Descriptor requests in the order they came (for tests of caching).
    pub requests: Mutex<Vec<String>>,
}

impl MemorySource {
    /// An empty world (every POM missing).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a descriptor (its `artifact` names the key unless given).
    pub fn add(&mut self, key: &str, descriptor: ArtifactDescriptor) {
        self.descriptors.insert(
            key.to_string(),
            DescriptorOutcome::Found(Arc::new(descriptor)),
        );
    }

    /// Marks a POM as invalid.
    pub fn add_invalid(&mut self, key: &str) {
        self.invalid.insert(key.to_string());
    }

    /// Marks a POM as failing (a parent that cannot be fetched).
    pub fn add_failing(&mut self, key: &str) {
        self.descriptors.insert(
            key.to_string(),
            DescriptorOutcome::Failed(format!("cannot build {key}")),
        );
    }

    /// Lists versions of `group:artifact` in repository `repo` ("" for the local repository).
    pub fn list(&mut self, ga: &str, repo: &str, versions: &[&str]) {
        self.listings.insert(
            (ga.to_string(), repo.to_string()),
            versions.iter().map(|v| v.to_string()).collect(),
        );
    }
}

impl DescriptorSource for MemorySource {
    fn descriptor(
        &self,
        artifact: &Artifact,
        _repositories: &Arc<[RemoteRepository]>,
    ) -> DescriptorOutcome {
        let key = artifact.to_string();
        if let Ok(mut r) = self.requests.lock() {
            r.push(key.clone());
        }
        let pom_key = format!(
            "{}:{}:pom:{}",
            artifact.group_id, artifact.artifact_id, artifact.version
        );
        match self
            .descriptors
            .get(&key)
            .or_else(|| self.descriptors.get(&pom_key))
        {
            Some(DescriptorOutcome::Found(d)) => {
                let mut d = (**d).clone();
                if d.artifact.is_none() {
                    d.artifact = Some(artifact.clone());
                }
                DescriptorOutcome::Found(Arc::new(d))
            }
            _ if self.invalid.contains(&key) => DescriptorOutcome::Invalid {
                artifact: artifact.clone(),
                partial: Arc::new(ArtifactDescriptor {
                    artifact: Some(artifact.clone()),
                    ..ArtifactDescriptor::default()
                }),
                message: "invalid POM".into(),
            },
            Some(other) => other.clone(),
            None => DescriptorOutcome::missing(artifact, format!("no POM for {key}")),
        }
    }

    fn versions(
        &self,
        artifact: &Artifact,
        repositories: &[RemoteRepository],
    ) -> Vec<(String, VersionOrigin)> {
        let ga = format!("{}:{}", artifact.group_id, artifact.artifact_id);
        let mut out = Vec::new();
        if let Some(vs) = self.listings.get(&(ga.clone(), String::new())) {
            out.extend(vs.iter().map(|v| (v.clone(), VersionOrigin::Local)));
        }
        for (i, r) in repositories.iter().enumerate() {
            if let Some(vs) = self.listings.get(&(ga.clone(), r.id.clone())) {
                out.extend(vs.iter().map(|v| (v.clone(), VersionOrigin::Remote(i))));
            }
        }
        out
    }

    fn aggregate(
        &self,
        dominant: &[RemoteRepository],
        declared: &[RemoteRepository],
    ) -> Vec<RemoteRepository> {
        let mut out = dominant.to_vec();
        for r in declared {
            if !out.iter().any(|d| d.id == r.id) {
                out.push(r.clone());
            }
        }
        out
    }
}
