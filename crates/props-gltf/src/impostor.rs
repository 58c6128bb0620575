//! The impostor made at import ([`props_anim::impostor::Impostor`]): the model at rest is drawn
//! on the CPU, orthographically along each of its axes from both sides, into small depth
//! buffers (`impostor_views.rs`).
//! - What each axis's views cover sets the box's extents, so that each side of the box covers
//!   as much as the model does seen from there.
//! - What each view sees sets its face's colour (base colour factor, vertex colour, base
//!   colour texture; an alpha mask honoured) and its normal (the visible surfaces' mean, so the
//!   box is lit as they are), and the share of it that is paint; the material takes all
//!   views' mean metalness, roughness and emission, and the paint's mean colour, so that an
//!   instance's tint paints the box as it paints the model (a tinted house stays tinted).
//! - Each material variant (`KHR_materials_variants`: a car's liveries) draws the views again
//!   in its materials for the faces' colours and the material it looks in there; the box's
//!   shape and normals are its own materials'.
//!
//! A box cannot morph: its error is how far the model's surface strays from it at rest plus
//! how far the morph targets can move each vertex (each target's displacement times how far
//! a pose can take its weight from its rest weight), so that an animated morph shows until it
//! spans under a pixel. A skeleton's or a node's motion is not counted: the box stands for
//! the model at rest.
//!
//! A model gets one when it has levels of detail made at import. Where clips animate the
//! emission of one material (a house's windows lit at night), the box's emission follows it,
//! scaled by the share of the views that material covers; a model whose clips animate more
//! (a traffic light's three lamps, a material's colour) gets none: a box of fixed colours
//! cannot play them. The box is placed by the mesh instance nearest the root (so a spinning
//! rotor does not spin it), in that node's space.
//!
//! A textured box (the bounding box, each face showing its view's silhouette, alpha to
//! coverage) was tried and drew the city's 640x360 still further from full detail (FLIP 0.038
//! against the coloured box's 0.035), and slower on a software rasterizer.

use glam::{Affine3A, Vec3, Vec4};
use props_anim::impostor::{Impostor, ImpostorLook};
use props_anim::material::Material;
use props_anim::property::{MaterialField, PropertyTarget};
use props_anim::{JointMatrix, Model, Pose, Primitive, skinning};

use crate::impostor_views::{Triangles, Views, others};

/// Most cells the views may visit, all triangles together: a file of many huge triangles gets
/// no impostor rather than an import that takes seconds. The views of all its material
/// variants together may visit as many again; past that, the box keeps its own look in each.
const MAX_VISITS: u64 = 1 << 26;

/// The impostor of `model`, if it has levels of detail and something to cover.
pub(crate) fn make(model: &Model) -> Option<Impostor> {
    let emission_of = animated_emission(model)?;
    if model.lod_errors().len() < 2 {
        return None;
    }
    let rest = model.pose_at(None, 0.0);
    let mut palette = vec![JointMatrix::IDENTITY; model.palette_len()];
    model.write_palettes(&rest, &mut palette);
    let mut positions = Vec::new();
    skinning::model_positions(model, &palette, &mut positions);
    let reach = morph_reach(model, &rest, &palette);
    let triangles =
        Triangles { model, positions: &positions, reach: &reach, palette: &palette, material_variant: None };
    let (min, max) = bounds(&triangles)?;
    let views = Views::draw(&triangles, (min, max), &mut { MAX_VISITS })?;
    let instance = placing_instance(model)?;
    let node = JointMatrix::to_affine(&palette[model.node_slot(instance)]);
    if node.matrix3.determinant().abs() <= f32::MIN_POSITIVE {
        return None;
    }
    let (center, extents) = views.fit((min, max));
    let paint: Vec<bool> = model.materials().iter().map(Material::is_paint).collect();
    let primitive = box_primitive((center, extents), &views.faces(&paint), &node.inverse());
    let (mut error, mut morph_reach) = (0.0f32, 0.0f32);
    // A point `r` from where it is at rest strays at most `r` further from the box.
    triangles.for_each(|t| {
        let strays = t.positions.iter().zip(t.reach).map(|(&p, r)| distance_to_box(p - center, extents * 0.5) + r);
        error = strays.fold(error, f32::max);
        morph_reach = t.reach.into_iter().fold(morph_reach, f32::max);
    });
    let material = views.material(model, &paint, emission_of);
    let material_variants = variant_looks((&triangles, &views), (min, max), &paint, emission_of);
    // Coordinates near the largest floats can overflow the box: then there is none.
    let finite = error.is_finite()
        && morph_reach.is_finite()
        && primitive.positions.iter().chain(&primitive.normals).all(|v| v.is_finite());
    let instance = instance as u32;
    finite.then_some(Impostor { primitive, material, instance, emission_of, error, morph_reach, material_variants })
}

