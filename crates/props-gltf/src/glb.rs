//! The GLB container (binary glTF): the one reader, which reports every framing problem it
//! meets by Khronos's `GLB_*` code and goes on wherever the chunks can still be found, and the
//! one writer (for the tools and tests that make models).

/// The GLB magic, the file's first four bytes.
const MAGIC: &[u8; 4] = b"glTF";
/// GLB chunk type of the JSON chunk (`JSON`).
const JSON_CHUNK: u32 = 0x4E4F_534A;
/// GLB chunk type of the binary chunk (`BIN\0`).
const BIN_CHUNK: u32 = 0x004E_4942;
/// The header: magic, version, length.
const HEADER: usize = 12;

/// The chunks of a GLB file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunks<'a> {
    /// The JSON chunk.
    pub json: &'a [u8],
    /// The binary chunk, if the file has one that fits in it.
    pub bin: Option<&'a [u8]>,
}

/// A problem of a GLB file's framing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FramingIssue {
    /// Khronos's code (`GLB_LENGTH_MISMATCH`, ...).
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
    /// Whether it is only a warning (an unknown chunk type, which is ignored).
    pub warning: bool,
}

impl FramingIssue {
    fn error(code: &'static str, message: String) -> Self {
        Self { code, message, warning: false }
    }
}

/// Whether `bytes` starts with the GLB magic.
#[must_use]
pub fn is_glb(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The chunks of GLB file `bytes` (`None` when it has no usable JSON chunk), and every framing
/// problem met on the way.
#[must_use]
pub fn read(bytes: &[u8]) -> (Option<Chunks<'_>>, Vec<FramingIssue>) {
    let mut problems = Vec::new();
    let chunks = read_into(bytes, &mut problems);
    (chunks, problems)
}

/// Most framing issues of one code told of one file.
const MAX_ISSUES_PER_CODE: usize = 16;

fn read_into<'a>(bytes: &'a [u8], problems: &mut Vec<FramingIssue>) -> Option<Chunks<'a>> {
    let word = |at: usize| {
        let end = at.checked_add(4)?;
        bytes.get(at..end).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes)
    };
    // The first few of each code: a file of millions of empty chunks lists a few, not millions.
    let mut problem = |code: &'static str, message: String| {
        if problems.iter().filter(|problem| problem.code == code).count() < MAX_ISSUES_PER_CODE {
            problems.push(FramingIssue::error(code, message));
        }
    };
    if !is_glb(bytes) {
        let magic = String::from_utf8_lossy(bytes.get(..4).unwrap_or(bytes)).into_owned();
        problem("GLB_INVALID_MAGIC", format!("GLB magic {magic:?}, not \"glTF\""));
        return None;
    }
    let (Some(version), Some(length)) = (word(4), word(8)) else {
        let message = format!("the 12-byte GLB header is cut short ({} bytes)", bytes.len());
        problem("GLB_UNEXPECTED_END_OF_HEADER", message);
        return None;
    };
    if version != 2 {
        problem("GLB_INVALID_VERSION", format!("GLB version {version}; only version 2 (glTF 2.0) is supported"));
        return None;
    }
    let declared = usize::try_from(length).unwrap_or(usize::MAX);
    if declared < HEADER + 8 {
        problem("GLB_LENGTH_TOO_SMALL", format!("the GLB header declares {declared} bytes, too few for any chunk"));
    }
    if declared != bytes.len() {
        let cut = if declared > bytes.len() { ": the file is truncated" } else { "" };
        let message = format!("the GLB header declares {declared} bytes, but the file has {}{cut}", bytes.len());
        problem("GLB_LENGTH_MISMATCH", message);
    }
    let end = declared.min(bytes.len());
    let (mut json, mut bin) = (None, None);
    let mut offset = HEADER;
    let mut chunks = 0;
    while offset < bytes.len() {
        let first = chunks == 0;
        let (Some(chunk_length), Some(kind)) = (word(offset), word(offset + 4)) else {
            problem("GLB_UNEXPECTED_END_OF_CHUNK_HEADER", format!("a chunk header at byte {offset} is cut short"));
            break;
        };
        let start = offset + 8;
        let length = usize::try_from(chunk_length).unwrap_or(usize::MAX);
        let chunk_end = start.saturating_add(length);
        if chunk_length == 0 && kind == JSON_CHUNK {
            problem("GLB_EMPTY_CHUNK", format!("the JSON chunk at byte {offset} is empty"));
        }
        if !chunk_length.is_multiple_of(4) {
            problem("GLB_CHUNK_LENGTH_UNALIGNED", format!("chunk length {chunk_length} is not a multiple of 4"));
        }
        let data = match bytes.get(start..chunk_end).filter(|_| chunk_end <= end) {
            Some(data) => Some(data),
            None => {
                let message = format!("a chunk of {chunk_length} bytes at byte {offset} does not fit the file");
                problem("GLB_CHUNK_TOO_BIG", message);
                // (A cut JSON chunk is reported as JSON that ends early.)
                if chunk_end > bytes.len() && kind != JSON_CHUNK {
                    let message = format!("the file ends inside the chunk at byte {offset}: it is cut short");
                    problem("GLB_UNEXPECTED_END_OF_CHUNK_DATA", message);
                }
                None
            }
        };
        match (kind, first) {
            (JSON_CHUNK, true) => json = data,
            (JSON_CHUNK | BIN_CHUNK, false) if (kind == JSON_CHUNK) || bin.is_some() => {
                problem("GLB_DUPLICATE_CHUNK", format!("a second {} chunk", chunk_name(kind)));
            }
            (BIN_CHUNK, false) => {
                if chunks > 1 {
                    problem("GLB_UNEXPECTED_BIN_CHUNK", "the BIN chunk must be the second chunk".to_owned());
                }
                bin = data;
            }
            (_, true) => {
                problem("GLB_UNEXPECTED_FIRST_CHUNK", format!("the first chunk is {}, not JSON", chunk_name(kind)));
                return None;
            }
            (_, false) => {
                // A warning (marked below): the chunk is ignored.
                problem("GLB_UNKNOWN_CHUNK_TYPE", format!("unknown chunk type {kind:#010x} is ignored"));
            }
        }
        chunks += 1;
        if bytes.len() < chunk_end {
            break;
        }
        offset = chunk_end;
    }
    for unknown in problems.iter_mut().filter(|problem| problem.code == "GLB_UNKNOWN_CHUNK_TYPE") {
        unknown.warning = true;
    }
    Some(Chunks { json: json?, bin })
}

