//! The issue code of every import error: Khronos glTF-Validator's where one exists, else the
//! project's own (`PROPS_...`). The importer reads it to apply the rule table
//! ([`crate::rules`]); the checker reports it ([`crate::validate::importer`]); an import error
//! displays the table's fix for it.

use std::fmt;

use props_anim::{RigError, SkinError, clip::ClipError};

use crate::error::{ErrorKind, ImportError};
use crate::rules;

/// `{file}: {json_path}: {kind}`, then `; {fix}` where the rule table has a fix for its code.
impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.file.display(), self.json_path, self.kind)?;
        match rules::fix(code(&self.kind)) {
            Some(fix) => write!(f, "; {fix}"),
            None => Ok(()),
        }
    }
}

/// A size or count over a [`crate::Limits`] bound.
pub const LIMIT_EXCEEDED: &str = "PROPS_LIMIT_EXCEEDED";
/// A URI that leads out of the model's folder, or uses a scheme other than `data:`.
pub const URI_OUTSIDE_FOLDER: &str = "PROPS_URI_OUTSIDE_FOLDER";
/// More joint influences per vertex than the limit (64).
pub const TOO_MANY_INFLUENCES: &str = "PROPS_TOO_MANY_INFLUENCES";
/// A number that is NaN or infinite as a 32-bit float.
pub const NON_FINITE: &str = "PROPS_NON_FINITE";
/// A required extension the game does not implement.
pub const UNSUPPORTED_EXTENSION: &str = "PROPS_UNSUPPORTED_EXTENSION";
/// A model some pose of which could overflow 32-bit floats.
pub const POSE_OVERFLOW: &str = "PROPS_POSE_OVERFLOW";
/// A model all of whose drawn primitives were left out.
pub const NOTHING_DRAWABLE: &str = "PROPS_NOTHING_DRAWABLE";
/// A `KHR_animation_pointer` pointer that is malformed or names nothing in the file.
pub const ANIMATION_POINTER_INVALID: &str = "PROPS_ANIMATION_POINTER_INVALID";
/// A skin whose `joints` is empty.
pub const SKIN_WITHOUT_JOINTS: &str = "PROPS_SKIN_WITHOUT_JOINTS";
/// Something the importer ignored or repaired (an import warning).
pub const IGNORED: &str = "PROPS_IGNORED";

