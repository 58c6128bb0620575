//! Which node of a rig is each bone of a person ([`BoneMap`]): found from the names the common
//! rigs use (per convention, whole, blind to case, separators and exporters' prefixes), or
//! given bone by bone and then checked to be a person's skeleton.

use super::{BONES, Bone, WALKING, is_other_vrm_bone, rest_world};
use crate::{NodeId, Rig};

/// Per convention: its name, and per bone ([`BONES`] order) the node names it uses, lower case
/// without separators (`thigh.L` and `thigh_l` are both `thighl`).
const CONVENTIONS: [(&str, [&[&str]; 19]); 8] = [
    (
        "props",
        [
            &["hips"],
            &["spine"],
            &["chest"],
            &["neck"],
            &["head"],
            &["upperarml"],
            &["forearml"],
            &["handl"],
            &["upperarmr"],
            &["forearmr"],
            &["handr"],
            &["thighl"],
            &["shinl"],
            &["footl"],
            &["toel"],
            &["thighr"],
            &["shinr"],
            &["footr"],
            &["toer"],
        ],
    ),
    (
        "Mixamo",
        [
            &["hips"],
            &["spine"],
            &["spine2", "spine1"],
            &["neck"],
            &["head"],
            &["leftarm"],
            &["leftforearm"],
            &["lefthand"],
            &["rightarm"],
            &["rightforearm"],
            &["righthand"],
            &["leftupleg"],
            &["leftleg"],
            &["leftfoot"],
            &["lefttoebase"],
            &["rightupleg"],
            &["rightleg"],
            &["rightfoot"],
            &["righttoebase"],
        ],
    ),
    (
        "Blender metarig",
        [
            &["spine"],
            &["spine001"],
            &["spine003"],
            &["spine004"],
            &["spine006"],
            &["upperarml"],
            &["forearml"],
            &["handl"],
            &["upperarmr"],
            &["forearmr"],
            &["handr"],
            &["thighl"],
            &["shinl"],
            &["footl"],
            &["toel"],
            &["thighr"],
            &["shinr"],
            &["footr"],
            &["toer"],
        ],
    ),
    (
        "VRM",
        [
            &["jbipchips", "hips"],
            &["jbipcspine", "spine"],
            &["jbipcupperchest", "jbipcchest", "upperchest", "chest"],
            &["jbipcneck", "neck"],
            &["jbipchead", "head"],
            &["jbiplupperarm", "leftupperarm"],
            &["jbipllowerarm", "leftlowerarm"],
            &["jbiplhand", "lefthand"],
            &["jbiprupperarm", "rightupperarm"],
            &["jbiprlowerarm", "rightlowerarm"],
            &["jbiprhand", "righthand"],
            &["jbiplupperleg", "leftupperleg"],
            &["jbipllowerleg", "leftlowerleg"],
            &["jbiplfoot", "leftfoot"],
            &["jbipltoebase", "lefttoes"],
            &["jbiprupperleg", "rightupperleg"],
            &["jbiprlowerleg", "rightlowerleg"],
            &["jbiprfoot", "rightfoot"],
            &["jbiprtoebase", "righttoes"],
        ],
    ),
    (
        "Unreal mannequin",
        [
            &["pelvis"],
            &["spine01"],
            &["spine05", "spine03"],
            &["neck01"],
            &["head"],
            &["upperarml"],
            &["lowerarml"],
            &["handl"],
            &["upperarmr"],
            &["lowerarmr"],
            &["handr"],
            &["thighl"],
            &["calfl"],
            &["footl"],
            &["balll"],
            &["thighr"],
            &["calfr"],
            &["footr"],
            &["ballr"],
        ],
    ),
    (
        // 3ds Max's Biped (its first figure `Bip01`, or `Bip001` since Max 2010): the thighs
        // hang from the spine's first link, the arms from the neck through the collarbones.
        "3ds Max Biped",
        [
            &["bip01pelvis", "bip001pelvis"],
            &["bip01spine", "bip001spine"],
            &["bip01spine2", "bip001spine2", "bip01spine1", "bip001spine1"],
            &["bip01neck", "bip001neck"],
            &["bip01head", "bip001head"],
            &["bip01lupperarm", "bip001lupperarm"],
            &["bip01lforearm", "bip001lforearm"],
            &["bip01lhand", "bip001lhand"],
            &["bip01rupperarm", "bip001rupperarm"],
            &["bip01rforearm", "bip001rforearm"],
            &["bip01rhand", "bip001rhand"],
            &["bip01lthigh", "bip001lthigh"],
            &["bip01lcalf", "bip001lcalf"],
            &["bip01lfoot", "bip001lfoot"],
            &["bip01ltoe0", "bip001ltoe0"],
            &["bip01rthigh", "bip001rthigh"],
            &["bip01rcalf", "bip001rcalf"],
            &["bip01rfoot", "bip001rfoot"],
            &["bip01rtoe0", "bip001rtoe0"],
        ],
    ),
    (
        // Reallusion's Character Creator and ActorCore (`CC_Base_`): the spine from the hip
        // through the waist, the thighs through the pelvis.
        "Character Creator",
        [
            &["ccbasehip"],
            &["ccbasewaist"],
            &["ccbasespine02", "ccbasespine01"],
            &["ccbasenecktwist01"],
            &["ccbasehead"],
            &["ccbaselupperarm"],
            &["ccbaselforearm"],
            &["ccbaselhand"],
            &["ccbaserupperarm"],
            &["ccbaserforearm"],
            &["ccbaserhand"],
            &["ccbaselthigh"],
            &["ccbaselcalf"],
            &["ccbaselfoot"],
            &["ccbaseltoebase"],
            &["ccbaserthigh"],
            &["ccbasercalf"],
            &["ccbaserfoot"],
            &["ccbasertoebase"],
        ],
    ),
    (
        // Daz's Genesis 3 and 8 (each limb's bend bone; Genesis 2's single bones after them).
        "Daz Genesis",
        [
            &["hip"],
            &["abdomenlower", "abdomen"],
            &["chestupper", "chest"],
            &["necklower", "neck"],
            &["head"],
            &["lshldrbend", "lshldr"],
            &["lforearmbend", "lforearm"],
            &["lhand"],
            &["rshldrbend", "rshldr"],
            &["rforearmbend", "rforearm"],
            &["rhand"],
            &["lthighbend", "lthigh"],
            &["lshin"],
            &["lfoot"],
            &["ltoe"],
            &["rthighbend", "rthigh"],
            &["rshin"],
            &["rfoot"],
            &["rtoe"],
        ],
    ),
];

