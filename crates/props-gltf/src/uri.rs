//! Confined URI resolution: models are untrusted mods, so a URI may only name a file inside
//! the model's own folder (or carry its data inline as a `data:` URI).

use std::io;
use std::path::{Path, PathBuf};

use crate::error::{ErrorKind, ImportError};

/// What a URI refers to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Target<'a> {
    /// Inline base64 data (the part after the comma of a `data:...;base64,` URI).
    Base64(&'a str),
    /// A file, canonicalized, inside the model's canonicalized folder.
    File(PathBuf),
}

/// Resolves `uri` (found at `json_path`) against `base_dir`, refusing everything that could
/// reach outside it: other schemes, absolute paths, drive letters, backslashes, `..`
/// components (also percent-encoded) and symbolic links leading out of the folder.
/// `base_dir` `None` refuses every file reference.
pub(crate) fn resolve<'a>(uri: &'a str, base_dir: Option<&Path>, json_path: &str) -> Result<Target<'a>, ImportError> {
    let refuse = |reason| ImportError::at(json_path, ErrorKind::UriRefused { uri: uri.to_owned(), reason });
    if let Some(payload) = data_payload(uri) {
        return payload
            .map(Target::Base64)
            .map_err(|reason| ImportError::at(json_path, ErrorKind::InvalidDataUri { reason: reason.to_owned() }));
    }
    check_relative(uri).map_err(refuse)?;
    let decoded = percent_decode(uri).ok_or_else(|| refuse("its percent-encoding is invalid"))?;
    check_relative(&decoded).map_err(refuse)?;
    let base_dir = base_dir.ok_or_else(|| refuse("the model was imported from memory, without a folder"))?;
    let io_error = |path: &Path, source: io::Error| match source.kind() {
        io::ErrorKind::NotFound => ImportError::at(json_path, ErrorKind::MissingFile { uri: uri.to_owned() }),
        _ => ImportError::at(json_path, ErrorKind::Io { path: path.to_owned(), source }),
    };
    let base = base_dir.canonicalize().map_err(|e| io_error(base_dir, e))?;
    let joined = decoded.split('/').filter(|c| !c.is_empty() && *c != ".").fold(base.clone(), |p, c| p.join(c));
    let file = joined.canonicalize().map_err(|e| io_error(&joined, e))?;
    if !file.starts_with(&base) {
        return Err(refuse("it leads out of the model's folder through a symbolic link"));
    }
    Ok(Target::File(file))
}

/// For a `data:` URI, its base64 payload (or why it cannot be used); `None` for other URIs.
fn data_payload(uri: &str) -> Option<Result<&str, &'static str>> {
    let scheme = uri.get(..5)?;
    if !scheme.eq_ignore_ascii_case("data:") {
        return None;
    }
    let rest = uri.get(5..)?;
    let Some((header, payload)) = rest.split_once(',') else {
        return Some(Err("it has no ',' before its data"));
    };
    let base64 = header.len() >= 7 && header.get(header.len() - 7..).is_some_and(|s| s.eq_ignore_ascii_case(";base64"));
    Some(if base64 { Ok(payload) } else { Err("only base64 data URIs (`data:...;base64,`) are supported") })
}

/// Refuses what a relative path inside the model's folder never contains.
fn check_relative(path: &str) -> Result<(), &'static str> {
    if path.is_empty() {
        return Err("it is empty");
    }
    if let Some((scheme, _)) = path.split_once(':') {
        let is_scheme = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
        return Err(match (is_scheme, scheme.len()) {
            (true, 1) => "absolute paths with a drive letter are not allowed",
            (true, _) => "only data: URIs and relative paths are allowed, no other scheme",
            (false, _) => "':' is not allowed in a file reference",
        });
    }
    if path.contains('\\') {
        return Err("backslashes are not allowed; separate folders with '/'");
    }
    if path.contains('\0') {
        return Err("it contains a NUL character");
    }
    if path.starts_with('/') {
        return Err("absolute paths are not allowed");
    }
    if path.split('/').any(|component| component == "..") {
        return Err("'..' components are not allowed");
    }
    Ok(())
}

