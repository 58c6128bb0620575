//! Why a crowd cannot take a model ([`BindError`]: a name that does not bind) or pose as
//! configured ([`CrowdError`]).

/// Why a model cannot be animated as asked: a node, clip, morph target or material value it is
/// asked to animate by name is not in it, or not animatable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BindError {
    /// A clip played by name is not in the model.
    #[error("the model has no animation clip named `{0}`: export it, or stop playing it")]
    MissingClip(String),
    /// A node driven by name is not in the model (`prefix*`: no node starts with the prefix).
    #[error("the model has no node named `{0}`, which is driven: name the node so, or drive another")]
    MissingNode(String),
    /// A driven node has a matrix instead of translation, rotation and scale.
    #[error("the model's node `{0}` has a fixed matrix: a driven node needs translation, rotation and scale")]
    MatrixNode(String),
    /// A new version of a model animated with every clip has no clip under a number its
    /// instances play.
    #[error(
        "the model has {has} animation clips and its instances play clip number {played} of the version it replaces"
    )]
    FewerClips {
        /// A clip number played.
        played: usize,
        /// Clips of the new version.
        has: usize,
    },
    /// A morph weight set directly is not on the node.
    #[error("the model's node `{node}` has no morph target {target}: it has {has}")]
    MissingMorphTarget {
        /// The node.
        node: String,
        /// The target asked for.
        target: usize,
        /// Targets it has.
        has: usize,
    },
    /// A material value set directly is not one the model's clips animate, or the material
    /// is not there.
    #[error(
        "the model's material `{0}` has no such value animated by a clip; only values a clip animates \
         (KHR_animation_pointer) are carried per instance: animate it in the model, or set another"
    )]
    NotAnimated(String),
    /// A model lacking clips it plays cannot take them from the model [`crate::Animates::clips_from`]
    /// names (that model is not in the set, or either skeleton is no walking person's).
    #[error(
        "the model's clips `{clips}` cannot be taken from {source_model}: {reason} (export them, or name its bones as \
         Mixamo, Blender's metarig, Rigify, VRM or Unreal do)"
    )]
    Retarget {
        /// The clips it lacks.
        clips: String,
        /// The model they would come from.
        source_model: String,
        /// Why not.
        reason: String,
    },
    /// A driver's axis is not a unit vector, or an instance would have no layer.
    #[error("a driver's axis must be a unit vector and an instance needs at least one layer")]
    Invalid,
}

/// Why crowds cannot pose as a [`crate::PosingConfig`] asks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CrowdError {
    /// A configuration value is out of range.
    #[error("posing configuration: `{field}` {reason}")]
    InvalidConfig {
        /// The field of [`crate::PosingConfig`].
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The worker threads could not start.
    #[error("the worker threads posing props could not start: {0}")]
    Workers(String),
}
