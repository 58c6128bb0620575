//! The issues of one file as they are found, without repeats, and capped: a hostile file with a million broken
//! references must not make a million messages. At most [`PER_CODE`] issues of each code and
//! [`PER_FILE`] in all are kept, but an error of a code not yet seen, and the first issue that
//! refuses the file, are always kept, so the verdict on the file never depends on the caps. What was left out is summed up at the end,
//! one warning per code.
//!
//! Each error is also placed in its document ([`PartMap`]): an error fatal to a part drops the
//! parts it reaches, or refuses the file when no droppable part holds it. What is dropped and
//! whether the file is refused are tallied from every issue, kept or not.

use gltf::json::Root;

use std::collections::BTreeSet;
use std::path::Path;

use super::report::{Consequence, Issue, Report};
use crate::parts::{Part, PartMap, Skip};
use crate::rules::{self, Scope};
use crate::validate::Severity;

/// Issues kept per code and file.
pub const PER_CODE: u32 = 32;
/// Issues kept per file.
pub const PER_FILE: usize = 256;
/// The code of the summary of issues left out.
pub const MORE_ISSUES: &str = "PROPS_MORE_ISSUES";
/// Errors fatal to a part remembered before the document is known; past this many the file
/// is refused (only a file that is mostly broken JSON has this many).
const MAX_UNPLACED: usize = 4096;

