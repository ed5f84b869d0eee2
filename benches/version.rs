//! Version ordering: parse and sort 100,000 random versions as Maven Resolver orders them
//! (Java's TimSort over `GenericVersion.compareTo`, `m2resolver::resolution::version`), and
//! range containment. `cargo bench --bench version`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use m2resolver::resolution::version::view::sort_versions;
use m2resolver::resolution::version::{java_sort, Version, VersionConstraint};
use rand::{Rng, SeedableRng};

/// Versions as they appear in repositories: 1–4 numbers, sometimes a qualifier with a number.
fn random_versions(n: usize) -> Vec<String> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(100_000);
    const QUALIFIERS: &[&str] = &[
        "alpha", "beta", "rc", "RC", "SNAPSHOT", "jre", "android", "M", "Final", "sp",
    ];
    (0..n)
        .map(|_| {
            let parts = rng.gen_range(1..=4);
            let mut v = (0..parts)
                .map(|_| rng.gen_range(0..30).to_string())
                .collect::<Vec<_>>()
                .join(".");
            if rng.gen_bool(0.3) {
                v.push('-');
                v.push_str(QUALIFIERS[rng.gen_range(0..QUALIFIERS.len())]);
                if rng.gen_bool(0.5) {
                    v.push_str(&rng.gen_range(1..5).to_string());
                }
            }
            v
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let texts = random_versions(100_000);
    let mut group = c.benchmark_group("version");
    group.sample_size(10);
    group.bench_function("parse and sort 100,000 random versions", |b| {
        b.iter(|| sort_versions(&texts).expect("a total order on these versions"))
    });
    let parsed: Vec<Version> = texts.iter().map(|t| Version::parse(t)).collect();
    group.bench_function("sort 100,000 parsed versions", |b| {
        b.iter_batched(
            || (0..parsed.len()).collect::<Vec<usize>>(),
            |mut order| {
                java_sort::sort(&mut order, |&a, &b| parsed[a].cmp(&parsed[b]))
                    .expect("total order")
            },
            BatchSize::LargeInput,
        )
    });
    group.bench_function("parse 100,000 versions", |b| {
        b.iter(|| texts.iter().map(|t| Version::parse(t)).collect::<Vec<_>>())
    });
    let range = VersionConstraint::parse("[1.0,2.0),[3.0-alpha,4.0],(10,)").expect("valid range");
    group.bench_function("range contains, 100,000 versions", |b| {
        b.iter(|| parsed.iter().filter(|v| range.contains(v)).count())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
