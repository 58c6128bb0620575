//! VRM 1.0's node constraints, `VRMC_node_constraint` on a node: a twist bone that rolls with
//! the hand, an eye that aims at a target, a part that turns as another does. They are read as
//! three-vrm reads them, into the rig's [`props_anim::constraint::NodeConstraint`]s.
//!
//! What cannot be read is passed over at the finest grain, with a warning at its path:
//! - a constraint with no kind, or whose `source` names no node, is ignored;
//! - a missing or unknown axis takes three-vrm's default (`X`, `PositiveX`);
//! - a weight out of `[0, 1]` is clamped (a missing one is 1, as the specification says, with
//!   no warning);
//! - a `specVersion` missing or other than `1.0` (or `1.0-beta`) is read as 1.0.
//!
//! The rig refuses some constraints ([`props_anim::Rig::admit_constraints`]), and each is
//! dropped alone:
//! - one on or following a node given by a matrix;
//! - one following its own node;
//! - one reading what it sets, itself or through others (three-vrm stops on those): of a
//!   cycle, the first in the file;
//! - those past what a pose may cost (aims computing too many world matrices), from the first
//!   on.

use gltf::json::Root;
use props_anim::Rig;
use props_anim::constraint::{Axis, ConstraintError, ConstraintKind, MAX_AIM_WALK, NodeConstraint};
use serde_json::Value;

use crate::error::{Problems, Warnings};

/// The extension, on a node.
const EXTENSION: &str = "VRMC_node_constraint";

/// Sets on `rig` the constraints `root`'s nodes declare.
pub(crate) fn apply(root: &Root, rig: &mut Rig, warnings: &mut Warnings) {
    let mut problems = Problems::default();
    let mut read = Vec::new();
    for (n, node) in root.nodes.iter().enumerate() {
        let Some(ext) = node.extensions.as_ref().and_then(|e| e.others.get(EXTENSION)) else { continue };
        let at = format!("nodes[{n}].extensions.{EXTENSION}");
        if let Some(constraint) = read_one(root, rig, (n, ext), &at, &mut problems) {
            read.push((constraint, at));
        }
    }
    let list: Vec<NodeConstraint> = read.iter().map(|(c, _)| *c).collect();
    for error in rig.admit_constraints(&list) {
        problems.tell(read[error.index()].1.clone(), why(&error));
    }
    problems.warn(warnings, "nodes", |more| {
        format!("{more} more node constraint problems as the ones above (each ignored, or read with a default)")
    });
}

/// What became of a constraint the rig refused, and why, in a modder's words.
fn why(error: &ConstraintError) -> String {
    match error {
        ConstraintError::OwnSource { .. } => "ignored: it follows its own node".to_owned(),
        ConstraintError::MatrixNode { .. } => "ignored: it sets or follows a node given by a `matrix`, which has no \
                                               rotation of its own; give that node `translation`, `rotation` and `scale`"
            .to_owned(),
        ConstraintError::Cycle { .. } => "ignored: it reads what it sets, itself (an aim at a node below its own) or \
                                          through constraints that read it (three-vrm stops on this); the first of \
                                          those in the file is dropped"
            .to_owned(),
        ConstraintError::TooCostly { .. } => format!(
            "ignored, as every constraint after it: past what a pose may cost (the aims would have more than \
             {MAX_AIM_WALK} world matrices computed a pose); use fewer aims"
        ),
        // Read as the rig takes them: sources on the rig, one a node, weights clamped.
        other => format!("ignored: {other}"),
    }
}

/// Node `n`'s constraint `ext` (at `at`), as far as it can be read.
fn read_one(
    root: &Root,
    rig: &Rig,
    (n, ext): (usize, &Value),
    at: &str,
    problems: &mut Problems,
) -> Option<NodeConstraint> {
    let version = ext.get("specVersion");
    match version {
        None => problems.tell(format!("{at}.specVersion"), "missing: read as 1.0"),
        Some(v) if !matches!(v.as_str(), Some("1.0" | "1.0-beta")) => {
            problems.tell(format!("{at}.specVersion"), format!("version {v} read as 1.0"));
        }
        Some(_) => {}
    }
    let constraint = ext.get("constraint");
    // three-vrm reads the first of these a constraint has.
    let Some((kind, body)) = ["roll", "aim", "rotation"].into_iter().find_map(|k| Some((k, constraint?.get(k)?)))
    else {
        problems.tell(format!("{at}.constraint"), "ignored: a constraint is a `roll`, an `aim` or a `rotation`");
        return None;
    };
    let at = format!("{at}.constraint.{kind}");
    let node = rig.from_source_index(u32::try_from(n).ok()?)?;
    let source = body.get("source").and_then(Value::as_u64).and_then(|s| u32::try_from(s).ok());
    let Some(source) = source.filter(|&s| (s as usize) < root.nodes.len()).and_then(|s| rig.from_source_index(s))
    else {
        let count = root.nodes.len();
        problems.tell(format!("{at}.source"), format!("ignored: names no node of the file's {count}"));
        return None;
    };
    let kind = match kind {
        "roll" => {
            const ROLL: [(&str, Axis); 3] = [("X", Axis::PositiveX), ("Y", Axis::PositiveY), ("Z", Axis::PositiveZ)];
            ConstraintKind::Roll(axis(body, "rollAxis", &ROLL, &at, problems))
        }
        "aim" => {
            const AIM: [(&str, Axis); 6] = [
                ("PositiveX", Axis::PositiveX),
                ("NegativeX", Axis::NegativeX),
                ("PositiveY", Axis::PositiveY),
                ("NegativeY", Axis::NegativeY),
                ("PositiveZ", Axis::PositiveZ),
                ("NegativeZ", Axis::NegativeZ),
            ];
            ConstraintKind::Aim(axis(body, "aimAxis", &AIM, &at, problems))
        }
        _ => ConstraintKind::Rotation,
    };
    let weight = match body.get("weight").map(Value::as_f64) {
        None => 1.0,
        Some(Some(w)) if (0.0..=1.0).contains(&w) => w as f32,
        Some(Some(w)) if w.is_finite() => {
            problems.tell(format!("{at}.weight"), format!("{w} is out of [0, 1]: clamped"));
            w.clamp(0.0, 1.0) as f32
        }
        Some(_) => {
            problems.tell(format!("{at}.weight"), "not a number in [0, 1]: 1 instead");
            1.0
        }
    };
    Some(NodeConstraint { node, source, kind, weight })
}

/// The axis `body[key]` names among `axes`, or the first with a problem.
fn axis(body: &Value, key: &str, axes: &[(&str, Axis)], at: &str, problems: &mut Problems) -> Axis {
    let named = body.get(key).and_then(Value::as_str);
    named.and_then(|name| axes.iter().find(|(n, _)| *n == name)).map_or_else(
        || {
            let (default, _) = axes[0];
            let names: Vec<&str> = axes.iter().map(|(n, _)| *n).collect();
            let why = match named {
                Some(name) => format!("{name:?} is not one of {}: {default} instead", names.join(", ")),
                None => format!("missing: {default} instead (one of {})", names.join(", ")),
            };
            problems.tell(format!("{at}.{key}"), why);
            axes[0].1
        },
        |(_, axis)| *axis,
    )
}
