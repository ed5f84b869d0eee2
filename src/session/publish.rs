//! The session's publishing front door: [`Session::install`] and [`Session::deploy`] (async and
//! blocking), the deployment repository with the session's credentials and proxies
//! ([`Session::deployment_repository`]), the project's own (`distributionManagement`,
//! [`Session::project_deployment_repository`]), and the upload options the session's
//! properties set ([`Session::deploy_options`]). The rules are [`crate::publish`]'s.

use super::Session;
use crate::download::local::LocalRepository;
use crate::publish::{
    deploy, install, DeployOptions, DeployReport, InstallReport, PublishError, PublishRequest,
};
use crate::repository::{self, InjectionTrace, MirrorMatch, RemoteRepository};
use crate::settings::Problem;
use crate::transport::Transport;
use std::path::Path;

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
    pub problems: Vec<Problem>,
}

fn no_runtime_inside() -> Result<tokio::runtime::Runtime, PublishError> {
    if tokio::runtime::Handle::try_current().is_ok() {
        return Err(PublishError::Runtime {
            what: "a blocking publish method was called inside a Tokio runtime: use the async one",
            source: None,
        });
    }
    crate::download::resolver::blocking_runtime().map_err(|e| PublishError::Runtime {
        what: "cannot start the async runtime",
        source: Some(Box::new(e)),
    })
}

impl Session {
    /// A property as Resolver's configuration sees it: the user properties (`-D`), then the
    /// system properties.
    fn config_property(&self, name: &str) -> Option<String> {
        self.user_properties
            .value(name)
            .or_else(|| self.environment.system_properties.value(name))
            .map(str::to_string)
    }

    /// The upload options the session's properties give for `repository_id`
    /// ([`DeployOptions::from_properties`]), uploads in flight from
    /// [`crate::SessionBuilder::max_in_flight`] unless `m2r.deploy.threads` is set.
    pub fn deploy_options(&self, repository_id: &str) -> Result<DeployOptions, PublishError> {
        let mut o = DeployOptions::from_properties(|k| self.config_property(k), repository_id)?;
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
    ) -> Result<RemoteRepository, PublishError> {
        let description = self
            .describe_project(pom, repositories)
            .await
            .map_err(|e| PublishError::Repository {
                message: format!(
                    "cannot read the deployment repository of {}: {}",
                    pom.display(),
                    crate::printable::quote_prefix(&e.to_string(), 2000)
                ),
            })?;
        crate::publish::distribution_repository(&description.model, version)
    }

    /// [`Self::project_deployment_repository`], blocking.
    pub fn blocking_project_deployment_repository(
        &self,
        pom: &Path,
        version: &str,
        repositories: &[RemoteRepository],
    ) -> Result<RemoteRepository, PublishError> {
        no_runtime_inside()?.block_on(self.project_deployment_repository(
            pom,
            version,
            repositories,
        ))
    }

    /// Deploys `request` to `repository` (raw: the session injects it as
    /// [`Self::deployment_repository`] does) as Maven's deployer does; see
    /// [`crate::publish`]. Refused offline. On failure the error's
    /// [`PublishError::report`] says which files reached the server.
    pub async fn deploy(
        &self,
        request: &PublishRequest,
        repository: &RemoteRepository,
        options: &DeployOptions,
    ) -> Result<DeployReport, PublishError> {
        let target = self.deployment_repository(repository);
        let transport =
            Transport::new(self.resolver_config(Vec::new()).transport).map_err(|source| {
                PublishError::Transport {
                    repository: repository.id.clone(),
                    source: Box::new(source),
                }
            })?;
        let local = LocalRepository::new(self.local_repository.value.clone());
        let mut report = deploy::deploy(
            deploy::Deployment {
                transport: &transport,
                local: &local,
                repository: &target.repository,
                options,
                offline: self.offline.value,
            },
            request,
        )
        .await?;
        let mut warnings: Vec<String> = target.problems.iter().map(|p| p.to_string()).collect();
        warnings.append(&mut report.warnings);
        report.warnings = warnings;
        Ok(report)
    }

    /// [`Self::deploy`], blocking (on a runtime of its own; an error inside a runtime).
    pub fn blocking_deploy(
        &self,
        request: &PublishRequest,
        repository: &RemoteRepository,
        options: &DeployOptions,
    ) -> Result<DeployReport, PublishError> {
        no_runtime_inside()?.block_on(self.deploy(request, repository, options))
    }

    /// Installs `request` into the session's local repository as Maven's installer does; see
    /// [`crate::publish`].
    pub async fn install(&self, request: &PublishRequest) -> Result<InstallReport, PublishError> {
        let local = LocalRepository::new(self.local_repository.value.clone());
        install::install(local, request.clone()).await
    }

    /// [`Self::install`], blocking (on a runtime of its own; an error inside a runtime).
    pub fn blocking_install(
        &self,
        request: &PublishRequest,
    ) -> Result<InstallReport, PublishError> {
        no_runtime_inside()?.block_on(self.install(request))
    }
}
