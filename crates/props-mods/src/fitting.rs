//! Mods far off the size their place expects are fitted to it, with a warning that says
//! their size in metres: a Fox exported in centimetres would stand 80 m tall as a car, a
//! soldier exported at a hundredth would be a speck on the lot. The game fits and warns;
//! `cargo xtask check-assets` warns the same way.

use props_anim::Model;

/// The code of the fitting warning.
pub const FITTED: &str = "PROPS_FITTED";

/// How tall a lot (ambient) model is expected to be, metres (a person, a bench, a small tree).
pub const LOT_HEIGHT: f32 = 1.8;

/// How far a model's height may be from the expected one, either way, before it is fitted.
pub const FAR_OFF: f32 = 8.0;

/// Samples per clip when measuring a model.
const SAMPLES: usize = 5;

/// A model's height (Y extent over its rest pose and clips), in its own units; `None` for a
/// model without vertices.
pub fn height(model: &Model) -> Option<f32> {
    model.sampled_extent(SAMPLES).map(|e| e.max.y - e.min.y).filter(|h| h.is_finite() && *h > 0.0)
}

/// The scale that shows a model `height` units tall at `scale` metres per unit: `scale`
/// itself when its height is within [`FAR_OFF`] of `expected` metres, else the scale that
/// makes it `expected` metres tall, with the warning's message (code [`FITTED`]).
fn fit(height: Option<f32>, scale: f32, expected: f32, what: &str) -> (f32, Option<String>) {
    let Some(height) = height else { return (scale, None) };
    let metres = height * scale;
    let ratio = metres / expected;
    if (1.0 / FAR_OFF..=FAR_OFF).contains(&ratio) {
        return (scale, None);
    }
    let fitted = expected / height;
    // A role read in other units than metres (the Fox's centimetres) says so.
    let units = if scale == 1.0 { String::new() } else { format!(" at {scale} m per unit") };
    // The power of ten nearest the fit: what the model was likely made in.
    let likely = 10f32.powf(fitted.log10().round());
    let warning = format!(
        "it is {metres:.2} m tall{units}, far from {what}'s {expected:.1} m: shown at {:.3}x (export it in metres: \
         in Blender, apply the scale and keep Unit Scale at 1.0; or give its `role` and `units` in its sidecar, \
         `<name>.prop.toml`: `units = {likely}` shows it {:.2} m tall, `units = {scale}` keeps it as it is)",
        fitted / scale,
        height * likely
    );
    (fitted, Some(warning))
}

/// Metres per model unit a host shows `model` at in a kind whose models are `units` metres
/// per unit, with the warning, if any: `given` (its sidecar's `units`) where there are any,
/// warned of when far off, else `units`, fitted to its place when far off; far off the
/// kind's base model (its name and height, in its units), or [`LOT_HEIGHT`] on the lot. The
/// one sizing the game and the tools that show or walk a mod as the town does take.
#[must_use]
pub fn shown(model: &Model, given: Option<f32>, units: f32, base: Option<(&str, f32)>) -> (f32, Option<String>) {
    let height = height(model);
    let (units, expected, what) = match base {
        Some((stem, base)) => (units, base * units, format!("the {stem}")),
        None => (1.0, LOT_HEIGHT, "a lot model".to_owned()),
    };
    match given {
        Some(given) => (given, kept(height, given, expected, &what)),
        None => fit(height, units, expected, &what),
    }
}

