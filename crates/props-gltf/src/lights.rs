//! `KHR_lights_punctual`: the lights a model carries and the nodes carrying them, read from
//! the extension's JSON one light at a time, so that a light the game cannot read is left out
//! with a warning: a light is never a reason to refuse a file.

use std::f32::consts::FRAC_PI_2;

use gltf::json::Root;
use props_anim::Rig;
use props_anim::light::{Light, LightInstance, LightKind};
use serde::Deserialize;
use serde_json::Value;

use crate::error::{Warnings, warn};
use crate::index_u32;

/// The extension's name.
const EXTENSION: &str = "KHR_lights_punctual";

/// One light as the file writes it (defaults as the extension gives them).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FileLight {
    #[serde(rename = "type")]
    kind: String,
    name: Option<String>,
    #[serde(default = "white")]
    color: [f32; 3],
    #[serde(default = "one")]
    intensity: f32,
    range: Option<f32>,
    spot: Option<FileSpot>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FileSpot {
    #[serde(default)]
    inner_cone_angle: f32,
    #[serde(default = "quarter_pi")]
    outer_cone_angle: f32,
}

fn white() -> [f32; 3] {
    [1.0; 3]
}

fn one() -> f32 {
    1.0
}

fn quarter_pi() -> f32 {
    std::f32::consts::FRAC_PI_4
}

/// The file's lights, and the nodes of `scene_nodes` that carry one ([`Lights`]). Lights that cannot be
/// read are left out (and the nodes carrying them carry none), with a warning.
pub(crate) fn import_lights(root: &Root, rig: &Rig, scene_nodes: &[u32], warnings: &mut Warnings) -> Lights {
    let listed = root.extensions.as_ref().and_then(|e| e.others.get(EXTENSION)).and_then(|e| e.get("lights"));
    let listed = listed.and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let mut lights = Vec::new();
    // Per light of the file, its index among the lights kept.
    let mut kept = Vec::with_capacity(listed.len());
    for (i, value) in listed.iter().enumerate() {
        let path = format!("extensions.{EXTENSION}.lights[{i}]");
        match read_light(value) {
            Ok(light) => {
                kept.push(Some(index_u32(lights.len())));
                lights.push(light);
            }
            Err(why) => {
                warn(warnings, path, format!("this light is ignored: {why}"));
                kept.push(None);
            }
        }
    }
    let mut instances = Vec::new();
    for &source in scene_nodes {
        let extension = root.nodes.get(source as usize).and_then(|n| n.extensions.as_ref()?.others.get(EXTENSION));
        let Some(extension) = extension else { continue };
        let light = extension.get("light").and_then(Value::as_u64).and_then(|l| usize::try_from(l).ok());
        match (light.and_then(|l| kept.get(l).copied().flatten()), rig.from_source_index(source)) {
            (Some(light), Some(node)) => instances.push(LightInstance { node, light }),
            _ => warn(
                warnings,
                format!("nodes[{source}].extensions.{EXTENSION}.light"),
                "names no light that could be read: the node carries none",
            ),
        }
    }
    Lights { lights, instances, of_source: kept }
}

/// A file's lights as read.
pub(crate) struct Lights {
    /// The lights that could be read.
    pub lights: Vec<Light>,
    /// The nodes carrying them.
    pub instances: Vec<LightInstance>,
    /// Per light of the file, its index in `lights` (`None`: it could not be read).
    pub of_source: Vec<Option<u32>>,
}

/// One light, checked against the extension's rules.
fn read_light(value: &Value) -> Result<Light, String> {
    let light = FileLight::deserialize(value).map_err(|e| e.to_string())?;
    if !light.color.iter().all(|c| (0.0..=1.0).contains(c)) {
        return Err(format!("its colour {:?} is not within 0..1", light.color));
    }
    if !(light.intensity.is_finite() && light.intensity >= 0.0) {
        return Err(format!("its intensity {} is not a finite number from 0", light.intensity));
    }
    if light.range.is_some_and(|range| !(range.is_finite() && range > 0.0)) {
        return Err(format!("its range {:?} is not a finite number above 0", light.range));
    }
    let kind = match (light.kind.as_str(), &light.spot) {
        ("directional", _) => LightKind::Directional,
        ("point", _) => LightKind::Point,
        ("spot", Some(spot)) => {
            let (inner, outer) = (spot.inner_cone_angle, spot.outer_cone_angle);
            if !(0.0 <= inner && inner < outer && outer <= FRAC_PI_2) {
                return Err(format!("its cone angles {inner} and {outer} are not 0 <= inner < outer <= pi/2"));
            }
            LightKind::Spot { inner_cone_angle: inner, outer_cone_angle: outer }
        }
        ("spot", None) => return Err("a spot light needs `spot`".to_owned()),
        (other, _) => return Err(format!("`{other}` is not a light type (directional, point or spot)")),
    };
    Ok(Light { name: light.name, kind, color: light.color, intensity: light.intensity, range: light.range })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn lights_are_read_with_the_extension_s_defaults_and_bad_ones_left_out() {
        let spot = read_light(&json!({"type": "spot", "spot": {"outerConeAngle": 0.5}, "range": 20.0})).expect("spot");
        assert_eq!(spot.kind, LightKind::Spot { inner_cone_angle: 0.0, outer_cone_angle: 0.5 });
        assert_eq!((spot.color, spot.intensity, spot.range), ([1.0; 3], 1.0, Some(20.0)));
        let sun = read_light(&json!({"type": "directional", "color": [1.0, 0.9, 0.8], "intensity": 3.0})).expect("sun");
        assert_eq!((sun.kind, sun.intensity), (LightKind::Directional, 3.0));
        for bad in [
            json!({"type": "spot"}),
            json!({"type": "area"}),
            json!({"type": "point", "color": [2.0, 0.0, 0.0]}),
            json!({"type": "point", "intensity": -1.0}),
            json!({"type": "point", "range": 0.0}),
            json!({"type": "spot", "spot": {"innerConeAngle": 0.6, "outerConeAngle": 0.5}}),
            json!({"type": "point", "color": "red"}),
            json!({"color": [1.0, 1.0, 1.0]}),
        ] {
            assert!(read_light(&bad).is_err(), "{bad}");
        }
    }
}
