//! The GPU context for tests: whatever adapter exists (lavapipe in CI), and one on OpenGL.

use props_render::{ContextError, GpuContext};

/// A headless GPU context, or `None` (with a message) when no adapter exists and the `CI`
/// environment variable is not set. Under CI a missing adapter fails the test: GPU tests
/// must run there, not skip.
///
/// # Panics
/// Under CI when no adapter exists.
#[must_use]
pub fn context() -> Option<GpuContext> {
    found("GPU", "mesa-vulkan-drivers (lavapipe)", pollster::block_on(GpuContext::headless()))
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
    let context = pollster::block_on(GpuContext::with_instance(wgpu::Instance::new(descriptor), None));
    found("OpenGL", "libegl-mesa0 and libgl1-mesa-dri (llvmpipe)", context)
}

/// The `what` context made, or the message of its absence (a failure under CI) naming the
/// packages to `install`.
fn found(what: &str, install: &str, made: Result<GpuContext, ContextError>) -> Option<GpuContext> {
    match made {
        Ok(context) => {
            eprintln!("{what} tests on {}", context.adapter_description());
            Some(context)
        }
        Err(error) if std::env::var_os("CI").is_some() => {
            panic!("no {what} adapter under CI ({error}); install {install}")
        }
        Err(error) => {
            eprintln!("SKIPPED: no {what} adapter ({error}); install {install} to run {what} tests");
            None
        }
    }
}
