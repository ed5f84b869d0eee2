//! Differential tests against real Maven 3.8.7 / Resolver 1.6.3: `testdata/oracle_cases.json`
//! holds hand-made cases and the `repositories` list the oracle printed for them (regenerate
//! with `testdata/gen_oracle_cases.py`). Each case is rebuilt here in Rust, injected, rendered
//! like the oracle's JSON and compared.

use super::*;
use crate::settings::RepositoryPolicy;
use serde_json::{json, Value};

fn s(v: &Value, k: &str) -> Option<String> {
    v.get(k).and_then(Value::as_str).map(str::to_string)
}

fn mirrors(case: &Value) -> Vec<Mirror> {
    let mut out = Vec::new();
    for m in case["mirrors"].as_array().into_iter().flatten() {
        let mut x = Mirror {
            id: s(m, "id").unwrap_or_else(|| "default".into()),
            mirror_of: s(m, "mirrorOf"),
            url: s(m, "url"),
            blocked: s(m, "blocked").as_deref() == Some("true"),
            ..Mirror::default()
        };
        if let Some(l) = s(m, "layout") {
            x.layout = l;
        }
        if let Some(l) = s(m, "mirrorOfLayouts") {
            x.mirror_of_layouts = l;
        }
        out.push(x);
    }
    out
}

fn proxies(case: &Value) -> Vec<(Proxy, Option<Secret>)> {
    let mut out = Vec::new();
    for p in case["proxies"].as_array().into_iter().flatten() {
        let mut x = Proxy {
            id: s(p, "id").unwrap_or_else(|| "default".into()),
            active: s(p, "active").as_deref() != Some("false"),
            host: s(p, "host"),
            username: s(p, "username"),
            non_proxy_hosts: s(p, "nonProxyHosts"),
            ..Proxy::default()
        };
        if let Some(v) = s(p, "protocol") {
            x.protocol = v;
        }
        if let Some(v) = s(p, "port") {
            x.port = v.parse().unwrap_or(0);
        }
        out.push((x, s(p, "password").map(Secret::new)));
    }
    out
}

fn servers(case: &Value) -> Vec<(Server, Option<Secret>, Option<Secret>)> {
    let mut out = Vec::new();
    for v in case["servers"].as_array().into_iter().flatten() {
        let x = Server {
            id: s(v, "id").unwrap_or_else(|| "default".into()),
            username: s(v, "username"),
            private_key: s(v, "privateKey"),
            ..Server::default()
        };
        out.push((
            x,
            s(v, "password").map(Secret::new),
            s(v, "passphrase").map(Secret::new),
        ));
    }
    out
}

fn settings_policy(p: &Value) -> Option<RepositoryPolicy> {
    if p.is_null() {
        return None;
    }
    Some(RepositoryPolicy {
        enabled: s(p, "enabled").as_deref() != Some("false"),
        update_policy: s(p, "updatePolicy"),
        checksum_policy: s(p, "checksumPolicy"),
    })
}

/// Profile repositories in front of `--repo` ones; the profile injection de-duplicates by id
/// (first wins) when a profile contributes repositories, as Maven's model merger does.
fn repositories(case: &Value) -> Vec<RemoteRepository> {
    let mut out: Vec<RemoteRepository> = Vec::new();
    let profile = case["profileRepos"].as_array().cloned().unwrap_or_default();
    for r in &profile {
        let mut x = RemoteRepository::new(s(r, "id").unwrap(), s(r, "url").unwrap());
        if let Some(l) = s(r, "layout") {
            x.layout = l;
        }
        x.releases = policy::from_settings(settings_policy(&r["releases"]).as_ref());
        x.snapshots = policy::from_settings(settings_policy(&r["snapshots"]).as_ref());
        out.push(x);
    }
    for spec in case["repos"].as_array().into_iter().flatten() {
        let (id, url) = spec.as_str().unwrap().split_once('=').unwrap();
        if !profile.is_empty() && out.iter().any(|r| r.id == id) {
            continue;
        }
        out.push(RemoteRepository::new(id, url));
    }
    out
}

fn policy_json(p: &Policy) -> Value {
    json!({"checksumPolicy": p.checksum_policy, "enabled": p.enabled, "updatePolicy": p.update_policy})
}

fn render(r: &RemoteRepository) -> Value {
    let expose = |x: &Option<Secret>| x.as_ref().map(|s| s.expose().to_string());
    json!({
        "authentication": r.authentication.as_ref().map(|a| json!({
            "username": a.username, "password": expose(&a.password),
            "privateKey": a.private_key, "passphrase": expose(&a.passphrase)})),
        "blocked": r.blocked,
        "id": r.id,
        "layout": r.layout,
        "mirroredRepositories": r.mirrored_repositories.iter().map(|m| m.id.clone()).collect::<Vec<_>>(),
        "proxy": r.proxy.as_ref().map(|p| json!({
            "type": p.kind, "host": p.host, "port": p.port,
            "username": p.auth.as_ref().and_then(|a| a.username.clone()),
            "password": p.auth.as_ref().and_then(|a| expose(&a.password))})),
        "releases": policy_json(&r.releases),
        "snapshots": policy_json(&r.snapshots),
        "url": r.url.as_written(),
    })
}

#[test]
fn injection_matches_maven_oracle() {
    let text = include_str!("testdata/oracle_cases.json");
    let cases: Vec<Value> = serde_json::from_str(text).unwrap();
    assert!(cases.len() >= 12);
    for entry in &cases {
        let case = &entry["case"];
        let sel = Selectors::new(
            &mirrors(case),
            &proxies(case),
            &servers(case),
            EnvProxyConfig::disabled(),
        )
        .unwrap();
        let got: Vec<Value> = inject(&repositories(case), &sel)
            .iter()
            .map(render)
            .collect();
        assert_eq!(
            Value::Array(got),
            entry["expected"],
            "case `{}`",
            case["name"].as_str().unwrap()
        );
    }
}
