//! `m2r why g:a`: every path from the root to an artifact in the graph Maven resolves, the
//! occurrences left out and why the version in the graph won. The explanation is the library's
//! (`m2resolver::resolution::collect::view::render_why`).

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
    /// The root when there is no --pom: groupId:artifactId[:extension[:classifier]]:version
    /// (several: compile dependencies of an unnamed root, as `m2r tree` takes them).
    #[arg(value_name = "COORD", required_unless_present = "pom")]
    coords: Vec<String>,
}

/// Runs `m2r why`; returns the exit status.
pub fn run(args: WhyArgs) -> u8 {
    let Some((group, artifact)) = args.target.split_once(':') else {
        report::error_text(&format!("`{}` is not groupId:artifactId", args.target));
        return 2;
    };
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
