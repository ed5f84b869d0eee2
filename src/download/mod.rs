//! Download: Maven 2 layout, metadata, checksums, local repository and the parallel scheduler.
