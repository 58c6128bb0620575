//! The casters of each shadow cascade. A cascade's map covers tens to hundreds of metres, so
//! per cascade the frame's instances whose reach overlaps its map are copied into one buffer
//! and its pass draws only them (skipping runs with none): a prop beyond the shadows' reach
//! casts into no map. (Skipping instances in the vertex shader instead made lavapipe's shadow
//! pipelines twice as slow and 300 MB larger. Drawing every instance into the farthest map,
//! as before, drew the whole city seen from afar into it: 1.8 M triangles of 3.7 M.)

use std::ops::Range;

use glam::{Mat4, Vec3, Vec4Swizzles};
use props_frame::{InstanceData, ModelId};

use crate::growable_buffer::GrowableBuffer;
use crate::palette_windows::Run;
use crate::shadows::{CASCADES, Cascade};

/// The picked casters of this frame and where each cascade's and run's lie.
pub(crate) struct ShadowCasters {
    buffer: GrowableBuffer,
    scratch: Vec<InstanceData>,
    /// Per run, per cascade: the range of the buffer holding its casters.
    ranges: Vec<[Range<u32>; CASCADES]>,
}

/// Whether an instance placed by `transform` and reaching `reach` metres from its origin can
/// cast into the map of `view_proj` (the sun's orthographic view-projection onto a map of
/// `radius` metres).
fn overlaps(view_proj: Mat4, radius: f32, transform: &props_anim::JointMatrix, reach: f32) -> bool {
    let [r0, r1, r2] = transform.rows.map(glam::Vec4::from_array);
    // The matrix's Frobenius norm: at least its largest scale.
    let scale = (r0.xyz().length_squared() + r1.xyz().length_squared() + r2.xyz().length_squared()).sqrt();
    let clip = view_proj.project_point3(Vec3::new(r0.w, r1.w, r2.w));
    let margin = 1.0 + reach * scale / radius;
    !(clip.x.abs() > margin || clip.y.abs() > margin)
}

impl ShadowCasters {
    pub(crate) fn new(device: &wgpu::Device) -> Self {
        Self {
            buffer: GrowableBuffer::new(device, "shadow casters", wgpu::BufferUsages::VERTEX),
            scratch: Vec::new(),
            ranges: Vec::new(),
        }
    }

    /// Picks the casters of each cascade of `cascades` among `instances`, run by run of
    /// `runs` (`reach`: each model's, `None` for a model not on the GPU), and uploads them.
    /// Returns the bytes uploaded.
    pub(crate) fn prepare(
        &mut self,
        (device, queue): (&wgpu::Device, &wgpu::Queue),
        cascades: &[Cascade; CASCADES],
        (instances, runs): (&[InstanceData], &[(ModelId, Run)]),
        reach: impl Fn(ModelId) -> Option<f32>,
    ) -> u64 {
        self.scratch.clear();
        self.ranges.clear();
        self.ranges.resize(runs.len(), std::array::from_fn(|_| 0..0));
        for (k, cascade) in cascades.iter().enumerate() {
            for ((id, run), ranges) in runs.iter().zip(&mut self.ranges) {
                let start = self.scratch.len() as u32;
                if let Some(reach) = reach(*id) {
                    let run_instances = instances.get(run.instances.start as usize..run.instances.end as usize);
                    self.scratch.extend(
                        run_instances
                            .into_iter()
                            .flatten()
                            .filter(|instance| overlaps(cascade.view_proj, cascade.radius, &instance.transform, reach)),
                    );
                }
                ranges[k] = start..self.scratch.len() as u32;
            }
        }
        self.buffer.write(device, queue, bytemuck::cast_slice(&self.scratch));
        size_of_val(self.scratch.as_slice()) as u64
    }

    /// The buffer the picked casters are in (an instance buffer).
    pub(crate) fn buffer(&self) -> &wgpu::Buffer {
        self.buffer.buffer()
    }

    /// Where run `run`'s casters into cascade `cascade` are in [`ShadowCasters::buffer`]
    /// (none for a run or cascade it has not picked).
    pub(crate) fn range(&self, cascade: usize, run: usize) -> Range<u32> {
        self.ranges.get(run).and_then(|ranges| ranges.get(cascade)).cloned().unwrap_or(0..0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Affine3A;

    /// An instance inside the map casts; one outside it by more than its reach does not; one
    /// outside by less than its (scaled) reach does.
    #[test]
    fn casters_are_the_instances_reaching_into_the_map() {
        let view_proj = glam::camera::rh::proj::directx::orthographic(-10.0, 10.0, -10.0, 10.0, 0.0, 100.0)
            * glam::camera::rh::view::look_to_mat4(Vec3::new(0.0, 50.0, 0.0), Vec3::NEG_Y, Vec3::Z);
        let at = |x: f32, scale: f32| {
            InstanceData::new(
                &Affine3A::from_scale_rotation_translation(
                    Vec3::splat(scale),
                    glam::Quat::IDENTITY,
                    Vec3::new(x, 0.0, 0.0),
                ),
                0,
            )
            .transform
        };
        assert!(overlaps(view_proj, 10.0, &at(0.0, 1.0), 1.0), "inside");
        // Reaches are widened by the matrix's norm, sqrt(3) times a uniform scale.
        assert!(!overlaps(view_proj, 10.0, &at(15.0, 1.0), 2.0), "5 m outside, reaching 3.5 m");
        assert!(overlaps(view_proj, 10.0, &at(15.0, 2.0), 2.0), "5 m outside, reaching 6.9 m at twice the size");
        assert!(overlaps(view_proj, 10.0, &at(11.5, 1.0), 2.0), "1.5 m outside, reaching 2 m");
    }
}
