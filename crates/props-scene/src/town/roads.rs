//! The road network: a square grid of intersections joined by two-way roads, right-hand
//! traffic, one lane per direction. Lanes are polylines with their length; a road lane ends at
//! the stop line of the intersection it enters, where connector lanes (straight, left, right)
//! lead across the intersection box to the outgoing road lanes.
//!
//! Ground plane is XZ (+Y up). Headings are yaws: a yaw `a` points along `(sin a, cos a)` in
//! (x, z); +X is a car's left when it faces +Z (glTF's convention), so turning left increases
//! the yaw and curvatures of left turns are positive.
//!
//! Over 600 lines: about 100 are the unit tests of the private lane geometry; building the
//! network and looking lanes up share one packed layout.

use std::f32::consts::{FRAC_PI_2, PI};

use glam::Vec2;

use crate::rng::Rng;

/// Width of a lane, metres.
pub const LANE_WIDTH: f32 = 3.5;
/// Half the side of an intersection box: road lanes stop this far from its centre.
pub const BOX_HALF: f32 = 8.0;
/// Polyline segments of a turning connector.
const CURVE_SEGMENTS: usize = 12;
/// Cubic Bezier handle length of a quarter circle, as a fraction of its radius.
const QUARTER_CIRCLE_HANDLE: f32 = 0.552_284_8;
/// Route weights: how much likelier going straight is than each turn.
const STRAIGHT_WEIGHT: u32 = 2;

/// Index of a lane in [`RoadNetwork::lanes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LaneId(pub u32);

impl LaneId {
    /// The index as `usize`.
    #[must_use]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Index of an intersection in [`RoadNetwork::intersections`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct IntersectionId(pub u32);

impl IntersectionId {
    /// The index as `usize`.
    #[must_use]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The four compass directions of the grid, in approach order: +Z, +X, -Z, -X.
pub const DIRECTIONS: [Vec2; 4] = [Vec2::Y, Vec2::X, Vec2::NEG_Y, Vec2::NEG_X];

/// How a connector crosses its intersection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// Straight on.
    Straight,
    /// A left turn (across the oncoming lane).
    Left,
    /// A right turn.
    Right,
    /// Back the way it came (only where nothing else is possible).
    UTurn,
}

/// What a lane is part of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneKind {
    /// A lane of a road, from the box of `from` to the stop line of `to`.
    Road {
        /// Where the lane starts.
        from: IntersectionId,
        /// Whose stop line the lane ends at.
        to: IntersectionId,
        /// Which of `to`'s approaches this lane is (an index into [`DIRECTIONS`]: the direction
        /// from `to` towards `from`).
        approach: usize,
    },
    /// A path across an intersection box, from an approach to an exit.
    Connector {
        /// The intersection.
        at: IntersectionId,
        /// The movement.
        turn: Turn,
    },
}

/// One lane: a polyline driven from its first point to its last.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    kind: LaneKind,
    points: Vec<Vec2>,
    /// Distance along the lane of each point; the first is 0, the last the length.
    distances: Vec<f32>,
    next: Vec<LaneId>,
    feeders: Vec<LaneId>,
    curvature: f32,
    speed_limit: f32,
}

impl Lane {
    fn new(kind: LaneKind, points: Vec<Vec2>, curvature: f32, speed_limit: f32) -> Self {
        let mut distances = Vec::with_capacity(points.len());
        let mut total = 0.0;
        distances.push(0.0);
        for pair in points.windows(2) {
            total += pair[0].distance(pair[1]);
            distances.push(total);
        }
        Self { kind, points, distances, next: Vec::new(), feeders: Vec::new(), curvature, speed_limit }
    }

    /// What the lane belongs to.
    #[must_use]
    pub fn kind(&self) -> LaneKind {
        self.kind
    }

    /// Length in metres.
    #[must_use]
    pub fn length(&self) -> f32 {
        self.distances.last().copied().unwrap_or(0.0)
    }

    /// The polyline, (x, z) on the ground.
    #[must_use]
    pub fn points(&self) -> &[Vec2] {
        &self.points
    }

