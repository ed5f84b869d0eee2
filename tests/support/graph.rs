//! A small dependency graph served the way a company serves it: nginx over HTTPS with basic
//! auth (`/private/`, mirrored by `corp` for everything but `extra`), reached through an
//! authenticating squid; one POM declares an extra repository (`/public/extra/`, reached
//! directly). Used by the library's session tests and by `m2r resolve`/`tree`'s.
//!
//! `org.ex:a:1` → `b:1` (→ `c:1`, `t:1` test), `c:2` runtime (nearer, wins), `org.extra:e:1`
//! (from a's extra repository) → `f:1`; `org.ex:nojar:1` has a POM and no jar. Every jar holds
//! `Repo::content(coord, 3000)`.

use super::*;

/// The servers, the case directory (holding `settings.xml`) and the settings text.
pub struct Graph {
    _tmp: tempfile::TempDir,
    /// The case directory: `settings.xml` is there.
    pub dir: PathBuf,
    /// The repository server.
    pub nginx: Nginx,
    _squid: Squid,
    /// The settings: mirror `corp` (`*,!extra`), its credentials, the proxy's.
    pub settings: String,
}

impl Graph {
    /// `bin` (the m2r binary) with `args`, run in the case directory with its settings and the
    /// local repository `local`, the server's CA trusted and nothing else from the environment
    /// but `PATH`.
    pub fn m2r_command(&self, bin: &str, local: &str, args: &[&str]) -> Command {
        let mut cmd = Command::new(bin);
        cmd.args(args)
            .args(["--settings", "settings.xml", "--local-repository", local])
            .args(["-Duser.home=home", "--no-env-proxy"])
            .current_dir(&self.dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("SSL_CERT_FILE", &self.nginx.tls.ca_pem);
        cmd
    }
}

fn pom(g: &str, a: &str, v: &str, deps: &[(&str, &str)], extra: &str) -> Vec<u8> {
    let mut x = format!(
        "<project><modelVersion>4.0.0</modelVersion><groupId>{g}</groupId><artifactId>{a}</artifactId><version>{v}</version>{extra}<dependencies>"
    );
    for (coord, scope) in deps {
        let p: Vec<&str> = coord.split(':').collect();
        x.push_str(&format!(
            "<dependency><groupId>{}</groupId><artifactId>{}</artifactId><version>{}</version><scope>{scope}</scope></dependency>",
            p[0], p[1], p[2]
        ));
    }
    x.push_str("</dependencies></project>");
    x.into_bytes()
}

/// `g.g/a/v/a-v.ext` of `g.g:a:v`.
pub fn path_of(coord: &str, ext: &str) -> String {
    let p: Vec<&str> = coord.split(':').collect();
    format!(
        "{}/{}/{}/{}-{}.{ext}",
        p[0].replace('.', "/"),
        p[1],
        p[2],
        p[1],
        p[2]
    )
}

fn put(repo: &Repo, coord: &str, deps: &[(&str, &str)], extra: &str, jar: bool) {
    let p: Vec<&str> = coord.split(':').collect();
    repo.put(&path_of(coord, "pom"), &pom(p[0], p[1], p[2], deps, extra));
    if jar {
        repo.put(&path_of(coord, "jar"), &Repo::content(coord, 3000));
    }
}

/// Starts the servers and writes the repositories and `settings.xml`.
pub fn graph() -> Graph {
    let tmp = tempfile::tempdir().unwrap();
    let remote = Repo::new(&tmp.path().join("remote"));
    let work = tmp.path().join("work");
    let nginx = Nginx::start(&remote.root, &work);
    let squid = Squid::start(&work, &[nginx.https_port]);
    let extra = Repo::new(&remote.root.join("extra"));
    let extra_repo = format!(
        "<repositories><repository><id>extra</id><url>{}extra/</url></repository></repositories>",
        nginx.https("public")
    );
    put(
        &remote,
        "org.ex:a:1",
        &[
            ("org.ex:b:1", "compile"),
            ("org.ex:c:2", "runtime"),
            ("org.extra:e:1", "compile"),
        ],
        &extra_repo,
        true,
    );
    put(
        &remote,
        "org.ex:b:1",
        &[("org.ex:c:1", "compile"), ("org.ex:t:1", "test")],
        "",
        true,
    );
    for c in ["org.ex:c:1", "org.ex:c:2", "org.ex:t:1"] {
        put(&remote, c, &[], "", true);
    }
    put(&remote, "org.ex:nojar:1", &[], "", false);
    put(
        &extra,
        "org.extra:e:1",
        &[("org.extra:f:1", "compile")],
        "",
        true,
    );
    put(&extra, "org.extra:f:1", &[], "", true);
    let dir = tmp.path().join("case");
    std::fs::create_dir_all(&dir).unwrap();
    let settings = format!(
        r#"<settings>
  <mirrors><mirror><id>corp</id><mirrorOf>*,!extra</mirrorOf><url>{url}</url></mirror></mirrors>
  <proxies><proxy><id>corp-proxy</id><protocol>http</protocol><host>127.0.0.1</host><port>{port}</port>
    <username>{PROXY_USER}</username><password>{PROXY_PASSWORD}</password></proxy></proxies>
  <servers><server><id>corp</id><username>{USER}</username><password>{PASSWORD}</password></server></servers>
</settings>"#,
        url = nginx.https("private"),
        port = squid.port,
    );
    std::fs::write(dir.join("settings.xml"), &settings).unwrap();
    Graph {
        _tmp: tmp,
        dir,
        nginx,
        _squid: squid,
        settings,
    }
}
