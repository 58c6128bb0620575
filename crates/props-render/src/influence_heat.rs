//! The joint-influence heat map: a model drawn with every vertex coloured by how many joints
//! move it, for the previewer's overlay and stills.

use glam::Vec4;
use props_anim::{Mesh, Model, ModelError, ModelParts};

/// Heat-map colours by the number of joints moving a vertex: none, 1, 2, 3-4, 5-8, 9-16, more.
const HEAT: [(usize, [f32; 3]); 7] = [
    (0, [0.5, 0.5, 0.5]),
    (1, [0.1, 0.2, 0.9]),
    (2, [0.1, 0.8, 0.9]),
    (4, [0.2, 0.8, 0.2]),
    (8, [0.95, 0.9, 0.1]),
    (16, [1.0, 0.5, 0.0]),
    (usize::MAX, [0.9, 0.1, 0.1]),
];

/// The colour of a vertex moved by `joints` joints (grey none, blue 1, cyan 2, green up to 4,
/// yellow up to 8, orange up to 16, red more).
#[must_use]
pub fn heat(joints: usize) -> Vec4 {
    let (_, [r, g, b]) = HEAT.iter().find(|(most, _)| joints <= *most).copied().unwrap_or(HEAT[HEAT.len() - 1]);
    Vec4::new(r, g, b, 1.0)
}

/// `model` with every vertex coloured by how many joints move it (non-zero weights) and no
/// material on its primitives, so only the heat shows; its rig, skins and instances
/// unchanged, no clips (pose it with the original's palettes, whose animated properties it
/// keeps: its materials and lights stay, their textures on one white texel).
pub fn influence_heat_map(model: &Model) -> Result<Model, ModelError> {
    let meshes = model
        .meshes()
        .iter()
        .map(|mesh| {
            let primitives = mesh
                .primitives
                .iter()
                .map(|primitive| {
                    let colors = (0..primitive.vertex_count())
                        .map(|v| {
                            let moving = primitive.influences.as_ref().map_or(0, |influences| {
                                influences.of_vertex(v).filter(|&(_, weight)| weight != 0.0).count()
                            });
                            heat(moving)
                        })
                        .collect();
                    props_anim::Primitive { colors, material: None, ..primitive.clone() }
                })
                .collect();
            Mesh { name: mesh.name.clone(), primitives }
        })
        .collect();
    let mut materials = model.materials().to_vec();
    for material in &mut materials {
        let slots = [
            &mut material.base_color_texture,
            &mut material.metallic_roughness_texture,
            &mut material.normal_texture,
            &mut material.occlusion_texture,
            &mut material.emissive_texture,
        ];
        for texture in slots.into_iter().flatten() {
            texture.image = 0;
        }
    }
    let textured = materials.iter().any(|m| m.textures().next().is_some());
    let white = props_anim::material::Image { name: None, width: 1, height: 1, rgba8: vec![255; 4], ktx2: None };
    Model::new(ModelParts {
        rig: Some(model.rig().clone()),
        skins: model.skins().to_vec(),
        meshes,
        materials,
        images: if textured { vec![white] } else { Vec::new() },
        instances: model.instances().to_vec(),
        lights: model.lights().to_vec(),
        light_instances: model.light_instances().to_vec(),
        ..ModelParts::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heat_steps_by_joint_count() {
        assert_eq!(heat(0), Vec4::new(0.5, 0.5, 0.5, 1.0));
        assert_eq!(heat(1), Vec4::new(0.1, 0.2, 0.9, 1.0));
        assert_eq!(heat(3), heat(4));
        assert_eq!(heat(17), Vec4::new(0.9, 0.1, 0.1, 1.0));
    }
}