/// The issues of one file so far.
#[derive(Debug, Default)]
pub(super) struct Issues {
    kept: Vec<Issue>,
    /// Per code seen: issues found, and whether one of them was an error.
    seen: Vec<(&'static str, u32)>,
    /// The document's parts, once known.
    parts: Option<PartMap>,
    /// Errors fatal to a part found before the document was known: code and pointer.
    unplaced: Vec<(&'static str, String)>,
    /// Whether some issue refuses the file.
    refuses: bool,
    /// The parts the issues drop.
    skip: Skip,
    /// The same, with their names, for the report.
    dropped: BTreeSet<Part>,
}

impl Issues {
    /// Adds `issue`, unless it repeats one already kept or the caps leave it out (then it is
    /// still counted). An error fatal to a part is placed in the document's parts first, or
    /// remembered until the document is known ([`Issues::place_in`]).
    pub fn push(&mut self, mut issue: Issue) {
        // Anew from its code: an issue made from another by struct update keeps the other's.
        issue.consequence = Consequence::of_code(issue.severity, issue.code);
        if is_part_fatal(&issue) {
            match &self.parts {
                Some(parts) => {
                    issue.consequence = Consequence::placed(Scope::Part, parts.parts_of(&issue.json_pointer));
                }
                None => {
                    match self.unplaced.len() < MAX_UNPLACED {
                        true => self.unplaced.push((issue.code, issue.json_pointer.clone())),
                        false => self.refuses = true,
                    }
                    self.keep(issue);
                    return;
                }
            }
        }
        self.push_placed(issue);
    }

    /// Adds `issue` with the consequence it has.
    pub fn push_placed(&mut self, issue: Issue) {
        self.tally(&issue.consequence);
        self.keep(issue);
    }

    /// Keeps `issue` unless it repeats one or the caps leave it out.
    fn keep(&mut self, issue: Issue) {
        if self.kept.contains(&issue) {
            return;
        }
        let found = match self.seen.iter_mut().find(|(code, _)| *code == issue.code) {
            Some((_, found)) => {
                *found += 1;
                *found
            }
            None => {
                self.seen.push((issue.code, 1));
                1
            }
        };
        let new_error = issue.severity == Severity::Error
            && !self.kept.iter().any(|kept| kept.code == issue.code && kept.severity == Severity::Error);
        // The report names why a refused file is refused, whatever the caps.
        let first_refusal = issue.is_fatal() && !self.kept.iter().any(Issue::is_fatal);
        if new_error || first_refusal || (found <= PER_CODE && self.kept.len() < PER_FILE) {
            self.kept.push(issue);
        }
    }

    /// Places the issues in `root`'s parts: those found so far, and every one to come.
    pub fn place_in(&mut self, root: &Root) {
        let parts = PartMap::new(root);
        for (_, pointer) in std::mem::take(&mut self.unplaced) {
            self.tally(&Consequence::placed(Scope::Part, parts.parts_of(&pointer)));
        }
        for issue in self.kept.iter_mut().filter(|issue| is_part_fatal(issue)) {
            issue.consequence = Consequence::placed(Scope::Part, parts.parts_of(&issue.json_pointer));
        }
        self.parts = Some(parts);
    }

    /// Makes every kept issue that drops a primitive refuse the file instead: nothing would
    /// be left to draw without them.
    pub fn refuse_primitive_drops(&mut self) {
        for issue in &mut self.kept {
            if issue.dropped().iter().any(|part| matches!(part, Part::Primitive { .. })) {
                issue.consequence = Consequence::Refuses;
            }
        }
        self.refuses = true;
    }

    /// The document's parts, once placed.
    pub fn parts(&self) -> Option<&PartMap> {
        self.parts.as_ref()
    }

    /// Whether some issue refuses the file (an error fatal to a part that is not yet placed
    /// in a document does).
    pub fn is_fatal(&self) -> bool {
        self.refuses || !self.unplaced.is_empty()
    }

    /// The parts the issues drop.
    pub fn skip(&self) -> &Skip {
        &self.skip
    }

    fn tally(&mut self, consequence: &Consequence) {
        match consequence {
            Consequence::Refuses => self.refuses = true,
            Consequence::Drops(parts) => {
                self.skip.extend(parts.iter().cloned());
                self.dropped.extend(parts.iter().cloned());
            }
            Consequence::Loads => {}
        }
    }

    /// Whether an error was kept at `json_pointer` itself.
    pub fn has_error_at(&self, json_pointer: &str) -> bool {
        self.kept.iter().any(|issue| issue.severity == Severity::Error && issue.json_pointer == json_pointer)
    }

    /// Whether an error was kept at `json_pointer` or at an object or array holding it.
    pub fn has_error_within(&self, json_pointer: &str) -> bool {
        self.kept.iter().any(|issue| {
            issue.severity == Severity::Error
                && json_pointer
                    .strip_prefix(issue.json_pointer.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
    }

    /// The report on `file`: the issues kept, then one warning per code with issues left out;
    /// every part dropped, and whether the file is refused.
    pub fn into_report(self, file: &Path) -> Report {
        let (dropped, refused) = (self.dropped.iter().cloned().collect(), self.is_fatal());
        Report { file: file.to_owned(), issues: self.into_vec(), dropped, refused }
    }

    /// The issues kept, then one warning per code with issues left out.
    pub fn into_vec(self) -> Vec<Issue> {
        let Self { mut kept, seen, .. } = self;
        for (code, found) in seen {
            let shown = kept.iter().filter(|issue| issue.code == code).count() as u32;
            if found > shown {
                let message = format!("{} more {code} issues are not listed", found - shown);
                kept.push(Issue::warning(MORE_ISSUES, "", message));
            }
        }
        kept
    }
}

/// Whether `issue` is an error fatal to a part and not yet placed in its document.
fn is_part_fatal(issue: &Issue) -> bool {
    issue.severity == Severity::Error
        && issue.consequence == Consequence::Refuses
        && rules::scope(issue.code) == Some(Scope::Part)
}

impl Extend<Issue> for Issues {
    fn extend<I: IntoIterator<Item = Issue>>(&mut self, issues: I) {
        for issue in issues {
            self.push(issue);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_keep_every_code_s_first_error_and_count_the_rest() {
        let mut issues = Issues::default();
        for i in 0..1000 {
            issues.push(Issue::warning("W", format!("/nodes/{i}"), "odd"));
        }
        for i in 0..1000 {
            issues.push(Issue::error("E", format!("/meshes/{i}"), "bad"));
        }
        issues.push(Issue::error("PROPS_LIMIT_EXCEEDED", "", "still kept"));
        assert!(issues.is_fatal());
        let list = issues.into_vec();
        assert_eq!(list.iter().filter(|i| i.code == "W").count(), PER_CODE as usize);
        assert_eq!(list.iter().filter(|i| i.code == "E").count(), PER_CODE as usize);
        assert!(list.iter().any(|i| i.code == "PROPS_LIMIT_EXCEEDED"), "a new code's error is always kept");
        let more: Vec<_> = list.iter().filter(|i| i.code == MORE_ISSUES).map(|i| i.message.as_str()).collect();
        assert_eq!(
            more,
            [
                format!("{} more W issues are not listed", 1000 - PER_CODE),
                format!("{} more E issues are not listed", 1000 - PER_CODE)
            ]
        );
        assert!(list.len() <= PER_FILE + 3);
    }

    /// Errors fatal to a part drop the parts their pointers reach, once the document is
    /// known, counted beyond the caps; where no part holds one, the file is refused.
    #[test]
    fn errors_drop_the_parts_they_reach() {
        let root: Root = serde_json::from_value(serde_json::json!({"asset": {"version": "2.0"},
            "animations": [{"name": "Run", "samplers": [], "channels": []}]}))
        .expect("glTF");
        let code = "ACCESSOR_ANIMATION_INPUT_NON_INCREASING";
        let mut issues = Issues::default();
        issues.push(Issue::error(code, "/animations/0/samplers/0/input", "before the document"));
        assert!(issues.is_fatal(), "unplaced: refused until placed");
        issues.place_in(&root);
        assert!(!issues.is_fatal());
        for i in 0..100 {
            issues.push(Issue::error(code, format!("/animations/{i}/samplers/0/input"), "after"));
        }
        assert!(issues.skip().clip(0) && issues.skip().clip(99), "beyond the caps too");
        assert!(!issues.is_fatal());
        let report = std::mem::take(&mut issues).into_report(Path::new("a.glb"));
        assert!(report.issues.len() < 40, "the list is capped");
        let crate::validate::Outcome::Loads { dropped, .. } = report.outcome() else { panic!("loads") };
        assert_eq!(dropped.len(), 100, "the outcome is not: every clip dropped is in it");
        issues = Issues::default();
        issues.place_in(&root);
        issues.push(Issue::error(code, "/nodes/0", "no part holds it"));
        assert!(issues.is_fatal());
        issues.push(Issue::error(code, "/animations/0/samplers/0/input", "placed"));
        let list = issues.into_vec();
        let dropping = list.iter().find(|issue| !issue.dropped().is_empty()).expect("a dropping issue");
        assert_eq!(dropping.dropped()[0].to_string(), "drops clip 0 (`Run`)");
    }
}
