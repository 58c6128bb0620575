//! The windmills: on rings on the hills around the town, placed in O(1) each from their index,
//! so adding and removing them never moves the others. Each yaws its nacelle into the wind at
//! a limited rate and its rotor's angular speed follows the wind speed with inertia; both are
//! procedural overrides of the `nacelle` (about local Y, rest translation kept) and `hub`
//! (about local Z) nodes, set as the animation runtime's two drivers.

use std::collections::HashMap;
use std::f32::consts::{PI, TAU};

use glam::{Affine3A, Quat, Vec2, Vec3};
use hecs::{Entity, World};
use props_anim::{Driver, Model, Spec};
use props_crowd::{BoundModel, Convention, ModelCrowd, PropModel};

use crate::access::StepAccess;
use crate::error::SceneError;
use crate::kind::{KindAsset, KindProps, ModelPick, PropInstance, PropKind, at_most, some_models};
use crate::rng::{Rng, Stream};
use crate::stand_in_kit::{Node, SyntheticError, build, node, spin};
use crate::town::Town;
use crate::town::terrain::Terrain;
use crate::town::wind::{Site, WindField, wrap_near};

/// Most windmills the town holds.
pub const MAX_WINDMILLS: usize = 100_000;
/// Windmills the town starts with unless the game says otherwise.
pub const DEFAULT_WINDMILLS: usize = 300;

/// Below this wind speed the rotor idles to a stop, m/s.
pub const CUT_IN: f32 = 2.5;
/// Above this wind speed the rotor turns no faster, m/s.
pub const RATED: f32 = 13.0;
/// Rotor angular speed per m/s of wind between cut-in and rated, rad/s (8 m/s: one turn in
/// about 4 s, as the `spin` clip).
pub const ROTOR_GAIN: f32 = 0.2;
/// Time constant of the rotor's inertia, seconds.
pub const ROTOR_INERTIA: f32 = 5.0;
/// Fastest nacelle yaw, rad/s.
pub const YAW_RATE: f32 = 0.3;
/// Windmills are drawn between these times the model's scale (seeded per windmill).
const MIN_SCALE: f32 = 0.9;
const MAX_SCALE: f32 = 1.15;
/// The first ring of windmills stands this far beyond the town's flat ground, metres.
const HILLS_OFFSET: f32 = 50.0;
/// Golden angle: staggers the windmill rings.
const GOLDEN_ANGLE: f32 = 2.399_963;

/// The rotor's steady angular speed in a wind of `speed`, rad/s.
#[must_use]
pub fn rotor_speed_for(speed: f32) -> f32 {
    if speed < CUT_IN { 0.0 } else { ROTOR_GAIN * speed.min(RATED) }
}

/// A windmill on the hills: where it stands. How it moves is kept beside its crowd
/// ([`Windmills::state_of`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Windmill {
    index: u32,
    site: Vec2,
}

/// How a windmill moves now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindmillState {
    /// Nacelle yaw, radians in `[-pi, pi)`: the rotor faces this heading.
    pub yaw: f32,
    /// Rotor angle, radians in `[0, 2 pi)`, clockwise seen from the front.
    pub rotor_angle: f32,
    /// Rotor angular speed, rad/s.
    pub rotor_speed: f32,
}

/// The windmills of one model's crowd as the wind system steps them, a structure of arrays
/// aligned with the crowd's instances (instance `i`'s are the `i`-th): where each samples the
/// wind and its rotor speed. Their yaw and rotor angle are the crowd's drivers. Every windmill
/// is stepped every step, so this is what a step reads, 16 bytes a windmill, in order, rather
/// than the world's entities.
#[derive(Clone, Debug, Default)]
struct Rotors {
    sites: Vec<Site>,
    speeds: Vec<f32>,
}

impl Windmill {
    /// Its place in the layout (the n-th windmill ever placed; removal takes the highest).
    #[must_use]
    pub fn index(&self) -> u32 {
        self.index
    }

