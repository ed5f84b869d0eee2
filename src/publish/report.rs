//! What an install or a deployment did, file by file: [`DeployReport`] (every planned upload with
//! its outcome, so a failed deployment says what reached the server and what did not, and a
//! second run can be told apart from an overwrite) and [`InstallReport`]. Progress while it
//! happens goes to the session's [`crate::ProgressListener`].

use std::path::PathBuf;

/// What a planned file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileKind {
    /// An artifact (POM, main file, attachment).
    Artifact,
    /// A checksum file of an artifact or of metadata.
    Checksum,
    /// A `maven-metadata.xml`.
    Metadata,
}

/// What happened to one planned upload.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UploadState {
    /// The server took it.
    Uploaded {
        /// Its status (201 created, 204 replaced, ...).
        status: u16,
        /// Retries it took.
        retries: u32,
    },
    /// The upload failed (for a checksum: a warning, as in Maven).
    Failed {
        /// Why (one line).
        message: String,
    },
    /// Not tried: an earlier failure stopped the deployment.
    NotAttempted,
}

/// One planned upload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadRecord {
    /// The path in the repository (`org/example/lib/1.0/lib-1.0.jar`).
    pub path: String,
    /// What it is.
    pub kind: FileKind,
    /// Its size in bytes.
    pub bytes: u64,
    /// What happened.
    pub state: UploadState,
}

/// A deployed module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeployedModule {
    /// `groupId:artifactId:version` as requested.
    pub gav: String,
    /// The version the files got (`1.0-20261201.120000-3` for a snapshot).
    pub version: String,
    /// A snapshot's build number.
    pub build_number: Option<u32>,
}

/// Everything a deployment did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeployReport {
    /// The deployment repository id.
    pub repository: String,
    /// Its URL (redacted).
    pub url: String,
    /// The modules, in the request's order.
    pub modules: Vec<DeployedModule>,
    /// Every planned upload, artifacts first, in the order they were planned.
    pub uploads: Vec<UploadRecord>,
    /// Warnings (a checksum upload that failed, metadata without a checksum to check).
    pub warnings: Vec<String>,
}

impl DeployReport {
    /// Uploads in `state`'s variant.
    fn count(&self, f: impl Fn(&UploadRecord) -> bool) -> usize {
        self.uploads.iter().filter(|u| f(u)).count()
    }

    /// The files the server took.
    pub fn uploaded(&self) -> impl Iterator<Item = &UploadRecord> {
        self.uploads
            .iter()
            .filter(|u| matches!(u.state, UploadState::Uploaded { .. }))
    }

    /// The files that are not on the server (failed or not tried).
    pub fn not_uploaded(&self) -> impl Iterator<Item = &UploadRecord> {
        self.uploads
            .iter()
            .filter(|u| !matches!(u.state, UploadState::Uploaded { .. }))
    }

    /// Whether any `maven-metadata.xml` was uploaded.
    pub fn metadata_changed(&self) -> bool {
        self.uploaded().any(|u| u.kind == FileKind::Metadata)
    }

    /// One sentence for an error message: how many files reached the server and whether the
    /// metadata changed.
    pub fn outcome_summary(&self) -> String {
        let uploaded = self.count(|u| matches!(u.state, UploadState::Uploaded { .. }));
        let left = self.uploads.len() - uploaded;
        let metadata = if self.metadata_changed() {
            "some metadata was updated (see the report)"
        } else {
            "no maven-metadata.xml was changed, so the version is not visible to resolvers"
        };
        format!(
            "{uploaded} of {} files reached the server, {left} did not; {metadata}; running the deployment again uploads them all again (overwriting the {uploaded})",
            self.uploads.len()
        )
    }

    /// The report for people: one line per file that reached the server and per file that did
    /// not, then the warnings.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let line = |out: &mut String, mark: &str, u: &UploadRecord, note: &str| {
            out.push_str(&format!("  {mark} {}{note}\n", u.path));
        };
        let uploaded: Vec<&UploadRecord> = self.uploaded().collect();
        out.push_str(&format!(
            "uploaded to `{}` ({}): {} file(s)\n",
            self.repository,
            self.url,
            uploaded.len()
        ));
        for u in &uploaded {
            line(&mut out, "+", u, "");
        }
        let missing: Vec<&UploadRecord> = self.not_uploaded().collect();
        if !missing.is_empty() {
            out.push_str(&format!("not uploaded: {} file(s)\n", missing.len()));
            for u in missing {
                let note = match &u.state {
                    UploadState::Failed { message } => format!(" (failed: {message})"),
                    _ => " (not attempted)".to_string(),
                };
                line(&mut out, "-", u, &note);
            }
        }
        for w in &self.warnings {
            out.push_str(&format!("warning: {w}\n"));
        }
        out
    }
}

/// One file an install wrote (or found unchanged).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstalledFile {
    /// Its path in the local repository.
    pub path: PathBuf,
    /// Whether it was copied (`false`: the same size and modification time were already there,
    /// as Maven skips it; a POM is always copied).
    pub copied: bool,
}

/// Everything an install did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InstallReport {
    /// The local repository.
    pub local_repository: PathBuf,
    /// The artifacts, in the request's order.
    pub files: Vec<InstalledFile>,
    /// The `maven-metadata-local.xml` files written.
    pub metadata: Vec<PathBuf>,
}
