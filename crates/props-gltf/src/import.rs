//! The import pipeline: container, JSON, buffers, then meshes, rig, skins, clips, materials
//! and the scene, assembled into a [`Model`].

use std::path::Path;

use props_anim::spring::SpringBones;
use props_anim::{Model, ModelParts};

use crate::accessor::Accessors;
use crate::animation_pointer::pointer_of;
use crate::buffers::{self, Buffers};
use crate::drops::{Dropped, Drops, drop_or_refuse};
use crate::error::{ErrorKind, FILE, ImportError, ImportWarning, warn};
use crate::files::{self, Contents};
use crate::image_source::ImageSource;
use crate::instancing::Instancing;
use crate::limits::{self, Budget, Limits};
use crate::msft_lod::FileLods;
use crate::parts::{Part, PartMap, Skip};
use crate::vrm::Vrm;
use crate::{
    animation, document, json_scan, lights, lods, material, mesh, node_constraints, nodes, scene, springs, vertex_cache,
};

/// An imported model and what the import noticed on the way.
#[derive(Debug)]
pub struct Import {
    /// The model. Its meshes, skins and materials are the file's, in the file's order (index
    /// `i` is glTF mesh/skin/material `i`; a mesh that no node of the shown scene draws is
    /// there without primitives, and a material no drawn primitive is drawn in has a white
    /// texel for each texture's image: they are not read), its clips the file's animations
    /// that could be read, in order ([`Import::clip_sources`]); the rig maps nodes to glTF
    /// node indices ([`props_anim::Rig::source_index`]); images are those the materials'
    /// textures show, in order of first use. A primitive's vertices are the file's, and so are
    /// its triangles, wound as the file winds them; an opaque one lists them in the order a
    /// GPU draws fastest (meshoptimizer's vertex-cache order, as gltfpack writes them).
    pub model: Model,
    /// glTF indices of the nodes reachable from the shown scene, ascending.
    pub scene_nodes: Vec<u32>,
    /// The glTF animation index of each of the model's clips.
    pub clip_sources: Vec<u32>,
    /// The JSON pointer of each of the rig's animated properties
    /// ([`props_anim::property::Properties`]), by id: where it lies in the file.
    pub property_pointers: Vec<String>,
    /// Things ignored or repaired.
    pub warnings: Vec<ImportWarning>,
    /// The parts left out because they could not be read, each with why (see
    /// [`crate::rules`]): the rest of the model loaded.
    pub dropped: Vec<Dropped>,
}

impl Import {
    /// The model's clip index of glTF animation `animation`, unless it was dropped.
    #[must_use]
    pub fn clip_of_animation(&self, animation: u32) -> Option<usize> {
        self.clip_sources.iter().position(|&source| source == animation)
    }
}

/// Imports a `.gltf` or `.glb` file. External files it references must lie in its folder.
pub fn import_file(path: &Path, limits: &Limits) -> Result<Import, ImportError> {
    let in_file = |error: ImportError| ImportError { file: path.to_owned(), ..error };
    let bytes = read_file(path, limits).map_err(in_file)?;
    import_slice(&bytes, Some(folder_of(path)), path, limits)
}

/// The folder of a model file, where its external files are resolved.
pub(crate) fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// Imports a `.gltf` or `.glb` file held in memory. `base_dir` is the folder external files
/// are resolved (and confined) in; `None` refuses every external file. `file_label` names
/// the file in errors.
///
/// A part that cannot be read (a clip, a primitive, a material, an image) is left out and
/// listed in [`Import::dropped`]; an error that no such part holds, or that [`crate::rules`]
/// makes fatal to the file, fails the import.
pub fn import_slice(
    bytes: &[u8],
    base_dir: Option<&Path>,
    file_label: &Path,
    limits: &Limits,
) -> Result<Import, ImportError> {
    import_skipping(bytes, base_dir, file_label, limits, &Skip::default())
}

/// [`import_slice`], leaving out the parts of `skip` as well.
pub(crate) fn import_skipping(
    bytes: &[u8],
    base_dir: Option<&Path>,
    file_label: &Path,
    limits: &Limits,
    skip: &Skip,
) -> Result<Import, ImportError> {
    let in_file = |error: ImportError| ImportError { file: file_label.to_owned(), ..error };
    let mut import = import(bytes, base_dir, limits, skip).map_err(in_file)?;
    for dropped in &mut import.dropped {
        dropped.error.file = file_label.to_owned();
    }
    Ok(import)
}

