//! What a build tool does at the end of a multi-module build: deploy every module in one
//! request, with the credentials and proxy of the user's `settings.xml`, as `mvn deploy` does for
//! a reactor — but in parallel, and with the metadata only after every artifact is there.
//!
//! ```text
//! cargo run --release --example deploy_modules -- --settings S --to ID::URL --modules FILE [-D k=v]...
//! ```
//!
//! `FILE` holds one module a line: `POM JAR SOURCES` (the coordinates come from the POM). The
//! deployment repository is `ID::URL` (its credentials from the `<server>` with that id). Prints
//! one line per module; on failure the report of what reached the server.

use m2resolver::publish::{
    alt_deployment_repository, PublishArtifact, PublishModule, PublishRequest,
};
use m2resolver::Session;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("deploy_modules: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (mut settings, mut to, mut modules, mut defines) = (None, None, None, Vec::new());
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--settings" => settings = Some(PathBuf::from(value()?)),
            "--to" => to = Some(value()?),
            "--modules" => modules = Some(PathBuf::from(value()?)),
            "-D" => defines.push(value()?),
            d if d.starts_with("-D") => defines.push(d[2..].to_string()),
            other => return Err(format!("unknown option {other}").into()),
        }
    }
    let (Some(settings), Some(to), Some(modules)) = (settings, to, modules) else {
        return Err("usage: deploy_modules --settings S --to ID::URL --modules FILE".into());
    };
    let mut builder = Session::builder().user_settings(settings);
    for d in &defines {
        builder = builder.define(d);
    }
    let session = builder.build()?;

    // One module a line: POM JAR SOURCES, its coordinates read from the POM as deploy-file does.
    let mut request = PublishRequest::default();
    for line in std::fs::read_to_string(&modules)?.lines() {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [pom, jar, sources] = parts[..] else {
            continue;
        };
        let c = m2resolver::publish::request::PomCoordinates::read(pom.as_ref())?;
        request.modules.push(
            PublishModule::new(&c.group_id, &c.artifact_id, &c.version)
                .with(PublishArtifact::new("", "pom", pom))
                .with(PublishArtifact::new("", "jar", jar))
                .with(PublishArtifact::new("sources", "jar", sources)),
        );
    }

    let (repository, _) = alt_deployment_repository(&to)?;
    let options = session.deploy_options(&repository.id)?;
    let started = std::time::Instant::now();
    match session.blocking_deploy(&request, &repository, &options) {
        Ok(report) => {
            for w in &report.warnings {
                eprintln!("warning: {w}");
            }
            println!(
                "deployed {} modules ({} files) to {} in {:.2?}",
                report.modules.len(),
                report.uploaded().count(),
                report.repository,
                started.elapsed()
            );
            Ok(())
        }
        Err(e) => {
            if let Some(r) = e.deploy_report() {
                eprint!("{}", r.render());
            }
            Err(e.into())
        }
    }
}
