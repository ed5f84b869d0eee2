//! POM model building: the descriptors (effective models) of every POM in
//! `../shared/corpus/deps-debian/repo` (188 POMs: Maven, Resolver, Guava, Guice, plexus, sisu,
//! commons, ... with their parents and BOMs), read through the real downloader from a `file:`
//! repository into a warm local repository, the session refreshed before each iteration (a new
//! Maven session: every parent and BOM built again; parsed files are kept). Also: reading one
//! large POM into a model.
//! `cargo bench --bench pom`.

use criterion::{criterion_group, criterion_main, Criterion};
use m2resolver::{Artifact, Environment, RemoteRepository, Session};
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/deps-debian/repo")
}

/// Every `g/a/v/a-v.pom` under `root`, as `g:a:pom:v`.
fn poms(root: &Path) -> Vec<Artifact> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "pom") {
                let rel: Vec<String> = p
                    .strip_prefix(root)
                    .unwrap_or(&p)
                    .iter()
                    .map(|s| s.to_string_lossy().into_owned())
                    .collect();
                if rel.len() >= 4 {
                    let n = rel.len();
                    out.push(Artifact::new(
                        rel[..n - 3].join("."),
                        rel[n - 3].clone(),
                        "jar",
                        "",
                        rel[n - 2].clone(),
                    ));
                }
            }
        }
    }
    out.sort();
    out
}

fn bench(c: &mut Criterion) {
    let root = corpus();
    let artifacts = poms(&root);
    if artifacts.is_empty() {
        eprintln!("no corpus at {}: skipped", root.display());
        return;
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let local = tempfile::tempdir().expect("temporary local repository");
    let url = url::Url::from_directory_path(&root)
        .map(|u| u.to_string())
        .unwrap_or_else(|_| format!("file://{}", root.display()));
    let mut central = RemoteRepository::new("central", url);
    central.snapshots.enabled = false;
    let repos = vec![central];
    let session = Session::builder()
        .environment(Environment::default())
        .no_user_settings()
        .no_global_settings()
        .system_property("java.version", "17.0.9")
        .local_repository(local.path())
        .build()
        .expect("session");
    // Warm the local repository (downloads happen once, as on a developer's machine).
    let described = artifacts
        .iter()
        .filter(|a| session.blocking_describe(a, &repos).is_ok())
        .count();
    eprintln!(
        "{} POMs, {} described without a problem",
        artifacts.len(),
        described
    );

    let mut group = c.benchmark_group("pom");
    group.sample_size(20);
    group.bench_function(
        "describe every deps-debian POM, fresh session, one by one",
        |b| {
            b.iter(|| {
                session.refresh();
                for a in &artifacts {
                    let _ = session.blocking_describe(a, &repos);
                }
            })
        },
    );
    group.bench_function(
        "describe every deps-debian POM, fresh session, all at once",
        |b| {
            b.iter(|| {
                session.refresh();
                runtime.block_on(futures_util::future::join_all(
                    artifacts.iter().map(|a| session.describe(a, &repos)),
                ))
            })
        },
    );
    let big = root.join("org/apache/maven/maven/3.8.7/maven-3.8.7.pom");
    if let Ok(bytes) = std::fs::read(&big) {
        group.bench_function("read maven-3.8.7.pom (XML to model)", |b| {
            b.iter(|| m2resolver::resolution::pom::bench_read_model(&bytes, "maven-3.8.7.pom"))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
