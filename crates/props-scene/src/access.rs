//! What a kind's step touches of the town's entities ([`StepAccess`]), and the groups the scene
//! steps the kinds in ([`groups`]): kinds that conflict step one after another in registration
//! order, the groups at the same time, so that the town changes exactly as if every kind had
//! stepped in registration order, whatever the number of threads.

use std::any::TypeId;

use hecs::Component;

/// The components a kind's [`crate::PropKind::step`] reads and writes (its own
/// [`crate::KindProps`], its own state and the [`crate::town::Town`] are always its to use). Two
/// accesses conflict when one writes a component the other reads or writes; kinds that do
/// not conflict step at the same time on the scene's worker threads.
///
/// A step that queries a component it did not declare is a bug in the kind: hecs checks
/// borrows as they are taken, so the query panics if another kind holds that component at
/// the same time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepAccess {
    /// Every component, read and written: nothing steps beside it.
    everything: bool,
    reads: Vec<TypeId>,
    writes: Vec<TypeId>,
}

impl StepAccess {
    /// Every component, read and written (the default): the kind steps alone.
    #[must_use]
    pub fn everything() -> Self {
        Self { everything: true, reads: Vec::new(), writes: Vec::new() }
    }

    /// No component: the kind steps only its own props and state.
    #[must_use]
    pub fn nothing() -> Self {
        Self { everything: false, reads: Vec::new(), writes: Vec::new() }
    }

    /// Also reads component `T`.
    #[must_use]
    pub fn reads<T: Component>(mut self) -> Self {
        self.reads.push(TypeId::of::<T>());
        self
    }

    /// Also writes (and reads) component `T`.
    #[must_use]
    pub fn writes<T: Component>(mut self) -> Self {
        self.writes.push(TypeId::of::<T>());
        self
    }

    /// Whether the two may not step at the same time.
    #[must_use]
    pub fn conflicts_with(&self, other: &Self) -> bool {
        let writes_what = |a: &Self, b: &Self| a.writes.iter().any(|t| b.writes.contains(t) || b.reads.contains(t));
        self.everything || other.everything || writes_what(self, other) || writes_what(other, self)
    }
}

impl Default for StepAccess {
    fn default() -> Self {
        Self::everything()
    }
}

/// The group of each system of `accesses` (systems that run one after another, in this
/// order): systems that conflict, directly or through others, are in one group, named by its
/// first system's index. Stepping each group's systems in order, and the groups at the same
/// time, changes what they touch as running all of them in order does.
pub(crate) fn groups(accesses: &[&StepAccess]) -> Vec<usize> {
    let mut groups: Vec<usize> = (0..accesses.len()).collect();
    for i in 0..accesses.len() {
        for j in 0..i {
            let (a, b) = (groups[i], groups[j]);
            if a != b && accesses[i].conflicts_with(accesses[j]) {
                // Merge the later-named group into the earlier-named one.
                let (keep, gone) = (a.min(b), a.max(b));
                groups.iter_mut().filter(|g| **g == gone).for_each(|g| *g = keep);
            }
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    struct A;
    struct B;

    #[test]
    fn only_writes_conflict() {
        let (read_a, write_a) = (StepAccess::nothing().reads::<A>(), StepAccess::nothing().writes::<A>());
        assert!(!read_a.conflicts_with(&read_a));
        assert!(write_a.conflicts_with(&read_a) && read_a.conflicts_with(&write_a));
        assert!(write_a.conflicts_with(&write_a));
        assert!(!write_a.conflicts_with(&StepAccess::nothing().writes::<B>().reads::<B>()));
        assert!(StepAccess::everything().conflicts_with(&StepAccess::nothing()));
        assert!(StepAccess::nothing().conflicts_with(&StepAccess::everything()));
        assert!(!StepAccess::nothing().conflicts_with(&StepAccess::nothing()));
    }

    #[test]
    fn systems_that_conflict_through_others_share_a_group() {
        let write_a = StepAccess::nothing().writes::<A>();
        let read_a = StepAccess::nothing().reads::<A>();
        let write_b = StepAccess::nothing().writes::<B>();
        let read_b = StepAccess::nothing().reads::<B>();
        let both = StepAccess::nothing().reads::<A>().reads::<B>();
        let none = StepAccess::nothing();
        assert_eq!(groups(&[&write_a, &none, &read_a, &write_b, &read_b]), [0, 1, 0, 3, 3]);
        // A later system that reads both joins the two groups into the first one's.
        assert_eq!(groups(&[&write_a, &none, &read_a, &write_b, &both]), [0, 1, 0, 0, 0]);
        // Readers alone do not conflict; everything conflicts with all.
        assert_eq!(groups(&[&read_a, &read_a, &none]), [0, 1, 2]);
        assert_eq!(groups(&[&none, &read_a, &StepAccess::everything(), &none]), [0, 0, 0, 0]);
    }
}
