//! Servers that take uploads, for the publishing tests: nginx with `dav_methods PUT;
//! create_full_put_path on;` (open, Basic auth, and fault locations) and Apache httpd with
//! mod_dav and Digest authentication.
//!
//! [`DavNginx`] locations, all over one repository folder (HTTP and HTTPS with HTTP/2):
//! - `/repo/`: PUT and GET, no authentication;
//! - `/private/`: the same with Basic auth `deploy:s3cret`;
//! - `/fail500/`: PUTs of `*-javadoc.jar` answer 500, the rest as `/repo/`;
//! - `/blackhole/`: PUTs answer 200 and store nothing; GETs find nothing (404);
//! - `/limited/`: more than 4 requests a second answer 429 with `Retry-After: 1`;
//! - `/busy/`: more than 4 requests a second answer 503;
//! - `/gateway/`: every request answers 502 (a proxy to a port nobody listens on);
//! - `/put502/`: PUTs answer 502, GETs as `/repo/`;
//! - `/noexpect/`: an `Expect` header is refused with 417.
//!
//! The access log has one line per request: `METHOD URI STATUS expect=<Expect> auth=<scheme> c=<conn>`.

use super::*;

/// The publishing error inside a session's error (a test of a failed install or deployment).
pub fn publish_error(e: m2resolver::SessionError) -> m2resolver::PublishError {
    match e {
        m2resolver::SessionError::Publish { source } => *source,
        other => panic!("not a publishing error: {other}"),
    }
}

/// nginx taking PUTs (see the module documentation).
pub struct DavNginx {
    /// HTTP port.
    pub http_port: u16,
    /// HTTPS port.
    pub https_port: u16,
    /// The trusted CA.
    pub tls: Tls,
    /// The repository folder the locations serve.
    pub root: PathBuf,
    dir: PathBuf,
    proc: Proc,
}

impl DavNginx {
    /// Starts nginx serving `root` (created), config and logs under `work`.
    pub fn start(root: &Path, work: &Path) -> DavNginx {
        Self::start_on(root, work, free_port(), free_port())
    }

    /// [`DavNginx::start`] on given ports (a test that starts the server late).
    pub fn start_on(root: &Path, work: &Path, http_port: u16, https_port: u16) -> DavNginx {
        let bin = require("nginx");
        let dir = work.join("dav-nginx");
        std::fs::create_dir_all(dir.join("empty")).unwrap();
        std::fs::create_dir_all(root).unwrap();
        let tls = Tls::create(&work.join("dav-tls"));
        let sha = {
            use base64::Engine;
            use sha1::Digest;
            base64::engine::general_purpose::STANDARD
                .encode(sha1::Sha1::digest(PASSWORD.as_bytes()))
        };
        std::fs::write(dir.join("htpasswd"), format!("{USER}:{{SHA}}{sha}\n")).unwrap();
        let dead = free_port();
        let d = dir.display();
        let r = root.display();
        let put = "dav_methods PUT; create_full_put_path on; dav_access user:rw group:r all:r;";
        let conf = format!(
            r#"daemon off;
master_process off;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    default_type application/octet-stream;
    log_format t '$request_method $uri $status expect=$http_expect auth=$auth_scheme c=$connection';
    map $http_authorization $auth_scheme {{ default "-"; "~^(?<s>\S+) " $s; }}
    access_log {d}/access.log t;
    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    client_max_body_size 0;
    keepalive_requests 100000;
    limit_req_zone $binary_remote_addr zone=few:1m rate=4r/s;
    server {{
        listen 127.0.0.1:{http_port};
        listen 127.0.0.1:{https_port} ssl http2;
        ssl_certificate {chain};
        ssl_certificate_key {key};
        location /repo/ {{ alias {r}/; {put} }}
        location /private/ {{
            alias {r}/; {put}
            auth_basic "m2r deploy";
            auth_basic_user_file {d}/htpasswd;
        }}
        location /fail500/ {{
            alias {r}/; {put}
            location ~ -javadoc\.jar$ {{ if ($request_method = PUT) {{ return 500; }} }}
        }}
        location /blackhole/ {{
            alias {d}/empty/;
            if ($request_method = PUT) {{ return 200; }}
        }}
        location /limited/ {{
            alias {r}/; {put}
            limit_req zone=few; limit_req_status 429;
            add_header Retry-After 1 always;
        }}
        location /busy/ {{ alias {r}/; {put} limit_req zone=few; limit_req_status 503; }}
        location /gateway/ {{ proxy_pass http://127.0.0.1:{dead}; }}
        location /put502/ {{
            alias {r}/;
            if ($request_method = PUT) {{ return 502; }}
        }}
        location /noexpect/ {{
            alias {r}/; {put}
            if ($http_expect) {{ return 417; }}
        }}
    }}
}}
"#,
            chain = tls.chain.display(),
            key = tls.key.display(),
        );
        std::fs::write(dir.join("nginx.conf"), conf).unwrap();
        let log = dir.join("stderr.log");
        let p = Proc::spawn(
            "nginx",
            Command::new(&bin)
                .arg("-c")
                .arg(dir.join("nginx.conf"))
                .arg("-p")
                .arg(&dir)
                .arg("-e")
                .arg(dir.join("error.log")),
            &log,
        );
        let proc = started(p, http_port, &log);
        if !wait_port(https_port, Duration::from_secs(10)) {
            panic!("nginx https port did not open");
        }
        DavNginx {
            http_port,
            https_port,
            tls,
            root: root.to_path_buf(),
            dir,
            proc,
        }
    }