    /// Lanes a car may take at the end of this one: a road lane's connectors, or a connector's
    /// exit road lane.
    #[must_use]
    pub fn next(&self) -> &[LaneId] {
        &self.next
    }

    /// For a road lane, the connectors that lead onto it (empty for connectors).
    #[must_use]
    pub fn feeders(&self) -> &[LaneId] {
        &self.feeders
    }

    /// Signed curvature (1/m, positive turning left), constant along the lane.
    #[must_use]
    pub fn curvature(&self) -> f32 {
        self.curvature
    }

    /// Highest speed driven on the lane, m/s.
    #[must_use]
    pub fn speed_limit(&self) -> f32 {
        self.speed_limit
    }

    /// The intersection and approach whose signal guards the end of a road lane.
    #[must_use]
    pub fn stop_line(&self) -> Option<(IntersectionId, usize)> {
        match self.kind {
            LaneKind::Road { to, approach, .. } => Some((to, approach)),
            LaneKind::Connector { .. } => None,
        }
    }

    /// The point `distance` metres along the lane (clamped to the lane) and the unit
    /// direction of travel there.
    #[must_use]
    pub fn sample(&self, distance: f32) -> (Vec2, Vec2) {
        sample_path(self.points.len(), |i| (self.points[i], self.distances[i]), distance)
    }
}

/// The point `distance` metres along a polyline of `len` points (at least two; `point(i)`:
/// the `i`-th point and its distance along the polyline), clamped to it, and the unit
/// direction there.
fn sample_path(len: usize, point: impl Fn(usize) -> (Vec2, f32), distance: f32) -> (Vec2, Vec2) {
    // The segment: the last point at or before `distance`, never the last point.
    let (mut low, mut high) = (0, len - 1);
    while high - low > 1 {
        let middle = (low + high) / 2;
        if point(middle).1 <= distance {
            low = middle;
        } else {
            high = middle;
        }
    }
    let ((a, from), (b, to)) = (point(low), point(low + 1));
    let span = to - from;
    let u = if span > 0.0 { ((distance - from) / span).clamp(0.0, 1.0) } else { 0.0 };
    (a.lerp(b, u), (b - a).normalize_or(Vec2::Y))
}

/// One intersection of the grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Intersection {
    centre: Vec2,
    approaches: [Option<LaneId>; 4],
    exits: [Option<LaneId>; 4],
    connectors: Vec<LaneId>,
}

impl Intersection {
    /// Centre of the box, (x, z).
    #[must_use]
    pub fn centre(&self) -> Vec2 {
        self.centre
    }

    /// The road lane arriving from each direction of [`DIRECTIONS`], where there is a road.
    #[must_use]
    pub fn approaches(&self) -> &[Option<LaneId>; 4] {
        &self.approaches
    }

    /// The road lane leaving towards each direction of [`DIRECTIONS`], where there is a road.
    #[must_use]
    pub fn exits(&self) -> &[Option<LaneId>; 4] {
        &self.exits
    }

    /// Connector lanes across the box.
    #[must_use]
    pub fn connectors(&self) -> &[LaneId] {
        &self.connectors
    }
}

/// The town's roads: lanes, intersections and how they connect.
#[derive(Clone, Debug, PartialEq)]
pub struct RoadNetwork {
    lanes: Vec<Lane>,
    /// Each lane's length, speed limit and links, packed apart from the lanes for the
    /// traffic system's per-car lookups (a lane is large; these are read for every car).
    lengths: Vec<f32>,
    limits: Vec<f32>,
    curvatures: Vec<f32>,
    links: Vec<LaneLinks>,
    /// Every lane's polyline back to back (each point with its distance along the lane, side
    /// by side: one cache miss per vehicle placed), for placing every vehicle every step:
    /// lane `i`'s is `paths[i]..paths[i + 1]`.
    path_points: Vec<(Vec2, f32)>,
    paths: Vec<u32>,
    intersections: Vec<Intersection>,
    road_lanes: Vec<LaneId>,
    grid: usize,
    block: f32,
}

/// What the traffic system reads of a lane for every car, packed: its first next lane, and
/// its stop line's intersection (`u32::MAX` for a connector) and approach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LaneLinks {
    first_next: u32,
    stop: u32,
    /// A connector's intersection (`u32::MAX` for a road lane).
    crosses: u32,
    approach: u8,
}

