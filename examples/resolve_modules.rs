//! The reactor benchmark's m2r side (`scripts/bench-session.sh`): one `Session` resolves every
//! module of a build — each line of `--modules FILE` is one module, its direct compile
//! dependencies separated by spaces (`make-graph-repo.py`'s `modules.txt`) — all modules at
//! once, through the session's one engine (connections, proxy authentication and POMs shared).
//!
//! ```text
//! cargo run --release --example resolve_modules -- --settings S --local-repository L --modules FILE [--one-by-one] [--threads N]
//! ```
//!
//! Prints nothing on stdout; on stderr the modules, the artifacts resolved and the time; exit 1
//! when an artifact of any module could not be resolved. `--one-by-one` resolves the modules
//! one after another (as Maven's reactor does), still in one session; `--threads N` sets the
//! HTTP requests in flight (as `m2r --threads`).

use m2resolver::{Artifact, Dependency, RemoteRepository, Root, Session};
use std::collections::HashSet;
use std::process::ExitCode;
use std::time::Instant;

/// As the `m2r` binary: many small objects from several threads.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {}", m2resolver::printable::error_chain(e.as_ref()));
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<bool, Box<dyn std::error::Error>> {
    let started = Instant::now();
    let mut builder = Session::builder();
    let mut modules_file = None;
    let mut one_by_one = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--settings" | "-s" => {
                builder = builder.user_settings(std::path::PathBuf::from(
                    args.next().ok_or("--settings FILE")?,
                ))
            }
            "--local-repository" => {
                builder = builder.local_repository(args.next().ok_or("--local-repository DIR")?)
            }
            "--modules" => modules_file = Some(args.next().ok_or("--modules FILE")?),
            "--one-by-one" => one_by_one = true,
            "--threads" => {
                let n = args.next().ok_or("--threads N")?;
                builder = builder.max_in_flight(n.parse().map_err(|_| format!("--threads {n}"))?)
            }
            other => return Err(format!("unknown argument `{other}`").into()),
        }
    }
    let text = std::fs::read_to_string(modules_file.ok_or("--modules FILE is required")?)?;
    let roots = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, line)| {
            let dependencies = line
                .split_whitespace()
                .map(|c| Artifact::parse(c).map(|a| Dependency::new(a, "compile")))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Root::Project {
                artifact: Artifact::new("org.bench", format!("m{i:02}"), "pom", "", "1"),
                dependencies,
                managed_dependencies: Vec::new(),
            })
        })
        .collect::<Result<Vec<_>, m2resolver::CoordinateError>>()?;

    let session = builder.build()?;
    let answer = session.repositories(&[RemoteRepository::central()]);
    for p in &answer.problems {
        eprintln!("warning: {}", p.message);
    }
    let repos = answer.repositories;
    let caller = tokio::runtime::Builder::new_current_thread().build()?;
    let results = if one_by_one {
        roots
            .iter()
            .map(|r| session.blocking_resolve(r, &repos, None))
            .collect::<Vec<_>>()
    } else {
        caller.block_on(futures_util::future::join_all(
            roots.iter().map(|r| session.resolve(r, &repos, None)),
        ))
    };
    let mut ok = true;
    let mut files = HashSet::new();
    for (i, r) in results.iter().enumerate() {
        match r {
            Ok(resolved) => files.extend(resolved.files()),
            Err(e) => {
                ok = false;
                eprintln!(
                    "error: module m{i:02}: {}",
                    m2resolver::printable::error_chain(&e)
                );
            }
        }
    }
    eprintln!(
        "resolve_modules: {} modules, {} distinct files, {:.3} s",
        roots.len(),
        files.len(),
        started.elapsed().as_secs_f64()
    );
    // The process ends here: the operating system takes back the session and the 40 graphs at
    // once, instead of this process freeing them one by one and stopping the session's threads.
    std::process::exit(if ok { 0 } else { 1 })
}