/// Reads a model file, refusing one larger than [`Limits::max_file_bytes`] and anything but
/// a regular file (without blocking on a FIFO or device).
pub(crate) fn read_file(path: &Path, limits: &Limits) -> Result<Vec<u8>, ImportError> {
    let io = |source| ImportError::at(FILE, ErrorKind::Io { path: path.to_owned(), source });
    match files::read_regular(path, limits.max_file_bytes).map_err(io)? {
        Contents::Bytes(bytes) => Ok(bytes),
        Contents::TooLarge(size) => Err(limits::exceeded(size, limits.max_file_bytes, "file size in bytes", FILE)),
    }
}

fn import(bytes: &[u8], base_dir: Option<&Path>, limits: &Limits, skip: &Skip) -> Result<Import, ImportError> {
    limits::check(bytes.len() as u64, limits.max_file_bytes, "file size in bytes", FILE)?;
    let container = buffers::split_container(bytes)?;
    let mut warnings = Vec::new();
    let budget = Budget::new(limits.max_decoded_bytes);
    json_scan::check(&container.json, limits, &budget)?;
    let document = document::parse(&container.json, &mut warnings)?;
    let root = &document.root;
    let mut skip = skip.clone();
    let mut dropped = Vec::new();
    drop_broken_parts(&document, &mut skip, &mut dropped)?;
    let mut drops = Drops { skip: &skip, dropped };
    let buffers = Buffers::load(root, container.bin, base_dir, limits)?;
    let accessors = Accessors::new(root, &buffers, limits, &budget);
    let scene_nodes = scene::reachable_nodes(root);
    let file_lods = FileLods::read(root, &mut warnings);
    let drawn_meshes = scene::drawn_meshes(root, &scene_nodes, file_lods.level_nodes());
    let (meshes, variants) =
        mesh::import_meshes(&document, &drawn_meshes, &accessors, limits, &budget, &mut warnings, &mut drops)?;
    let instancing = Instancing::read(root, &accessors, limits, &mut warnings)?;
    let vrm = Vrm::read(root, &mut warnings);
    let turned = vrm.as_ref().is_some_and(|v| v.turned);
    let moved = document.moved_by_parts();
    let mut rig = nodes::import_rig((root, &moved), &meshes, &instancing, limits, turned)?;
    if let Some(vrm) = &vrm {
        rig = vrm.apply(rig, &mut warnings);
    }
    let skins = nodes::import_skins(root, &rig, &accessors, limits)?;
    let levels = file_lods.levels_of(root.nodes.len());
    let drawn: Vec<u32> =
        scene_nodes.iter().copied().filter(|&n| !levels.get(n as usize).copied().unwrap_or(false)).collect();
    let instances = scene::instances(root, &rig, &drawn, &instancing);
    let mut meshes = meshes;
    file_lods.apply(root, &mut meshes, &instances, &budget)?;
    scene::check_instances(&instances, &meshes, &skins, limits)?;
    lods::make(&mut meshes, (&instances, &skins), limits, &budget)?;
    // The images get what the geometry and the clips leave of the budget.
    let mut images = ImageSource {
        buffers: &buffers,
        base_dir,
        limits,
        budget: &budget,
        sides: &[],
        files_read: std::cell::Cell::new(0),
    };
    // What the clips take once bound, before the images: only geometry and clips refuse a file.
    budget.charge(animation::bound_bytes(&document, drops.skip, rig.morph_defaults().len()), "animations")?;
    let left = budget.remaining().saturating_sub(animation::decoded_bytes(root, drops.skip));
    let drawn_materials = scene::drawn_materials(root, &meshes, &variants);
    let read = material::images_read(root, &drawn_materials, drops.skip);
    let sides = crate::image_fit::fit_to_budget(root, &read, &images, left);
    images.sides = &sides;
    let material::Materials { materials, images } =
        material::import_materials(root, &drawn_materials, &images, &mut warnings, &mut drops)?;
    let lights = lights::import_lights(root, &rig, &scene_nodes, &mut warnings);
    let (clips, clip_sources) = animation::import_clips(
        &document,
        &mut rig,
        &accessors,
        limits,
        (&materials, &lights),
        &mut warnings,
        &mut drops,
    )?;
    let lights::Lights { lights, instances: light_instances, of_source } = lights;
    let property_pointers = rig.properties().targets().iter().map(|&t| pointer_of(t, &rig, &of_source)).collect();
    let primitives_dropped =
        drops.skip.has_primitives() || drops.dropped.iter().any(|d| matches!(d.part, Part::Primitive { .. }));
    let drawable = instances.iter().any(|i| meshes.get(i.mesh as usize).is_some_and(|m| !m.primitives.is_empty()));
    if primitives_dropped && !drawable {
        // The first primitive's own error says best why, where the import found one.
        let first = drops.dropped.into_iter().find(|d| matches!(d.part, Part::Primitive { .. }));
        return Err(first.map_or_else(|| ImportError::at(FILE, ErrorKind::NothingDrawable), |first| first.error));
    }
    vertex_cache::order(&mut meshes, &materials, &variants);
    node_constraints::apply(root, &mut rig, &mut warnings);
    let (joints, colliders) = springs::read(root, &rig, &mut warnings);
    let springs = SpringBones::new(&rig, joints, colliders).unwrap_or_else(|error| {
        warn(&mut warnings, "extensions", format!("spring bones ignored: {error}"));
        SpringBones::default()
    });
    let parts =
        ModelParts { rig: Some(rig), skins, clips, meshes, materials, images, instances, lights, light_instances };
    let model = Model::new(parts)
        .and_then(|model| model.with_material_variants(variants))
        .and_then(|model| model.with_springs(springs))
        .map_err(|error| ImportError::at(FILE, ErrorKind::Model(error)))?;
    let impostor = if file_lods.any() { None } else { crate::impostor::make(&model) };
    let model = match impostor {
        Some(impostor) => {
            model.with_impostor(impostor).map_err(|error| ImportError::at(FILE, ErrorKind::Model(error)))?
        }
        None => model,
    };
    check_pose_reach(&model)?;
    let dropped = drops.dropped;
    tracing::debug!(
        nodes = model.rig().len(),
        meshes = model.meshes().len(),
        skins = model.skins().len(),
        clips = model.clips().len(),
        images = model.images().len(),
        warnings = warnings.len(),
        dropped = dropped.len(),
        "imported glTF model"
    );
    Ok(Import { model, scene_nodes, clip_sources, property_pointers, warnings, dropped })
}

