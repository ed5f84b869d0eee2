//! `m2r`: a thin command-line shell over the m2resolver library.
fn main() {}
