//! The GPU context for tests: whatever adapter exists (lavapipe in CI).

use props_render::GpuContext;

/// A headless GPU context, or `None` (with a message) when no adapter exists and the `CI`
/// environment variable is not set. Under CI a missing adapter fails the test: GPU tests
/// must run there, not skip.
///
/// # Panics
/// Under CI when no adapter exists.
#[must_use]
pub fn context() -> Option<GpuContext> {
    match pollster::block_on(GpuContext::headless()) {
        Ok(context) => {
            eprintln!("GPU tests on {}", context.adapter_description());
            Some(context)
        }
        Err(error) if std::env::var_os("CI").is_some() => {
            panic!("no GPU adapter under CI ({error}); install mesa-vulkan-drivers (lavapipe)")
        }
        Err(error) => {
            eprintln!("SKIPPED: no GPU adapter ({error}); install mesa-vulkan-drivers to run GPU tests");
            None
        }
    }
}

/// A headless context on wgpu's OpenGL backend (the one WebGL2 and older Android take; Mesa's
/// llvmpipe through EGL in CI), or `None` as [`context`] says.
///
/// # Panics
/// Under CI when no OpenGL adapter exists.
#[must_use]
pub fn opengl_context() -> Option<GpuContext> {
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    descriptor.backends = wgpu::Backends::GL;
    match pollster::block_on(GpuContext::with_instance(wgpu::Instance::new(descriptor), None)) {
        Ok(context) => {
            eprintln!("OpenGL tests on {}", context.adapter_description());
            Some(context)
        }
        Err(error) if std::env::var_os("CI").is_some() => {
            panic!("no OpenGL adapter under CI ({error}); install libegl-mesa0 and libgl1-mesa-dri (llvmpipe)")
        }
        Err(error) => {
            eprintln!("SKIPPED: no OpenGL adapter ({error}); install libegl-mesa0 and libgl1-mesa-dri to run them");
            None
        }
    }
}
