//! The human form of an [`Explanation`] (`m2r explain` without `--json`): problems with where
//! they are, the local repository and offline mode with where they came from, the active
//! profiles and why, then per repository which mirror rule matched and why the others did
//! not, which proxy applies or which `nonProxyHosts` / `NO_PROXY` entry excluded the host,
//! how it is reached (the proxy, its addresses in the order they will be tried, the
//! authentication scheme offered first and why: [`RoutePlan`]), which server gave the
//! credentials, headers, timeouts and policies, and finally the settings entries that apply to
//! nothing.
//!
//! This is the one renderer of [`InjectionTrace`]s. Secrets are masked (`***`) unless the
//! caller asks for them; repository URLs print without user info.

use super::{Explanation, RepositoryCredentials};
use crate::repository::{CredentialSource, InjectionTrace, RemoteRepository, RepositoryUrl};
use crate::session::Credential;
use crate::settings::SettingsProblem;
use crate::transport::RoutePlan;
use std::fmt::Write;

impl Explanation {
    /// The human explanation. Secrets are masked unless `show_secrets`.
    pub fn render(&self, show_secrets: bool) -> String {
        let mut o = String::new();
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
        if self.settings.is_none() {
            let _ = writeln!(
                o,
                "The settings could not be built; fix the problems above."
            );
            return o;
        }
        if let Some(local) = &self.local_repository {
            let _ = writeln!(
                o,
                "Local repository: {} (from {})",
                local.value.display(),
                local.definition
            );
        }
        if let Some(tail) = &self.local_tail {
            let _ = writeln!(
                o,
                "Local repository tail (read only, never written; maven.repo.local.tail), availability {}:",
                if tail.ignore_availability {
                    "ignored (any file there is used)"
                } else {
                    "honoured (its _remote.repositories must name a repository of the request)"
                }
            );
            for d in &tail.dirs {
                let _ = writeln!(
                    o,
                    "  {}{}",
                    d.display(),
                    if d.is_dir() { "" } else { "  (does not exist)" }
                );
            }
        }
        if let Some(offline) = &self.offline {
            let _ = writeln!(o, "Offline: {offline}");
        }
        if self.active_profiles.is_empty() {
            let _ = writeln!(o, "Active profiles: none");
        } else {
            let _ = writeln!(o, "Active profiles:");
            for p in &self.active_profiles {
                let _ = writeln!(o, "  {}: {}", p.id, p.reason);
            }
        }
        let _ = writeln!(o);
        let repos = self.repositories.as_deref().unwrap_or_default();
        let _ = writeln!(
            o,
            "Repositories ({}), in the order artifacts are looked up:",
            repos.len()
        );
        let none = RepositoryCredentials::default();
        // How each repository is reached (proxy addresses in connect order, the scheme offered
        // first): resolves the proxies' host names.
        let routes = RoutePlan::fresh_all(repos);
        for ((n, r), route) in repos.iter().enumerate().zip(&routes) {
            let credentials = self.credentials.get(n).unwrap_or(&none);
            let mask = Mask(show_secrets);
            self.repository(&mut o, n, r, route, credentials, mask);
        }
        if let Some(d) = &self.deployment {
            self.deployment(&mut o, d, Mask(show_secrets));
        }
        if !self.notes.is_empty() {
            let _ = writeln!(o, "\nNotes:");
            for n in &self.notes {
                let _ = writeln!(o, "  - {n}");
            }
        }
        o
    }

