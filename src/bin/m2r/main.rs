//! `m2r`: a thin command-line shell over the m2resolver library.

#[allow(dead_code)] // wired into the command line by main.rs's clap layer
mod get;

fn main() {}
