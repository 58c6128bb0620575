//! The forward cursor agrees exactly with binary search (property test).

use props_anim::clip::{KeyCursor, Segment};
use proptest::prelude::*;

/// Strictly increasing key times built from positive gaps.
fn times() -> impl Strategy<Value = Vec<f32>> {
    (0.0f32..2.0, prop::collection::vec(0.001f32..1.0, 0..40)).prop_map(|(start, gaps)| {
        let mut t = start;
        let mut out = vec![t];
        for gap in gaps {
            let next = t + gap;
            if next > t {
                out.push(next);
                t = next;
            }
        }
        out
    })
}

/// Query times: mostly small forward steps (playback), sometimes jumps (loops, seeks).
fn queries() -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec(prop_oneof![4 => 0.0f32..0.2, 1 => -30.0f32..30.0], 1..200).prop_map(|steps| {
        let mut t = -0.5;
        steps
            .into_iter()
            .map(|s| {
                if s.abs() > 0.2 {
                    s
                } else {
                    t += s;
                    t
                }
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]
    #[test]
    fn cursor_equals_binary_search(times in times(), queries in queries()) {
        let mut cursor = KeyCursor::default();
        for &t in &queries {
            prop_assert_eq!(cursor.seek(&times, t), Segment::search(&times, t), "time {}", t);
        }
        // Exactly at every key, going forward.
        let mut cursor = KeyCursor::default();
        for &t in &times {
            prop_assert_eq!(cursor.seek(&times, t), Segment::search(&times, t), "key {}", t);
        }
    }
}

#[test]
fn segments_at_the_edges() {
    let times = [0.5, 1.0, 2.0];
    assert_eq!(Segment::search(&times, 0.0), Segment::Hold { index: 0 });
    assert_eq!(Segment::search(&times, 0.5), Segment::Between { index: 0, u: 0.0 });
    assert_eq!(Segment::search(&times, 1.5), Segment::Between { index: 1, u: 0.5 });
    assert_eq!(Segment::search(&times, 2.0), Segment::Hold { index: 2 });
    assert_eq!(Segment::search(&[3.0], 9.0), Segment::Hold { index: 0 });
    assert_eq!(Segment::search(&[3.0], 0.0), Segment::Hold { index: 0 });
}
