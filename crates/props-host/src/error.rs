//! Why a model the host loads is not shown.

use props_crowd::{BindError, CrowdError};
use props_gltf::gate::Refused;
use props_render::ModelRefused;

use crate::shelf::AddError;

/// Why [`crate::PropHost::load_file`] (or `load_slice`) shows nothing.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The gate refused the file: its report says what, where and the fix.
    #[error("{0}")]
    Refused(Refused),
    /// The GPU cannot take the model (its limits, or the upload failed).
    #[error("the GPU cannot take the model: {0}")]
    Gpu(#[from] ModelRefused),
    /// The model lacks a clip or node the host animates.
    #[error("the model cannot be animated as asked: {0}")]
    Bind(#[from] BindError),
    /// A model of that name is loaded already (mods replace models by name).
    #[error("a model named `{0}` is loaded already")]
    Duplicate(String),
}

impl From<AddError<BindError>> for LoadError {
    fn from(error: AddError<BindError>) -> Self {
        match error {
            AddError::Duplicate(name) => Self::Duplicate(name),
            AddError::Gpu(refused) => Self::Gpu(refused),
            AddError::Bind(error) => Self::Bind(error),
        }
    }
}

/// Why [`crate::PropHost::new`] fails.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The posing configuration is out of range, or the worker threads did not start.
    #[error(transparent)]
    Posing(#[from] CrowdError),
}