    /// `http://127.0.0.1:<port>/<location>/`.
    pub fn http(&self, location: &str) -> String {
        format!("http://127.0.0.1:{}/{location}/", self.http_port)
    }

    /// `https://127.0.0.1:<port>/<location>/`.
    pub fn https(&self, location: &str) -> String {
        format!("https://127.0.0.1:{}/{location}/", self.https_port)
    }

    /// Access log lines so far, once the log stops growing.
    pub fn access_log(&self) -> Vec<String> {
        let path = self.dir.join("access.log");
        let mut lines = read_lines(&path);
        for _ in 0..20 {
            std::thread::sleep(Duration::from_millis(100));
            let again = read_lines(&path);
            if again.len() == lines.len() {
                return again;
            }
            lines = again;
        }
        lines
    }

    /// Forgets the access log so far.
    pub fn clear_log(&self) {
        let _ = std::fs::write(self.dir.join("access.log"), "");
    }

    /// Stops nginx.
    pub fn stop(&mut self) {
        self.proc.kill();
    }
}

/// Apache httpd with mod_dav taking PUTs under `/dav/` behind Digest authentication
/// (`deploy:s3cret`, realm `m2r digest`). mod_dav does not create folders: a PUT into a missing
/// one answers 409 (Maven's Wagon, like m2r, sends no `MKCOL`).
pub struct ApacheDav {
    /// Listening port.
    pub port: u16,
    dir: PathBuf,
    proc: Proc,
}

impl Drop for ApacheDav {
    fn drop(&mut self) {
        self.proc.terminate(Duration::from_secs(5));
    }
}

impl ApacheDav {
    /// Starts httpd serving `root` (made writable for its user).
    pub fn start(root: &Path, work: &Path) -> ApacheDav {
        let bin = require("apache2");
        let modules = Path::new("/usr/lib/apache2/modules");
        for m in ["mod_auth_digest.so", "mod_dav.so", "mod_dav_fs.so"] {
            assert!(
                modules.join(m).is_file(),
                "Apache's {m} is missing: run `bash scripts/test-servers.sh`"
            );
        }
        let dir = work.join("apache-dav");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::create_dir_all(root).unwrap();
        use md5::Digest;
        let ha1 = hex::encode(md5::Md5::digest(
            format!("{USER}:m2r digest:{PASSWORD}").as_bytes(),
        ));
        std::fs::write(dir.join("htdigest"), format!("{USER}:m2r digest:{ha1}\n")).unwrap();
        let port = free_port();
        let user = super::user_or_nobody("www-data");
        let (d, r, m) = (dir.display(), root.display(), modules.display());
        let conf = format!(
            r#"ServerRoot "{d}"
Listen 127.0.0.1:{port}
ServerName 127.0.0.1
PidFile "{d}/httpd.pid"
DefaultRuntimeDir "{d}"
Mutex file:{d} default
ErrorLog "{d}/error.log"
LogLevel warn
LoadModule mpm_event_module {m}/mod_mpm_event.so
LoadModule authn_core_module {m}/mod_authn_core.so
LoadModule authn_file_module {m}/mod_authn_file.so
LoadModule authz_core_module {m}/mod_authz_core.so
LoadModule authz_user_module {m}/mod_authz_user.so
LoadModule auth_digest_module {m}/mod_auth_digest.so
LoadModule alias_module {m}/mod_alias.so
LoadModule dav_module {m}/mod_dav.so
LoadModule dav_fs_module {m}/mod_dav_fs.so
User {user}
Group {user}
ServerLimit 1
StartServers 1
ThreadsPerChild 16
MaxRequestWorkers 16
KeepAlive On
MaxKeepAliveRequests 0
DavLockDB "{d}/davlock"
LogFormat "%m %U %>s expect=%{{Expect}}i" t
CustomLog "{d}/access.log" t
Alias /dav/ "{r}/"
<Directory "{r}">
    Dav On
    AuthType Digest
    AuthName "m2r digest"
    AuthDigestDomain /dav/
    AuthDigestProvider file
    AuthUserFile "{d}/htdigest"
    Require valid-user
</Directory>
"#
        );
        std::fs::write(dir.join("httpd.conf"), conf).unwrap();
        super::open_for_others(root);
        super::open_for_others(&dir);
        for p in [root, dir.as_path()] {
            let _ = Command::new("chmod").arg("-R").arg("a+rwX").arg(p).status();
        }
        let log = dir.join("stderr.log");
        let p = Proc::spawn(
            "apache2",
            Command::new(bin)
                .arg("-f")
                .arg(dir.join("httpd.conf"))
                .arg("-DFOREGROUND"),
            &log,
        );
        ApacheDav {
            port,
            proc: started(p, port, &log),
            dir,
        }
    }

    /// `http://127.0.0.1:<port>/dav/`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/dav/", self.port)
    }

    /// Access log lines (`PUT /dav/... 401 expect=100-continue`).
    pub fn access_log(&self) -> Vec<String> {
        std::thread::sleep(Duration::from_millis(200));
        read_lines(&self.dir.join("access.log"))
    }
}

/// Every file under `root`, as sorted relative paths with `/`.
pub fn tree(root: &Path) -> Vec<String> {
    let mut out: Vec<String> = hostile::all_files(root)
        .into_iter()
        .filter(|p| p.is_file())
        .filter_map(|p| {
            p.strip_prefix(root)
                .ok()
                .map(|r| r.to_string_lossy().replace('\\', "/"))
        })
        .collect();
    out.sort();
    out
}
