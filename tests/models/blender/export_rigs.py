# Builds the skinned/morphed test rigs in tests/models/blender/ from scratch and exports each one
# with Blender's own glTF exporter (io_scene_gltf2) as .glb.
#
#     blender -b --factory-startup --python tests/models/blender/export_rigs.py -- OUTDIR
#
# Made with Debian's Blender 3.4.1 and its bundled io_scene_gltf2 3.4.50. Everything is computed
# from closed-form formulas (no randomness), so a rerun with the same Blender gives the same files.
# The script, and the files it writes, are part of this project (MIT OR Apache-2.0).

import math
import os
import sys

import bpy
from mathutils import Euler, Vector

# Exporter settings shared by every file: game-style GLB, Y-up, sampled animation, all influences,
# morph targets with normals, no materials/textures, no Draco.
EXPORT_SETTINGS = dict(
    export_format='GLB',
    export_yup=True,
    export_apply=False,                  # keep shape keys (applying modifiers would drop them)
    export_texcoords=True,
    export_normals=True,
    export_tangents=False,
    export_colors=False,
    export_attributes=False,
    export_materials='NONE',
    export_cameras=False,
    export_lights=False,
    export_extras=False,
    export_draco_mesh_compression_enable=False,
    use_selection=False,
    use_visible=False,
    use_renderable=False,
    use_active_collection=False,
    use_active_scene=True,
    export_skins=True,
    export_all_influences=True,          # all vertex groups -> JOINTS_n/WEIGHTS_n, n >= 1
    export_def_bones=False,
    export_morph=True,
    export_morph_normal=True,
    export_morph_tangent=False,
    export_animations=True,
    export_frame_range=False,
    export_frame_step=1,
    export_force_sampling=True,          # bake every frame (the exporter's default)
    export_nla_strips=True,              # group actions by NLA track name
    export_optimize_animation_size=False,
    export_anim_single_armature=True,
    export_reset_pose_bones=True,
    export_current_frame=False,
)


def log(*a):
    print('[export_rigs]', *a, flush=True)


def reset(fps):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = fps
    scene.render.fps_base = 1.0
    scene.frame_start = 0
    return scene


def make_tube(name, radius_fn, length, rings, segments, caps=False, origin=(0.0, 0.0, 0.0)):
    """Open (or capped) tube along +Z (Blender's up) with its object at `origin`, rings x segments
    vertices (+2 cap centres), smooth shaded.
    radius_fn(z) gives the radius at height z. Returns (object, list of (ring, seg, z, angle))."""
    verts, info, faces = [], [], []
    for r in range(rings):
        z = length * r / (rings - 1)
        rad = radius_fn(z)
        for s in range(segments):
            a = 2.0 * math.pi * s / segments
            verts.append((rad * math.cos(a), rad * math.sin(a), z))
            info.append((r, s, z, a))
    for r in range(rings - 1):
        for s in range(segments):
            s2 = (s + 1) % segments
            faces.append((r * segments + s, r * segments + s2, (r + 1) * segments + s2, (r + 1) * segments + s))
    if caps:
        bottom = len(verts)
        verts.append((0.0, 0.0, 0.0))
        info.append((0, -1, 0.0, 0.0))
        top = len(verts)
        verts.append((0.0, 0.0, length))
        info.append((rings - 1, -1, length, 0.0))
        for s in range(segments):
            s2 = (s + 1) % segments
            faces.append((bottom, s2, s))
            faces.append((top, (rings - 1) * segments + s, (rings - 1) * segments + s2))
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    for p in mesh.polygons:
        p.use_smooth = True
    obj = bpy.data.objects.new(name, mesh)
    obj.location = origin
    bpy.context.scene.collection.objects.link(obj)
    return obj, info


def make_chain(name, n_bones, length, origin=(0.0, 0.0, 0.0)):
    """Armature with a connected chain of n_bones along +Z. Returns (object, bone names)."""
    arm = bpy.data.armatures.new(name)
    obj = bpy.data.objects.new(name, arm)
    bpy.context.scene.collection.objects.link(obj)
    obj.location = origin
    bpy.context.view_layer.objects.active = obj
    bpy.ops.object.mode_set(mode='EDIT')
    names, prev = [], None
    seg = length / n_bones
    for i in range(n_bones):
        b = arm.edit_bones.new('%s_%02d' % (name, i))
        b.head = (0.0, 0.0, seg * i)
        b.tail = (0.0, 0.0, seg * (i + 1))
        b.roll = 0.0
        if prev is not None:
            b.parent = prev
            b.use_connect = True
        prev = b
        names.append(b.name)
    bpy.ops.object.mode_set(mode='OBJECT')
    for pb in obj.pose.bones:
        pb.rotation_mode = 'QUATERNION'
    return obj, names


