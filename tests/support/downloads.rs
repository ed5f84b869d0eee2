//! The downloader as these tests drive it: a configuration and the repository list its calls
//! name (the downloader takes repositories per call; most tests use one list per downloader).
#![allow(clippy::result_large_err)]

use m2resolver::download::{
    ArtifactFile, BlockingDownloader, DownloadError, Downloader, DownloaderConfig,
};
use m2resolver::{Artifact, RemoteRepository};

/// A downloader configuration and the repositories its calls name (the downloader takes them
/// per call; these tests use one list per downloader).
#[derive(Clone)]
pub struct Config {
    pub cfg: DownloaderConfig,
    pub repos: Vec<RemoteRepository>,
}

impl std::ops::Deref for Config {
    type Target = DownloaderConfig;
    fn deref(&self) -> &DownloaderConfig {
        &self.cfg
    }
}

impl std::ops::DerefMut for Config {
    fn deref_mut(&mut self) -> &mut DownloaderConfig {
        &mut self.cfg
    }
}

/// A blocking downloader with its repositories.
pub struct Resolving {
    downloader: BlockingDownloader,
    repos: Vec<RemoteRepository>,
}

impl Resolving {
    pub fn new(c: Config) -> Result<Resolving, DownloadError> {
        Ok(Resolving {
            downloader: BlockingDownloader::new(c.cfg)?,
            repos: c.repos,
        })
    }

    pub fn resolve(&self, coords: &[Artifact]) -> Vec<Result<ArtifactFile, DownloadError>> {
        self.downloader
            .download(coords, &self.repos)
            .expect("called outside a runtime")
    }

    pub fn resolver(&self) -> &Downloader {
        self.downloader.downloader()
    }
}