    fn repository(
        &self,
        o: &mut String,
        n: usize,
        r: &RemoteRepository,
        route: &RoutePlan,
        credentials: &RepositoryCredentials,
        mask: Mask,
    ) {
        let _ = writeln!(
            o,
            "{}. {} {}{}",
            n + 1,
            r.id,
            mask.url(&r.url),
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
        let traces: Vec<&InjectionTrace> = self
            .traces
            .iter()
            .filter(|t| trace_lands_in(t, r))
            .collect();
        for t in &traces {
            mirror_decisions(o, t, mask);
        }
        proxy(o, r, credentials, mask);
        if let Some(trace) = traces.iter().find(|t| t.proxy.is_some()) {
            proxy_decisions(o, trace);
        }
        for line in route.describe() {
            let _ = writeln!(o, "   {line}");
        }
        match (&r.credential_source, &r.authentication) {
            (Some(CredentialSource::Helper(h)), _) => {
                let _ = writeln!(
                    o,
                    "   credentials: {h}, run at the first request (answer kept for the session){}",
                    h.username
                        .as_deref()
                        .map(|u| format!("; username {u} passed to it"))
                        .unwrap_or_default()
                );
            }
            (Some(source @ CredentialSource::Netrc { .. }), Some(a)) => {
                let _ = writeln!(
                    o,
                    "   credentials: {source}: username {}, password {}{}",
                    a.username.as_deref().unwrap_or("(none)"),
                    credentials
                        .password
                        .as_ref()
                        .map(|c| mask.show(c))
                        .unwrap_or_else(|| "(none)".into()),
                    if self.has_server(&r.id) {
                        format!(" (<server> `{}` has no credentials)", r.id)
                    } else {
                        String::new()
                    }
                );
            }
            (_, Some(a)) => {
                let _ = writeln!(
                    o,
                    "   credentials: server `{}`: username {}, password {}{}",
                    r.id,
                    a.username.as_deref().unwrap_or("(none)"),
                    credentials
                        .password
                        .as_ref()
                        .map(|c| mask.show(c))
                        .unwrap_or_else(|| "(none)".into()),
                    a.private_key
                        .as_ref()
                        .map(|k| format!(", private key {k}"))
                        .unwrap_or_default()
                );
            }
            (_, None) => {
                let _ = writeln!(
                    o,
                    "   credentials: none ({})",
                    if self.has_server(&r.id) {
                        format!("<server> `{}` has none", r.id)
                    } else {
                        format!("no <server> with id `{}`", r.id)
                    }
                );
            }
        }
        for f in self.filters.get(n).into_iter().flatten() {
            let _ = writeln!(o, "   {f}");
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
}

impl Explanation {
    /// The deployment repository: how uploads reach it and why no mirror applies.
    fn deployment(&self, o: &mut String, d: &super::DeploymentExplanation, mask: Mask) {
        let r = &d.repository;
        let _ = writeln!(o, "\nDeployment repository: {} {}", r.id, mask.url(&r.url));
        let _ = writeln!(
            o,
            "   no mirror applies: Maven's deploy plugins give a deployment repository the credentials and proxy of its id and host, never a mirror (mirrors serve downloads)"
        );
        match &d.would_mirror {
            Some(m) => {
                let _ = writeln!(
                    o,
                    "     mirror `{}` would replace it for downloads: {} (token `{}`)",
                    m.mirror_id, m.reason, m.token
                );
            }
            None => {
                for rej in &d.trace.mirror_rejections {
                    let _ = writeln!(
                        o,
                        "     mirror `{}` would not mirror it either: {}",
                        rej.mirror_id, rej.reason
                    );
                }
            }
        }
        proxy(o, r, &d.credentials, mask);
        proxy_decisions(o, &d.trace);
        for line in RoutePlan::fresh_all(std::slice::from_ref(r))
            .iter()
            .flat_map(|p| p.describe())
        {
            let _ = writeln!(o, "   {line}");
        }
        match &r.authentication {
            Some(a) => {
                let _ = writeln!(
                    o,
                    "   credentials: server `{}`: username {}, password {} (sent with every upload: Basic at once, Digest when challenged)",
                    r.id,
                    a.username.as_deref().unwrap_or("(none)"),
                    d.credentials
                        .password
                        .as_ref()
                        .map(|c| mask.show(c))
                        .unwrap_or_else(|| "(none)".into()),
                );
            }
            None => {
                let _ = writeln!(
                    o,
                    "   credentials: none (no <server> with id `{}`: a repository that needs them answers 401)",
                    r.id
                );
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
        match &d.options {
            Ok(opt) => {
                let sums: Vec<&str> = opt.checksums.iter().map(|a| a.name.as_str()).collect();
                let _ = writeln!(
                    o,
                    "   uploads: {} in flight, checksums {}{}, Expect: 100-continue {}, {} retries (connection errors, HTTP {})",
                    opt.max_in_flight,
                    sums.join(", "),
                    if opt.checksums_for_signatures { " (also for .asc)" } else { " (none for .asc)" },
                    if opt.expect_continue { "on" } else { "off" },
                    opt.retry.retries,
                    opt.retry_statuses
                        .iter()
                        .map(u16::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
            Err(e) => {
                let _ = writeln!(o, "   uploads: cannot be made: {e}");
            }
        }
    }

    /// Whether the settings hold a `<server>` with this id.
    fn has_server(&self, id: &str) -> bool {
        self.settings
            .as_ref()
            .is_some_and(|s| s.servers.iter().any(|sv| sv.id == id))
    }
}

/// Shows a credential in clear or masked.
#[derive(Clone, Copy)]
struct Mask(bool);

impl Mask {
    /// A URL: credentials inside it (`--repo id=https://user:pw@host/`) are secrets too.
    fn url(self, url: &RepositoryUrl) -> String {
        if self.0 {
            url.as_written().to_string()
        } else {
            url.to_string()
        }
    }

    fn show(self, c: &Credential) -> String {
        if self.0 {
            c.expose_as_maven_uses().to_string()
        } else {
            "***".to_string()
        }
    }
}

/// Which mirror applied to a declared repository, and why the others did not.
fn mirror_decisions(o: &mut String, t: &InjectionTrace, mask: Mask) {
    let _ = writeln!(o, "   declared `{}` {}", t.repository_id, mask.url(&t.url));
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

/// The proxy a repository goes through, where it came from and its (masked) credentials.
fn proxy(o: &mut String, r: &RemoteRepository, credentials: &RepositoryCredentials, mask: Mask) {
    let Some(p) = &r.proxy else {
        let _ = writeln!(o, "   proxy: none (direct connection)");
        return;
    };
    let source = p.source.to_string();
    let user = p
        .auth
        .as_ref()
        .map(|a| {
            format!(
                " as {} (password {})",
                a.username.as_deref().unwrap_or("?"),
                credentials
                    .proxy_password
                    .as_ref()
                    .map(|c| mask.show(c))
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

/// Why proxies were or were not used for a repository: Maven's http fallback, `nonProxyHosts`
/// and `NO_PROXY` exclusions, notes of the environment layer.
fn proxy_decisions(o: &mut String, trace: &InjectionTrace) {
    let Some(pt) = &trace.proxy else {
        return;
    };
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

/// Whether a declared repository's trace ended in result repository `r`.
fn trace_lands_in(t: &InjectionTrace, r: &RemoteRepository) -> bool {
    match &t.mirror {
        Some(m) => m.mirror_id == r.id,
        None => t.repository_id == r.id && r.mirrored_repositories.is_empty(),
    }
}

fn location(p: &SettingsProblem) -> String {
    if p.source.is_empty() {
        return String::new();
    }
    match (p.line, p.column) {
        (Some(l), Some(c)) => format!(" @ {}:{l}:{c}", p.source),
        _ => format!(" @ {}", p.source),
    }
}
