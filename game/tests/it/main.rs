//! Integration tests of the game binary: headless screenshots (golden and repeatable), the
//! window under Xvfb, mods loaded, rejected and removed while the game runs, and a bounded
//! soak of random mod changes.

mod mods;
mod screenshots;
mod soak;
mod support;
mod window;
