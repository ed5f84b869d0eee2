//! Settings engine benchmark: load + merge + interpolate + validate a ~1 MB settings file
//! (2,000 servers, 200 mirrors, 100 profiles), and the same at half and double size to show
//! that the cost is linear. Target: under 10 ms for the 1 MB file on a 2-core machine.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use m2resolver::settings::{build, SettingsRequest, SettingsSource};
use std::fmt::Write;

/// A generated user settings file with `servers` servers, `servers / 10` mirrors and
/// `servers / 20` profiles, using interpolation in every server.
pub fn generate(servers: usize) -> String {
    let mut s = String::from("<settings xmlns=\"http://maven.apache.org/SETTINGS/1.2.0\">\n  <localRepository>${user.home}/.m2/repository</localRepository>\n  <servers>\n");
    for i in 0..servers {
        let _ = write!(
            s,
            "    <server>\n      <id>server-{i}</id>\n      <username>${{env.USER}}-{i}</username>\n      <password>{{COQLCE6DU6GtcS5P=}}</password>\n      <filePermissions>664</filePermissions>\n      <directoryPermissions>775</directoryPermissions>\n      <configuration>\n        <httpHeaders><property><name>X-Token</name><value>token-{i}-${{env.TOKEN}}</value></property></httpHeaders>\n        <connectTimeout>10000</connectTimeout>\n      </configuration>\n    </server>\n"
        );
    }
    s.push_str("  </servers>\n  <mirrors>\n");
    for i in 0..servers / 10 {
        let _ = write!(
            s,
            "    <mirror>\n      <id>mirror-{i}</id>\n      <mirrorOf>repo-{i},!other-{i},external:*</mirrorOf>\n      <url>https://nexus.example.com/repository/group-{i}/</url>\n      <blocked>false</blocked>\n    </mirror>\n"
        );
    }
    s.push_str("  </mirrors>\n  <profiles>\n");
    for i in 0..servers / 20 {
        let _ = write!(
            s,
            "    <profile>\n      <id>profile-{i}</id>\n      <activation><property><name>env.CI</name></property></activation>\n      <properties><p{i}>${{user.home}}/{i}</p{i}><q>value</q></properties>\n      <repositories>\n        <repository><id>repo-{i}</id><url>https://repo.example.com/{i}</url><releases><enabled>true</enabled></releases><snapshots><enabled>false</enabled><updatePolicy>never</updatePolicy></snapshots></repository>\n      </repositories>\n    </profile>\n"
        );
    }
    s.push_str("  </profiles>\n  <activeProfiles><activeProfile>profile-1</activeProfile></activeProfiles>\n</settings>\n");
    s
}

fn request(xml: String) -> SettingsRequest {
    SettingsRequest {
        user: Some(SettingsSource::Content {
            name: "settings.xml".into(),
            xml,
        }),
        system_properties: [("user.home".to_string(), "/home/bench".to_string())].into(),
        env: [
            ("USER".to_string(), "bench".to_string()),
            ("TOKEN".to_string(), "t".to_string()),
        ]
        .into(),
        ..Default::default()
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("settings_build");
    group.sample_size(30);
    for servers in [1000usize, 2000, 4000] {
        let xml = generate(servers);
        group.throughput(Throughput::Bytes(xml.len() as u64));
        let req = request(xml);
        group.bench_with_input(BenchmarkId::from_parameter(servers), &req, |b, req| {
            b.iter(|| {
                let r = build(req);
                assert!(!r.has_errors());
                r
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
