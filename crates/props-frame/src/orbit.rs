//! [`OrbitCamera`]: a free camera orbiting a target (the game orbits it with the mouse or
//! arrow keys, pans it with the right button or WASD, zooms with the wheel or Q/E), and the
//! overview the game starts from, which benchmarks measure from too.

use glam::{Vec2, Vec3};

use crate::Camera;

/// A camera orbiting a point: the point it looks at, its distance, yaw and pitch (the demo's
/// and the previewer's camera).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    /// The point looked at.
    pub target: Vec3,
    /// Horizontal angle around the target, radians.
    pub yaw: f32,
    /// Angle above the horizon, radians.
    pub pitch: f32,
    /// Distance from the target, metres.
    pub distance: f32,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        Self { target: Vec3::new(0.0, 0.0, 0.0), yaw: 0.6, pitch: 0.55, distance: 260.0 }
    }
}

impl OrbitCamera {
    /// The game's first view of a town whose flat ground reaches `town_radius` metres from
    /// the origin: above its edge, looking at its centre, the hills beyond in view.
    #[must_use]
    pub fn overview(town_radius: f32) -> Self {
        Self { distance: town_radius * 0.8, pitch: 0.42, ..Self::default() }
    }

    /// Eye position.
    #[must_use]
    pub fn eye(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        self.target + Vec3::new(sy * cp, sp, cy * cp) * self.distance
    }

    /// Rotates by a mouse or key delta (radians).
    pub fn orbit(&mut self, delta: Vec2) {
        self.yaw -= delta.x;
        self.pitch = (self.pitch + delta.y).clamp(0.05, 1.5);
    }

    /// Moves the target in the ground plane, relative to the view (`delta` in metres per unit
    /// of distance, so panning feels the same near and far).
    pub fn pan(&mut self, delta: Vec2) {
        let (sy, cy) = self.yaw.sin_cos();
        let right = Vec3::new(cy, 0.0, -sy);
        let forward = Vec3::new(-sy, 0.0, -cy);
        self.target += (right * delta.x + forward * delta.y) * self.distance;
    }

    /// Zooms by `steps` (positive = closer).
    pub fn zoom(&mut self, steps: f32) {
        self.distance = (self.distance * 0.9f32.powf(steps)).clamp(5.0, 20_000.0);
    }

    /// Where the ground plane (y = 0) shows at `ndc` (normalized device coordinates, x and y
    /// in -1..1, y up) in a view of `aspect`; `None` when that point looks above the horizon.
    #[must_use]
    pub fn ground_point(self, aspect: f32, ndc: Vec2) -> Option<Vec3> {
        let (eye, direction) = self.ray(aspect, ndc);
        if direction.y >= -1e-6 {
            return None;
        }
        Some(eye + direction * (-eye.y / direction.y))
    }

    /// The ray from the eye through `ndc` (normalized device coordinates, y up) in a view of
    /// `aspect`: its origin and unit direction. What a click at that point points at.
    #[must_use]
    pub fn ray(self, aspect: f32, ndc: Vec2) -> (Vec3, Vec3) {
        let eye = self.eye();
        let through = self.to_camera(aspect).view_projection.inverse().project_point3(ndc.extend(0.5));
        (eye, (through - eye).normalize_or(self.target - eye))
    }

    /// Zooms by `steps` (positive = closer) towards what shows at `ndc` in a view of `aspect`:
    /// the ground point under the cursor stays under it. Above the horizon, zooms to the
    /// target.
    pub fn zoom_towards(&mut self, steps: f32, aspect: f32, ndc: Vec2) {
        let under = self.ground_point(aspect, ndc);
        let before = self.distance;
        self.zoom(steps);
        if let Some(point) = under {
            self.target = point + (self.target - point) * (self.distance / before);
        }
    }

    /// Keeps the camera over the ground: its target within `half` metres of the origin each
    /// way (x and z), its distance within twice that, so panning never drifts into the sky.
    pub fn keep_within(&mut self, half: f32) {
        self.target.x = self.target.x.clamp(-half, half);
        self.target.z = self.target.z.clamp(-half, half);
        self.distance = self.distance.min(2.0 * half).max(5.0);
    }

    /// The camera for a view of `aspect` (width / height).
    #[must_use]
    pub fn to_camera(self, aspect: f32) -> Camera {
        let far = (self.distance * 20.0).max(5000.0);
        Camera::look_at(self.eye(), self.target, 50f32.to_radians(), aspect, (0.5, far))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zooming_towards_the_cursor_keeps_the_ground_under_it() {
        let mut camera = OrbitCamera::overview(400.0);
        let (aspect, cursor) = (16.0 / 9.0, Vec2::new(0.4, -0.3));
        let point = camera.ground_point(aspect, cursor).expect("ground under the cursor");
        camera.zoom_towards(3.0, aspect, cursor);
        let clip = camera.to_camera(aspect).view_projection * point.extend(1.0);
        let shown = clip.truncate() / clip.w;
        assert!((shown.truncate() - cursor).length() < 1e-3, "{shown} vs {cursor}");
        assert!(camera.distance < OrbitCamera::overview(400.0).distance);
        // The ray through the cursor passes through what shows there.
        let (eye, direction) = camera.ray(aspect, cursor);
        let on_ray = eye + direction * (point - eye).dot(direction);
        assert!((on_ray - point).length() < 1e-2 * (point - eye).length(), "{on_ray} vs {point}");
        // Looking at the sky: an ordinary zoom.
        let mut sky = OrbitCamera::overview(400.0);
        let target = sky.target;
        sky.zoom_towards(1.0, aspect, Vec2::new(0.0, 0.99));
        assert_eq!(sky.target, target);
    }

    #[test]
    fn the_camera_stays_over_the_ground() {
        let mut camera = OrbitCamera::overview(400.0);
        for _ in 0..200 {
            camera.pan(Vec2::new(3.0, 2.0));
            camera.zoom(-2.0);
            camera.keep_within(1000.0);
        }
        assert_eq!((camera.target.x, camera.target.z, camera.distance), (1000.0, -1000.0, 2000.0));
    }

    #[test]
    fn eye_keeps_its_distance_and_stays_above_ground() {
        let mut camera = OrbitCamera::default();
        camera.orbit(Vec2::new(1.0, 5.0));
        assert!((camera.eye() - camera.target).length() - camera.distance < 1e-3);
        assert!(camera.eye().y > camera.target.y);
        camera.zoom(1000.0);
        assert_eq!(camera.distance, 5.0);
    }
}
