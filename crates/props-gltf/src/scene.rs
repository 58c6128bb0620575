//! What the chosen scene shows: its nodes, and the meshes placed on them.

use gltf::json::Root;
use props_anim::material::MaterialVariant;
use props_anim::{Mesh, MeshInstance, Rig, Skin};

use crate::error::{ErrorKind, ImportError};
use crate::index_u32;
use crate::instancing::Instancing;
use crate::limits::{self, Limits};

/// glTF indices of the nodes reachable from the scene to show (the default scene, else
/// scene 0; all root nodes when the file has no scene), ascending.
pub(crate) fn reachable_nodes(root: &Root) -> Vec<u32> {
    let roots: Vec<usize> = match root.scene.map(|s| s.value()).or((!root.scenes.is_empty()).then_some(0)) {
        Some(scene) => root.scenes.get(scene).map(|s| s.nodes.iter().map(|n| n.value()).collect()).unwrap_or_default(),
        None => {
            let mut is_child = vec![false; root.nodes.len()];
            for child in root.nodes.iter().flat_map(|n| n.children.iter().flatten()) {
                if let Some(flag) = is_child.get_mut(child.value()) {
                    *flag = true;
                }
            }
            (0..root.nodes.len()).filter(|&i| !is_child.get(i).copied().unwrap_or(true)).collect()
        }
    };
    let mut reached = vec![false; root.nodes.len()];
    let mut stack = roots;
    while let Some(node) = stack.pop() {
        match reached.get_mut(node) {
            Some(flag) if !*flag => *flag = true,
            _ => continue,
        }
        let children = root.nodes.get(node).and_then(|n| n.children.as_ref());
        stack.extend(children.into_iter().flatten().map(|c| c.value()));
    }
    (0u32..).zip(reached).filter(|(_, reached)| *reached).map(|(i, _)| i).collect()
}

/// Which of the file's meshes are drawn, by glTF index: those of `scene_nodes` and of the nodes
/// `levels` lists (a file's coarser levels, `msft_lod.rs`). The others are not read: memory
/// follows what is drawn, and a file's unused meshes (another scene's, a leftover's) would
/// each be decoded and simplified into levels for nothing.
pub(crate) fn drawn_meshes(root: &Root, scene_nodes: &[u32], levels: impl Iterator<Item = usize>) -> Vec<bool> {
    let mut drawn = vec![false; root.meshes.len()];
    let nodes = scene_nodes.iter().map(|&n| n as usize).chain(levels);
    for mesh in nodes.filter_map(|n| root.nodes.get(n)?.mesh) {
        if let Some(flag) = drawn.get_mut(mesh.value()) {
            *flag = true;
        }
    }
    drawn
}

/// Which of the file's materials are drawn, by glTF index: those of `meshes`' primitives (the
/// drawn ones: [`drawn_meshes`]) and those `variants` draw them in. The others' images are not
/// decoded ([`crate::material::import_materials`]).
pub(crate) fn drawn_materials(root: &Root, meshes: &[Mesh], variants: &[MaterialVariant]) -> Vec<bool> {
    let mut drawn = vec![false; root.materials.len()];
    let own = meshes.iter().flat_map(|mesh| &mesh.primitives).filter_map(|p| p.material);
    let varied = variants.iter().flat_map(|variant| &variant.materials).map(|m| m.material);
    for material in own.chain(varied) {
        if let Some(flag) = drawn.get_mut(material as usize) {
            *flag = true;
        }
    }
    drawn
}

/// One instance per node of `scene_nodes` that has a mesh, skinned when the node has a skin;
/// an instanced node's mesh is placed on each of its instances' nodes instead (see
/// [`Instancing`]).
pub(crate) fn instances(root: &Root, rig: &Rig, scene_nodes: &[u32], instancing: &Instancing) -> Vec<MeshInstance> {
    let mut instances = Vec::new();
    for &source in scene_nodes {
        let Some(node) = root.nodes.get(source as usize) else { continue };
        let Some(mesh) = node.mesh.map(|m| index_u32(m.value())) else { continue };
        let skin = node.skin.map(|s| index_u32(s.value()));
        let copies = instancing.children(source as usize);
        let nodes = if copies.is_empty() { source..source + 1 } else { copies };
        instances.extend(nodes.filter_map(|n| Some(MeshInstance { node: rig.from_source_index(n)?, mesh, skin })));
    }
    instances
}

/// Checks the instances: not too many vertices in all, and every skinned instance's vertices
/// use (with a non-zero weight) only joints of the instance's skin.
pub(crate) fn check_instances(
    instances: &[MeshInstance],
    meshes: &[Mesh],
    skins: &[Skin],
    limits: &Limits,
) -> Result<(), ImportError> {
    let vertices =
        |mesh: u32| meshes.get(mesh as usize).map_or(0, |m| m.primitives.iter().map(|p| p.vertex_count() as u64).sum());
    let total = instances.iter().map(|i| vertices(i.mesh)).fold(0u64, u64::saturating_add);
    limits::check(total, limits.max_instanced_vertices, "vertices of all mesh instances of the scene", "scenes")?;
    for instance in instances {
        let Some(skin) = instance.skin else { continue };
        let joints = skins.get(skin as usize).map_or(0, |s| s.joints().len());
        let primitives = meshes.get(instance.mesh as usize).map(|m| m.primitives.as_slice()).unwrap_or_default();
        for (p, primitive) in primitives.iter().enumerate() {
            let Some(influences) = &primitive.influences else { continue };
            for vertex in 0..influences.len() {
                if let Some(joint) = influences.of_vertex(vertex).map(|(j, _)| j).find(|&j| usize::from(j) >= joints) {
                    // The set, when it is one of the inline ones (the extras do not keep theirs).
                    let mut inline = influences.joints[vertex].iter().zip(influences.weights[vertex]);
                    let set = inline.position(|(&j, w)| j == joint && w != 0.0).map(|k| k / 4);
                    let attribute = set.map_or(String::new(), |set| format!("[\"JOINTS_{set}\"]"));
                    let path = format!("meshes[{}].primitives[{p}].attributes{attribute}", instance.mesh);
                    let kind = ErrorKind::JointOutOfRange { vertex: vertex as u64, joint, skin, joints: joints as u64 };
                    return Err(ImportError::at(path, kind));
                }
            }
        }
    }
    Ok(())
}
