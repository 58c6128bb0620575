//! props-mods tests: the pure reload policy with synthetic event sequences, the real watcher
//! and loader on temporary folders, and a bounded soak.

mod models;
mod policy;
mod soak;
mod support;
mod watcher;
