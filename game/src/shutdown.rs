//! Ctrl-C and SIGTERM end the game cleanly: the frame in progress finishes, a headless run
//! writes its screenshot and last log line. A second signal ends the process at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether a shutdown was asked for.
#[derive(Clone, Debug, Default)]
pub struct Shutdown(Arc<AtomicBool>);

impl Shutdown {
    /// Installs the signal handler (once per process; a failure is logged, and the game then
    /// simply dies on the signal as it would without it).
    pub fn install() -> Self {
        let shutdown = Self::default();
        let flag = Arc::clone(&shutdown.0);
        let installed = ctrlc::set_handler(move || {
            if flag.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
        if let Err(error) = installed {
            tracing::warn!(error = %error, "no clean shutdown on Ctrl-C: the signal handler could not be installed");
        }
        shutdown
    }

    /// Whether Ctrl-C or SIGTERM arrived.
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}
