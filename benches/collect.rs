//! Collection and conflict resolution alone (no I/O): a layered graph like
//! `../shared/bench/make-graph-repo.py` builds (depth 8, 2–5 dependencies each, second versions
//! that lose conflicts, test/provided/optional edges that are pruned, root management), in an
//! in-memory source, at 150, 600 and 2,400 artifacts. `cargo bench --bench collect`.
//!
//! The end-to-end numbers (POMs over HTTPS through an authenticating proxy, then the jars) are
//! `m2r resolve` against `mavenfetch get --transitive` on the shared testbed (README).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use m2resolver::resolution::collect::{collect, CollectRequest, MemorySource};
use m2resolver::resolution::{Artifact, ArtifactDescriptor, Dependency};
use rand::{Rng, SeedableRng};

fn world(n: usize) -> (MemorySource, CollectRequest) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let layers = 8;
    let per = (n / layers).max(1);
    let layer = |i: usize| (i / per).min(layers - 1);
    let versions: Vec<Vec<&str>> = (0..n)
        .map(|_| {
            if rng.gen_bool(0.7) {
                vec!["1.0"]
            } else {
                vec!["1.0", "1.1"]
            }
        })
        .collect();
    let jar = |i: usize, v: &str| {
        Artifact::from_type(
            format!("org.graph.l{}", layer(i)),
            format!("art{i}"),
            "jar",
            "",
            v,
        )
    };
    let mut source = MemorySource::new();
    for i in 0..n {
        for v in &versions[i] {
            let mut deps = Vec::new();
            if layer(i) + 1 < layers {
                for _ in 0..rng.gen_range(2..=5) {
                    let lo = (layer(i) + 1) * per;
                    let j = rng.gen_range(lo..n);
                    let jv = versions[j][rng.gen_range(0..versions[j].len())];
                    let scope = match rng.gen_range(0..20) {
                        0 => "test",
                        1 => "provided",
                        2 => "runtime",
                        _ => "compile",
                    };
                    let mut d = Dependency::new(jar(j, jv), scope);
                    if rng.gen_range(0..25) == 0 {
                        d.optional = Some(true);
                    }
                    deps.push(d);
                }
            }
            source.add(
                &jar(i, v).to_string(),
                ArtifactDescriptor {
                    dependencies: deps,
                    ..Default::default()
                },
            );
        }
    }
    let roots: Vec<Dependency> = (0..12.min(n))
        .map(|i| Dependency::new(jar(i, versions[i][0]), "compile"))
        .collect();
    let managed: Vec<Dependency> = (0..n)
        .step_by(4)
        .map(|i| Dependency::new(jar(i, versions[i].last().copied().unwrap_or("1.0")), ""))
        .collect();
    let request = CollectRequest {
        root: Some(Artifact::new("org.graph", "bench", "pom", "", "1")),
        dependencies: roots,
        managed_dependencies: managed,
        repositories: vec![],
    };
    (source, request)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("collect");
    group.sample_size(10);
    for n in [150usize, 600, 2400] {
        let (source, request) = world(n);
        let nodes = collect(&source, &request).graph.preorder().len();
        group.bench_with_input(
            BenchmarkId::new(format!("collect+resolve ({nodes} nodes)"), n),
            &n,
            |b, _| b.iter(|| collect(&source, &request)),
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
