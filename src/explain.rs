//! Explain: run settings → security → repository for one build and describe the outcome.
//!
//! [`explain`] is the whole pipeline Maven runs before the resolver downloads anything:
//! build the effective settings, populate the request (first server/mirror/active proxy per id),
//! decrypt credentials, activate profiles, put the active profiles' repositories in front of the
//! build's own (last activated first), then apply mirrors, aggregation, proxies and
//! authentication. [`Explanation::to_json`] is the `m2r explain --json` document of the CLI
//! contract; [`Explanation::render`] is the human form that says why each decision was taken.
//!
//! [`resolve_repositories`] is the lean variant for downloads: it decrypts only the credentials
//! of the repositories and proxies actually used.

use crate::repository::{self, EnvProxyConfig, InjectionTrace, RemoteRepository, Selectors};
use crate::secret::Secret;
use crate::security::{Decryptor, SecurityContext};
use crate::settings::builder::{self, SettingsRequest, SettingsResult};
use crate::settings::profiles::{select_active_profiles, ActivationContext};
use crate::settings::{Problem, Profile, Proxy, Server, Settings, Severity, Stage};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::path::PathBuf;

/// Everything one explanation depends on.
#[derive(Debug, Clone, Default)]
pub struct ExplainRequest {
    /// Settings files, properties and environment.
    pub settings: SettingsRequest,
    /// `settings-security.xml` to use (like `-Dsettings.security=FILE`).
    pub security_file: Option<PathBuf>,
    /// Profiles activated explicitly (`-P a,+b`).
    pub active_profiles: Vec<String>,
    /// Profiles deactivated explicitly (`-P !a,-b`).
    pub inactive_profiles: Vec<String>,
    /// The repositories the build declares (a POM's `<repositories>`), in order.
    pub repositories: Vec<RemoteRepository>,
    /// The working directory: relative paths and file activation resolve against it.
    pub cwd: PathBuf,
    /// Maven 4: servers also answer to their `<aliases>` ids. Off by default, as in Maven 3,
    /// which ignores the element.
    pub server_aliases: bool,
    /// Beyond Maven: take proxies from `HTTP(S)_PROXY`/`ALL_PROXY`/`NO_PROXY` and JVM-style
    /// properties when the settings define none for a protocol.
    pub env_proxies: bool,
}

/// Splits `-P` options as Maven's CLI does: comma-separated, trimmed; `!x`/`-x` deactivate,
/// `+x` and `x` activate.
///
/// ```
/// let (on, off) = m2resolver::explain::parse_profile_options(&["a, !b".to_string(), "+c,-d".to_string()]);
/// assert_eq!(on, ["a", "c"]);
/// assert_eq!(off, ["b", "d"]);
/// ```
pub fn parse_profile_options(options: &[String]) -> (Vec<String>, Vec<String>) {
    let mut active = Vec::new();
    let mut inactive = Vec::new();
    for option in options {
        for token in option.split(',').filter(|t| !t.is_empty()) {
            let token = token.trim();
            if let Some(id) = token.strip_prefix('-').or_else(|| token.strip_prefix('!')) {
                inactive.push(id.to_string());
            } else if let Some(id) = token.strip_prefix('+') {
                active.push(id.to_string());
            } else {
                active.push(token.to_string());
            }
        }
    }
    (active, inactive)
}

/// A server or proxy field after decryption: the value to use and whether it was decrypted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecryptedValue {
    /// The clear value, or the value as written when decryption failed.
    pub value: Secret,
    /// True when the value was encrypted and decrypted successfully.
    pub decrypted: bool,
}

/// The outcome of [`explain`].
#[derive(Debug, Clone)]
pub struct Explanation {
    /// The effective settings; `None` when they could not be built (an ERROR or FATAL problem).
    pub settings: Option<Settings>,
    /// Every problem of every stage, in order.
    pub problems: Vec<Problem>,
    /// Ids of the active settings profiles, in Maven's order.
    pub active_profiles: Vec<String>,
    /// Why each active profile is active (same order as `active_profiles`).
    pub activation_reasons: Vec<String>,
    /// Server passwords and passphrases as used (index-aligned with `settings.servers`).
    pub servers: Vec<(Option<DecryptedValue>, Option<DecryptedValue>)>,
    /// Proxy passwords as used (index-aligned with `settings.proxies`).
    pub proxies: Vec<Option<DecryptedValue>>,
    /// The injected repositories; `None` when the settings could not be built.
    pub repositories: Option<Vec<RemoteRepository>>,
    /// One trace per declared repository (profile repositories first), for the human form.
    pub traces: Vec<InjectionTrace>,
    /// Warnings beyond Maven's problems: entries that apply to nothing, legacy formats.
    pub notes: Vec<String>,
}

impl Explanation {
    /// True when the settings could not be built (the CLI exits with status 1).
    pub fn failed(&self) -> bool {
        self.settings.is_none()
    }
}

