//! The node hierarchy as a forest: nodes on loops, depths, and lowest common ancestors by
//! binary lifting, so that hierarchy questions cost `O(log n)` each after `O(n log n)` set-up,
//! whatever the shape of a hostile file.

/// Node ancestry from each node's parent.
pub(super) struct Forest {
    /// Depth of each node below its root; `None` on or under a loop.
    depth: Vec<Option<u32>>,
    /// `up[k][n]`: the `2^k`-th ancestor of node `n` (a root is its own ancestor).
    up: Vec<Vec<u32>>,
}

impl Forest {
    /// The forest of `parents` (node `n`'s parent is `parents[n]`).
    pub(super) fn new(parents: &[Option<usize>]) -> Self {
        let count = parents.len();
        let in_loop = nodes_in_loops(parents);
        let mut depth: Vec<Option<Option<u32>>> = vec![None; count];
        for &n in &in_loop {
            depth[n] = Some(None);
        }
        let mut path = Vec::new();
        for start in 0..count {
            let mut node = start;
            // Walk up to a node whose depth is known (or a root), then assign down the path.
            let mut known = loop {
                if let Some(known) = depth[node] {
                    break known;
                }
                path.push(node);
                match parents[node].filter(|&p| p < count) {
                    Some(parent) => node = parent,
                    None => {
                        path.pop();
                        depth[node] = Some(Some(0));
                        break Some(0);
                    }
                }
            };
            while let Some(n) = path.pop() {
                known = known.map(|d| d.saturating_add(1));
                depth[n] = Some(known);
            }
        }
        let depth: Vec<Option<u32>> = depth.into_iter().map(Option::flatten).collect();
        let as_u32 = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let first: Vec<u32> =
            (0..count).map(|n| as_u32(parents[n].filter(|&p| p < count && depth[n].is_some()).unwrap_or(n))).collect();
        let deepest = depth.iter().flatten().copied().max().unwrap_or(0);
        let mut up = vec![first];
        while (1u64 << up.len()) <= u64::from(deepest) {
            let Some(last) = up.last() else { break };
            let next = last.iter().map(|&a| last.get(a as usize).copied().unwrap_or(a)).collect();
            up.push(next);
        }
        Self { depth, up }
    }

    /// Whether `node` has a root: it is neither on a loop nor under one.
    pub(super) fn has_root(&self, node: usize) -> bool {
        self.depth.get(node).copied().flatten().is_some()
    }

    /// The ancestor of `node` `steps` levels up.
    fn ancestor(&self, mut node: usize, steps: u32) -> usize {
        for (k, level) in self.up.iter().enumerate() {
            if steps & (1 << k) != 0 {
                node = level.get(node).map_or(node, |&a| a as usize);
            }
        }
        node
    }

    /// The lowest common ancestor of `a` and `b` (either may be it); `None` in different trees
    /// or on or under a loop.
    pub(super) fn lowest_common_ancestor(&self, a: usize, b: usize) -> Option<usize> {
        let (da, db) = (self.depth.get(a).copied().flatten()?, self.depth.get(b).copied().flatten()?);
        let (mut a, mut b) = (self.ancestor(a, da.saturating_sub(db)), self.ancestor(b, db.saturating_sub(da)));
        if a == b {
            return Some(a);
        }
        for level in self.up.iter().rev() {
            let (ua, ub) = (level.get(a).copied()? as usize, level.get(b).copied()? as usize);
            if ua != ub {
                (a, b) = (ua, ub);
            }
        }
        let (pa, pb) = (self.up.first()?.get(a).copied()?, self.up.first()?.get(b).copied()?);
        (pa == pb && pa as usize != a).then_some(pa as usize)
    }

    /// Whether `ancestor` is `node` or one of its ancestors.
    pub(super) fn is_ancestor(&self, ancestor: usize, node: usize) -> bool {
        match (self.depth.get(ancestor).copied().flatten(), self.depth.get(node).copied().flatten()) {
            (Some(da), Some(dn)) if da <= dn => self.ancestor(node, dn - da) == ancestor,
            _ => false,
        }
    }
}

/// The nodes on loops of the parent relation, ascending; linear in the number of nodes.
pub(super) fn nodes_in_loops(parents: &[Option<usize>]) -> Vec<usize> {
    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; parents.len()];
    let mut in_loop = vec![false; parents.len()];
    let mut path = Vec::new();
    for start in 0..parents.len() {
        let mut node = Some(start);
        while let Some(n) = node.filter(|&n| state.get(n) == Some(&NEW)) {
            state[n] = ON_PATH;
            path.push(n);
            node = parents.get(n).copied().flatten();
        }
        if let Some(n) = node.filter(|&n| state.get(n) == Some(&ON_PATH))
            && let Some(at) = path.iter().position(|&p| p == n)
        {
            for &p in &path[at..] {
                in_loop[p] = true;
            }
        }
        for p in path.drain(..) {
            state[p] = DONE;
        }
    }
    (0..parents.len()).filter(|&n| in_loop[n]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loops_are_found_in_linear_time() {
        assert_eq!(nodes_in_loops(&[None, Some(0), Some(1)]), Vec::<usize>::new());
        assert_eq!(nodes_in_loops(&[Some(1), Some(0), Some(1)]), [0, 1]);
        assert_eq!(nodes_in_loops(&[Some(0)]), [0]);
        let chain: Vec<Option<usize>> = (0..100_000usize).map(|i| i.checked_sub(1)).collect();
        assert!(nodes_in_loops(&chain).is_empty());
    }

    #[test]
    fn common_ancestors() {
        //     0        5
        //    / \       |
        //   1   2      6 <-> 7 (loop)
        //   |
        //   3 - 4
        let parents = [None, Some(0), Some(0), Some(1), Some(3), None, Some(7), Some(6)];
        let forest = Forest::new(&parents);
        assert_eq!(forest.lowest_common_ancestor(4, 2), Some(0));
        assert_eq!(forest.lowest_common_ancestor(4, 3), Some(3));
        assert_eq!(forest.lowest_common_ancestor(4, 4), Some(4));
        assert_eq!(forest.lowest_common_ancestor(4, 5), None);
        assert_eq!(forest.lowest_common_ancestor(6, 7), None);
        assert!(forest.is_ancestor(1, 4) && forest.is_ancestor(4, 4) && !forest.is_ancestor(2, 4));
        let chain: Vec<Option<usize>> = (0..100_000usize).map(|i| i.checked_sub(1)).collect();
        let forest = Forest::new(&chain);
        assert_eq!(forest.lowest_common_ancestor(99_999, 50_000), Some(50_000));
        assert!(forest.is_ancestor(0, 99_999));
    }
}
