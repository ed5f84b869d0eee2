//! `m2r why g:a`: every path from the root to an artifact in the graph Maven resolves, the
//! occurrences left out and why the version in the graph won. The explanation is the library's
//! (`m2resolver::resolution::collect::view::render_why`).

use crate::tree::{collect_graph, report, GraphArgs};
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
        eprintln!("m2r: `{}` is not groupId:artifactId", args.target);
        return 2;
    };
    let collected = match collect_graph(&args.graph, &args.coords, args.pom.as_ref()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    match collected {
        Ok(result) => {
            crate::out(&render_why(&result, group, artifact));
            u8::from(!result.errors.is_empty())
        }
        Err(e) => {
            report(&e);
            1
        }
    }
}
