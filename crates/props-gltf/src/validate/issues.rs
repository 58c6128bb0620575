//! The issues of one file as they are found, without repeats, and capped: a hostile file with a million broken
//! references must not make a million messages. At most [`PER_CODE`] issues of each code and
//! [`PER_FILE`] in all are kept, but an error of a code not yet seen is always kept, so the
//! verdict on the file never depends on the caps. What was left out is summed up at the end,
//! one warning per code.

use super::report::Issue;
use crate::validate::Severity;

/// Issues kept per code and file.
pub const PER_CODE: u32 = 32;
/// Issues kept per file.
pub const PER_FILE: usize = 256;
/// The code of the summary of issues left out.
pub const MORE_ISSUES: &str = "PROPS_MORE_ISSUES";

/// The issues of one file so far.
#[derive(Debug, Default)]
pub(super) struct Issues {
    kept: Vec<Issue>,
    /// Per code seen: issues found, and whether one of them was an error.
    seen: Vec<(&'static str, u32)>,
}

impl Issues {
    /// Adds `issue`, unless it repeats one already kept or the caps leave it out (then it is
    /// still counted).
    pub fn push(&mut self, issue: Issue) {
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
        if new_error || (found <= PER_CODE && self.kept.len() < PER_FILE) {
            self.kept.push(issue);
        }
    }

    /// Whether a fatal issue was kept (every code with an error keeps at least one).
    pub fn is_fatal(&self) -> bool {
        self.kept.iter().any(Issue::is_fatal)
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

    /// The issues kept, then one warning per code with issues left out.
    pub fn into_vec(self) -> Vec<Issue> {
        let Self { mut kept, seen } = self;
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
        issues.push(Issue::error("LATE", "", "still kept"));
        assert!(issues.is_fatal());
        let list = issues.into_vec();
        assert_eq!(list.iter().filter(|i| i.code == "W").count(), PER_CODE as usize);
        assert_eq!(list.iter().filter(|i| i.code == "E").count(), PER_CODE as usize);
        assert!(list.iter().any(|i| i.code == "LATE"), "a new code's error is always kept");
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
}
