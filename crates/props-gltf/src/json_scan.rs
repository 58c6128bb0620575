//! A first pass over the JSON, before anything is built from it: how many values it holds and
//! how long its arrays are, counted without allocating per value, and checked against
//! [`Limits`] and the decoded-bytes [`Budget`].
//!
//! Parsed glTF costs far more memory than its text: an empty node `{}` is three bytes of JSON
//! but a few hundred bytes as a `serde_json::Value` and then as the gltf crate's `Node`. A
//! small file of millions of empty nodes would take gigabytes before any count is looked at,
//! so the counts are taken here, from the text, and the parsed form is charged to the budget
//! (see [`Counts::parsed_bytes`]) before it is built.

use serde::Deserializer as _;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::error::{FILE, ImportError};
use crate::limits::{self, Budget, Limits};

/// Heap bytes charged per JSON object, array and other value once parsed: upper bounds of what
/// the checker's `serde_json::Value` tree (a B-tree leaf per object) and the gltf crate's
/// objects built from it cost together, growth of their vectors included, measured on files
/// of millions of small objects (`tests/budgets.rs` checks the peak heap against the charge).
const OBJECT_BYTES: u64 = 1024;
const ARRAY_BYTES: u64 = 256;
const SCALAR_BYTES: u64 = 256;

/// The gltf crate's struct for an entry of a top-level array: charged three times (a vector
/// growing by doubling briefly holds its old and new storage).
fn entry_bytes(array: &str) -> u64 {
    use gltf::json;
    let size = match array {
        "accessors" => size_of::<json::Accessor>(),
        "animations" => size_of::<json::Animation>(),
        "buffers" => size_of::<json::Buffer>(),
        "bufferViews" => size_of::<json::buffer::View>(),
        "cameras" => size_of::<json::Camera>(),
        "images" => size_of::<json::Image>(),
        "materials" => size_of::<json::Material>(),
        "meshes" => size_of::<json::Mesh>(),
        "nodes" => size_of::<json::Node>(),
        "samplers" => size_of::<json::texture::Sampler>(),
        "scenes" => size_of::<json::Scene>(),
        "skins" => size_of::<json::Skin>(),
        "textures" => size_of::<json::Texture>(),
        _ => size_of::<String>(),
    };
    3 * size as u64
}

/// Arrays with their own limit, by key; every other array under a top-level key is held to
/// [`Limits::max_array_entries`].
fn array_limit(key: Key, limits: &Limits) -> Option<(u64, &'static str)> {
    Some(match key {
        Key::Nodes => (limits.max_nodes.into(), "entries of `nodes`"),
        Key::Joints => (limits.max_joints_per_skin.into(), "joints of a skin"),
        Key::Targets => (limits.max_morph_targets.into(), "morph targets of a primitive"),
        Key::TopLevel(name) => (limits.max_array_entries.into(), name),
        Key::Other => return None,
    })
}

/// The keys the scan tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    /// `nodes` (top level) or a `nodes` list of a scene.
    Nodes,
    /// A skin's `joints`.
    Joints,
    /// A primitive's `targets`.
    Targets,
    /// Another top-level array of glTF objects.
    TopLevel(&'static str),
    /// Anything else.
    Other,
}

/// The top-level arrays of glTF objects.
const TOP_LEVEL: &[&str] = &[
    "accessors",
    "animations",
    "buffers",
    "bufferViews",
    "cameras",
    "images",
    "materials",
    "meshes",
    "samplers",
    "scenes",
    "skins",
    "textures",
    "extensionsUsed",
    "extensionsRequired",
];

impl Key {
    fn of(name: &str, depth: usize) -> Self {
        match name {
            "nodes" => Self::Nodes,
            "joints" => Self::Joints,
            "targets" => Self::Targets,
            _ if depth == 0 => TOP_LEVEL.iter().find(|&&k| k == name).map_or(Self::Other, |&k| Self::TopLevel(k)),
            _ => Self::Other,
        }
    }
}

/// What the scan counts.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    /// Objects.
    pub objects: u64,
    /// Arrays.
    pub arrays: u64,
    /// Numbers, strings, booleans and nulls.
    pub scalars: u64,
    /// Bytes of all strings.
    pub string_bytes: u64,
    /// Bytes of the gltf crate's structs for the entries of the top-level arrays.
    pub entry_bytes: u64,
}

