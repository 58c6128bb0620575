//! Import errors and warnings: what is wrong, where in the file, and how to fix it.

use std::fmt;
use std::path::PathBuf;

use props_anim::{ModelError, RigError, SkinError, clip::ClipError};

/// Why a file could not be imported.
///
/// Displays as `{file}: {json_path}: {kind}; {fix}` (the fix is the rule table's for its code,
/// `crate::codes`; a limit's or an extension's message names its own). `json_path` locates the
/// offending glTF object (`animations[2].samplers[0].output`, `accessors[5].sparse.indices`,
/// ...); it is `<file>` for problems of the container itself (I/O, GLB framing, JSON syntax).
#[derive(Debug)]
pub struct ImportError {
    /// The imported file (as given to [`crate::import_file`], or the label given to
    /// [`crate::import_slice`]).
    pub file: PathBuf,
    /// Where in the glTF JSON the problem is.
    pub json_path: String,
    /// What the problem is.
    pub kind: ErrorKind,
}

impl std::error::Error for ImportError {}

/// The JSON path used for problems of the file as a whole.
pub(crate) const FILE: &str = "<file>";

impl ImportError {
    /// An error at `json_path`; the file is filled in by the public entry points.
    pub(crate) fn at(json_path: impl Into<String>, kind: ErrorKind) -> Self {
        Self { file: PathBuf::new(), json_path: json_path.into(), kind }
    }
}

/// A recoverable oddity of an imported file: the import went on, ignoring or repairing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportWarning {
    /// Where in the glTF JSON.
    pub json_path: String,
    /// What was ignored or repaired, and why.
    pub message: String,
}

impl fmt::Display for ImportWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.json_path, self.message)
    }
}

/// Collects warnings during one import.
pub(crate) type Warnings = Vec<ImportWarning>;

/// Adds a warning at `json_path`.
pub(crate) fn warn(warnings: &mut Warnings, json_path: impl Into<String>, message: impl Into<String>) {
    warnings.push(ImportWarning { json_path: json_path.into(), message: message.into() });
}

/// One part's problems of a file: the first [`Problems::TOLD`] told one by one, the rest
/// counted, so that a file of thousands of bad entries does not make thousands of warnings.
#[derive(Debug, Default)]
pub(crate) struct Problems {
    told: Vec<(String, String)>,
    more: usize,
}

impl Problems {
    /// Problems told one by one.
    pub(crate) const TOLD: usize = 16;

    /// A problem at JSON path `at`: what was done, and why.
    pub(crate) fn tell(&mut self, at: impl Into<String>, why: impl Into<String>) {
        if self.told.len() < Self::TOLD {
            self.told.push((at.into(), why.into()));
        } else {
            self.more += 1;
        }
    }

    /// Adds them to `warnings`: those told, then one at `at` for the rest, saying `more(count)`.
    pub(crate) fn warn(self, warnings: &mut Warnings, at: &str, more: impl FnOnce(usize) -> String) {
        for (path, why) in self.told {
            warn(warnings, path, why);
        }
        if self.more > 0 {
            warn(warnings, at, more(self.more));
        }
    }
}

/// `value` at `path`, if every element is finite.
pub(crate) fn finite<const N: usize>(value: [f32; N], path: String) -> Result<[f32; N], ImportError> {
    match value.iter().position(|v| !v.is_finite()) {
        Some(element) => Err(ImportError::at(path, ErrorKind::NonFinite { element: element as u64 })),
        None => Ok(value),
    }
}

