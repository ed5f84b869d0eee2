//! Download throughput bench over the shared testbed (`/work/shared/bench`, see its README).
//!
//! Start the servers first (`make-repo.sh 1000 32 $BENCH_TMP/repo`, `servers.sh start $BENCH_TMP/repo`),
//! then `cargo bench --bench download`. Every run is cold: a fresh local repository on tmpfs and a
//! fresh resolver (new connections, new TLS sessions). Prints the median wall time per scenario,
//! size and number of requests in flight.
//!
//! Environment: `BENCH_TMP` (default `/tmp/m2r-bench`), `SCENARIOS` (default
//! `http https https-proxy https-squid https-socks http-rtt https-proxy-rtt`), `SIZES` (`100 1000`),
//! `THREADS` (`8 16 32 64`), `RUNS` (3), `LOCAL_BASE` (`/dev/shm/m2r-bench-rs`).

use m2resolver::download::{BlockingDownloader, DownloaderConfig};
use m2resolver::repository::{Authentication, ProxySource, RemoteRepository, RepositoryProxy};
use m2resolver::Artifact;
use m2resolver::Secret;
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

fn env_list(name: &str, default: &str) -> Vec<String> {
    std::env::var(name)
        .unwrap_or_else(|_| default.to_string())
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

fn auth(user: &str, password: &str) -> Option<Authentication> {
    Some(Authentication {
        username: Some(user.into()),
        password: Some(Secret::new(password)),
        ..Default::default()
    })
}

fn proxy(kind: &str, port: &str, user: &str, password: &str) -> Option<RepositoryProxy> {
    Some(RepositoryProxy {
        kind: kind.into(),
        host: "127.0.0.1".into(),
        port: port.parse().unwrap_or(0),
        auth: auth(user, password),
        source: ProxySource::Settings {
            id: format!("bench-{kind}"),
        },
    })
}

fn scenario(name: &str, env: &HashMap<String, String>) -> Option<RemoteRepository> {
    let e = |k: &str| env.get(k).cloned().unwrap_or_default();
    let (scheme, port, auth_on, px) = match name {
        "http" => ("http", e("HTTP_PORT"), false, None),
        "http-auth" => ("http", e("HTTP_PORT"), true, None),
        "http-proxy" => (
            "http",
            e("HTTP_PORT"),
            true,
            proxy("http", &e("PROXY_PORT"), "proxyuser", "proxypass"),
        ),
        "https" => ("https", e("HTTPS_PORT"), true, None),
        "https-proxy" => (
            "https",
            e("HTTPS_PORT"),
            true,
            proxy("http", &e("PROXY_PORT"), "proxyuser", "proxypass"),
        ),
        "https-squid" => (
            "https",
            e("HTTPS_PORT"),
            true,
            proxy("http", &e("SQUID_PORT"), "proxyuser", "proxypass"),
        ),
        "https-socks" => (
            "https",
            e("HTTPS_PORT"),
            true,
            proxy("socks5", &e("SOCKS_PORT"), "socksuser", "sockspass"),
        ),
        "http-rtt" => ("http", e("RTT_HTTP_PORT"), false, None),
        "https-rtt" => ("https", e("RTT_HTTPS_PORT"), true, None),
        "https-proxy-rtt" => (
            "https",
            e("RTT_HTTPS_PORT"),
            true,
            proxy("http", &e("PROXY_PORT"), "proxyuser", "proxypass"),
        ),
        "https-squid-rtt" => (
            "https",
            e("RTT_HTTPS_PORT"),
            true,
            proxy("http", &e("SQUID_PORT"), "proxyuser", "proxypass"),
        ),
        _ => return None,
    };
    let path = if auth_on { "private" } else { "public" };
    let mut r = RemoteRepository::new(
        "bench-mirror",
        format!("{scheme}://127.0.0.1:{port}/{path}/"),
    );
    r.snapshots.enabled = false;
    if auth_on {
        r.authentication = auth("deploy", "s3cret");
    }
    r.proxy = px;
    Some(r)
}

fn main() {
    let bench_tmp =
        PathBuf::from(std::env::var("BENCH_TMP").unwrap_or_else(|_| "/tmp/m2r-bench".into()));
    let env_text = match std::fs::read_to_string(bench_tmp.join("env")) {
        Ok(t) => t,
        Err(_) => {
            eprintln!(
                "bench: {} missing; start the testbed: /work/shared/bench/servers.sh start (see benches/download.rs)",
                bench_tmp.join("env").display()
            );
            return;
        }
    };
    let env: HashMap<String, String> = env_text
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let repo_dir = PathBuf::from(env.get("REPO_DIR").cloned().unwrap_or_default());
    let all: Vec<Artifact> = std::fs::read_to_string(repo_dir.join("coords.txt"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| Artifact::parse(l).ok())
        .collect();
    let local_base = PathBuf::from(
        std::env::var("LOCAL_BASE").unwrap_or_else(|_| "/dev/shm/m2r-bench-rs".into()),
    );
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let mut transport_env = HashMap::new();
    if let Some(ca) = env.get("CA_PEM") {
        transport_env.insert("SSL_CERT_FILE".to_string(), ca.clone());
    }
    println!("| scenario | N | in flight | median s | runs |");
    println!("|---|---:|---:|---:|---|");
    for name in env_list(
        "SCENARIOS",
        "http https https-proxy https-squid https-socks http-rtt https-proxy-rtt",
    ) {
        let Some(repo) = scenario(&name, &env) else {
            eprintln!("bench: unknown scenario {name}");
            continue;
        };
        for n in env_list("SIZES", "100 1000") {
            let n: usize = n.parse().unwrap_or(100).min(all.len());
            let coords = &all[..n];
            for threads in env_list("THREADS", "8 16 32 64") {
                let threads: usize = threads.parse().unwrap_or(32);
                let mut times = Vec::new();
                for run in 0..runs {
                    let local = local_base.join(format!("{name}-{n}-{threads}-{run}"));
                    let _ = std::fs::remove_dir_all(&local);
                    let mut c = DownloaderConfig::new(&local);
                    c.max_in_flight = threads;
                    c.transport.env = transport_env.clone().into();
                    let started = Instant::now();
                    let r = BlockingDownloader::new(c).expect("downloader");
                    let results = r
                        .download(coords, std::slice::from_ref(&repo))
                        .expect("outside a runtime");
                    drop(r);
                    let secs = started.elapsed().as_secs_f64();
                    let failed: Vec<String> = results
                        .iter()
                        .filter_map(|r| r.as_ref().err().map(|e| e.to_string()))
                        .collect();
                    if !failed.is_empty() {
                        eprintln!(
                            "bench: {name} N={n} t={threads}: {} failed, first: {}",
                            failed.len(),
                            failed[0]
                        );
                    }
                    times.push(secs);
                    let _ = std::fs::remove_dir_all(&local);
                }
                let mut sorted = times.clone();
                sorted.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
                let median = sorted[sorted.len() / 2];
                let all_runs: Vec<String> = times.iter().map(|t| format!("{t:.2}")).collect();
                println!(
                    "| {name} | {n} | {threads} | {median:.2} | {} |",
                    all_runs.join(" ")
                );
            }
        }
    }
}