impl Counts {
    /// Values of every kind.
    pub fn values(&self) -> u64 {
        self.objects + self.arrays + self.scalars
    }

    /// What the parsed JSON may cost on the heap, at most.
    pub fn parsed_bytes(&self) -> u64 {
        (self.objects * OBJECT_BYTES + self.arrays * ARRAY_BYTES + self.scalars * SCALAR_BYTES)
            .saturating_add(self.string_bytes)
            .saturating_add(self.entry_bytes)
    }
}

/// What the scan counts, where it is, and the first limit it found exceeded.
struct Scan<'l> {
    limits: &'l Limits,
    counts: Counts,
    /// The path to the value being counted (at most serde_json's nesting limit deep).
    path: Vec<Segment>,
    exceeded: Option<ImportError>,
}

/// One step of a JSON path: a key the scan knows (else `None`), or an array index.
#[derive(Clone, Copy, Debug)]
enum Segment {
    Key(Option<&'static str>),
    Index(u64),
}

/// The path, as the importer writes it (`skins[1].joints`), unknown keys shown as `?`.
fn json_path(path: &[Segment]) -> String {
    let mut out = String::new();
    for segment in path {
        match segment {
            Segment::Key(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name.unwrap_or("?"));
            }
            Segment::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    if out.is_empty() { FILE.to_owned() } else { out }
}

impl Scan<'_> {
    /// Counts one value; false once over the limit (the scan then stops).
    fn value(&mut self, kind: Kind) -> bool {
        let counts = &mut self.counts;
        match kind {
            Kind::Object => counts.objects += 1,
            Kind::Array => counts.arrays += 1,
            Kind::Scalar { bytes } => {
                counts.scalars += 1;
                counts.string_bytes += bytes as u64;
            }
        }
        let values = counts.values();
        if values > self.limits.max_json_values && self.exceeded.is_none() {
            let what = "values in the JSON (objects, arrays, numbers, strings)";
            self.exceeded = Some(limits::exceeded(values, self.limits.max_json_values, what, &json_path(&self.path)));
        }
        self.exceeded.is_none()
    }

    fn scalar<E: de::Error>(&mut self, bytes: usize) -> Result<(), E> {
        if self.value(Kind::Scalar { bytes }) { Ok(()) } else { Err(stop()) }
    }
}

/// A kind of JSON value, as counted.
#[derive(Clone, Copy)]
enum Kind {
    Object,
    Array,
    Scalar { bytes: usize },
}

/// One JSON value to count, found under `key` at `depth`.
struct Count<'s, 'l> {
    scan: &'s mut Scan<'l>,
    key: Key,
    depth: usize,
}

/// Stops the scan: the reason is in [`Scan::exceeded`].
fn stop<E: de::Error>() -> E {
    E::custom("limit exceeded")
}

impl<'de> DeserializeSeed<'de> for Count<'_, '_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Count<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.scan.scalar(0)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.scan.scalar(0)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.scan.scalar(0)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.scan.scalar(0)
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<(), E> {
        self.scan.scalar(text.len())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.scan.scalar(0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        if !self.scan.value(Kind::Array) {
            return Err(stop());
        }
        let limit = array_limit(self.key, self.scan.limits);
        let entry = match self.key {
            Key::TopLevel(name) => entry_bytes(name),
            Key::Nodes if self.depth == 1 => entry_bytes("nodes"),
            _ => 0,
        };
        let mut entries = 0u64;
        loop {
            self.scan.path.push(Segment::Index(entries));
            let element = seq.next_element_seed(Count { scan: self.scan, key: Key::Other, depth: self.depth + 1 });
            self.scan.path.pop();
            if element?.is_none() {
                return Ok(());
            }
            entries += 1;
            self.scan.counts.entry_bytes += entry;
            if let Some((limit, what)) = limit
                && entries > limit
            {
                let at = json_path(&self.scan.path);
                self.scan.exceeded.get_or_insert_with(|| limits::exceeded(entries, limit, what, &at));
                return Err(stop());
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        if !self.scan.value(Kind::Object) {
            return Err(stop());
        }
        while let Some((key, name)) = map.next_key_seed(KeyName { depth: self.depth })? {
            self.scan.path.push(Segment::Key(name));
            let value = map.next_value_seed(Count { scan: self.scan, key, depth: self.depth + 1 });
            self.scan.path.pop();
            value?;
        }
        Ok(())
    }
}

/// Reads an object key as a [`Key`], without keeping the text.
struct KeyName {
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for KeyName {
    type Value = (Key, Option<&'static str>);

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for KeyName {
    type Value = (Key, Option<&'static str>);

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object key")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Self::Value, E> {
        Ok((Key::of(name, self.depth), path_key(name)))
    }
}

/// Keys below the top level that lead to arrays with a limit; with [`TOP_LEVEL`] and `nodes`,
/// the keys named in error paths.
const NESTED_PATH_KEYS: &[&str] = &["nodes", "primitives", "targets", "joints", "channels", "children", "extras"];

/// The key `name` as error paths name it, if they do.
fn path_key(name: &str) -> Option<&'static str> {
    TOP_LEVEL.iter().chain(NESTED_PATH_KEYS).find(|&&k| k == name).copied()
}

/// Counts the values and array entries of `json` against `limits`, then charges the parsed
/// form's memory to `budget`. JSON syntax errors are left to the parser that follows (it
/// reports them with their place); only a limit stops here.
pub(crate) fn check(json: &[u8], limits: &Limits, budget: &Budget) -> Result<Counts, ImportError> {
    let mut scan = Scan { limits, counts: Counts::default(), path: Vec::new(), exceeded: None };
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    let counted = deserializer.deserialize_any(Count { scan: &mut scan, key: Key::Other, depth: 0 });
    if let Some(error) = scan.exceeded {
        return Err(error);
    }
    if counted.is_ok() {
        budget.charge(scan.counts.parsed_bytes(), FILE)?;
    }
    Ok(scan.counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(json: &str) -> Result<Counts, ImportError> {
        let limits = Limits::default();
        check(json.as_bytes(), &limits, &Budget::new(limits.max_decoded_bytes))
    }

    #[test]
    fn values_are_counted_by_kind() {
        let counted =
            counts(r#"{"asset": {"version": "2.0"}, "nodes": [{}, {"children": [1, 2]}], "x": [true, null]}"#)
                .expect("within the limits");
        assert_eq!((counted.objects, counted.arrays, counted.scalars, counted.string_bytes), (4, 3, 5, 3));
        assert_eq!(counted.entry_bytes, 2 * entry_bytes("nodes"));
        assert!(counts("{ not json").is_ok(), "syntax is left to the parser");
    }

    #[test]
    fn limits_stop_the_scan_before_parsing() {
        let limits = Limits {
            max_array_entries: 3,
            max_nodes: 2,
            max_morph_targets: 2,
            max_json_values: 100,
            ..Limits::default()
        };
        let budget = Budget::new(u64::MAX);
        let scan = |json: &str| check(json.as_bytes(), &limits, &budget).expect_err("over a limit").kind.to_string();
        let path = |json: &str| check(json.as_bytes(), &limits, &budget).expect_err("over a limit").json_path;
        assert!(scan(r#"{"materials": [{}, {}, {}, {}]}"#).contains("materials"));
        assert_eq!(path(r#"{"materials": [{}, {}, {}, {}]}"#), "materials");
        assert!(scan(r#"{"nodes": [{}, {}, {}]}"#).contains("nodes"));
        let targets = r#"{"meshes": [{"x": 1}, {"primitives": [{}, {"targets": [{}, {}, {}]}]}]}"#;
        assert!(scan(targets).contains("morph targets"));
        assert_eq!(path(targets), "meshes[1].primitives[1].targets");
        let values = format!("{{\"extras\": {{\"deep\": [{}]}}}}", vec!["0"; 200].join(","));
        assert!(scan(&values).contains("values in the JSON"));
        assert_eq!(path(&values), "extras.?[97]");
        let small = Limits { max_decoded_bytes: 1000, ..Limits::default() };
        let charged = check(br#"{"nodes": [{}, {}]}"#, &small, &Budget::new(small.max_decoded_bytes));
        assert!(charged.expect_err("over the budget").kind.to_string().contains("decoded data"));
    }
}
