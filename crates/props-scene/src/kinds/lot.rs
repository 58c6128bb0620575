//! The mod lot: the models that no other kind claims (a mod dropped into `mods/` under a name
//! that is no kind's asset, or whose sidecar gives it the `ambient` role), each standing once
//! in a row in the park block north-east of the town's centre, looping a clip (the sidecar's
//! `loop` binding, else its first; a model without clips stands in its rest pose). A kind like
//! the others: its props are posed, culled, shared, picked and described by the scene. It has
//! no base asset, so it has no props until a mod comes; each time its models change it lays
//! the row out again, every model keeping its clip time.

use std::collections::BTreeMap;

use glam::{Affine3A, Quat, Vec3};
use hecs::{Entity, World};
use props_anim::clip::Playback;
use props_anim::{Layer, Model, Spec};
use props_crowd::{BindError, Bindings, BoundModel, PropModel};
use props_frame::ModelId;

use crate::access::StepAccess;
use crate::error::SceneError;
use crate::kind::{KindAsset, KindProps, PropInstance, PropKind};
use crate::town::Town;

/// Smallest gap between two lot models, metres.
const GAP: f32 = 3.0;
/// The clip state a sidecar binds (`[clips] loop = "Idle"`): the clip a lot model loops.
pub const LOOP: &str = "loop";

/// The code of the warning for a lot model whose looped clip lasts no time ([`still_clip`]).
pub const STILL_CLIP: &str = "PROPS_ZERO_LENGTH_CLIP";

/// Why `model`, on the lot with `bindings`, shows a single pose though it has clips: the clip
/// it loops (its `loop` binding, else its first) has one keyframe. `None` when it plays, has
/// no clips, or binds a clip it lacks (refused when bound).
#[must_use]
pub fn still_clip(model: &Model, bindings: &Bindings) -> Option<String> {
    let looped = looped_clip(model, bindings).ok()??;
    let clip = model.clips().get(looped).filter(|clip| clip.duration() <= 0.0)?;
    let name = clip.name().map_or_else(|| format!("#{looped}"), |name| format!("`{name}`"));
    Some(format!(
        "clip {name} lasts no time (one keyframe): the mod lot loops it, and shows a single pose; key it over time, \
         or name the clip to loop in its sidecar (`[clips] loop = \"Idle\"`)"
    ))
}

/// The clip `model` loops on the lot with `bindings`: its `loop` binding (an error when it has
/// no such clip), else its first; none without clips.
fn looped_clip(model: &Model, bindings: &Bindings) -> Result<Option<usize>, BindError> {
    match bindings.clips.contains_key(LOOP) {
        true => bindings.clip(model, LOOP, "").map(Some),
        false => Ok((!model.clips().is_empty()).then_some(0)),
    }
}

/// A model on the lot: which model it shows, and where its clip is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LotModel {
    id: ModelId,
    playback: Playback,
}

impl LotModel {
    /// The renderer id of the model it shows (the same across the model's reloads).
    #[must_use]
    pub fn id(&self) -> ModelId {
        self.id
    }

    /// Its clip's playback.
    #[must_use]
    pub fn playback(&self) -> Playback {
        self.playback
    }
}

/// The mod lot kind (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct ModLot {
    /// Where the row starts (its first model's origin), metres; the row runs along +X.
    origin: Vec3,
}

impl ModLot {
    /// Stands one prop of each of `props`' models in a row along +X from the origin, each
    /// [`GAP`] from the next, its clip at the time `times` holds for its model (else 0).
    fn lay_out(&self, world: &mut World, props: &mut KindProps, times: &BTreeMap<ModelId, Playback>) {
        let mut x = 0.0;
        for model in 0..props.crowds().len() {
            let crowd = props.crowd(model);
            let (prop, clip) = (crowd.prop(), crowd.model().spec.clips.first().copied());
            let radius = ground_radius(&prop.model) * prop.scale;
            x += radius;
            let at = self.origin + Vec3::X * x;
            x += radius + GAP;
            let placement = Affine3A::from_scale_rotation_translation(Vec3::splat(prop.scale), Quat::IDENTITY, at);
            let duration = clip.map_or(0.0, |c| prop.model.clips()[c].duration());
            let mut playback = times.get(&prop.id).copied().unwrap_or_else(|| Playback::looping(0.0));
            playback.time = playback.mode.wrap(playback.time, duration);
            let lot = LotModel { id: prop.id, playback };
            let entity = props.spawn(world, model, placement, (lot,));
            if clip.is_some()
                && let Ok(instance) = world.get::<&PropInstance>(entity)
            {
                props.of(&instance).layers_mut(instance.index())[0] = Layer::once(0, playback.clip_time(duration));
            }
        }
    }
}

