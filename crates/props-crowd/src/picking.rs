//! What a player clicked: the prop whose culling sphere (the model's pose bound, baked at
//! import over every clip, times the prop's scale) a ray from the camera enters first: the
//! same conservative bound as culling, so a visible prop can always be picked.

use glam::Vec3;

/// Which of `bounds` (each a thing with the centre and radius of its sphere) a ray from
/// `origin` along the unit `direction` enters first; a ray starting inside a sphere enters it
/// at once.
pub fn first_hit<T>(origin: Vec3, direction: Vec3, bounds: impl Iterator<Item = (T, Vec3, f32)>) -> Option<T> {
    let mut nearest: Option<(f32, T)> = None;
    for (thing, centre, radius) in bounds {
        // Entry distance of the ray into the sphere, if it meets it ahead.
        let along = (centre - origin).dot(direction);
        let off = (centre - origin - direction * along).length_squared();
        if off > radius * radius {
            continue;
        }
        let entry = along - (radius * radius - off).sqrt();
        let t = if entry >= 0.0 {
            entry
        } else if along + (radius * radius - off).sqrt() >= 0.0 {
            0.0
        } else {
            continue;
        };
        if nearest.as_ref().is_none_or(|(best, _)| t < *best) {
            nearest = Some((t, thing));
        }
    }
    nearest.map(|(_, thing)| thing)
}