def bind(mesh_obj, arm_obj):
    """Parent the mesh to the armature keeping its world transform, plus an Armature modifier."""
    bpy.context.view_layer.update()
    mesh_obj.parent = arm_obj
    mesh_obj.matrix_parent_inverse = arm_obj.matrix_world.inverted()
    mod = mesh_obj.modifiers.new('Armature', 'ARMATURE')
    mod.object = arm_obj


def assign_weights(mesh_obj, bone_names, weights_per_vertex):
    """weights_per_vertex[v] = list of (bone index, weight)."""
    groups = [mesh_obj.vertex_groups.new(name=n) for n in bone_names]
    for v, ws in enumerate(weights_per_vertex):
        for j, w in ws:
            groups[j].add([v], w, 'REPLACE')


def gaussian_weights(z, centers, sigma, count, mod=lambda j: 1.0):
    """The `count` bones nearest to height z, Gaussian falloff, normalized to sum 1."""
    order = sorted(range(len(centers)), key=lambda j: (abs(z - centers[j]), j))[:count]
    raw = [(j, math.exp(-0.5 * ((z - centers[j]) / sigma) ** 2) * mod(j)) for j in order]
    total = sum(w for _, w in raw)
    return [(j, w / total) for j, w in raw]


def key_bone_rotation(arm_obj, bone, frame, euler_xyz):
    pb = arm_obj.pose.bones[bone]
    pb.rotation_quaternion = Euler(euler_xyz, 'XYZ').to_quaternion()
    pb.keyframe_insert('rotation_quaternion', frame=frame)


def take_action(id_data, name):
    """Rename the action that keyframe_insert created on id_data and return it."""
    act = id_data.animation_data.action
    act.name = name
    return act


def push_to_nla(id_data, action, track_name):
    """Put `action` alone on an NLA track called track_name (the exporter merges all actions
    whose tracks share a name into one glTF animation)."""
    ad = id_data.animation_data_create()
    track = ad.nla_tracks.new()
    track.name = track_name
    track.strips.new(action.name, int(action.frame_range[0]), action)
    return track


def export(path):
    log('exporting', path)
    bpy.context.scene.frame_set(bpy.context.scene.frame_start)
    bpy.ops.export_scene.gltf(filepath=path, **EXPORT_SETTINGS)


# --------------------------------------------------------------------------------------------
def build_many_influences():
    """One tube (25 rings x 16 segments = 400 vertices), one 26-bone chain. Every vertex has 16..24
    influences (Gaussian falloff along the chain, modulated around the circumference) -> 6 joint
    sets. One 2 s action (24 fps) bending and twisting the whole chain."""
    reset(24)
    n_bones, length, rings, segs = 26, 3.0, 25, 16
    mesh_obj, info = make_tube('ManyInfluencesTube', lambda z: 0.25 + 0.05 * math.sin(2.0 * z), length, rings, segs)
    arm_obj, bones = make_chain('ManyRig', n_bones, length)
    centers = [(i + 0.5) * length / n_bones for i in range(n_bones)]
    weights = []
    for (r, s, z, a) in info:
        count = 16 + (r + s) % 9                                   # 16..24 influences
        mod = lambda j, a=a: 1.0 + 0.4 * math.sin(a + 0.7 * j)     # varies around the tube
        weights.append(gaussian_weights(z, centers, 0.9, count, mod))
    assign_weights(mesh_obj, bones, weights)
    bind(mesh_obj, arm_obj)
    for f in (0, 12, 24, 36, 48):
        ph = 2.0 * math.pi * f / 48.0
        for i, b in enumerate(bones):
            bend = math.radians(7.0) * math.sin(ph + 0.25 * i)
            side = math.radians(4.0) * math.sin(0.5 * ph + 0.15 * i) * (1 if f else 0)
            twist = math.radians(3.0) * math.sin(ph) * (i % 3 - 1)
            key_bone_rotation(arm_obj, b, f, (bend, side, twist))
    take_action(arm_obj, 'Bend')
    bpy.context.scene.frame_end = 48


