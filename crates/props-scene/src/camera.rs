//! [`SceneCamera`]: where the frame is seen from, for culling and update-rate LOD.

use glam::{Mat4, Vec3};

/// The camera of the next frames ([`crate::Scene::set_camera`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SceneCamera {
    /// The eye, world space (update-rate LOD measures distances from it).
    pub eye: Vec3,
    /// Projection times view, wgpu's 0..1 depth (what is outside it is not posed or drawn).
    pub view_projection: Mat4,
}
