//! How a device binds a material's texture slots (group 2 of `shaders/shading.wgsl`): each of
//! the first ones a texture, most of them their own sampler, the rest of them one sampler
//! together, where the device allows fewer samplers than textures a stage (Metal allows 16:
//! beside the frame's three, a sampler for each of the eighteen slots would not fit, though
//! their textures do).

use props_anim::material::{Material, Sampler, TEXTURE_SLOTS};

/// Which of a material's texture slots a device binds, and how: slot `k` below `textures`
/// has its texture at binding `1 + 2k`; below `samplers` too its own sampler at `2 + 2k`; the
/// slots from `samplers` to `textures` share the sampler at `2 + 2 * samplers`, the state of
/// the first of them a material fills (a file nearly always samples every texture alike).
/// Slots past `textures` are not sampled: they read white, a missing texture's texel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotBindings {
    /// How many slots, the first ones, have a texture bound.
    pub textures: usize,
    /// How many of those, the first ones, have their own sampler (at most `textures`).
    pub samplers: usize,
}

impl SlotBindings {
    /// Every slot with its texture and its own sampler.
    pub const ALL: Self = Self { textures: TEXTURE_SLOTS, samplers: TEXTURE_SLOTS };

    /// The bindings a device of `limits` on `backend` has room for beside `others`, the
    /// entries of the pipelines' other groups: as many slots' textures as fit (at least nine
    /// under wgpu's least limits of 16 sampled textures and 16 samplers a stage), each with its
    /// own sampler where those fit too, else all but one of the samplers that fit own theirs
    /// and the rest share it. A limit holds for the fragment stage's bindings, and on OpenGL
    /// (WebGL2 among them) for a pipeline's in every stage: wgpu's GL backend numbers them all
    /// in one table of 16 textures and one of 16 samplers.
    pub(crate) fn for_device(
        limits: &wgpu::Limits,
        backend: wgpu::Backend,
        others: &[&[wgpu::BindGroupLayoutEntry]],
    ) -> Self {
        let counted = |e: &&wgpu::BindGroupLayoutEntry| {
            backend == wgpu::Backend::Gl || e.visibility.contains(wgpu::ShaderStages::FRAGMENT)
        };
        let taken = |is: fn(&wgpu::BindingType) -> bool| {
            others.iter().flat_map(|group| group.iter()).filter(counted).filter(|e| is(&e.ty)).count()
        };
        let room = |limit: u32, others: usize| (limit as usize).saturating_sub(others);
        let textures = room(
            limits.max_sampled_textures_per_shader_stage,
            taken(|ty| matches!(ty, wgpu::BindingType::Texture { .. })),
        )
        .min(TEXTURE_SLOTS);
        let samplers =
            room(limits.max_samplers_per_shader_stage, taken(|ty| matches!(ty, wgpu::BindingType::Sampler(_))));
        Self { textures, samplers: if samplers >= textures { textures } else { samplers.saturating_sub(1) } }
    }

    /// Whether some slots share a sampler.
    pub(crate) fn shares(self) -> bool {
        self.samplers < self.textures
    }

    /// The binding of the sampler slot `slot` (below `textures`) samples with.
    pub(crate) fn sampler_binding(self, slot: usize) -> u32 {
        2 + 2 * slot.min(self.samplers) as u32
    }

    /// The sampler state `material`'s sharing slots are bound with (`None` where it fills none
    /// of them), and those of its filled sharing slots that the file samples otherwise, which
    /// are drawn with it all the same.
    pub(crate) fn shared_sampler(self, material: &Material) -> (Option<Sampler>, Vec<usize>) {
        let sharing: Vec<(usize, Sampler)> = material
            .texture_slots()
            .into_iter()
            .enumerate()
            .take(self.textures)
            .skip(self.samplers)
            .filter_map(|(slot, texture)| Some((slot, texture?.sampler)))
            .collect();
        let shared = sharing.first().map(|&(_, state)| state);
        let otherwise = sharing.iter().filter(|&&(_, state)| Some(state) != shared).map(|&(slot, _)| slot).collect();
        (shared, otherwise)
    }
}