    /// Where it stands, (x, z).
    #[must_use]
    pub fn site(&self) -> Vec2 {
        self.site
    }
}

/// The windmill layout: concentric rings from `inner_radius` outwards, `spacing` apart, each
/// ring holding six more windmills than the one inside it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Layout {
    pub inner_radius: f32,
    pub spacing: f32,
    pub seed: u64,
}

impl Layout {
    fn first_ring(&self) -> u64 {
        ((TAU * self.inner_radius / self.spacing).floor() as u64).max(6)
    }

    /// Windmills on rings `0..ring`.
    fn before_ring(&self, ring: u64) -> u64 {
        ring * self.first_ring() + 3 * ring * ring.saturating_sub(1)
    }

    /// Ring and slot of windmill `index`, in O(1).
    fn ring_of(&self, index: u64) -> (u64, u64) {
        let b = self.first_ring() as f64 - 3.0;
        // Solve 3k^2 + (base - 3)k = index for the ring k, then correct float rounding.
        let mut ring = ((-b + (b * b + 12.0 * index as f64).sqrt()) / 6.0).floor().max(0.0) as u64;
        while ring > 0 && self.before_ring(ring) > index {
            ring -= 1;
        }
        while self.before_ring(ring + 1) <= index {
            ring += 1;
        }
        (ring, index - self.before_ring(ring))
    }

    /// Windmill `index` standing on `terrain` in `field`: the windmill, where it samples the
    /// wind, its drivers (nacelle yaw, rotor angle) and its placement.
    fn windmill(
        &self,
        index: u32,
        terrain: &Terrain,
        field: &WindField,
        scale: f32,
    ) -> (Windmill, Site, [f32; 2], Affine3A) {
        let (ring, slot) = self.ring_of(u64::from(index));
        let capacity = (self.first_ring() + 6 * ring) as f32;
        let mut rng = Rng::stream(self.seed, Stream::Windmill, u64::from(index));
        let radius = self.inner_radius + ring as f32 * self.spacing + rng.range(-0.2, 0.2) * self.spacing;
        let angle = (slot as f32 + 0.5 + rng.range(-0.2, 0.2)) / capacity * TAU + ring as f32 * GOLDEN_ANGLE;
        let site = Vec2::new(angle.cos(), angle.sin()) * radius;
        let scale = rng.range(MIN_SCALE, MAX_SCALE) * scale;
        let yaw = rng.angle() - PI;
        let drivers = [yaw, rng.angle()];
        let ground = Vec3::new(site.x, terrain.height(site), site.y);
        let placement = Affine3A::from_scale_rotation_translation(Vec3::splat(scale), Quat::IDENTITY, ground);
        (Windmill { index, site }, field.site(site), drivers, placement)
    }
}

/// Steps between two updates of a windmill's yaw and rotor speed from the wind, staggered by
/// runs of [`WIND_RUN`] instances so that each step updates an even share of them (the wind
/// and the windmills change over seconds: a 1/15 s update is smooth); the rotor turns every
/// step.
const WIND_STEPS: u64 = 4;
/// Consecutive instances that turn into the wind on the same step.
const WIND_RUN: usize = 64;

