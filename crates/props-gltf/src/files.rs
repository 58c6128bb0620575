//! Reading the files a model names, and the model file itself: regular files only, and never
//! more bytes than a limit.
//!
//! A FIFO, socket or device in a model's folder must not hang the importer: opening a FIFO
//! for reading blocks until a writer appears, and reading a device may never end. So files are
//! opened without blocking (`O_NONBLOCK` on Unix, which does not change how regular files
//! read), and what was opened is checked to be a regular file before a single byte is read.
//! Elsewhere the path's metadata is checked before opening.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// What kind of file `metadata` describes, in words, when it is not a regular file.
fn special_kind(metadata: &std::fs::Metadata) -> Option<&'static str> {
    let file_type = metadata.file_type();
    if file_type.is_file() {
        return None;
    }
    if file_type.is_dir() {
        return Some("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if file_type.is_socket() {
            return Some("a socket");
        }
        if file_type.is_block_device() || file_type.is_char_device() {
            return Some("a device");
        }
    }
    Some("not a regular file")
}

/// The error for a special file.
fn not_regular(kind: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("it is {kind}, not a regular file; only regular files are read"),
    )
}

/// Opens `path` for reading if it is a regular file, without blocking on a FIFO or device.
pub(crate) fn open_regular(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    #[cfg(not(unix))]
    if let Some(kind) = special_kind(&std::fs::metadata(path)?) {
        return Err(not_regular(kind));
    }
    // Opening a socket fails (ENXIO): name what the path is rather than the raw error.
    let file =
        options.open(path).map_err(|error| match std::fs::metadata(path).ok().as_ref().and_then(special_kind) {
            Some(kind) => not_regular(kind),
            None => error,
        })?;
    match special_kind(&file.metadata()?) {
        None => Ok(file),
        Some(kind) => Err(not_regular(kind)),
    }
}

/// What [`read_regular`] found.
#[derive(Debug)]
pub(crate) enum Contents {
    /// The whole file.
    Bytes(Vec<u8>),
    /// The file is larger than the limit: its size, nothing read.
    TooLarge(u64),
}

/// Reads the regular file `path` whole, or reports its size when it is over `limit` bytes
/// (checked before reading, and again while reading, in case it grows).
pub(crate) fn read_regular(path: &Path, limit: u64) -> io::Result<Contents> {
    let file = open_regular(path)?;
    let size = file.metadata()?.len();
    if size > limit {
        return Ok(Contents::TooLarge(size));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Ok(Contents::TooLarge(bytes.len() as u64));
    }
    Ok(Contents::Bytes(bytes))
}

#[cfg(all(test, unix))]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    #[test]
    fn special_files_are_refused_without_blocking() {
        let dir = std::env::temp_dir().join(format!("props-gltf-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let fifo = dir.join("model.gltf");
        let status = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
        assert!(status.success(), "mkfifo failed");
        let started = Instant::now();
        let error = read_regular(&fifo, 1024).expect_err("a FIFO is no regular file");
        assert!(error.to_string().contains("FIFO"), "{error}");
        assert!(started.elapsed() < Duration::from_secs(5), "opening the FIFO blocked");
        let folder = read_regular(&dir, 1024).expect_err("a folder is no regular file");
        assert!(folder.to_string().contains("folder"), "{folder}");
        let device = read_regular(Path::new("/dev/zero"), 1024).expect_err("a device is no regular file");
        assert!(device.to_string().contains("device"), "{device}");
        let socket = dir.join("buffer.bin");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).expect("a socket file");
        let started = Instant::now();
        let refused = read_regular(&socket, 1024).expect_err("a socket is no regular file");
        assert!(refused.to_string().contains("socket"), "{refused}");
        assert!(started.elapsed() < Duration::from_secs(5), "opening the socket blocked");

        let file = dir.join("a.bin");
        std::fs::write(&file, [1, 2, 3]).expect("write");
        assert!(matches!(read_regular(&file, 3), Ok(Contents::Bytes(bytes)) if bytes == [1, 2, 3]));
        assert!(matches!(read_regular(&file, 2), Ok(Contents::TooLarge(3))));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
