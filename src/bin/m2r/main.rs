//! `m2r`: a thin command-line shell over the m2resolver library.

// Wired into clap by the lead (main.rs belongs to the lead).
#[allow(dead_code)]
mod encrypt;

fn main() {}
