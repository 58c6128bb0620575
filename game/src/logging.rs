//! The tracing subscriber: `RUST_LOG` filters (default: info for the game and its crates,
//! warnings for wgpu), text or JSON lines on stderr.

use tracing_subscriber::EnvFilter;

use crate::cli::LogFormat;

/// Filter used when `RUST_LOG` is not set.
const DEFAULT_FILTER: &str = "info,wgpu_core=warn,wgpu_hal=warn,naga=warn";

/// Installs the global subscriber.
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr())).init(),
        LogFormat::Json => builder.json().flatten_event(true).init(),
    }
}