/// Decodes `%XX` escapes; `None` for a malformed escape or a result that is not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let mut bytes = text.bytes();
    let mut out = Vec::with_capacity(text.len());
    while let Some(byte) = bytes.next() {
        if byte == b'%' {
            let high = char::from(bytes.next()?).to_digit(16)?;
            let low = char::from(bytes.next()?).to_digit(16)?;
            out.push(u8::try_from(high * 16 + low).ok()?);
        } else {
            out.push(byte);
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;

    /// A fresh, empty folder under the system temp dir, removed on drop.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new() -> Self {
            static NEXT: AtomicU32 = AtomicU32::new(0);
            let name = format!("props-gltf-uri-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
            let path = std::env::temp_dir().join(name);
            let _ = std::fs::remove_dir_all(&path);
            std::fs::create_dir_all(&path).expect("temp dir");
            Self(path)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A model folder `model/` with `a.bin`, `sub dir/b.bin`, and `secret.bin` beside it.
    fn setup() -> (TempDir, PathBuf) {
        let temp = TempDir::new();
        let model = temp.0.join("model");
        std::fs::create_dir_all(model.join("sub dir")).expect("dirs");
        std::fs::write(model.join("a.bin"), b"a").expect("a.bin");
        std::fs::write(model.join("sub dir/b.bin"), b"b").expect("b.bin");
        std::fs::write(temp.0.join("secret.bin"), b"s").expect("secret.bin");
        (temp, model)
    }

    fn refused(uri: &str, base: &Path) -> &'static str {
        match resolve(uri, Some(base), "buffers[0].uri") {
            Err(ImportError { kind: ErrorKind::UriRefused { reason, uri: u }, json_path, .. }) => {
                assert_eq!((u.as_str(), json_path.as_str()), (uri, "buffers[0].uri"));
                reason
            }
            other => panic!("{uri}: expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn relative_files_inside_the_folder_resolve() {
        let (_temp, model) = setup();
        let base = model.canonicalize().expect("canonical");
        let target = |uri| resolve(uri, Some(&model), "p").expect(uri);
        assert_eq!(target("a.bin"), Target::File(base.join("a.bin")));
        assert_eq!(target("./sub%20dir//b.bin"), Target::File(base.join("sub dir/b.bin")));
        assert_eq!(target("sub dir/b.bin"), Target::File(base.join("sub dir/b.bin")));
    }

    #[test]
    fn escapes_are_refused() {
        let (_temp, model) = setup();
        assert!(refused("../secret.bin", &model).contains(".."));
        assert!(refused("sub dir/../../secret.bin", &model).contains(".."));
        assert!(refused("%2e%2e/secret.bin", &model).contains(".."));
        assert!(refused("%2E%2E%2Fsecret.bin", &model).contains(".."));
        assert!(refused("/etc/passwd", &model).contains("absolute"));
        assert!(refused("%2Fetc/passwd", &model).contains("absolute"));
        assert!(refused("file:///etc/passwd", &model).contains("scheme"));
        assert!(refused("http://x", &model).contains("scheme"));
        assert!(refused("http%3A//x", &model).contains("scheme"));
        assert!(refused("ab:c", &model).contains("scheme"));
        assert!(refused("_:b", &model).contains("':'"));
        assert!(refused("C:/Windows/x.bin", &model).contains("drive letter"));
        assert!(refused("sub\\..\\..\\x", &model).contains("backslash"));
        assert!(refused("sub%5C..%5Cx", &model).contains("backslash"));
        assert!(refused("a.bin%00", &model).contains("NUL"));
        assert!(refused("%zz.bin", &model).contains("percent"));
        assert!(refused("", &model).contains("empty"));
    }

    #[test]
    fn files_need_a_folder() {
        assert!(matches!(
            resolve("a.bin", None, "images[0].uri"),
            Err(ImportError { kind: ErrorKind::UriRefused { .. }, .. })
        ));
        assert_eq!(resolve("data:;base64,AA==", None, "p").expect("data"), Target::Base64("AA=="));
    }

    #[test]
    fn missing_files_are_named() {
        let (_temp, model) = setup();
        match resolve("nope.bin", Some(&model), "buffers[1].uri") {
            Err(ImportError { kind: ErrorKind::MissingFile { uri }, json_path, .. }) => {
                assert_eq!((uri.as_str(), json_path.as_str()), ("nope.bin", "buffers[1].uri"));
            }
            other => panic!("expected MissingFile, got {other:?}"),
        }
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_leading_out_are_refused() {
        let (temp, model) = setup();
        std::os::unix::fs::symlink(temp.0.join("secret.bin"), model.join("link.bin")).expect("symlink");
        std::os::unix::fs::symlink(&temp.0, model.join("up")).expect("symlink");
        std::os::unix::fs::symlink(model.join("a.bin"), model.join("inside.bin")).expect("symlink");
        assert!(refused("link.bin", &model).contains("symbolic link"));
        assert!(refused("up/secret.bin", &model).contains("symbolic link"));
        let base = model.canonicalize().expect("canonical");
        assert_eq!(resolve("inside.bin", Some(&model), "p").expect("inside"), Target::File(base.join("a.bin")));
    }

    #[test]
    fn data_uris() {
        assert_eq!(data_payload("data:application/octet-stream;base64,AAAA"), Some(Ok("AAAA")));
        assert_eq!(data_payload("DATA:application/gltf-buffer;BASE64,QQ"), Some(Ok("QQ")));
        assert!(matches!(data_payload("data:text/plain,hello"), Some(Err(_))));
        assert!(matches!(data_payload("data:nocomma"), Some(Err(_))));
        assert_eq!(data_payload("a.bin"), None);
        assert_eq!(data_payload("dat"), None);
    }
}
