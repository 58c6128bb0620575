// Linear blend skinning of instanced meshes: morph targets, then skinning, then the
// instance's placement. Shaded by shading.wgsl, appended after lean_outputs.wgsl. Prepended:
// globals.wgsl, then a palette accessor `joint_matrix(index) -> mat3x4<f32>`
// (palette_storage.wgsl or palette_texture.wgsl) and accessors of the model's per-vertex
// tables, `extra_influence(index) -> vec2<u32>` and `morph_delta(index) -> vec4<f32>`
// (vertex_tables_storage.wgsl or vertex_tables_texture.wgsl). `vec4(p, 1.0) * m` with m:
// mat3x4 gives the dot products of p with the three rows of the affine transform: the
// transformed point.

// Where this draw's window of the palette starts (several windows when a frame's palettes
// exceed the largest binding the adapter allows).
struct Window {
    first_matrix: u32,
};

// Per draw (per mesh primitive of a model placed on one node).
struct Draw {
    // Added to each instance's palette base: for skinned primitives, where the skin's joints
    // start in an instance's palette; for rigid ones, the slot of the node's world matrix
    // (their vertices use joint 0 with weight 1).
    joint_offset: u32,
    // Morph targets: where this primitive's deltas start in the model's table (in entries of
    // one target and vertex), how many targets, its vertex count, where its node's weights
    // start in an instance's palette (in floats, 12 per matrix slot), and the draw's base
    // vertex (subtracted from vertex_index to get the primitive's vertex).
    morph_first: u32,
    morph_targets: u32,
    morph_vertices: u32,
    weight_first: u32,
    vertex_base: u32,
    // Where the mesh instance's visibility (1 or 0) lies in an instance's palette, in floats,
    // plus 1; 0 when no animation can hide it.
    visibility: u32,
};

// What a draw's vertices do past their placement, each only where the draw has it (every one by
// default, as the shadow pipelines take them; the renderer's `PipelineKey`): morph targets,
// influences past the 8th, a visibility a clip animates. lavapipe runs a loop that ends at
// once through its body under a mask, and both sides of a branch: a windmill's vertices read
// a morph weight, a morph delta and a visibility they never used (a skinned prop's, an extra
// influence too).
override MORPHED: bool = true;
override EXTRA_INFLUENCES: bool = true;
override HIDEABLE: bool = true;
// Whether the draw's morph targets displace its vertex colours too (COLOR_0 targets, which
// three.js draws): off unless the renderer's key sets it, so that neither the shadow passes
// nor any other morphed draw read colour deltas.
override MORPHED_COLORS: bool = false;

@group(0) @binding(2) var<uniform> window: Window;
@group(1) @binding(0) var<uniform> draw: Draw;

// A vertex, stream by stream (the renderer's `gpu_model.rs`): geometry, which every pipeline
// reads; the surface attributes, which only shaded pipelines read; the influences, which only
// skinned draws read.
struct Geometry {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
};

struct Surface {
    @location(2) uv: vec2<f32>,
    // COLOR_0 (white without one), multiplying the material's base colour.
    @location(12) color: vec4<f32>,
    // UV channel 1 (the second TEXCOORD set its material reads).
    @location(14) uv1: vec2<f32>,
    // TANGENT (xyz, w the bitangent's sign), zero without one.
    @location(15) tangent: vec4<f32>,
};

struct Skin {
    @location(3) joints0: vec4<u32>,
    @location(4) joints1: vec4<u32>,
    @location(5) weights0: vec4<f32>,
    @location(6) weights1: vec4<f32>,
    // Influences past the 8th: offset in the model's list and count (0 for most models).
    @location(11) extra: vec2<u32>,
};

// The palette slot of the node that places a vertex where its draw merges parts of several
// nodes (`draw_merge.rs`), else 0: added to the draw's joint offset. Rigid draws only.
struct Node {
    @location(3) slot: u32,
};

struct InstanceInput {
    // Model-to-world transform, rows of a 3x4 affine matrix.
    @location(7) model_row0: vec4<f32>,
    @location(8) model_row1: vec4<f32>,
    @location(9) model_row2: vec4<f32>,
    // Index of this instance's first matrix in the frame's palette, and its flags
    // (`props_frame::InstanceData`'s `palette_base` and `flags`).
    @location(10) base_and_flags: vec2<u32>,
    // Its paint (sRGB), as strong as its alpha, over `paint` materials.
    @location(13) tint: vec4<f32>,
};

