//! What a build tool writes to resolve its modules' class paths with m2resolver: one session
//! for the whole build (settings read once, one engine: connections, learned proxy
//! authentication and POMs shared by every module), the repositories Maven would use, every
//! module resolved (here several at once, from threads), a progress display, and errors that
//! say what failed and why.
//!
//! ```text
//! cargo run --example build_tool -- [-s settings.xml] [-o] [--local-repository DIR] MODULE...
//! ```
//!
//! A MODULE is a comma-separated list of coordinates (its direct compile dependencies), for
//! example `org.slf4j:slf4j-api:2.0.9,com.google.guava:guava:32.1.3-jre`. Without modules it
//! resolves two small ones from Maven Central (through your settings: mirrors, proxies,
//! credentials as Maven applies them).

use m2resolver::{
    Artifact, ClasspathScope, Dependency, Phase, ProgressEvent, ProgressListener, RemoteRepository,
    Root, Session, SessionError,
};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A build tool's own progress display: one line per phase, a count of files.
#[derive(Default)]
struct Progress {
    downloaded: AtomicU64,
    cached: AtomicU64,
}

impl ProgressListener for Progress {
    fn on_event(&self, event: &ProgressEvent<'_>) {
        match event {
            ProgressEvent::PhaseStarted {
                phase: Phase::Downloading,
                total: Some(total),
            } => eprintln!("[build] downloading {total} artifacts"),
            ProgressEvent::Downloaded { .. } => {
                self.downloaded.fetch_add(1, Ordering::Relaxed);
            }
            ProgressEvent::Cached { .. } => {
                self.cached.fetch_add(1, Ordering::Relaxed);
            }
            _ => {}
        }
    }
}

/// One module of the build: a name and its direct dependencies.
struct Module {
    name: String,
    dependencies: Vec<Dependency>,
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            // Every error of the library keeps its cause in `source()`: print the chain once.
            eprintln!("error: {}", m2resolver::printable::error_chain(e.as_ref()));
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<bool, Box<dyn std::error::Error>> {
    let mut builder = Session::builder();
    let mut modules = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-s" | "--settings" => {
                builder =
                    builder.user_settings(std::path::PathBuf::from(args.next().ok_or("-s FILE")?))
            }
            "-o" | "--offline" => builder = builder.offline(true),
            "--local-repository" => {
                builder = builder.local_repository(args.next().ok_or("--local-repository DIR")?)
            }
            list => modules.push(list.to_string()),
        }
    }
    if modules.is_empty() {
        modules = vec![
            "org.slf4j:slf4j-api:2.0.9".into(),
            "commons-io:commons-io:2.15.1,org.apache.commons:commons-lang3:3.14.0".into(),
        ];
    }
    let modules = modules
        .iter()
        .enumerate()
        .map(|(i, list)| {
            let dependencies = list
                .split(',')
                .map(|c| Artifact::parse(c).map(|a| Dependency::new(a, "compile")))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Module {
                name: format!("module-{i}"),
                dependencies,
            })
        })
        .collect::<Result<Vec<_>, m2resolver::CoordinateError>>()?;

    // Settings -> one session for the whole build (its engine is made on the first call).
    let progress = Arc::new(Progress::default());
    let session = builder.progress_listener(progress.clone()).build()?;
    for p in session.problems() {
        eprintln!("warning: {}", p.message);
    }
    // Repositories -> what Maven would use: the POM's (here the super POM's central), the
    // active settings profiles' in front, mirrors, proxies and credentials applied.
    let repos = session.repositories(&[RemoteRepository::central()]);
    for p in &repos.problems {
        eprintln!("warning: {}", p.message);
    }

    // Every module through the same session, several at once.
    let results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = modules
            .iter()
            .map(|m| {
                let (session, repos) = (&session, &repos.repositories);
                s.spawn(move || {
                    let root = Root::Project {
                        artifact: Artifact::new("org.example.build", &m.name, "pom", "", "1.0"),
                        dependencies: m.dependencies.clone(),
                        managed_dependencies: Vec::new(),
                    };
                    session.blocking_resolve(&root, repos, Some(ClasspathScope::Runtime))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join()).collect()
    });

    let mut ok = true;
    for (module, result) in modules.iter().zip(results) {
        match result {
            Ok(Ok(resolved)) => {
                for p in &resolved.collect.problems {
                    eprintln!("warning: {}: {p}", module.name);
                }
                let cp: Vec<String> = resolved
                    .classpath(ClasspathScope::Runtime)
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect();
                println!("{}: {}", module.name, cp.join(":"));
            }
            Ok(Err(SessionError::Resolve { source, result })) => {
                ok = false;
                eprintln!(
                    "error: {}: {}",
                    module.name,
                    m2resolver::printable::error_chain(source.as_ref())
                );
                // The graph and what did resolve are still there.
                eprintln!(
                    "  ({} of {} artifacts resolved)",
                    result.artifacts.len() - result.failures().count(),
                    result.artifacts.len()
                );
            }
            Ok(Err(e)) => {
                ok = false;
                eprintln!(
                    "error: {}: {}",
                    module.name,
                    m2resolver::printable::error_chain(&e)
                );
            }
            Err(_) => return Err("a resolver thread panicked".into()),
        }
    }
    eprintln!(
        "[build] {} files downloaded, {} already in the local repository",
        progress.downloaded.load(Ordering::Relaxed),
        progress.cached.load(Ordering::Relaxed)
    );
    Ok(ok)
}