#[cfg(test)]
mod tests {
    use props_anim::material::{Filter, TextureRef, Wrap};

    use super::*;

    fn entry(binding: u32, ty: wgpu::BindingType) -> wgpu::BindGroupLayoutEntry {
        wgpu::BindGroupLayoutEntry { binding, visibility: wgpu::ShaderStages::FRAGMENT, ty, count: None }
    }

    /// A frame group of five textures and three samplers in the fragment stage, as the
    /// renderer's with its palette in a texture, and a texture in the vertex stage alone.
    fn frame() -> Vec<wgpu::BindGroupLayoutEntry> {
        let texture = wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: true },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        };
        let sampler = wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering);
        let vertex_only = wgpu::BindGroupLayoutEntry { visibility: wgpu::ShaderStages::VERTEX, ..entry(8, texture) };
        (0..5).map(|b| entry(b, texture)).chain((5..8).map(|b| entry(b, sampler))).chain([vertex_only]).collect()
    }

    #[test]
    fn a_device_binds_what_its_limits_have_room_for() {
        let limits = |textures, samplers| wgpu::Limits {
            max_sampled_textures_per_shader_stage: textures,
            max_samplers_per_shader_stage: samplers,
            ..wgpu::Limits::default()
        };
        let on = |backend, textures, samplers| {
            SlotBindings::for_device(&limits(textures, samplers), backend, &[&frame(), &[]])
        };
        let bindings = |textures, samplers| on(wgpu::Backend::Vulkan, textures, samplers);
        // Most Vulkan and Direct3D 12 GPUs: room for everything.
        assert_eq!(bindings(1 << 20, 1 << 20), SlotBindings::ALL);
        assert_eq!(bindings(23, 21), SlotBindings::ALL, "just enough: the vertex stage's texture is not counted");
        // Metal (96 textures, 16 samplers): every texture, 12 own samplers and one shared.
        let metal = bindings(96, 16);
        assert_eq!(metal, SlotBindings { textures: 18, samplers: 12 });
        assert!(metal.shares());
        assert_eq!((metal.sampler_binding(11), metal.sampler_binding(12), metal.sampler_binding(17)), (24, 26, 26));
        // wgpu's defaults (16 and 16): the textures run out first.
        assert_eq!(bindings(16, 16), SlotBindings { textures: 11, samplers: 11 });
        assert!(!bindings(16, 16).shares());
        assert_eq!(bindings(17, 14), SlotBindings { textures: 12, samplers: 10 }, "one short: two share");
        // OpenGL (16 and 16) counts the vertex stage's texture too.
        assert_eq!(on(wgpu::Backend::Gl, 16, 16), SlotBindings { textures: 10, samplers: 10 });
        assert_eq!(on(wgpu::Backend::Gl, 1 << 20, 1 << 20), SlotBindings::ALL);
    }

    #[test]
    fn sharing_slots_take_the_first_one_s_sampler() {
        let metal = SlotBindings { textures: 18, samplers: 12 };
        let nearest = Sampler { mag_filter: Filter::Nearest, ..Sampler::default() };
        let clamped = Sampler { wrap_s: Wrap::ClampToEdge, ..Sampler::default() };
        let with = |sampler| Some(TextureRef { sampler, ..TextureRef::new(0) });
        let plain = Material { base_color_texture: with(clamped), ..Material::default() };
        assert_eq!(metal.shared_sampler(&plain), (None, vec![]), "no sharing slot filled");
        let coated = Material {
            clearcoat_texture: with(clamped),
            clearcoat_normal_texture: with(nearest),
            thickness_texture: with(nearest),
            diffuse_roughness_texture: with(clamped),
            ..plain
        };
        // The coat's texture (slot 11) has its own sampler; its normal map (13) is the first
        // sharing slot filled.
        assert_eq!(metal.shared_sampler(&coated), (Some(nearest), vec![17]));
        assert_eq!(SlotBindings::ALL.shared_sampler(&coated), (None, vec![]), "none share");
    }
}