struct VertexOutput {
    @builtin(position) clip_position: vec4<f32>,
    // xyz: the normal; w: how much the mesh is scaled in the world, for transmissive pipelines
    // (their glass is as thick), else 0 (in a slot the normal takes whole: no output more).
    @location(0) world_normal: vec4<f32>,
    @location(1) uv0: vec2<f32>,
    @location(2) color: vec4<f32>,
    @location(3) @interpolate(flat) tint: vec4<f32>,
    @location(4) uv1: vec2<f32>,
    @location(5) world_position: vec3<f32>,
    @location(6) world_tangent: vec4<f32>,
    // Where the instance's palette starts in the window: its animated material values.
    @location(7) @interpolate(flat) instance_base: u32,
};

// Four inline influences; zero weights are skipped.
fn blend(base: u32, joints: vec4<u32>, weights: vec4<f32>, acc: mat3x4<f32>) -> mat3x4<f32> {
    var m = acc;
    for (var i = 0u; i < 4u; i++) {
        if (weights[i] != 0.0) {
            m += joint_matrix(base + joints[i]) * weights[i];
        }
    }
    return m;
}

// The influences past the 8th, each (joint, weight bits); returns the weights' sum too.
fn blend_extra(base: u32, extra: vec2<u32>, acc: mat3x4<f32>) -> SkinSum {
    var sum = SkinSum(acc, 0.0);
    for (var i = 0u; i < extra.y; i++) {
        let influence = extra_influence(extra.x + i);
        let weight = bitcast<f32>(influence.y);
        sum.matrix += joint_matrix(base + influence.x) * weight;
        sum.weight += weight;
    }
    return sum;
}

struct SkinSum {
    matrix: mat3x4<f32>,
    weight: f32,
};

// One value an instance's palette packs after its matrices (a morph weight, an animated
// material value, a visibility): float `index` of its palette, 12 to a matrix slot.
fn palette_value(instance_base: u32, index: u32) -> f32 {
    return palette_row(3u * instance_base + index / 4u)[index % 4u];
}

struct Morphed {
    position: vec3<f32>,
    normal: vec3<f32>,
    // The colour given, displaced where the draw's targets displace colours (`MORPHED_COLORS`).
    color: vec4<f32>,
};

// A tangent frame in model space.
struct Frame {
    position: vec3<f32>,
    normal: vec3<f32>,
    tangent: vec3<f32>,
    // How much the pose scales the mesh (uniformly, as glTF's skins and the renderer's
    // instances do).
    scale: f32,
};

// How much an affine transform (rows of a 3x4 matrix) scales, read off its first axis: all of
// its scale where it is uniform.
fn scale_of(m: mat3x4<f32>) -> f32 {
    return length(vec3<f32>(m[0].x, m[1].x, m[2].x));
}

// A normal `n` carried through the affine `m` (rows): by its linear part's cofactor matrix,
// the inverse transpose up to scale, so that it stays normal to the surface under a scale
// unequal on the axes (an object stretched in Blender and exported unapplied), as three.js's
// normal matrix keeps it; turned with a mirroring `m`, whose cofactor would turn it inside.
// Where the cofactor loses it (a node scaled to nothing on two axes, or on one with `n` in
// its plane), `m` itself carries it, as a direction and not a zero the caller would divide
// by. The caller normalizes.
fn normal_through(m: mat3x4<f32>, n: vec3<f32>) -> vec3<f32> {
    let a = m[0].xyz;
    let b = m[1].xyz;
    let c = m[2].xyz;
    let bc = cross(b, c);
    let cofactor = vec3<f32>(dot(bc, n), dot(cross(c, a), n), dot(cross(a, b), n));
    let turned = select(cofactor, -cofactor, dot(a, bc) < 0.0);
    return select(turned, vec3<f32>(dot(a, n), dot(b, n), dot(c, n)), dot(cofactor, cofactor) < 1e-30);
}

// `props_frame::InstanceData::MORPH_AT_REST`: every morph weight of the instance is zero.
const MORPH_AT_REST: u32 = 1u;

// Where the instance's palette starts in the window.
fn palette_start(instance: InstanceInput) -> u32 {
    return instance.base_and_flags.x - window.first_matrix;
}