/// A node name as the conventions list it: the exporters' prefixes (`mixamorig:`,
/// `mixamorig1:`, Rigify's `DEF-` and `ORG-`) dropped, lower case, without `_ . - :` or spaces.
fn normalized(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    let mut rest = lower.as_str();
    if let Some(after) = rest.strip_prefix("mixamorig") {
        rest = after.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start_matches([':', '_']);
    }
    for prefix in ["def-", "org-"] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    rest.chars().filter(|c| !matches!(c, '_' | '.' | '-' | ':' | ' ')).collect()
}

/// [`BoneMap::convention`] of the bones a file's own table gives.
const TABLE: &str = "VRM table";

/// Which node of a rig is each bone of a person.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoneMap {
    nodes: [Option<NodeId>; 19],
    convention: &'static str,
}

impl BoneMap {
    /// The bones of `rig`: the file's own table where it gives one that makes a skeleton
    /// ([`BoneMap::declared`]), else found by name: of the conventions, the one matching most
    /// bones (the first of equals). [`BoneMap::convention`] says which.
    #[must_use]
    pub fn find(rig: &Rig) -> Self {
        match Self::declared(rig) {
            Some(Ok(declared)) => declared,
            _ => Self::by_names(rig),
        }
    }

    /// The bones found in `rig` by name: of the conventions, the one matching most bones (the
    /// first of equals).
    fn by_names(rig: &Rig) -> Self {
        let names: Vec<(String, NodeId)> =
            rig.nodes().filter_map(|node| Some((normalized(rig.name(node)?), node))).collect();
        let map = |(convention, table): &(&'static str, [&[&str]; 19])| {
            let nodes = table.map(|candidates| {
                candidates.iter().find_map(|c| names.iter().find(|(name, _)| name == c).map(|&(_, node)| node))
            });
            Self { nodes, convention }
        };
        let mut best = Self::default();
        for found in CONVENTIONS.iter().map(map) {
            if found.matched() > best.matched() {
                best = found;
            }
        }
        best
    }

