//! Reading local input files with a size limit decided before the first byte is read.
//!
//! Settings, `settings-security.xml` (and its relocations), master-password files, coordinate
//! lists and the local repository's own tracking files are read whole into memory. A file named
//! by a user or by another file (a `<relocation>`) may be anything: `/dev/zero`, a FIFO nobody
//! writes to, a sparse file of a terabyte, a directory. [`read_regular_file`] refuses everything
//! that is not a regular file, and a regular file larger than the limit, from its metadata alone
//! (so refusing a 1 GiB sparse file costs one `fstat`), then reads through a reader that stops
//! one byte past the limit (a file that grows meanwhile is refused too).
//! [`read_file_or_pipe`] also accepts pipes (`m2r get --from-file <(cmd)`), bounded the same way.
//!
//! The file is opened with `O_NONBLOCK` on Unix so that a FIFO swapped in after the type check
//! cannot block the open.

use std::io::Read;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a file was not read.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum BoundedReadError {
    /// Nothing at that path.
    #[error("{} does not exist", path.display())]
    NotFound {
        /// The path as given.
        path: PathBuf,
    },
    /// A directory, device, socket or FIFO.
    #[error("{} is not a regular file (it is {kind})", path.display())]
    NotRegular {
        /// The path as given.
        path: PathBuf,
        /// `a directory`, `a character device`, ...
        kind: &'static str,
    },
    /// Larger than the limit (by its size, or while reading).
    #[error("{} is larger than {limit} bytes ({}), the most m2resolver reads for such a file", path.display(), size.map(|s| format!("{s} bytes")).unwrap_or_else(|| "it kept growing".into()))]
    TooLarge {
        /// The path as given.
        path: PathBuf,
        /// The size the metadata reported, if it told.
        size: Option<u64>,
        /// The limit.
        limit: u64,
    },
    /// The open or a read failed.
    #[error("cannot read {}", path.display())]
    Io {
        /// The path as given.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
}

impl BoundedReadError {
    /// True for [`BoundedReadError::NotFound`].
    pub fn is_not_found(&self) -> bool {
        matches!(self, BoundedReadError::NotFound { .. })
    }
}

fn kind_of(ft: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_char_device() {
            return "a character device";
        }
        if ft.is_block_device() {
            return "a block device";
        }
        if ft.is_fifo() {
            return "a FIFO";
        }
        if ft.is_socket() {
            return "a socket";
        }
    }
    if ft.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

fn is_fifo(ft: &std::fs::FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        ft.is_fifo()
    }
    #[cfg(not(unix))]
    {
        let _ = ft;
        false
    }
}

/// Reads a regular file of at most `limit` bytes.
///
/// ```
/// use m2resolver::bounded::{read_regular_file, BoundedReadError};
/// let dir = std::env::temp_dir();
/// assert!(matches!(read_regular_file(&dir, 10), Err(BoundedReadError::NotRegular { .. })));
/// # #[cfg(unix)]
/// assert!(matches!(read_regular_file("/dev/zero".as_ref(), 10), Err(BoundedReadError::NotRegular { .. })));
/// ```
pub fn read_regular_file(path: &Path, limit: u64) -> Result<Vec<u8>, BoundedReadError> {
    read(path, limit, false)
}

/// Like [`read_regular_file`], but a FIFO (a pipe, `<(cmd)`) is read too, at most `limit` bytes.
pub fn read_file_or_pipe(path: &Path, limit: u64) -> Result<Vec<u8>, BoundedReadError> {
    read(path, limit, true)
}

fn read(path: &Path, limit: u64, pipes: bool) -> Result<Vec<u8>, BoundedReadError> {
    let io = |source: std::io::Error| {
        if source.kind() == std::io::ErrorKind::NotFound {
            BoundedReadError::NotFound {
                path: path.to_path_buf(),
            }
        } else {
            BoundedReadError::Io {
                path: path.to_path_buf(),
                source,
            }
        }
    };
    let check = |meta: &std::fs::Metadata| -> Result<(), BoundedReadError> {
        let ft = meta.file_type();
        if !(ft.is_file() || (pipes && is_fifo(&ft))) {
            return Err(BoundedReadError::NotRegular {
                path: path.to_path_buf(),
                kind: kind_of(&ft),
            });
        }
        if ft.is_file() && meta.len() > limit {
            return Err(BoundedReadError::TooLarge {
                path: path.to_path_buf(),
                size: Some(meta.len()),
                limit,
            });
        }
        Ok(())
    };
    // Decide from the metadata first: opening a FIFO without a writer would block.
    check(&std::fs::metadata(path).map_err(io)?)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    if !pipes {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    check(&meta)?;
    let capacity = if meta.is_file() { meta.len() } else { 8192 };
    let mut bytes = Vec::with_capacity(capacity.min(limit) as usize);
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(BoundedReadError::TooLarge {
            path: path.to_path_buf(),
            size: None,
            limit,
        });
    }
    Ok(bytes)
}

/// The check a command line makes on a file option (`--settings FILE`): `Ok(None)` for a regular
/// file; `Ok(Some(notice))` for a missing file, which keeps Maven's meaning (no such settings)
/// and deserves a one-line notice in human output; an error naming the option for something
/// that exists but is not a regular file (a directory, `/dev/zero`, a FIFO).
///
/// ```
/// use m2resolver::bounded::check_input_file;
/// assert!(check_input_file("--settings", "/nonexistent/settings.xml".as_ref()).unwrap().is_some());
/// assert!(check_input_file("--settings", std::env::temp_dir().as_ref()).is_err());
/// ```
pub fn check_input_file(option: &str, path: &Path) -> Result<Option<String>, String> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Some(format!(
            "{option} {} does not exist; read as empty, as Maven does",
            path.display()
        ))),
        Err(e) => Err(format!("{option} {}: {e}", path.display())),
        Ok(m) if m.is_file() => Ok(None),
        Ok(m) => Err(format!(
            "{option} {} is not a regular file (it is {})",
            path.display(),
            kind_of(&m.file_type())
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn regular_files_within_the_limit_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.xml");
        std::fs::write(&f, b"12345").unwrap();
        assert_eq!(read_regular_file(&f, 5).unwrap(), b"12345");
        assert!(matches!(
            read_regular_file(&f, 4),
            Err(BoundedReadError::TooLarge { size: Some(5), .. })
        ));
        assert!(read_regular_file(&dir.path().join("missing"), 5)
            .unwrap_err()
            .is_not_found());
        let e = read_regular_file(dir.path(), 5).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
    }

    #[test]
    fn sparse_files_are_refused_from_their_size() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("sparse.xml");
        let file = std::fs::File::create(&f).unwrap();
        file.set_len(1 << 30).unwrap();
        let started = Instant::now();
        let e = read_regular_file(&f, 32 << 20).unwrap_err();
        assert!(matches!(e, BoundedReadError::TooLarge { .. }), "{e}");
        assert!(started.elapsed() < Duration::from_secs(1));
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_fifos_are_refused_at_once() {
        let e = read_regular_file(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert!(e.to_string().contains("character device"), "{e}");
        let e = read_file_or_pipe(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert!(matches!(e, BoundedReadError::NotRegular { .. }), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_regular_file(&fifo, 10).unwrap_err();
        assert!(e.to_string().contains("FIFO"), "{e}");
    }
}
