"""VRM avatars with spring bones, as the VRM Add-on for Blender exports them.

Builds, from an empty factory scene, the add-on's basic humanoid armature (`Add VRM
Humanoid`), a ponytail of three bones hanging from the back of the head and a tail of two
from the hips, a box for the head, each hair and tail link skinned to its bone; then spring
bones on the ponytail and the tail, kept out of a sphere on the head and a capsule along the
chest, and exports the avatar twice with the add-on's own exporter: as VRM 1.0
(`VRMC_springBone`) and as VRM 0.x (`secondaryAnimation`).

    blender -b --factory-startup --python tests/models/blender/export_vrm_springs.py -- OUT_DIR

Needs the add-on `io_scene_vrm` installed in Blender (see README.md: which version).
"""

import os
import sys
import uuid

import addon_utils
import bpy
from mathutils import Vector

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from skinned_box import box  # noqa: E402

OUT = sys.argv[sys.argv.index("--") + 1]

# Bone chains: name, parent, the head of the first bone, then each bone's offset (metres,
# Blender's axes: +Z up, the avatar facing -Y, so +Y is behind it).
CHAINS = [
    ("ponytail", "head", Vector((0.0, 0.09, 0.12)), [(0.0, 0.05, -0.06), (0.0, 0.02, -0.09), (0.0, 0.0, -0.09)]),
    ("tail", "hips", Vector((0.0, 0.06, 0.0)), [(0.0, 0.12, -0.05), (0.0, 0.12, -0.05)]),
]


def build(spec):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    addon_utils.enable("io_scene_vrm", default_set=True)
    bpy.ops.icyp.make_basic_armature()
    arm = next(o for o in bpy.data.objects if o.type == "ARMATURE")
    ext = arm.data.vrm_addon_extension
    ext.spec_version = spec
    bpy.context.view_layer.objects.active = arm
    bpy.ops.object.mode_set(mode="EDIT")
    links = []
    for name, parent, start, offsets in CHAINS:
        bones = arm.data.edit_bones
        above = bones[parent]
        at = bones[parent].head + start
        for k, offset in enumerate(offsets):
            bone = bones.new(f"{name}.{k}")
            bone.head, bone.tail = at, at + Vector(offset)
            bone.parent = above
            bone.use_connect = k > 0
            links.append((bone.name, (bone.head + bone.tail) / 2, Vector((0.02, 0.02, 0.02)) + 0.5 * Vector([abs(c) for c in offset])))
            above, at = bone, bone.tail
    head_at = arm.data.edit_bones["head"].head
    bpy.ops.object.mode_set(mode="OBJECT")
    parts = [box("head_box", "head", head_at + Vector((0, 0, 0.1)), (0.08, 0.09, 0.1))]
    parts += [box(f"{name}_box", name, centre, half) for name, centre, half in links]
    for part in parts:
        part.parent = arm
        part.modifiers.new("Armature", "ARMATURE").object = arm
    context = bpy.context
    if spec == "1.0":
        springs = ext.spring_bone1
        head = springs.add_collider(context, arm)
        head.node.bone_name = "head"
        head.shape_type = "Sphere"
        head.shape.sphere.offset = (0.0, 0.1, 0.0)
        head.shape.sphere.radius = 0.11
        chest = springs.add_collider(context, arm)
        chest.node.bone_name = "chest"
        chest.shape_type = "Capsule"
        chest.shape.capsule.offset = (0.0, 0.0, 0.0)
        chest.shape.capsule.tail = (0.0, 0.25, 0.0)
        chest.shape.capsule.radius = 0.13
        group = springs.add_collider_group()
        group.vrm_name = "head and chest"
        for collider in (head, chest):
            group.add_collider().collider_uuid = collider.uuid
        for name, _, _, offsets, settings in [
            (*CHAINS[0], (0.6, 1.5, 0.4, 0.02)),
            (*CHAINS[1], (0.4, 2.0, 0.3, 0.03)),
        ]:
            spring = springs.add_spring()
            spring.vrm_name = name
            spring.add_collider_group().collider_group_uuid = group.uuid
            for k in range(len(offsets)):
                joint = spring.add_joint()
                joint.node.bone_name = f"{name}.{k}"
                joint.stiffness, joint.gravity_power, joint.drag_force, joint.hit_radius = settings
    else:
        secondary = ext.vrm0.secondary_animation
        group = secondary.collider_groups.add()
        group.uuid = uuid.uuid4().hex
        group.node.bone_name = "head"
        collider = group.colliders.add()
        empty = bpy.data.objects.new("head_collider", None)
        context.collection.objects.link(empty)
        empty.parent, empty.parent_type, empty.parent_bone = arm, "BONE", "head"
        empty.empty_display_type = "SPHERE"
        empty.empty_display_size = 0.11
        collider.bpy_object = empty
        for name, _, _, _, settings in [(*CHAINS[0], (0.6, 1.5, 0.4, 0.02)), (*CHAINS[1], (0.4, 2.0, 0.3, 0.03))]:
            bone_group = secondary.bone_groups.add()
            bone_group.comment = name
            bone_group.bones.add().bone_name = f"{name}.0"
            bone_group.stiffiness, bone_group.gravity_power, bone_group.drag_force, bone_group.hit_radius = settings
            bone_group.gravity_dir = (0.0, 0.0, -1.0)
            bone_group.collider_groups.add().collider_group_uuid = group.uuid
    bpy.ops.object.select_all(action="DESELECT")
    path = f"{OUT}/vrm_addon_springs_vrm{spec[0]}.vrm"
    result = bpy.ops.export_scene.vrm(filepath=path, ignore_warning=True, armature_object_name=arm.name)
    print("exported", path, result)


for spec in ("1.0", "0.0"):
    build(spec)