fn security_context(request: &ExplainRequest) -> SecurityContext {
    let s = &request.settings;
    let mut properties = s.system_properties.clone();
    properties.extend(
        s.user_properties
            .iter()
            .map(|(k, v)| (k.clone(), v.clone())),
    );
    if let Some(file) = &request.security_file {
        properties.insert("settings.security".into(), file.display().to_string());
    }
    let user_home = builder::user_home(&properties, &s.env);
    let mut ctx = SecurityContext::new(user_home, request.cwd.clone());
    ctx.properties = properties;
    ctx.env = s.env.clone();
    ctx
}

/// Maven's request population: first entry per id wins; only active proxies.
fn first_per_id<'a, T>(
    items: impl Iterator<Item = (usize, &'a T)>,
    id: impl Fn(&T) -> &str,
) -> Vec<usize>
where
    T: 'a,
{
    let mut seen = HashSet::new();
    items
        .filter(|(_, item)| seen.insert(id(item).to_string()))
        .map(|(i, _)| i)
        .collect()
}

/// What Maven's request population keeps: the first server and mirror per id, the first
/// active proxy per id (indices into the settings lists; mirrors cloned).
struct RequestEntries {
    server_idx: Vec<usize>,
    proxy_idx: Vec<usize>,
    mirrors: Vec<crate::settings::Mirror>,
}

fn request_entries(settings: &Settings) -> RequestEntries {
    let active = settings
        .proxies
        .iter()
        .enumerate()
        .filter(|(_, p)| p.active);
    RequestEntries {
        server_idx: first_per_id(settings.servers.iter().enumerate(), |s: &Server| &s.id),
        proxy_idx: first_per_id(active, |p: &Proxy| &p.id),
        mirrors: first_per_id(settings.mirrors.iter().enumerate(), |m| &m.id)
            .into_iter()
            .map(|i| settings.mirrors[i].clone())
            .collect(),
    }
}

