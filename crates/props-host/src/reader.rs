//! A host's own models read, checked and uploaded away from the thread that draws its frames
//! ([`ModelReader`]), then added between two frames with no upload left ([`crate::PropHost::add_read`]): a
//! city streaming a district's props in as the player drives towards it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use props_anim::Model;
use props_gltf::Limits;
use props_gltf::gate::{self, Admitted};
use props_gltf::validate::Report;
use props_render::{ModelUploader, UploadedModel};

use crate::error::LoadError;

/// Reads models for one [`crate::PropHost`] and renderer on any thread: through the gate (the
/// host's [`crate::HostConfig::limits`]), then uploaded ([`ModelUploader`]). It is `Clone`,
/// `Send` and `Sync`: cloned, it goes to a loading thread; [`crate::PropHost::add_read`] adds
/// what it read, which is `Send` to come back.
#[derive(Clone, Debug)]
pub struct ModelReader {
    limits: Limits,
    uploader: ModelUploader,
}

/// A model a [`ModelReader`] read and uploaded, for [`crate::PropHost::add_read`].
#[derive(Debug)]
pub struct ReadModel {
    pub(crate) name: String,
    pub(crate) model: Arc<Model>,
    pub(crate) report: Report,
    pub(crate) uploaded: UploadedModel,
    /// The file it was read from (none: from memory), to read its pixels again.
    pub(crate) file: Option<PathBuf>,
}

impl ReadModel {
    /// Its name (a file stem), which a mod of that name replaces it by.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its file's report: what the gate noticed that is not fatal, and the parts it dropped.
    #[must_use]
    pub fn report(&self) -> &Report {
        &self.report
    }
}

/// The name a file's model goes by: its file stem.
pub(crate) fn name_of(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

impl ModelReader {
    /// A reader through `limits` with `uploader`.
    pub(crate) fn new(limits: Limits, uploader: ModelUploader) -> Self {
        Self { limits, uploader }
    }

    /// Reads a `.gltf` / `.glb` file through the gate and uploads its model, named by its
    /// file stem.
    ///
    /// # Errors
    /// The gate's refusal (its report), or the GPU's.
    pub fn read_file(&self, path: &Path) -> Result<ReadModel, LoadError> {
        let admitted = gate::admit_file(path, &self.limits).map_err(LoadError::Refused)?;
        let read = self.upload(name_of(path), admitted)?;
        Ok(ReadModel { file: Some(path.to_owned()), ..read })
    }

    /// [`ModelReader::read_file`] for a file in memory named `name` (its external files
    /// confined to `base_dir`; none allowed without).
    ///
    /// # Errors
    /// The gate's refusal (its report), or the GPU's.
    pub fn read_slice(&self, bytes: &[u8], name: &str, base_dir: Option<&Path>) -> Result<ReadModel, LoadError> {
        let admitted = gate::admit_slice(bytes, base_dir, Path::new(name), &self.limits).map_err(LoadError::Refused)?;
        self.upload(name.to_owned(), admitted)
    }

    pub(crate) fn upload(&self, name: String, admitted: Admitted) -> Result<ReadModel, LoadError> {
        let model = Arc::new(admitted.import.model);
        let uploaded = self.uploader.upload(&model)?;
        Ok(ReadModel { name, model, report: admitted.report, uploaded, file: None })
    }
}
