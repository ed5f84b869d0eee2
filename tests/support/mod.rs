//! Test harness for the download integration tests: real servers on loopback, each in its own
//! temporary directory with free ports, killed when dropped.
//!
//! - [`Nginx`]: HTTP and HTTPS (self-signed CA made with openssl at test time) serving a
//!   generated Maven repository: `/public/` open, `/private/` basic auth `deploy:s3cret`,
//!   `/empty/` an empty repository (404s), `/slow/` rate-limited, `/bearer/` only with
//!   `Authorization: Bearer t0ken-xyz`; `/private/` also takes [`QUOTED_USER`].
//! - [`Tinyproxy`]: authenticating HTTP proxy (`proxyuser:proxypass`) with CONNECT.
//! - [`Squid`]: HTTP proxy with Basic, Digest or NTLM authentication ([`SquidAuth`]), on the
//!   address asked for, with an access log to count its `407`s.
//! - [`Apache`]: httpd answering `WWW-Authenticate: Digest` (mod_auth_digest) for `/digest/`.
//! - [`Microsocks`]: authenticating SOCKS5 proxy (`socksuser:sockspass`).
//! - [`Repo`]: writes artifacts with `.sha1`/`.md5` sidecars and metadata.
//! - [`publish`]: servers that take uploads (nginx with PUT and fault locations, Apache mod_dav
//!   with Digest).
//!
//! A missing server binary fails the test with a message to run `scripts/test-servers.sh`.
#![allow(dead_code)]

pub mod downloads;
pub mod process;
pub mod progress;
pub mod shared;

use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The basic-auth user of `/private/`.
pub const USER: &str = "deploy";
/// Its password.
pub const PASSWORD: &str = "s3cret";
/// A second user of `/private/`, whose password needs quoting in a `.netrc`.
pub const QUOTED_USER: &str = "ci bot";
/// Its password: a blank, a `#` and a `"`.
pub const QUOTED_PASSWORD: &str = "p w#\"1";
/// The bearer token `/bearer/` wants (`Authorization: Bearer …`).
pub const BEARER_TOKEN: &str = "t0ken-xyz";
/// Proxy credentials.
pub const PROXY_USER: &str = "proxyuser";
/// Proxy password.
pub const PROXY_PASSWORD: &str = "proxypass";
/// SOCKS credentials.
pub const SOCKS_USER: &str = "socksuser";
/// SOCKS password.
pub const SOCKS_PASSWORD: &str = "sockspass";

/// Finds a server binary or fails the test with what to do.
pub fn require(bin: &str) -> PathBuf {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.extend(
        [
            "/usr/sbin",
            "/usr/bin",
            "/sbin",
            "/usr/local/sbin",
            "/usr/local/bin",
        ]
        .map(PathBuf::from),
    );
    for d in dirs {
        let p = d.join(bin);
        if p.is_file() {
            return p;
        }
    }
    panic!(
        "`{bin}` is not installed: the download integration tests need real servers; \
         run `bash scripts/test-servers.sh` (installs nginx, tinyproxy, squid, microsocks, openssl) and retry"
    );
}

/// A free TCP port on 127.0.0.1, not handed out before by this test process.
pub fn free_port() -> u16 {
    // The kernel may hand the port just released to the next bind: two calls in a row (a
    // server's HTTP and HTTPS ports) could get the same one. A port is handed out once per
    // test process.
    static GIVEN: std::sync::Mutex<Vec<u16>> = std::sync::Mutex::new(Vec::new());
    let mut given = GIVEN.lock().unwrap_or_else(|e| e.into_inner());
    for _ in 0..1000 {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("no free port");
        if !given.contains(&port) {
            given.push(port);
            return port;
        }
    }
    panic!("no free port not handed out before in 1000 tries");
}