/// The box's look in each of the model's material variants: the model's `views` seen in the
/// variant's materials (shaded anew, or drawn again where a part changes what it lets
/// through: [`Views::in_variant`]); the box's shape and normals stay its own look's. None
/// where the views drawn again would visit more than [`MAX_VISITS`] cells, all variants
/// together: then the box looks as in its own materials in every variant.
fn variant_looks(
    (triangles, views): (&Triangles<'_>, &Views),
    bounds: (Vec3, Vec3),
    paint: &[bool],
    emission_of: Option<u32>,
) -> Vec<ImpostorLook> {
    let mut budget = MAX_VISITS;
    // The views in the variant's materials, where they are shaded anew: one allocation for all.
    let mut shaded = None;
    let looks = (0..triangles.model.material_variants().len()).map(|v| {
        let triangles = Triangles { material_variant: Some(v as u8), ..*triangles };
        let drawn;
        let views = match views.in_variant(&triangles, &mut shaded) {
            Some(views) => views,
            None => {
                drawn = Views::draw(&triangles, bounds, &mut budget)?;
                &drawn
            }
        };
        let colors = vertex_colors(&views.faces(paint));
        Some(ImpostorLook { colors, material: views.material(triangles.model, paint, emission_of) })
    });
    looks.collect::<Option<Vec<_>>>().unwrap_or_default()
}

/// The one material whose emission (colour or strength) clips animate, `Some(None)` where they
/// animate no material, and `None` where they animate anything else of a material, or more
/// than one's emission.
fn animated_emission(model: &Model) -> Option<Option<u32>> {
    let mut source = None;
    for target in model.rig().properties().targets() {
        if let PropertyTarget::Material { material, field } = *target {
            let emission = matches!(field, MaterialField::Emissive | MaterialField::EmissiveStrength);
            if !emission || source.is_some_and(|m| m != material) {
                return None;
            }
            source = Some(material);
        }
    }
    Some(source)
}

/// How far the morph targets can move each vertex from where it is in the `rest` pose (drawn
/// with `palette`), in the model's units, as [`skinning::model_positions`] lists the vertices:
/// per target, its displacement placed as the vertex is at rest, times how far its weight can
/// stray from its rest weight (to the largest any pose gives it, either way). Empty for a model
/// without morph targets.
fn morph_reach(model: &Model, rest: &Pose, palette: &[JointMatrix]) -> Vec<f32> {
    if model.morph_weight_count() == 0 {
        return Vec::new();
    }
    let (largest, at_rest) = (model.largest_morph_weights(), rest.all_morph_weights());
    let mut reach = Vec::new();
    for (slot, instance) in model.instances().iter().enumerate() {
        let weights = model.rig().morph_range(instance.node);
        for primitive in &model.meshes()[instance.mesh as usize].primitives {
            let first = reach.len();
            reach.resize(first + primitive.vertex_count(), 0.0);
            // As drawn: through the skin's joints, or placed by the node.
            let skin = instance.skin.zip(primitive.influences.as_ref());
            let joints = skin.map(|(skin, influences)| (&palette[model.palette_range(skin)], influences));
            let node = &palette[model.node_slot(slot)];
            let place = |v: usize, d: Vec3| -> Vec3 {
                match joints {
                    Some((joints, influences)) => {
                        let moved = influences.of_vertex(v).map(|(j, w)| (joints.get(usize::from(j)), w));
                        moved.map(|(m, w)| m.map_or(Vec3::ZERO, |m| m.transform_vector(d) * w)).sum()
                    }
                    None => node.transform_vector(d),
                }
            };
            for (target, k) in primitive.morph_targets.iter().zip(weights.clone()) {
                let stray = (largest[k] + f64::from(at_rest[k].abs())) as f32;
                if stray > 0.0 {
                    for (v, (r, &d)) in reach[first..].iter_mut().zip(&target.positions).enumerate() {
                        *r += stray * place(v, d).length();
                    }
                }
            }
        }
    }
    reach
}

/// The box the triangles fill, if it is finite and not empty.
fn bounds(triangles: &Triangles<'_>) -> Option<(Vec3, Vec3)> {
    let (mut min, mut max) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
    triangles.for_each(|t| {
        for p in t.positions {
            (min, max) = (min.min(p), max.max(p));
        }
    });
    (min.is_finite() && max.is_finite() && (max - min).max_element() > 0.0).then_some((min, max))
}

/// The mesh instance whose node is nearest the rig's root (the first of those).
fn placing_instance(model: &Model) -> Option<usize> {
    let depths = model.rig().depths();
    (0..model.instances().len()).min_by_key(|&i| depths.get(model.instances()[i].node.index()).copied())
}

/// A point's distance to the surface of the box of half extents `half` centred on the origin.
fn distance_to_box(p: Vec3, half: Vec3) -> f32 {
    let q = p.abs() - half;
    q.max(Vec3::ZERO).length() + q.max_element().min(0.0).abs()
}

/// The box centred on `center` with full extents `extents`, its faces (+x, -x, +y, -y, +z,
/// -z) coloured and turned as `faces` say, moved by `to_node` (from the model's space into
/// the placing node's).
fn box_primitive((center, extents): (Vec3, Vec3), faces: &[(Vec4, Vec3); 6], to_node: &Affine3A) -> Primitive {
    let half = extents * 0.5;
    let mut positions = Vec::with_capacity(24);
    let mut normals = Vec::with_capacity(24);
    let mut indices = Vec::with_capacity(36);
    // The node's normal matrix: normals go through the inverse transpose.
    let normal_matrix = to_node.matrix3.inverse().transpose();
    for (f, &(_, normal)) in faces.iter().enumerate() {
        let (a, sign) = (f / 2, if f % 2 == 0 { 1.0 } else { -1.0 });
        let (u, v) = others(a);
        let axis = Vec3::AXES[a] * sign;
        // Corners counter-clockwise seen from outside: du x dv points out.
        let (du, dv) = (Vec3::AXES[u], Vec3::AXES[v]);
        let (du, dv) = if du.cross(dv).dot(axis) > 0.0 { (du, dv) } else { (dv, du) };
        let base = positions.len() as u32;
        for (su, sv) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            let corner = center + (axis + du * su + dv * sv) * half;
            positions.push(to_node.transform_point3(corner));
            normals.push(Vec3::from(normal_matrix * glam::Vec3A::from(normal)).normalize_or(axis));
        }
        indices.extend([0, 1, 2, 0, 2, 3].map(|i| base + i));
    }
    let mut primitive = Primitive::triangles(positions, normals, indices, None);
    primitive.colors = vertex_colors(faces);
    primitive
}

