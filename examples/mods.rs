//! Hot reload in a host: two windmills of the host's own, and a mods folder watched while the
//! host runs. A mod named `windmill` replaces the host's windmill under the same id (its
//! instances keep turning); any other model a modder drops in is placed once beside them; a
//! refused file is reported with its report, and the last good version stays.
//!
//! `cargo run -p props-examples --example mods` watches the workspace's `mods/`; drop a
//! `.glb` or `.gltf` there while it runs (add `-- --headless --frames 30 --screenshot mods.png`
//! without a window).

use std::path::Path;
use std::time::Duration;

use glam::{Affine3A, Vec3};
use props_examples::world::{self, HostWorld};
use props_examples::{Example, Gpu};
use props_host::{Animates, HostConfig, HostEvent, InstanceId, Layer, ModConfig, PropHost};
use props_host::{Lighting, ModelId};
use props_render::Renderer;

/// Where the host's windmills stand: behind the wall, and in front of it.
const WINDMILLS: [Vec3; 2] = [Vec3::new(-2.0, 0.0, -8.0), Vec3::new(3.0, 0.0, 5.0)];
/// How long the host waits at start for the mods already there.
const WAIT: Duration = Duration::from_secs(10);

fn main() -> Result<(), props_examples::Error> {
    tracing_subscriber::fmt().with_env_filter(tracing_subscriber::EnvFilter::from_default_env()).init();
    props_examples::run::<ModsHost>()
}

/// The host's world, the props, and what the mods did.
struct ModsHost {
    world: HostWorld,
    renderer: Renderer,
    props: PropHost,
    windmill: ModelId,
    /// Every instance, the host's windmills first, then one per model a mod added.
    instances: Vec<InstanceId>,
    /// Every mod event so far, in order.
    log: Vec<HostEvent>,
    /// The last frame's time, seconds.
    last: f32,
}

impl Example for ModsHost {
    fn new(gpu: &Gpu, format: wgpu::TextureFormat) -> Result<Self, props_examples::Error> {
        Self::watching(gpu, format, concat!(env!("CARGO_MANIFEST_DIR"), "/../mods").as_ref())
    }

    fn frame(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        (target, size): (&wgpu::TextureView, (u32, u32)),
        seconds: f32,
    ) {
        // The frame boundary: whatever the mods did lands here, between two frames.
        let mut events = Vec::new();
        self.props.poll_mods(&mut self.renderer, &mut events);
        for event in events {
            self.apply(event);
        }
        // Every instance plays its model's first clip (the windmill's `spin`).
        for (k, &id) in self.instances.iter().enumerate() {
            if let Some(mut prop) = self.props.get_mut(id) {
                // `false` for a model without clips: it stands at rest.
                let _ = prop.set_layer(0, Layer::looping(0, seconds + k as f32 * 0.7));
            }
        }
        // A mod's spring bones (a VRM avatar's hair) swing through the frame's time.
        self.props.advance((seconds - self.last).clamp(0.0, 0.1));
        self.last = seconds;
        let camera = world::camera(size);
        self.props.prepare(&mut self.renderer, encoder, (&camera, Lighting::default()), size);
        let mut pass =
            self.world.begin_pass((&gpu.device, &gpu.queue), encoder, (target, size), (&camera, &self.renderer));
        self.renderer.render(&mut pass);
    }
}

impl ModsHost {
    /// The host with its windmills, watching `folder` for mods.
    fn watching(gpu: &Gpu, format: wgpu::TextureFormat, folder: &Path) -> Result<Self, props_examples::Error> {
        let mut renderer = Renderer::new(&gpu.adapter, &gpu.device, &gpu.queue, world::renderer_config(format));
        let mut props = PropHost::new(HostConfig::default())?;
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/windmill.glb");
        let windmill = props.load_file(path.as_ref(), Animates::default().clips(["spin"]), &mut renderer)?.model;
        let instances = WINDMILLS.iter().filter_map(|at| props.add(windmill, Affine3A::from_translation(*at)));
        let instances = instances.collect();
        let initial = props.watch_mods(folder, ModConfig::default(), WAIT, &mut renderer)?;
        let world = HostWorld::new(&gpu.device, format, &renderer);
        let mut host = Self { world, renderer, props, windmill, instances, log: Vec::new(), last: 0.0 };
        for event in initial {
            host.apply(event);
        }
        Ok(host)
    }

