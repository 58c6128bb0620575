//! [`CrowdSet`]: a host's instances of any models, by id, for a host whose simulation is its
//! own. The host adds and removes instances of models and sets each one's placement and
//! animation state from its own data; each frame the set poses what the camera sees (culling,
//! sharing, update-rate LOD and the CPU budget, on the set's worker threads where
//! [`PosingConfig::threads`] asks for them) and extracts it as
//! frame data, by the same code as a scene's kinds.

use std::sync::Arc;

use glam::{Affine3A, Vec3};
use props_anim::humanoid::{self, BoneMap};
use props_anim::{Layer, Pose};
use props_frame::{Camera, FrameData, ModelId};

use crate::Ground;
use crate::animates::Animates;
use crate::error::{BindError, CrowdError};
use crate::gaited::{self, GaitState};
use crate::model::{BoundModel, PropModel};
use crate::model_crowd::ModelCrowd;
use crate::model_view::ModelView;
use crate::picking::first_hit;
use crate::posing::{AnimationStats, Posing};
use crate::posing_config::PosingConfig;
use crate::walkers::Walkers;

/// The id of one instance of a [`CrowdSet`]: valid until it is removed (or its model is); a
/// removed instance's id never names another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstanceId {
    index: u32,
    generation: u32,
}

/// Where an instance id's instance is, if it still is.
#[derive(Clone, Copy, Debug)]
struct Slot {
    generation: u32,
    /// Its crowd (model) and number there.
    at: Option<(u32, u32)>,
}

/// One model of the set: how its clips are numbered, which slot each instance fills, and its
/// walkers.
#[derive(Clone, Debug)]
struct Member {
    /// The names of its clip numbers so far, where [`Animates`] plays every clip by name: what
    /// later versions' clips are bound by.
    clip_names: Option<Vec<Option<String>>>,
    /// The slot of each instance of the crowd, by instance number.
    owners: Vec<u32>,
    /// Its instances' gaits, where they walk ([`Animates::gaits`]).
    walkers: Option<Walkers>,
    /// The model as given and how it animates, where it took clips from another model
    /// ([`Animates::clips_from`]): bound again, its clips retargeted anew, when that model gets
    /// a new version.
    taker: Option<(PropModel, Animates)>,
}

/// A host's instances of any number of models, each placed and animated by the host through
/// its id (see the module documentation).
pub struct CrowdSet {
    posing: Posing,
    /// One crowd per model, in the order the models were added.
    crowds: Vec<ModelCrowd>,
    members: Vec<Member>,
    slots: Vec<Slot>,
    /// Slots free for new instances.
    free: Vec<u32>,
    /// The ground walkers' feet are planted on ([`CrowdSet::set_ground`]).
    ground: Option<Ground>,
}

impl std::fmt::Debug for CrowdSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CrowdSet").field("models", &self.crowds.len()).field("instances", &self.len()).finish()
    }
}

/// One instance of a [`CrowdSet`], borrowed to place and animate ([`CrowdSet::get_mut`]).
#[derive(Debug)]
pub struct InstanceMut<'a> {
    crowd: &'a mut ModelCrowd,
    walkers: Option<&'a mut Walkers>,
    i: u32,
}

