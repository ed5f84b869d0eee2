//! Repositories: the [`RemoteRepository`] model and the mirror, proxy and authentication
//! selectors that turn declared repositories into the list the downloader uses.

pub mod model;

pub use model::*;