/// Decrypts many values, in parallel when there is more than a handful (Maven 4 values cost a
/// PBKDF2 run each). Returns one result per value, in order.
fn decrypt_all(decryptor: &Decryptor, values: &[&str]) -> Vec<Result<Secret, String>> {
    let work = |v: &&str| decryptor.decrypt(v).map_err(|e| e.to_string());
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    if values.len() < 4 || threads < 2 {
        return values.iter().map(work).collect();
    }
    let chunk = values.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = values
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(work).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

fn decrypted(value: &Secret, result: &Result<Secret, String>) -> DecryptedValue {
    match result {
        Ok(clear) => DecryptedValue {
            decrypted: clear != value,
            value: clear.clone(),
        },
        Err(_) => DecryptedValue {
            value: value.clone(),
            decrypted: false,
        },
    }
}

/// Runs the whole pipeline and explains it.
///
/// ```
/// use m2resolver::explain::{explain, ExplainRequest};
/// use m2resolver::repository::RemoteRepository;
/// use m2resolver::settings::builder::{SettingsRequest, SettingsSource};
/// let request = ExplainRequest {
///     settings: SettingsRequest {
///         user: Some(SettingsSource::Content {
///             name: "settings.xml".into(),
///             xml: "<settings><mirrors><mirror><id>corp</id><mirrorOf>*</mirrorOf>\
///                   <url>https://nexus.example.com/maven</url></mirror></mirrors></settings>".into(),
///         }),
///         ..Default::default()
///     },
///     repositories: vec![RemoteRepository::new("central", "https://repo.maven.apache.org/maven2")],
///     ..Default::default()
/// };
/// let e = explain(&request);
/// let repos = e.repositories.unwrap();
/// assert_eq!(repos[0].id, "corp");
/// assert_eq!(repos[0].mirrored_repositories[0].id, "central");
/// ```
pub fn explain(request: &ExplainRequest) -> Explanation {
    let SettingsResult {
        effective,
        mut problems,
    } = builder::build(&request.settings);
    let failed = problems.iter().any(|p| p.severity >= Severity::Error);
    let mut out = Explanation {
        settings: None,
        problems: Vec::new(),
        active_profiles: Vec::new(),
        activation_reasons: Vec::new(),
        servers: Vec::new(),
        proxies: Vec::new(),
        repositories: None,
        traces: Vec::new(),
        notes: Vec::new(),
    };
    if failed {
        out.problems = problems;
        return out;
    }
    let settings = effective;

    // Decryption: every value once (the decryptor caches), in parallel.
    let decryptor = Decryptor::new(security_context(request));
    let mut values: Vec<&str> = Vec::new();
    for s in &settings.servers {
        values.extend(s.password.as_ref().map(Secret::expose));
        values.extend(s.passphrase.as_ref().map(Secret::expose));
    }
    for p in &settings.proxies {
        values.extend(p.password.as_ref().map(Secret::expose));
    }
    let mut unique: Vec<&str> = values.clone();
    unique.sort_unstable();
    unique.dedup();
    let results: HashMap<&str, Result<Secret, String>> = unique
        .iter()
        .copied()
        .zip(decrypt_all(&decryptor, &unique))
        .collect();
    let result_of = |v: &Secret| {
        results
            .get(v.expose())
            .cloned()
            .unwrap_or_else(|| Ok(v.clone()))
    };

    out.servers = settings
        .servers
        .iter()
        .map(|s| {
            (
                s.password.as_ref().map(|v| decrypted(v, &result_of(v))),
                s.passphrase.as_ref().map(|v| decrypted(v, &result_of(v))),
            )
        })
        .collect();
    out.proxies = settings
        .proxies
        .iter()
        .map(|p| p.password.as_ref().map(|v| decrypted(v, &result_of(v))))
        .collect();

    // Maven reports decryption problems only for what reaches the session.
    let RequestEntries {
        server_idx,
        proxy_idx,
        mirrors,
    } = request_entries(&settings);
    for &i in &server_idx {
        let s = &settings.servers[i];
        for (field, value) in [("password", &s.password), ("passphrase", &s.passphrase)] {
            if let Some(Err(reason)) = value.as_ref().map(result_of) {
                problems.push(Problem::new(
                    Severity::Error,
                    Stage::Decrypt,
                    s.origin.describe(),
                    format!(
                        "Failed to decrypt {field} for server {}: {reason} (server written at {})",
                        s.id,
                        s.origin.describe()
                    ),
                ));
            }
        }
    }
    for &i in &proxy_idx {
        let p = &settings.proxies[i];
        if let Some(Err(reason)) = p.password.as_ref().map(result_of) {
            problems.push(Problem::new(
                Severity::Error,
                Stage::Decrypt,
                p.origin.describe(),
                format!(
                    "Failed to decrypt password for proxy {}: {reason} (proxy written at {})",
                    p.id,
                    p.origin.describe()
                ),
            ));
        }
    }

    // Profiles.
    let (active_profiles, activation_reasons, mut activation_problems, profile_repos) =
        activate(&settings, request);
    problems.append(&mut activation_problems);
    out.active_profiles = active_profiles;
    out.activation_reasons = activation_reasons;

    // Selectors over the request's (first per id) entries.
    let proxies: Vec<(Proxy, Option<Secret>)> = proxy_idx
        .iter()
        .map(|&i| {
            let p = &settings.proxies[i];
            (p.clone(), out.proxies[i].as_ref().map(|d| d.value.clone()))
        })
        .collect();
    let servers: Vec<(Server, Option<Secret>, Option<Secret>)> = server_idx
        .iter()
        .map(|&i| {
            let (pw, pp) = &out.servers[i];
            (
                server_for_session(&settings.servers[i], request),
                pw.as_ref().map(|d| d.value.clone()),
                pp.as_ref().map(|d| d.value.clone()),
            )
        })
        .collect();
    let env = env_proxy_config(request);
    let selectors = match Selectors::new(&mirrors, &proxies, &servers, env) {
        Ok(s) => s,
        Err(e) => {
            problems.push(Problem::new(
                Severity::Error,
                Stage::Build,
                "",
                e.to_string(),
            ));
            out.problems = problems;
            return out;
        }
    };
    out.notes.extend(selectors.warnings());

    let declared = declared_repositories(&profile_repos, &request.repositories);
    let (repositories, traces) = repository::inject_traced(&declared, &selectors);
    out.notes
        .extend(unused_entries(&settings, &mirrors, &repositories, &traces));
    out.repositories = Some(repositories);
    out.traces = traces;
    out.problems = problems;
    out.settings = Some(settings);
    out
}

/// A server as the session sees it: Maven 3 drops `<aliases>`.
fn server_for_session(server: &Server, request: &ExplainRequest) -> Server {
    let mut s = server.clone();
    if !request.server_aliases {
        s.aliases.clear();
    }
    s
}

fn env_proxy_config(request: &ExplainRequest) -> EnvProxyConfig {
    if !request.env_proxies {
        return EnvProxyConfig::disabled();
    }
    let mut props = request.settings.system_properties.clone();
    props.extend(
        request
            .settings
            .user_properties
            .iter()
            .map(|(k, v)| (k.clone(), v.clone())),
    );
    EnvProxyConfig::new(request.settings.env.clone(), props)
}

type Activated = (
    Vec<String>,
    Vec<String>,
    Vec<Problem>,
    Vec<Vec<RemoteRepository>>,
);

/// Activates the settings profiles; returns ids, reasons, problems and, per active profile,
/// its repositories converted as Maven converts them.
fn activate(settings: &Settings, request: &ExplainRequest) -> Activated {
    let mut active_ids = settings.active_profiles.clone();
    active_ids.extend(request.active_profiles.iter().cloned());
    let ctx = ActivationContext {
        active_profile_ids: active_ids,
        inactive_profile_ids: request.inactive_profiles.clone(),
        system_properties: request.settings.system_properties.clone(),
        user_properties: request.settings.user_properties.clone(),
        project_dir: Some(request.cwd.clone()),
        ..ActivationContext::default()
    };
    // The request keeps the first profile per id (`DefaultMavenExecutionRequest.addProfile`).
    let profiles: Vec<Profile> =
        first_per_id(settings.profiles.iter().enumerate(), |p: &Profile| &p.id)
            .into_iter()
            .map(|i| settings.profiles[i].clone())
            .collect();
    let result = select_active_profiles(&profiles, &ctx);
    let active: Vec<&Profile> = result
        .active
        .iter()
        .filter_map(|&i| profiles.get(i))
        .collect();
    let ids = active.iter().map(|p| p.id.clone()).collect();
    let reasons = active
        .iter()
        .map(|p| {
            if settings.active_profiles.contains(&p.id) {
                "listed in <activeProfiles>".to_string()
            } else if request.active_profiles.contains(&p.id) {
                "activated with -P".to_string()
            } else if p.activation.as_ref().is_some_and(|a| a.active_by_default)
                && !activation_has_conditions(p)
            {
                "activeByDefault".to_string()
            } else {
                "its <activation> conditions hold".to_string()
            }
        })
        .collect();
    let repos = active
        .iter()
        .map(|p| {
            p.repositories
                .iter()
                .map(repository_from_settings)
                .collect()
        })
        .collect();
    (ids, reasons, result.problems, repos)
}

fn activation_has_conditions(p: &Profile) -> bool {
    p.activation.as_ref().is_some_and(|a| {
        a.jdk.is_some() || a.os.is_some() || a.property.is_some() || a.file.is_some()
    })
}

/// A settings profile repository as Maven converts it (`SettingsUtils` +
/// `ArtifactDescriptorUtils.toRemoteRepository`).
pub fn repository_from_settings(r: &crate::settings::Repository) -> RemoteRepository {
    let mut repo = RemoteRepository::new(
        r.id.clone().unwrap_or_default(),
        r.url.clone().unwrap_or_default(),
    );
    repo.layout = r.layout.clone();
    repo.releases = repository::policy::from_settings(r.releases.as_ref());
    repo.snapshots = repository::policy::from_settings(r.snapshots.as_ref());
    repo
}

/// Maven's profile injection: each active profile's repositories go in front of what is there
/// (so the last activated profile ends up first); a profile repository replaces a same-id one.
pub fn declared_repositories(
    profile_repos: &[Vec<RemoteRepository>],
    build_repos: &[RemoteRepository],
) -> Vec<RemoteRepository> {
    let mut model: Vec<RemoteRepository> = build_repos.to_vec();
    for repos in profile_repos {
        if repos.is_empty() {
            continue;
        }
        let mut merged: Vec<RemoteRepository> = Vec::with_capacity(repos.len() + model.len());
        for r in repos {
            match merged.iter_mut().find(|m| m.id == r.id) {
                Some(slot) => *slot = r.clone(),
                None => merged.push(r.clone()),
            }
        }
        for r in model {
            if !merged.iter().any(|m| m.id == r.id) {
                merged.push(r);
            }
        }
        model = merged;
    }
    model
}

/// Ids of the settings proxies that serve at least one of `repositories`.
fn settings_proxies_used(repositories: &[RemoteRepository]) -> HashSet<&str> {
    repositories
        .iter()
        .filter_map(|r| r.proxy.as_ref())
        .filter_map(|p| match &p.source {
            repository::ProxySource::Settings { id } => Some(id.as_str()),
            _ => None,
        })
        .collect()
}

/// Settings entries that apply to nothing in this build: worth a warning in the human form.
fn unused_entries(
    settings: &Settings,
    mirrors: &[crate::settings::Mirror],
    repositories: &[RemoteRepository],
    traces: &[InjectionTrace],
) -> Vec<String> {
    let mut notes = Vec::new();
    let used_ids: HashSet<&str> = repositories.iter().map(|r| r.id.as_str()).collect();
    for s in &settings.servers {
        if !used_ids.contains(s.id.as_str()) {
            notes.push(format!(
                "server `{}` ({}) gives credentials to no repository or mirror of this build: \
                 credentials attach by id, so its <id> must equal a repository or mirror id",
                s.id,
                s.origin.describe()
            ));
        }
    }
    for m in mirrors {
        if !traces
            .iter()
            .any(|t| t.mirror.as_ref().is_some_and(|x| x.mirror_id == m.id))
        {
            notes.push(format!(
                "mirror `{}` ({}) mirrors no repository of this build (mirrorOf `{}`)",
                m.id,
                m.origin.describe(),
                m.mirror_of.as_deref().unwrap_or("")
            ));
        }
    }
    let used_proxies = settings_proxies_used(repositories);
    let active: Vec<&Proxy> = settings.proxies.iter().filter(|p| p.active).collect();
    for (i, p) in active.iter().enumerate() {
        if used_proxies.contains(p.id.as_str()) {
            continue;
        }
        let shadow = active[..i].iter().find(|q| {
            q.protocol.eq_ignore_ascii_case(&p.protocol)
                && q.non_proxy_hosts
                    .as_deref()
                    .is_none_or(|n| n.trim().is_empty())
        });
        let why = match shadow {
            Some(q) => format!(
                ": proxy `{}` serves the same protocol `{}` for every host and comes first",
                q.id, p.protocol
            ),
            None => format!(" (protocol `{}`)", p.protocol),
        };
        notes.push(format!(
            "proxy `{}` ({}) serves no repository of this build{why}",
            p.id,
            p.origin.describe()
        ));
    }
    notes
}

/// The proxies and credentials to download with, decrypting only what the result uses.
///
/// This is the `m2r get` path: settings are built and profiles activated exactly as for
/// [`explain`], but a build touching 3 repositories of a settings file with 50 encrypted
/// Maven 4 secrets pays for 3 decryptions, not 50. Values that fail to decrypt are left out
/// of the credentials (never sent) and reported as `decrypt` problems.
pub fn resolve_repositories(
    request: &ExplainRequest,
) -> Result<(Vec<RemoteRepository>, Vec<Problem>, Settings), Vec<Problem>> {
    resolve_pipeline(request).map(|p| (p.repositories, p.problems, p.settings))
}

/// What [`resolve_pipeline`] returns: [`resolve_repositories`]' result plus the selectors it
/// built, which apply mirrors, proxies and credentials to repositories that POMs declare later
/// (Maven's `DefaultModelResolver` does the same with the session's selectors).
#[derive(Debug, Clone)]
pub struct ResolvedPipeline {
    /// The request's repositories after mirrors, proxies and authentication.
    pub repositories: Vec<RemoteRepository>,
    /// The session's mirror, proxy and authentication selectors (credentials decrypted for the
    /// servers the request's repositories use).
    pub selectors: Selectors,
    /// Problems of every stage.
    pub problems: Vec<Problem>,
    /// The effective settings.
    pub settings: Settings,
}

/// [`resolve_repositories`], keeping the selectors for repositories declared later.
pub fn resolve_pipeline(request: &ExplainRequest) -> Result<ResolvedPipeline, Vec<Problem>> {
    let SettingsResult {
        effective: settings,
        mut problems,
    } = builder::build(&request.settings);
    if problems.iter().any(|p| p.severity >= Severity::Error) {
        return Err(problems);
    }
    let (_, _, mut activation_problems, profile_repos) = activate(&settings, request);
    problems.append(&mut activation_problems);
    let RequestEntries {
        server_idx,
        proxy_idx,
        mirrors,
    } = request_entries(&settings);
    let declared = declared_repositories(&profile_repos, &request.repositories);
    let env = env_proxy_config(request);

    // Pass 1, without secrets: which servers and proxies does the result use?
    let proxies_plain: Vec<(Proxy, Option<Secret>)> = proxy_idx
        .iter()
        .map(|&i| (settings.proxies[i].clone(), None))
        .collect();
    let servers_plain: Vec<(Server, Option<Secret>, Option<Secret>)> = server_idx
        .iter()
        .map(|&i| {
            (
                server_for_session(&settings.servers[i], request),
                None,
                None,
            )
        })
        .collect();
    let selectors =
        Selectors::new(&mirrors, &proxies_plain, &servers_plain, env.clone()).map_err(|e| {
            vec![Problem::new(
                Severity::Error,
                Stage::Build,
                "",
                e.to_string(),
            )]
        })?;
    let first = repository::inject(&declared, &selectors);
    let used_servers: HashSet<&str> = first.iter().map(|r| r.id.as_str()).collect();
    let used_proxies = settings_proxies_used(&first);

    // Pass 2: decrypt what is used, once.
    let decryptor = Decryptor::new(security_context(request));
    let mut decrypt = |kind: &str,
                       id: &str,
                       field: &str,
                       value: &Option<Secret>|
     -> Option<Secret> {
        let value = value.as_ref()?;
        match decryptor.decrypt(value.expose()) {
            Ok(clear) => Some(clear),
            Err(e) => {
                problems.push(Problem::new(
                    Severity::Error,
                    Stage::Decrypt,
                    "",
                    format!("Failed to decrypt {field} for {kind} {id}: {e}; the credential is not sent"),
                ));
                None
            }
        }
    };
    let servers: Vec<(Server, Option<Secret>, Option<Secret>)> = server_idx
        .iter()
        .map(|&i| {
            let s = &server_for_session(&settings.servers[i], request);
            if used_servers.contains(s.id.as_str())
                || s.aliases.iter().any(|a| used_servers.contains(a.as_str()))
            {
                let pw = decrypt("server", &s.id, "password", &s.password);
                let pp = decrypt("server", &s.id, "passphrase", &s.passphrase);
                (s.clone(), pw, pp)
            } else {
                (s.clone(), None, None)
            }
        })
        .collect();
    let proxies: Vec<(Proxy, Option<Secret>)> = proxy_idx
        .iter()
        .map(|&i| {
            let p = &settings.proxies[i];
            let pw = if used_proxies.contains(p.id.as_str()) {
                decrypt("proxy", &p.id, "password", &p.password)
            } else {
                None
            };
            (p.clone(), pw)
        })
        .collect();
    let selectors = Selectors::new(&mirrors, &proxies, &servers, env).map_err(|e| {
        vec![Problem::new(
            Severity::Error,
            Stage::Build,
            "",
            e.to_string(),
        )]
    })?;
    let mut repositories = repository::inject(&declared, &selectors);
    // Maven 4 decrypts every settings string, so `{...}` header values in a server's
    // <configuration> (tokens for repository managers) are sent in clear; only for the
    // repositories used here.
    for repo in &mut repositories {
        let id = repo.id.clone();
        repo.transport.headers.retain_mut(|(name, value)| {
            if !crate::security::is_encrypted(value) {
                return true;
            }
            match decryptor.decrypt(value) {
                Ok(clear) => {
                    *value = clear.expose().to_string();
                    true
                }
                Err(e) => {
                    problems.push(Problem::new(
                        Severity::Error,
                        Stage::Decrypt,
                        "",
                        format!("Failed to decrypt the value of header {name} for server {id}: {e}; the header is not sent"),
                    ));
                    false
                }
            }
        });
    }
    Ok(ResolvedPipeline {
        repositories,
        selectors,
        problems,
        settings,
    })
}

// ------------------------------------------------------------------------------------- JSON

impl Explanation {
    /// The `m2r explain --json` document (secrets in clear: it is for tools and tests).
    pub fn to_json(&self) -> Value {
        let problems: Vec<Value> = self.problems.iter().map(problem_json).collect();
        let (settings, repositories) = match (&self.settings, &self.repositories) {
            (Some(s), Some(r)) => (
                self.settings_json(s),
                Value::Array(r.iter().map(repository_json).collect()),
            ),
            _ => (Value::Null, Value::Null),
        };
        json!({ "effectiveSettings": settings, "problems": problems, "repositories": repositories })
    }

    fn settings_json(&self, s: &Settings) -> Value {
        let value = |d: &Option<DecryptedValue>| d.as_ref().map(|d| d.value.expose().to_string());
        let mirrors: Vec<Value> = s
            .mirrors
            .iter()
            .map(|m| {
                json!({"blocked": m.blocked, "id": m.id, "layout": m.layout, "mirrorOf": m.mirror_of,
                       "mirrorOfLayouts": m.mirror_of_layouts, "url": m.url})
            })
            .collect();
        let proxies: Vec<Value> = s
            .proxies
            .iter()
            .zip(&self.proxies)
            .map(|(p, pw)| {
                json!({"active": p.active, "host": p.host, "id": p.id, "nonProxyHosts": p.non_proxy_hosts,
                       "password": value(pw), "port": p.port, "protocol": p.protocol, "username": p.username})
            })
            .collect();
        let servers: Vec<Value> = s
            .servers
            .iter()
            .zip(&self.servers)
            .map(|(sv, (pw, pp))| {
                json!({"id": sv.id, "passphrase": value(pp), "password": value(pw),
                       "privateKey": sv.private_key, "username": sv.username})
            })
            .collect();
        json!({
            "activeProfiles": self.active_profiles,
            "interactiveMode": s.interactive_mode,
            "localRepository": s.local_repository,
            "mirrors": mirrors,
            "offline": s.offline,
            "proxies": proxies,
            "servers": servers,
        })
    }
}

fn problem_json(p: &Problem) -> Value {
    json!({"column": p.column, "line": p.line, "message": p.message,
           "severity": p.severity.to_string(), "stage": p.stage.to_string()})
}

fn repository_json(r: &RemoteRepository) -> Value {
    let policy = |p: &repository::Policy| json!({"checksumPolicy": p.checksum_policy, "enabled": p.enabled, "updatePolicy": p.update_policy});
    let secret = |s: &Option<Secret>| s.as_ref().map(|s| s.expose().to_string());
    let auth = r.authentication.as_ref().map(|a| {
        json!({"passphrase": secret(&a.passphrase), "password": secret(&a.password),
               "privateKey": a.private_key, "username": a.username})
    });
    let proxy = r.proxy.as_ref().map(|p| {
        let a = p.auth.as_ref();
        json!({"host": p.host, "password": a.and_then(|a| secret(&a.password)), "port": p.port,
               "type": p.kind, "username": a.and_then(|a| a.username.clone())})
    });
    let mirrored: Vec<&str> = r
        .mirrored_repositories
        .iter()
        .map(|m| m.id.as_str())
        .collect();
    json!({
        "authentication": auth,
        "blocked": r.blocked,
        "id": r.id,
        "layout": r.layout,
        "mirroredRepositories": mirrored,
        "proxy": proxy,
        "releases": policy(&r.releases),
        "snapshots": policy(&r.snapshots),
        "url": r.url,
    })
}

/// Serialises like Python's `json.dumps(doc, indent=2, sort_keys=True)` (ASCII only).
pub fn to_canonical_json(value: &Value) -> String {
    let pretty = serde_json::to_string_pretty(value).unwrap_or_else(|_| "null".into());
    let mut out = String::with_capacity(pretty.len());
    for c in pretty.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut buf = [0u16; 2];
            for unit in c.encode_utf16(&mut buf) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        }
    }
    out
}

