//! Options shared by `m2r explain` and `m2r get`, and their translation into the library's
//! [`ExplainRequest`].

use clap::Args;
use m2resolver::explain::{parse_profile_options, ExplainRequest};
use m2resolver::repository::RemoteRepository;
use m2resolver::settings::builder::{resolve_path, Locations, SettingsRequest, SettingsSource};
use m2resolver::Environment;
use std::path::PathBuf;

/// Settings, properties, profiles and repositories of one build.
#[derive(Args, Debug, Clone)]
pub struct CommonArgs {
    /// User settings (default ~/.m2/settings.xml); a missing file counts as empty.
    #[arg(long, short = 's', value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// Global settings (default ${maven.home}/conf/settings.xml when maven.home or M2_HOME is known).
    #[arg(long = "global-settings", visible_alias = "gs", value_name = "FILE")]
    pub global_settings: Option<PathBuf>,
    /// Maven 4 project settings (.mvn/settings.xml).
    #[arg(long = "project-settings", value_name = "FILE")]
    pub project_settings: Option<PathBuf>,
    /// settings-security.xml (default: the settings.security property, else ~/.m2/settings-security.xml).
    #[arg(long, value_name = "FILE")]
    pub security: Option<PathBuf>,
    /// Profiles to activate (`id`, `+id`) or deactivate (`!id`, `-id`), comma-separated.
    #[arg(short = 'P', value_name = "IDS", action = clap::ArgAction::Append, allow_hyphen_values = true)]
    pub profiles: Vec<String>,
    /// A user property (also a system property); `-Dkey` means key=true.
    #[arg(short = 'D', value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    pub defines: Vec<String>,
    /// A repository the build declares (like a POM's <repositories>), in order.
    #[arg(long = "repo", value_name = "ID=URL", action = clap::ArgAction::Append)]
    pub repos: Vec<String>,
    /// Maven 4: let servers answer to their <aliases> ids too (Maven 3 ignores aliases).
    #[arg(long)]
    pub server_aliases: bool,
    /// Do not take proxies from HTTP(S)_PROXY / ALL_PROXY / NO_PROXY or JVM-style properties.
    #[arg(long)]
    pub no_env_proxy: bool,
}

impl CommonArgs {
    /// The library request for these options and the current process.
    pub fn explain_request(&self) -> Result<ExplainRequest, String> {
        let environment = Environment::capture();
        let cwd = environment.cwd.clone();
        let mut system_properties = environment.system_properties;
        let mut user_properties = std::collections::HashMap::new();
        for d in &self.defines {
            let (key, value) = match d.split_once('=') {
                Some((k, v)) if !k.is_empty() => (k.trim().to_string(), v.to_string()),
                _ => (d.trim().to_string(), "true".to_string()),
            };
            user_properties.insert(key.clone(), value.clone());
            // Maven makes every -D a system property too (os.* stay the platform's: Maven reads
            // them before the command line is applied).
            if !key.starts_with("os.") && key != "path.separator" {
                system_properties.insert(key, value);
            }
        }
        let mut lookup = system_properties.clone();
        lookup.extend(user_properties.iter().map(|(k, v)| (k.clone(), v.clone())));
        let locations = Locations::from_properties(&lookup, &environment.env);
        let user = self
            .settings
            .as_ref()
            .map(|p| resolve_path(&cwd, p))
            .unwrap_or_else(|| resolve_path(&cwd, &locations.user));
        let global = self
            .global_settings
            .as_ref()
            .map(|p| resolve_path(&cwd, p))
            .or(locations.global);
        let mut repositories = Vec::new();
        for spec in &self.repos {
            match spec.split_once('=') {
                Some((id, url)) if !id.is_empty() => {
                    repositories.push(RemoteRepository::new(id, url))
                }
                _ => return Err(format!("--repo expects ID=URL, got `{spec}`")),
            }
        }
        let (active_profiles, inactive_profiles) = parse_profile_options(&self.profiles);
        Ok(ExplainRequest {
            settings: SettingsRequest {
                global: global.map(SettingsSource::File),
                project: self
                    .project_settings
                    .as_ref()
                    .map(|p| SettingsSource::File(resolve_path(&cwd, p))),
                user: Some(SettingsSource::File(user)),
                user_properties,
                system_properties,
                env: environment.env,
            },
            security_file: self.security.clone(),
            active_profiles,
            inactive_profiles,
            repositories,
            cwd,
            server_aliases: self.server_aliases,
            env_proxies: !self.no_env_proxy,
        })
    }
}

/// The local repository: `maven.repo.local` property, else the settings' `localRepository`
/// (relative to the working directory), else `${user.home}/.m2/repository`.
pub fn local_repository(
    request: &ExplainRequest,
    settings: &m2resolver::settings::Settings,
) -> PathBuf {
    let props = &request.settings;
    if let Some(p) = props
        .user_properties
        .get("maven.repo.local")
        .or_else(|| props.system_properties.get("maven.repo.local"))
        .filter(|p| !p.is_empty())
    {
        return resolve_path(&request.cwd, std::path::Path::new(p));
    }
    if let Some(p) = settings
        .local_repository
        .as_deref()
        .filter(|p| !p.is_empty())
    {
        return resolve_path(&request.cwd, std::path::Path::new(p));
    }
    let mut lookup = props.system_properties.clone();
    lookup.extend(
        props
            .user_properties
            .iter()
            .map(|(k, v)| (k.clone(), v.clone())),
    );
    resolve_path(
        &request.cwd,
        &Locations::from_properties(&lookup, &props.env).local_repository,
    )
}

/// The security context of the encrypt commands: process environment, `-D` properties and
/// `--security`.
pub fn security_context(
    security: Option<PathBuf>,
    defines: &[String],
) -> m2resolver::security::SecurityContext {
    let environment = Environment::capture();
    let mut properties = environment.system_properties;
    for d in defines {
        let (k, v) = d.split_once('=').unwrap_or((d.as_str(), "true"));
        properties.insert(k.trim().to_string(), v.to_string());
    }
    if let Some(file) = security {
        properties.insert("settings.security".into(), file.display().to_string());
    }
    let home = m2resolver::settings::builder::user_home(&properties, &environment.env);
    let mut ctx = m2resolver::security::SecurityContext::new(home, environment.cwd);
    ctx.properties = properties;
    ctx.env = environment.env;
    ctx
}