impl LaneLinks {
    fn of(lane: &Lane) -> Self {
        let first_next = lane.next.first().map_or(u32::MAX, |l| l.0);
        let crosses = match lane.kind {
            LaneKind::Connector { at, .. } => at.0,
            LaneKind::Road { .. } => u32::MAX,
        };
        match lane.stop_line() {
            Some((to, approach)) => Self { first_next, stop: to.0, crosses, approach: approach as u8 },
            None => Self { first_next, stop: u32::MAX, crosses, approach: 0 },
        }
    }
}

/// Unit vector to the right of heading `d` (right-hand traffic keeps right).
fn right_of(d: Vec2) -> Vec2 {
    Vec2::new(-d.y, d.x)
}

/// Unit vector to the left of heading `d`.
fn left_of(d: Vec2) -> Vec2 {
    -right_of(d)
}

fn classify(d_in: Vec2, d_out: Vec2) -> Turn {
    let dot = d_in.dot(d_out);
    if dot > 0.5 {
        Turn::Straight
    } else if dot < -0.5 {
        Turn::UTurn
    } else if left_of(d_in).dot(d_out) > 0.0 {
        Turn::Left
    } else {
        Turn::Right
    }
}

fn cubic(p0: Vec2, p1: Vec2, p2: Vec2, p3: Vec2, t: f32) -> Vec2 {
    let s = 1.0 - t;
    p0 * (s * s * s) + p1 * (3.0 * s * s * t) + p2 * (3.0 * s * t * t) + p3 * (t * t * t)
}

impl RoadNetwork {
    /// A `grid` x `grid` town, intersections `block` metres apart, centred on the origin.
    /// Roads are driven at up to `speed_limit`; turns at the speed giving
    /// `lateral_acceleration`.
    ///
    /// # Panics
    /// If `grid < 2` (a [`crate::SceneConfig`] is validated before this).
    #[must_use]
    pub fn grid(grid: usize, block: f32, speed_limit: f32, lateral_acceleration: f32) -> Self {
        assert!(grid >= 2, "a road grid needs at least 2 x 2 intersections");
        let offset = (grid - 1) as f32 * 0.5;
        let mut intersections: Vec<Intersection> = (0..grid * grid)
            .map(|index| Intersection {
                centre: Vec2::new((index % grid) as f32 - offset, (index / grid) as f32 - offset) * block,
                approaches: [None; 4],
                exits: [None; 4],
                connectors: Vec::new(),
            })
            .collect();
        let mut lanes = Vec::new();
        let mut road_lanes = Vec::new();
        let neighbour = |index: usize, d: Vec2| {
            let (i, j) = ((index % grid) as isize, (index / grid) as isize);
            let (ni, nj) = (i + d.x as isize, j + d.y as isize);
            let inside = |v: isize| (0..grid as isize).contains(&v);
            (inside(ni) && inside(nj)).then(|| nj as usize * grid + ni as usize)
        };
        for from in 0..intersections.len() {
            for (dir, &d) in DIRECTIONS.iter().enumerate() {
                let Some(to) = neighbour(from, d) else { continue };
                let side = right_of(d) * (LANE_WIDTH * 0.5);
                let start = intersections[from].centre + d * BOX_HALF + side;
                let end = intersections[to].centre - d * BOX_HALF + side;
                let approach = (dir + 2) % 4;
                let id = LaneId(lanes.len() as u32);
                let kind =
                    LaneKind::Road { from: IntersectionId(from as u32), to: IntersectionId(to as u32), approach };
                lanes.push(Lane::new(kind, vec![start, end], 0.0, speed_limit));
                road_lanes.push(id);
                intersections[from].exits[dir] = Some(id);
                intersections[to].approaches[approach] = Some(id);
            }
        }
        for (at, intersection) in intersections.iter_mut().enumerate() {
            let outs: Vec<LaneId> = intersection.exits.iter().flatten().copied().collect();
            for &incoming in intersection.approaches.iter().flatten() {
                let d_in = lanes[incoming.index()].sample(0.0).1;
                let allowed: Vec<(LaneId, Turn)> = outs
                    .iter()
                    .map(|&out| (out, classify(d_in, lanes[out.index()].sample(0.0).1)))
                    .filter(|&(_, turn)| turn != Turn::UTurn)
                    .collect();
                // A U-turn only where nothing else is possible (a dead end).
                let movements =
                    if allowed.is_empty() { outs.iter().map(|&out| (out, Turn::UTurn)).collect() } else { allowed };
                for (outgoing, turn) in movements {
                    let lane = Self::connector(&lanes[incoming.index()], &lanes[outgoing.index()], turn, at);
                    let lane = lane.with_limit(speed_limit, lateral_acceleration);
                    let id = LaneId(lanes.len() as u32);
                    lanes.push(lane);
                    lanes[id.index()].next.push(outgoing);
                    lanes[incoming.index()].next.push(id);
                    lanes[outgoing.index()].feeders.push(id);
                    intersection.connectors.push(id);
                }
            }
        }
        let lengths = lanes.iter().map(Lane::length).collect();
        let limits = lanes.iter().map(Lane::speed_limit).collect();
        let curvatures = lanes.iter().map(Lane::curvature).collect();
        let links = lanes.iter().map(LaneLinks::of).collect();
        let path_points =
            lanes.iter().flat_map(|l| l.points.iter().copied().zip(l.distances.iter().copied())).collect();
        let paths = std::iter::once(0)
            .chain(lanes.iter().scan(0, |end, l| {
                *end += l.points.len() as u32;
                Some(*end)
            }))
            .collect();
        Self { lanes, lengths, limits, curvatures, links, path_points, paths, intersections, road_lanes, grid, block }
    }

