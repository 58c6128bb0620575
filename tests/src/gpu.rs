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
