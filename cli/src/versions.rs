//! `m2r versions`: sort versions as Maven Resolver does (deps-contract.md).
//!
//! This file owns taking the versions from the command line exactly as the oracle does (every
//! argument is a version, even one starting with `-`; the first `--json` is the format switch)
//! and printing; sorting and both output forms live in
//! [`m2resolver::resolution::version::view`].

use m2resolver::explain::to_canonical_json;
use m2resolver::resolution::version::view::sort_versions;

/// Arguments of `m2r versions`.
#[derive(clap::Args, Debug, Clone)]
pub struct VersionsArgs {
    /// Print the machine-readable document.
    #[arg(long)]
    pub json: bool,
    /// The versions (any text is a version; `-1` and `--x` included).
    #[arg(
        value_name = "VERSION",
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub versions: Vec<String>,
}

/// Sorts and prints; exit status 1 only when Java's sort would have failed.
pub fn run(mut args: VersionsArgs) -> i32 {
    if !args.json {
        // `m2r versions 1 --json`: clap takes everything after the first version as versions;
        // the oracle drops the first `--json` wherever it stands.
        if let Some(i) = args.versions.iter().position(|v| v == "--json") {
            args.versions.remove(i);
            args.json = true;
        }
    }
    match sort_versions(&args.versions) {
        Ok(sorted) => {
            let text = if args.json {
                to_canonical_json(&sorted.to_json()) + "\n"
            } else {
                sorted.render()
            };
            crate::out(&text);
            0
        }
        Err(e) => {
            crate::report::error(&e);
            1
        }
    }
}