/// Everything that can be wrong with a file, one variant per distinct problem.
#[derive(Debug, thiserror::Error)]
pub enum ErrorKind {
    /// A file could not be read.
    #[error("could not read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A relative URI names a file that does not exist.
    #[error("the file `{uri}` does not exist in the model's folder")]
    MissingFile {
        /// The URI as written in the file.
        uri: String,
    },
    /// A size, count or dimension is over a [`crate::Limits`] bound.
    #[error("{what} is {}, over the limit of {}; {}", amount(what, *value), amount(what, *limit), limit_fix(what))]
    LimitExceeded {
        /// What was measured.
        what: &'static str,
        /// The value found.
        value: u64,
        /// The limit.
        limit: u64,
    },
    /// An image cannot be decoded whole in what the decoded-data budget leaves it (it is
    /// decoded before it is shrunk): the side it could have.
    #[error(
        "the image is {width}x{height} pixels, {bytes_per_pixel} bytes a pixel while it is decoded ({} MiB), more \
         than the {} MiB of decoded data the file's other parts leave it; export it at most {side} pixels a side",
        (u64::from(*width) * u64::from(*height) * u64::from(*bytes_per_pixel)).div_ceil(1 << 20),
        room >> 20
    )]
    ImageTooLarge {
        /// Its width in pixels.
        width: u32,
        /// Its height in pixels.
        height: u32,
        /// What decoding takes a pixel: the file's own format, and its 4-byte copy unless it
        /// is 8-bit RGBA.
        bytes_per_pixel: u32,
        /// What the budget had left, bytes.
        room: u64,
        /// The largest power of two a side whose image would decode within it.
        side: u32,
    },
    /// The binary glTF container is malformed or truncated.
    #[error("not a valid GLB file: {reason}")]
    InvalidGlb {
        /// What is wrong with it.
        reason: String,
    },
    /// The JSON does not parse as glTF.
    #[error("not valid glTF JSON: {message}")]
    Json {
        /// The parser's message, with line and column.
        message: String,
    },
    /// The file is not glTF 2.x.
    #[error("glTF version {version} is not supported")]
    UnsupportedVersion {
        /// `asset.version`.
        version: String,
    },
    /// An index refers to an object that does not exist.
    #[error("index refers to an object that does not exist")]
    InvalidIndex,
    /// A property that glTF requires is absent.
    #[error("a required property is missing")]
    MissingProperty,
    /// A property has a value glTF does not allow (unknown enum value, out-of-range number).
    #[error("invalid value")]
    InvalidValue,
    /// A size or offset does not fit this platform's address space.
    #[error("value is too large for this platform; split the model into smaller ones")]
    ValueTooLarge,
    /// `extensionsRequired` names an extension this importer does not implement.
    #[error("the model requires extension `{name}`, which is not supported{hint}")]
    UnsupportedExtension {
        /// The extension.
        name: String,
        /// How to fix it (may be empty).
        hint: &'static str,
    },
    /// A URI points outside the model's folder, or uses a scheme other than `data:`.
    #[error("URI `{uri}` is refused: {reason}; a model may only reference files inside its own folder")]
    UriRefused {
        /// The URI as written in the file.
        uri: String,
        /// Why it is refused.
        reason: &'static str,
    },
    /// A `data:` URI is malformed.
    #[error("invalid data URI: {reason}")]
    InvalidDataUri {
        /// What is wrong with it.
        reason: String,
    },
    /// Compressed data (a meshopt-compressed buffer view, a Draco-compressed primitive) cannot be
    /// decoded.
    #[error("the compressed data cannot be decoded: {reason}")]
    Decompression {
        /// Why.
        reason: String,
    },
    /// Every primitive the model's scene draws was left out by the caller (where the import
    /// itself could read none, it fails with the first primitive's error instead).
    #[error("every primitive the scene draws could not be read and was left out: nothing is left to draw")]
    NothingDrawable,
    /// A buffer without `uri` outside a GLB file, or a GLB file without its binary chunk.
    #[error("buffer has no uri and the file has no GLB binary chunk to supply its data")]
    MissingBufferData,
    /// A buffer holds fewer bytes than its `byteLength`.
    #[error("buffer holds {actual} bytes but its byteLength is {declared}")]
    BufferTooShort {
        /// `byteLength`.
        declared: u64,
        /// Bytes actually present.
        actual: u64,
    },
    /// A buffer view reaches past the end of its buffer.
    #[error("bufferView covers bytes {start}..{end} but its buffer has only {buffer_len} bytes")]
    ViewOutOfBounds {
        /// First byte.
        start: u64,
        /// One past the last byte.
        end: u64,
        /// Length of the buffer.
        buffer_len: u64,
    },
    /// An accessor (or a sparse part of it) reaches past the end of its buffer view.
    #[error("accessor needs bytes {start}..{end} of its bufferView, which has only {view_len} bytes")]
    AccessorOutOfBounds {
        /// First byte, relative to the view.
        start: u64,
        /// One past the last byte (saturated on overflow).
        end: u64,
        /// Length of the view.
        view_len: u64,
    },
    /// A buffer view's `byteStride` is smaller than the element read through it.
    #[error("byteStride {stride} is smaller than one element of the accessor ({element} bytes)")]
    StrideTooSmall {
        /// The stride.
        stride: u64,
        /// Element size in bytes.
        element: u64,
    },
    /// A sparse index is not below the accessor's count.
    #[error("sparse index {index} (entry {entry}) is not below the accessor's count {count}")]
    SparseIndexOutOfRange {
        /// Position in the sparse index list.
        entry: u64,
        /// The index.
        index: u32,
        /// The accessor's count.
        count: u64,
    },
    /// Sparse indices do not increase strictly.
    #[error("sparse indices must increase strictly, but entry {entry} ({index}) follows {previous}")]
    SparseIndexNotIncreasing {
        /// Position in the sparse index list.
        entry: u64,
        /// The index.
        index: u32,
        /// The index before it.
        previous: u32,
    },
    /// An accessor has a type or component type this use does not allow.
    #[error("accessor is {found}, but this use needs {expected}")]
    WrongAccessorFormat {
        /// The accessor's format, e.g. `VEC3 of UNSIGNED_SHORT`.
        found: String,
        /// What is accepted, e.g. `VEC3 of FLOAT`.
        expected: String,
    },
    /// A value that must be a finite number is NaN or infinite.
    #[error("element {element} is NaN or infinite")]
    NonFinite {
        /// Index of the element (vertex, key, matrix, or vector component).
        element: u64,
    },
    /// A vertex attribute has a different count than POSITION.
    #[error("{found} elements, but POSITION has {expected}; every attribute needs one element per vertex")]
    AttributeCountMismatch {
        /// Elements of this attribute.
        found: u64,
        /// Vertices (POSITION elements).
        expected: u64,
    },
    /// A vertex index is not below the vertex count.
    #[error("index {position} refers to vertex {vertex}, but the primitive has {vertices} vertices")]
    VertexIndexOutOfRange {
        /// Position in the index list.
        position: u64,
        /// The vertex index.
        vertex: u32,
        /// Vertices of the primitive.
        vertices: u64,
    },
    /// More sets of joints and weights than [`crate::Limits::max_influences`] allows.
    #[error(
        "JOINTS_{set}/WEIGHTS_{set}: more than {limit} influences per vertex (JOINTS_0.. WEIGHTS_0.., four per \
         set)"
    )]
    TooManyInfluences {
        /// The first set past the limit.
        set: u32,
        /// The limit, in influences per vertex.
        limit: u32,
    },
    /// A set of joints without its weights (or the reverse), or set 1 without set 0.
    #[error("{present} is present but {missing} is missing; joints and weights come in pairs, set 0 first")]
    UnpairedInfluences {
        /// The attribute found.
        present: String,
        /// The attribute missing.
        missing: String,
    },
    /// A vertex uses a joint (with non-zero weight) past the end of its node's skin.
    #[error("vertex {vertex} uses joint {joint} with a non-zero weight, but skin {skin} has {joints} joints")]
    JointOutOfRange {
        /// The vertex.
        vertex: u64,
        /// The joint index.
        joint: u16,
        /// The skin of the node using the mesh.
        skin: u32,
        /// Joints of that skin.
        joints: u64,
    },
    /// Primitives of one mesh have different numbers of morph targets.
    #[error("{found} morph targets, but primitive 0 of the mesh has {expected}; all primitives need the same number")]
    MorphTargetCountMismatch {
        /// Targets of this primitive.
        found: u64,
        /// Targets of primitive 0.
        expected: u64,
    },
    /// Default morph weights do not match the mesh's morph target count.
    #[error("{found} morph weights for a mesh with {expected} morph targets")]
    MorphWeightCount {
        /// Weights given.
        found: u64,
        /// Morph targets of the mesh.
        expected: u64,
    },
    /// A node's `matrix` is projective (last row not `0, 0, 0, 1`).
    #[error("node matrix is not affine: its last row is {row:?}, not [0, 0, 0, 1]")]
    NodeMatrixNotAffine {
        /// The last row.
        row: [f32; 4],
    },
    /// An inverse bind matrix is projective (last row not `0, 0, 0, 1`).
    #[error("inverse bind matrix {joint} is not affine: its last row is {row:?}, not [0, 0, 0, 1]")]
    InverseBindNotAffine {
        /// Index in the joint list.
        joint: u64,
        /// The last row.
        row: [f32; 4],
    },
    /// The node hierarchy is not a forest.
    #[error("invalid node hierarchy: {0}")]
    Rig(RigError),
    /// A skin is invalid.
    #[error("invalid skin: {0}")]
    Skin(SkinError),
    /// An animation channel or sampler is invalid.
    #[error("invalid animation: {0}")]
    Clip(ClipError),
    /// An animation moves by parts a node given by a `matrix` that cannot be taken apart into
    /// them (a scale of zero on an axis).
    #[error(
        "node {node} is given by a `matrix` with a scale of zero, which cannot be taken apart into the translation, rotation and scale its clip moves"
    )]
    AnimatedMatrixNode {
        /// glTF node index.
        node: u32,
    },
    /// A `KHR_animation_pointer` pointer that is malformed or names nothing in the file.
    #[error("the animation pointer {pointer} is invalid: {why}")]
    InvalidPointer {
        /// The pointer.
        pointer: String,
        /// Why.
        why: String,
    },
    /// An image is neither PNG, JPEG nor WebP (or a texture names only such images).
    #[error(
        "image is {found}; only PNG, JPEG, WebP and KTX2 (Basis Universal) images are decoded, and the texture draws without it"
    )]
    UnsupportedImageFormat {
        /// What it seems to be.
        found: String,
    },
    /// An image could not be decoded.
    #[error("image could not be decoded: {reason}")]
    ImageDecode {
        /// The decoder's message.
        reason: String,
    },
    /// Some pose of the model could carry a vertex or node beyond what 32-bit floats hold
    /// (scales or translations multiplied along the hierarchy).
    #[error(
        "in some pose this can reach {reach:.3e} model units from the origin, beyond the {limit:.0e} a game model may \
         reach (32-bit floats would overflow)"
    )]
    PoseOverflow {
        /// The bound reached.
        reach: f64,
        /// The largest allowed.
        limit: f64,
    },
    /// The assembled model is inconsistent (a bug of the importer if it ever happens).
    #[error("invalid model: {0}")]
    Model(ModelError),
}