/// The issue code of an error kind.
pub(crate) fn code(kind: &ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Io { .. } | ErrorKind::MissingFile { .. } => "IO_ERROR",
        ErrorKind::LimitExceeded { .. } | ErrorKind::ImageTooLarge { .. } | ErrorKind::ValueTooLarge => LIMIT_EXCEEDED,
        ErrorKind::InvalidGlb { .. } => "PROPS_INVALID_GLB",
        ErrorKind::Json { .. } => "INVALID_JSON",
        ErrorKind::UnsupportedVersion { .. } => "UNKNOWN_ASSET_MAJOR_VERSION",
        ErrorKind::InvalidIndex => "UNRESOLVED_REFERENCE",
        ErrorKind::MissingProperty => "UNDEFINED_PROPERTY",
        ErrorKind::InvalidValue => "VALUE_NOT_IN_LIST",
        ErrorKind::UnsupportedExtension { .. } => UNSUPPORTED_EXTENSION,
        ErrorKind::UriRefused { .. } => URI_OUTSIDE_FOLDER,
        ErrorKind::InvalidDataUri { .. } => "INVALID_URI",
        ErrorKind::MissingBufferData => "BUFFER_MISSING_GLB_DATA",
        ErrorKind::BufferTooShort { .. } => "BUFFER_BYTE_LENGTH_MISMATCH",
        ErrorKind::ViewOutOfBounds { .. } => "BUFFER_VIEW_TOO_LONG",
        ErrorKind::AccessorOutOfBounds { .. } => "ACCESSOR_TOO_LONG",
        ErrorKind::StrideTooSmall { .. } => "ACCESSOR_SMALL_BYTESTRIDE",
        ErrorKind::SparseIndexOutOfRange { .. } => "ACCESSOR_SPARSE_INDEX_OOB",
        ErrorKind::SparseIndexNotIncreasing { .. } => "ACCESSOR_SPARSE_INDICES_NON_INCREASING",
        ErrorKind::WrongAccessorFormat { .. } => "PROPS_ACCESSOR_FORMAT",
        ErrorKind::NonFinite { .. } => NON_FINITE,
        ErrorKind::AttributeCountMismatch { .. } => "MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT",
        ErrorKind::VertexIndexOutOfRange { .. } => "ACCESSOR_INDEX_OOB",
        ErrorKind::TooManyInfluences { .. } => TOO_MANY_INFLUENCES,
        ErrorKind::UnpairedInfluences { .. } => "MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH",
        ErrorKind::JointOutOfRange { .. } => "ACCESSOR_JOINTS_INDEX_OOB",
        ErrorKind::MorphTargetCountMismatch { .. } => "MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT",
        ErrorKind::MorphWeightCount { .. } => "MESH_INVALID_WEIGHTS_COUNT",
        ErrorKind::NodeMatrixNotAffine { .. } => "NODE_MATRIX_NON_TRS",
        ErrorKind::InverseBindNotAffine { .. } => "ACCESSOR_INVALID_IBM",
        ErrorKind::Rig(error) => rig_code(error),
        ErrorKind::Skin(error) => skin_code(error),
        ErrorKind::Clip(error) => clip_code(error),
        ErrorKind::AnimatedMatrixNode { .. } => "NODE_MATRIX_NON_TRS",
        ErrorKind::InvalidPointer { .. } => ANIMATION_POINTER_INVALID,
        ErrorKind::UnsupportedImageFormat { .. } => "PROPS_UNSUPPORTED_IMAGE",
        ErrorKind::ImageDecode { .. } => "IMAGE_DATA_INVALID",
        ErrorKind::PoseOverflow { .. } => POSE_OVERFLOW,
        ErrorKind::Model(_) => "PROPS_INVALID_MODEL",
        ErrorKind::NothingDrawable => NOTHING_DRAWABLE,
        ErrorKind::Decompression { .. } => "PROPS_DECOMPRESSION",
    }
}

fn rig_code(error: &RigError) -> &'static str {
    match error {
        RigError::ChildOutOfRange { .. } => "UNRESOLVED_REFERENCE",
        RigError::MultipleParents { .. } => "NODE_PARENT_OVERRIDE",
        RigError::Cycle { .. } => "NODE_LOOP",
        RigError::TooManyNodes { .. } => LIMIT_EXCEEDED,
    }
}

fn skin_code(error: &SkinError) -> &'static str {
    match error {
        SkinError::NoJoints => SKIN_WITHOUT_JOINTS,
        SkinError::JointOutOfRange { .. } => "UNRESOLVED_REFERENCE",
        SkinError::DuplicateJoint { .. } => "DUPLICATE_ELEMENTS",
        SkinError::InverseBindCount { .. } => "INVALID_IBM_ACCESSOR_COUNT",
        SkinError::NonFiniteInverseBind { .. } => NON_FINITE,
    }
}

fn clip_code(error: &ClipError) -> &'static str {
    match error {
        ClipError::NoKeys => "PROPS_ANIMATION_NO_KEYS",
        ClipError::NonFiniteTime { .. } | ClipError::NonFiniteValue { .. } => NON_FINITE,
        ClipError::NonIncreasingTime { .. } => "ACCESSOR_ANIMATION_INPUT_NON_INCREASING",
        ClipError::NegativeTime { .. } => "ACCESSOR_ANIMATION_INPUT_NEGATIVE",
        ClipError::ValueCount { .. } => "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT",
        ClipError::NodeOutOfRange { .. } => "UNRESOLVED_REFERENCE",
        ClipError::MatrixNode { .. } => "NODE_MATRIX_NON_TRS",
        ClipError::DuplicateTarget { .. } => "ANIMATION_DUPLICATE_TARGETS",
        ClipError::MorphWidth { expected: 0, .. } => "ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS",
        ClipError::MorphWidth { .. } => "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT",
        ClipError::PropertyOutOfRange { .. } => ANIMATION_POINTER_INVALID,
        ClipError::PropertyWidth { .. } => "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT",
    }
}