impl InstanceMut<'_> {
    /// Moves it: its model-to-world transform (its scale, the largest of its axes', scales its
    /// culling sphere and the errors its levels of detail are picked by). Its scale is meant
    /// equal on the axes: a stretched placement stretches the model, but its normals are
    /// carried as by an equal one (a model stretched in its file shades right: its nodes'
    /// normal matrices carry them). A placement that mirrors it (a scale of -1 on one axis: a
    /// building's mirrored twin) is drawn right, its faces culled by their winding turned, as
    /// three.js culls by each object's determinant.
    pub fn set_placement(&mut self, placement: Affine3A) {
        self.crowd.set_placement(self.i, placement);
    }

    /// Sets its clip layer `k` (a clip's number is [`ModelView::clip`]'s); `false`, and
    /// nothing set, when it has no layer `k`, its model no clip of that number, the layer's
    /// time or weight is not a number, or the layer has a mask (a host's layers play the
    /// whole rig). A walker's first
    /// [`gaited::LAYERS`] layers are its gaits', set again at each [`CrowdSet::advance`].
    #[must_use = "`false` means nothing was set: no such layer or clip"]
    pub fn set_layer(&mut self, k: usize, layer: Layer) -> bool {
        let model = self.crowd.model();
        let known = !layer.is_active()
            || (usize::from(layer.clip) < model.spec.clips.len()
                && model.missing_clips.binary_search(&layer.clip).is_err());
        let numbers = layer.time.is_finite() && layer.weight.is_finite();
        match self.crowd.layers_mut(self.i).get_mut(k) {
            Some(slot) if known && numbers && layer.mask == Layer::NO_MASK => {
                *slot = layer;
                true
            }
            _ => false,
        }
    }

    /// Sets a walker's motion ([`Animates::gaits`]): its speed over the ground, in world units
    /// per second (the host moves it along its way at that speed), and the standing clip it
    /// shows once it stops (its number; `None`: it keeps walking, however slowly). It stops
    /// below 0.15 m/s and moves off above 0.3 m/s (metres of its model's real size: its
    /// placement's scale over its metres per unit), the standing clip fading in and out over
    /// 0.3 s; the standing clip is the one set when it stops. Its layers and feet follow at the
    /// next [`CrowdSet::advance`]. `false`, and nothing set, when it does not walk, its model
    /// has no standing clip of that number, or `speed` is not a number.
    #[must_use = "`false` means nothing was set: it does not walk, or no such standing clip"]
    pub fn set_gait(&mut self, speed: f32, stand: Option<u16>) -> bool {
        self.walkers.as_deref_mut().is_some_and(|walkers| walkers.set(self.i as usize, speed, stand))
    }

    /// Its driver angles (radians), one per [`Animates::driver`], to set.
    pub fn drivers_mut(&mut self) -> &mut [f32] {
        let angles = self.crowd.model().spec.drivers.len();
        &mut self.crowd.drivers_mut(self.i)[..angles]
    }

    /// The values it sets directly, to set: for each [`Animates::morph_weight`] one, for each
    /// [`Animates::material_value`] as many as the field has, in the order declared. Shared
    /// poses share only equal values.
    pub fn values_mut(&mut self) -> &mut [f32] {
        let angles = self.crowd.model().spec.drivers.len();
        &mut self.crowd.drivers_mut(self.i)[angles..]
    }

    /// Paints it ([`props_frame::InstanceData::tint`]: the model's materials whose name holds `paint`).
    pub fn set_tint(&mut self, tint: [u8; 4]) {
        self.crowd.set_tint(self.i, tint);
    }

    /// Draws it in its model's material variant named `name` (`KHR_materials_variants`: a
    /// car's livery; [`crate::ModelView::material_variants`] lists them), or in its own
    /// materials for `None`. `false` (and its own materials) where the model has no variant of
    /// that name. A new version of the model keeps it in the variant of the same name, if it
    /// has one.
    pub fn set_material_variant(&mut self, name: Option<&str>) -> bool {
        let material_variant = name.map(|name| self.crowd.prop().model.material_variant(name));
        self.crowd.set_material_variant(self.i, material_variant.flatten());
        material_variant.is_none_or(|v| v.is_some())
    }
}

impl CrowdSet {
    /// An empty set posing as `config` says.
    pub fn new(config: PosingConfig) -> Result<Self, CrowdError> {
        Ok(Self {
            posing: Posing::new(config)?,
            crowds: Vec::new(),
            members: Vec::new(),
            slots: Vec::new(),
            free: Vec::new(),
            ground: None,
        })
    }

    /// Adds `prop` (its renderer id new to the set), or replaces the model of that id,
    /// animated as `animates` says. A replaced model's instances keep their ids, placements,
    /// states and paint, and their clip numbers name the same clips (by name: see
    /// [`Animates`]). On error (a clip or node the model lacks, or, where `animates` binds
    /// every clip, a clip an instance plays that the model lacks) nothing changes. Where
    /// `animates` names its clips, a layer playing a number past them is stopped.
    /// A model that takes clips from this one ([`Animates::clips_from`]) takes them anew, from
    /// this version (where that fails, it keeps those it had, logged).
    pub fn set_model(&mut self, prop: PropModel, animates: Animates) -> Result<(), BindError> {
        let id = prop.id;
        self.rig(prop, animates, false)?;
        self.rebind_takers(id);
        Ok(())
    }

