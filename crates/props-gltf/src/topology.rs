//! Primitive modes to lists: strips, fans and loops become plain triangle or line lists,
//! keeping the winding glTF specifies, and primitive restart values end a primitive where
//! WebGL 2 ends it.

use gltf::json::accessor::ComponentType;
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

/// The primitive restart value of an index type: its largest (255, 65535, 2^32 - 1).
pub(crate) fn restart_value(component: ComponentType) -> u32 {
    match component {
        ComponentType::U8 => u8::MAX.into(),
        ComponentType::U16 => u16::MAX.into(),
        _ => u32::MAX,
    }
}

/// [`convert`], with every occurrence of `restart` (the index type's [`restart_value`]) ending
/// the primitive being assembled and starting a new one after it: glTF forbids the value
/// (Khronos: `ACCESSOR_INDEX_PRIMITIVE_RESTART`), WebGL 2 always restarts on it, so three.js
/// draws none of the partial triangle before it and assembles the rest anew from the next
/// index (a restart inside a triangle list shifts every triangle after it). Drawn the same
/// here, a file looks as in three.js.
pub(crate) fn convert_restarting(mode: Mode, indices: Vec<u32>, restart: u32) -> Lists {
    if !indices.contains(&restart) {
        return convert(mode, indices);
    }
    let mut runs = indices.split(|&i| i == restart).peekable();
    let mut all = Lists { topology: convert(mode, Vec::new()).topology, indices: Vec::new(), leftover: 0 };
    while let Some(run) = runs.next() {
        let lists = convert(mode, run.to_vec());
        all.indices.extend(lists.indices);
        // Only the last run's incomplete primitive trails the list; the others end at a restart.
        if runs.peek().is_none() {
            all.leftover = lists.leftover;
        }
    }
    all
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

    /// What WebGL 2 draws (checked in three.js: `tests/oracle/render`'s
    /// `lenient_primitive_restart`): the partial primitive before a restart is dropped and the
    /// next one starts after it, in every mode.
    #[test]
    fn a_restart_ends_the_primitive_as_webgl_ends_it() {
        const R: u32 = 255;
        let triangles = convert_restarting(Mode::Triangles, vec![0, 1, R, 2, 3, 4, 5, 6, 7, 8], R);
        assert_eq!((triangles.indices, triangles.leftover), (vec![2, 3, 4, 5, 6, 7], 1));
        let strip = convert_restarting(Mode::TriangleStrip, vec![0, 1, 2, 3, R, 4, 5, 6], R);
        assert_eq!(strip.indices, [0, 1, 2, 1, 3, 2, 4, 5, 6]);
        let fan = convert_restarting(Mode::TriangleFan, vec![0, 1, 2, R, 3, 4, 5, 6], R);
        assert_eq!(fan.indices, [1, 2, 0, 4, 5, 3, 5, 6, 3]);
        let lines = convert_restarting(Mode::LineLoop, vec![0, 1, 2, R, 3, 4], R);
        assert_eq!((lines.topology, lines.indices), (Topology::Lines, vec![0, 1, 1, 2, 2, 0, 3, 4, 4, 3]));
        let points = convert_restarting(Mode::Points, vec![0, R, 1, R, R], R);
        assert_eq!((points.indices, points.leftover), (vec![0, 1], 0));
        // Without the value, as without restarts; with it alone, nothing.
        assert_eq!(convert_restarting(Mode::Triangles, vec![0, 1, 2], R), convert(Mode::Triangles, vec![0, 1, 2]));
        assert!(convert_restarting(Mode::TriangleStrip, vec![R], R).indices.is_empty());
        assert_eq!(restart_value(ComponentType::U16), 65535);
    }

    #[test]
    fn incomplete_triangles_are_dropped() {
        let triangles = convert(Mode::Triangles, vec![0, 1, 2, 3, 4]);
        assert_eq!((triangles.indices, triangles.leftover), (vec![0, 1, 2], 2));
    }
}
