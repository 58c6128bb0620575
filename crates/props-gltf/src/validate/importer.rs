//! The importer's verdict as issues, each at its error's code (`codes.rs`).

use super::report::{Consequence, Issue};
use crate::codes::code;
use crate::drops::Dropped;
use crate::error::{ImportError, ImportWarning};
use crate::pointer;

pub use crate::codes::{
    IGNORED, LIMIT_EXCEEDED, NON_FINITE, NOTHING_DRAWABLE, POSE_OVERFLOW, TOO_MANY_INFLUENCES, UNSUPPORTED_EXTENSION,
    URI_OUTSIDE_FOLDER,
};

/// The issue of an import error (its file is the report's).
pub(crate) fn issue(error: &ImportError) -> Issue {
    Issue::error(code(&error.kind), pointer::from_json_path(&error.json_path), error.kind.to_string())
}

/// The issue of an import error that stopped the import: it refuses the file, whatever its
/// code's rule.
pub(crate) fn refusal(error: &ImportError) -> Issue {
    Issue { consequence: Consequence::Refuses, ..issue(error) }
}

/// The issue of a part the importer left out: an error that drops it.
pub(crate) fn dropped(dropped: &Dropped) -> Issue {
    Issue { consequence: Consequence::Drops(vec![dropped.part.clone()]), ..issue(&dropped.error) }
}

/// The warning of an import warning.
pub(crate) fn warning(warning: &ImportWarning) -> Issue {
    Issue::warning(IGNORED, pointer::from_json_path(&warning.json_path), warning.message.clone())
}

#[cfg(test)]
mod tests {
    use props_anim::clip::ClipError;

    use super::*;
    use crate::error::ErrorKind;

    #[test]
    fn import_errors_become_issues_at_pointers() {
        let error = ImportError::at("animations[0].samplers[1].input", ErrorKind::Clip(ClipError::NoKeys));
        let issue = issue(&error);
        assert_eq!(
            (issue.code, issue.json_pointer.as_str()),
            ("PROPS_ANIMATION_NO_KEYS", "/animations/0/samplers/1/input")
        );
        let refused = ErrorKind::UriRefused { uri: "../x.bin".to_owned(), reason: "'..' components are not allowed" };
        assert_eq!(code(&refused), URI_OUTSIDE_FOLDER);
        assert_eq!(code(&ErrorKind::TooManyInfluences { set: 16, limit: 64 }), TOO_MANY_INFLUENCES);
    }
}