    /// The point `distance` metres along lane `id` and the direction of travel there (as
    /// [`Lane::sample`], from the packed polylines).
    #[must_use]
    pub fn sample(&self, id: LaneId, distance: f32) -> (Vec2, Vec2) {
        let path = &self.path_points[self.paths[id.index()] as usize..self.paths[id.index() + 1] as usize];
        sample_path(path.len(), |i| path[i], distance)
    }

    /// The unit direction of lane `id` at its end (its last segment's; as [`RoadNetwork::sample`]
    /// at its length gives, without the search).
    #[must_use]
    pub fn end_heading(&self, id: LaneId) -> Vec2 {
        let path = &self.path_points[self.paths[id.index()] as usize..self.paths[id.index() + 1] as usize];
        match path {
            [.., (a, _), (b, _)] => (*b - *a).normalize_or(Vec2::Y),
            _ => Vec2::Y,
        }
    }

    /// The length of lane `id`, metres (as [`Lane::length`]).
    #[must_use]
    pub fn length(&self, id: LaneId) -> f32 {
        self.lengths[id.index()]
    }

    /// The speed limit of lane `id`, m/s (as [`Lane::speed_limit`]).
    #[must_use]
    pub fn speed_limit(&self, id: LaneId) -> f32 {
        self.limits[id.index()]
    }

    /// The curvature of lane `id`, 1/m (as [`Lane::curvature`]).
    #[must_use]
    pub fn curvature(&self, id: LaneId) -> f32 {
        self.curvatures[id.index()]
    }

    /// The first lane after lane `id`, if any (a connector's only one; a road lane's first
    /// choice).
    #[must_use]
    pub fn first_next(&self, id: LaneId) -> Option<LaneId> {
        let next = self.links[id.index()].first_next;
        (next != u32::MAX).then_some(LaneId(next))
    }

    /// Whether lane `id` is a connector across an intersection.
    #[must_use]
    pub fn is_connector(&self, id: LaneId) -> bool {
        self.crosses(id).is_some()
    }

    /// The intersection whose box lane `id` crosses, if it is a connector.
    #[must_use]
    pub fn crosses(&self, id: LaneId) -> Option<IntersectionId> {
        let crosses = self.links[id.index()].crosses;
        (crosses != u32::MAX).then_some(IntersectionId(crosses))
    }

    /// The intersection and approach whose signal guards the end of lane `id` (as
    /// [`Lane::stop_line`]).
    #[must_use]
    pub fn stop_line(&self, id: LaneId) -> Option<(IntersectionId, usize)> {
        let links = self.links[id.index()];
        (links.stop != u32::MAX).then_some((IntersectionId(links.stop), usize::from(links.approach)))
    }

