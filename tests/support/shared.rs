//! The shared folder beside the repository: Maven's oracle scripts (`oracle/`), the corpora of
//! real inputs with Maven's answers (`corpus/`) and the testbed (`bench/`). Tests that need it
//! fail when it is missing: a CI job must not turn green because the reference was absent.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `M2R_SHARED_DIR` when set, else the first `shared/` folder (holding `oracle/`) found beside
/// the workspace root or one of its ancestors. Fails the test with what to do when there is none.
pub fn shared_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("M2R_SHARED_DIR") {
        let dir = PathBuf::from(dir);
        assert!(
            dir.join("oracle").is_dir(),
            "M2R_SHARED_DIR={} has no oracle/ folder",
            dir.display()
        );
        return dir;
    }
    // tests/ of the library and cli/tests/ of the CLI both sit under the workspace root
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = manifest
        .ancestors()
        .map(|a| a.join("shared"))
        .find(|s| s.join("oracle").is_dir());
    match found {
        Some(dir) => dir,
        None => panic!(
            "the shared folder (oracle/, corpus/, bench/) was not found beside {} or its parents: \
             put it at ../shared or set M2R_SHARED_DIR",
            manifest.display()
        ),
    }
}

/// A file or folder inside the shared folder, which must exist.
pub fn shared_path(relative: &str) -> PathBuf {
    let path = shared_dir().join(relative);
    assert!(
        path.exists(),
        "{} is missing from the shared folder",
        path.display()
    );
    path
}