/// Waits (bounded) until something accepts on the port.
pub fn wait_port(port: u16, timeout: Duration) -> bool {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// The lines of a log file (none when it does not exist yet).
fn read_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// A server process, killed on drop.
pub struct Proc {
    child: Option<Child>,
    name: &'static str,
}

impl Proc {
    fn spawn(name: &'static str, cmd: &mut Command, log: &Path) -> Proc {
        let out = std::fs::File::create(log).expect("log file");
        let err = out.try_clone().expect("log file");
        let child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::from(out))
            .stderr(Stdio::from(err))
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        Proc {
            child: Some(child),
            name,
        }
    }

    /// Kills the process (SIGKILL) and reaps it.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Asks the process to stop (SIGTERM: servers with worker processes, such as Apache, stop
    /// them too), waits up to `grace`, then kills it.
    pub fn terminate(&mut self, grace: Duration) {
        if let Some(c) = self.child.as_mut() {
            let _ = Command::new("kill")
                .arg("-TERM")
                .arg(c.id().to_string())
                .status();
            let deadline = Instant::now() + grace;
            while Instant::now() < deadline {
                if matches!(c.try_wait(), Ok(Some(_))) {
                    self.child = None;
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        self.kill();
    }

    /// Whether it is still running.
    pub fn alive(&mut self) -> bool {
        match self.child.as_mut() {
            Some(c) => matches!(c.try_wait(), Ok(None)),
            None => false,
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill();
    }
}

fn started(p: Proc, port: u16, log: &Path) -> Proc {
    started_at(p, ([127, 0, 0, 1], port).into(), log)
}

fn started_at(mut p: Proc, addr: std::net::SocketAddr, log: &Path) -> Proc {
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut up = false;
    while Instant::now() < deadline && !up {
        up = TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok();
        if !up {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    if !up || !p.alive() {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        // squid says why in its cache.log, beside the stderr log
        let cache_log = log
            .parent()
            .map(|d| std::fs::read_to_string(d.join("cache.log")).unwrap_or_default())
            .unwrap_or_default();
        let alive = p.alive();
        panic!(
            "{} did not start on {addr} (process alive: {alive}):\n{text}\n{cache_log}",
            p.name
        );
    }
    p
}

/// A CA and a server certificate for 127.0.0.1 / localhost.
pub struct Tls {
    /// CA certificate (trust this).
    pub ca_pem: PathBuf,
    /// Server certificate chain.
    pub chain: PathBuf,
    /// Server key.
    pub key: PathBuf,
}

impl Tls {
    /// Makes the CA and server certificate in `dir` with openssl.
    pub fn create(dir: &Path) -> Tls {
        let openssl = require("openssl");
        std::fs::create_dir_all(dir).unwrap();
        let run = |args: &[&str]| {
            let out = Command::new(&openssl)
                .args(args)
                .current_dir(dir)
                .output()
                .expect("openssl");
            assert!(
                out.status.success(),
                "openssl {args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        run(&[
            "req",
            "-x509",
            "-new",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-days",
            "30",
            "-subj",
            "/CN=m2r test CA",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
        ]);
        run(&[
            "req",
            "-new",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-subj",
            "/CN=127.0.0.1",
            "-keyout",
            "server.key",
            "-out",
            "server.csr",
        ]);
        std::fs::write(
            dir.join("server.ext"),
            "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=critical,CA:FALSE\n\
             keyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n",
        )
        .unwrap();
        run(&[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "30",
            "-extfile",
            "server.ext",
            "-out",
            "server.pem",
        ]);
        let mut chain = std::fs::read(dir.join("server.pem")).unwrap();
        chain.extend(std::fs::read(dir.join("ca.pem")).unwrap());
        std::fs::write(dir.join("chain.pem"), chain).unwrap();
        Tls {
            ca_pem: dir.join("ca.pem"),
            chain: dir.join("chain.pem"),
            key: dir.join("server.key"),
        }
    }
}

/// nginx serving a repository directory over HTTP and HTTPS.
pub struct Nginx {
    /// HTTP port.
    pub http_port: u16,
    /// HTTPS port.
    pub https_port: u16,
    /// The trusted CA.
    pub tls: Tls,
    dir: PathBuf,
    proc: Proc,
}

impl Nginx {
    /// Starts nginx for `repo_dir`, with its config and logs under `work`.
    pub fn start(repo_dir: &Path, work: &Path) -> Nginx {
        let bin = require("nginx");
        let dir = work.join("nginx");
        std::fs::create_dir_all(dir.join("empty")).unwrap();
        let tls = Tls::create(&work.join("tls"));
        let (http_port, https_port) = (free_port(), free_port());
        // {SHA} = base64(sha1(password))
        let sha = |password: &str| {
            use base64::Engine;
            use sha1::Digest;
            base64::engine::general_purpose::STANDARD
                .encode(sha1::Sha1::digest(password.as_bytes()))
        };
        std::fs::write(
            dir.join("htpasswd"),
            format!(
                "{USER}:{{SHA}}{}\n{QUOTED_USER}:{{SHA}}{}\n",
                sha(PASSWORD),
                sha(QUOTED_PASSWORD)
            ),
        )
        .unwrap();
        let d = dir.display();
        let r = repo_dir.display();
        let conf = format!(
            r#"daemon off;
master_process off;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 512; }}
http {{
    default_type application/octet-stream;
    log_format t '$request $status $body_bytes_sent a=[$http_authorization] c=$connection';
    access_log {d}/access.log t;
    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    sendfile on;
    keepalive_requests 100000;
    server {{
        listen 127.0.0.1:{http_port};
        listen 127.0.0.1:{https_port} ssl http2;
        ssl_certificate {chain};
        ssl_certificate_key {key};
        location /public/ {{ alias {r}/; }}
        location /private/ {{
            alias {r}/;
            auth_basic "test private";
            auth_basic_user_file {d}/htpasswd;
        }}
        location /empty/ {{ alias {d}/empty/; }}
        location /slow/ {{ alias {r}/; limit_rate 200k; }}
        location /xsum/ {{ alias {r}/; add_header X-Checksum-Sha1 0123456789012345678901234567890123456789; }}
        location /gz/ {{ alias {r}/; add_header Content-Encoding gzip; }}
        location /bearer/ {{
            alias {r}/;
            if ($http_authorization != "Bearer {BEARER_TOKEN}") {{ return 401; }}
        }}
        location /hdr/ {{
            alias {r}/;
            if ($http_x_repo_token != "t0ken") {{ return 403; }}
        }}
        location /redirect/ {{ rewrite ^/redirect/(.*)$ /public/$1 redirect; }}
        location /moved/ {{ rewrite ^/moved/(.*)$ http://localhost:{http_port}/private/$1 redirect; }}
    }}
}}
"#,
            chain = tls.chain.display(),
            key = tls.key.display(),
        );
        std::fs::write(dir.join("nginx.conf"), conf).unwrap();
        let proc = Self::spawn(&bin, &dir, http_port);
        if !wait_port(https_port, Duration::from_secs(10)) {
            panic!("nginx https port did not open");
        }
        Nginx {
            http_port,
            https_port,
            tls,
            dir,
            proc,
        }
    }

    fn spawn(bin: &Path, dir: &Path, port: u16) -> Proc {
        let log = dir.join("stderr.log");
        let p = Proc::spawn(
            "nginx",
            Command::new(bin)
                .arg("-c")
                .arg(dir.join("nginx.conf"))
                .arg("-p")
                .arg(dir)
                .arg("-e")
                .arg(dir.join("error.log")),
            &log,
        );
        started(p, port, &log)
    }

    /// `http://127.0.0.1:<port>/<location>/`.
    pub fn http(&self, location: &str) -> String {
        format!("http://127.0.0.1:{}/{location}/", self.http_port)
    }

    /// `https://127.0.0.1:<port>/<location>/`.
    pub fn https(&self, location: &str) -> String {
        format!("https://127.0.0.1:{}/{location}/", self.https_port)
    }

    /// Kills nginx (SIGKILL: connections are cut mid-transfer).
    pub fn kill(&mut self) {
        self.proc.kill();
    }

    /// Starts it again on the same ports.
    pub fn restart(&mut self) {
        self.proc.kill();
        let bin = require("nginx");
        self.proc = Self::spawn(&bin, &self.dir, self.http_port);
    }

    /// Access log lines so far (`GET /path HTTP/1.1 200 123`). nginx writes a request's line after
    /// the response went out, so a client can be done before the line is there: this reads until
    /// the log stops growing (100 ms apart, 2 s at most).
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

    /// Distinct connection serial numbers in the access log.
    pub fn connections(&self) -> usize {
        let set: std::collections::HashSet<String> = self
            .access_log()
            .iter()
            .filter_map(|l| l.rsplit(' ').next().map(str::to_string))
            .collect();
        set.len()
    }

    /// How many GETs of paths ending with `suffix` were logged.
    pub fn count_gets(&self, suffix: &str) -> usize {
        self.access_log()
            .iter()
            .filter(|l| {
                l.split(' ')
                    .nth(1)
                    .is_some_and(|p| l.starts_with("GET ") && p.ends_with(suffix))
            })
            .count()
    }
}

/// tinyproxy with basic auth and CONNECT to the given ports.
pub struct Tinyproxy {
    /// Listening port.
    pub port: u16,
    proc: Proc,
}

impl Tinyproxy {
    /// Starts tinyproxy allowing CONNECT to `connect_ports`.
    pub fn start(work: &Path, connect_ports: &[u16]) -> Tinyproxy {
        let bin = require("tinyproxy");
        let dir = work.join("tinyproxy");
        std::fs::create_dir_all(&dir).unwrap();
        let port = free_port();
        let mut conf = format!(
            "Port {port}\nListen 127.0.0.1\nTimeout 60\nLogFile \"{d}/tinyproxy.log\"\nLogLevel Info\n\
             MaxClients 64\nAllow 127.0.0.1\nBasicAuth {PROXY_USER} {PROXY_PASSWORD}\nDisableViaHeader Yes\n",
            d = dir.display()
        );
        for p in connect_ports {
            conf.push_str(&format!("ConnectPort {p}\n"));
        }
        std::fs::write(dir.join("tinyproxy.conf"), conf).unwrap();
        let log = dir.join("stderr.log");
        let p = Proc::spawn(
            "tinyproxy",
            Command::new(bin)
                .arg("-d")
                .arg("-c")
                .arg(dir.join("tinyproxy.conf")),
            &log,
        );
        Tinyproxy {
            port,
            proc: started(p, port, &log),
        }
    }
}

/// How a [`Squid`] authenticates its clients (all with `proxyuser:proxypass`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SquidAuth {
    /// `basic_ncsa_auth`.
    Basic,
    /// `digest_file_auth`, realm `test-digest` (Digest only).
    Digest,
    /// `ntlm_fake_auth`: the whole NTLM negotiate/challenge/authenticate handshake on one
    /// connection (it accepts any user).
    Ntlm,
}

/// squid with authentication, no caching, CONNECT to the given ports, an access log.
pub struct Squid {
    /// Listening port.
    pub port: u16,
    dir: PathBuf,
    proc: Proc,
    /// `-n`: the prefix of its shared-memory segments in /dev/shm.
    service: String,
}

impl Drop for Squid {
    fn drop(&mut self) {
        self.proc.kill();
        // killed, squid leaves its segments behind
        for kind in ["metadata", "queues", "readers"] {
            let _ = std::fs::remove_file(format!("/dev/shm/{}-cf__{kind}.shm", self.service));
        }
    }
}

fn squid_helper(name: &str) -> PathBuf {
    ["/usr/lib/squid", "/usr/lib64/squid"]
        .into_iter()
        .map(|d| Path::new(d).join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!("squid's {name} helper is missing: run `bash scripts/test-servers.sh`")
        })
}

impl Squid {
    /// Starts squid with Basic authentication on 127.0.0.1 in the foreground (`-N`).
    pub fn start(work: &Path, connect_ports: &[u16]) -> Squid {
        Squid::start_with(
            work,
            connect_ports,
            SquidAuth::Basic,
            "127.0.0.1".parse().unwrap(),
        )
    }

    /// Starts squid with `auth`, listening only on `listen`.
    pub fn start_with(
        work: &Path,
        connect_ports: &[u16],
        auth: SquidAuth,
        listen: std::net::IpAddr,
    ) -> Squid {
        let bin = require("squid");
        let dir = work.join(format!("squid-{auth:?}-{listen}").replace(':', "_"));
        std::fs::create_dir_all(&dir).unwrap();
        let d = dir.display();
        let auth_conf = match auth {
            SquidAuth::Basic => {
                let openssl = require("openssl");
                let hash = Command::new(openssl)
                    .args(["passwd", "-apr1", PROXY_PASSWORD])
                    .output()
                    .expect("openssl passwd");
                let hash = String::from_utf8_lossy(&hash.stdout).trim().to_string();
                std::fs::write(dir.join("passwd"), format!("{PROXY_USER}:{hash}\n")).unwrap();
                format!(
                    "auth_param basic program {} {d}/passwd\nauth_param basic children 2 startup=1\n\
                     auth_param basic realm test-squid\n",
                    squid_helper("basic_ncsa_auth").display()
                )
            }
            SquidAuth::Digest => {
                std::fs::write(dir.join("passwd"), format!("{PROXY_USER}:{PROXY_PASSWORD}\n"))
                    .unwrap();
                format!(
                    "auth_param digest program {} {d}/passwd\nauth_param digest children 2 startup=1\n\
                     auth_param digest realm test-digest\nauth_param digest nonce_max_count 100000\n",
                    squid_helper("digest_file_auth").display()
                )
            }
            SquidAuth::Ntlm => format!(
                "auth_param ntlm program {}\nauth_param ntlm children 2 startup=1\nauth_param ntlm keep_alive on\n",
                squid_helper("ntlm_fake_auth").display()
            ),
        };
        let port = free_port();
        let user = user_or_nobody("proxy");
        let ports: Vec<String> = connect_ports.iter().map(u16::to_string).collect();
        let addr = std::net::SocketAddr::new(listen, port);
        let conf = format!(
            "http_port {addr}\nvisible_hostname test-squid\ncache_effective_user {user}\n\
             pid_filename {d}/squid.pid\ncache_log {d}/cache.log\naccess_log {d}/access.log squid\ncoredump_dir {d}\n\
             cache deny all\ncache_mem 8 MB\npinger_enable off\nnetdb_filename none\n\
             shutdown_lifetime 1 second\nmax_filedescriptors 1024\nvia off\nforwarded_for delete\n\
             {auth_conf}acl authed proxy_auth REQUIRED\n\
             acl tls_ports port {ports}\nacl CONNECT method CONNECT\n\
             http_access deny CONNECT !tls_ports\nhttp_access allow localhost authed\nhttp_access deny all\n",
            ports = ports.join(" "),
        );
        std::fs::write(dir.join("squid.conf"), conf).unwrap();
        let _ = Command::new("chown").arg("-R").arg(user).arg(&dir).status();
        let log = dir.join("stderr.log");
        let service = format!("m2rtest{}p{port}", std::process::id());
        let p = Proc::spawn(
            "squid",
            Command::new(bin)
                .arg("-N")
                // the service name prefixes squid's shared-memory segments: two squids starting
                // at once under the same name fail with `shm_open(/squid-cf__metadata.shm): File exists`
                .arg("-n")
                .arg(&service)
                .arg("-f")
                .arg(dir.join("squid.conf")),
            &log,
        );
        Squid {
            port,
            proc: started_at(p, addr, &log),
            dir,
            service,
        }
    }

    /// Access log lines so far (squid's native format: `... TCP_DENIED/407 ... CONNECT host:port ...`).
    pub fn access_log(&self) -> Vec<String> {
        read_lines(&self.dir.join("access.log"))
    }

    /// How many logged requests were answered with `status` (squid writes the log as it goes;
    /// this waits briefly for it).
    pub fn count_status(&self, status: u16) -> usize {
        std::thread::sleep(Duration::from_millis(200));
        let needle = format!("/{status} ");
        self.access_log()
            .iter()
            .filter(|l| l.contains(&needle))
            .count()
    }
}

/// Apache httpd answering `WWW-Authenticate: Digest` (mod_auth_digest) for `/digest/`
/// (user `deploy:s3cret`, realm `m2r digest`), serving a repository directory.
pub struct Apache {
    /// Listening port (127.0.0.1).
    pub port: u16,
    dir: PathBuf,
    proc: Proc,
}

/// `name` when that system user exists (servers drop root privileges to it), else `nobody`.
fn user_or_nobody(name: &'static str) -> &'static str {
    let exists = Command::new("id")
        .arg("-u")
        .arg(name)
        .output()
        .is_ok_and(|o| o.status.success());
    if exists {
        name
    } else {
        "nobody"
    }
}

/// Lets other users (Apache's `User`) traverse the temporary folders down to `path`.
fn open_for_others(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let tmp = std::env::temp_dir();
    let mut cur = Some(path);
    while let Some(p) = cur {
        if !p.starts_with(&tmp) || p == tmp {
            break;
        }
        if let Ok(m) = std::fs::metadata(p) {
            let mut perm = m.permissions();
            perm.set_mode(perm.mode() | 0o055);
            let _ = std::fs::set_permissions(p, perm);
        }
        cur = p.parent();
    }
}

impl Drop for Apache {
    fn drop(&mut self) {
        // SIGKILL would leave the worker processes running
        self.proc.terminate(Duration::from_secs(5));
    }
}

impl Apache {
    /// Starts httpd in the foreground with its own configuration under `work`.
    pub fn start(repo_dir: &Path, work: &Path) -> Apache {
        let bin = require("apache2");
        let modules = Path::new("/usr/lib/apache2/modules");
        assert!(
            modules.join("mod_auth_digest.so").is_file(),
            "Apache's mod_auth_digest is missing: run `bash scripts/test-servers.sh`"
        );
        let dir = work.join("apache");
        std::fs::create_dir_all(&dir).unwrap();
        use md5::Digest;
        let ha1 = hex::encode(md5::Md5::digest(
            format!("{USER}:m2r digest:{PASSWORD}").as_bytes(),
        ));
        std::fs::write(dir.join("htdigest"), format!("{USER}:m2r digest:{ha1}\n")).unwrap();
        let port = free_port();
        let user = user_or_nobody("www-data");
        let d = dir.display();
        let r = repo_dir.display();
        let m = modules.display();
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
User {user}
Group {user}
ServerLimit 1
StartServers 1
ThreadsPerChild 16
MaxRequestWorkers 16
KeepAlive On
MaxKeepAliveRequests 0
LogFormat "%r %>s %b" t
CustomLog "{d}/access.log" t
Alias /digest/ "{r}/"
<Directory "{r}">
    AuthType Digest
    AuthName "m2r digest"
    AuthDigestDomain /digest/
    AuthDigestProvider file
    AuthUserFile "{d}/htdigest"
    Require valid-user
</Directory>
"#
        );
        std::fs::write(dir.join("httpd.conf"), conf).unwrap();
        open_for_others(repo_dir);
        open_for_others(&dir);
        let _ = Command::new("chmod")
            .arg("-R")
            .arg("o+rX")
            .arg(repo_dir)
            .status();
        let _ = Command::new("chmod")
            .arg("-R")
            .arg("o+rX")
            .arg(&dir)
            .status();
        let log = dir.join("stderr.log");
        let p = Proc::spawn(
            "apache2",
            Command::new(bin)
                .arg("-f")
                .arg(dir.join("httpd.conf"))
                .arg("-DFOREGROUND"),
            &log,
        );
        Apache {
            port,
            proc: started(p, port, &log),
            dir,
        }
    }

    /// `http://127.0.0.1:<port>/digest/`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/digest/", self.port)
    }

    /// How many logged requests were answered with `status`.
    pub fn count_status(&self, status: u16) -> usize {
        std::thread::sleep(Duration::from_millis(200));
        let suffix = format!(" {status} ");
        read_lines(&self.dir.join("access.log"))
            .iter()
            .filter(|l| l.contains(&suffix))
            .count()
    }
}

/// microsocks with user/password authentication.
pub struct Microsocks {
    /// Listening port.
    pub port: u16,
    proc: Proc,
}

impl Microsocks {
    /// Starts microsocks.
    pub fn start(work: &Path) -> Microsocks {
        let bin = require("microsocks");
        let dir = work.join("microsocks");
        std::fs::create_dir_all(&dir).unwrap();
        let port = free_port();
        let log = dir.join("stderr.log");
        let p = Proc::spawn(
            "microsocks",
            Command::new(bin).args([
                "-i",
                "127.0.0.1",
                "-p",
                &port.to_string(),
                "-u",
                SOCKS_USER,
                "-P",
                SOCKS_PASSWORD,
            ]),
            &log,
        );
        Microsocks {
            port,
            proc: started(p, port, &log),
        }
    }
}

/// Writes a Maven 2 repository.
pub struct Repo {
    /// Its root.
    pub root: PathBuf,
}

impl Repo {
    /// An empty repository at `root`.
    pub fn new(root: &Path) -> Repo {
        std::fs::create_dir_all(root).unwrap();
        Repo {
            root: root.to_path_buf(),
        }
    }

    /// Writes `rel` with `.sha1` and `.md5` sidecars.
    pub fn put(&self, rel: &str, content: &[u8]) {
        let p = self.root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, content).unwrap();
        use sha1::Digest;
        std::fs::write(
            format!("{}.sha1", p.display()),
            hex::encode(sha1::Sha1::digest(content)),
        )
        .unwrap();
        std::fs::write(
            format!("{}.md5", p.display()),
            hex::encode(md5::Md5::digest(content)),
        )
        .unwrap();
    }

    /// Writes `rel` only.
    pub fn put_raw(&self, rel: &str, content: &[u8]) {
        let p = self.root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let mut f = std::fs::File::create(p).unwrap();
        f.write_all(content).unwrap();
    }

    /// Deterministic content for an artifact.
    pub fn content(seed: &str, len: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(len);
        let mut x: u64 = seed.bytes().fold(1469598103934665603, |h, b| {
            (h ^ b as u64).wrapping_mul(1099511628211)
        });
        while out.len() < len {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.truncate(len);
        out
    }
}

/// Files under `dir` whose name ends with `.tmp` (left-over partial downloads).
pub fn temp_files(dir: &Path) -> Vec<PathBuf> {
    hostile::all_files(dir)
        .into_iter()
        .filter(|p| !p.is_dir() && p.to_string_lossy().ends_with(".tmp"))
        .collect()
}

pub mod graph;
pub mod hostile;
pub mod publish;

/// An error with its causes on one line (what the CLI prints): each message once.
pub trait Chain {
    /// `what: cause: cause`.
    fn message_chain(&self) -> String;
}

impl<E: std::error::Error + ?Sized> Chain for E {
    fn message_chain(&self) -> String {
        m2resolver::printable::error_chain(self)
    }
}