    /// The bones the file itself names ([`Rig::humanoid`]: a VRM avatar's table) over those
    /// found by name, as a sidecar's are ([`BoneMap::with_names`]), checked to make a person's
    /// skeleton; `None` when the file declares no avatar. Bones this map does not hold (VRM's
    /// fingers, eyes, shoulders) are passed over.
    ///
    /// # Errors
    /// When the table names none of the bones ([`BoneMapError::NoBones`]) or they make no
    /// skeleton.
    pub fn declared(rig: &Rig) -> Option<Result<Self, BoneMapError>> {
        let table = rig.humanoid()?;
        let mut map = Self::by_names(rig);
        let mut named = false;
        for (name, node) in table {
            if let Some(bone) = BONES.iter().find(|b| b.name() == name) {
                map.nodes[*bone as usize] = Some(*node);
                named = true;
            }
        }
        if !named {
            return Some(Err(BoneMapError::NoBones));
        }
        map.convention = TABLE;
        Some(map.check_shape(rig).map(|()| map))
    }

    /// A map given bone by bone (a sidecar's `[humanoid]` table: VRM's bone names,
    /// [`Bone::name`], to node names), over the bones found by name; VRM's bones that are no
    /// [`Bone`] ([`super::is_other_vrm_bone`]: shoulders, fingers) are checked and passed over.
    /// The first bone or node that does not exist is the error.
    pub fn with_names<'a>(
        mut self,
        rig: &Rig,
        given: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, BoneMapError> {
        for (bone, node) in given {
            let b = BONES.iter().find(|b| b.name() == bone);
            if b.is_none() && !is_other_vrm_bone(bone) {
                return Err(BoneMapError::NoSuchBone(bone.to_owned()));
            }
            let found = rig.find(node).ok_or_else(|| BoneMapError::NoSuchNode(node.to_owned()))?;
            // VRM's other bones (shoulders, fingers) keep their rest pose.
            let Some(b) = b else { continue };
            self.nodes[*b as usize] = Some(found);
            self.convention = "given";
        }
        if self.convention == "given" {
            self.check_shape(rig)?;
        }
        Ok(self)
    }

    /// Whether the bones make a person's skeleton: each its own node, each under the bone
    /// before it (a shin under its thigh, an arm under the chest), and the left leg and arm
    /// on the model's left (+X: a glTF model faces +Z) at rest. A table given by hand may
    /// break any.
    fn check_shape(&self, rig: &Rig) -> Result<(), BoneMapError> {
        let name = |node: NodeId| rig.name(node).unwrap_or("?").to_owned();
        for (i, a) in BONES.iter().enumerate() {
            for b in &BONES[i + 1..] {
                if let (Some(node), true) = (self.get(*a), self.get(*a) == self.get(*b)) {
                    return Err(BoneMapError::SharedNode { node: name(node), bones: (a.name(), b.name()) });
                }
            }
        }
        for bone in BONES {
            let (Some(node), Some(above)) = (self.get(bone), self.mapped_above(bone)) else { continue };
            let ancestor = self.get(above).expect("mapped");
            if !std::iter::successors(rig.parent(node), |&n| rig.parent(n)).any(|n| n == ancestor) {
                let (node, above_node) = (name(node), name(ancestor));
                return Err(BoneMapError::OutOfOrder { bone: bone.name(), node, above: above.name(), above_node });
            }
        }
        let world = rest_world(rig);
        let x = |node: NodeId| world[node.index()].translation.x;
        for (left_bone, right_bone) in
            [(Bone::LeftUpperLeg, Bone::RightUpperLeg), (Bone::LeftUpperArm, Bone::RightUpperArm)]
        {
            if let (Some(left), Some(right)) = (self.get(left_bone), self.get(right_bone))
                && x(left) < x(right)
            {
                let bones = (left_bone.name(), right_bone.name());
                return Err(BoneMapError::SidesSwapped { bones, left: name(left), right: name(right) });
            }
        }
        Ok(())
    }

    /// The nearest mapped bone above `bone` in a person's skeleton (its chain's previous bone,
    /// else the chest for an arm, the hips for a leg or the spine), if any.
    fn mapped_above(&self, bone: Bone) -> Option<Bone> {
        let above = |b: Bone| match b {
            Bone::Hips => None,
            Bone::LeftUpperArm | Bone::RightUpperArm => Some(Bone::Chest),
            Bone::LeftUpperLeg | Bone::RightUpperLeg | Bone::Spine => Some(Bone::Hips),
            other => other.previous(),
        };
        std::iter::successors(above(bone), |&b| above(b)).find(|&b| self.get(b).is_some())
    }

    /// The node of `bone`, if mapped.
    #[must_use]
    pub fn get(&self, bone: Bone) -> Option<NodeId> {
        self.nodes[bone as usize]
    }

