//! Security benchmarks: one legacy (Maven 3) decryption, and resolving 3 of 50 Maven 4 secrets
//! with a warm `Decryptor` (configuration read and master password obtained), counting PBKDF2
//! derivations. Run: `cargo bench --bench security`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use m2resolver::security::{
    decrypt_password, encrypt_password, encrypt_v4, key_derivations, Decryptor, SecurityContext,
};
use m2resolver::Secret;

fn legacy(c: &mut Criterion) {
    let value = encrypt_password("server password", "masterPw!");
    c.bench_function("legacy_decrypt_one_value", |b| {
        b.iter(|| {
            decrypt_password(black_box(&value), black_box("masterPw!")).map(|s| s.expose().len())
        })
    });

    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join(".m2")).unwrap();
    std::fs::write(
        home.path().join(".m2/settings-security.xml"),
        "<settingsSecurity><master>{Y59ndMXzPqkHlZSKdhADs6QXXDWjtIjFe8hBX8EvFxg=}</master></settingsSecurity>",
    )
    .unwrap();
    let ctx = SecurityContext::new(home.path(), home.path());
    c.bench_function("legacy_decryptor_cold_file_and_value", |b| {
        b.iter_batched(
            || Decryptor::new(ctx.clone()),
            |d| d.decrypt(&value).map(|s| s.expose().len()),
            BatchSize::SmallInput,
        )
    });
}

fn maven4(c: &mut Criterion) {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join(".m2")).unwrap();
    std::fs::write(
        home.path().join(".m2/settings-security4.xml"),
        "<settingsSecurity><modelVersion>4.0</modelVersion><defaultDispatcher>master</defaultDispatcher>\
         <configurations><configuration><name>master</name><properties>\
         <property><name>source</name><value>env:MAVEN_MASTER_PASSWORD</value></property>\
         <property><name>cipher</name><value>AES/GCM/NoPadding</value></property>\
         </properties></configuration></configurations></settingsSecurity>",
    )
    .unwrap();
    let ctx = SecurityContext::new(home.path(), home.path())
        .with_env("MAVEN_MASTER_PASSWORD", "masterPw");
    let master = Secret::new("masterPw");
    let secrets: Vec<String> = (0..50)
        .map(|i| encrypt_v4(&format!("secret-{i}"), &master))
        .collect();
    let wanted = [&secrets[3], &secrets[17], &secrets[42]];
    let warm = || {
        let d = Decryptor::new(ctx.clone());
        // Warm: configuration read and master obtained (through one lookup that costs no PBKDF2).
        let _ = d.decrypt("{[name=masterSourceLookup,version=4.0]env:MAVEN_MASTER_PASSWORD}");
        let _ = d.maven4_security_file();
        d
    };
    let before = key_derivations();
    let d = warm();
    for (i, v) in wanted.iter().enumerate() {
        let clear = d.decrypt(v).map(|s| s.expose().to_string());
        assert!(clear.is_ok(), "secret {i}");
    }
    let cold = key_derivations() - before;
    let before = key_derivations();
    for v in wanted {
        let _ = d.decrypt(v);
    }
    let again = key_derivations() - before;
    println!("maven4: PBKDF2 runs for 3 of 50 values: {cold} (first time), {again} (asked again)");

    let mut group = c.benchmark_group("maven4");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("resolve_3_of_50_warm_decryptor", |b| {
        b.iter_batched(
            warm,
            |d| {
                for v in wanted {
                    let _ = black_box(d.decrypt(v).map(|s| s.expose().len()));
                }
            },
            BatchSize::PerIteration,
        )
    });
    group.bench_function("resolve_3_of_50_already_resolved", |b| {
        b.iter(|| {
            for v in wanted {
                let _ = black_box(d.decrypt(v).map(|s| s.expose().len()));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, legacy, maven4);
criterion_main!(benches);
