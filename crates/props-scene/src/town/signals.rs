//! Traffic signals: one controller per intersection, giving green to one approach at a time
//! (split phasing), so no two movements across a box ever cross and cars need no gap
//! acceptance. Each green is followed by amber, then an all-red clearance that lasts until the
//! box is empty. Greens are actuated: an approach with no car waiting is skipped, and a green
//! ends early once its approach is empty and another one waits.
//!
//! Walkers cross on a phase of their own (an exclusive "scramble" walk, as at busy town
//! crossings): after a clearance with the box empty, when someone waits at a corner and either
//! no car waits or the walkers have waited [`WALK_RECALL`], every car approach stays red while
//! walkers may step out for [`WALK`], then until the crossings are empty. So cars never meet a
//! walker on a crossing, and need not yield there.

use crate::rng::{Rng, Stream};
use crate::town::crossings::Crossings;
use crate::town::roads::{IntersectionId, LaneId, RoadNetwork};

/// Shortest green, seconds.
pub const MIN_GREEN: f32 = 5.0;
/// Longest green while another approach waits, seconds.
pub const MAX_GREEN: f32 = 14.0;
/// Amber, seconds.
pub const AMBER: f32 = 3.0;
/// Shortest all-red clearance, seconds.
pub const MIN_ALL_RED: f32 = 1.5;
/// Longest all-red clearance: after this the next green starts even if the box is not empty
/// (a liveness guard; the box normally clears well before).
pub const MAX_ALL_RED: f32 = 12.0;
/// An approach red this long calls for green even with no car waiting (a recall, as real
/// controllers have for pedestrians), seconds: every light cycles where a player can see it.
pub const RECALL_AFTER: f32 = 40.0;
/// How far before its stop line a car calls for green, metres.
pub const DETECTION_RANGE: f32 = 40.0;
/// How long walkers may step out onto the crossings, seconds.
pub const WALK: f32 = 6.0;
/// Walkers who have waited this long get the next walk phase even while cars wait, seconds.
pub const WALK_RECALL: f32 = 30.0;
/// Longest the crossings may take to clear after the walk: a liveness guard (a walker crosses
/// in about 10 s), seconds.
pub const MAX_WALK_CLEARANCE: f32 = 40.0;

/// What a signal head shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LightState {
    /// Go.
    Green,
    /// Stop if you safely can.
    Amber,
    /// Stop.
    Red,
}

impl LightState {
    /// Index of the state's clip and pose in the traffic-light rig: green 0, amber 1, red 2.
    pub(crate) fn phase_index(self) -> usize {
        self as usize
    }
}

/// Where a signal controller is in its cycle; the number is the approach (an index into
/// [`crate::town::roads::DIRECTIONS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignalPhase {
    /// The approach has green, every other red.
    Green(usize),
    /// The approach has amber, every other red.
    Amber(usize),
    /// Everything red after the approach's amber, until the box is empty.
    AllRed(usize),
    /// Every car approach red, walkers step out onto the crossings (after the approach's
    /// clearance).
    Walk(usize),
    /// Every car approach red, no walker steps out, until the crossings are empty.
    WalkClearance(usize),
}

impl SignalPhase {
    /// Whether walkers may step out onto the intersection's crossings.
    #[must_use]
    pub fn walk(self) -> bool {
        matches!(self, Self::Walk(_))
    }
}

/// A fixed state forced on an intersection (debugging, tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignalOverride {
    /// Every approach red.
    AllRed,
    /// This approach green, the others red.
    Green(usize),
}

/// One intersection's controller.
#[derive(Clone, Debug, PartialEq)]
pub struct Signal {
    present: [bool; 4],
    phase: SignalPhase,
    timer: f32,
    hold: Option<SignalOverride>,
    /// Seconds since each approach last had green.
    red_for: [f32; 4],
    /// Seconds the walkers at its corners have waited (0 while none waits).
    walkers_wait: f32,
}

impl Signal {
    /// The current phase.
    #[must_use]
    pub fn phase(&self) -> SignalPhase {
        self.phase
    }

    /// Seconds since the phase began.
    #[must_use]
    pub fn timer(&self) -> f32 {
        self.timer
    }

    /// The forced state, if any.
    #[must_use]
    pub fn hold(&self) -> Option<SignalOverride> {
        self.hold
    }

    /// What approach `approach` sees.
    #[must_use]
    pub fn state(&self, approach: usize) -> LightState {
        match (self.hold, self.phase) {
            (Some(SignalOverride::Green(a)), _) | (None, SignalPhase::Green(a)) if a == approach => LightState::Green,
            (None, SignalPhase::Amber(a)) if a == approach => LightState::Amber,
            _ => LightState::Red,
        }
    }

    /// The next present approach after `after` that has demand, or simply the next present one.
    fn next_approach(&self, after: usize, demand: impl Fn(usize) -> bool) -> usize {
        let order = (1..=4).map(|k| (after + k) % 4).filter(|&a| self.present[a]);
        order.clone().find(|&a| demand(a)).or_else(|| order.clone().next()).unwrap_or(after)
    }
}

/// Every intersection's controller, indexed like [`RoadNetwork::intersections`].
#[derive(Clone, Debug, PartialEq)]
pub struct Signals {
    signals: Vec<Signal>,
}

