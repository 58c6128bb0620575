//! The import pipeline: container, JSON, buffers, then meshes, rig, skins, clips, materials
//! and the scene, assembled into a [`Model`].

use std::path::Path;

use props_anim::{Model, ModelParts};

use crate::accessor::Accessors;
use crate::buffers::{self, Buffers};
use crate::error::{ErrorKind, FILE, ImportError, ImportWarning};
use crate::files::{self, Contents};
use crate::limits::{self, Budget, Limits};
use crate::material::ImageSource;
use crate::{animation, document, json_scan, material, mesh, nodes, scene};

/// An imported model and what the import noticed on the way.
#[derive(Clone, Debug)]
pub struct Import {
    /// The model. Its meshes, skins, clips and materials are the file's, in the file's order
    /// (index `i` is glTF mesh/skin/animation/material `i`); the rig maps nodes to glTF node
    /// indices ([`props_anim::Rig::source_index`]); images are those used as base color
    /// textures, in order of first use.
    pub model: Model,
    /// glTF indices of the nodes reachable from the shown scene, ascending.
    pub scene_nodes: Vec<u32>,
    /// Things ignored or repaired.
    pub warnings: Vec<ImportWarning>,
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
pub fn import_slice(
    bytes: &[u8],
    base_dir: Option<&Path>,
    file_label: &Path,
    limits: &Limits,
) -> Result<Import, ImportError> {
    import(bytes, base_dir, limits).map_err(|error| ImportError { file: file_label.to_owned(), ..error })
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

fn import(bytes: &[u8], base_dir: Option<&Path>, limits: &Limits) -> Result<Import, ImportError> {
    limits::check(bytes.len() as u64, limits.max_file_bytes, "file size in bytes", FILE)?;
    let container = buffers::split_container(bytes)?;
    let mut warnings = Vec::new();
    let budget = Budget::new(limits.max_decoded_bytes);
    json_scan::check(&container.json, limits, &budget)?;
    let document = document::parse(&container.json, &mut warnings)?;
    let root = &document.root;
    let buffers = Buffers::load(root, container.bin, base_dir, limits)?;
    let accessors = Accessors::new(root, &buffers, limits, &budget);
    let meshes = mesh::import_meshes(root, &accessors, limits, &budget, &mut warnings)?;
    let rig = nodes::import_rig(root, &meshes, limits)?;
    let skins = nodes::import_skins(root, &rig, &accessors, limits)?;
    let clips = animation::import_clips(&document, &rig, &accessors, limits)?;
    let images = ImageSource { buffers: &buffers, base_dir, limits, budget: &budget };
    let (materials, images) = material::import_materials(root, &images, &mut warnings)?;
    let scene_nodes = scene::reachable_nodes(root);
    let instances = scene::instances(root, &rig, &scene_nodes);
    scene::check_instances(&instances, &meshes, &skins, limits)?;
    let parts = ModelParts { rig: Some(rig), skins, clips, meshes, materials, images, instances };
    let model = Model::new(parts).map_err(|error| ImportError::at(FILE, ErrorKind::Model(error)))?;
    check_pose_reach(&model)?;
    tracing::debug!(
        nodes = model.rig().len(),
        meshes = model.meshes().len(),
        skins = model.skins().len(),
        clips = model.clips().len(),
        images = model.images().len(),
        warnings = warnings.len(),
        "imported glTF model"
    );
    Ok(Import { model, scene_nodes, warnings })
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