// ------------------------------------------------------------------------------- human form

impl Explanation {
    /// The human explanation. Secrets are masked unless `show_secrets`.
    pub fn render(&self, show_secrets: bool) -> String {
        let mut o = String::new();
        // Credentials inside a URL (`--repo id=https://user:pw@host/`) are secrets too.
        let shown_url = |url: &str| {
            let has_userinfo = url::Url::parse(url)
                .is_ok_and(|u| !u.username().is_empty() || u.password().is_some());
            if show_secrets || !has_userinfo {
                url.to_string()
            } else {
                crate::transport::redact_url(url)
            }
        };
        let mask = |s: &Secret| {
            if show_secrets {
                s.expose().to_string()
            } else {
                "***".to_string()
            }
        };
        if !self.problems.is_empty() {
            let _ = writeln!(o, "Problems:");
            for p in &self.problems {
                let _ = writeln!(
                    o,
                    "  [{}] ({}) {}{}",
                    p.severity,
                    p.stage,
                    p.message,
                    location(p)
                );
            }
            let _ = writeln!(o);
        }
        let Some(settings) = &self.settings else {
            let _ = writeln!(
                o,
                "The settings could not be built; fix the problems above."
            );
            return o;
        };
        let _ = writeln!(
            o,
            "Local repository: {}",
            settings
                .local_repository
                .as_deref()
                .unwrap_or("(default: ${user.home}/.m2/repository)")
        );
        let _ = writeln!(o, "Offline: {}", settings.offline);
        if self.active_profiles.is_empty() {
            let _ = writeln!(o, "Active profiles: none");
        } else {
            let _ = writeln!(o, "Active profiles:");
            for (id, why) in self.active_profiles.iter().zip(&self.activation_reasons) {
                let _ = writeln!(o, "  {id}: {why}");
            }
        }
        let _ = writeln!(o);
        let repos = self.repositories.as_deref().unwrap_or_default();
        let _ = writeln!(
            o,
            "Repositories ({}), in the order artifacts are looked up:",
            repos.len()
        );
        for (n, r) in repos.iter().enumerate() {
            let _ = writeln!(
                o,
                "{}. {} {}{}",
                n + 1,
                r.id,
                shown_url(&r.url),
                if r.blocked { "  [BLOCKED]" } else { "" }
            );
            if !r.mirrored_repositories.is_empty() {
                let ids: Vec<&str> = r
                    .mirrored_repositories
                    .iter()
                    .map(|m| m.id.as_str())
                    .collect();
                let _ = writeln!(o, "   mirror of: {}", ids.join(", "));
            }
            for t in self.traces.iter().filter(|t| trace_lands_in(t, r)) {
                let _ = writeln!(o, "   declared `{}` {}", t.repository_id, shown_url(&t.url));
                match &t.mirror {
                    Some(m) => {
                        let _ = writeln!(
                            o,
                            "     mirror `{}` applies: {} (token `{}`)",
                            m.mirror_id, m.reason, m.token
                        );
                    }
                    None => {
                        let _ = writeln!(o, "     no mirror applies");
                    }
                }
                for rej in &t.mirror_rejections {
                    let _ = writeln!(
                        o,
                        "     mirror `{}` does not: {}",
                        rej.mirror_id, rej.reason
                    );
                }
            }
            match &r.proxy {
                Some(p) => {
                    let source = match &p.source {
                        repository::ProxySource::Settings { id } => {
                            format!("settings proxy `{id}`")
                        }
                        repository::ProxySource::Environment { variable } => {
                            format!("environment variable {variable}")
                        }
                        repository::ProxySource::SystemProperties => {
                            "JVM-style properties".to_string()
                        }
                    };
                    let user = p
                        .auth
                        .as_ref()
                        .map(|a| {
                            format!(
                                " as {} (password {})",
                                a.username.as_deref().unwrap_or("?"),
                                a.password
                                    .as_ref()
                                    .map(&mask)
                                    .unwrap_or_else(|| "none".into())
                            )
                        })
                        .unwrap_or_default();
                    let _ = writeln!(
                        o,
                        "   proxy: {}://{}:{} from {source}{user}",
                        p.kind, p.host, p.port
                    );
                }
                None => {
                    let _ = writeln!(o, "   proxy: none (direct connection)");
                }
            }
            if let Some(trace) = self
                .traces
                .iter()
                .find(|t| trace_lands_in(t, r) && t.proxy.is_some())
            {
                if let Some(pt) = &trace.proxy {
                    if pt.settings.http_fallback {
                        let _ = writeln!(
                            o,
                            "     no `https` proxy applies, so the `http` proxy serves this https repository (Maven's rule)"
                        );
                    }
                    for ex in &pt.settings.excluded {
                        let _ = writeln!(
                            o,
                            "     proxy `{}` not used: nonProxyHosts pattern `{}` matches host `{}`",
                            ex.proxy_id, ex.pattern, pt.settings.host
                        );
                    }
                    if let Some(env) = &pt.env {
                        for ex in &env.excluded_by {
                            let _ = writeln!(
                                o,
                                "     environment proxy not used: {} entry `{}` matches",
                                ex.source, ex.entry
                            );
                        }
                        for note in &env.notes {
                            let _ = writeln!(o, "     {note}");
                        }
                    }
                }
            }
            match &r.authentication {
                Some(a) => {
                    let _ = writeln!(
                        o,
                        "   credentials: server `{}`: username {}, password {}{}",
                        r.id,
                        a.username.as_deref().unwrap_or("(none)"),
                        a.password
                            .as_ref()
                            .map(&mask)
                            .unwrap_or_else(|| "(none)".into()),
                        a.private_key
                            .as_ref()
                            .map(|k| format!(", private key {k}"))
                            .unwrap_or_default()
                    );
                }
                None => {
                    let _ = writeln!(o, "   credentials: none (no <server> with id `{}`)", r.id);
                }
            }
            if !r.transport.headers.is_empty() {
                let names: Vec<&str> = r
                    .transport
                    .headers
                    .iter()
                    .map(|(k, _)| k.as_str())
                    .collect();
                let _ = writeln!(o, "   headers: {}", names.join(", "));
            }
            if let Some(t) = r.transport.connect_timeout {
                let _ = writeln!(o, "   connect timeout: {} ms", t.as_millis());
            }
            if let Some(t) = r.transport.request_timeout {
                let _ = writeln!(o, "   request timeout: {} ms", t.as_millis());
            }
            for (name, p) in [("releases", &r.releases), ("snapshots", &r.snapshots)] {
                let _ = writeln!(
                    o,
                    "   {name}: {}, update {}, checksums {}",
                    if p.enabled { "enabled" } else { "disabled" },
                    p.update_policy,
                    p.checksum_policy
                );
            }
        }
        if !self.notes.is_empty() {
            let _ = writeln!(o, "\nNotes:");
            for n in &self.notes {
                let _ = writeln!(o, "  - {n}");
            }
        }
        o
    }
}

