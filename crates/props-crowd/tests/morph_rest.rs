//! A crowd marks the instances whose morph weights are all zero
//! ([`InstanceData::MORPH_AT_REST`]), so the renderer does not morph them; those with a weight
//! away from zero, and those of models without targets, stay unmarked.

mod support;

use std::sync::Arc;

use glam::{Affine3A, Vec3};
use props_anim::{Model, MorphTarget, Primitive};
use props_crowd::{Animates, CrowdSet, PosingConfig, PropModel};
use props_frame::{FrameData, InstanceData, ModelId};

/// A triangle with `targets` morph targets (each lifting its apex), at weight `weight` each
/// when it stands (it plays no clip).
fn morphed(targets: usize, weight: f32) -> Arc<Model> {
    let lift = MorphTarget { positions: vec![Vec3::ZERO, Vec3::ZERO, Vec3::Y], ..MorphTarget::default() };
    let primitive = Primitive { morph_targets: vec![lift; targets], ..support::triangle(1) };
    support::one_node_model(primitive, vec![weight; targets])
}

#[test]
fn instances_whose_weights_are_all_zero_are_marked_at_rest() {
    let mut set = CrowdSet::new(PosingConfig::default()).expect("valid");
    // 13 targets: the weights fill a palette slot of 12 and spill into the next.
    let models = [morphed(13, 0.0), morphed(13, 0.25), support::leveled_model(1, &[])];
    for (id, model) in models.iter().enumerate() {
        let id = ModelId(id as u32);
        set.set_model(PropModel::new(id, Arc::clone(model)), Animates::default()).expect("binds");
        for x in 0..3 {
            set.add(id, Affine3A::from_translation(Vec3::new(x as f32, 0.0, -5.0 * id.0 as f32)));
        }
    }
    let mut frame = FrameData::default();
    set.animate(&mut frame);
    set.extract(&mut frame);
    let marked: Vec<(ModelId, Vec<bool>)> = frame
        .batches
        .iter()
        .map(|batch| {
            let at_rest = |i: u32| frame.instances[i as usize].flags & InstanceData::MORPH_AT_REST != 0;
            (batch.model, batch.instances.clone().map(at_rest).collect())
        })
        .collect();
    let expected = [(ModelId(0), vec![true; 3]), (ModelId(1), vec![false; 3]), (ModelId(2), vec![false; 3])];
    assert_eq!(marked, expected, "at rest, moved, no targets");
    for instance in frame.instances.iter() {
        assert_eq!(instance.flags & !InstanceData::MORPH_AT_REST, 0, "no other flag: {instance:?}");
    }
}