impl PropKind for ModLot {
    fn name(&self) -> &'static str {
        "lot_models"
    }

    fn asset(&self) -> KindAsset {
        KindAsset { stem: None, units: 1.0, place: "lot", role: "ambient", variants: true, parts: &[], states: &[LOOP] }
    }

    /// Any number of models, none included; each loops its bound clip, else its first.
    fn bind(&self, models: &[PropModel]) -> Result<Vec<BoundModel>, SceneError> {
        models
            .iter()
            .map(|prop| {
                let clip = looped_clip(&prop.model, &prop.bindings).map_err(SceneError::of_model("lot model"))?;
                let spec = Spec { clips: clip.into_iter().collect(), ..Spec::default() };
                Ok(BoundModel::new(prop.clone(), spec, usize::from(clip.is_some())))
            })
            .collect()
    }

    fn spawn(&mut self, world: &mut World, town: &Town<'_>, props: &mut KindProps) {
        let block = town.config.block;
        self.origin = Vec3::new(block * 0.15, 0.0, -block * 0.5);
        self.lay_out(world, props, &BTreeMap::new());
    }

    fn access(&self) -> StepAccess {
        StepAccess::nothing().writes::<LotModel>().reads::<PropInstance>()
    }

    fn step(&mut self, world: &World, _town: &Town<'_>, props: &mut KindProps, dt: f32) {
        for (lot, instance) in world.query::<(&mut LotModel, &PropInstance)>().iter() {
            if !props.owns(instance) {
                continue;
            }
            let crowd = props.of(instance);
            let Some(&clip) = crowd.model().spec.clips.first() else { continue };
            let duration = crowd.prop().model.clips()[clip].duration();
            lot.playback.advance(dt, duration);
            crowd.layers_mut(instance.index())[0] = Layer::once(0, lot.playback.clip_time(duration));
        }
    }

    /// Lays the row out again for the new models, each keeping its clip time.
    fn rebind(&mut self, world: &mut World, props: &mut KindProps, models: Vec<BoundModel>) {
        let mut times = BTreeMap::new();
        let mut gone = Vec::new();
        for (entity, lot, instance) in world.query_mut::<(Entity, &LotModel, &PropInstance)>() {
            if props.owns(instance) {
                times.insert(lot.id, lot.playback);
                gone.push(entity);
            }
        }
        for entity in gone {
            let _ = world.despawn(entity);
        }
        props.replace(models);
        self.lay_out(world, props, &times);
    }

    fn describe(&self, world: &World, _town: &Town<'_>, props: &KindProps, entity: Entity) -> Option<String> {
        let (lot, instance) = (world.get::<&LotModel>(entity).ok()?, world.get::<&PropInstance>(entity).ok()?);
        let crowd = props.crowd(instance.model());
        let model = &crowd.prop().model;
        let Some(&clip) = crowd.model().spec.clips.first() else {
            return Some("model on the mod lot, in its rest pose".to_owned());
        };
        let clip = &model.clips()[clip];
        let duration = clip.duration();
        Some(format!(
            "model on the mod lot, looping `{}` ({:.1} of {duration:.1} s)",
            clip.name().unwrap_or("unnamed clip"),
            lot.playback.clip_time(duration)
        ))
    }
}

