//! Quickstart: what a build tool embedding m2resolver does, end to end, on bundled data.
//!
//! 1. Starts a small HTTP server on 127.0.0.1 over the Maven repository in
//!    `testdata/quickstart/maven2`, requiring basic authentication (`demo` / `demo-pass`).
//! 2. Reads `testdata/quickstart/settings.xml`: a mirror of every repository pointing at that
//!    server (its port comes in as the `${quickstart.port}` property), and the mirror's
//!    credentials with a password encrypted by real Maven (master in `settings-security.xml`).
//! 3. Resolves a release, a classifier, a POM and a SNAPSHOT (through `maven-metadata.xml`) into
//!    `target/quickstart-repository/`, verifying checksums, and prints where they landed.
//! 4. Resolves the dependency graph of the SNAPSHOT (its POM depends on `greeting`, and on
//!    `util` at runtime) as Maven does, and prints the tree and the runtime class path.
//!
//! Everything comes from the bundled files over loopback: no network is needed.
//!
//! Run it with `cargo run --example quickstart`.

use m2resolver::resolution::collect::view;
use m2resolver::{Artifact, ClasspathScope, RemoteRepository, Root, Session};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

const USER: &str = "demo";
const PASSWORD: &str = "demo-pass";

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("quickstart: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<bool, Box<dyn std::error::Error>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/quickstart");
    let port = serve(root.join("maven2"))?;
    println!("Serving testdata/quickstart/maven2 on http://127.0.0.1:{port}/maven2 (basic auth {USER}/***)\n");

    // Settings -> repositories, exactly as Maven would inject them.
    let local = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/quickstart-repository");
    let _ = std::fs::remove_dir_all(&local);
    let session = Session::builder()
        .user_settings(root.join("settings.xml"))
        .security_file(root.join("settings-security.xml"))
        .define(&format!("quickstart.port={port}"))
        .local_repository(&local)
        .build()?;
    let answer = session.repositories(&[RemoteRepository::central()]);
    for p in answer.problems {
        eprintln!("{p}");
    }
    println!("Repositories after mirrors, proxies and credentials:");
    for r in &answer.repositories {
        let mirrored: Vec<&str> = r
            .mirrored_repositories
            .iter()
            .map(|m| m.id.as_str())
            .collect();
        let user = r
            .authentication
            .as_ref()
            .and_then(|a| a.username.as_deref());
        println!(
            "  {} {} mirrors [{}], user {}, password *** (decrypted from settings.xml)",
            r.id,
            r.url,
            mirrored.join(", "),
            user.unwrap_or("none")
        );
    }

    // Repositories -> artifacts in the local repository, checksums verified.
    let coords = [
        "com.example:greeting:1.0",
        "com.example:greeting:pom:1.0",
        "com.example:util:jar:sources:2.1",
        "com.example:app:1.1-SNAPSHOT",
    ];
    let coords = coords
        .iter()
        .map(|c| Artifact::parse(c))
        .collect::<Result<Vec<_>, _>>()?;
    let files = session.blocking_download(&coords, &answer.repositories)?;
    println!("\nResolved into {}:", local.display());
    let mut ok = true;
    for (coord, result) in coords.iter().zip(files) {
        match result {
            Ok(a) => println!("  {coord} -> {}", a.path.display()),
            Err(e) => {
                ok = false;
                println!("  {coord} FAILED: {e}");
            }
        }
    }

    // Dependencies -> the graph Maven resolves -> the class path, every jar downloaded.
    let app = Artifact::parse("com.example:app:1.1-SNAPSHOT")?;
    let resolved = session.blocking_resolve(
        &Root::compile([app]),
        &answer.repositories,
        Some(ClasspathScope::Runtime),
    )?;
    println!("\nDependency tree (as mvn dependency:tree prints it):");
    print!(
        "{}",
        view::render_maven_tree(&resolved.collect, &view::TreeOptions::plain())
    );
    let classpath: Vec<String> = resolved
        .classpath(ClasspathScope::Runtime)
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    println!("\nRuntime class path:\n  {}", classpath.join(":"));
    Ok(ok)
}

/// Starts the repository server on a free loopback port; returns the port.
fn serve(root: PathBuf) -> std::io::Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let port = listener.local_addr()?.port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let root = root.clone();
            std::thread::spawn(move || {
                let _ = handle(stream, &root);
            });
        }
    });
    Ok(port)
}

/// HTTP/1.1 with keep-alive: GET and HEAD of files under `/maven2/`, basic auth required.
fn handle(stream: TcpStream, root: &Path) -> std::io::Result<()> {
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    let expected_auth = format!(
        "Basic {}",
        base64_encode(format!("{USER}:{PASSWORD}").as_bytes())
    );
    for _ in 0..10_000 {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line)? == 0 {
            return Ok(());
        }
        let mut authorized = false;
        let mut content_length = 0usize;
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
                if name == "authorization" && value == expected_auth {
                    authorized = true;
                }
                if name == "content-length" {
                    content_length = value.parse().unwrap_or(0);
                }
            }
        }
        let mut body = vec![0u8; content_length];
        reader.read_exact(&mut body)?;
        let mut parts = request_line.split_whitespace();
        let method = parts.next().unwrap_or("");
        let path = parts.next().unwrap_or("/");
        let file = path
            .strip_prefix("/maven2/")
            .map(Path::new)
            .filter(|p| p.components().all(|c| matches!(c, Component::Normal(_))))
            .map(|p| root.join(p));
        let (status, payload): (&str, Vec<u8>) = if !authorized {
            ("401 Unauthorized", Vec::new())
        } else {
            match file.and_then(|f| std::fs::read(f).ok()) {
                Some(bytes) => ("200 OK", bytes),
                None => ("404 Not Found", Vec::new()),
            }
        };
        let mut head = format!("HTTP/1.1 {status}\r\nContent-Length: {}\r\n", payload.len());
        if status.starts_with("401") {
            head.push_str("WWW-Authenticate: Basic realm=\"quickstart\"\r\n");
        }
        head.push_str("\r\n");
        writer.write_all(head.as_bytes())?;
        if method != "HEAD" {
            writer.write_all(&payload)?;
        }
        writer.flush()?;
    }
    Ok(())
}

fn base64_encode(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}
