//! The session's publishing front door: [`Session::install`] and [`Session::deploy`] (async and
//! blocking), the deployment repository with the session's credentials and proxies
//! ([`Session::deployment_repository`]), the project's own (`distributionManagement`,
//! [`Session::project_deployment_repository`]), and the upload options the session's
//! properties set ([`Session::deploy_options`]).
//!
//! Both calls run on the session's engine, as its dependency calls do: its runtime, its
//! transport (the same connection pool, TLS configuration, learned proxy and server
//! authentication and route memory as downloads), its local repository (and its locks), its
//! progress listener (phases [`Phase::Installing`](crate::Phase::Installing) and
//! [`Phase::Deploying`](crate::Phase::Deploying)). The rules are [`crate::publish`]'s.

use super::engine::Engine;
use super::{Session, SessionError};
use crate::publish::{
    deploy, install, DeployOptions, DeployReport, InstallReport, PublishError, PublishRequest,
};
use crate::repository::{self, InjectionTrace, MirrorMatch, RemoteRepository};
use crate::settings::SettingsProblem;
use std::path::Path;
use std::sync::Arc;

/// A deployment repository as the session injects it: the server's credentials and transport
/// settings, the proxy, no mirror.
#[derive(Debug, Clone)]
pub struct DeploymentRepository {
    /// The repository to upload to.
    pub repository: RemoteRepository,
    /// How it was injected (credentials, proxy, why each mirror does not match).
    pub trace: InjectionTrace,
    /// The mirror that would replace this repository for downloads (mirrors are not applied to
    /// deployments).
    pub would_mirror: Option<MirrorMatch>,
    /// Credentials or header values that could not be decrypted (they are not sent).
    pub problems: Vec<SettingsProblem>,
}

/// The work of one publishing call, as the engine's runtime runs it.
type Work<T> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<T, SessionError>> + Send + 'static>>;

fn deploy_task(
    request: &PublishRequest,
    target: DeploymentRepository,
    options: &DeployOptions,
    offline: bool,
) -> impl FnOnce(Arc<Engine>) -> Work<DeployReport> {
    let (request, options) = (request.clone(), options.clone());
    move |engine| {
        Box::pin(async move {
            let downloader = engine.downloader();
            let mut report = deploy::deploy(
                deploy::Deployment {
                    transport: downloader.transport(),
                    local: downloader.local(),
                    listener: &engine.listener,
                    repository: &target.repository,
                    options: &options,
                    offline,
                },
                &request,
            )
            .await?;
            let mut warnings: Vec<String> = target.problems.iter().map(|p| p.to_string()).collect();
            warnings.append(&mut report.warnings);
            report.warnings = warnings;
            Ok(report)
        })
    }
}

fn install_task(request: &PublishRequest) -> impl FnOnce(Arc<Engine>) -> Work<InstallReport> {
    let request = request.clone();
    move |engine| {
        Box::pin(async move {
            let local = engine.downloader().local().clone();
            Ok(install::install(local, request, engine.listener.clone()).await?)
        })
    }
}

impl Session {
    /// The upload options the session's properties give for `repository_id`
    /// ([`DeployOptions::from_properties`] over [`Self::config_property`]: `-D`, system
    /// properties, then the properties of profiles activated by id), uploads in flight from
    /// [`crate::SessionBuilder::max_in_flight`] unless `m2r.deploy.threads` is set.
    pub fn deploy_options(&self, repository_id: &str) -> Result<DeployOptions, PublishError> {
        let mut o = DeployOptions::from_properties(
            |k| self.config_property(k).map(str::to_string),
            repository_id,
        )?;
        if self.config_property("m2r.deploy.threads").is_none() {
            if let Some(n) = self.downloads.max_in_flight {
                o.max_in_flight = n.max(1);
            }
        }
        Ok(o)
    }

    /// `raw` as a deployment repository: the credentials and transport settings of the
    /// `<server>` with its id, the proxy for its host, and — as in Maven — no mirror.
    pub fn deployment_repository(&self, raw: &RemoteRepository) -> DeploymentRepository {
        let (mut repo, trace, would_mirror) = repository::inject_deployment(raw, &self.selectors);
        let problems = self.open(std::slice::from_mut(&mut repo));
        DeploymentRepository {
            repository: repo,
            trace,
            would_mirror,
            problems,
        }
    }

    /// [`Self::deployment_repository`] without the clear credentials (for [`crate::explain`]).
    pub(crate) fn inject_deployment_sealed(
        &self,
        raw: &RemoteRepository,
    ) -> (RemoteRepository, InjectionTrace, Option<MirrorMatch>) {
        repository::inject_deployment(raw, &self.selectors)
    }

    /// The deployment repository of the project `pom` for `version` (its effective
    /// `distributionManagement`, parents included, built with `repositories` for remote parents).
    pub async fn project_deployment_repository(
        &self,
        pom: &Path,
        version: &str,
        repositories: &[RemoteRepository],
    ) -> Result<RemoteRepository, SessionError> {
        let description = self.describe_project(pom, repositories).await?;
        Ok(crate::publish::distribution_repository(
            &description.model,
            version,
        )?)
    }

    /// [`Self::project_deployment_repository`], blocking (refused inside a Tokio runtime).
    pub fn blocking_project_deployment_repository(
        &self,
        pom: &Path,
        version: &str,
        repositories: &[RemoteRepository],
    ) -> Result<RemoteRepository, SessionError> {
        let description = self.blocking_describe_project(pom, repositories)?;
        Ok(crate::publish::distribution_repository(
            &description.model,
            version,
        )?)
    }

    /// Deploys `request` to `repository` (raw: the session injects it as
    /// [`Self::deployment_repository`] does) as Maven's deployer does, on the session's engine;
    /// see [`crate::publish`]. Refused offline. On failure
    /// [`SessionError::deploy_report`] says which files reached the server.
    pub async fn deploy(
        &self,
        request: &PublishRequest,
        repository: &RemoteRepository,
        options: &DeployOptions,
    ) -> Result<DeployReport, SessionError> {
        let target = self.deployment_repository(repository);
        self.on_engine(deploy_task(request, target, options, self.offline.value))
            .await
    }

    /// [`Self::deploy`], blocking (refused inside a Tokio runtime).
    pub fn blocking_deploy(
        &self,
        request: &PublishRequest,
        repository: &RemoteRepository,
        options: &DeployOptions,
    ) -> Result<DeployReport, SessionError> {
        let target = self.deployment_repository(repository);
        self.blocking_on_engine(deploy_task(request, target, options, self.offline.value))
    }

    /// Installs `request` into the session's local repository as Maven's installer does, on the
    /// session's engine; see [`crate::publish`].
    pub async fn install(&self, request: &PublishRequest) -> Result<InstallReport, SessionError> {
        self.on_engine(install_task(request)).await
    }

    /// [`Self::install`], blocking (refused inside a Tokio runtime).
    pub fn blocking_install(
        &self,
        request: &PublishRequest,
    ) -> Result<InstallReport, SessionError> {
        self.blocking_on_engine(install_task(request))
    }
}
