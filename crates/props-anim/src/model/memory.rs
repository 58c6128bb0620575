//! What a model keeps in memory: its heap bytes, which budgets of loaded models count, and
//! its decoded pixels, released once the model is on the GPU.

use std::sync::Arc;

use super::Model;
use crate::clip::{Clip, Keyframes};
use crate::material::Image;
use crate::mesh::Mesh;
use crate::skin::Skin;

impl Model {
    /// Drops its images' decoded pixels, keeping each image's size and KTX2 file, and returns
    /// the bytes freed: what a host does once the model is on the GPU, which draws from its own
    /// copy, so that memory holds what is used. Uploaded again (to a new device, or a version
    /// shown again), an image with a KTX2 file (which the importer keeps only with all its
    /// levels) is drawn from its levels as before; any other is drawn white, until the host
    /// loads the model again ([`Model::has_released_pixels`]).
    /// Images shared with models made from this one ([`Model::with_clips`]) are copied
    /// without pixels, not freed, until those go too.
    pub fn release_pixels(&mut self) -> u64 {
        let held = self.pixel_bytes();
        if held == 0 {
            return 0;
        }
        match Arc::get_mut(&mut self.images) {
            Some(images) => images.iter_mut().for_each(|image| image.rgba8 = Vec::new()),
            None => {
                let without = |image: &Image| Image {
                    name: image.name.clone(),
                    width: image.width,
                    height: image.height,
                    rgba8: Vec::new(),
                    ktx2: image.ktx2.clone(),
                };
                self.images = self.images.iter().map(without).collect();
            }
        }
        held
    }

    /// Whether some image without a KTX2 file lost its pixels ([`Model::release_pixels`]):
    /// uploading the model again draws that image white.
    #[must_use]
    pub fn has_released_pixels(&self) -> bool {
        let released = |image: &Image| image.rgba8.is_empty() && image.ktx2.is_none();
        self.images.iter().any(|image| released(image) && image.width > 0 && image.height > 0)
    }

    /// A copy of this model drawing `source`'s images: for uploading again a model whose
    /// pixels were released ([`Model::release_pixels`]), from its file read again. Its
    /// vertices, clips and materials stay this one's (the GPU copy must match what animates
    /// it, though the file changed since). `None` unless `source` has as many images, each of
    /// the same name and size, and has their pixels.
    #[must_use]
    pub fn with_pixels_of(&self, source: &Model) -> Option<Model> {
        let same = |(mine, theirs): (&Image, &Image)| {
            (&mine.name, mine.width, mine.height) == (&theirs.name, theirs.width, theirs.height)
                && (theirs.rgba8.len() as u64 == u64::from(theirs.width) * u64::from(theirs.height) * 4
                    || theirs.ktx2.is_some())
        };
        let matches =
            self.images.len() == source.images.len() && self.images.iter().zip(source.images.iter()).all(same);
        matches.then(|| Model { images: Arc::clone(&source.images), ..self.clone() })
    }

    /// Heap bytes of its images' decoded pixels: what [`Model::release_pixels`] frees.
    #[must_use]
    pub fn pixel_bytes(&self) -> u64 {
        self.images.iter().map(|image| image.rgba8.len() as u64).sum()
    }

    /// Heap bytes of the model's images, decoded (8-bit RGBA), with the KTX2 files some came
    /// from: what of [`Model::heap_bytes`] its textures take.
    #[must_use]
    pub fn image_bytes(&self) -> u64 {
        self.images.iter().map(|image| (image.rgba8.len() + image.ktx2.as_ref().map_or(0, Vec::len)) as u64).sum()
    }

    /// Heap bytes of the model as it stays in memory once loaded: its bulk data (vertex
    /// attributes, indices, morph targets, images, keyframes) and the tables a node, part or
    /// joint keeps (rig, skins, mesh instances, materials, levels of detail): what budgets of
    /// loaded models count. A model made from another by [`Model::with_clips`] counts the
    /// vertices and images it shares with it too.
    #[must_use]
    pub fn heap_bytes(&self) -> u64 {
        let impostor = self.impostor.as_ref().map(|i| &i.primitive);
        let primitives = self.meshes.iter().flat_map(|mesh| &mesh.primitives).chain(impostor);
        let meshes: u64 = primitives
            .map(|p| {
                let influences = p
                    .influences
                    .as_ref()
                    .map_or(0, |i| bytes(&i.joints) + bytes(&i.weights) + bytes(&i.extra_start) + bytes(&i.extra));
                let targets: u64 = p.morph_targets.iter().map(|t| bytes(&t.positions) + bytes(&t.normals)).sum();
                let lods: u64 = p.lods.iter().map(|lod| bytes(&lod.indices)).sum();
                bytes(&p.positions)
                    + bytes(&p.normals)
                    + bytes(&p.uv0)
                    + bytes(&p.uv1)
                    + bytes(&p.tangents)
                    + bytes(&p.colors)
                    + bytes(&p.indices)
                    + influences
                    + targets
                    + lods
            })
            .sum();
        let images = self.image_bytes();
        let keys: u64 = self
            .clips
            .iter()
            .flat_map(Clip::channels)
            .map(|channel| {
                let values = match channel.keyframes() {
                    Keyframes::Translation(v) | Keyframes::Scale(v) => bytes(v),
                    Keyframes::Rotation(v) => bytes(v),
                    Keyframes::MorphWeights { values, .. } => bytes(values),
                };
                bytes(channel.keys().times()) + values
            })
            .sum();
        let property_keys: u64 = self
            .clips
            .iter()
            .flat_map(Clip::property_channels)
            .map(|channel| bytes(channel.keys().times()) + bytes(channel.values()))
            .sum();
        let looks =
            self.impostor.iter().flat_map(|i| &i.material_variants).map(|look| bytes(&look.colors)).sum::<u64>();
        meshes + looks + images + keys + property_keys + self.table_bytes()
    }

    /// Heap bytes of the tables kept per node, part, joint or material: small beside the bulk
    /// data, but a file of 60,000 nodes holds megabytes of them.
    fn table_bytes(&self) -> u64 {
        let skins: u64 = self.skins.iter().map(|skin| size_of::<Skin>() as u64 + skin.heap_bytes()).sum();
        let levels: u64 = self.lods.map.iter().flatten().map(|levels| levels.len() as u64).sum();
        let of_levels = self.lods.map.iter().map(|of| bytes(of)).sum::<u64>() + bytes(&self.lods.map);
        let channels: u64 = self
            .clips
            .iter()
            .map(|clip| {
                let name = clip.name().map_or(0, str::len) as u64;
                size_of::<Clip>() as u64 + name + bytes(clip.channels()) + bytes(clip.property_channels())
            })
            .sum();
        let parts: u64 = self.meshes.iter().map(|mesh| size_of::<Mesh>() as u64 + bytes(&mesh.primitives)).sum();
        self.rig.heap_bytes()
            + skins
            + levels
            + of_levels
            + channels
            + parts
            + bytes(&self.materials)
            + bytes(&self.instances)
            + bytes(&self.palette_offsets)
            + bytes(&self.lights)
            + bytes(&self.light_instances)
            + self.visibility.heap_bytes()
            + self.springs.heap_bytes()
    }
}

/// Heap bytes of `items`' elements themselves (not what they own).
fn bytes<T>(items: &[T]) -> u64 {
    size_of_val(items) as u64
}
