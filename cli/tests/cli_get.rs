//! `m2r get` end to end, as a CI machine behind a corporate proxy runs it: settings with a
//! mirror of every repository, the mirror's credentials and the proxy's password encrypted
//! (Maven 3 format with settings-security.xml), real nginx over HTTPS with basic auth and a real
//! authenticating squid in between.

// The server harness is shared with the library's download tests.
#[path = "../../tests/support/mod.rs"]
mod support;

use m2resolver::security::{encrypt_master_password, encrypt_password};
use std::path::Path;
use std::process::{Command, Output};
use support::*;

struct Setup {
    _tmp: tempfile::TempDir,
    dir: std::path::PathBuf,
    remote: Repo,
    nginx: Nginx,
    squid: Squid,
}

fn setup() -> Setup {
    let tmp = tempfile::tempdir().unwrap();
    let remote = Repo::new(&tmp.path().join("remote"));
    remote.put("org/ex/lib/1.0/lib-1.0.jar", &Repo::content("lib", 20_000));
    remote.put(
        "org/ex/util/2.0/util-2.0-sources.jar",
        &Repo::content("util", 5_000),
    );
    let work = tmp.path().join("work");
    let nginx = Nginx::start(&remote.root, &work);
    let squid = Squid::start(&work, &[nginx.https_port]);
    let dir = tmp.path().join("case");
    std::fs::create_dir_all(&dir).unwrap();
    let master = "build-master";
    std::fs::write(
        dir.join("settings-security.xml"),
        format!(
            "<settingsSecurity><master>{}</master></settingsSecurity>",
            encrypt_master_password(master)
        ),
    )
    .unwrap();
    Setup {
        _tmp: tmp,
        dir,
        remote,
        nginx,
        squid,
    }
}

fn write_settings(s: &Setup, server_password: &str) {
    write_settings_with(s, server_password, PROXY_PASSWORD);
}

fn write_settings_with(s: &Setup, server_password: &str, proxy_password: &str) {
    write_settings_via(s, server_password, proxy_password, s.squid.port, PROXY_USER);
}

fn write_settings_via(
    s: &Setup,
    server_password: &str,
    proxy_password: &str,
    proxy_port: u16,
    proxy_user: &str,
) {
    let master = "build-master";
    let xml = format!(
        r#"<settings>
  <mirrors><mirror><id>corp</id><mirrorOf>*</mirrorOf><url>{url}</url></mirror></mirrors>
  <proxies><proxy><id>corp-proxy</id><protocol>http</protocol><host>127.0.0.1</host><port>{port}</port>
    <username>{pu}</username><password>{pp}</password></proxy></proxies>
  <servers><server><id>corp</id><username>{u}</username><password>{p}</password></server></servers>
  <profiles><profile><id>ci</id><repositories><repository><id>central</id>
    <url>https://repo.maven.apache.org/maven2</url></repository></repositories></profile></profiles>
  <activeProfiles><activeProfile>ci</activeProfile></activeProfiles>
</settings>"#,
        url = s.nginx.https("private"),
        port = proxy_port,
        pu = proxy_user,
        pp = encrypt_password(proxy_password, master),
        u = USER,
        p = encrypt_password(server_password, master),
    );
    std::fs::write(s.dir.join("settings.xml"), xml).unwrap();
}

fn m2r(s: &Setup, extra: &[&str]) -> Output {
    m2r_cmd(s, "get", extra)
}