    /// [`CrowdSet::set_model`] for going back to an earlier version of a model (its mod was
    /// removed): the layers of instances playing a clip number it lacks are stopped instead
    /// of refusing it.
    pub fn revert_model(&mut self, prop: PropModel, animates: Animates) -> Result<(), BindError> {
        let id = prop.id;
        self.rig(prop, animates, true)?;
        self.rebind_takers(id);
        Ok(())
    }

    /// Binds again every model that takes clips from model `id` (which has a new version), its
    /// clips retargeted anew, then those that take clips from these, and so on (each at most
    /// once: sources may name each other). One that no longer binds keeps what it had.
    fn rebind_takers(&mut self, id: ModelId) {
        let mut changed = vec![id];
        let mut rebound: Vec<ModelId> = Vec::new();
        while let Some(source) = changed.pop() {
            let takers: Vec<(PropModel, Animates)> = (self.members.iter().filter_map(|m| m.taker.clone()))
                .filter(|(prop, animates)| {
                    animates.clip_source().and_then(|(from, _)| from) == Some(source)
                        && prop.id != id
                        && !rebound.contains(&prop.id)
                })
                .collect();
            for (prop, animates) in takers {
                let taker = prop.id;
                rebound.push(taker);
                match self.rig(prop, animates, false) {
                    Ok(()) => changed.push(taker),
                    Err(error) => {
                        tracing::warn!(%error, model = taker.0, source = source.0, "keeps the clips it took before");
                    }
                }
            }
        }
    }

    fn rig(&mut self, given: PropModel, animates: Animates, stop_missing: bool) -> Result<(), BindError> {
        let prop = self.with_clips_taken(given.clone(), &animates)?;
        let took_from_another =
            !Arc::ptr_eq(&prop.model, &given.model) && animates.clip_source().is_some_and(|(from, _)| from.is_some());
        let taker = took_from_another.then(|| (given, animates.clone()));
        let at = self.crowds.iter().position(|c| c.prop().id == prop.id);
        let known = match at {
            Some(k) => self.members[k].clip_names.clone(),
            None => crate::animates::clip_naming(&prop.model),
        };
        let (mut spec, numbers) = animates.spec(&prop.model, known.as_deref())?;
        let has = spec.clips.len();
        if let Some(k) = at {
            let lacks = |clip: u16| usize::from(clip) >= has || numbers.missing(clip);
            // A host naming the clips it plays stops the layers past them; else a version
            // lacking a clip played is refused, unless it is one going back.
            match (stop_missing || animates.names_clips(), self.crowds[k].first_played(lacks)) {
                (true, _) => self.crowds[k].stop_clips(lacks),
                (false, Some(clip)) => match numbers.name(clip) {
                    Some(name) => return Err(BindError::MissingClip(name.to_owned())),
                    None => return Err(BindError::FewerClips { played: usize::from(clip), has }),
                },
                (false, None) => {}
            }
        }
        // A walker's gaits played in place: its host moves it.
        let prop = match animates.walks() {
            true => gaited::played_in_place(prop, &mut spec.clips[..2]),
            false => prop,
        };
        let layers = animates.layer_count();
        let (missing_clips, clip_names) = (numbers.missing, numbers.known);
        let model = BoundModel { missing_clips, ..BoundModel::new(prop, spec, layers) };
        let mut crowd = ModelCrowd::new(model, self.posing.crowd_options());
        let before = at.and_then(|k| {
            crowd.take_instances(&self.crowds[k]);
            self.members[k].walkers.take()
        });
        let walkers = animates.walks().then(|| Walkers::new(&mut crowd, self.ground.as_ref(), before));
        match at {
            Some(k) => {
                self.crowds[k] = crowd;
                let owners = std::mem::take(&mut self.members[k].owners);
                self.members[k] = Member { clip_names, walkers, owners, taker };
            }
            None => {
                self.crowds.push(crowd);
                self.members.push(Member { clip_names, owners: Vec::new(), walkers, taker });
            }
        }
        Ok(())
    }

