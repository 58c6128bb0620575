//! Play modes, speed and phase.

use props_anim::clip::{PlayMode, Playback};

use crate::support::assert_close;

#[test]
fn looping_wraps_and_once_clamps() {
    let mut looping = Playback::looping(0.0);
    let mut once = Playback { mode: PlayMode::Once, ..Playback::default() };
    for _ in 0..25 {
        looping.advance(0.1, 2.0);
        once.advance(0.1, 2.0);
    }
    assert_close(looping.clip_time(2.0), 0.5, 1e-5);
    assert_eq!(once.clip_time(2.0), 2.0);
}

#[test]
fn phase_and_speed_offset_instances() {
    let mut p = Playback { speed: 2.0, phase: 1.5, ..Playback::default() };
    p.advance(0.5, 2.0);
    assert_close(p.clip_time(2.0), 0.5, 1e-6); // 0.5 * 2 + 1.5 = 2.5 -> wraps to 0.5
}

#[test]
fn backwards_playback_wraps_below_zero() {
    let mut p = Playback { speed: -1.0, ..Playback::default() };
    p.advance(0.25, 1.0);
    assert_close(p.clip_time(1.0), 0.75, 1e-6);
}

#[test]
fn degenerate_durations_give_time_zero() {
    assert_eq!(PlayMode::Loop.wrap(3.0, 0.0), 0.0);
    assert_eq!(PlayMode::Once.wrap(f32::NAN, 1.0), 0.0);
    assert_eq!(PlayMode::Once.wrap(-1.0, 1.0), 0.0);
}

#[test]
fn looping_wraps_exactly_as_the_euclidean_remainder() {
    // The division-free paths (within one and two durations) give the same bits.
    for duration in [0.3f32, 1.0, 2.5, std::f32::consts::TAU] {
        for k in -3000..3000 {
            let time = k as f32 * 0.001 * duration + 1e-4;
            let wrapped = PlayMode::Loop.wrap(time, duration);
            assert_eq!(wrapped.to_bits(), time.rem_euclid(duration).to_bits(), "{time} in {duration}");
        }
    }
}

#[test]
fn weights_and_times_that_are_not_numbers_pose_nothing_odd() {
    use props_anim::Layer;
    assert!(!Layer::once(0, 0.5).with_weight(f32::NAN).is_active(), "a weight of NaN leaves the layer out");
    assert!(!Layer::once(0, 0.5).with_weight(f32::INFINITY).is_active());
    assert_eq!(Layer::once(0, f32::NAN).clip_time(2.0), 0.0, "a time of NaN is the start");
    // A hair before 0 wraps to a hair before the end, which rounds to the end itself: the start.
    assert_eq!(PlayMode::Loop.wrap(-1e-9, 2.0), 0.0);
    assert!(PlayMode::Loop.wrap(-0.25, 2.0) == 1.75);
}
