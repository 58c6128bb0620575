//! What an import leaves out: the parts it was told to skip, and those it could not read, each
//! with its error, unless the rule table ([`crate::rules`]) makes that error refuse the file
//! (an image over a limit is left out all the same: [`Drops::drop_image`]).

use crate::codes::code;
use crate::error::{ErrorKind, ImportError};
use crate::parts::{Part, Skip};
use crate::rules::{self, Scope};

/// A part an import left out, and the error that made it.
#[derive(Debug)]
pub struct Dropped {
    /// The part.
    pub part: Part,
    /// Why it could not be read.
    pub error: ImportError,
}

/// Where an import keeps what it drops: the parts to leave out, and those left out so far.
pub(crate) struct Drops<'a> {
    /// Parts the caller leaves out (the checker found them broken).
    pub skip: &'a Skip,
    /// Parts the import itself could not read.
    pub dropped: Vec<Dropped>,
}

impl Drops<'_> {
    /// Leaves `part` out for `error`, unless the error refuses the whole file (it is unsafe
    /// or meaningless, see [`crate::rules`]).
    pub(crate) fn drop_or_refuse(&mut self, part: Part, error: ImportError) -> Result<(), ImportError> {
        drop_or_refuse(&mut self.dropped, part, error)
    }

    /// Leaves image `index` out for `error`, as [`Drops::drop_or_refuse`] does, and also where
    /// it is over a limit or the budget: that was checked before anything was allocated for
    /// it, and only its textures read it, so the model loads without it, untextured there,
    /// rather than not at all.
    pub(crate) fn drop_image(&mut self, index: u32, error: ImportError) -> Result<(), ImportError> {
        let part = Part::Image { index };
        if matches!(error.kind, ErrorKind::LimitExceeded { .. } | ErrorKind::ImageTooLarge { .. }) {
            self.dropped.push(Dropped { part, error });
            return Ok(());
        }
        self.drop_or_refuse(part, error)
    }
}

/// Adds `part` to `dropped` for `error`, unless the error refuses the whole file.
pub(crate) fn drop_or_refuse(dropped: &mut Vec<Dropped>, part: Part, error: ImportError) -> Result<(), ImportError> {
    if rules::scope(code(&error.kind)) == Some(Scope::File) {
        return Err(error);
    }
    dropped.push(Dropped { part, error });
    Ok(())
}
