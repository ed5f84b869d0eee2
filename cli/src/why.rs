//! `m2r why g:a`: every path from the root to an artifact in the graph Maven resolves, the
//! occurrences left out and why the version in the graph won. The explanation is the library's
//! (`m2resolver::resolution::collect::view::render_why`); with `--lock FILE` it explains the
//! locked graph, without asking any repository.

use crate::report;
use crate::tree::{collect_graph, report_collection, report_failure, GraphArgs};
use m2resolver::resolution::collect::view::render_why;
use std::path::PathBuf;

/// Arguments of `m2r why`.
#[derive(clap::Args, Debug)]
pub struct WhyArgs {
    #[command(flatten)]
    graph: GraphArgs,
    /// The project file.
    #[arg(long, value_name = "FILE")]
    pom: Option<PathBuf>,
    /// The artifact to explain: groupId:artifactId.
    #[arg(value_name = "GROUP:ARTIFACT")]
    target: String,
    /// Answer from this lock file alone (no repository is asked).
    #[arg(long = "lock", value_name = "FILE", conflicts_with_all = ["pom", "coords"])]
    lock_file: Option<PathBuf>,
    /// The root when there is no --pom: groupId:artifactId[:extension[:classifier]]:version
    /// (several: compile dependencies of an unnamed root, as `m2r tree` takes them).
    #[arg(value_name = "COORD", required_unless_present_any = ["pom", "lock_file"])]
    coords: Vec<String>,
}

/// Runs `m2r why`; returns the exit status.
pub fn run(args: WhyArgs) -> u8 {
    let Some((group, artifact)) = args.target.split_once(':') else {
        report::error_text(&format!("`{}` is not groupId:artifactId", args.target));
        return 2;
    };
    if let Some(path) = &args.lock_file {
        let lock = match crate::lock::read(path) {
            Ok(l) => l,
            Err(code) => return code,
        };
        let mut out = String::new();
        for (i, p) in lock.projects.iter().enumerate() {
            if lock.projects.len() > 1 {
                if i > 0 {
                    out.push('\n');
                }
                out.push_str(&format!("In {}:\n", p.root));
            }
            out.push_str(&render_why(&p.graph(), group, artifact));
        }
        crate::out(&out);
        return 0;
    }
    let (root, collected) = match collect_graph(&args.graph, &args.coords, args.pom.as_ref()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    match collected {
        Ok(result) => {
            if report_collection(&root, &result) || !result.errors.is_empty() {
                return 1;
            }
            crate::out(&render_why(&result, group, artifact));
            0
        }
        Err(e) => {
            report_failure(&e);
            1
        }
    }
}