fn m2r_cmd(s: &Setup, command: &str, extra: &[&str]) -> Output {
    let local: &[&str] = if command == "get" {
        &["--local-repository", "local"]
    } else {
        &[]
    };
    support::process::bounded_output(
        Command::new(env!("CARGO_BIN_EXE_m2r"))
            .arg(command)
            .args([
                "--settings",
                "settings.xml",
                "--security",
                "settings-security.xml",
            ])
            .args(local)
            .args(["-Duser.home=home", "--no-env-proxy"])
            .args(extra)
            .current_dir(&s.dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("SSL_CERT_FILE", &s.nginx.tls.ca_pem),
    )
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn get_resolves_through_mirror_proxy_and_encrypted_credentials() {
    let s = setup();
    write_settings(&s, PASSWORD);
    let out = m2r(&s, &["org.ex:lib:1.0", "org.ex:util:jar:sources:2.0"]);
    assert!(
        out.status.success(),
        "stdout {}\nstderr {}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let stdout = text(&out.stdout);
    let jar = s.dir.join("local/org/ex/lib/1.0/lib-1.0.jar");
    assert!(stdout.contains(&jar.display().to_string()), "{stdout}");
    assert_eq!(
        std::fs::read(&jar).unwrap(),
        std::fs::read(s.remote.root.join("org/ex/lib/1.0/lib-1.0.jar")).unwrap()
    );
    assert!(s
        .dir
        .join("local/org/ex/util/2.0/util-2.0-sources.jar")
        .is_file());
    // Tracked for Maven: the file came from the mirror `corp`.
    let tracking =
        std::fs::read_to_string(s.dir.join("local/org/ex/lib/1.0/_remote.repositories")).unwrap();
    assert!(tracking.contains("lib-1.0.jar>corp="), "{tracking}");
    assert!(s.nginx.count_gets(".jar") >= 2);
    // No secret on the terminal.
    for secret in [PASSWORD, PROXY_PASSWORD] {
        assert!(!stdout.contains(secret) && !text(&out.stderr).contains(secret));
    }

    // Offline now answers from the local repository; a missing artifact is a clear error.
    let out = m2r(&s, &["--offline", "org.ex:lib:1.0"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = m2r(&s, &["--offline", "org.ex:nothere:1.0"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("org.ex:nothere"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn wrong_server_password_is_an_error_naming_the_server() {
    let s = setup();
    write_settings(&s, "not-the-password");
    let out = m2r(&s, &["org.ex:lib:1.0"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("corp"), "{stderr}");
    assert!(!stderr.contains("not-the-password"), "{stderr}");
    assert!(!Path::new(&s.dir.join("local/org/ex/lib/1.0/lib-1.0.jar")).exists());
}

#[test]
fn wrong_proxy_password_is_an_error_naming_the_proxy() {
    // Proves the download goes through the proxy: with its password wrong, nothing arrives.
    let s = setup();
    write_settings_with(&s, PASSWORD, "not-the-proxy-password");
    let out = m2r(&s, &["org.ex:lib:1.0"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("corp-proxy") || stderr.contains("proxy"),
        "{stderr}"
    );
    assert!(!stderr.contains("not-the-proxy-password"), "{stderr}");
    assert_eq!(s.nginx.count_gets(".jar"), 0);
}

#[test]
fn get_through_digest_and_ntlm_proxies_and_explain_shows_the_route() {
    let s = setup();
    let work = s.dir.parent().unwrap().join("work");
    let loopback = "127.0.0.1".parse().unwrap();
    let digest = Squid::start_with(&work, &[s.nginx.https_port], SquidAuth::Digest, loopback);
    let ntlm = Squid::start_with(&work, &[s.nginx.https_port], SquidAuth::Ntlm, loopback);
    for (scheme, port, user) in [
        ("Digest", digest.port, PROXY_USER.to_string()),
        ("Ntlm", ntlm.port, format!("CORP\\{PROXY_USER}")),
    ] {
        write_settings_via(&s, PASSWORD, PROXY_PASSWORD, port, &user);
        let _ = std::fs::remove_dir_all(s.dir.join("local"));
        let out = m2r(&s, &["-v", "org.ex:lib:1.0", "org.ex:util:jar:sources:2.0"]);
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{scheme}: {stderr}");
        assert_eq!(
            std::fs::read(s.dir.join("local/org/ex/lib/1.0/lib-1.0.jar")).unwrap(),
            std::fs::read(s.remote.root.join("org/ex/lib/1.0/lib-1.0.jar")).unwrap(),
            "{scheme}"
        );
        // -v says which scheme the proxy asked for and that it was accepted
        assert!(
            stderr.contains(&format!("scheme={}", scheme.to_uppercase()))
                || stderr.contains(&format!("scheme={scheme}")),
            "{scheme}: {stderr}"
        );
        assert!(!stderr.contains(PROXY_PASSWORD), "{stderr}");
        let out = m2r_cmd(&s, "explain", &[]);
        let stdout = text(&out.stdout);
        assert!(
            stdout.contains(&format!(
                "route: proxy 127.0.0.1:{port} (settings proxy `corp-proxy`), HTTP CONNECT tunnel to 127.0.0.1:{}",
                s.nginx.https_port
            )) && stdout.contains(&format!(
                "addresses, in the order they are tried: 127.0.0.1:{port}"
            )) && stdout.contains("proxy authentication: none at first")
                && stdout.contains("server authentication: Basic first"),
            "{stdout}"
        );
    }
}

/// `-U` (`--update-snapshots`) as mvn spells it: a not-found result cached in `*.lastUpdated` is
/// retried at once instead of after the update interval.
#[test]
fn update_snapshots_retries_a_cached_not_found_result() {
    let s = setup();
    write_settings(&s, PASSWORD);
    let out = m2r(&s, &["org.ex:late:1.0"]);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    // published now; the cached not-found stands until the interval elapsed ...
    s.remote.put(
        "org/ex/late/1.0/late-1.0.jar",
        &Repo::content("late", 2_000),
    );
    let out = m2r(&s, &["org.ex:late:1.0"]);
    let stderr = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("not reattempted") && stderr.contains("updates are forced"),
        "{stderr}"
    );
    // ... unless updates are forced
    for flag in ["-U", "--update-snapshots"] {
        let _ = std::fs::remove_file(s.dir.join("local/org/ex/late/1.0/late-1.0.jar"));
        let out = m2r(&s, &[flag, "org.ex:late:1.0"]);
        assert!(out.status.success(), "{flag}: {}", text(&out.stderr));
        assert!(s.dir.join("local/org/ex/late/1.0/late-1.0.jar").is_file());
    }
}

/// One default repository rule: without `--repo`, `get` and `explain` use Maven's central like
/// the graph commands (here offline, so the answer names central without asking it).
#[test]
fn without_repo_every_command_uses_central() {
    let s = setup();
    std::fs::write(s.dir.join("settings.xml"), "<settings/>").unwrap();
    let out = m2r(&s, &["--offline", "org.ex:lib:1.0"]);
    let stderr = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("central (https://repo.maven.apache.org/maven2)"),
        "{stderr}"
    );
    assert!(!stderr.contains("no repositories"), "{stderr}");
    let out = m2r_cmd(&s, "explain", &[]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("central") && stdout.contains("https://repo.maven.apache.org/maven2"),
        "{stdout}"
    );
    assert!(!stdout.contains("Repositories (0)"), "{stdout}");
}

/// A password that could not be decrypted (settings-security.xml missing) is never sent; the
/// 401 says it could not be decrypted and why, once, on stderr.
#[test]
fn an_undecryptable_password_is_reported_as_such_not_as_rejected() {
    let s = setup();
    write_settings(&s, PASSWORD);
    // the proxy password in clear, the server's encrypted
    let xml = std::fs::read_to_string(s.dir.join("settings.xml")).unwrap();
    let start = xml.find("<proxies>").unwrap();
    let end = xml.find("</proxies>").unwrap();
    let proxy = &xml[start..end];
    let at = proxy.find("<password>").unwrap();
    let clear = format!(
        "{}<password>{PROXY_PASSWORD}</password></proxy>",
        &proxy[..at]
    );
    std::fs::write(
        s.dir.join("settings.xml"),
        format!("{}{clear}{}", &xml[..start], &xml[end..]),
    )
    .unwrap();
    std::fs::remove_file(s.dir.join("settings-security.xml")).unwrap();
    let out = m2r(&s, &["org.ex:lib:1.0"]);
    let stderr = text(&out.stderr);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert!(
        stderr.contains("401")
            && stderr.contains("none were sent")
            && stderr.contains("the password of server `corp` could not be decrypted"),
        "{stderr}"
    );
    assert!(
        s.nginx.count_gets("lib-1.0.jar") > 0,
        "{:?}",
        s.nginx.access_log()
    );
    assert!(!stderr.contains("sent and rejected"), "{stderr}");
    // the command goes on without the password: a warning first, the 401 is the error
    let withheld = stderr
        .lines()
        .find(|l| l.contains("Failed to decrypt password for server corp"))
        .unwrap();
    assert!(withheld.starts_with("warning: "), "{stderr}");
    assert_eq!(
        withheld.matches("settings.xml:5:12").count(),
        1,
        "{withheld}"
    );
    for l in s.nginx.access_log() {
        assert!(l.contains("a=[-]"), "an Authorization header was sent: {l}");
    }
}