    /// What the host does about a mod: places a model a mod added to the right of the others,
    /// says what happened.
    fn apply(&mut self, event: HostEvent) {
        match &event {
            HostEvent::Loaded { path, model, report } => {
                let at = Vec3::new(9.0 + 4.0 * (self.instances.len() - WINDMILLS.len()) as f32, 0.0, 2.0);
                self.instances.extend(self.props.add(*model, Affine3A::from_translation(at)));
                tracing::info!(path = %path.display(), issues = report.issues.len(), "a mod adds a model");
            }
            HostEvent::Replaced { path, model, .. } if *model == self.windmill => {
                tracing::info!(path = %path.display(), "a mod replaces the windmill");
            }
            HostEvent::Refused { refused, .. } => tracing::warn!("{}", refused.report),
            HostEvent::Removed { model, .. } => {
                self.instances.retain(|&id| self.props.instances().model_of(id).is_some_and(|m| m != *model));
            }
            other => tracing::info!(?other, "mod"),
        }
        self.log.push(event);
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;
    use std::time::Instant;

    use props_examples::Headless;
    use props_examples::world::checks::{is_color, over_the_wall, pixel_at};
    use props_examples::world::{WALL_COLOR, WINDMILL_TOWER};

    use super::*;

    /// A minute and more into the run it still moves: every clip it plays loops.
    #[test]
    fn it_still_moves_past_a_minute() {
        props_examples::assert_still_moving::<ModsHost>(100);
    }

    fn asset(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(name)
    }

    /// Draws frames until the host has logged `count` events (at most 20 s).
    fn frames_until(run: &mut Headless<ModsHost>, count: usize) -> &HostEvent {
        let start = Instant::now();
        while run.example.log.len() < count {
            assert!(start.elapsed() < Duration::from_secs(20), "no mod event after {:?}", run.example.log);
            run.frame();
            std::thread::sleep(Duration::from_millis(20));
        }
        &run.example.log[count - 1]
    }

    /// The host's windmill behind its wall is hidden, the one in front drawn: in a frame at
    /// the start of the clip, whose blades do not cover the tower where it is looked at (the
    /// frames waiting for a mod are as many as the wall clock makes them).
    fn check_image(run: &mut Headless<ModsHost>) {
        run.frame_at(0.0);
        let image = run.image().expect("the frame");
        let size = image.dimensions();
        let behind = WINDMILLS[0] + Vec3::new(0.0, 2.0, 0.0);
        let above = WINDMILLS[0] + Vec3::new(0.0, WINDMILL_TOWER, 0.0);
        assert!(over_the_wall(size, behind) && !over_the_wall(size, above));
        assert!(is_color(pixel_at(&image, behind), WALL_COLOR), "the wall hides the windmill behind it");
        let shown = pixel_at(&image, above);
        assert!(shown.iter().all(|&c| c > 150), "its white tower shows above the wall, not {shown:?}");
    }

    /// A mods folder in a host: a refused windmill keeps the host's, a mod named `windmill`
    /// replaces it under the same id with its instances, removing it brings the host's back;
    /// a model of another name is added and placed, and goes with its instance.
    #[test]
    fn mods_load_replace_refuse_and_go_in_a_running_host() {
        let folder = std::env::temp_dir().join(format!("props-examples-mods-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).expect("a mods folder");
        let watching = Headless::new((320, 180), |gpu, format| ModsHost::watching(gpu, format, &folder));
        let Some(mut run) = props_examples::on_gpu(watching) else { return };
        check_image(&mut run);
        let windmill = run.example.windmill;
        let host_model = Arc::clone(run.example.props.model(windmill).expect("the host's windmill").model());

        // A car named `windmill` has no `spin`: refused, with the report; the windmill stays.
        std::fs::copy(asset("assets/car.glb"), folder.join("windmill.glb")).expect("copy");
        let HostEvent::Refused { refused, .. } = frames_until(&mut run, 1) else { panic!("{:?}", run.example.log) };
        assert!(refused.fatal().any(|issue| issue.code == "PROPS_RIG"), "{}", refused.report);
        assert!(refused.to_string().contains("windmill.glb") && refused.to_string().contains("`spin`"), "{refused}");
        assert!(Arc::ptr_eq(run.example.props.model(windmill).expect("shown").model(), &host_model));
        let renderer = &run.example.renderer;
        let on_gpu = renderer.model_footprint(windmill).map(|f| f.total());
        assert_eq!(on_gpu, renderer.footprint(&host_model).ok().map(|f| f.total()), "the GPU shows the windmill again");
        check_image(&mut run);

        // Its file gone: no version of it showed.
        std::fs::remove_file(folder.join("windmill.glb")).expect("remove");
        let withdrawn = frames_until(&mut run, 2);
        assert!(matches!(withdrawn, HostEvent::Withdrawn { model: None, .. }), "{withdrawn:?}");

        // The sign, which spins, named `windmill`: it replaces the windmill, same id, same instances.
        std::fs::copy(asset("mods/example/spinning_sign.gltf"), folder.join("windmill.gltf")).expect("copy");
        let replaced = frames_until(&mut run, 3);
        assert!(matches!(replaced, HostEvent::Replaced { model, .. } if *model == windmill), "{replaced:?}");
        let shown = run.example.props.model(windmill).expect("shown");
        assert!(shown.node("sign").is_some(), "the sign shows in the windmill's place");
        let ids = &run.example.instances;
        assert!(ids.iter().all(|&id| run.example.props.instances().model_of(id) == Some(windmill)), "same ids");

        // Gone again: the host's windmill is back.
        std::fs::remove_file(folder.join("windmill.gltf")).expect("remove");
        let reverted = frames_until(&mut run, 4);
        assert!(matches!(reverted, HostEvent::Reverted { model, .. } if *model == windmill), "{reverted:?}");
        assert!(Arc::ptr_eq(run.example.props.model(windmill).expect("shown").model(), &host_model));
        check_image(&mut run);

        // A street lamp: a model of its own, placed by the host; removed with its instance.
        std::fs::copy(asset("assets/street_lamp.glb"), folder.join("lamp.glb")).expect("copy");
        let HostEvent::Loaded { model: lamp, .. } = *frames_until(&mut run, 5) else { panic!("{:?}", run.example.log) };
        assert_ne!(lamp, windmill);
        assert_eq!(run.example.props.instances().len(), 3, "the host placed the lamp");
        std::fs::remove_file(folder.join("lamp.glb")).expect("remove");
        let removed = frames_until(&mut run, 6);
        assert!(matches!(removed, HostEvent::Removed { model, instances: 1, .. } if *model == lamp), "{removed:?}");
        assert_eq!(run.example.props.instances().len(), 2);
        assert_eq!(run.example.instances.len(), 2);
        let _ = std::fs::remove_dir_all(&folder);
    }
}
