//! The gate's one rule table: the issue codes the game cannot load past, each with why and what
//! a modder does about it (shown after every message of the code: `Issue::ending`, and an
//! import error's display).
//!
//! The policy is a list of what is fatal; every other issue loads, shown as a warning or as an
//! error the game reads past. A fatal code is one of:
//!
//! - **unsafe**: over a limit or budget, a URI out of the model's folder, a pose that
//!   overflows. Whatever holds it, the file is refused ([`Scope::File`]); and a skin without
//!   joints, which nothing can pose.
//! - **meaningless**: NaN or infinity, zero quaternions, vertices bound to joints the skin
//!   lacks, more influences than the renderer draws: nothing says what the author meant, so
//!   the part that holds them is dropped, as for what is unreadable ([`Scope::Part`]).
//! - **unreadable**: data out of bounds, a broken container, a wrong format, a required
//!   extension that changes meaning and is not implemented. Fatal only to the smallest part
//!   that holds it ([`Scope::Part`]): a clip is dropped, a primitive skipped, a material drawn
//!   as the default one, a texture or image left out. Where no such part holds it (a node, a
//!   skin, a buffer, the file itself) the file is refused.
//!
//! Every other error the checker reports (a Khronos error the game reads past) has a fix too
//! ([`READ_PAST`]), so that every error a modder sees says what to do.
//!
//! [`crate::validate`] (the checker) and the importer both read this table: the checker to
//! say what the game will do with each issue, the importer to decide which of its own errors
//! drop a part and which refuse the file.

/// How far a fatal issue reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The file is refused, whatever part holds the issue.
    File,
    /// The smallest droppable part that holds the issue is dropped ([`crate::Part`]); the
    /// file is refused when no such part holds it.
    Part,
}

/// One fatal issue code.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// The issue code: Khronos glTF-Validator's, or the project's own (`PROPS_...`).
    pub code: &'static str,
    /// How far it reaches.
    pub scope: Scope,
    /// Why the game cannot load past it, for a person.
    pub why: &'static str,
    /// What a modder does about it, shown after every message of the code (`None`: each
    /// message ends with a fix of its own, for what it found: the measure over its limit, the
    /// extension required).
    pub fix: Option<&'static str>,
}

const fn file(code: &'static str, why: &'static str, fix: &'static str) -> Rule {
    Rule { code, scope: Scope::File, why, fix: Some(fix) }
}

const fn part(code: &'static str, why: &'static str, fix: &'static str) -> Rule {
    Rule { code, scope: Scope::Part, why, fix: Some(fix) }
}

const UNREADABLE_JSON: &str = "the JSON does not say what glTF needs here, so it cannot be read";
const OUT_OF_BOUNDS: &str = "the data lies outside the bytes the file has";
const WRONG_FORMAT: &str = "the data is stored in a format this use cannot be read from";
const BAD_KEYS: &str = "the key times cannot be played: they must start at 0 or later and increase";
const BAD_MESH: &str = "the primitive's attributes do not describe one set of vertices";
const BROKEN_GLB: &str = "the GLB container is broken or truncated";
const BROKEN_IMAGE: &str = "the image cannot be read or decoded";
const BAD_WEIGHTS: &str = "the morph weights do not match the morph targets";

const FIX_EXPORT: &str = "export the model again from its source (Blender: File > Export > glTF 2.0); a converter or \
                          a hand edit wrote it wrongly";
const FIX_JSON: &str = "correct the JSON at this pointer (the glTF 2.0 specification's schema says what it takes), or \
                        export the model again";
const FIX_GLB: &str = "export or download the file again: it was cut short or changed on the way";
const FIX_BOUNDS: &str = "export the model again, or copy its .bin again beside the .gltf it was exported with: the data \
                          and the JSON disagree";
const FIX_FORMAT: &str = "export the model again with glTF's standard formats (the specification's accessor tables \
                          list them per use)";
const FIX_MESH: &str = "export the mesh again (Blender: apply its modifiers first)";
const FIX_CLIP: &str = "bake the clip again (Blender: File > Export > glTF > Animation > Sampling Animations)";
const FIX_WEIGHTS: &str = "list one default weight per morph target (shape key), or leave `weights` out";
const FIX_TREE: &str =
    "export the model again: every node may have one parent at most, and none may be its own ancestor";
const FIX_BIND: &str = "export the armature again with its mesh (Blender: apply its transforms first): one affine inverse bind matrix, \
     MAT4 of floats, per joint";
