//! The demo's animated lights as the scene plays them, on the real assets: a car's
//! headlights, tail, brake and indicator lamps on their own layers (a brake layer does not
//! turn the headlights off: a layer blends the properties its clip animates), the traffic
//! light's phases and the houses' and street lamps' night clips, all through the runtime's
//! general path and its fast path alike.

use props_anim::property::{MaterialField, PropertyTarget};
use props_anim::runtime::LaneState;
use props_anim::{JointMatrix, Layer, Model, Pose, Spec, pose_state, runtime::Program};
use props_scene::vehicle_lights::{Indicator, VehicleLights};

fn asset(name: &str) -> Model {
    let path = crate::support::root().join("assets").join(name);
    props_gltf::import_file(&path, &props_gltf::Limits::default()).expect("the asset imports").model
}

/// The emissive factor of material `name` in `pose`.
fn emissive(model: &Model, pose: &Pose, name: &str) -> [f32; 3] {
    let material = model.materials().iter().position(|m| m.name.as_deref() == Some(name)).expect("material") as u32;
    let target = PropertyTarget::Material { material, field: MaterialField::Emissive };
    let id = model.rig().properties().find(target).expect("animated");
    pose.property(id).try_into().expect("three values")
}

/// Poses `layers` both ways and checks that the fast path packs the same values.
fn posed(model: &Model, spec: &Spec, layers: &[Layer]) -> Pose {
    let (mut pose, mut scratch) = (Pose::from_rest(model.rig()), Pose::from_rest(model.rig()));
    let drivers = vec![0.0; spec.drivers.len()];
    pose_state(model, spec, layers, &drivers, &mut pose, &mut scratch);
    let program = Program::new(model, spec);
    let len = program.palette_len();
    let (mut expected, mut got) = (vec![JointMatrix::IDENTITY; len], vec![JointMatrix::IDENTITY; 4 * len]);
    model.write_palettes(&pose, &mut expected);
    let lane = |k: usize| LaneState { layers, drivers: &drivers, palette: k * len };
    program.write_palettes4(std::array::from_fn(lane), &mut program.scratch(), &mut got);
    let values =
        |p: &[JointMatrix]| p[model.property_slot()..].iter().flat_map(JointMatrix::to_array).collect::<Vec<_>>();
    assert_eq!(values(&expected), values(&got[..len]), "the fast path's light values");
    pose
}

#[test]
fn a_car_s_lights_play_on_their_own_layers() {
    let car = asset("car.glb");
    let mut clips = Vec::new();
    let lights = VehicleLights::find(&car, &mut clips, 0);
    assert_eq!((clips.len(), lights.layers()), (4, 3), "night, brake and both indicators");
    let spec = Spec { clips, ..Spec::default() };
    let at = |state: (f32, bool, Indicator), time: f64| {
        let mut layers = vec![Layer::NONE; 3];
        lights.write(&mut layers, state, time);
        posed(&car, &spec, &layers)
    };
    let day = at((0.0, false, Indicator::Off), 0.0);
    assert_eq!(emissive(&car, &day, "headlight"), [0.0; 3], "off by day");
    assert_eq!(emissive(&car, &day, "taillight"), [0.0; 3]);
    let night = at((1.0, false, Indicator::Off), 0.0);
    assert_eq!(emissive(&car, &night, "headlight"), [1.0, 0.95, 0.8]);
    assert_eq!(emissive(&car, &night, "taillight"), [0.45, 0.01, 0.0], "dim red at night");
    let braking = at((1.0, true, Indicator::Off), 0.0);
    assert_eq!(emissive(&car, &braking, "taillight"), [1.0, 0.04, 0.0], "bright when braking");
    assert_eq!(emissive(&car, &braking, "headlight"), [1.0, 0.95, 0.8], "the brake layer leaves the headlights on");
    // 12 blinks of 0.8 s, and 0.1 s (on) or 0.5 s (off) into the next.
    let left_on = at((0.0, false, Indicator::Left), 9.7);
    let left_off = at((0.0, false, Indicator::Left), 10.1);
    assert_eq!(emissive(&car, &left_on, "indicator_left"), [1.0, 0.45, 0.0], "blinking: on");
    assert_eq!(emissive(&car, &left_off, "indicator_left"), [0.0; 3], "blinking: off");
    assert_eq!(emissive(&car, &left_on, "indicator_right"), [0.0; 3], "only the turning side");
    let right = at((0.0, false, Indicator::Right), 9.7);
    assert_eq!(emissive(&car, &right, "indicator_right"), [1.0, 0.45, 0.0]);
}

#[test]
fn houses_and_street_lamps_light_with_the_night_clip() {
    for (file, material, lit) in
        [("building.glb", "windows", [1.0, 0.72, 0.38]), ("street_lamp.glb", "lamp_glass", [1.0, 0.85, 0.55])]
    {
        let model = asset(file);
        let spec = props_scene::night::spec(&model);
        assert_eq!(props_scene::night::layers(&model), 1, "{file}");
        let glow = |level| emissive(&model, &posed(&model, &spec, &[props_scene::night::layer(level)]), material);
        assert_eq!(glow(0.0), [0.0; 3], "{file} by day");
        assert_eq!(glow(1.0), lit, "{file} at night");
        let half = glow(0.5);
        assert!((half[0] - lit[0] / 2.0).abs() < 1e-6, "{file} at dusk: {half:?}");
    }
}

#[test]
fn the_traffic_light_s_phases_light_one_lamp() {
    let light = asset("traffic_light.glb");
    for (phase, lit) in [("green", "lamp_green"), ("amber", "lamp_amber"), ("red", "lamp_red")] {
        let spec = Spec { clips: vec![light.find_clip(phase).expect("clip")], ..Spec::default() };
        let pose = posed(&light, &spec, &[Layer::once(0, 0.0)]);
        for lamp in ["lamp_red", "lamp_amber", "lamp_green"] {
            let glow = emissive(&light, &pose, lamp);
            assert_eq!(glow.iter().any(|&c| c > 0.0), lamp == lit, "{phase}: {lamp} {glow:?}");
        }
    }
}

/// The previewer's influence heat map of a model with animated lights keeps its palette
/// layout, so it is drawn with the model's own palettes (it refused the car at first).
#[test]
fn the_heat_map_of_a_lit_model_keeps_its_palette_layout() {
    for file in ["car.glb", "traffic_light.glb", "building.glb"] {
        let model = asset(file);
        let heat = props_render::influence_heat_map(&model).expect("the heat map builds");
        assert_eq!(heat.palette_len(), model.palette_len(), "{file}");
        assert_eq!(heat.property_slot(), model.property_slot(), "{file}");
        assert_eq!(heat.property_value_count(), model.property_value_count(), "{file}");
    }
}
