# Builds the material test scenes in tests/models/materials/ from scratch and exports each one with
# Blender's own glTF exporter (io_scene_gltf2) as .glb.
#
#     blender -b --factory-startup --python tests/models/materials/make.py -- OUTDIR
#
# Made with Debian's Blender 3.4.1 and its bundled io_scene_gltf2 3.4.50. Geometry and textures
# are computed from closed-form formulas (no randomness, no downloaded assets): the script writes
# its textures as small PNG files (its own encoder, below) into a temporary folder, loads and packs
# them, so the exporter embeds those exact bytes. The script, and the files it writes, are part of
# this project (same licence as the project).
#
# Blender is Z-up with -Y as "front"; the exporter (export_yup) writes glTF x = x, y = z, z = -y,
# so what faces Blender's -Y faces glTF +Z.

import math
import os
import struct
import sys
import tempfile
import zlib

import bmesh
import bpy

# Exporter settings shared by every file (export_tangents is switched per file).
EXPORT_SETTINGS = dict(
    export_format='GLB',
    export_yup=True,
    export_apply=True,
    export_image_format='AUTO',          # PNG sources are embedded as PNG
    export_keep_originals=False,
    export_texcoords=True,
    export_normals=True,
    export_tangents=False,
    export_colors=False,
    export_attributes=False,
    export_materials='EXPORT',
    export_original_specular=False,
    export_cameras=False,
    export_lights=False,
    export_extras=False,
    export_draco_mesh_compression_enable=False,
    use_selection=False,
    use_visible=False,
    use_renderable=False,
    use_active_collection=False,
    use_active_scene=True,
    export_skins=False,
    export_morph=False,
    export_animations=False,
)

TMP = tempfile.mkdtemp(prefix='materials-textures-')


def log(*a):
    print('[materials]', *a, flush=True)


# ----------------------------------------------------------------------------------------------
# PNG textures (8-bit RGB or RGBA, row 0 = top of the image = glTF v = 0)

def write_png(path, w, h, pixel, alpha):
    """pixel(x, y) -> (r, g, b[, a]) floats in [0, 1]; x to the right, y downwards (image rows)."""
    n = 4 if alpha else 3
    raw = bytearray()
    for y in range(h):
        raw.append(0)
        for x in range(w):
            p = pixel(x, y)
            for k in range(n):
                raw.append(max(0, min(255, int(round(p[k] * 255.0)))))

    def chunk(t, d):
        return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)

    data = (b'\x89PNG\r\n\x1a\n'
            + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 6 if alpha else 2, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(bytes(raw), 9))
            + chunk(b'IEND', b''))
    with open(path, 'wb') as f:
        f.write(data)


def image(name, w, h, pixel, alpha=False, non_color=False):
    path = os.path.join(TMP, name + '.png')
    write_png(path, w, h, pixel, alpha)
    img = bpy.data.images.load(path)
    img.name = name
    if non_color:
        img.colorspace_settings.name = 'Non-Color'
    img.alpha_mode = 'STRAIGHT'
    img.pack()
    return img


def clamp01(v):
    return max(0.0, min(1.0, v))


def smoothstep(a, b, x):
    t = clamp01((x - a) / (b - a))
    return t * t * (3 - 2 * t)


def in_rects(u, v, rects):
    return any(x0 <= u < x1 and y0 <= v < y1 for (x0, y0, x1, y1) in rects)


# An upright letter "F" (rectangles in [0,1]^2 image coordinates, y downwards): its mirror images
# and rotations are all distinguishable.
F_RECTS = [(0.30, 0.18, 0.42, 0.82), (0.42, 0.18, 0.72, 0.30), (0.42, 0.44, 0.62, 0.55)]