/// The document's JSON of the wrong type and broken references (an index to nothing, a
/// missing or unknown value) inside parts that can be dropped: those parts are left out; any
/// other fails the import.
fn drop_broken_parts(
    document: &document::Document,
    skip: &mut Skip,
    dropped: &mut Vec<Dropped>,
) -> Result<(), ImportError> {
    let root = &document.root;
    let mistyped =
        document.mistyped.iter().map(|error| ImportError::at(error.json_path.clone(), clone_kind(&error.kind)));
    let findings: Vec<ImportError> = mistyped.chain(document::validate(root)).collect();
    if findings.is_empty() {
        return Ok(());
    }
    let parts = PartMap::new(root);
    for error in findings {
        let pointer = crate::pointer::from_json_path(&error.json_path);
        match parts.parts_of(&pointer) {
            // Read by nothing: nothing follows the reference.
            Some(reached) if reached.is_empty() => {}
            Some(reached) => {
                let new: Vec<Part> = reached.into_iter().filter(|part| !skip.contains(part)).collect();
                skip.extend(new.iter().cloned());
                for part in new {
                    let error = ImportError::at(error.json_path.clone(), clone_kind(&error.kind));
                    drop_or_refuse(dropped, part, error)?;
                }
            }
            None => return Err(error),
        }
    }
    Ok(())
}

/// A copy of a finding of the gltf crate's validation or of a JSON mismatch (one per part it
/// reaches): their kinds carry no data but the mismatch's message (and unsupported
/// extensions', which no part holds).
fn clone_kind(kind: &ErrorKind) -> ErrorKind {
    match kind {
        ErrorKind::Json { message } => ErrorKind::Json { message: message.clone() },
        ErrorKind::InvalidIndex => ErrorKind::InvalidIndex,
        ErrorKind::MissingProperty => ErrorKind::MissingProperty,
        ErrorKind::ValueTooLarge => ErrorKind::ValueTooLarge,
        _ => ErrorKind::InvalidValue,
    }
}

/// How far from its origin any pose of a model may reach, model units: far beyond any prop
/// (a kilometre-sized model in millimetres is 1e6), far below where `f32` products overflow
/// (3.4e38), with room for the instance transform and the skinning sums on the GPU.
pub const MAX_POSE_REACH: f64 = 1e18;

/// Refuses a model that some pose could carry beyond [`MAX_POSE_REACH`] (so posing and
/// skinning an imported model never overflow), naming the first node that can.
fn check_pose_reach(model: &Model) -> Result<(), ImportError> {
    let bounds = model.pose_bounds();
    if bounds.radius <= MAX_POSE_REACH && bounds.first_node_beyond(MAX_POSE_REACH).is_none() {
        return Ok(());
    }
    let reach = bounds.radius.max(bounds.node_reach.iter().copied().fold(0.0, f64::max));
    let path = match bounds.first_node_beyond(MAX_POSE_REACH) {
        Some(node) => format!("nodes[{}]", model.rig().source_index(node)),
        None => format!("meshes[{}]", bounds.farthest_mesh.unwrap_or(0)),
    };
    Err(ImportError::at(path, ErrorKind::PoseOverflow { reach, limit: MAX_POSE_REACH }))
}
