//! Why a scene cannot be built: a model lacks what the scene drives, or the configuration is
//! out of range.

use props_crowd::{BindError, CrowdError};

/// An error building or changing a [`crate::Scene`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SceneError {
    /// A kind's model lacks a node or clip the kind drives, or a driven node is not
    /// animatable.
    #[error(
        "the {model} model: {error} (a mod names its own nodes and clips for what the town drives in its sidecar, \
         `<name>.prop.toml`: `[nodes]`, `[clips]`, `[humanoid]`; see mods/README.md)"
    )]
    Bind {
        /// Which prop (`windmill`, `car`, `traffic light`, `animal`).
        model: &'static str,
        /// What does not bind.
        error: BindError,
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
    /// More vehicles were asked for than the road network holds at its spawn spacing.
    #[error("{requested} vehicles do not fit on the road network (at most {capacity})")]
    TooManyVehicles {
        /// Vehicles asked for (the cars').
        requested: usize,
        /// Vehicles that fit.
        capacity: usize,
    },
    /// More props of a kind than it takes ([`crate::PropKind::set_count`]).
    #[error("{requested} {kind} is more than the {max} they take")]
    TooMany {
        /// The kind's name.
        kind: &'static str,
        /// Props asked for.
        requested: usize,
        /// The most it takes.
        max: usize,
    },
    /// A number of props was asked of a kind whose props the town places itself.
    #[error("the {0} are placed by the town: their number cannot be set")]
    Uncounted(&'static str),
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
    /// The posing configuration is out of range, or its worker threads could not start.
    #[error(transparent)]
    Posing(#[from] CrowdError),
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
    /// A person without a walk of its own whose rig the base person's clips cannot be
    /// retargeted to.
    #[error("the pedestrian model has no clip `Walk`, and the base person's clips cannot be given to it: {0}")]
    Retarget(String),
    /// A person whose walk shows no stride: it would glide.
    #[error(
        "the pedestrian model's walk (`{clip}`) shows no stride: no foot of its skinned body is planted and moves, so \
         it would glide (export a walk whose feet step, or skin its body to its bones; or give it another role, as \
         `role = \"ambient\"` in its sidecar)"
    )]
    NoStride {
        /// The walk's clip.
        clip: String,
    },
}

impl SceneError {
    /// Names the model a [`BindError`] is about (`windmill`): for a kind's
    /// [`crate::PropKind::bind`], `bindings.nodes(..).map_err(SceneError::of_model("windmill"))`.
    pub fn of_model(model: &'static str) -> impl Fn(BindError) -> Self {
        move |error| Self::Bind { model, error }
    }
}
