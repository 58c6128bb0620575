//! The animated-props demo: a mini traffic town with GPU-skinned windmills, cars, traffic
//! lights, foxes and people, and models from `mods/` loaded live. `--help` lists the options.

mod cli;
mod controls;
mod demo;
mod gpu;
mod ground;
mod headless;
mod hud;
mod logging;
mod mod_list;
mod model_ids;
mod models;
mod preview;

mod screen;
mod screenshot;
mod shutdown;
mod timings;
mod transport;
mod treadmill;
mod window;

use clap::Parser as _;

fn main() -> std::process::ExitCode {
    let mut args = cli::Args::parse();
    args.locate_folders();
    logging::init(args.log_format);
    tracing::info!(version = env!("CARGO_PKG_VERSION"), seed = args.seed, headless = args.headless, "starting");
    let shutdown = shutdown::Shutdown::install();
    let result = if args.headless { headless::run(&args, &shutdown) } else { window::run(args, shutdown) };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(error = format!("{error:#}"), "the game stopped");
            eprintln!("error: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
