//! Primitive modes to lists: strips, fans and loops become plain triangle or line lists,
//! keeping the winding glTF specifies.

use gltf::json::mesh::Mode;
use props_anim::Topology;

/// Indices converted to a list topology.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Lists {
    /// Points, lines or triangles.
    pub topology: Topology,
    /// Indices of the list.
    pub indices: Vec<u32>,
    /// Trailing source indices that formed no complete line or triangle (dropped).
    pub leftover: usize,
}

/// How many indices `convert` produces for `count` source indices in `mode`.
pub(crate) fn list_len(mode: Mode, count: usize) -> usize {
    match mode {
        Mode::Points | Mode::Lines | Mode::Triangles => count,
        Mode::LineStrip => 2 * count.saturating_sub(1),
        Mode::LineLoop if count >= 2 => 2 * count,
        Mode::LineLoop => 0,
        Mode::TriangleStrip | Mode::TriangleFan => 3 * count.saturating_sub(2),
    }
}

/// Converts `indices` of a primitive in `mode` to a point, line or triangle list.
///
/// Triangle `i` of a strip is `(p[i], p[i + 1 + i % 2], p[i + 2 - i % 2])` and of a fan
/// `(p[i + 1], p[i + 2], p[0])`, as the glTF specification defines them.
pub(crate) fn convert(mode: Mode, indices: Vec<u32>) -> Lists {
    let count = indices.len();
    let (topology, list) = match mode {
        Mode::Points => (Topology::Points, indices),
        Mode::Lines => (Topology::Lines, whole(indices, 2)),
        Mode::Triangles => (Topology::Triangles, whole(indices, 3)),
        Mode::LineStrip => (Topology::Lines, indices.windows(2).flatten().copied().collect()),
        Mode::LineLoop => {
            let closing = match (indices.last(), indices.first()) {
                (Some(&last), Some(&first)) if count >= 2 => vec![last, first],
                _ => Vec::new(),
            };
            (Topology::Lines, indices.windows(2).flatten().copied().chain(closing).collect())
        }
        Mode::TriangleStrip => {
            let triangles = (0..).zip(indices.windows(3)).filter_map(|(i, w)| match *w {
                [a, b, c] => Some(if i % 2 == 0 { [a, b, c] } else { [a, c, b] }),
                _ => None,
            });
            (Topology::Triangles, triangles.flatten().collect())
        }
        Mode::TriangleFan => {
            let first = indices.first().copied().unwrap_or_default();
            let rest = indices.get(1..).unwrap_or_default();
            let triangles = rest.windows(2).filter_map(|w| match *w {
                [a, b] => Some([a, b, first]),
                _ => None,
            });
            (Topology::Triangles, triangles.flatten().collect())
        }
    };
    let per = match topology {
        Topology::Points => 1,
        Topology::Lines => 2,
        Topology::Triangles => 3,
    };
    let leftover = match mode {
        Mode::Lines | Mode::Triangles => count % per,
        _ if list.is_empty() => count,
        _ => 0,
    };
    Lists { topology, indices: list, leftover }
}

/// `indices` cut to a multiple of `per`.
fn whole(mut indices: Vec<u32>, per: usize) -> Vec<u32> {
    indices.truncate(indices.len() - indices.len() % per);
    indices
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lists(mode: Mode, count: u32) -> Lists {
        let lists = convert(mode, (0..count).collect());
        let bound = list_len(mode, count as usize);
        assert!(lists.indices.len() <= bound && (lists.leftover > 0 || lists.indices.len() == bound));
        lists
    }

    #[test]
    fn strips_keep_the_winding() {
        let strip = lists(Mode::TriangleStrip, 6);
        assert_eq!(strip.topology, Topology::Triangles);
        assert_eq!(strip.indices, [0, 1, 2, 1, 3, 2, 2, 3, 4, 3, 5, 4]);
        assert_eq!(strip.leftover, 0);
        assert_eq!(
            lists(Mode::TriangleStrip, 2),
            Lists { topology: Topology::Triangles, indices: vec![], leftover: 2 }
        );
    }

    #[test]
    fn fans_keep_the_winding() {
        let fan = lists(Mode::TriangleFan, 5);
        assert_eq!(fan.indices, [1, 2, 0, 2, 3, 0, 3, 4, 0]);
        assert_eq!(convert(Mode::TriangleFan, vec![7, 8, 9]).indices, [8, 9, 7]);
        assert_eq!(lists(Mode::TriangleFan, 0).indices, Vec::<u32>::new());
    }

    #[test]
    fn lines_and_loops() {
        assert_eq!(lists(Mode::LineStrip, 4).indices, [0, 1, 1, 2, 2, 3]);
        let closed = lists(Mode::LineLoop, 3);
        assert_eq!((closed.topology, closed.indices), (Topology::Lines, vec![0, 1, 1, 2, 2, 0]));
        assert_eq!(lists(Mode::LineLoop, 1).leftover, 1);
        let lines = convert(Mode::Lines, vec![0, 1, 2]);
        assert_eq!((lines.indices, lines.leftover), (vec![0, 1], 1));
        assert_eq!(lists(Mode::Points, 3).topology, Topology::Points);
    }

    #[test]
    fn incomplete_triangles_are_dropped() {
        let triangles = convert(Mode::Triangles, vec![0, 1, 2, 3, 4]);
        assert_eq!((triangles.indices, triangles.leftover), (vec![0, 1, 2], 2));
    }
}