    /// The connector from the end of `incoming` to the start of `outgoing`: a straight line or
    /// a cubic Bezier close to a circular arc.
    fn connector(incoming: &Lane, outgoing: &Lane, turn: Turn, at: usize) -> Lane {
        let (p0, d_in) = incoming.sample(incoming.length());
        let (p3, d_out) = outgoing.sample(0.0);
        let kind = LaneKind::Connector { at: IntersectionId(at as u32), turn };
        let (handle, angle) = match turn {
            Turn::Straight => return Lane::new(kind, vec![p0, p3], 0.0, f32::INFINITY),
            Turn::Left => (QUARTER_CIRCLE_HANDLE * (p3 - p0).dot(d_in).abs(), FRAC_PI_2),
            Turn::Right => (QUARTER_CIRCLE_HANDLE * (p3 - p0).dot(d_in).abs(), -FRAC_PI_2),
            Turn::UTurn => (LANE_WIDTH * 1.5, PI),
        };
        let (p1, p2) = (p0 + d_in * handle, p3 - d_out * handle);
        let points: Vec<Vec2> =
            (0..=CURVE_SEGMENTS).map(|k| cubic(p0, p1, p2, p3, k as f32 / CURVE_SEGMENTS as f32)).collect();
        let mut lane = Lane::new(kind, points, 0.0, f32::INFINITY);
        lane.curvature = angle / lane.length();
        lane
    }

    /// Every lane; a [`LaneId`] indexes this.
    #[must_use]
    pub fn lanes(&self) -> &[Lane] {
        &self.lanes
    }

    /// One lane.
    #[must_use]
    pub fn lane(&self, id: LaneId) -> &Lane {
        &self.lanes[id.index()]
    }

    /// The road lanes (not connectors), in creation order.
    #[must_use]
    pub fn road_lanes(&self) -> &[LaneId] {
        &self.road_lanes
    }

    /// Every intersection; an [`IntersectionId`] indexes this.
    #[must_use]
    pub fn intersections(&self) -> &[Intersection] {
        &self.intersections
    }

    /// Distance from the town's centre to the outer edge of its outermost boxes, metres.
    #[must_use]
    pub fn half_extent(&self) -> f32 {
        (self.grid - 1) as f32 * 0.5 * self.block + BOX_HALF
    }

    /// Centres of the blocks between the roads (where the parks are), (x, z).
    pub fn block_centres(&self) -> impl ExactSizeIterator<Item = Vec2> + '_ {
        let blocks = self.grid - 1;
        let offset = (blocks - 1) as f32 * 0.5;
        (0..blocks * blocks)
            .map(move |b| Vec2::new((b % blocks) as f32 - offset, (b / blocks) as f32 - offset) * self.block)
    }

    /// Side of a block, metres.
    #[must_use]
    pub fn block(&self) -> f32 {
        self.block
    }

    /// Picks the lane after `lane`: a connector's exit, or one of a road lane's connectors at
    /// random (straight on twice as likely as each turn). Allocation-free.
    pub fn choose_next(&self, lane: LaneId, rng: &mut Rng) -> LaneId {
        let next = &self.lanes[lane.index()].next;
        let weight = |id: &LaneId| match self.lanes[id.index()].kind {
            LaneKind::Connector { turn: Turn::Straight, .. } => STRAIGHT_WEIGHT,
            _ => 1,
        };
        let mut pick = rng.below(next.iter().map(weight).sum());
        for id in next {
            let w = weight(id);
            if pick < w {
                return *id;
            }
            pick -= w;
        }
        // Every lane of a grid network has a successor; an empty list cannot be reached.
        next.first().copied().unwrap_or(lane)
    }
}

