//! The casters of each shadow cascade. Per cascade, the frame's instances that can shadow a
//! point of its slice of the view (`shadow_footprint.rs`) are copied into one buffer and its
//! pass draws only them (skipping runs with none): a prop beyond the shadows' reach, or whose
//! shadow falls outside the slice, casts into no map. (Skipping instances in the vertex
//! shader instead made lavapipe's shadow pipelines twice as slow and 300 MB larger. Drawing
//! every instance into the farthest map, as before, drew the whole city seen from afar into
//! it: 1.8 M triangles of 3.7 M.) A cascade no caster reaches has no pass at all, not even its
//! clear: the shaders read it as lit (`shaders/shadows.wgsl`), as its cleared map would be.

use std::ops::Range;

use props_frame::{InstanceData, ModelId};

use crate::growable_buffer::GrowableBuffer;
use crate::palette_windows::Run;
use crate::shadow_footprint::Footprint;
use crate::shadows::{CASCADES, Cascade};

/// The picked casters of this frame and where each cascade's and run's lie.
pub(crate) struct ShadowCasters {
    buffer: GrowableBuffer,
    scratch: Vec<InstanceData>,
    /// Per run, per cascade: the range of the buffer holding its casters.
    ranges: Vec<[Range<u32>; CASCADES]>,
    /// The cascades some caster reaches, a bit each (bit `k`: cascade `k`).
    reached: u32,
}

impl ShadowCasters {
    pub(crate) fn new(device: &wgpu::Device) -> Self {
        Self {
            buffer: GrowableBuffer::new(device, "shadow casters", wgpu::BufferUsages::VERTEX),
            scratch: Vec::new(),
            ranges: Vec::new(),
            reached: 0,
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
            let footprint = Footprint::new(cascade);
            for ((id, run), ranges) in runs.iter().zip(&mut self.ranges) {
                let start = self.scratch.len() as u32;
                if let Some(reach) = reach(*id) {
                    let run_instances = instances.get(run.instances.start as usize..run.instances.end as usize);
                    self.scratch.extend(
                        run_instances
                            .into_iter()
                            .flatten()
                            .filter(|instance| footprint.reached_by(&instance.transform, reach)),
                    );
                }
                ranges[k] = start..self.scratch.len() as u32;
            }
        }
        self.reached =
            (0..CASCADES).filter(|&k| self.ranges.iter().any(|r| !r[k].is_empty())).fold(0, |m, k| m | 1 << k);
        self.buffer.write(device, queue, bytemuck::cast_slice(&self.scratch));
        size_of_val(self.scratch.as_slice()) as u64
    }

    /// The cascades some caster reaches, a bit each (bit `k`: cascade `k`): those whose maps
    /// are drawn.
    pub(crate) fn reached(&self) -> u32 {
        self.reached
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