/// The box's vertices' colours, as [`box_primitive`] lists them: each face's on its four.
fn vertex_colors(faces: &[(Vec4, Vec3); 6]) -> Vec<Vec4> {
    faces.iter().flat_map(|&(color, _)| [color; 4]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_s_distance_to_a_box_is_to_its_nearest_face() {
        let half = Vec3::new(1.0, 2.0, 3.0);
        assert_eq!(distance_to_box(Vec3::ZERO, half), 1.0, "inside: to the nearest face");
        assert_eq!(distance_to_box(Vec3::new(3.0, 0.0, 0.0), half), 2.0);
        assert!((distance_to_box(Vec3::new(2.0, 3.0, 0.0), half) - 2f32.sqrt()).abs() < 1e-6, "past an edge");
    }

    /// A material variant whose parts cover what is behind them in both materials (`police`:
    /// its paint, textured, and its chrome trim, opaque) sees the model's own views shaded
    /// anew, exactly as drawn again; one that makes a part see-through (`taxi`: the window
    /// blended glass) is drawn again.
    #[test]
    fn views_shaded_anew_are_those_drawn_again() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/models/material_variants/material_variants.gltf");
        let model = crate::import_file(&path, &crate::Limits::default()).expect("it loads").model;
        let mut palette = vec![JointMatrix::IDENTITY; model.palette_len()];
        model.write_palettes(&model.pose_at(None, 0.0), &mut palette);
        let mut positions = Vec::new();
        skinning::model_positions(&model, &palette, &mut positions);
        let own =
            Triangles { model: &model, positions: &positions, reach: &[], palette: &palette, material_variant: None };
        let bounds = bounds(&own).expect("something to cover");
        let views = Views::draw(&own, bounds, &mut { MAX_VISITS }).expect("drawn");
        let paint: Vec<bool> = model.materials().iter().map(Material::is_paint).collect();
        let [taxi, police] = [0, 1].map(|v| Triangles { material_variant: Some(v), ..own });
        let drawn = Views::draw(&police, bounds, &mut { MAX_VISITS }).expect("drawn");
        let mut scratch = None;
        // Made, then again into the same cells.
        for _ in 0..2 {
            let shaded = views.in_variant(&police, &mut scratch).expect("police's parts are opaque in both");
            assert_eq!(shaded.faces(&paint), drawn.faces(&paint));
            assert_eq!(shaded.material(&model, &paint, None), drawn.material(&model, &paint, None));
            assert_ne!(shaded.faces(&paint), views.faces(&paint), "police looks otherwise than the model's own");
        }
        assert!(views.in_variant(&taxi, &mut scratch).is_none(), "the taxi's window is see-through glass");
    }

    #[test]
    fn every_face_of_the_box_faces_out() {
        let faces = [(Vec4::ONE, Vec3::X); 6];
        let primitive =
            box_primitive((Vec3::new(0.0, 1.0, 2.0), Vec3::new(2.0, 4.0, 6.0)), &faces, &Affine3A::IDENTITY);
        for t in primitive.indices.chunks_exact(3) {
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| primitive.positions[i as usize]);
            let outward = (b - a).cross(c - a);
            assert!(outward.dot((a + b + c) / 3.0 - Vec3::new(0.0, 1.0, 2.0)) > 0.0, "{t:?} winds inwards");
        }
    }
}