// The vertex (and its colour, `color`) with the morph targets applied (base + sum of weight x
// delta), before skinning. An instance whose weights are all zero (its flag, set by whoever
// wrote its palette) reads none; otherwise the weights are read a row of four at a time (a row
// of the palette, each once), a row all at zero is passed over whole, and a target at zero
// weight reads no delta. A primitive's table holds a position and a normal delta per target and
// vertex, then, where its targets displace colours, a colour delta each.
fn morph(vertex: Geometry, color: vec4<f32>, vertex_index: u32, instance: InstanceInput, instance_base: u32) -> Morphed {
    var out = Morphed(vertex.position, vertex.normal, color);
    if !MORPHED || (instance.base_and_flags.y & MORPH_AT_REST) != 0u {
        return out;
    }
    let v = vertex_index - draw.vertex_base;
    let first = draw.weight_first;
    let end = first + draw.morph_targets;
    for (var row = first / 4u; row * 4u < end; row++) {
        let weights = palette_row(3u * instance_base + row);
        if all(weights == vec4<f32>(0.0)) {
            continue;
        }
        for (var at = max(4u * row, first); at < min(4u * row + 4u, end); at++) {
            let w = weights[at % 4u];
            if (w != 0.0) {
                let target_vertex = (at - first) * draw.morph_vertices + v;
                let entry = draw.morph_first + target_vertex;
                out.position += morph_delta(2u * entry).xyz * w;
                out.normal += morph_delta(2u * entry + 1u).xyz * w;
                if MORPHED_COLORS {
                    let colors = 2u * (draw.morph_first + draw.morph_targets * draw.morph_vertices);
                    out.color += morph_delta(colors + target_vertex) * w;
                }
            }
        }
    }
    return out;
}

// Model space to clip space, for every shaded entry point. Normals and tangents are carried by
// the placement itself: instances are placed at equal scales on the axes (a file's unequal
// ones are its nodes', whose normal matrices carry normals: `normal_through`), and a vertex
// is not worth a second cofactor for a host's stretched placement.
fn to_clip(frame: Frame, vertex: Surface, instance: InstanceInput, instance_base: u32) -> VertexOutput {
    let model = mat3x4<f32>(instance.model_row0, instance.model_row1, instance.model_row2);
    let world_position = vec4<f32>(frame.position, 1.0) * model;
    let world_normal = vec4<f32>(frame.normal, 0.0) * model;
    let world_tangent = vec4<f32>(frame.tangent, 0.0) * model;
    var out: VertexOutput;
    out.clip_position = globals.view_proj * vec4<f32>(world_position, 1.0);
    out.world_position = world_position;
    out.world_normal = vec4<f32>(normalize(world_normal), 0.0);
    // A transmissive material's glass is as thick as its mesh is scaled in the world.
    if TRANSMISSIVE {
        out.world_normal.w = frame.scale * scale_of(model);
    }
    // What the pipeline's fragments do not read is left at zero (`shaders/shading.wgsl`'s
    // overrides): neither computed here nor interpolated.
    if TANGENTS {
        out.world_tangent = vec4<f32>(world_tangent, vertex.tangent.w);
    }
    if TEXTURED {
        out.uv0 = vertex.uv;
        out.uv1 = vertex.uv1;
    }
    if VERTEX_COLORS {
        out.color = vertex.color;
    }
    // Linear here, once a vertex, not once a pixel: the tint is sRGB-encoded.
    if PAINTED {
        out.tint = vec4<f32>(pow(instance.tint.rgb, vec3<f32>(2.2)), instance.tint.a);
    }
    out.instance_base = instance_base;
    return out;
}

