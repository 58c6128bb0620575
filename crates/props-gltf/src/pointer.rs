//! The importer's JSON paths (`meshes[0].primitives[1].attributes["POSITION"]`) as JSON
//! pointers (`/meshes/0/primitives/1/attributes/POSITION`, RFC 6901).

use serde_path_to_error::Segment;

use crate::error::FILE;

/// The JSON pointer of an importer JSON path; empty for the whole file (`<file>`). Text after
/// ` = ` (the gltf crate's `extensionsRequired[0] = "NAME"`) is ignored.
pub(crate) fn from_json_path(path: &str) -> String {
    if path == FILE {
        return String::new();
    }
    let path = path.split(" = ").next().unwrap_or(path);
    let mut pointer = String::new();
    let mut segment = String::new();
    let mut chars = path.chars();
    while let Some(c) = chars.next() {
        match c {
            '.' => push(&mut pointer, &mut segment),
            '[' => {
                push(&mut pointer, &mut segment);
                let quoted = chars.as_str().starts_with('"');
                let rest = chars.as_str();
                let (inner, after) = match quoted {
                    true => rest.get(1..).and_then(|r| r.split_once("\"]")).unwrap_or((rest, "")),
                    false => rest.split_once(']').unwrap_or((rest, "")),
                };
                segment.push_str(inner);
                push(&mut pointer, &mut segment);
                chars = after.chars();
            }
            _ => segment.push(c),
        }
    }
    push(&mut pointer, &mut segment);
    pointer
}

/// The JSON pointer of a typed parse's path (where it stopped), or of its first segments.
pub(crate) fn from_segments<'a>(segments: impl IntoIterator<Item = &'a Segment>) -> String {
    let mut pointer = String::new();
    for segment in segments {
        let token = match segment {
            Segment::Seq { index } => index.to_string(),
            Segment::Map { key } => escape(key),
            Segment::Enum { variant } => escape(variant),
            Segment::Unknown => continue,
        };
        pointer.push('/');
        pointer.push_str(&token);
    }
    pointer
}

/// Appends `/segment` (escaped) to `pointer` and empties `segment`, unless it is empty.
fn push(pointer: &mut String, segment: &mut String) {
    if segment.is_empty() {
        return;
    }
    pointer.push('/');
    pointer.push_str(&escape(segment));
    segment.clear();
}

/// A reference token with `~` and `/` escaped.
pub(crate) fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_pointers() {
        assert_eq!(from_json_path("animations[0].samplers[1].input"), "/animations/0/samplers/1/input");
        assert_eq!(
            from_json_path("meshes[0].primitives[2].attributes[\"JOINTS_0\"]"),
            "/meshes/0/primitives/2/attributes/JOINTS_0"
        );
        assert_eq!(from_json_path("accessors[5].sparse.indices"), "/accessors/5/sparse/indices");
        assert_eq!(from_json_path("extensionsRequired[1] = \"KHR_x\""), "/extensionsRequired/1");
        assert_eq!(from_json_path("<file>"), "");
        assert_eq!(from_json_path("scenes"), "/scenes");
        assert_eq!(from_json_path("a[\"x/y~z\"].b"), "/a/x~1y~0z/b");
        assert_eq!(from_json_path("a[\"unterminated"), "/a/\"unterminated");
    }
}