/// What a modder can do about `what` (an [`ErrorKind::LimitExceeded`]'s measure) being over
/// its limit: the fix every such message ends with.
/// `value` of measure `what` as a message says it: a byte count of a mebibyte or more also in
/// MiB.
fn amount(what: &str, value: u64) -> String {
    let bytes = what.contains("bytes") || what.contains("byteLength");
    match bytes && value >= 1 << 20 {
        true => format!("{value} ({:.1} MiB)", value as f64 / f64::from(1u32 << 20)),
        false => value.to_string(),
    }
}

pub(crate) fn limit_fix(what: &str) -> &'static str {
    match what {
        "pixels of an image" => "export the texture at most 8192 pixels a side",
        "vertices of a primitive" | "vertices of all mesh instances of the scene" => {
            "decimate the mesh (Blender: the Decimate modifier) or split it into several models"
        }
        "accessor count" => {
            "decimate or split the mesh that reads it (Blender: the Decimate modifier; as a primitive's indices, the \
             limit is a third as many triangles), or, where a clip reads it, bake the clip at fewer frames per second"
        }
        "keyframes" => "bake the clip at fewer frames per second, or split it into shorter clips",
        "joints of a skin" => "remove the bones its meshes do not need",
        "morph weights of every node together" => {
            "use fewer morph targets (Blender: remove the shape keys nothing animates), or place the morphed mesh on \
             fewer nodes"
        }
        "bytes read from image files" => {
            "list each image file once (textures share an image by its index) and export smaller textures"
        }
        "number of nodes" | "number of nodes with every mesh instance" | "entries of `nodes`" => {
            "join the objects that move together (Blender: Object > Join)"
        }
        "decoded data of the whole file, in bytes" => {
            "export smaller textures, fewer vertices or shorter clips, or split it into several models"
        }
        "file size in bytes"
        | "buffer byteLength"
        | "byteLength of all buffers together"
        | "decoded size of the data URI, in bytes"
        | "size of the referenced file, in bytes"
        | "decompressed size of the buffer view, in bytes" => {
            "compress it (glTF-Transform: meshopt or Draco for meshes, KTX2 for textures) or split it into several models"
        }
        _ => "split it into several models",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every limit the import and the checker measure says what to do about it; the message
    /// ends with that.
    #[test]
    fn every_limit_says_what_to_do() {
        let sources = [
            include_str!("accessor.rs"),
            include_str!("animation.rs"),
            include_str!("buffers.rs"),
            include_str!("channel_merge.rs"),
            include_str!("draco.rs"),
            include_str!("image_source.rs"),
            include_str!("images.rs"),
            include_str!("import.rs"),
            include_str!("instancing.rs"),
            include_str!("ktx2.rs"),
            include_str!("mesh.rs"),
            include_str!("meshopt.rs"),
            include_str!("nodes.rs"),
            include_str!("scene.rs"),
        ];
        // The measure is the string literal before the JSON path in each `check` and `exceeded`.
        let mut measures = Vec::new();
        for source in sources {
            for call in
                source.split("limits::").skip(1).filter(|c| c.starts_with("check(") || c.starts_with("exceeded("))
            {
                let call = &call[..call.find(")?").or_else(|| call.find("))")).unwrap_or(call.len())];
                if let Some(what) = call.split('"').nth(1) {
                    measures.push(what);
                }
            }
        }
        assert_eq!(measures.len(), 22, "{measures:?}");
        // The checker's own messages name theirs by the same measures.
        let checker = [
            include_str!("validate/accessors.rs"),
            include_str!("validate/animations.rs"),
            include_str!("validate/meshes.rs"),
            include_str!("validate/nodes.rs"),
            include_str!("validate/skins.rs"),
        ];
        let named: Vec<&str> =
            checker.iter().flat_map(|s| s.split("limit_fix(\"").skip(1)).filter_map(|c| c.split('"').next()).collect();
        assert_eq!(named.len(), 5, "{named:?}");
        measures.extend(named);
        let fallback = limit_fix("an array's entries");
        for what in measures {
            assert_ne!(limit_fix(what), fallback, "`{what}` has no fix of its own");
            let message = ErrorKind::LimitExceeded { what, value: 2, limit: 1 }.to_string();
            assert!(message.ends_with(limit_fix(what)), "{message}");
        }
        // Bytes read in MiB too, from one up.
        let file = ErrorKind::LimitExceeded { what: "file size in bytes", value: 67_831_588, limit: 64 << 20 };
        assert!(
            file.to_string()
                .starts_with("file size in bytes is 67831588 (64.7 MiB), over the limit of 67108864 (64.0 MiB)"),
            "{file}"
        );
        let small = ErrorKind::LimitExceeded { what: "buffer byteLength", value: 3, limit: 2 }.to_string();
        assert!(small.starts_with("buffer byteLength is 3, over the limit of 2;"), "{small}");
    }
}
