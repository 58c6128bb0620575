//! [`CrowdStats`]: what a [`crate::runtime::Crowd`]'s last frame did.

/// What the last [`crate::runtime::Crowd::update`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CrowdStats {
    /// Instances in the crowd.
    pub instances: usize,
    /// Instances in view (listed by [`crate::runtime::Crowd::visible`]).
    pub visible: usize,
    /// Instances in view but not due this frame: drawn with their last pose.
    pub deferred: usize,
    /// States evaluated (instances posed, or distinct shared keys).
    pub posed: usize,
    /// Palettes written into the buffer (posed states rounded up to whole batches, plus the
    /// last poses of deferred unshared instances).
    pub palettes: usize,
}