const FIX_IMAGE: &str = "save the image again as PNG or JPEG and export the model again";

/// Every fatal issue code. A code that is not here loads.
pub const FATAL: &[Rule] = &[
    // Unsafe: refused wherever they are.
    Rule {
        code: "PROPS_LIMIT_EXCEEDED",
        scope: Scope::File,
        why: "over a size, count or budget limit: reading on could exhaust the game's memory or time \
              (an image over one is left out instead: nothing else reads it, `Drops::drop_image`)",
        // `crate::error::limit_fix`, one for each measure.
        fix: None,
    },
    file(
        "PROPS_URI_OUTSIDE_FOLDER",
        "the file reaches outside the model's folder, which a mod may never do",
        "copy the file into the model's own folder (a linked model: into the mods folder) and name it by a relative \
         path, or export a .glb, which holds everything",
    ),
    file(
        "PROPS_POSE_OVERFLOW",
        "some pose carries the model beyond where 32-bit floats hold",
        "check the scales and translations of this node and of the nodes above it, and the morph weights (Blender: \
         Object > Apply > Scale)",
    ),
    // Meaningless where they are, so fatal to the part that holds them, the file refused when
    // no droppable part does (a node's rotation, a skin's matrices).
    part(
        "PROPS_NON_FINITE",
        "NaN or infinity poisons every pose and every draw it reaches",
        "export the model again; in Blender, look for a zero scale or a broken key where the pointer leads",
    ),
    part(
        "ACCESSOR_INVALID_FLOAT",
        "NaN or infinity poisons every pose and every draw it reaches",
        "export the model again; in Blender, look for a zero scale or a broken key where the pointer leads",
    ),
    part(
        "PROPS_TOO_MANY_INFLUENCES",
        "more joint influences per vertex than the renderer draws (a limit)",
        "limit the bones per vertex (Blender: Weights > Limit Total, or File > Export > glTF > Data > Skinning > \
         Bone Influences)",
    ),
    part(
        "ROTATION_NON_UNIT",
        "a rotation far from unit length (a zero quaternion) has no meaning",
        "give the node a unit quaternion (exporters write one: export the model again)",
    ),
    part(
        "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION",
        "a rotation key far from unit length (a zero quaternion) has no meaning",
        FIX_CLIP,
    ),
    part(
        "ACCESSOR_JOINTS_INDEX_OOB",
        "vertices are bound to joints the skin does not have",
        "parent the mesh to its armature again and export them together: its vertex groups name bones the skin lacks",
    ),
    file(
        "PROPS_SKIN_WITHOUT_JOINTS",
        "a skin without joints binds its vertices to nothing",
        "export the armature with the mesh, or remove the skin",
    ),
    // Unreadable: fatal to the part that holds them.
    part(
        "INVALID_JSON",
        UNREADABLE_JSON,
        "export or download the file again; if you edited it, mend the JSON where the message says",
    ),
    part("PROPS_INVALID_GLB", BROKEN_GLB, FIX_GLB),
    part("GLB_INVALID_MAGIC", BROKEN_GLB, FIX_GLB),
    part("GLB_INVALID_VERSION", "only GLB version 2 can be read", "export the model again as glTF 2.0 binary (.glb)"),
    part("GLB_LENGTH_TOO_SMALL", BROKEN_GLB, FIX_GLB),
    part("GLB_LENGTH_MISMATCH", BROKEN_GLB, FIX_GLB),
    part("GLB_UNEXPECTED_END_OF_HEADER", BROKEN_GLB, FIX_GLB),
    part("GLB_UNEXPECTED_END_OF_CHUNK_HEADER", BROKEN_GLB, FIX_GLB),
    part("GLB_UNEXPECTED_END_OF_CHUNK_DATA", BROKEN_GLB, FIX_GLB),
    part("GLB_CHUNK_TOO_BIG", BROKEN_GLB, FIX_GLB),
    part("GLB_UNEXPECTED_FIRST_CHUNK", BROKEN_GLB, FIX_GLB),
    part("GLB_UNEXPECTED_BIN_CHUNK", BROKEN_GLB, FIX_GLB),
    part("GLB_EMPTY_CHUNK", BROKEN_GLB, FIX_GLB),
    part("UNKNOWN_ASSET_MAJOR_VERSION", "only glTF 2.x can be read", "export the model again as glTF 2.0"),
    Rule {
        code: "PROPS_UNSUPPORTED_EXTENSION",
        scope: Scope::Part,
        why: "the file requires an extension that changes what its data means, and the game does not implement it",
        // `crate::document`'s, for the extension required.
        fix: None,
    },
    part(
        "UNRESOLVED_REFERENCE",
        "an index names an object that does not exist",
        "export the model again, or correct the index: it counts from 0 in its array",
    ),
    part("UNDEFINED_PROPERTY", UNREADABLE_JSON, FIX_JSON),
    part("VALUE_NOT_IN_LIST", UNREADABLE_JSON, FIX_JSON),
    part("VALUE_NOT_IN_RANGE", UNREADABLE_JSON, FIX_JSON),
    part("VALUE_MULTIPLE_OF", UNREADABLE_JSON, FIX_JSON),
    part("TYPE_MISMATCH", UNREADABLE_JSON, FIX_JSON),
    part("ARRAY_TYPE_MISMATCH", UNREADABLE_JSON, FIX_JSON),
    part("ARRAY_LENGTH_NOT_IN_LIST", UNREADABLE_JSON, FIX_JSON),
    part("PATTERN_MISMATCH", UNREADABLE_JSON, FIX_JSON),
    part("ONE_OF_MISMATCH", UNREADABLE_JSON, FIX_JSON),
    part("INVALID_INDEX", UNREADABLE_JSON, FIX_JSON),
    part("UNSATISFIED_DEPENDENCY", UNREADABLE_JSON, FIX_JSON),
    part(
        "DUPLICATE_ELEMENTS",
        "a list that must name each object once names one twice",
        "name each object once (export the model again)",
    ),
    part(
        "IO_ERROR",
        "a file the model needs is missing or cannot be read",
        "make every file the model names a regular file the game may read, in the model's folder beside it (or \
         export a .glb, which holds everything)",
    ),
    part(
        "INVALID_URI",
        "a URI cannot be read",
        "write the URI as a relative path (a space as %20) or as a whole base64 data: URI, or export a .glb",
    ),
    part("BUFFER_BYTE_LENGTH_MISMATCH", OUT_OF_BOUNDS, FIX_BOUNDS),
    part("BUFFER_MISSING_GLB_DATA", OUT_OF_BOUNDS, FIX_BOUNDS),
    part("BUFFER_VIEW_TOO_LONG", OUT_OF_BOUNDS, FIX_BOUNDS),
    part("BUFFER_VIEW_TOO_BIG_BYTE_STRIDE", OUT_OF_BOUNDS, FIX_BOUNDS),
    part("ACCESSOR_TOO_LONG", OUT_OF_BOUNDS, FIX_BOUNDS),
    part("ACCESSOR_SMALL_BYTESTRIDE", "elements overlap: the stride is smaller than one element", FIX_EXPORT),
    part("ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE", OUT_OF_BOUNDS, FIX_BOUNDS),
    part("ACCESSOR_SPARSE_INDEX_OOB", OUT_OF_BOUNDS, FIX_BOUNDS),
    part(
        "ACCESSOR_SPARSE_INDICES_NON_INCREASING",
        "sparse indices must increase, or the data is ambiguous",
        FIX_EXPORT,
    ),
    part("ACCESSOR_INDEX_OOB", "an index names a vertex the primitive does not have", FIX_MESH),
    part("ACCESSOR_NORMALIZED_INVALID", WRONG_FORMAT, FIX_FORMAT),
    part("PROPS_ACCESSOR_FORMAT", WRONG_FORMAT, FIX_FORMAT),
    part("MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT", WRONG_FORMAT, FIX_FORMAT),
    part("MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT", WRONG_FORMAT, FIX_FORMAT),
    part(
        "MESH_PRIMITIVE_NO_POSITION",
        "a primitive without positions has nothing to draw",
        "give the primitive a POSITION attribute, or remove it",
    ),
    part("MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT", BAD_MESH, FIX_MESH),
    part("MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH", BAD_MESH, FIX_MESH),
    part("MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT", BAD_MESH, FIX_MESH),
    part(
        "MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT",
        "the mesh's primitives disagree on its morph targets",
        "give every primitive of the mesh the same morph targets (shape keys), or split it into meshes",
    ),
    part("MESH_INVALID_WEIGHTS_COUNT", BAD_WEIGHTS, FIX_WEIGHTS),
    part("NODE_WEIGHTS_INVALID", BAD_WEIGHTS, FIX_WEIGHTS),
    part(
        "NODE_MATRIX_NON_TRS",
        "a node matrix that is not a rotation, scale and translation cannot be animated",
        "give the node a translation, rotation and scale, without shear or projection (Blender: Object > Apply > \
         Rotation & Scale)",
    ),
    part("NODE_LOOP", "the node hierarchy has a cycle", FIX_TREE),
    part(
        "NODE_SKIN_WITH_NON_SKINNED_MESH",
        "a skin on a mesh without joints and weights has nothing to move",
        "remove the node's skin, or export the mesh with its vertex weights (Blender: keep its Armature modifier)",
    ),
    part(
        "NODE_SKINNED_MESH_WITHOUT_SKIN",
        "a mesh with joints and weights on a node without a skin has no joints",
        "export the mesh with its armature (Blender: an Armature modifier naming it), or without its vertex groups",
    ),
    part("NODE_PARENT_OVERRIDE", "a node has two parents", FIX_TREE),
    part("ACCESSOR_INVALID_IBM", "an inverse bind matrix is not affine", FIX_BIND),
    part("INVALID_IBM_ACCESSOR_COUNT", "the skin has not one inverse bind matrix per joint", FIX_BIND),
    part("SKIN_IBM_INVALID_FORMAT", WRONG_FORMAT, FIX_BIND),
    part(
        "ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS",
        "the channel animates morph weights of a node without any",
        "remove the channel, or give the node's mesh the shape keys it animates",
    ),
    part("ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT", WRONG_FORMAT, FIX_CLIP),
    part(
        "ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS",
        "a CUBICSPLINE sampler needs two keys or more",
        "give the sampler two keys or more, or make it LINEAR or STEP",
    ),
    part("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", WRONG_FORMAT, FIX_CLIP),
    part("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", "the sampler has not one value per key", FIX_CLIP),
    part("ACCESSOR_ANIMATION_INPUT_NEGATIVE", BAD_KEYS, FIX_CLIP),
    part("ACCESSOR_ANIMATION_INPUT_NON_INCREASING", BAD_KEYS, FIX_CLIP),
    part(
        "PROPS_ANIMATION_NO_KEYS",
        "a channel without keys cannot be played",
        "remove the channel, or bake the clip again",
    ),
    part(
        "PROPS_ANIMATION_POINTER_INVALID",
        "an animation pointer names nothing the clip can animate",
        "point the channel at a property the file has and the game animates (mods/README.md lists them), or \
         remove it",
    ),
    part(
        "PROPS_DECOMPRESSION",
        "the compressed data cannot be decoded",
        "compress the model again (glTF-Transform: `gltf-transform meshopt` or `draco`), or export it uncompressed",
    ),
    part("IMAGE_DATA_INVALID", BROKEN_IMAGE, FIX_IMAGE),
    part(
        "PROPS_UNSUPPORTED_IMAGE",
        "the image is in a format the game does not decode",
        "convert the image to PNG or JPEG (WebP and KTX2 load too)",
    ),
    part(
        "PROPS_INVALID_MODEL",
        "the parts read do not form a model",
        "report it with the file: the import should have named the problem earlier",
    ),
    part(
        "PROPS_NOTHING_DRAWABLE",
        "every primitive of the model was dropped: nothing is left to draw",
        "fix the errors above: each names the primitive it leaves out",
    ),
];