/// The name of a chunk type, for messages.
fn chunk_name(kind: u32) -> String {
    match kind {
        JSON_CHUNK => "JSON".to_owned(),
        BIN_CHUNK => "BIN".to_owned(),
        _ => format!("{kind:#010x}"),
    }
}

/// A GLB file cannot be written: it would be 4 GiB or more, which GLB cannot frame.
#[derive(Debug, thiserror::Error)]
#[error("a GLB file holds less than 4 GiB; this one would take {0} bytes")]
pub struct TooLarge(pub u64);

/// A GLB file of `json` (padded with spaces) and, when given, a binary chunk of `bin` (padded
/// with zeros).
///
/// # Errors
/// [`TooLarge`] when the file would be 4 GiB or more.
pub fn write(json: &[u8], bin: Option<&[u8]>) -> Result<Vec<u8>, TooLarge> {
    let padded = |len: usize| len.next_multiple_of(4);
    let total = HEADER + 8 + padded(json.len()) + bin.map_or(0, |bin| 8 + padded(bin.len()));
    let word = |n: usize| u32::try_from(n).map(u32::to_le_bytes).map_err(|_| TooLarge(total as u64));
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&word(total)?);
    out.extend_from_slice(&word(padded(json.len()))?);
    out.extend_from_slice(&JSON_CHUNK.to_le_bytes());
    out.extend_from_slice(json);
    out.resize(HEADER + 8 + padded(json.len()), b' ');
    if let Some(bin) = bin {
        out.extend_from_slice(&word(padded(bin.len()))?);
        out.extend_from_slice(&BIN_CHUNK.to_le_bytes());
        out.extend_from_slice(bin);
        out.resize(total, 0);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_files_read_back() {
        let file = write(br#"{"asset":{"version":"2.0"}}"#, Some(&[1, 2, 3])).expect("small");
        assert_eq!(file.len() % 4, 0);
        let (chunks, problems) = read(&file);
        assert!(problems.is_empty(), "{problems:?}");
        let chunks = chunks.expect("chunks");
        assert_eq!(chunks.json.trim_ascii_end(), br#"{"asset":{"version":"2.0"}}"#);
        assert_eq!(chunks.bin, Some(&[1u8, 2, 3, 0][..]));
        let json_only = write(b"{}", None).expect("small");
        let (chunks, problems) = read(&json_only);
        assert!(problems.is_empty() && chunks.is_some_and(|c| c.bin.is_none()), "{problems:?}");
    }

    fn glb_codes(bytes: &[u8]) -> Vec<&'static str> {
        read(bytes).1.iter().map(|p| p.code).collect()
    }

    fn file(chunks: &[(u32, &[u8])]) -> Vec<u8> {
        let total = 12 + chunks.iter().map(|(_, d)| 8 + d.len()).sum::<usize>();
        let mut out = b"glTF".to_vec();
        for word in [2, total as u32] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        for (kind, data) in chunks {
            out.extend_from_slice(&(data.len() as u32).to_le_bytes());
            out.extend_from_slice(&kind.to_le_bytes());
            out.extend_from_slice(data);
        }
        out
    }

    #[test]
    fn glb_framing() {
        let good = file(&[(JSON_CHUNK, b"{}  "), (BIN_CHUNK, &[1, 2, 3, 4])]);
        let (chunks, problems) = read(&good);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(chunks, Some(Chunks { json: b"{}  ", bin: Some(&[1, 2, 3, 4]) }));
        assert_eq!(glb_codes(b"GLTF\x02\0\0\0"), ["GLB_INVALID_MAGIC"]);
        let mut version = good.clone();
        version[4] = 1;
        assert_eq!(glb_codes(&version), ["GLB_INVALID_VERSION"]);
        assert_eq!(glb_codes(&good[..10]), ["GLB_UNEXPECTED_END_OF_HEADER"]);
        assert_eq!(glb_codes(&file(&[(BIN_CHUNK, b"abcd"), (JSON_CHUNK, b"{}  ")])), ["GLB_UNEXPECTED_FIRST_CHUNK"]);
        assert_eq!(glb_codes(&file(&[(JSON_CHUNK, b"{} ")])), ["GLB_CHUNK_LENGTH_UNALIGNED"]);
        let two = file(&[(JSON_CHUNK, b"{}  "), (BIN_CHUNK, b"abcd"), (BIN_CHUNK, b"abcd")]);
        assert_eq!(glb_codes(&two), ["GLB_DUPLICATE_CHUNK"]);
        assert_eq!(glb_codes(&file(&[(JSON_CHUNK, b"{}  "), (7, b"abcd")])), ["GLB_UNKNOWN_CHUNK_TYPE"]);
        let third = file(&[(JSON_CHUNK, b"{}  "), (7, b"abcd"), (BIN_CHUNK, b"abcd")]);
        assert_eq!(glb_codes(&third), ["GLB_UNKNOWN_CHUNK_TYPE", "GLB_UNEXPECTED_BIN_CHUNK"]);
        assert_eq!(glb_codes(&file(&[(JSON_CHUNK, b""), (BIN_CHUNK, b"abcd")])), ["GLB_EMPTY_CHUNK"]);
        let mut long = good.clone();
        long[12..16].copy_from_slice(&1000u32.to_le_bytes());
        assert_eq!(glb_codes(&long), ["GLB_CHUNK_TOO_BIG"]);
        let mut cut_bin = file(&[(JSON_CHUNK, b"{}  "), (BIN_CHUNK, b"abcd")]);
        cut_bin[24..28].copy_from_slice(&64u32.to_le_bytes());
        assert_eq!(glb_codes(&cut_bin), ["GLB_CHUNK_TOO_BIG", "GLB_UNEXPECTED_END_OF_CHUNK_DATA"]);
        let mut short = good;
        short[8..12].copy_from_slice(&8u32.to_le_bytes());
        assert_eq!(
            glb_codes(&short),
            ["GLB_LENGTH_TOO_SMALL", "GLB_LENGTH_MISMATCH", "GLB_CHUNK_TOO_BIG", "GLB_CHUNK_TOO_BIG"]
        );
        let mut huge = file(&[(JSON_CHUNK, b"{}  ")]);
        huge[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(glb_codes(&huge), ["GLB_CHUNK_LENGTH_UNALIGNED", "GLB_CHUNK_TOO_BIG"]);
    }
}