/// Turns the windmills due in step number `step` into the wind and brings their rotor speed
/// towards the wind's, then spins every rotor: each crowd's drivers (nacelle yaw, rotor angle)
/// beside its [`Rotors`]. Two passes: the runs of windmills due, then every rotor in one
/// stream (which the compiler vectorizes).
fn update(field: &WindField, crowds: &mut [ModelCrowd], rotors: &mut [Rotors], time: f64, step: u64, dt: f32) {
    let wind_dt = dt * WIND_STEPS as f32;
    let inertia = 1.0 - (-wind_dt / ROTOR_INERTIA).exp();
    let max_yaw = YAW_RATE * wind_dt;
    let now = field.at_time(time);
    // Run `r` is due when `step + r` is a multiple of `WIND_STEPS`.
    let first_due = ((WIND_STEPS - step % WIND_STEPS) % WIND_STEPS) as usize;
    for (crowd, rotors) in crowds.iter_mut().zip(rotors) {
        let drivers = crowd.all_drivers_mut();
        let Rotors { sites, speeds } = rotors;
        debug_assert_eq!(drivers.len(), sites.len() * 2, "two drivers per windmill, aligned with the crowd");
        for start in (first_due * WIND_RUN..sites.len()).step_by(WIND_STEPS as usize * WIND_RUN) {
            let end = (start + WIND_RUN).min(sites.len());
            let run =
                drivers[start * 2..end * 2].chunks_exact_mut(2).zip(&sites[start..end]).zip(&mut speeds[start..end]);
            for ((drivers, site), speed) in run {
                let wind = now.sample(site);
                let error = wrap_near(wind.from - drivers[0]);
                drivers[0] = wrap_near(drivers[0] + error.clamp(-max_yaw, max_yaw));
                *speed += (rotor_speed_for(wind.speed) - *speed) * inertia;
            }
        }
        // Speed and step are small: at most one turn to take off.
        for (drivers, speed) in drivers.chunks_exact_mut(2).zip(speeds.iter()) {
            let turned = drivers[1] + speed * dt;
            drivers[1] = if turned >= TAU { turned - TAU } else { turned };
        }
    }
}

/// The windmills: on the ring layout, added and removed at its outside, each showing one of the
/// windmill models (picked per windmill from the town's seed). Drivers: nacelle yaw (about the
/// nacelle's Y), rotor angle (the hub turned clockwise seen from the front: about -Z, as the
/// `spin` clip).
pub struct Windmills {
    layout: Layout,
    /// Windmill entities by layout index: removal pops the newest.
    entities: Vec<Entity>,
    /// Each model's windmills as the wind system steps them.
    rotors: Vec<Rotors>,
    /// How many stand when the kind is registered.
    initial: usize,
}

impl Default for Windmills {
    fn default() -> Self {
        Self::new(DEFAULT_WINDMILLS)
    }
}

impl Windmills {
    /// `initial` windmills, on rings from beyond the town's flat ground, spaced as the town's
    /// configuration says.
    #[must_use]
    pub fn new(initial: usize) -> Self {
        Self { layout: Layout::default(), entities: Vec::new(), rotors: Vec::new(), initial }
    }

    /// Adds up to `count` windmills on the next free sites (never beyond [`MAX_WINDMILLS`] in
    /// all); returns how many were added.
    pub fn add(&mut self, world: &mut World, town: &Town<'_>, props: &mut KindProps, count: usize) -> usize {
        let start = self.entities.len();
        let end = (start + count).min(MAX_WINDMILLS);
        let batch: Vec<_> = (start..end)
            .map(|i| {
                let pick = ModelPick::new(i as u64, (town.rng(self.name(), i as u64).next_u64() >> 32) as u32);
                let model = pick.model(props.crowds().len());
                let scale = props.crowd(model).prop().scale;
                let (mill, site, drivers, placement) = self.layout.windmill(i as u32, town.terrain, town.wind, scale);
                let instance = props.push(model, placement);
                props.of(&instance).drivers_mut(instance.index()).copy_from_slice(&drivers);
                self.rotors.resize_with(props.crowds().len(), Rotors::default);
                let rotors = &mut self.rotors[model];
                debug_assert_eq!(rotors.sites.len(), instance.index() as usize, "aligned with the crowd");
                rotors.sites.push(site);
                rotors.speeds.push(0.0);
                (mill, pick, instance)
            })
            .collect();
        self.entities.extend(world.spawn_batch(batch));
        end - start
    }