    /// `prop` with the clips `animates` names that it lacks, taken from the model
    /// [`Animates::clips_from`] names (a walker: else from the version of it it replaces) and
    /// retargeted to its skeleton; as it is, when it lacks none or there is no source.
    fn with_clips_taken(&self, prop: PropModel, animates: &Animates) -> Result<PropModel, BindError> {
        let Some((source, names)) = animates.clip_source() else { return Ok(prop) };
        let lacks: Vec<&String> = names.iter().filter(|name| prop.model.find_clip(name).is_none()).collect();
        let replaced = || self.crowds.iter().find(|c| c.prop().id == prop.id);
        let (source, source_model) = match source {
            _ if lacks.is_empty() => return Ok(prop),
            Some(source) => (self.crowds.iter().find(|c| c.prop().id == source), format!("model {}", source.0)),
            None if animates.walks() && replaced().is_some() => (replaced(), "the version it replaces".to_owned()),
            None => return Ok(prop),
        };
        let refusal = |reason: String| BindError::Retarget {
            clips: lacks.iter().map(|n| n.as_str()).collect::<Vec<_>>().join("`, `"),
            source_model: source_model.clone(),
            reason,
        };
        let from = source.ok_or_else(|| refusal("it is not loaded".into()))?;
        let from = &from.prop().model;
        let clips: Vec<usize> = lacks.iter().filter_map(|name| from.find_clip(name)).collect();
        let (to_map, from_map) = (prop.bindings.bone_map(prop.model.rig()), BoneMap::find(from.rig()));
        let to_map = to_map.map_err(|error| refusal(format!("{error} (in its bone names)")))?;
        let (model, _) = humanoid::with_clips_from((&prop.model, &to_map), (from, &from_map), &clips)
            .map_err(|error| refusal(error.to_string()))?;
        Ok(PropModel { model: Arc::new(model), ..prop })
    }

    /// Removes the model of renderer id `id` and every instance of it; returns how many there
    /// were (`None`: no such model).
    pub fn remove_model(&mut self, id: ModelId) -> Option<usize> {
        let k = self.crowd_of(id)?;
        self.crowds.remove(k);
        let member = self.members.remove(k);
        for &slot in &member.owners {
            self.release(slot);
        }
        // The crowds after it moved down by one.
        for slot in &mut self.slots {
            if let Some((crowd, _)) = &mut slot.at
                && *crowd as usize > k
            {
                *crowd -= 1;
            }
        }
        Some(member.owners.len())
    }

    /// The models, in the order they were added.
    pub fn models(&self) -> impl Iterator<Item = &PropModel> {
        self.crowds.iter().map(ModelCrowd::prop)
    }

