//! Human-readable sentences for an [`InjectionTrace`] (what `m2r explain` prints without
//! `--json`). Secrets never appear: only ids, URLs, hosts and patterns.

use super::aggregate::{AggregateOutcome, InjectionTrace};
use super::model::ProxySource;

impl InjectionTrace {
    /// One sentence per decision: mirror (and why the others did not apply), aggregation,
    /// credentials, proxy.
    ///
    /// ```
    /// use m2resolver::repository::{inject_traced, RemoteRepository, Selectors};
    /// use m2resolver::settings::Mirror;
    /// let m = Mirror { id: "corp".into(), mirror_of: Some("*,!snap".into()), url: Some("https://nexus/".into()), ..Mirror::default() };
    /// let sel = Selectors::new(&[m], &[], &[], Default::default()).unwrap();
    /// let (_, traces) = inject_traced(&[RemoteRepository::new("snap", "https://s/")], &sel);
    /// let text = traces[0].describe().join("\n");
    /// assert!(text.contains("mirror `corp` does not apply: token `!snap` excludes it"), "{text}");
    /// ```
    pub fn describe(&self) -> Vec<String> {
        let mut out = Vec::new();
        let id = &self.repository_id;
        match &self.mirror {
            Some(m) => out.push(format!(
                "`{id}` ({}) is mirrored by `{}`: {} (token `{}`)",
                self.url, m.mirror_id, m.reason, m.token
            )),
            None => out.push(format!("`{id}` ({}) is not mirrored", self.url)),
        }
        for r in &self.mirror_rejections {
            out.push(format!(
                "mirror `{}` does not apply: {}",
                r.mirror_id, r.reason
            ));
        }
        match &self.outcome {
            AggregateOutcome::Added { position } => {
                out.push(format!("used as repository #{}", position + 1))
            }
            AggregateOutcome::MergedIntoMirror { position, id, added } => out.push(if *added {
                format!(
                    "merged into mirror `{id}` (repository #{}), whose policies now also cover it",
                    position + 1
                )
            } else {
                format!(
                    "mirror `{id}` (repository #{}) already mirrors a repository with this id; nothing added",
                    position + 1
                )
            }),
            AggregateOutcome::DroppedDuplicate { position, id } => out.push(format!(
                "dropped: repository #{} already has the id `{id}` and the first one wins",
                position + 1
            )),
        }
        if !matches!(self.outcome, AggregateOutcome::Added { .. }) {
            return out;
        }
        match &self.authentication_server {
            Some(s) => out.push(format!("credentials from server `{s}`")),
            None => out.push(match &self.transport_server {
                Some(s) => {
                    format!("server `{s}` has no credentials (its transport settings apply)")
                }
                None => {
                    let used = self.mirror.as_ref().map(|m| &m.mirror_id).unwrap_or(id);
                    format!("no credentials: no <server> has the id `{used}`")
                }
            }),
        }
        if let Some(p) = &self.proxy {
            for e in &p.settings.excluded {
                out.push(format!(
                    "proxy `{}` skipped: host `{}` matches its nonProxyHosts pattern `{}`",
                    e.proxy_id, p.settings.host, e.pattern
                ));
            }
            if let Some(pid) = &p.settings.selected_id {
                out.push(if p.settings.http_fallback {
                    format!("through proxy `{pid}` (an http proxy also serves https repositories)")
                } else {
                    format!("through proxy `{pid}` (serves `{}`)", p.settings.protocol)
                });
            } else if p.env_suppressed {
                out.push("direct: a settings proxy for this protocol excludes the host, so proxy environment variables are not consulted".into());
            } else if let Some(env) = &p.env {
                for e in &env.excluded_by {
                    out.push(format!(
                        "direct: {} entry `{}` matches the host",
                        e.source, e.entry
                    ));
                }
                out.extend(env.notes.iter().cloned());
                match &env.proxy {
                    Some(px) => out.push(match &px.source {
                        ProxySource::Environment { variable } => format!(
                            "through {} proxy {}:{} from ${variable} (no settings proxy serves `{}`)",
                            px.kind, px.host, px.port, p.settings.protocol
                        ),
                        ProxySource::SystemProperties => format!(
                            "through {} proxy {}:{} from system properties (no settings proxy serves `{}`)",
                            px.kind, px.host, px.port, p.settings.protocol
                        ),
                        ProxySource::Settings { id } => format!("through proxy `{id}`"),
                    }),
                    None if env.excluded_by.is_empty() => out.push("no proxy".into()),
                    None => {}
                }
            } else {
                out.push("no proxy".into());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::repository::{inject_traced, EnvProxyConfig, RemoteRepository, Selectors};
    use crate::settings::{Mirror, Proxy, Server};

    #[test]
    fn describes_mirror_auth_and_proxy_without_secrets() {
        let mirrors = [
            Mirror {
                id: "a".into(),
                mirror_of: Some("central".into()),
                url: Some("https://a/".into()),
                ..Mirror::default()
            },
            Mirror {
                id: "all".into(),
                mirror_of: Some("*".into()),
                url: Some("https://all.example/".into()),
                ..Mirror::default()
            },
        ];
        let proxies = [
            (
                Proxy {
                    id: "s".into(),
                    protocol: "https".into(),
                    host: Some("s".into()),
                    non_proxy_hosts: Some("*.example".into()),
                    ..Proxy::default()
                },
                None,
            ),
            (
                Proxy {
                    id: "h".into(),
                    host: Some("h".into()),
                    password: None,
                    ..Proxy::default()
                },
                Some(crate::Secret::new("proxy-secret")),
            ),
        ];
        let servers = [(
            Server {
                id: "all".into(),
                username: Some("u".into()),
                ..Server::default()
            },
            Some(crate::Secret::new("server-secret")),
            None,
        )];
        let sel = Selectors::new(&mirrors, &proxies, &servers, EnvProxyConfig::disabled()).unwrap();
        let (_, traces) = inject_traced(
            &[
                RemoteRepository::new("x", "https://x/"),
                RemoteRepository::new("y", "https://y/"),
            ],
            &sel,
        );
        let text = traces[0].describe().join("\n");
        for want in [
            "mirrored by `all`: mirrorOf is `*`",
            "mirror `a` does not apply: no mirrorOf token matches",
            "credentials from server `all`",
            "proxy `s` skipped: host `all.example` matches its nonProxyHosts pattern `*.example`",
            "through proxy `h` (an http proxy also serves https repositories)",
        ] {
            assert!(text.contains(want), "missing {want:?} in\n{text}");
        }
        assert!(!text.contains("secret"));
        let text = traces[1].describe().join("\n");
        assert!(text.contains("merged into mirror `all`"), "{text}");
    }
}