    /// Removes up to `count` windmills, newest first; returns how many were removed.
    pub fn remove(&mut self, world: &mut World, props: &mut KindProps, count: usize) -> usize {
        let keep = self.entities.len().saturating_sub(count);
        let removed = self.entities.len() - keep;
        for entity in self.entities.drain(keep..).rev() {
            // The newest windmill is the last instance of its model's crowd (windmills are
            // pushed, and picked again, in layout order).
            if let Ok(instance) = world.get::<&PropInstance>(entity).map(|i| *i) {
                let crowd = props.of(&instance);
                debug_assert_eq!(instance.index() as usize + 1, crowd.len(), "the newest is its crowd's last");
                crowd.pop();
                let rotors = &mut self.rotors[instance.model()];
                rotors.sites.pop();
                rotors.speeds.pop();
            }
            // Every entity in the list is alive: only this method despawns windmills.
            let _ = world.despawn(entity);
        }
        removed
    }

    /// How the windmill `entity` of `world` moves now (`props` are this kind's, as
    /// [`crate::Scene::kind_and_props`] gives them); `None` for an entity that is not one.
    #[must_use]
    pub fn state_of(&self, world: &World, props: &KindProps, entity: Entity) -> Option<WindmillState> {
        let instance = *world.get::<&PropInstance>(entity).ok()?;
        if !props.owns(&instance) {
            return None;
        }
        let (model, i) = (instance.model(), instance.index());
        let drivers = props.crowd(model).drivers(i);
        Some(WindmillState {
            yaw: drivers[0],
            rotor_angle: drivers[1],
            rotor_speed: self.rotors[model].speeds[i as usize],
        })
    }

    /// Windmills standing.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entities.len()
    }

    /// Whether none stand.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entities.is_empty()
    }

    /// Radius of the outermost windmill ring now, metres (for placing the camera, or a ground
    /// that covers them).
    #[must_use]
    pub fn extent(&self, world: &World) -> f32 {
        let inner = self.layout.inner_radius;
        self.entities
            .last()
            .and_then(|e| world.get::<&Windmill>(*e).ok().map(|m| m.site().length()))
            .unwrap_or(inner)
            .max(inner)
    }
}

