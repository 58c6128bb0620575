//! Why a scene cannot be built: a model lacks what the scene drives, or the configuration is
//! out of range.

/// An error building or changing a [`crate::Scene`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SceneError {
    /// A model lacks a node the scene drives procedurally.
    #[error("the {model} model has no node named `{node}`")]
    MissingNode {
        /// Which prop (`windmill`, `car`, `traffic light`, `fox`).
        model: &'static str,
        /// The node name looked up (`prefix*` for a naming convention).
        node: String,
    },
    /// A model lacks a clip the scene plays.
    #[error("the {model} model has no animation clip named `{clip}`")]
    MissingClip {
        /// Which prop.
        model: &'static str,
        /// The clip name looked up.
        clip: String,
    },
    /// A node the scene overrides has a fixed `matrix` rest transform, so its rest translation
    /// and rotation cannot be kept while rotating it.
    #[error("the {model} model's node `{node}` has a fixed matrix; the scene needs translation/rotation/scale")]
    MatrixNode {
        /// Which prop.
        model: &'static str,
        /// The node name.
        node: String,
    },
    /// A car needs exactly two steering pivots (left and right).
    #[error("the car model has {found} steering pivots (nodes `steer_*`, or bound as `steer`); it needs two")]
    SteerPivots {
        /// How many were found.
        found: usize,
    },
    /// A configuration value is out of range.
    #[error("scene configuration: `{field}` {reason}")]
    InvalidConfig {
        /// The field of [`crate::SceneConfig`].
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// More cars were asked for than the road network holds at its spawn spacing.
    #[error("{requested} cars do not fit on the road network (at most {capacity})")]
    TooManyCars {
        /// Cars asked for.
        requested: usize,
        /// Cars that fit.
        capacity: usize,
    },
    /// More windmills than [`crate::config::MAX_WINDMILLS`].
    #[error("{requested} windmills is more than the maximum of {max}")]
    TooManyWindmills {
        /// Windmills asked for, in all.
        requested: usize,
        /// The maximum.
        max: usize,
    },
    /// `Cars::spawn_at` was given a place that is not on a lane or too close to
    /// another car.
    #[error("no room for a car on lane {lane} at {position} m: {reason}")]
    NoRoomForCar {
        /// The lane index.
        lane: u32,
        /// Position along the lane, metres.
        position: f32,
        /// Why.
        reason: &'static str,
    },
    /// The worker threads posing props could not start.
    #[error("the scene's worker threads could not start: {0}")]
    Workers(String),
    /// An intersection index out of range.
    #[error("intersection {0} does not exist")]
    NoSuchIntersection(u32),
    /// A prop kind was given another number of models than it shows.
    #[error("the {kind} take {expected} model(s), not {found}")]
    ModelCount {
        /// The kind's name.
        kind: &'static str,
        /// Models it takes.
        expected: &'static str,
        /// Models given.
        found: usize,
    },
    /// A prop kind of this name is registered already.
    #[error("a prop kind named `{0}` is registered already")]
    DuplicateKind(&'static str),
    /// No registered prop kind has this name.
    #[error("no prop kind named `{0}` is registered")]
    NoSuchKind(String),
    /// The town's ground could not be made into a model.
    #[error("the town's ground: {0}")]
    Ground(String),
}