// The matrix a skinned vertex is posed by: its influences blended (the first eight inline,
// the rest from the model's list), divided by their sum when it is not 1.
fn skin_matrix(base: u32, skin: Skin) -> mat3x4<f32> {
    let zero = mat3x4<f32>(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    let first8 = blend(base, skin.joints1, skin.weights1, blend(base, skin.joints0, skin.weights0, zero));
    var extra = SkinSum(first8, 0.0);
    if EXTRA_INFLUENCES {
        extra = blend_extra(base, skin.extra, first8);
    }
    // Weights should sum to 1; divide only when they do not (as stored, they usually do).
    let weight_sum = dot(skin.weights0, vec4<f32>(1.0)) + dot(skin.weights1, vec4<f32>(1.0)) + extra.weight;
    if (weight_sum != 1.0 && weight_sum > 0.0) {
        return extra.matrix * (1.0 / weight_sum);
    }
    return extra.matrix;
}

// The model-to-world transform of an instance.
fn placement(instance: InstanceInput) -> mat3x4<f32> {
    return mat3x4<f32>(instance.model_row0, instance.model_row1, instance.model_row2);
}

// Whether an animation hides the draw's mesh instance (KHR_node_visibility) for this instance.
fn hidden(instance_base: u32) -> bool {
    return HIDEABLE && draw.visibility != 0u && palette_value(instance_base, draw.visibility - 1u) == 0.0;
}

// Outside the clip volume: where a hidden mesh's vertices go.
const CULLED: vec4<f32> = vec4<f32>(2.0, 2.0, 2.0, 1.0);

// A rigid draw: every vertex posed by its node's matrix (the draw's joint offset, plus the
// vertex's node slot in a merged draw).
fn rigid(
    vertex_index: u32,
    geometry: Geometry,
    surface: Surface,
    vertex_node: Node,
    instance: InstanceInput,
) -> VertexOutput {
    let instance_base = palette_start(instance);
    let morphed = morph(geometry, surface.color, vertex_index, instance, instance_base);
    let node = joint_matrix(instance_base + draw.joint_offset + vertex_node.slot);
    let position = vec4<f32>(morphed.position, 1.0) * node;
    // By the node's normal matrix, as three.js's; a skin's blend carries normals by itself
    // (three.js's skinning does too).
    let normal = normal_through(node, morphed.normal);
    let tangent = vec4<f32>(surface.tangent.xyz, 0.0) * node;
    var drawn = surface;
    drawn.color = morphed.color;
    var out = to_clip(Frame(position, normal, tangent, scale_of(node)), drawn, instance, instance_base);
    if hidden(instance_base) {
        out.clip_position = CULLED;
    }
    return out;
}

// A skinned draw: every vertex posed by its influences.
fn skinned(
    vertex_index: u32,
    geometry: Geometry,
    surface: Surface,
    skin: Skin,
    instance: InstanceInput,
) -> VertexOutput {
    let instance_base = palette_start(instance);
    let morphed = morph(geometry, surface.color, vertex_index, instance, instance_base);
    let posed = skin_matrix(instance_base + draw.joint_offset, skin);
    let position = vec4<f32>(morphed.position, 1.0) * posed;
    let normal = vec4<f32>(morphed.normal, 0.0) * posed;
    // Morph targets move normals, not tangents: the tangent is made orthogonal to the morphed
    // normal again (Gram-Schmidt) in the fragment shader.
    let tangent = vec4<f32>(surface.tangent.xyz, 0.0) * posed;
    var drawn = surface;
    drawn.color = morphed.color;
    var out = to_clip(Frame(position, normal, tangent, scale_of(posed)), drawn, instance, instance_base);
    if hidden(instance_base) {
        out.clip_position = CULLED;
    }
    return out;
}

// A rigid draw's depth from the sun (the shadow passes of opaque materials): the position
// only, as `vs_rigid` poses it.
@vertex
fn vs_shadow_rigid(
    @builtin(vertex_index) vertex_index: u32,
    geometry: Geometry,
    vertex_node: Node,
    instance: InstanceInput,
) -> @builtin(position) vec4<f32> {
    let instance_base = palette_start(instance);
    if hidden(instance_base) {
        return CULLED;
    }
    let position = morph(geometry, vec4<f32>(1.0), vertex_index, instance, instance_base).position;
    let node = joint_matrix(instance_base + draw.joint_offset + vertex_node.slot);
    let world = vec4<f32>(vec4<f32>(position, 1.0) * node, 1.0);
    return globals.view_proj * vec4<f32>(world * placement(instance), 1.0);
}

// A skinned draw's depth from the sun: the position only, as `vs_skinned` poses it.
@vertex
fn vs_shadow_skinned(
    @builtin(vertex_index) vertex_index: u32,
    geometry: Geometry,
    skin: Skin,
    instance: InstanceInput,
) -> @builtin(position) vec4<f32> {
    let instance_base = palette_start(instance);
    if hidden(instance_base) {
        return CULLED;
    }
    let position = morph(geometry, vec4<f32>(1.0), vertex_index, instance, instance_base).position;
    let posed = skin_matrix(instance_base + draw.joint_offset, skin);
    let world = vec4<f32>(vec4<f32>(position, 1.0) * posed, 1.0);
    return globals.view_proj * vec4<f32>(world * placement(instance), 1.0);
}

// Without skinning: every mesh in its bind pose, no palette read, no morph. A debug view, and the
// baseline `cargo xtask bench render` compares skinning against.
fn unskinned(geometry: Geometry, surface: Surface, instance: InstanceInput) -> VertexOutput {
    let instance_base = palette_start(instance);
    let frame = Frame(geometry.position, geometry.normal, surface.tangent.xyz, 1.0);
    return to_clip(frame, surface, instance, instance_base);
}

// The entry points of shaded draws, each posing's (`lean_outputs.wgsl` has their twins for
// draws whose fragments read less).
@vertex
fn vs_rigid(
    @builtin(vertex_index) vertex_index: u32,
    geometry: Geometry,
    surface: Surface,
    vertex_node: Node,
    instance: InstanceInput,
) -> VertexOutput {
    return rigid(vertex_index, geometry, surface, vertex_node, instance);
}

@vertex
fn vs_skinned(
    @builtin(vertex_index) vertex_index: u32,
    geometry: Geometry,
    surface: Surface,
    skin: Skin,
    instance: InstanceInput,
) -> VertexOutput {
    return skinned(vertex_index, geometry, surface, skin, instance);
}

@vertex
fn vs_unskinned(geometry: Geometry, surface: Surface, instance: InstanceInput) -> VertexOutput {
    return unskinned(geometry, surface, instance);
}