def build_shape_keys():
    """Capped tube (13 rings x 12 segments + 2 = 158 vertices) with 3 relative shape keys
    (Bulge, Twist, Lean; Lean's slider goes negative) animated over 2 s, skinned to a 3-bone chain
    with its own 1.5 s action; both on NLA tracks named 'MorphAndBend' so the exporter merges
    them into one glTF animation (weights channel + joint TRS channels)."""
    reset(24)
    length, rings, segs = 2.0, 13, 12
    mesh_obj, info = make_tube('MorphTube', lambda z: 0.3, length, rings, segs, caps=True)
    arm_obj, bones = make_chain('MorphRig', 3, length)
    centers = [(i + 0.5) * length / 3 for i in range(3)]
    assign_weights(mesh_obj, bones, [gaussian_weights(z, centers, 0.35, 3) for (_, _, z, _) in info])
    bind(mesh_obj, arm_obj)

    mesh_obj.shape_key_add(name='Basis', from_mix=False)
    base = [Vector(v.co) for v in mesh_obj.data.vertices]
    sk_bulge = mesh_obj.shape_key_add(name='Bulge', from_mix=False)
    sk_twist = mesh_obj.shape_key_add(name='Twist', from_mix=False)
    sk_lean = mesh_obj.shape_key_add(name='Lean', from_mix=False)
    for i, co in enumerate(base):
        z = co.z
        f = 1.0 + 0.6 * math.sin(math.pi * z / length)
        sk_bulge.data[i].co = Vector((co.x * f, co.y * f, z))
        ang = 1.2 * z / length
        c, s = math.cos(ang), math.sin(ang)
        sk_twist.data[i].co = Vector((c * co.x - s * co.y, s * co.x + c * co.y, z))
        sk_lean.data[i].co = Vector((co.x + 0.35 * z * z, co.y, z - 0.05 * z))
    sk_lean.slider_min = -1.0
    sk_lean.slider_max = 1.0

    key = mesh_obj.data.shape_keys
    # Lean is negative at frame 24 (t = 1 s, the middle of the clip); none ends at 0.
    for sk, frames in ((sk_bulge, ((0, 0.0), (12, 1.0), (36, 0.2), (48, 0.4))),
                       (sk_twist, ((0, 0.0), (24, 1.0), (48, 0.5))),
                       (sk_lean, ((0, 0.0), (12, 0.8), (24, -0.5), (40, 0.3), (48, 0.25)))):
        for f, v in frames:
            sk.value = v
            sk.keyframe_insert('value', frame=f)
    sk_action = take_action(key, 'MorphAndBend_ShapeKeys')
    key.animation_data.action = None
    push_to_nla(key, sk_action, 'MorphAndBend')
    for sk in (sk_bulge, sk_twist, sk_lean):
        sk.value = 0.0

    for f, ang in ((0, 0.0), (18, 35.0), (36, -20.0)):
        for i, b in enumerate(bones):
            key_bone_rotation(arm_obj, b, f, (math.radians(ang) * (0.5 + 0.25 * i), 0.0, math.radians(ang) * 0.3))
    arm_action = take_action(arm_obj, 'MorphAndBend_Armature')
    arm_obj.animation_data.action = None
    push_to_nla(arm_obj, arm_action, 'MorphAndBend')
    for pb in arm_obj.pose.bones:
        pb.rotation_quaternion = (1.0, 0.0, 0.0, 0.0)
    bpy.context.scene.frame_end = 48


