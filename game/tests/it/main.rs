//! Integration tests of the game binary: headless screenshots (golden and repeatable), the
//! window under Xvfb, and mods loaded, rejected and removed while the game runs.

mod mods;
mod screenshots;
mod support;
mod window;