const FIX_REPACK: &str = "rewrite the file with glTF-Transform (`gltf-transform copy in.glb out.glb`), which lays out \
                          its buffers as glTF asks, or export it again";
const FIX_BOUNDS_META: &str = "export the model again, or rewrite it with glTF-Transform (`gltf-transform copy in.glb out.glb`): both write each \
     accessor's min and max from its data";
const FIX_CAMERA: &str = "nothing, for the game: it does not use the file's cameras (correct or remove the camera for \
                          other viewers)";

/// The fix of every Khronos error the game reads past ([`Issue::fix`](crate::validate::Issue::fix)
/// shows it, as it does a fatal code's): the file loads, and the error is still worth
/// mending for the viewers that read it as the specification says.
pub const READ_PAST: &[(&str, &str)] = &[
    // Played as three.js plays it: the matrix taken apart into translation, rotation and scale
    // (one that cannot be, a scale of zero, drops the clip: `ErrorKind::AnimatedMatrixNode`).
    (
        "ANIMATION_CHANNEL_TARGET_NODE_MATRIX",
        "nothing, for the game: it takes the node's matrix apart into translation, rotation and scale, as three.js \
         does (give the node those instead of a matrix for other viewers: exporters do)",
    ),
    ("ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND", FIX_BOUNDS_META),
    ("ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND", FIX_BOUNDS_META),
    ("ACCESSOR_MAX_MISMATCH", FIX_BOUNDS_META),
    ("ACCESSOR_MIN_MISMATCH", FIX_BOUNDS_META),
    ("MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", FIX_BOUNDS_META),
    ("ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", FIX_BOUNDS_META),
    ("ACCESSOR_OFFSET_ALIGNMENT", FIX_REPACK),
    ("ACCESSOR_TOTAL_OFFSET_ALIGNMENT", FIX_REPACK),
    ("MESH_PRIMITIVE_ACCESSOR_UNALIGNED", FIX_REPACK),
    ("ACCESSOR_USAGE_OVERRIDE", FIX_REPACK),
    ("BUFFER_VIEW_TARGET_OVERRIDE", FIX_REPACK),
    ("BUFFER_VIEW_INVALID_BYTE_STRIDE", FIX_REPACK),
    ("MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE", FIX_REPACK),
    ("MESH_PRIMITIVE_INDICES_ACCESSOR_WITH_BYTESTRIDE", FIX_REPACK),
    ("ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE", FIX_REPACK),
    ("SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE", FIX_REPACK),
    ("GLB_CHUNK_LENGTH_UNALIGNED", FIX_REPACK),
    ("GLB_DUPLICATE_CHUNK", FIX_REPACK),
    (
        "ACCESSOR_INDEX_PRIMITIVE_RESTART",
        "export the mesh again split in parts, or with 32-bit indices: no index may be its type's largest value \
         (65535 for 16-bit ones)",
    ),
    ("ACCESSOR_INVALID_SIGN", "export the tangents again (Blender: File > Export > glTF > Data > Mesh > Tangents)"),
    (
        "ACCESSOR_VECTOR3_NON_UNIT",
        "recalculate the normals (Blender: Mesh > Normals > Recalculate Outside) and export again",
    ),
    ("ACCESSOR_NON_CLAMPED", "keep the vertex colours within 0 to 1 (Blender: clamp the colour attribute)"),
    (
        "ACCESSOR_JOINTS_INDEX_DUPLICATE",
        "clean the vertex groups (Blender: Weights > Clean, then Normalize All) and export again",
    ),
    (
        "ACCESSOR_WEIGHTS_NEGATIVE",
        "clean the vertex groups (Blender: Weights > Clean, then Normalize All) and export again",
    ),
    ("ACCESSOR_WEIGHTS_NON_NORMALIZED", "normalize the weights (Blender: Weights > Normalize All) and export again"),
    (
        "ANIMATION_DUPLICATE_TARGETS",
        "key each property in one channel: bake the clip again (Blender: File > Export > glTF > Animation > \
         Sampling Animations)",
    ),
    ("ASSET_MIN_VERSION_GREATER_THAN_VERSION", "set `asset.minVersion` no higher than `asset.version`, or remove it"),
    (
        "BUFFER_DATA_URI_MIME_TYPE_INVALID",
        "give the buffer's data URI the type `application/octet-stream`, or export a .glb",
    ),
    ("CAMERA_XMAG_YMAG_ZERO", FIX_CAMERA),
    ("CAMERA_ZFAR_LEQUAL_ZNEAR", FIX_CAMERA),
    ("EMPTY_ENTITY", "remove the empty array or object (a recent exporter writes none)"),
    (
        "MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY",
        "number the attribute's sets from 0 without a gap (`TEXCOORD_0`, `TEXCOORD_1`, ...)",
    ),
    ("MESH_PRIMITIVE_INVALID_ATTRIBUTE", "name a custom attribute with a leading underscore (`_NAME`), or remove it"),
    (
        "MESH_PRIMITIVE_MORPH_TARGET_NO_BASE_ACCESSOR",
        "give the primitive the attribute its morph targets move, or remove it from the targets",
    ),
    (
        "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS",
        "export the UV map the material's texture reads (Blender: keep the UV maps the material's nodes name)",
    ),
    ("NODE_MATRIX_TRS", "keep the node's `matrix` or its translation, rotation and scale, and remove the other"),
    ("NON_REQUIRED_EXTENSION", "list the extension in `extensionsRequired` as well as in `extensionsUsed`"),
    ("UNDECLARED_EXTENSION", "list the extension in `extensionsUsed`"),
    ("UNUSED_EXTENSION_REQUIRED", "list the extension in `extensionsUsed` too, or remove it from `extensionsRequired`"),
    ("SCENE_NON_ROOT_NODE", "list only root nodes in the scene: a child is shown with its parent"),
    ("SKIN_NO_COMMON_ROOT", "parent all of the skin's bones under one root bone (Blender: one armature)"),
    ("SKIN_SKELETON_INVALID", "set the skin's `skeleton` to the common root of its joints, or remove it"),
    (
        "TEXTURE_INVALID_IMAGE_MIME_TYPE",
        "save the image as PNG or JPEG, or name its extension (`EXT_texture_webp`, `KHR_texture_basisu`) on the \
         texture",
    ),
];