def build_two_armatures():
    """Two rigs side by side (x = -1 and x = +1), each a tube skinned to its own chain:
    A = 3 bones, action 'A_Sway' (2 s); B = 4 bones, action 'B_Nod' (3.5 s). Each action is also
    copied onto an NLA track named 'Together', so the export has three animations:
    'A_Sway' (only rig A), 'Together' (both rigs, channels of different lengths), 'B_Nod' (only B)."""
    reset(24)
    specs = (('A', 3, 1.6, (-1.0, 0.0, 0.0), 'A_Sway', ((0, 0.0), (16, 30.0), (32, -25.0), (48, 10.0)), 0),
             ('B', 4, 2.0, (1.0, 0.0, 0.0), 'B_Nod', ((0, 0.0), (20, -20.0), (45, 40.0), (70, -10.0), (84, 15.0)), 1))
    for tag, n, length, origin, act_name, keys, axis in specs:
        rings, segs = 11, 10
        mesh_obj, info = make_tube('Tube' + tag, lambda z: 0.18, length, rings, segs, origin=origin)
        arm_obj, bones = make_chain('Rig' + tag, n, length, origin=origin)
        centers = [(i + 0.5) * length / n for i in range(n)]
        assign_weights(mesh_obj, bones, [gaussian_weights(z, centers, 0.3, 4) for (_, _, z, _) in info])
        bind(mesh_obj, arm_obj)
        for f, ang in keys:
            for i, b in enumerate(bones):
                e = [0.0, 0.0, 0.0]
                e[axis] = math.radians(ang) * (1.0 - 0.15 * i)
                e[2] = math.radians(ang) * 0.2
                key_bone_rotation(arm_obj, b, f, tuple(e))
        act = take_action(arm_obj, act_name)           # stays the active action
        together = act.copy()
        together.name = act_name + '_Together'
        push_to_nla(arm_obj, together, 'Together')
    bpy.context.scene.frame_end = 84


def build_long_clip():
    """Tube (21 rings x 12 segments = 252 vertices) on a 4-bone chain; one 20 s action at 30 fps
    (frames 0..600) with 9 unevenly spaced Bezier keys: rotations on all bones, translation of the
    root bone and scale of the last bone (sampled every frame by the exporter)."""
    reset(30)
    length, rings, segs, n = 2.0, 21, 12, 4
    mesh_obj, info = make_tube('LongTube', lambda z: 0.2 + 0.04 * z, length, rings, segs)
    arm_obj, bones = make_chain('LongRig', n, length)
    centers = [(i + 0.5) * length / n for i in range(n)]
    assign_weights(mesh_obj, bones, [gaussian_weights(z, centers, 0.35, 4) for (_, _, z, _) in info])
    bind(mesh_obj, arm_obj)
    frames = (0, 60, 150, 240, 300, 390, 480, 540, 600)
    for k, f in enumerate(frames):
        for i, b in enumerate(bones):
            ang = math.radians(25.0) * math.sin(0.9 * k + 0.6 * i)
            key_bone_rotation(arm_obj, b, f, (ang, 0.5 * ang * math.cos(0.4 * k), 0.3 * ang))
        root = arm_obj.pose.bones[bones[0]]
        root.location = (0.3 * math.sin(0.7 * k), 0.2 * math.cos(0.5 * k) - 0.2, 0.1 * math.sin(1.3 * k))
        root.keyframe_insert('location', frame=f)
        tip = arm_obj.pose.bones[bones[-1]]
        sc = 1.0 + 0.3 * math.sin(1.1 * k)
        tip.scale = (sc, 1.0 / sc, sc)
        tip.keyframe_insert('scale', frame=f)
    take_action(arm_obj, 'Long')
    bpy.context.scene.frame_end = 600


BUILDS = (
    ('blender_many_influences.glb', build_many_influences),
    ('blender_shape_keys.glb', build_shape_keys),
    ('blender_two_armatures.glb', build_two_armatures),
    ('blender_long_clip.glb', build_long_clip),
)


def main():
    argv = sys.argv[sys.argv.index('--') + 1:] if '--' in sys.argv else []
    if len(argv) != 1:
        raise SystemExit('usage: blender -b --factory-startup --python export_rigs.py -- OUTDIR')
    outdir = os.path.abspath(argv[0])
    os.makedirs(outdir, exist_ok=True)
    log('Blender', bpy.app.version_string)
    import addon_utils
    for mod in addon_utils.modules():
        if mod.__name__ == 'io_scene_gltf2':
            log('io_scene_gltf2', '.'.join(str(x) for x in mod.bl_info['version']))
    log('exporter settings:')
    for k in sorted(EXPORT_SETTINGS):
        log('   %s = %r' % (k, EXPORT_SETTINGS[k]))
    for fname, build in BUILDS:
        build()
        export(os.path.join(outdir, fname))
    log('done')


main()