fn trace_lands_in(t: &InjectionTrace, r: &RemoteRepository) -> bool {
    match &t.mirror {
        Some(m) => m.mirror_id == r.id,
        None => t.repository_id == r.id && r.mirrored_repositories.is_empty(),
    }
}

fn location(p: &Problem) -> String {
    if p.source.is_empty() {
        return String::new();
    }
    match (p.line, p.column) {
        (Some(l), Some(c)) => format!(" @ {}:{l}:{c}", p.source),
        _ => format!(" @ {}", p.source),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_repositories_go_first_last_activated_first() {
        let r = |id: &str, url: &str| RemoteRepository::new(id, url);
        let declared = declared_repositories(
            &[
                vec![r("a", "1"), r("x", "p1")],
                vec![r("b", "2"), r("b", "3")],
            ],
            &[r("central", "c"), r("x", "pom")],
        );
        let got: Vec<(&str, &str)> = declared
            .iter()
            .map(|r| (r.id.as_str(), r.url.as_str()))
            .collect();
        assert_eq!(got, [("b", "3"), ("a", "1"), ("x", "p1"), ("central", "c")]);
    }

    #[test]
    fn encrypted_header_values_are_decrypted_for_downloads() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/quickstart");
        let xml = "<settings><servers><server><id>r</id><configuration><httpHeaders>\
                   <property><name>X-Token</name><value>{Soc2Nh4GWvgHc+Od29GALSSYe7JoAlgr1fvSun7Gkcc=}</value></property>\
                   <property><name>X-Broken</name><value>{AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=}</value></property>\
                   </httpHeaders></configuration></server></servers></settings>";
        let request = ExplainRequest {
            settings: SettingsRequest {
                user: Some(crate::settings::builder::SettingsSource::Content {
                    name: "s.xml".into(),
                    xml: xml.into(),
                }),
                ..Default::default()
            },
            security_file: Some(root.join("settings-security.xml")),
            repositories: vec![RemoteRepository::new("r", "https://r.example/")],
            cwd: root,
            ..Default::default()
        };
        let (repos, problems, _) = resolve_repositories(&request).unwrap();
        assert_eq!(
            repos[0].transport.headers,
            vec![("X-Token".to_string(), "demo-pass".to_string())]
        );
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].message.contains("X-Broken") && problems[0].message.contains("not sent")
        );
    }

    #[test]
    fn canonical_json_escapes_non_ascii() {
        let v = json!({"b": "é😀", "a": []});
        assert_eq!(
            to_canonical_json(&v),
            "{\n  \"a\": [],\n  \"b\": \"\\u00e9\\ud83d\\ude00\"\n}"
        );
    }
}