impl PropKind for Windmills {
    fn name(&self) -> &'static str {
        "windmills"
    }

    fn asset(&self) -> KindAsset {
        KindAsset {
            stem: Some("windmill"),
            units: 1.0,
            place: "hills",
            role: "windmill",
            variants: true,
            parts: &[("nacelle", None), ("rotor", None)],
            states: &[],
        }
    }

    fn stand_in(&self) -> Option<Result<Model, SyntheticError>> {
        Some(stand_in())
    }

    fn count(&self) -> Option<usize> {
        Some(self.initial)
    }

    fn set_count(&mut self, count: usize) -> Result<(), SceneError> {
        self.initial = at_most(self.name(), count, MAX_WINDMILLS)?;
        Ok(())
    }

    /// Every windmill model (at least one): windmills pick among them.
    fn bind(&self, models: &[PropModel]) -> Result<Vec<BoundModel>, SceneError> {
        let rig = |windmill: &PropModel| {
            let (w, b) = (&*windmill.model, &windmill.bindings);
            let nodes = |part, convention| b.nodes(w, part, convention).map_err(SceneError::of_model("windmill"));
            let spec = Spec {
                drivers: vec![
                    Driver { nodes: nodes("nacelle", Convention::Named("nacelle"))?, axis: Vec3::Y },
                    Driver { nodes: nodes("rotor", Convention::Named("hub"))?, axis: Vec3::NEG_Z },
                ],
                ..Spec::default()
            };
            Ok(BoundModel::new(windmill.clone(), spec, 0))
        };
        some_models(self.name(), models)?.iter().map(rig).collect()
    }

    /// Every windmill picks again among the new models, keeping its state and placement.
    fn rebind(&mut self, world: &mut World, props: &mut KindProps, rigs: Vec<BoundModel>) {
        // The windmills move to new crowds; their rotors move with them.
        let rotors = &self.rotors;
        let before: HashMap<Entity, (Site, f32)> = world
            .query_mut::<(Entity, &PropInstance)>()
            .into_iter()
            .filter(|(_, instance)| props.owns(instance))
            .map(|(entity, instance)| {
                let (r, i) = (&rotors[instance.model()], instance.index() as usize);
                (entity, (r.sites[i], r.speeds[i]))
            })
            .collect();
        props.repick(world, rigs);
        self.rotors = props
            .crowds()
            .iter()
            .map(|c| Rotors { sites: vec![Site::default(); c.len()], speeds: vec![0.0; c.len()] })
            .collect();
        for (entity, instance) in world.query_mut::<(Entity, &PropInstance)>() {
            if let Some(&(site, speed)) = before.get(&entity) {
                let (r, i) = (&mut self.rotors[instance.model()], instance.index() as usize);
                (r.sites[i], r.speeds[i]) = (site, speed);
            }
        }
    }

    fn spawn(&mut self, world: &mut World, town: &Town<'_>, props: &mut KindProps) {
        let (spacing, seed) = (town.config.windmill_spacing, town.config.seed);
        self.layout = Layout { inner_radius: town.terrain.flat_radius() + HILLS_OFFSET, spacing, seed };
        self.add(world, town, props, self.initial);
    }

    /// Its windmills' motion is kept beside their crowds, not in the world.
    fn access(&self) -> StepAccess {
        StepAccess::nothing()
    }

    fn step(&mut self, _world: &World, town: &Town<'_>, props: &mut KindProps, dt: f32) {
        update(town.wind, props.crowds_mut(), &mut self.rotors, town.time, town.steps, dt);
    }

    fn describe(&self, world: &World, town: &Town<'_>, props: &KindProps, entity: Entity) -> Option<String> {
        let site = world.get::<&Windmill>(entity).ok()?.site();
        let (wind, state) = (town.wind.sample(site, town.time), self.state_of(world, props, entity)?);
        Some(format!("windmill: wind {:.1} m/s, rotor {:.1} rpm", wind.speed, state.rotor_speed * 60.0 / TAU))
    }
}

/// The windmill: `tower` → `nacelle` (14 m up) → `hub` (0.7 m up, 1 m forward) → three blades;
/// clip `spin` (one turn in 4 s, clockwise from the front).
pub fn stand_in() -> Result<Model, SyntheticError> {
    let blade = |name, angle: f32| Node {
        rotation: Quat::from_rotation_z(angle),
        ..node(name, Vec3::new(0.0, 0.0, 0.3), &[], true)
    };
    let nodes = [
        node("tower", Vec3::ZERO, &[1], true),
        node("nacelle", Vec3::new(0.0, 14.0, 0.0), &[2], true),
        node("hub", Vec3::new(0.0, 0.7, 1.0), &[3, 4, 5], true),
        blade("blade_0", 0.0),
        blade("blade_1", TAU / 3.0),
        blade("blade_2", 2.0 * TAU / 3.0),
    ];
    build(&nodes, vec![("spin", vec![spin(2, Vec3::NEG_Z, 4.0, 1.0)])], None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_layout_is_o1_and_consistent() {
        let layout = Layout { inner_radius: 200.0, spacing: 40.0, seed: 1 };
        let mut expected = (0, 0);
        for index in 0..20_000u64 {
            assert_eq!(layout.ring_of(index), expected, "index {index}");
            let capacity = layout.first_ring() + 6 * expected.0;
            expected = if expected.1 + 1 == capacity { (expected.0 + 1, 0) } else { (expected.0, expected.1 + 1) };
        }
    }

    #[test]
    fn rotor_speed_follows_wind() {
        assert_eq!(rotor_speed_for(1.0), 0.0);
        assert!(rotor_speed_for(6.0) < rotor_speed_for(10.0));
        assert_eq!(rotor_speed_for(20.0), rotor_speed_for(RATED));
    }
}
