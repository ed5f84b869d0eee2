//! Downloads decrypt only what they use: a build touching 3 repositories of a settings file
//! with 50 Maven 4 secrets pays for 3 key derivations, not 50 (one test: it counts the
//! process-wide PBKDF2 runs).

use m2resolver::explain::Explanation;
use m2resolver::repository::RemoteRepository;
use m2resolver::security::{encrypt_v4, key_derivations};
use m2resolver::settings::SettingsSource;
use m2resolver::{Environment, Secret, Session};
use std::fmt::Write;

#[test]
fn only_used_credentials_are_decrypted() {
    let home = tempfile::tempdir().unwrap();
    let m2 = home.path().join(".m2");
    std::fs::create_dir_all(&m2).unwrap();
    std::fs::write(
        m2.join("settings-security4.xml"),
        "<settingsSecurity><modelVersion>4.0</modelVersion><defaultDispatcher>master</defaultDispatcher>\
         <configurations><configuration><name>master</name><properties>\
         <property><name>source</name><value>env:M2R_TEST_MASTER</value></property>\
         <property><name>cipher</name><value>AES/GCM/NoPadding</value></property>\
         </properties></configuration></configurations></settingsSecurity>",
    )
    .unwrap();
    let master = Secret::new("lazy-master");
    // Three secrets for the repositories used, two more shared by the 47 others.
    let used: Vec<String> = (0..3)
        .map(|i| encrypt_v4(&format!("used-{i}"), &master))
        .collect();
    let unused: Vec<String> = (0..2)
        .map(|i| encrypt_v4(&format!("unused-{i}"), &master))
        .collect();
    let mut xml = String::from("<settings><servers>");
    for i in 0..50 {
        let password = if i < 3 { &used[i] } else { &unused[i % 2] };
        let _ = write!(xml, "<server><id>s{i}</id><username>u{i}</username><password>{password}</password></server>");
    }
    xml.push_str("</servers></settings>");
    let session = || {
        Session::builder()
            .environment(Environment {
                env: [("M2R_TEST_MASTER".to_string(), "lazy-master".to_string())].into(),
                system_properties: [("user.home".to_string(), home.path().display().to_string())]
                    .into(),
                cwd: home.path().to_path_buf(),
            })
            .user_settings(SettingsSource::content("settings.xml", xml.clone()))
            .build()
            .unwrap()
    };
    let declared: Vec<RemoteRepository> = (0..3)
        .map(|i| RemoteRepository::new(format!("s{i}"), format!("https://r{i}.example/")))
        .collect();

    let before = key_derivations();
    let session_for_download = session();
    let answer = session_for_download.repositories(&declared);
    assert!(answer.problems.is_empty(), "{:?}", answer.problems);
    let repos = answer.repositories;
    assert_eq!(
        key_derivations() - before,
        3,
        "one key derivation per used secret"
    );
    for (i, r) in repos.iter().enumerate() {
        let auth = r.authentication.as_ref().unwrap();
        assert_eq!(
            auth.password.as_ref().unwrap().expose(),
            format!("used-{i}")
        );
    }

    // explain lists everything, so it decrypts every distinct value (in parallel).
    let before = key_derivations();
    let e = Explanation::new(&session(), &declared);
    assert!(e.problems.is_empty(), "{:?}", e.problems);
    assert_eq!(key_derivations() - before, 5);
    let doc = e.to_json();
    assert_eq!(
        doc["effectiveSettings"]["servers"][49]["password"],
        "unused-1"
    );
}
