//! [`OwnPixels`]: the decoded pixels of a game's own version of a model, released once it is
//! on the GPU (its textures there alone, as a mod's are), and where they come back from: its
//! GPU copy, kept aside while a mod shows in its place (the mod going puts it back as it was,
//! at once), and its file, read again through the gate once that copy is gone too (a new
//! device: [`crate::Shelf::upload_all`]).

use std::borrow::Cow;
use std::path::PathBuf;

use props_anim::Model;
use props_gltf::{Limits, gate};
use props_render::{Renderer, UploadedModel};

/// A game's own version whose pixels were released (see the module documentation).
#[derive(Debug)]
pub(crate) struct OwnPixels {
    /// The file the version was read from.
    file: PathBuf,
    /// The limits it was read with.
    limits: Limits,
    /// The GPU shows this version under its model's id now.
    pub on_gpu: bool,
    /// Its GPU copy, while a mod shows in its place.
    pub aside: Option<UploadedModel>,
}

impl OwnPixels {
    /// The pixels of a version read from `file` with `limits`, released while it shows
    /// (`on_gpu`) or while a mod does (then none is kept aside).
    pub fn new(file: PathBuf, limits: Limits, on_gpu: bool) -> Self {
        Self { file, limits, on_gpu, aside: None }
    }

    /// Its GPU copy kept aside, if made for `renderer` (not for one since replaced).
    pub fn take_aside(&mut self, renderer: &Renderer) -> Option<UploadedModel> {
        self.aside.take().filter(|aside| aside.is_for(renderer))
    }

    /// `model` (the version) to upload: itself while it has its pixels, else with those of its
    /// file read again; itself (drawing white) when the file cannot be read or its images
    /// changed, which is logged.
    pub fn restore<'a>(&self, model: &'a Model) -> Cow<'a, Model> {
        if !model.has_released_pixels() {
            return Cow::Borrowed(model);
        }
        let file = self.file.display();
        match gate::admit_file(&self.file, &self.limits) {
            Ok(read) => match model.with_pixels_of(&read.import.model) {
                Some(whole) => Cow::Owned(whole),
                None => {
                    tracing::warn!(%file, "the model's images changed in its file since it loaded: drawn white");
                    Cow::Borrowed(model)
                }
            },
            Err(refused) => {
                tracing::warn!(%file, %refused, "the model's file cannot be read again for its pixels: drawn white");
                Cow::Borrowed(model)
            }
        }
    }
}
