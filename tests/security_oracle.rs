//! Values encrypted by m2resolver are decrypted by the real Maven 3.8.7 classes
//! (`../shared/oracle/run.sh`, see its README). Fails when `java` or the oracle script is absent
//! (`scripts/test.sh` installs Java).

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use m2resolver::security::{encrypt_master_password, encrypt_password};

#[path = "support/shared.rs"]
mod shared;

fn oracle() -> PathBuf {
    let script = shared::shared_path("oracle/run.sh");
    let java = Command::new("java").arg("-version").output();
    assert!(
        java.is_ok_and(|o| o.status.success()),
        "java is not installed: the oracle test runs Maven's own classes; run `bash scripts/test.sh`"
    );
    script
}

#[test]
fn real_maven_decrypts_values_we_encrypt() {
    let script = oracle();
    let dir = tempfile::tempdir().unwrap();
    let master = "our-Master pässword!";
    let server_pw = "server pässword {with} \\ stuff";
    let passphrase = "key passphrase";
    let proxy_pw = "proxy-pw";
    let security = dir.path().join("settings-security.xml");
    std::fs::write(
        &security,
        format!(
            "<settingsSecurity>\n  <master>{}</master>\n</settingsSecurity>\n",
            encrypt_master_password(master)
        ),
    )
    .unwrap();
    let esc = |s: String| s.replace('&', "&amp;").replace('<', "&lt;");
    let settings = dir.path().join("settings.xml");
    std::fs::write(
        &settings,
        format!(
            r#"<settings>
  <servers>
    <server>
      <id>s</id>
      <username>u</username>
      <password>{}</password>
      <privateKey>/k</privateKey>
      <passphrase>made by m2r {}</passphrase>
    </server>
  </servers>
  <proxies>
    <proxy><id>p</id><host>proxy.example</host><port>3128</port><username>pu</username><password>{}</password></proxy>
  </proxies>
</settings>
"#,
            esc(encrypt_password(server_pw, master)),
            esc(encrypt_password(passphrase, master)),
            esc(encrypt_password(proxy_pw, master)),
        ),
    )
    .unwrap();
    let started = Instant::now();
    let out = Command::new("sh")
        .arg(&script)
        .arg("--settings")
        .arg(&settings)
        .arg("--security")
        .arg(&security)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(300));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "oracle failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let eff = &doc["effectiveSettings"];
    assert_eq!(eff["servers"][0]["password"], server_pw, "{stdout}");
    assert_eq!(eff["servers"][0]["passphrase"], passphrase, "{stdout}");
    assert_eq!(eff["proxies"][0]["password"], proxy_pw, "{stdout}");
    assert!(
        doc["problems"].as_array().is_none_or(|p| p.is_empty()),
        "unexpected problems: {stdout}"
    );
}
