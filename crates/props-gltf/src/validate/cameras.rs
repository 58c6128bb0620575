//! Cameras (the game does not use them, but Khronos's validator checks them): orthographic
//! magnifications not zero, the far plane beyond the near one.

use super::Check;

/// Checks every camera.
pub(super) fn check(check: &mut Check<'_>) {
    let mut found = Vec::new();
    for (c, camera) in check.root.cameras.iter().enumerate() {
        if let Some(orthographic) = &camera.orthographic {
            let pointer = format!("/cameras/{c}/orthographic");
            for (name, value) in [("xmag", orthographic.xmag), ("ymag", orthographic.ymag)] {
                if value == 0.0 {
                    found.push(("CAMERA_XMAG_YMAG_ZERO", format!("{pointer}/{name}"), format!("{name} is 0")));
                }
            }
            if orthographic.zfar <= orthographic.znear {
                let message = format!("zfar {} is not beyond znear {}", orthographic.zfar, orthographic.znear);
                found.push(("CAMERA_ZFAR_LEQUAL_ZNEAR", pointer, message));
            }
        }
        if let Some(perspective) = &camera.perspective
            && let Some(zfar) = perspective.zfar
            && zfar <= perspective.znear
        {
            let message = format!("zfar {zfar} is not beyond znear {}", perspective.znear);
            found.push(("CAMERA_ZFAR_LEQUAL_ZNEAR", format!("/cameras/{c}/perspective"), message));
        }
    }
    for (code, pointer, message) in found {
        check.error(code, pointer, message);
    }
}
