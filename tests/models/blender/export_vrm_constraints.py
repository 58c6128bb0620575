"""A VRM 1.0 avatar with node constraints, as the VRM Add-on for Blender exports them.

Builds, from an empty factory scene, the add-on's basic humanoid armature (`Add VRM
Humanoid`) and five extra bones: two twist bones along the left forearm, a sleeve bone at the
right wrist, a bone in front of the left eye and a target bone held in the right hand. Boxes
are skinned to the head, both hands and each extra bone. Then Blender bone constraints of the
kinds the add-on turns into `VRMC_node_constraint`:

* roll: `forearm_twist.L` takes half of `hand.L`'s rotation about its Y axis (the bone's
  length: COPY_ROTATION of Y only);
* rotation: `sleeve.R` takes all of `hand.R`'s rotation (COPY_ROTATION of X, Y and Z);
* aim: `eye_aim.L` (under the head) turns its -X axis towards `aim_target.R` (under the right
  hand) (DAMPED_TRACK);
* a chain: `elbow_twist.L` takes a quarter of `forearm_twist.L`'s rotation, which is itself
  constrained (COPY_ROTATION of X, Y and Z);

all with mix mode Add, owner and target space Local (what the add-on needs), and exports the
avatar with the add-on's own exporter as VRM 1.0.

    blender -b --factory-startup --python tests/models/blender/export_vrm_constraints.py -- OUT_DIR

Needs the add-on `io_scene_vrm` installed in Blender (see README.md: which version).
"""

import os
import sys

import addon_utils
import bpy
from mathutils import Vector

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from skinned_box import box  # noqa: E402

OUT = sys.argv[sys.argv.index("--") + 1]

# Extra bones: name, parent, where it starts and ends (a fraction along the parent bone, or an
# offset in metres from the parent's head, Blender's axes: +Z up, the avatar facing -Y), the
# bone whose roll it copies (None: roll 0), the half-sizes of the box skinned to it.
BONES = [
    ("forearm_twist.L", "lower_arm.L", 0.5, 0.95, "lower_arm.L", (0.05, 0.035, 0.035)),
    ("elbow_twist.L", "lower_arm.L", 0.1, 0.45, "lower_arm.L", (0.04, 0.04, 0.04)),
    ("sleeve.R", "lower_arm.R", 0.65, 1.0, "lower_arm.R", (0.04, 0.05, 0.05)),
    ("eye_aim.L", "head", (0.05, -0.09, 0.06), (0.05, -0.09, 0.1), None, (0.015, 0.01, 0.02)),
    ("aim_target.R", "hand.R", (-0.06, -0.07, 0.0), (-0.1, -0.07, 0.0), "hand.R", (0.02, 0.02, 0.02)),
]

# Constraints: the constrained bone, the Blender constraint, the source bone, settings.
CONSTRAINTS = [
    ("forearm_twist.L", "COPY_ROTATION", "hand.L", {"use_x": False, "use_y": True, "use_z": False, "influence": 0.5}),
    ("sleeve.R", "COPY_ROTATION", "hand.R", {"influence": 1.0}),
    ("eye_aim.L", "DAMPED_TRACK", "aim_target.R", {"track_axis": "TRACK_NEGATIVE_X", "head_tail": 0.0, "influence": 1.0}),
    ("elbow_twist.L", "COPY_ROTATION", "forearm_twist.L", {"influence": 0.25}),
]


def build():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    addon_utils.enable("io_scene_vrm", default_set=True)
    bpy.ops.icyp.make_basic_armature()
    arm = next(o for o in bpy.data.objects if o.type == "ARMATURE")
    arm.data.vrm_addon_extension.spec_version = "1.0"
    bpy.context.view_layer.objects.active = arm
    bpy.ops.object.mode_set(mode="EDIT")
    bones = arm.data.edit_bones
    boxes = [("head", bones["head"].head + Vector((0, 0, 0.1)), (0.08, 0.09, 0.1))]
    boxes += [(name, (bones[name].head + bones[name].tail) / 2, (0.04, 0.02, 0.045)) for name in ("hand.L", "hand.R")]
    for name, parent, head, tail, roll_of, half in BONES:
        bone = bones.new(name)
        above = bones[parent]
        bone.head, bone.tail = [
            above.head.lerp(above.tail, at) if isinstance(at, float) else above.head + Vector(at) for at in (head, tail)
        ]
        bone.roll = bones[roll_of].roll if roll_of else 0.0
        bone.parent = above
        bone.use_connect = False
        boxes.append((name, (bone.head + bone.tail) / 2, half))
    bpy.ops.object.mode_set(mode="OBJECT")
    parts = [box(f"{name}_box", name, centre, half) for name, centre, half in boxes]
    for part in parts:
        part.parent = arm
        part.modifiers.new("Armature", "ARMATURE").object = arm
    for owner, kind, source, settings in CONSTRAINTS:
        constraint = arm.pose.bones[owner].constraints.new(kind)
        constraint.target = arm
        constraint.subtarget = source
        if kind == "COPY_ROTATION":
            constraint.mix_mode = "ADD"
            constraint.owner_space = "LOCAL"
            constraint.target_space = "LOCAL"
        for key, value in settings.items():
            setattr(constraint, key, value)
        print("constraint", owner, kind, source, sorted(settings.items()))
    bpy.ops.object.select_all(action="DESELECT")
    path = f"{OUT}/vrm_addon_constraints_vrm1.vrm"
    result = bpy.ops.export_scene.vrm(filepath=path, ignore_warning=True, armature_object_name=arm.name)
    print("exported", path, result)


build()
