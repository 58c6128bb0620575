//! Integration tests of the game binary: headless screenshots (golden and repeatable), the
//! city headless and windowed, the window under Xvfb, the model previewer (shown, reloaded on save), the mod lot playing morph animation, mods loaded, rejected and removed while the game runs, hostile mods and
//! a lost GPU device survived, a bounded soak of random mod changes, and the demo's animated
//! lights on its assets.

mod city;
mod gpu_loss;
mod hostile;
mod lights;
mod lot;
mod mods;
mod preview;
mod screenshots;
mod soak;
mod support;
mod time;
mod window;