/// The warning for a model `height` units tall that its sidecar's `units` keeps at its size
/// (`units` metres per unit: it is never fitted) when that is far off `expected` metres,
/// [`FAR_OFF`] either way: `units = 1000` makes a person a kilometre tall (code [`FITTED`]).
fn kept(height: Option<f32>, units: f32, expected: f32, what: &str) -> Option<String> {
    let metres = height? * units;
    let ratio = metres / expected;
    (!(1.0 / FAR_OFF..=FAR_OFF).contains(&ratio)).then(|| {
        format!(
            "it is {metres:.2} m tall at {units} m per unit, as its sidecar's `units` asks, far from {what}'s \
             {expected:.1} m: check `units` (metres per model unit: 1 for metres, 0.01 for centimetres), or leave it \
             out to have the game fit the model"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_models_far_off_are_fitted() {
        assert_eq!(fit(Some(1.6), 1.0, 1.5, "a car"), (1.0, None));
        assert_eq!(fit(Some(11.0), 1.0, 1.5, "a car"), (1.0, None), "within 8x");
        // A Fox in centimetres as a car: 81 m.
        let (scale, warning) = fit(Some(81.0), 1.0, 1.5, "a car");
        assert!((scale * 81.0 - 1.5).abs() < 1e-5);
        let warning = warning.expect("warned");
        assert!(warning.contains("81.00 m tall") && warning.contains("a car's 1.5 m"), "{warning}");
        // The Fox's own units (0.01) keep it as it is.
        assert_eq!(fit(Some(81.0), 0.01, 0.8, "a fox"), (0.01, None));
        // A fox in metres read at the animals' 0.01: `units = 1` shows it 0.81 m tall, and
        // the units read now, 0.01, keep it as it is.
        let warning = fit(Some(0.81), 0.01, 0.8, "a fox").1.expect("a centimetre tall");
        assert!(
            warning.contains("`units = 1` shows it 0.81 m") && warning.contains("`units = 0.01` keeps it"),
            "{warning}"
        );
        // A 0.2 m soldier on the lot is shown 1.8 m tall.
        let (scale, warning) = fit(Some(0.2), 1.0, 1.8, "a lot model");
        assert!((scale * 0.2 - 1.8).abs() < 1e-5 && warning.is_some());
        assert_eq!(fit(None, 1.0, 1.8, "a lot model"), (1.0, None));
    }

    #[test]
    fn units_kept_far_off_are_warned() {
        assert_eq!(kept(Some(1.8), 1.0, 1.8, "a lot model"), None);
        assert_eq!(kept(Some(180.0), 0.01, 1.8, "a lot model"), None);
        let warning = kept(Some(1.8), 1000.0, 1.8, "the pedestrian").expect("a kilometre tall");
        assert!(warning.contains("1800.00 m tall at 1000 m per unit") && warning.contains("the pedestrian's 1.8 m"));
        assert_eq!(kept(None, 1000.0, 1.8, "a lot model"), None);
    }

    /// One sizing for the game and the tools: a sidecar's units kept (warned far off), else
    /// the kind's units fitted to its base model, or to a person's height on the lot.
    #[test]
    fn a_mod_is_shown_at_its_units_or_fitted_to_its_place() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/models/Fox.glb");
        let fox = props_gltf::import_file(&path, &props_gltf::Limits::default()).expect("the Fox").model;
        let tall = height(&fox).expect("it has vertices");
        // In centimetres, as a car whose model is 1.5 units tall at a metre a unit.
        let (units, warning) = shown(&fox, None, 1.0, Some(("car", 1.5)));
        assert!((units * tall - 1.5).abs() < 1e-4, "{units}");
        assert!(warning.expect("fitted").contains("far from the car's 1.5 m"));
        // Its sidecar's centimetres are kept, as are the fox kind's own.
        assert_eq!(shown(&fox, Some(0.01), 1.0, Some(("car", 1.5))), (0.01, None));
        assert_eq!(shown(&fox, None, 0.01, Some(("fox", tall))), (0.01, None));
        // On the lot: a person's height.
        let (units, warning) = shown(&fox, None, 0.01, None);
        assert!((units * tall - LOT_HEIGHT).abs() < 1e-4 && warning.expect("fitted").contains("a lot model's"));
        let (units, warning) = shown(&fox, Some(1000.0), 1.0, None);
        assert_eq!(units, 1000.0);
        assert!(warning.expect("warned").contains("as its sidecar's `units` asks"));
    }
}
