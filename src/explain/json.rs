//! The `m2r explain --json` document (`../shared/spec/cli-contract.md`): the effective
//! settings, the problems and the injected repositories, field for field what the oracle
//! prints from real Maven 3.8.7. Secrets appear as Maven uses them (decrypted, or as written
//! when decryption failed) and repository URLs as written: the document is for tools and
//! tests, not for logs. Credentials and proxies m2r takes from sources Maven does not read
//! (`.netrc`, credential helpers, JVM properties, `HTTPS_PROXY`) are left out here, as Maven
//! would have none; the human form shows them.

use super::{Explanation, RepositoryCredentials};
use crate::repository::{CredentialSource, Policy, ProxySource, RemoteRepository};
use crate::session::Credential;
use crate::settings::{Settings, SettingsProblem};
use serde_json::{json, Value};
use std::fmt::Write;

fn maven_text(c: &Option<Credential>) -> Option<String> {
    c.as_ref().map(|c| c.expose_as_maven_uses().to_string())
}

impl Explanation {
    /// The `m2r explain --json` document (secrets in clear: it is for tools and tests).
    pub fn to_json(&self) -> Value {
        let problems: Vec<Value> = self.problems.iter().map(problem_json).collect();
        let (settings, repositories) = match (&self.settings, &self.repositories) {
            (Some(s), Some(r)) => (
                self.settings_json(s),
                Value::Array(
                    r.iter()
                        .enumerate()
                        .map(|(i, r)| repository_json(r, self.credentials.get(i)))
                        .collect(),
                ),
            ),
            _ => (Value::Null, Value::Null),
        };
        let mut doc = json!({ "effectiveSettings": settings, "problems": problems, "repositories": repositories });
        if let (Some(d), Some(map)) = (&self.deployment, doc.as_object_mut()) {
            let mut repo = repository_json(&d.repository, Some(&d.credentials));
            if let Some(r) = repo.as_object_mut() {
                r.insert(
                    "wouldMirror".into(),
                    d.would_mirror
                        .as_ref()
                        .map(|m| Value::String(m.mirror_id.clone()))
                        .unwrap_or(Value::Null),
                );
            }
            map.insert("deploymentRepository".into(), repo);
        }
        doc
    }

    fn settings_json(&self, s: &Settings) -> Value {
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
                       "password": maven_text(pw), "port": p.port, "protocol": p.protocol, "username": p.username})
            })
            .collect();
        let servers: Vec<Value> = s
            .servers
            .iter()
            .zip(&self.servers)
            .map(|(sv, (pw, pp))| {
                json!({"id": sv.id, "passphrase": maven_text(pp), "password": maven_text(pw),
                       "privateKey": sv.private_key, "username": sv.username})
            })
            .collect();
        let active: Vec<&str> = self.active_profiles.iter().map(|p| p.id.as_str()).collect();
        json!({
            "activeProfiles": active,
            "interactiveMode": s.interactive_mode,
            "localRepository": s.local_repository,
            "mirrors": mirrors,
            "offline": s.offline,
            "proxies": proxies,
            "servers": servers,
        })
    }
}

fn problem_json(p: &SettingsProblem) -> Value {
    json!({"column": p.column, "line": p.line, "message": p.message,
           "severity": p.severity.to_string(), "stage": p.stage.to_string()})
}

fn repository_json(r: &RemoteRepository, credentials: Option<&RepositoryCredentials>) -> Value {
    let policy = |p: &Policy| json!({"checksumPolicy": p.checksum_policy, "enabled": p.enabled, "updatePolicy": p.update_policy});
    let none = RepositoryCredentials::default();
    let c = credentials.unwrap_or(&none);
    // Maven's answer only: credentials and proxies from sources beyond Maven (netrc, helpers,
    // JVM properties, the environment) are m2r's, shown by the human form.
    let maven_auth = !matches!(r.credential_source, Some(CredentialSource::Netrc { .. }));
    let auth = r.authentication.as_ref().filter(|_| maven_auth).map(|a| {
        json!({"passphrase": maven_text(&c.passphrase), "password": maven_text(&c.password),
               "privateKey": a.private_key, "username": a.username})
    });
    let proxy = r.proxy.as_ref().filter(|p| matches!(p.source, ProxySource::Settings { .. })).map(|p| {
        let a = p.auth.as_ref();
        json!({"host": p.host, "password": a.and_then(|_| maven_text(&c.proxy_password)), "port": p.port,
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
        "url": r.url.as_written(),
    })
}

/// Serialises like Python's `json.dumps(doc, indent=2, sort_keys=True)` (ASCII only).
///
/// ```
/// let v = serde_json::json!({"b": "é", "a": []});
/// assert_eq!(m2resolver::explain::to_canonical_json(&v), "{\n  \"a\": [],\n  \"b\": \"\\u00e9\"\n}");
/// ```
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_json_escapes_non_ascii() {
        let v = json!({"b": "é😀", "a": []});
        assert_eq!(
            to_canonical_json(&v),
            "{\n  \"a\": [],\n  \"b\": \"\\u00e9\\ud83d\\ude00\"\n}"
        );
    }
}
