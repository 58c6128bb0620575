//! Keys and mouse to commands: the mapping only, so it can be read and tested apart from
//! the window glue.

use std::collections::BTreeSet;

use glam::Vec2;
use winit::keyboard::KeyCode;

use crate::demo::PlayerAction;
use props_frame::OrbitCamera;

/// What a key press asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Something for the demo.
    Demo(PlayerAction),
    /// Show or hide the HUD.
    ToggleHud,
    /// Write the frame shown to a PNG file.
    Screenshot,
    /// Close the window.
    Quit,
}

/// The command of a key press, if it has one.
pub fn command_for(key: KeyCode) -> Option<Command> {
    Some(match key {
        KeyCode::Space | KeyCode::KeyP => Command::Demo(PlayerAction::TogglePause),
        KeyCode::Equal | KeyCode::NumpadAdd => Command::Demo(PlayerAction::Faster),
        KeyCode::Minus | KeyCode::NumpadSubtract => Command::Demo(PlayerAction::Slower),
        KeyCode::KeyK => Command::Demo(PlayerAction::ToggleSkeletons),
        KeyCode::BracketRight | KeyCode::PageUp => Command::Demo(PlayerAction::AddWindmills),
        KeyCode::BracketLeft | KeyCode::PageDown => Command::Demo(PlayerAction::RemoveWindmills),
        KeyCode::KeyR => Command::Demo(PlayerAction::ResetCamera),
        KeyCode::KeyH => Command::ToggleHud,
        KeyCode::F12 => Command::Screenshot,
        KeyCode::Escape => Command::Quit,
        _ => return None,
    })
}

/// Orbit speed of the arrow keys, radians per second.
const KEY_ORBIT: f32 = 1.2;
/// Pan speed of WASD, view distances per second.
const KEY_PAN: f32 = 0.6;
/// Zoom speed of Q/E, wheel steps per second.
const KEY_ZOOM: f32 = 6.0;
/// Orbit per pixel of mouse drag, radians.
const MOUSE_ORBIT: f32 = 0.005;
/// Pan per pixel of mouse drag, view distances.
const MOUSE_PAN: f32 = 0.0015;

/// Moves `camera` for the keys held during `dt` seconds.
pub fn move_with_keys(camera: &mut OrbitCamera, held: &BTreeSet<KeyCode>, dt: f32) {
    let axis = |negative: KeyCode, positive: KeyCode| {
        f32::from(u8::from(held.contains(&positive))) - f32::from(u8::from(held.contains(&negative)))
    };
    let orbit = Vec2::new(axis(KeyCode::ArrowLeft, KeyCode::ArrowRight), axis(KeyCode::ArrowDown, KeyCode::ArrowUp));
    let pan = Vec2::new(axis(KeyCode::KeyA, KeyCode::KeyD), axis(KeyCode::KeyS, KeyCode::KeyW));
    camera.orbit(orbit * KEY_ORBIT * dt);
    camera.pan(pan * KEY_PAN * dt);
    camera.zoom(axis(KeyCode::KeyQ, KeyCode::KeyE) * KEY_ZOOM * dt);
}

/// Which mouse drag is in progress.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Drag {
    /// None.
    #[default]
    Idle,
    /// Left button: orbit.
    Orbit,
    /// Right or middle button: pan.
    Pan,
}

/// Moves `camera` for a mouse motion of `delta` pixels during `drag`.
pub fn move_with_mouse(camera: &mut OrbitCamera, drag: Drag, delta: Vec2) {
    match drag {
        Drag::Idle => {}
        Drag::Orbit => camera.orbit(Vec2::new(delta.x, delta.y) * MOUSE_ORBIT),
        Drag::Pan => camera.pan(Vec2::new(-delta.x, delta.y) * MOUSE_PAN),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_the_documented_commands() {
        assert_eq!(command_for(KeyCode::Space), Some(Command::Demo(PlayerAction::TogglePause)));
        assert_eq!(command_for(KeyCode::KeyK), Some(Command::Demo(PlayerAction::ToggleSkeletons)));
        assert_eq!(command_for(KeyCode::Escape), Some(Command::Quit));
        assert_eq!(command_for(KeyCode::KeyW), None, "WASD move the camera while held");
    }

    #[test]
    fn held_keys_move_the_camera_and_opposite_keys_cancel() {
        let start = OrbitCamera::default();
        let mut camera = start;
        move_with_keys(&mut camera, &BTreeSet::from([KeyCode::KeyW]), 0.5);
        assert!(camera.target != start.target);
        let mut still = start;
        move_with_keys(&mut still, &BTreeSet::from([KeyCode::KeyW, KeyCode::KeyS, KeyCode::KeyQ, KeyCode::KeyE]), 0.5);
        assert_eq!(still, start);
    }
}