impl Lane {
    /// Sets a connector's speed limit: the road's, or slower where the turn is tight.
    fn with_limit(mut self, road_limit: f32, lateral_acceleration: f32) -> Self {
        let turn_limit = (lateral_acceleration / self.curvature.abs().max(1e-6)).sqrt();
        self.speed_limit = road_limit.min(turn_limit);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_3x3_has_the_expected_lanes() {
        let roads = RoadNetwork::grid(3, 90.0, 13.9, 2.0);
        // 12 roads, two lanes each.
        assert_eq!(roads.road_lanes().len(), 24);
        // Movements: corners 2 approaches x 1, edges 3 x 2, centre 4 x 3.
        let connectors = roads.lanes().len() - 24;
        assert_eq!(connectors, 4 * 2 + 4 * 3 * 2 + 4 * 3);
        for lane in roads.lanes() {
            assert!(!lane.next().is_empty());
            assert!(lane.length() > 1.0);
        }
    }

    #[test]
    fn lanes_keep_right_and_turns_curve_the_right_way() {
        let roads = RoadNetwork::grid(2, 60.0, 13.9, 2.0);
        for lane in roads.lanes() {
            let (start, d) = lane.sample(0.0);
            match lane.kind() {
                LaneKind::Road { from, .. } => {
                    // The road centreline runs through `from`; the lane is on the right of it.
                    let to_centre = roads.intersections()[from.index()].centre() - start;
                    let lateral = right_of(d).dot(-to_centre);
                    assert!((lateral - LANE_WIDTH * 0.5).abs() < 1e-4, "lateral {lateral}");
                }
                LaneKind::Connector { turn, .. } => {
                    let (_, d_end) = lane.sample(lane.length());
                    let sign = left_of(d).dot(d_end);
                    match turn {
                        Turn::Left => assert!(sign > 0.9 && lane.curvature() > 0.0),
                        Turn::Right => assert!(sign < -0.9 && lane.curvature() < 0.0),
                        Turn::Straight | Turn::UTurn => {}
                    }
                    assert!(lane.speed_limit() < 13.9 || turn == Turn::Straight);
                }
            }
        }
    }

    #[test]
    fn lanes_join_end_to_start() {
        let roads = RoadNetwork::grid(3, 80.0, 13.9, 2.0);
        for lane in roads.lanes() {
            let end = lane.sample(lane.length()).0;
            for next in lane.next() {
                assert!(roads.lane(*next).sample(0.0).0.distance(end) < 1e-3);
            }
        }
    }

    /// The packed polylines the traffic places vehicles with are each lane's own.
    #[test]
    fn packed_paths_sample_as_their_lanes() {
        let roads = RoadNetwork::grid(4, 80.0, 13.9, 2.0);
        for (i, lane) in roads.lanes().iter().enumerate() {
            for k in -1..=21 {
                let distance = lane.length() * k as f32 / 20.0;
                assert_eq!(roads.sample(LaneId(i as u32), distance), lane.sample(distance), "lane {i} at {distance}");
            }
        }
    }

    #[test]
    fn connectors_and_only_they_cross_their_intersections() {
        let roads = RoadNetwork::grid(4, 80.0, 13.9, 2.0);
        let mut crossing = vec![None; roads.lanes().len()];
        for (at, intersection) in roads.intersections().iter().enumerate() {
            for connector in intersection.connectors() {
                crossing[connector.index()] = Some(IntersectionId(at as u32));
            }
        }
        assert!(crossing.iter().filter(|c| c.is_some()).count() > roads.intersections().len());
        for (i, expected) in crossing.into_iter().enumerate() {
            assert_eq!(roads.crosses(LaneId(i as u32)), expected, "lane {i}");
            assert_eq!(roads.is_connector(LaneId(i as u32)), expected.is_some(), "lane {i}");
        }
    }

    #[test]
    fn routing_is_seeded_and_picks_every_movement() {
        let roads = RoadNetwork::grid(3, 90.0, 13.9, 2.0);
        let centre = &roads.intersections()[4];
        let incoming = centre.approaches()[0].expect("the centre has four approaches");
        let mut rng = Rng::new(3);
        let picks: Vec<LaneId> = (0..200).map(|_| roads.choose_next(incoming, &mut rng)).collect();
        let mut again = Rng::new(3);
        assert!(picks.iter().all(|p| *p == roads.choose_next(incoming, &mut again)));
        for option in roads.lane(incoming).next() {
            assert!(picks.contains(option));
        }
    }
}
