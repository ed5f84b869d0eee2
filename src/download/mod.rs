//! Download: Maven 2 layout, metadata, checksums, local repository and the parallel scheduler.

pub mod coords;
pub mod layout;

pub use coords::{Coordinate, CoordinateError};
