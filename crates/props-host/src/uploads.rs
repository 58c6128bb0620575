//! Mods uploaded ahead, on a thread of their own: the shelf hands each arriving model to it
//! ([`Uploads::next`]) and applies the mod's event once its upload is back, so that the frames
//! drawn meanwhile wait neither for its buffers and textures nor for its pipelines' compiles
//! ([`props_render::ModelUploader`]). The events keep their order: those after an upload
//! wait for it.

use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};

use props_anim::Model;
use props_mods::ModEvent;
use props_render::{GpuFootprint, ModelRefused, ModelUploader, UploadedModel};

/// A model's upload made ahead: the model (to match it with the version that shows), and the
/// upload or the device's refusal; `None` when the worker left it to the shelf (the model
/// alone is over the mods' GPU budget, which refuses it without an upload).
pub(crate) struct Ahead {
    pub model: Arc<Model>,
    pub upload: Option<Result<UploadedModel, ModelRefused>>,
}

impl fmt::Debug for Ahead {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ahead")
            .field("upload", &self.upload.as_ref().map(|u| u.as_ref().map(UploadedModel::footprint)))
            .finish()
    }
}

/// A model to upload, with the uploader of the renderer it is for and the GPU bytes it may
/// take at most.
struct Job {
    model: Arc<Model>,
    uploader: ModelUploader,
    room: u64,
}

/// The mods' events waiting to be applied, and the thread that uploads their models.
pub(crate) struct Uploads {
    /// The events not applied yet, in the order they came; the first one's model is uploading
    /// when `uploading`.
    pending: VecDeque<ModEvent>,
    uploading: bool,
    jobs: Sender<Job>,
    done: Receiver<Option<Result<UploadedModel, ModelRefused>>>,
}

impl fmt::Debug for Uploads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Uploads")
            .field("pending", &self.pending.len())
            .field("uploading", &self.uploading)
            .finish_non_exhaustive()
    }
}

impl Uploads {
    /// None pending; the thread starts (and ends with these). Without a thread (the system
    /// made none), each model is left to the shelf to upload.
    pub(crate) fn start() -> Self {
        let (jobs, work) = channel::<Job>();
        let (finished, done) = channel();
        let started = std::thread::Builder::new().name("mod uploads".into()).spawn(move || {
            for Job { model, uploader, room } in work {
                let over = |bytes| ModelRefused::OverBudget { bytes, used: 0, budget: room, setting: String::new() };
                let within = |footprint: GpuFootprint| match footprint.total() {
                    bytes if bytes > room => Err(over(bytes)),
                    _ => Ok(()),
                };
                // Over the budget alone: left to the shelf, which refuses it in its words.
                let upload = match uploader.upload_if(&model, within) {
                    Err(ModelRefused::OverBudget { .. }) => None,
                    upload => Some(upload),
                };
                // The shelf holds the model alone when it shows (to release its pixels).
                drop(model);
                if finished.send(upload).is_err() {
                    return;
                }
            }
        });
        if let Err(error) = started {
            tracing::warn!(%error, "no thread for mods' uploads: they upload between frames");
        }
        Self { pending: VecDeque::new(), uploading: false, jobs, done }
    }

    /// The events waiting.
    pub(crate) fn len(&self) -> usize {
        self.pending.len()
    }

    /// Queues what the watcher reported.
    pub(crate) fn extend(&mut self, events: impl IntoIterator<Item = ModEvent>) {
        self.pending.extend(events);
    }

    /// The next event to apply, with its model's upload when it brought one; `None` while
    /// that upload is under way (it starts here, through `uploader`, which may place up to
    /// `room` GPU bytes) or when none is pending.
    pub(crate) fn next(
        &mut self,
        uploader: impl FnOnce() -> ModelUploader,
        room: u64,
    ) -> Option<(ModEvent, Option<Ahead>)> {
        let model = match self.pending.front()? {
            ModEvent::Loaded { model, .. } => model.clone(),
            _ => return self.pending.pop_front().map(|event| (event, None)),
        };
        if !self.uploading {
            let job = Job { model: model.clone(), uploader: uploader(), room };
            if self.jobs.send(job).is_err() {
                // The thread is gone: the shelf uploads it itself.
                let event = self.pending.pop_front()?;
                return Some((event, Some(Ahead { model, upload: None })));
            }
            self.uploading = true;
        }
        let upload = match self.done.try_recv() {
            Ok(upload) => upload,
            Err(TryRecvError::Empty) => return None,
            Err(TryRecvError::Disconnected) => None,
        };
        self.uploading = false;
        let event = self.pending.pop_front()?;
        Some((event, Some(Ahead { model, upload })))
    }
}