/// Radius around the origin, in the ground plane, of the box a model's vertices fill over its
/// rest pose and clips (skins applied: a skinned mesh's bind-space positions can be in other
/// units than its joints), at least 0.5 and at most 1000 units.
fn ground_radius(model: &Model) -> f32 {
    let Some(extent) = model.sampled_extent(5) else { return 0.5 };
    let x = extent.min.x.abs().max(extent.max.x.abs());
    let z = extent.min.z.abs().max(extent.max.z.abs());
    x.hypot(z).clamp(0.5, 1000.0)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    use crate::{Scene, SceneConfig, synthetic};

    fn scene() -> Scene {
        let config = SceneConfig::default()
            .with_count("windmills", 0)
            .with_count("cars", 0)
            .with_count("foxes", 0)
            .with_count("buses", 0);
        Scene::new(config, synthetic::town().expect("builds")).expect("scene")
    }

    fn prop(id: u32, model: Result<Model, synthetic::SyntheticError>) -> PropModel {
        PropModel::new(ModelId(id), Arc::new(model.expect("builds")))
    }

    fn lot(scene: &Scene) -> Vec<(Entity, LotModel)> {
        let mut lot: Vec<_> = scene.world().query::<(Entity, &LotModel)>().iter().map(|(e, l)| (e, *l)).collect();
        lot.sort_by_key(|(_, l)| l.id());
        lot
    }

    /// A traffic light on the lot bound to loop `green` (one key, a pose) shows a single
    /// pose, warned of; looping its first clip, `cycle`, it is not.
    #[test]
    fn a_lot_model_looping_a_one_key_clip_is_warned_of() {
        let light = crate::kinds::traffic_lights::stand_in().expect("builds");
        let green = Bindings { clips: [(LOOP.to_owned(), "green".to_owned())].into(), ..Bindings::default() };
        let warning = still_clip(&light, &green).expect("a single pose");
        assert!(warning.contains("clip `green` lasts no time"), "{warning}");
        assert_eq!(still_clip(&light, &Bindings::default()), None, "its first clip plays");
    }

    /// The lot starts empty; its models stand once each in a row along +X, apart, each
    /// looping its first clip, and are described.
    #[test]
    fn lot_models_stand_in_a_row_and_loop_their_first_clip() {
        let mut scene = scene();
        assert_eq!(scene.count("lot_models"), 0);
        let models = vec![
            prop(40, crate::kinds::foxes::stand_in()),
            prop(41, crate::kinds::houses::stand_in()),
            prop(42, crate::kinds::foxes::stand_in()),
        ];
        scene.set_kind_models("lot_models", models).expect("the lot takes any model");
        assert_eq!(scene.count("lot_models"), 3);
        let at: Vec<Vec3> =
            lot(&scene).iter().map(|(e, _)| scene.placement_of(*e).expect("a prop").translation.into()).collect();
        assert!(at.windows(2).all(|w| w[1].x > w[0].x + GAP && w[1].z == w[0].z && w[1].y == 0.0), "{at:?}");
        scene.step(0.5);
        let fox = lot(&scene)[0];
        assert!((fox.1.playback().time - 0.5).abs() < 1e-6);
        let said = scene.describe(fox.0).expect("a lot prop").summary;
        assert!(said.contains("looping `Survey`"), "{said}");
        // The building stand-in has no clip: it stands in its rest pose.
        let mill = lot(&scene)[1].0;
        assert!(scene.describe(mill).expect("a lot prop").summary.contains("rest pose"));
    }

    /// A sidecar's `loop` binding picks the clip; a new set of models lays the row out again,
    /// each model keeping its clip time, and one taken away leaves.
    #[test]
    fn the_bound_clip_loops_and_clip_times_survive_a_reload() {
        let mut scene = scene();
        let bindings = Bindings { clips: [(LOOP.to_owned(), "Run".to_owned())].into(), ..Bindings::default() };
        let run = prop(40, crate::kinds::foxes::stand_in()).with_bindings(bindings);
        scene
            .set_kind_models("lot_models", vec![run.clone(), prop(41, crate::kinds::foxes::stand_in())])
            .expect("takes them");
        scene.step(0.25);
        let (entity, _) = lot(&scene)[0];
        assert!(scene.describe(entity).expect("a prop").summary.contains("looping `Run`"));
        scene.set_kind_models("lot_models", vec![run]).expect("takes it");
        assert_eq!(scene.count("lot_models"), 1);
        let (_, kept) = lot(&scene)[0];
        // Run lasts 1.16 s: 0.25 s in, still.
        assert!((kept.playback().time - 0.25).abs() < 1e-6, "{:?}", kept.playback());
        let missing = Bindings { clips: [(LOOP.to_owned(), "Sleep".to_owned())].into(), ..Bindings::default() };
        let error =
            scene.set_kind_models("lot_models", vec![prop(40, crate::kinds::foxes::stand_in()).with_bindings(missing)]);
        assert!(error.is_err(), "a bound clip the model lacks is refused");
        assert_eq!(scene.count("lot_models"), 1, "and the lot keeps what it had");
    }
}