    /// Model `id` as the host sees it: its clips in the host's numbering (with their names and
    /// durations), its nodes at rest, its size.
    #[must_use]
    pub fn model(&self, id: ModelId) -> Option<ModelView<'_>> {
        let k = self.crowd_of(id)?;
        Some(ModelView::new(self.crowds[k].model()))
    }

    /// Adds an instance of model `id` at `placement`, no clip playing, drivers 0 (`None`: no
    /// such model).
    pub fn add(&mut self, id: ModelId, placement: Affine3A) -> Option<InstanceId> {
        let k = self.crowd_of(id)?;
        let slot = match self.free.pop() {
            Some(slot) => slot,
            None => {
                self.slots.push(Slot { generation: 0, at: None });
                (self.slots.len() - 1) as u32
            }
        };
        let i = self.crowds[k].push(placement);
        self.members[k].owners.push(slot);
        if let Some(walkers) = &mut self.members[k].walkers {
            walkers.push();
        }
        self.slots[slot as usize].at = Some((k as u32, i));
        Some(InstanceId { index: slot, generation: self.slots[slot as usize].generation })
    }

    /// Removes an instance; `false` when it is gone already.
    pub fn remove(&mut self, id: InstanceId) -> bool {
        let Some((k, i)) = self.locate(id) else { return false };
        self.crowds[k].swap_remove(i as u32);
        if let Some(walkers) = &mut self.members[k].walkers {
            walkers.swap_remove(i);
        }
        let owners = &mut self.members[k].owners;
        owners.swap_remove(i);
        if let Some(&moved) = owners.get(i) {
            self.slots[moved as usize].at = Some((k as u32, i as u32));
        }
        self.release(id.index);
        true
    }

    /// An instance, to place and animate; `None` when it is gone.
    pub fn get_mut(&mut self, id: InstanceId) -> Option<InstanceMut<'_>> {
        let (k, i) = self.locate(id)?;
        Some(InstanceMut { crowd: &mut self.crowds[k], walkers: self.members[k].walkers.as_mut(), i: i as u32 })
    }

    /// Where an instance stands.
    #[must_use]
    pub fn placement(&self, id: InstanceId) -> Option<Affine3A> {
        self.locate(id).map(|(k, i)| self.crowds[k].placement(i as u32))
    }

    /// An instance's clip layers.
    #[must_use]
    pub fn layers(&self, id: InstanceId) -> Option<&[Layer]> {
        self.locate(id).map(|(k, i)| self.crowds[k].layers(i as u32))
    }

    /// An instance's driver angles (as [`InstanceMut::drivers_mut`] sets them).
    #[must_use]
    pub fn drivers(&self, id: InstanceId) -> Option<&[f32]> {
        let (k, i) = self.locate(id)?;
        let angles = self.crowds[k].model().spec.drivers.len();
        Some(&self.crowds[k].drivers(i as u32)[..angles])
    }

    /// The values an instance sets directly (as [`InstanceMut::values_mut`] sets them).
    #[must_use]
    pub fn values(&self, id: InstanceId) -> Option<&[f32]> {
        let (k, i) = self.locate(id)?;
        let angles = self.crowds[k].model().spec.drivers.len();
        Some(&self.crowds[k].drivers(i as u32)[angles..])
    }

    /// The renderer id of an instance's model.
    #[must_use]
    pub fn model_of(&self, id: InstanceId) -> Option<ModelId> {
        self.locate(id).map(|(k, _)| self.crowds[k].prop().id)
    }

    /// An instance's pose now, on the general path from its exact state (for tools; allocates).
    #[must_use]
    pub fn pose_of(&self, id: InstanceId) -> Option<Pose> {
        self.locate(id).map(|(k, i)| self.crowds[k].pose(i as u32))
    }

    /// Instances of every model.
    #[must_use]
    pub fn len(&self) -> usize {
        self.crowds.iter().map(ModelCrowd::len).sum()
    }

    /// Whether there is no instance.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Sets the camera of the next frames: what is outside its view is not posed or drawn,
    /// and far instances are posed less often. `None` (the default): everything, every frame.
    pub fn set_camera(&mut self, camera: Option<Camera>) {
        self.posing.set_camera(camera);
    }

    /// Sets how many pixels high the camera's target is, for mesh LOD (see
    /// [`Posing::set_view_height`]).
    pub fn set_view_height(&mut self, pixels: u32) {
        self.posing.set_view_height(pixels);
    }

    /// A walker's gait state ([`Animates::gaits`]): which gait leads, the run's and the
    /// standing clip's weights; `None` when it is gone or does not walk.
    #[must_use]
    pub fn gait(&self, id: InstanceId) -> Option<&GaitState> {
        let (k, i) = self.locate(id)?;
        Some(self.members[k].walkers.as_ref()?.state(i))
    }

    /// A walker's feet (its model's) and which of them are down now, bit `k` for foot `k`
    /// (as its leading gait plants them; all while it stands), at any distance: a bit set since
    /// the last frame is a foot come down (near the camera, [`CrowdSet::pinned_feet`] says
    /// where). `None` when it is gone or does not walk.
    #[must_use]
    pub fn feet_down(&self, id: InstanceId) -> Option<(&[props_anim::NodeId], u8)> {
        let (k, i) = self.locate(id)?;
        Some(self.members[k].walkers.as_ref()?.feet_down(i))
    }

    /// The feet a walker near the camera has planted, posed at the last [`CrowdSet::animate`],
    /// and the world points they are held at: where each came down, on the ground. A foot
    /// listed that was not the frame before is a footstep, there. Empty for an instance not
    /// posed close up (beyond the near band, out of view, or with no feet); `None` when it is
    /// gone.
    pub fn pinned_feet(&self, id: InstanceId) -> Option<impl Iterator<Item = (props_anim::NodeId, Vec3)> + '_> {
        let (k, i) = self.locate(id)?;
        Some(self.crowds[k].pinned_feet(i as u32))
    }

    /// Plants walkers' feet on `ground` (its height at a world (x, z)): on a hill, a foot comes
    /// down as far above or below where the pose puts it as the ground there is above or below
    /// the ground under the instance; `None` (the default): level with where each instance
    /// stands.
    pub fn set_ground(&mut self, ground: Option<Ground>) {
        for (crowd, member) in self.crowds.iter_mut().zip(&self.members) {
            if member.walkers.is_some() {
                crowd.set_ground(ground.clone());
            }
        }
        self.ground = ground;
    }

    /// `seconds` of simulated time have passed: walkers' gaits move on at the speeds set
    /// (their layers set, their planted feet held: [`InstanceMut::set_gait`]; the host moves
    /// the instances), and near instances' spring bones swing through it at the next
    /// [`CrowdSet::animate`] (see [`Posing::advance`]). Not finite or not above 0 (a paused
    /// or rewound clock): nothing moves on.
    pub fn advance(&mut self, seconds: f32) {
        self.posing.advance(seconds);
        if !(seconds.is_finite() && seconds > 0.0) {
            return;
        }
        for (crowd, member) in self.crowds.iter_mut().zip(&mut self.members) {
            if let Some(walkers) = &mut member.walkers {
                walkers.advance(crowd, seconds);
            }
        }
    }

    /// Poses every instance the camera may see into `frame.palettes` (see
    /// [`Posing::animate`]); then call [`CrowdSet::extract`] with the same frame.
    /// Allocation-free once buffers have grown.
    pub fn animate(&mut self, frame: &mut FrameData) -> AnimationStats {
        self.posing.animate(&mut self.crowds, frame)
    }

    /// Appends what the last [`CrowdSet::animate`] posed into `frame`: one batch per model and level of detail, in
    /// the order they were added, and the lit lights near the camera.
    pub fn extract(&self, frame: &mut FrameData) {
        self.posing.extract(|| self.crowds.iter(), frame);
    }

    /// Takes how long the last [`CrowdSet::animate`] took, for the CPU budget (nothing without
    /// one).
    pub fn record_animation_time(&mut self, milliseconds: f32) {
        self.posing.record_animation_time(milliseconds);
    }

    /// What the last [`CrowdSet::animate`] did.
    #[must_use]
    pub fn animation_stats(&self) -> AnimationStats {
        self.posing.stats()
    }

    /// The instance a ray from `origin` along `direction` enters first, by the culling spheres
    /// (see [`first_hit`]).
    #[must_use]
    pub fn pick(&self, origin: Vec3, direction: Vec3) -> Option<InstanceId> {
        let direction = direction.try_normalize()?;
        let bounds = self.slots.iter().enumerate().filter_map(|(index, slot)| {
            let (k, i) = slot.at?;
            let (centre, radius) = self.crowds[k as usize].sphere(i);
            Some((InstanceId { index: index as u32, generation: slot.generation }, centre, radius))
        });
        first_hit(origin, direction, bounds)
    }

    /// The crowd of the model of renderer id `id`.
    fn crowd_of(&self, id: ModelId) -> Option<usize> {
        self.crowds.iter().position(|c| c.prop().id == id)
    }

    /// The crowd and number of a live instance.
    fn locate(&self, id: InstanceId) -> Option<(usize, usize)> {
        let slot = self.slots.get(id.index as usize).filter(|s| s.generation == id.generation)?;
        slot.at.map(|(k, i)| (k as usize, i as usize))
    }

    /// Frees a slot: its id is stale from now on.
    fn release(&mut self, slot: u32) {
        let slot_ref = &mut self.slots[slot as usize];
        slot_ref.at = None;
        slot_ref.generation = slot_ref.generation.wrapping_add(1);
        self.free.push(slot);
    }
}