impl Signals {
    /// Controllers for `roads`, each starting at a seeded point of its first approach's green
    /// so that neighbours are out of step.
    #[must_use]
    pub fn new(roads: &RoadNetwork, seed: u64) -> Self {
        let signals = roads
            .intersections()
            .iter()
            .enumerate()
            .map(|(index, intersection)| {
                let present = intersection.approaches().map(|a| a.is_some());
                let mut rng = Rng::stream(seed, Stream::Signals, index as u64);
                let present_count = present.iter().filter(|p| **p).count() as u32;
                let first = present.iter().enumerate().filter(|(_, p)| **p).nth(rng.below(present_count) as usize);
                let approach = first.map_or(0, |(a, _)| a);
                let timer = rng.range(0.0, MIN_GREEN);
                let phase = SignalPhase::Green(approach);
                Signal { present, phase, timer, hold: None, red_for: [0.0; 4], walkers_wait: 0.0 }
            })
            .collect();
        Self { signals }
    }

    /// Every controller.
    #[must_use]
    pub fn signals(&self) -> &[Signal] {
        &self.signals
    }

    /// The controller of `intersection`.
    #[must_use]
    pub fn signal(&self, intersection: IntersectionId) -> &Signal {
        &self.signals[intersection.index()]
    }

    /// What approach `approach` of `intersection` sees.
    #[must_use]
    pub fn state(&self, intersection: IntersectionId, approach: usize) -> LightState {
        self.signal(intersection).state(approach)
    }

    /// Forces (or with `None` releases) the state of one intersection. Releasing a forced green
    /// goes through amber.
    pub(crate) fn set_override(&mut self, intersection: IntersectionId, hold: Option<SignalOverride>) {
        let signal = &mut self.signals[intersection.index()];
        if hold.is_none() {
            signal.phase = match signal.hold {
                Some(SignalOverride::Green(a)) => SignalPhase::Amber(a),
                Some(SignalOverride::AllRed) => SignalPhase::AllRed(signal.phase_approach()),
                None => signal.phase,
            };
            signal.timer = 0.0;
        }
        signal.hold = hold;
    }
}

impl Signal {
    fn phase_approach(&self) -> usize {
        match self.phase {
            SignalPhase::Green(a)
            | SignalPhase::Amber(a)
            | SignalPhase::AllRed(a)
            | SignalPhase::Walk(a)
            | SignalPhase::WalkClearance(a) => a,
        }
    }
}

/// What the controllers detect of the traffic: the traffic's observation at a step's start
/// implements it.
pub(crate) trait Detectors {
    /// True when a car's front is within [`DETECTION_RANGE`] of the end of `lane`.
    fn demand(&self, roads: &RoadNetwork, lane: LaneId) -> bool;
    /// True while a car is on one of the intersection's connectors.
    fn box_occupied(&self, intersection: IntersectionId) -> bool;
}

/// Advances every controller by `dt`, with demand and box occupancy seen at the step's start,
/// and the walkers waiting at and crossing each intersection.
pub(crate) fn update(
    signals: &mut Signals,
    roads: &RoadNetwork,
    (occupancy, crossings): (&impl Detectors, &Crossings),
    dt: f32,
) {
    for (index, (signal, intersection)) in signals.signals.iter_mut().zip(roads.intersections()).enumerate() {
        if signal.hold.is_some() {
            continue;
        }
        let at = IntersectionId(index as u32);
        signal.timer += dt;
        for (a, red) in signal.red_for.iter_mut().enumerate() {
            *red = if signal.phase == SignalPhase::Green(a) { 0.0 } else { *red + dt };
        }
        let walkers = crossings.waiting(at);
        signal.walkers_wait = if walkers { signal.walkers_wait + dt } else { 0.0 };
        let red_for = signal.red_for;
        let demand = |a: usize| {
            intersection.approaches()[a].is_some_and(|lane| occupancy.demand(roads, lane) || red_for[a] >= RECALL_AFTER)
        };
        let cars_wait = |except: Option<usize>| (0..4).any(|a| Some(a) != except && demand(a));
        let walk_due = walkers && (signal.walkers_wait >= WALK_RECALL || !cars_wait(None));
        let before = signal.phase;
        signal.phase = match before {
            SignalPhase::Green(a) => {
                let done = signal.timer >= MAX_GREEN || (signal.timer >= MIN_GREEN && !demand(a));
                if done && (cars_wait(Some(a)) || walkers) { SignalPhase::Amber(a) } else { SignalPhase::Green(a) }
            }
            SignalPhase::Amber(a) if signal.timer >= AMBER => SignalPhase::AllRed(a),
            SignalPhase::AllRed(a) => {
                let clear = !occupancy.box_occupied(at);
                match (signal.timer >= MIN_ALL_RED && clear, signal.timer >= MAX_ALL_RED) {
                    (true, _) if walk_due => SignalPhase::Walk(a),
                    (true, _) | (_, true) => SignalPhase::Green(signal.next_approach(a, demand)),
                    _ => SignalPhase::AllRed(a),
                }
            }
            SignalPhase::Walk(a) if signal.timer >= WALK => SignalPhase::WalkClearance(a),
            SignalPhase::WalkClearance(a) => {
                let clear = !crossings.occupied(at);
                if (signal.timer >= MIN_ALL_RED && clear) || signal.timer >= MAX_WALK_CLEARANCE {
                    signal.walkers_wait = 0.0;
                    SignalPhase::Green(signal.next_approach(a, demand))
                } else {
                    SignalPhase::WalkClearance(a)
                }
            }
            phase @ (SignalPhase::Amber(_) | SignalPhase::Walk(_)) => phase,
        };
        if signal.phase != before {
            signal.timer = 0.0;
        }
    }
}
