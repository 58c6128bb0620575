//! `EXT_mesh_gpu_instancing`: a node that draws its mesh once per instance transform (a row of
//! lamps, a fence, a copse in one node). Each instance becomes a child of the node in the rig,
//! fixed at its transform and carrying the node's mesh, so posing, bounds, CPU skinning and the
//! renderer's instanced draws treat the instances as any mesh on a node, and the node is posed
//! once for all of them (a node that does not move makes them constants).
//!
//! Instancing that cannot be read is ignored with a warning (the node draws one copy, as an
//! engine without the extension draws it); NaN, infinity and limits refuse the file as
//! everywhere.

use std::ops::Range;

use glam::{Quat, Vec3};
use gltf::json::Root;
use props_anim::Transform;
use serde_json::Value;

use crate::accessor::{Accessors, FLOAT_OR_NORMALIZED, QUANTIZED};
use crate::error::{ErrorKind, ImportError, Warnings, warn};
use crate::index_u32;
use crate::limits::{self, Limits};
use crate::rules::{self, Scope};

/// The extension's name.
const EXTENSION: &str = "EXT_mesh_gpu_instancing";

/// The instances of every node, and where their rig nodes go.
#[derive(Debug, Default)]
pub(crate) struct Instancing {
    /// Per glTF node: its instances' transforms (empty: not instanced).
    transforms: Vec<Vec<Transform>>,
    /// Per glTF node: the source indices of its instances' rig nodes (after the file's nodes).
    children: Vec<Range<u32>>,
}

impl Instancing {
    /// Reads the instances of every node with a mesh and the extension.
    pub(crate) fn read(
        root: &Root,
        accessors: &Accessors<'_>,
        limits: &Limits,
        warnings: &mut Warnings,
    ) -> Result<Self, ImportError> {
        let mut transforms = Vec::with_capacity(root.nodes.len());
        // Nodes so far with every instance read: each node's declared counts are checked
        // against what is left before its instances are read.
        let mut nodes = root.nodes.len() as u64;
        for (n, node) in root.nodes.iter().enumerate() {
            let extension = node.extensions.as_ref().and_then(|e| e.others.get(EXTENSION));
            let instances = match extension {
                Some(_) if node.mesh.is_none() => Vec::new(),
                Some(_) if node.skin.is_some() => {
                    let message = "ignored: a skinned mesh is drawn once (its joints place it, not the node)";
                    warn(warnings, format!("nodes[{n}].extensions.{EXTENSION}"), message);
                    Vec::new()
                }
                Some(extension) => match read_node(extension, n, accessors, (nodes, limits)) {
                    Ok(instances) => instances,
                    Err(error) if rules::scope(crate::codes::code(&error.kind)) == Some(Scope::File) => {
                        return Err(error);
                    }
                    Err(error) => {
                        let message = format!("ignored, the node draws its mesh once: {}", error.kind);
                        warn(warnings, error.json_path, message);
                        Vec::new()
                    }
                },
                None => Vec::new(),
            };
            nodes += instances.len() as u64;
            transforms.push(instances);
        }
        let mut next = index_u32(root.nodes.len());
        let children = transforms
            .iter()
            .map(|t| {
                let start = next;
                next += index_u32(t.len());
                start..next
            })
            .collect();
        Ok(Self { transforms, children })
    }

    /// The transforms of glTF node `node`'s instances (empty: it is not instanced).
    pub(crate) fn of(&self, node: usize) -> &[Transform] {
        self.transforms.get(node).map(Vec::as_slice).unwrap_or_default()
    }

    /// The source indices of glTF node `node`'s instances in the rig.
    pub(crate) fn children(&self, node: usize) -> Range<u32> {
        self.children.get(node).cloned().unwrap_or_default()
    }
}

/// One node's instances: `TRANSLATION`, `ROTATION` and `SCALE`, each optional, all of one count;
/// refused (the file) when they would take the nodes past [`Limits::max_nodes`], `nodes` read
/// before them, before they are read.
fn read_node(
    extension: &Value,
    n: usize,
    accessors: &Accessors<'_>,
    (nodes, limits): (u64, &Limits),
) -> Result<Vec<Transform>, ImportError> {
    let path = format!("nodes[{n}].extensions.{EXTENSION}.attributes");
    let invalid = |field: &str| ImportError::at(format!("{path}.{field}"), ErrorKind::InvalidValue);
    let attributes = extension.get("attributes").and_then(Value::as_object).ok_or_else(|| invalid("attributes"))?;
    let accessor = |name: &str| -> Result<Option<usize>, ImportError> {
        match attributes.get(name) {
            None => Ok(None),
            Some(index) => {
                let index = index.as_u64().and_then(|i| usize::try_from(i).ok()).ok_or_else(|| invalid(name))?;
                Ok(Some(index))
            }
        }
    };
    let at = |name: &str| format!("{path}.{name}");
    for name in ["TRANSLATION", "ROTATION", "SCALE"] {
        if let Some(index) = accessor(name)? {
            let total = nodes.saturating_add(accessors.count(index));
            limits::check(total, limits.max_nodes.into(), "number of nodes with every mesh instance", &at(name))?;
        }
    }
    let translations = match accessor("TRANSLATION")? {
        Some(index) => Some(accessors.read_vec3(index, &at("TRANSLATION"), QUANTIZED)?),
        None => None,
    };
    let rotations = match accessor("ROTATION")? {
        Some(index) => Some(accessors.read::<f32, 4>(index, &at("ROTATION"), FLOAT_OR_NORMALIZED)?),
        None => None,
    };
    let scales = match accessor("SCALE")? {
        Some(index) => Some(accessors.read_vec3(index, &at("SCALE"), QUANTIZED)?),
        None => None,
    };
    let counts = [translations.as_ref().map(Vec::len), rotations.as_ref().map(Vec::len), scales.as_ref().map(Vec::len)];
    let count = counts.iter().flatten().copied().max().unwrap_or(0);
    if counts.iter().flatten().any(|&c| c != count) {
        let found = counts.iter().flatten().copied().min().unwrap_or(0) as u64;
        let kind = ErrorKind::AttributeCountMismatch { expected: count as u64, found };
        return Err(ImportError::at(path, kind));
    }
    (0..count)
        .map(|i| {
            let rotation = rotations.as_ref().map_or(Quat::IDENTITY, |r| Quat::from_array(r[i]));
            let length = rotation.length();
            if (length - 1.0).abs() > 1e-3 {
                // A zero or far from unit quaternion has no meaning: this node's instancing is left out.
                return Err(invalid(&format!("ROTATION[{i}]")));
            }
            Ok(Transform {
                translation: translations.as_ref().map_or(Vec3::ZERO, |t| t[i]),
                rotation: rotation / length,
                scale: scales.as_ref().map_or(Vec3::ONE, |s| s[i]),
            })
        })
        .collect()
}