    /// How many bones are mapped.
    #[must_use]
    pub fn matched(&self) -> usize {
        self.nodes.iter().flatten().count()
    }

    /// The bones not mapped.
    pub fn missing(&self) -> impl Iterator<Item = Bone> + '_ {
        BONES.into_iter().filter(|&b| self.get(b).is_none())
    }

    /// The convention its names follow (`Mixamo`, ...), `given` where a sidecar named bones,
    /// `VRM table` where the file's own table did ([`BoneMap::declared`]), empty when nothing
    /// matched.
    #[must_use]
    pub fn convention(&self) -> &'static str {
        self.convention
    }

    /// Where its bones were found, as a modder is told: `Mixamo names`, `given names` (a
    /// sidecar's), `the file's VRM table`; empty when nothing matched.
    #[must_use]
    pub fn source(&self) -> String {
        match self.convention {
            "" => String::new(),
            TABLE => "the file's VRM table".to_owned(),
            convention => format!("{convention} names"),
        }
    }

    /// Whether its legs can walk: hips, thighs, shins and feet all mapped.
    #[must_use]
    pub fn walks(&self) -> bool {
        WALKING.iter().all(|&b| self.get(b).is_some())
    }

    /// Whether it maps enough bones to be a person's worth reporting (five: a car's lone
    /// `spine` is none).
    #[must_use]
    pub fn is_humanoid(&self) -> bool {
        self.matched() >= 5
    }
}

/// What a modder is told of a map: `humanoid (Mixamo names): 17 of 19 bones (missing: leftToes,
/// rightToes)`.
impl std::fmt::Display for BoneMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.convention {
            "" => write!(f, "humanoid: {} of 19 bones", self.matched())?,
            _ => write!(f, "humanoid ({}): {} of 19 bones", self.source(), self.matched())?,
        }
        let missing: Vec<&str> = self.missing().map(Bone::name).collect();
        if !missing.is_empty() {
            write!(f, " (missing: {})", missing.join(", "))?;
        }
        Ok(())
    }
}

/// Why a bone map cannot be given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoneMapError {
    /// Not a bone's name.
    #[error("no humanoid bone is named `{0}` (the bones: hips, spine, chest, neck, head, leftUpperArm, ...)")]
    NoSuchBone(String),
    /// Not a node of the model.
    #[error("the model has no node `{0}`")]
    NoSuchNode(String),
    /// A file's table that names none of the bones.
    #[error("the table names none of a person's bones (hips, spine, chest, neck, head, leftUpperArm, ...)")]
    NoBones,
    /// Two bones given one node.
    #[error("`{}` and `{}` are both the node `{node}`: give each bone its own node", bones.0, bones.1)]
    SharedNode {
        /// The node.
        node: String,
        /// The two bones.
        bones: (&'static str, &'static str),
    },
    /// A bone's node not under the node of the bone above it.
    #[error(
        "`{bone}` (the node `{node}`) is not under `{above}` (the node `{above_node}`): each bone's node must hang \
         below the one before it, as a thigh's below the hips"
    )]
    OutOfOrder {
        /// The bone.
        bone: &'static str,
        /// Its node.
        node: String,
        /// The bone above it.
        above: &'static str,
        /// That bone's node.
        above_node: String,
    },
    /// The left leg's or arm's node on the model's right.
    #[error(
        "left and right are swapped: `{}` (the node `{left}`) is on the model's right of `{}` (the node `{right}`); a \
         glTF model faces +Z, so its left is +X (a model facing -Z has all its sides so: turn it round, or, for a VRM \
         avatar, give the version it is made for: VRM 0.x's face -Z and are turned, VRM 1.0's face +Z)",
        bones.0,
        bones.1
    )]
    SidesSwapped {
        /// The left bone and the right one (the thighs, or the upper arms).
        bones: (&'static str, &'static str),
        /// The node given as the left one.
        left: String,
        /// The node given as the right one.
        right: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_matched_whole_and_blind_to_case_separators_and_prefixes() {
        assert_eq!(normalized("mixamorig:LeftUpLeg"), "leftupleg");
        assert_eq!(normalized("mixamorig1:Hips"), "hips");
        assert_eq!(normalized("DEF-thigh.L"), "thighl");
        assert_eq!(normalized("J_Bip_L_UpperLeg"), "jbiplupperleg");
        assert_eq!(normalized("spine.001"), "spine001");
    }
}