def f_pattern(x, y, w, h):
    """Quadrant colours + a black "F" + an edge frame: red left column, green top row, blue right
    column, yellow bottom row (clamped sampling smears exactly these)."""
    u, v = (x + 0.5) / w, (y + 0.5) / h
    if x == 0:
        return (0.9, 0.1, 0.1)
    if y == 0:
        return (0.1, 0.8, 0.1)
    if x == w - 1:
        return (0.1, 0.2, 0.9)
    if y == h - 1:
        return (0.95, 0.85, 0.1)
    if in_rects(u, v, F_RECTS):
        return (0.02, 0.02, 0.02)
    quad = (u >= 0.5) + 2 * (v >= 0.5)
    base = [(1.0, 0.75, 0.75), (0.75, 1.0, 0.75), (0.75, 0.8, 1.0), (1.0, 1.0, 0.7)][quad]
    check = ((x * 8 // w) + (y * 8 // h)) % 2
    return tuple(c * (0.85 if check else 1.0) for c in base)


# ----------------------------------------------------------------------------------------------
# Scene helpers

def reset():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    return bpy.context.scene


def mesh_object(name, verts, faces, uv_layers=(), smooth=False, location=(0, 0, 0), rotation=(0, 0, 0), material=None):
    """uv_layers: list of (layer name, per-face list of per-corner (u, v)) in Blender's UV
    convention (v up)."""
    me = bpy.data.meshes.new(name)
    me.from_pydata([tuple(v) for v in verts], [], [tuple(f) for f in faces])
    for lname, face_uvs in uv_layers:
        layer = me.uv_layers.new(name=lname)
        for poly, uvs in zip(me.polygons, face_uvs):
            assert poly.loop_total == len(uvs)
            for k in range(poly.loop_total):
                layer.data[poly.loop_start + k].uv = uvs[k]
    for p in me.polygons:
        p.use_smooth = smooth
    me.update()
    ob = bpy.data.objects.new(name, me)
    ob.location = location
    ob.rotation_euler = rotation
    bpy.context.scene.collection.objects.link(ob)
    if material is not None:
        me.materials.append(material)
    return ob


def quad(name, w, h, uv_rect=(0, 0, 1, 1), **kw):
    """Vertical w x h quad in Blender's XZ plane facing -Y (glTF +Z), centred at its origin.
    uv_rect = (u0, v0, u1, v1) in Blender UV convention (v up)."""
    u0, v0, u1, v1 = uv_rect
    verts = [(-w / 2, 0, -h / 2), (w / 2, 0, -h / 2), (w / 2, 0, h / 2), (-w / 2, 0, h / 2)]
    uvs = [[(u0, v0), (u1, v0), (u1, v1), (u0, v1)]]
    return mesh_object(name, verts, [(0, 1, 2, 3)], uv_layers=[('UVMap', uvs)], **kw)


def box(name, size, location=(0, 0, 0), material=None, face_uvs=None, extra_uv=None, rotation=(0, 0, 0)):
    """Axis-aligned box, flat shaded, 6 quads (order: -Y front, +X right, +Y back, -X left,
    +Z top, -Z bottom), each with UVs covering [0,1]^2 upright unless face_uvs is given."""
    sx, sy, sz = (s / 2 for s in size)
    v = [(-sx, -sy, -sz), (sx, -sy, -sz), (sx, sy, -sz), (-sx, sy, -sz),
         (-sx, -sy, sz), (sx, -sy, sz), (sx, sy, sz), (-sx, sy, sz)]
    faces = [(0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7), (4, 5, 6, 7), (3, 2, 1, 0)]
    full = [(0, 0), (1, 0), (1, 1), (0, 1)]
    uvs = face_uvs or [full] * 6
    layers = [('UVMap', uvs)]
    if extra_uv:
        layers.append(extra_uv)
    return mesh_object(name, v, faces, uv_layers=layers, location=location, rotation=rotation, material=material)


def uv_sphere(name, radius, segments, rings, location, material):
    verts, faces, uvs = [], [], []
    # (segments + 1) x (rings + 1) grid with a seam column and pole rows (UVs are per corner)
    for j in range(rings + 1):
        th = math.pi * j / rings
        for i in range(segments + 1):
            ph = 2 * math.pi * i / segments
            verts.append((radius * math.sin(th) * math.cos(ph), radius * math.sin(th) * math.sin(ph), radius * math.cos(th)))
    idx = lambda i, j: j * (segments + 1) + i
    for j in range(rings):
        for i in range(segments):
            a, b, c, d = idx(i, j + 1), idx(i + 1, j + 1), idx(i + 1, j), idx(i, j)
            if j == 0:
                faces.append((a, b, c)); uvs.append([(i / segments, 1 - (j + 1) / rings), ((i + 1) / segments, 1 - (j + 1) / rings), ((i + 0.5) / segments, 1.0)])
            elif j == rings - 1:
                faces.append((a, c, d)); uvs.append([(i / segments, 0.0), ((i + 1) / segments, 1 - j / rings), (i / segments, 1 - j / rings)])
            else:
                faces.append((a, b, c, d)); uvs.append([(i / segments, 1 - (j + 1) / rings), ((i + 1) / segments, 1 - (j + 1) / rings), ((i + 1) / segments, 1 - j / rings), (i / segments, 1 - j / rings)])
    ob = mesh_object(name, verts, faces, uv_layers=[('UVMap', uvs)], smooth=True, location=location, material=material)
    # merge the duplicate pole/seam vertices so smooth normals are continuous (UVs stay per corner)
    me = ob.data
    bm = bmesh.new()
    bm.from_mesh(me)
    bmesh.ops.remove_doubles(bm, verts=bm.verts, dist=1e-6)
    bm.to_mesh(me)
    bm.free()
    for p in me.polygons:
        p.use_smooth = True
    me.update()
    return ob


def material(name, base=(0.8, 0.8, 0.8, 1.0), metallic=0.0, roughness=0.5, double_sided=False):
    m = bpy.data.materials.new(name)
    m.use_nodes = True
    m.use_backface_culling = not double_sided
    nt = m.node_tree
    bsdf = nt.nodes['Principled BSDF']
    bsdf.inputs['Base Color'].default_value = base
    bsdf.inputs['Metallic'].default_value = metallic
    bsdf.inputs['Roughness'].default_value = roughness
    return m, nt, bsdf


def tex_node(nt, img, interpolation='Linear', extension='REPEAT'):
    n = nt.nodes.new('ShaderNodeTexImage')
    n.image = img
    n.interpolation = interpolation
    n.extension = extension
    return n


def uvmap_node(nt, layer):
    n = nt.nodes.new('ShaderNodeUVMap')
    n.uv_map = layer
    return n


def gltf_output_group(nt):
    """The exporter's "glTF Material Output" node group (its Occlusion socket -> occlusionTexture)."""
    from io_scene_gltf2.blender.com.gltf2_blender_material_helpers import create_settings_group, get_gltf_node_name
    grp = bpy.data.node_groups.get(get_gltf_node_name()) or create_settings_group(get_gltf_node_name())
    n = nt.nodes.new('ShaderNodeGroup')
    n.node_tree = grp
    return n


def export(path, tangents=False):
    log('exporting', path, 'tangents=%s' % tangents)
    settings = dict(EXPORT_SETTINGS, export_tangents=tangents)
    bpy.ops.export_scene.gltf(filepath=path, **settings)


# ----------------------------------------------------------------------------------------------
# 1. leaves_mask.glb: alpha-masked (MASK, alphaCutoff 0.4) double-sided leaf cards

def leaf_pixel(x, y, w=128, h=128):
    # 2x2 atlas of leaves; alpha falls off linearly from the midrib to 0 at the leaf outline, so
    # the visible outline is where alpha = cutoff (0.4): at 75 % of the outline radius. RGB is
    # magenta where alpha = 0, i.e. far outside the cutoff edge, so a mask that is ignored shows it.
    cx, cy = (x % 64 + 0.5) / 64 * 2 - 1, (y % 64 + 0.5) / 64 * 2 - 1   # [-1, 1] in the cell, y down
    cell = (x // 64) + 2 * (y // 64)
    tilt = (-0.35, 0.25, 0.4, -0.2)[cell]
    s = cx * math.cos(tilt) - cy * math.sin(tilt)
    t = cx * math.sin(tilt) + cy * math.cos(tilt)
    width = 0.55 * max(0.0, 1 - t * t) ** 0.7 + 1e-6             # pointed at both ends
    d = math.hypot(s / width, t / 0.95)
    alpha = clamp01((1 - d) * 1.6)
    if alpha <= 0:
        return (1.0, 0.0, 1.0, 0.0)
    g = 0.35 + 0.35 * (1 - d)
    vein = abs(s) < 0.03 or (abs(abs(s) - 0.45 * (t + 1) * 0.5) < 0.025 and abs(s) < width)
    if vein:
        return (0.55, 0.65, 0.2, 1.0)
    shade = (0.12, 0.20, 0.30, 0.16)[cell]
    return (shade, g, 0.08, alpha)


def build_leaves_mask():
    reset()
    img = image('leaves', 128, 128, leaf_pixel, alpha=True)
    m, nt, bsdf = material('LeafMask', roughness=0.6, double_sided=True)
    m.blend_method = 'CLIP'
    m.alpha_threshold = 0.4
    t = tex_node(nt, img)
    nt.links.new(t.outputs['Color'], bsdf.inputs['Base Color'])
    nt.links.new(t.outputs['Alpha'], bsdf.inputs['Alpha'])
    for k in range(3):
        quad('LeafCard%d' % k, 1.0, 1.4, location=(0, 0, 0.95), rotation=(0, 0, math.radians(20 + 60 * k)), material=m)
    pot, _, pbsdf = material('Pot', base=(0.45, 0.22, 0.12, 1.0), roughness=0.8)
    box('Pot', (0.5, 0.5, 0.3), location=(0, 0, 0.15), material=pot)


# ----------------------------------------------------------------------------------------------
# 2. window_blend.glb: BLEND panes (texture alpha, factor alpha) in an opaque frame, objects behind

def frost_pixel(x, y, w=64, h=64):
    stripe = ((x + y) // 8) % 2
    a = 0.75 if stripe else 0.25
    if x < 3 or y < 3 or x >= w - 3 or y >= h - 3:
        return (1.0, 1.0, 1.0, 0.9)
    return (0.70, 0.85, 1.0, a)


def build_window_blend():
    reset()
    frame, _, _ = material('Frame', base=(0.45, 0.28, 0.14, 1.0), roughness=0.6)
    W, H, T = 2.2, 1.5, 0.1   # outer width/height, bar thickness
    zc = 1.0
    box('FrameBottom', (W, T, T), location=(0, 0, zc - H / 2 + T / 2), material=frame)
    box('FrameTop', (W, T, T), location=(0, 0, zc + H / 2 - T / 2), material=frame)
    box('FrameLeft', (T, T, H - 2 * T), location=(-W / 2 + T / 2, 0, zc), material=frame)
    box('FrameRight', (T, T, H - 2 * T), location=(W / 2 - T / 2, 0, zc), material=frame)
    box('FrameMullion', (T, T, H - 2 * T), location=(0, 0, zc), material=frame)
    pw, ph = (W - 3 * T) / 2, H - 2 * T

    img = image('frost', 64, 64, frost_pixel, alpha=True)
    m1, nt1, b1 = material('PaneTextureAlpha', roughness=0.1)
    m1.blend_method = 'BLEND'
    m1.show_transparent_back = False
    t = tex_node(nt1, img)
    nt1.links.new(t.outputs['Color'], b1.inputs['Base Color'])
    nt1.links.new(t.outputs['Alpha'], b1.inputs['Alpha'])
    quad('PaneLeft', pw, ph, location=(-(pw + T) / 2, 0, zc), material=m1)

    m2, _, b2 = material('PaneFactorAlpha', base=(0.2, 0.8, 0.3, 1.0), roughness=0.1)
    b2.inputs['Alpha'].default_value = 0.4
    m2.blend_method = 'BLEND'
    m2.show_transparent_back = False
    quad('PaneRight', pw, ph, location=((pw + T) / 2, 0, zc), material=m2)

    red, _, _ = material('BehindRed', base=(0.8, 0.05, 0.05, 1.0), roughness=0.5)
    box('BehindBox', (0.5, 0.5, 0.5), location=(-0.95, 0.5, 0.75), material=red)
    yellow, _, _ = material('BehindYellow', base=(0.9, 0.75, 0.1, 1.0), roughness=0.5)
    uv_sphere('BehindSphere', 0.3, 24, 12, (0.15, 0.5, 1.0), yellow)


# ----------------------------------------------------------------------------------------------
# 3. normal_map_tangents.glb / normal_map_no_tangents.glb

def height_and_grad(u, v):
    """Height field in a 4x4 cell grid, u to the right, v UP (tangent-space +Y), both in [0,1];
    returns (height, (dh/du, dh/dv)) in cell units. Cells cycle through: dome (a bump), a square
    ramp rising towards +u (its normal leans to -u), a square ramp rising towards +v."""
    i, j = min(3, int(u * 4)), min(3, int(v * 4))
    cu, cv = u * 4 - i - 0.5, v * 4 - j - 0.5               # [-0.5, 0.5] in the cell
    kind = (i + 2 * j) % 3
    if kind == 0:
        # smooth dome h = A (1 - r^2/R^2)^2 (zero slope at its rim); steepest tilt 45 degrees
        R, A = 0.4, 0.26
        r2 = cu * cu + cv * cv
        if r2 >= R * R:
            return 0.0, (0.0, 0.0)
        q = 1 - r2 / (R * R)
        dh = -4 * A * q / (R * R)            # dh/du = dh * cu, dh/dv = dh * cv
        return A * q * q, (dh * cu, dh * cv)
    inside = abs(cu) < 0.4 and abs(cv) < 0.4
    if kind == 1:
        return (0.0, (0.8, 0.0)) if inside else (0.0, (0.0, 0.0))   # ramp rising towards +u
    return (0.0, (0.0, 0.8)) if inside else (0.0, (0.0, 0.0))       # ramp rising towards +v


def normal_pixel(x, y, w=128, h=128):
    u = (x + 0.5) / w
    v = 1.0 - (y + 0.5) / h             # image row 0 is the top: tangent-space +Y is image-up
    _, (du, dv) = height_and_grad(u, v)
    n = (-du, -dv, 1.0)
    l = math.sqrt(n[0] ** 2 + n[1] ** 2 + n[2] ** 2)
    return tuple(0.5 + 0.5 * c / l for c in n)


def build_normal_map():
    reset()
    img = image('bumps_normal', 128, 128, normal_pixel, non_color=True)
    grid = image('uv_grid', 64, 64, lambda x, y: f_pattern(x, y, 64, 64))

    def nm_material(name, strength):
        m, nt, bsdf = material(name, roughness=0.45)
        t = tex_node(nt, img)
        nm = nt.nodes.new('ShaderNodeNormalMap')
        nm.space = 'TANGENT'
        nm.uv_map = 'UVMap'
        nm.inputs['Strength'].default_value = strength
        nt.links.new(t.outputs['Color'], nm.inputs['Color'])
        nt.links.new(nm.outputs['Normal'], bsdf.inputs['Normal'])
        c = tex_node(nt, grid)
        nt.links.new(c.outputs['Color'], bsdf.inputs['Base Color'])
        return m

    full = [(0, 0), (1, 0), (1, 1), (0, 1)]
    rot = lambda k: full[k:] + full[:k]                      # UVs rotated by k * 90 degrees
    mirrored = [(1, 0), (0, 0), (0, 1), (1, 1)]              # u mirrored: bitangent sign flips
    m1 = nm_material('BumpsStrength1', 1.0)
    # ground plane, UV upright
    mesh_object('Plane', [(-1.2, -1.2, 0), (1.2, -1.2, 0), (1.2, 1.2, 0), (-1.2, 1.2, 0)], [(0, 1, 2, 3)],
                uv_layers=[('UVMap', [full])], material=m1)
    # box whose faces have UVs rotated 0/90/180/270 degrees and mirrored
    box('Box', (0.9, 0.9, 0.9), location=(-0.5, 0.1, 0.45), material=m1, rotation=(0, 0, math.radians(-15)),
        face_uvs=[full, rot(1), rot(2), rot(3), mirrored, rot(1)])
    m2 = nm_material('BumpsStrength0.6', 0.6)
    uv_sphere('Sphere', 0.45, 32, 16, (0.6, -0.3, 0.45), m2)


# ----------------------------------------------------------------------------------------------
# 4. emissive.glb

def glow_pixel(x, y, w=64, h=64):
    line = (x % 16) in (0, 1) or (y % 16) in (0, 1)
    if line:
        return (0.1, 1.0, 0.9)
    if 24 <= x < 40 and 24 <= y < 40:
        return (1.0, 0.9, 0.2)
    return (0.0, 0.0, 0.0)


def ramp_pixel(x, y, w=64, h=32):
    step = min(7, x * 8 // w) / 7.0                           # 8 steps 0 .. 1 left to right
    if y < 4 or y >= h - 4:
        return (0.0, 0.0, 0.0)
    return (step, step, step)


def build_emissive():
    reset()
    glow = image('glow', 64, 64, glow_pixel)
    ramp = image('ramp', 64, 32, ramp_pixel)

    # (a) emissive texture, factor 1 (strength 1)
    m, nt, b = material('EmissiveTexture', base=(0.08, 0.08, 0.08, 1.0), roughness=0.5)
    t = tex_node(nt, glow)
    nt.links.new(t.outputs['Color'], b.inputs['Emission'])
    b.inputs['Emission Strength'].default_value = 1.0
    box('GlowBox', (0.8, 0.8, 0.8), location=(-0.7, -0.3, 0.4), material=m, rotation=(0, 0, math.radians(20)))

    # (b) emissive factor only, no texture
    m, nt, b = material('EmissiveFactor', base=(0.05, 0.05, 0.05, 1.0), roughness=0.4)
    b.inputs['Emission'].default_value = (1.0, 0.35, 0.05, 1.0)
    b.inputs['Emission Strength'].default_value = 1.0
    uv_sphere('GlowSphere', 0.4, 24, 12, (0.55, -0.45, 0.4), m)

    # (c) texture x colour factor x strength 3 -> emissiveFactor (0.2, 0.6, 1.0) and
    #     KHR_materials_emissive_strength 3: the ramp's steps saturate at different places per channel
    m, nt, b = material('EmissiveStrength3', base=(0.02, 0.02, 0.02, 1.0), roughness=0.6)
    t = tex_node(nt, ramp)
    mix = nt.nodes.new('ShaderNodeMix')
    mix.data_type = 'RGBA'
    mix.blend_type = 'MULTIPLY'
    mix.inputs[0].default_value = 1.0
    mix.inputs[7].default_value = (0.2, 0.6, 1.0, 1.0)
    nt.links.new(t.outputs['Color'], mix.inputs[6])
    nt.links.new(mix.outputs[2], b.inputs['Emission'])
    b.inputs['Emission Strength'].default_value = 3.0
    quad('RampPanel', 1.6, 0.8, location=(0.0, 0.6, 0.9), rotation=(0, 0, math.radians(10)), material=m)

    ground, _, _ = material('Ground', base=(0.3, 0.3, 0.3, 1.0), roughness=0.9)
    mesh_object('Ground', [(-1.3, -1.1, 0), (1.3, -1.1, 0), (1.3, 1.0, 0), (-1.3, 1.0, 0)], [(0, 1, 2, 3)], material=ground)


# ----------------------------------------------------------------------------------------------
# 5. metal_rough.glb

def mr_pixel(x, y, w=64, h=64):
    rough = (0.1, 0.4, 0.7, 1.0)[min(3, x * 4 // w)]          # G: four vertical bands
    metal = 1.0 if y < h // 2 else 0.0                        # B: metal top half, dielectric bottom
    return (1.0, rough, metal)


def build_metal_rough():
    reset()
    for row, (metal, base) in enumerate([(1.0, (1.0, 0.766, 0.336, 1.0)), (0.0, (0.1, 0.3, 0.8, 1.0))]):
        for k, rough in enumerate((0.0, 0.25, 0.5, 0.75, 1.0)):
            m, _, _ = material('M%d_R%03d' % (int(metal), int(rough * 100)), base=base, metallic=metal, roughness=rough)
            uv_sphere('Sphere_M%d_R%03d' % (int(metal), int(rough * 100)), 0.4, 24, 12,
                      (-2.0 + k * 1.0, 0.0, 1.5 - row * 1.0), m)
    img = image('metal_rough', 64, 64, mr_pixel, non_color=True)

    def textured(name, rough_factor, metal_factor):
        m, nt, b = material(name, base=(0.95, 0.64, 0.54, 1.0))
        t = tex_node(nt, img)
        sep = nt.nodes.new('ShaderNodeSeparateColor')
        nt.links.new(t.outputs['Color'], sep.inputs['Color'])
        for chan, sock, fac in (('Green', 'Roughness', rough_factor), ('Blue', 'Metallic', metal_factor)):
            out = sep.outputs[chan]
            if fac != 1.0:
                mul = nt.nodes.new('ShaderNodeMath')
                mul.operation = 'MULTIPLY'
                mul.inputs[1].default_value = fac
                nt.links.new(out, mul.inputs[0])
                out = mul.outputs[0]
            nt.links.new(out, b.inputs[sock])
        return m

    box('TexturedBoxFactors1', (0.9, 0.9, 0.9), location=(-0.8, 0.0, -0.6), material=textured('MRTexture', 1.0, 1.0),
        rotation=(0, 0, math.radians(-20)))
    box('TexturedBoxFactorsHalf', (0.9, 0.9, 0.9), location=(0.8, 0.0, -0.6), material=textured('MRTextureHalf', 0.5, 0.5),
        rotation=(0, 0, math.radians(-20)))


# ----------------------------------------------------------------------------------------------
# 6. two_uv_sets.glb: base colour on TEXCOORD_0, occlusion and emissive on TEXCOORD_1

def ao_pixel(x, y, w=96, h=64):
    # 3x2 atlas of 32x32 tiles; each tile darkens towards its edges and has tile-index + 1 dark bars
    tx, ty = x // 32, y // 32
    tile = tx + 3 * ty
    lx, ly = (x % 32 + 0.5) / 32, (y % 32 + 0.5) / 32
    edge = min(lx, ly, 1 - lx, 1 - ly)
    occ = 0.35 + 0.65 * smoothstep(0.0, 0.3, edge)
    bars = tile + 1
    if 0.2 < ly < 0.8 and int(lx * (2 * bars + 1)) % 2 == 1:
        occ *= 0.3
    return (occ, occ, occ)


def dots_pixel(x, y, w=96, h=64):
    tx, ty = x // 32, y // 32
    tile = tx + 3 * ty
    lx, ly = (x % 32), (y % 32)
    # tile + 1 bright dots along the tile's top edge (TEXCOORD_1 layout made visible)
    for k in range(tile + 1):
        cx, cy = 5 + k * 5, 5
        if (lx - cx) ** 2 + (ly - cy) ** 2 <= 4:
            return (1.0, 0.5, 0.0)
    return (0.0, 0.0, 0.0)


def build_two_uv_sets():
    reset()
    base = image('uv0_pattern', 64, 64, lambda x, y: f_pattern(x, y, 64, 64))
    ao = image('uv1_occlusion', 96, 64, ao_pixel, non_color=True)
    dots = image('uv1_emissive', 96, 64, dots_pixel)
    m, nt, b = material('TwoUVSets', roughness=0.6)
    t0 = tex_node(nt, base)
    nt.links.new(uvmap_node(nt, 'UVMap').outputs['UV'], t0.inputs['Vector'])
    nt.links.new(t0.outputs['Color'], b.inputs['Base Color'])
    g = gltf_output_group(nt)
    t1 = tex_node(nt, ao)
    nt.links.new(uvmap_node(nt, 'Atlas').outputs['UV'], t1.inputs['Vector'])
    sep = nt.nodes.new('ShaderNodeSeparateColor')
    nt.links.new(t1.outputs['Color'], sep.inputs['Color'])
    nt.links.new(sep.outputs['Red'], g.inputs['Occlusion'])
    t2 = tex_node(nt, dots)
    nt.links.new(uvmap_node(nt, 'Atlas').outputs['UV'], t2.inputs['Vector'])
    nt.links.new(t2.outputs['Color'], b.inputs['Emission'])
    b.inputs['Emission Strength'].default_value = 1.0
    # TEXCOORD_1: each face gets its own tile of the 3x2 atlas, rotated by a face-dependent amount
    # (Blender UV: v up; tile (tx, ty) of the image occupies u in [tx/3, (tx+1)/3], v in [1-(ty+1)/2, 1-ty/2])
    atlas = []
    for f in range(6):
        tx, ty = f % 3, f // 3
        u0, u1 = tx / 3 + 0.01, (tx + 1) / 3 - 0.01
        v0, v1 = 1 - (ty + 1) / 2 + 0.01, 1 - ty / 2 - 0.01
        c = [(u0, v0), (u1, v0), (u1, v1), (u0, v1)]
        k = f % 4
        atlas.append(c[k:] + c[:k])
    # TEXCOORD_0: every face shows the full pattern upright
    box('TwoUVBox', (1.0, 1.0, 1.0), location=(0, 0, 0.5), material=m, rotation=(0, 0, math.radians(-25)),
        extra_uv=('Atlas', atlas))


# ----------------------------------------------------------------------------------------------
# 7. texture_transform.glb: Mapping node (Point) -> KHR_texture_transform

def build_texture_transform():
    reset()
    img = image('f_pattern', 64, 64, lambda x, y: f_pattern(x, y, 64, 64))
    cases = [
        ('NoTransform', None),
        ('Scale2', dict(loc=(0, 0), rot=0.0, scale=(2, 2))),
        ('Rotate30Offset', dict(loc=(0.25, 0.1), rot=30.0, scale=(1, 1))),
        ('ScaleRotateOffset', dict(loc=(0.1, -0.2), rot=-20.0, scale=(1.5, 0.75))),
    ]
    for k, (name, tr) in enumerate(cases):
        m, nt, b = material('TT_' + name, roughness=0.6)
        t = tex_node(nt, img)
        if tr:
            mp = nt.nodes.new('ShaderNodeMapping')
            mp.vector_type = 'POINT'
            mp.inputs['Location'].default_value = (tr['loc'][0], tr['loc'][1], 0)
            mp.inputs['Rotation'].default_value = (0, 0, math.radians(tr['rot']))
            mp.inputs['Scale'].default_value = (tr['scale'][0], tr['scale'][1], 1)
            nt.links.new(uvmap_node(nt, 'UVMap').outputs['UV'], mp.inputs['Vector'])
            nt.links.new(mp.outputs['Vector'], t.inputs['Vector'])
        nt.links.new(t.outputs['Color'], b.inputs['Base Color'])
        quad('Quad_' + name, 1.0, 1.0, location=(-0.55 + (k % 2) * 1.1, 0, 1.65 - (k // 2) * 1.1), material=m)


# ----------------------------------------------------------------------------------------------
# 8. samplers.glb: REPEAT, CLAMP_TO_EDGE, MIRRORED_REPEAT, mixed, and NEAREST filtering

def build_samplers():
    reset()
    img = image('f_edges', 32, 32, lambda x, y: f_pattern(x, y, 32, 32))
    small = image('f_small', 8, 8, lambda x, y: f_pattern(x, y, 8, 8))
    cases = [
        # name, image, extension, pingpong on (X=S, Y=T), interpolation
        ('Repeat', img, 'REPEAT', (False, False), 'Linear'),
        ('ClampToEdge', img, 'EXTEND', (False, False), 'Linear'),
        ('MirroredRepeat', img, 'REPEAT', (True, True), 'Linear'),
        ('MirrorS_ClampT', img, 'EXTEND', (True, False), 'Linear'),
        ('NearestRepeat', small, 'REPEAT', (False, False), 'Closest'),
    ]
    for k, (name, im, ext, pp, interp) in enumerate(cases):
        m, nt, b = material('S_' + name, roughness=0.7)
        t = tex_node(nt, im, interpolation=interp, extension=ext)
        if any(pp):
            sep = nt.nodes.new('ShaderNodeSeparateXYZ')
            comb = nt.nodes.new('ShaderNodeCombineXYZ')
            nt.links.new(uvmap_node(nt, 'UVMap').outputs['UV'], sep.inputs['Vector'])
            for axis, on in zip('XY', pp):
                if on:
                    pn = nt.nodes.new('ShaderNodeMath')
                    pn.operation = 'PINGPONG'
                    pn.inputs[1].default_value = 1.0
                    nt.links.new(sep.outputs[axis], pn.inputs[0])
                    nt.links.new(pn.outputs[0], comb.inputs[axis])
                else:
                    nt.links.new(sep.outputs[axis], comb.inputs[axis])
            nt.links.new(comb.outputs['Vector'], t.inputs['Vector'])
        nt.links.new(t.outputs['Color'], b.inputs['Base Color'])
        # UVs from -1 to 2: the texture's [0,1] square is the middle ninth of the quad
        uv = (-1, -1, 2, 2) if interp == 'Linear' else (0, 0, 2, 2)
        quad('Quad_' + name, 1.0, 1.0, uv_rect=uv, location=((-1.1 + (k % 3) * 1.1) if k < 3 else (-0.55 + (k - 3) * 1.1), 0, 1.65 - (k // 3) * 1.1), material=m)


BUILDS = [
    ('leaves_mask.glb', build_leaves_mask, False),
    ('window_blend.glb', build_window_blend, False),
    ('normal_map_tangents.glb', build_normal_map, True),
    ('normal_map_no_tangents.glb', build_normal_map, False),
    ('emissive.glb', build_emissive, False),
    ('metal_rough.glb', build_metal_rough, False),
    ('two_uv_sets.glb', build_two_uv_sets, False),
    ('texture_transform.glb', build_texture_transform, False),
    ('samplers.glb', build_samplers, False),
]


def main():
    argv = sys.argv[sys.argv.index('--') + 1:] if '--' in sys.argv else []
    if len(argv) not in (1, 2):
        raise SystemExit('usage: blender -b --factory-startup --python make.py -- OUTDIR [NAME,...]')
    outdir = os.path.abspath(argv[0])
    only = set(argv[1].split(',')) if len(argv) == 2 else None
    os.makedirs(outdir, exist_ok=True)
    log('Blender', bpy.app.version_string)
    import addon_utils
    for mod in addon_utils.modules():
        if mod.__name__ == 'io_scene_gltf2':
            log('io_scene_gltf2', '.'.join(str(x) for x in mod.bl_info['version']))
    log('exporter settings (export_tangents per file):')
    for k in sorted(EXPORT_SETTINGS):
        log('   %s = %r' % (k, EXPORT_SETTINGS[k]))
    for fname, build, tangents in BUILDS:
        if only and fname not in only:
            continue
        build()
        export(os.path.join(outdir, fname), tangents=tangents)
    log('done')


main()
