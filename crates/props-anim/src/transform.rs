//! Local transforms of rig nodes.

use glam::{Affine3A, Quat, Vec3};

/// A translation, rotation, scale triple, composed as `T * R * S` like glTF.
///
/// The rotation is used as stored: glTF asks for unit quaternions but does not require
/// renormalizing them, so neither does this type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// Translation.
    pub translation: Vec3,
    /// Rotation quaternion (x, y, z, w).
    pub rotation: Quat,
    /// Non-uniform scale.
    pub scale: Vec3,
}

impl Transform {
    /// The identity transform.
    pub const IDENTITY: Self = Self { translation: Vec3::ZERO, rotation: Quat::IDENTITY, scale: Vec3::ONE };

    /// A transform with only a translation.
    #[must_use]
    pub fn from_translation(translation: Vec3) -> Self {
        Self { translation, ..Self::IDENTITY }
    }

    /// A transform with only a rotation.
    #[must_use]
    pub fn from_rotation(rotation: Quat) -> Self {
        Self { rotation, ..Self::IDENTITY }
    }

    /// The affine matrix `T * R * S`.
    #[must_use]
    pub fn to_affine(&self) -> Affine3A {
        Affine3A::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

/// The rest (bind-time, unanimated) local transform of a rig node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RestTransform {
    /// Translation, rotation and scale: the node can be animated.
    Trs(Transform),
    /// A fixed affine matrix (glTF `matrix`, possibly with shear): animation cannot target it,
    /// but a procedural override replaces it for a frame.
    Matrix(Affine3A),
}

impl RestTransform {
    /// The rest local matrix.
    #[must_use]
    pub fn to_affine(&self) -> Affine3A {
        match self {
            Self::Trs(trs) => trs.to_affine(),
            Self::Matrix(matrix) => *matrix,
        }
    }

    /// The TRS form, or `None` for a fixed matrix.
    #[must_use]
    pub fn as_trs(&self) -> Option<&Transform> {
        match self {
            Self::Trs(trs) => Some(trs),
            Self::Matrix(_) => None,
        }
    }
}
