//! Repository injection at scale: 1,000 declared repositories against 200 mirrors, 50 proxies
//! and 2,000 servers (target: under 5 ms per `inject`), plus how it scales with the number of
//! repositories. Run: `cargo bench --bench injection`.

use criterion::{black_box, BenchmarkId, Criterion};
use m2resolver::repository::{inject, inject_traced, EnvProxyConfig, RemoteRepository, Selectors};
use m2resolver::settings::{Mirror, Proxy, Server};
use m2resolver::Secret;

/// 200 mirrors: each names three repository ids and excludes one; the last 20 use wildcards
/// (`external:http:*`, `*,!r…`) so pattern scans run for every repository.
fn mirrors(n: usize) -> Vec<Mirror> {
    (0..n)
        .map(|i| {
            let of = if i + 20 >= n {
                if i % 2 == 0 {
                    "external:http:*".to_string()
                } else {
                    format!("*,!r{i},!q{i}")
                }
            } else {
                format!("r{},r{},r{},!q{i}", 3 * i, 3 * i + 1, 3 * i + 2)
            };
            Mirror {
                id: format!("m{i}"),
                mirror_of: Some(of),
                url: Some(format!("https://mirror{i}.example/maven2")),
                ..Mirror::default()
            }
        })
        .collect()
}

/// 50 active proxies, http and https, each with three nonProxyHosts patterns.
fn proxies(n: usize) -> Vec<(Proxy, Option<Secret>)> {
    (0..n)
        .map(|i| {
            (
                Proxy {
                    id: format!("p{i}"),
                    protocol: if i % 2 == 0 { "http" } else { "https" }.into(),
                    host: Some(format!("proxy{i}.corp")),
                    username: Some(format!("user{i}")),
                    non_proxy_hosts: Some(format!("*.internal{i}|host{i}.example|10.{i}.*")),
                    ..Proxy::default()
                },
                Some(Secret::new(format!("pw{i}"))),
            )
        })
        .collect()
}

fn servers(n: usize) -> Vec<(Server, Option<Secret>, Option<Secret>)> {
    (0..n)
        .map(|i| {
            (
                Server {
                    id: if i % 2 == 0 {
                        format!("m{}", i / 2)
                    } else {
                        format!("r{i}")
                    },
                    username: Some(format!("u{i}")),
                    ..Server::default()
                },
                Some(Secret::new(format!("s{i}"))),
                None,
            )
        })
        .collect()
}

/// Repositories on distinct hosts, a quarter on plain http, some excluded from proxies.
fn repositories(n: usize) -> Vec<RemoteRepository> {
    (0..n)
        .map(|i| {
            let id = if i % 7 == 0 {
                format!("q{i}")
            } else {
                format!("r{i}")
            };
            let url = match i % 4 {
                0 => format!("http://host{}.example/repo{i}", i % 50),
                1 => format!("https://a.internal{}/repo{i}", i % 50),
                _ => format!("https://repo{i}.example.org/maven2"),
            };
            RemoteRepository::new(id, url)
        })
        .collect()
}

fn selectors() -> Selectors {
    Selectors::new(
        &mirrors(200),
        &proxies(50),
        &servers(2000),
        EnvProxyConfig::disabled(),
    )
    .expect("valid bench settings")
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let sel = selectors();
    let repos = repositories(1000);
    let out = inject(&repos, &sel);
    println!(
        "1000 repositories -> {} after mirroring ({} with proxy, {} with credentials)",
        out.len(),
        out.iter().filter(|r| r.proxy.is_some()).count(),
        out.iter().filter(|r| r.authentication.is_some()).count()
    );
    c.bench_function("selectors_new 200 mirrors 50 proxies 2000 servers", |b| {
        b.iter(|| black_box(selectors()))
    });
    c.bench_function("inject 1000 repos", |b| {
        b.iter(|| black_box(inject(black_box(&repos), &sel)))
    });
    c.bench_function("inject_traced 1000 repos", |b| {
        b.iter(|| black_box(inject_traced(black_box(&repos), &sel)))
    });
    let mut group = c.benchmark_group("inject scaling");
    for n in [250usize, 500, 1000, 2000, 4000] {
        let repos = repositories(n);
        group.bench_with_input(BenchmarkId::from_parameter(n), &repos, |b, r| {
            b.iter(|| black_box(inject(r, &sel)))
        });
    }
    group.finish();
    c.final_summary();
}