/// The rule for `code`, when it is fatal.
#[must_use]
pub fn rule(code: &str) -> Option<&'static Rule> {
    FATAL.iter().find(|rule| rule.code == code)
}

/// What a modder does about an error of `code`: a fatal code's fix, where its messages do not
/// each end with a fix of their own ([`Rule::fix`]), or a Khronos error's the game reads past
/// ([`READ_PAST`]).
#[must_use]
pub fn fix(code: &str) -> Option<&'static str> {
    match rule(code) {
        Some(rule) => rule.fix,
        None => READ_PAST.iter().find(|(read, _)| *read == code).map(|(_, fix)| *fix),
    }
}

/// How far an issue of `code` reaches, when it is fatal.
#[must_use]
pub fn scope(code: &str) -> Option<Scope> {
    rule(code).map(|rule| rule.scope)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_listed_once_with_why() {
        for (i, rule) in FATAL.iter().enumerate() {
            assert!(!rule.why.is_empty(), "{}", rule.code);
            assert!(rule.fix.is_none_or(|fix| !fix.is_empty() && !fix.ends_with('.')), "{}", rule.code);
            assert!(rule.code.chars().all(|c| c.is_ascii_uppercase() || c == '_'), "{}", rule.code);
            assert!(FATAL[..i].iter().all(|earlier| earlier.code != rule.code), "{} twice", rule.code);
        }
        let own: Vec<&str> = FATAL.iter().filter(|rule| rule.fix.is_none()).map(|rule| rule.code).collect();
        assert_eq!(own, ["PROPS_LIMIT_EXCEEDED", "PROPS_UNSUPPORTED_EXTENSION"], "each message names its fix");
        assert_eq!(scope("PROPS_LIMIT_EXCEEDED"), Some(Scope::File));
        assert_eq!(scope("ACCESSOR_ANIMATION_INPUT_NON_INCREASING"), Some(Scope::Part));
        assert_eq!(scope("ANIMATION_DUPLICATE_TARGETS"), None, "resolved as three.js does");
        assert_eq!(scope("SCENE_NON_ROOT_NODE"), None);
        assert_eq!(scope("EMPTY_ENTITY"), None, "an empty array is read as absent");
        for (i, (code, fix)) in READ_PAST.iter().enumerate() {
            assert!(rule(code).is_none(), "{code} is read past, not fatal");
            assert!(!fix.is_empty() && !fix.ends_with('.'), "{code}");
            assert!(READ_PAST[..i].iter().all(|(earlier, _)| earlier != code), "{code} twice");
        }
        assert_eq!(fix("EMPTY_ENTITY"), Some("remove the empty array or object (a recent exporter writes none)"));
    }

    /// The modders' guide lists every code that refuses a file wherever it is, and no other.
    #[test]
    fn the_guide_lists_the_codes_that_refuse() {
        let guide =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../mods/README.md")).expect("guide");
        let table = guide.split("because\nthe file cannot be read safely past them:").nth(1).expect("the table");
        let table = table.split("\n\n").nth(1).expect("its rows");
        let listed: Vec<&str> = table.lines().skip(2).filter_map(|row| row.split('`').nth(1)).collect();
        let refusing: Vec<&str> = FATAL.iter().filter(|r| r.scope == Scope::File).map(|r| r.code).collect();
        assert_eq!(listed, refusing);
        // Each with the fix its messages show.
        for row in table.lines().skip(2) {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let code = cells[1].trim_matches('`');
            if let Some(fix) = fix(code) {
                assert_eq!(cells[3], fix, "{code}");
            }
        }
    }
}
