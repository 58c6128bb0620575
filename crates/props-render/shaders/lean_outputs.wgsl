// Leaner twins of skinned.wgsl's `VertexOutput` for draws whose fragments read less of it, and
// the vertex entry points that give them (`props_render`'s `entry_points.rs` picks them). A
// software rasteriser (lavapipe) stores, clips and sets up every output a vertex has, read or
// not: on 10,000 windmills in their bind pose the texture coordinates and tangents cost a
// tenth of the floor's frame, the paint and the palette's base another tenth, a flat-shaded
// draw's normal a fortieth. Appended to skinned.wgsl; shading.wgsl's fragment entry points
// take each back as a `VertexOutput` (its missing outputs zero, which those draws never read).
// Each entry point declares its inputs again: WGSL shares no parameter lists.

// What a draw whose material samples no texture reads: no texture coordinates, no tangent.
struct UntexturedOutput {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) world_normal: vec4<f32>,
    @location(2) color: vec4<f32>,
    @location(3) @interpolate(flat) tint: vec4<f32>,
    @location(5) world_position: vec3<f32>,
    @location(7) @interpolate(flat) instance_base: u32,
};

// What an untextured draw reads whose material takes no paint and no clip animates: where the
// surface is, which way it faces and its vertices' colours (a merged draw's members' own).
struct PlainOutput {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) world_normal: vec4<f32>,
    @location(2) color: vec4<f32>,
    @location(5) world_position: vec3<f32>,
};

// What a plain draw shaded flat (`FLAT_SHADED`) reads where its material lets no light through:
// each pixel's normal is its triangle's, so the vertices give none.
struct FacetedOutput {
    @builtin(position) clip_position: vec4<f32>,
    @location(2) color: vec4<f32>,
    @location(5) world_position: vec3<f32>,
};

fn untextured(out: VertexOutput) -> UntexturedOutput {
    return UntexturedOutput(
        out.clip_position, out.world_normal, out.color, out.tint, out.world_position, out.instance_base,
    );
}

fn plain(out: VertexOutput) -> PlainOutput {
    return PlainOutput(out.clip_position, out.world_normal, out.color, out.world_position);
}

fn faceted(out: VertexOutput) -> FacetedOutput {
    return FacetedOutput(out.clip_position, out.color, out.world_position);
}

// An untextured fragment's inputs as shading reads them.
fn from_untextured(in: UntexturedOutput) -> VertexOutput {
    var out: VertexOutput;
    out.clip_position = in.clip_position;
    out.world_normal = in.world_normal;
    out.color = in.color;
    out.tint = in.tint;
    out.world_position = in.world_position;
    out.instance_base = in.instance_base;
    return out;
}

// A plain fragment's inputs as shading reads them.
fn from_plain(in: PlainOutput) -> VertexOutput {
    var out: VertexOutput;
    out.clip_position = in.clip_position;
    out.world_normal = in.world_normal;
    out.color = in.color;
    out.world_position = in.world_position;
    return out;
}

// A faceted fragment's inputs as shading reads them: the vertex normal that stands in for a
// triangle too thin to have one at the pixel is up.
fn from_faceted(in: FacetedOutput) -> VertexOutput {
    var out: VertexOutput;
    out.clip_position = in.clip_position;
    out.world_normal = vec4<f32>(0.0, 1.0, 0.0, 0.0);
    out.color = in.color;
    out.world_position = in.world_position;
    return out;
}

@vertex
fn vs_rigid_untextured(
    @builtin(vertex_index) vertex_index: u32,
    geometry: Geometry,
    surface: Surface,
    vertex_node: Node,
    instance: InstanceInput,
) -> UntexturedOutput {
    return untextured(rigid(vertex_index, geometry, surface, vertex_node, instance));
}

@vertex
fn vs_rigid_plain(
    @builtin(vertex_index) vertex_index: u32,
    geometry: Geometry,
    surface: Surface,
    vertex_node: Node,
    instance: InstanceInput,
) -> PlainOutput {
    return plain(rigid(vertex_index, geometry, surface, vertex_node, instance));
}

@vertex
fn vs_skinned_untextured(
    @builtin(vertex_index) vertex_index: u32,
    geometry: Geometry,
    surface: Surface,
    skin: Skin,
    instance: InstanceInput,
) -> UntexturedOutput {
    return untextured(skinned(vertex_index, geometry, surface, skin, instance));
}

@vertex
fn vs_skinned_plain(
    @builtin(vertex_index) vertex_index: u32,
    geometry: Geometry,
    surface: Surface,
    skin: Skin,
    instance: InstanceInput,
) -> PlainOutput {
    return plain(skinned(vertex_index, geometry, surface, skin, instance));
}

@vertex
fn vs_unskinned_untextured(geometry: Geometry, surface: Surface, instance: InstanceInput) -> UntexturedOutput {
    return untextured(unskinned(geometry, surface, instance));
}

@vertex
fn vs_unskinned_plain(geometry: Geometry, surface: Surface, instance: InstanceInput) -> PlainOutput {
    return plain(unskinned(geometry, surface, instance));
}

@vertex
fn vs_rigid_faceted(
    @builtin(vertex_index) vertex_index: u32,
    geometry: Geometry,
    surface: Surface,
    vertex_node: Node,
    instance: InstanceInput,
) -> FacetedOutput {
    return faceted(rigid(vertex_index, geometry, surface, vertex_node, instance));
}

@vertex
fn vs_skinned_faceted(
    @builtin(vertex_index) vertex_index: u32,
    geometry: Geometry,
    surface: Surface,
    skin: Skin,
    instance: InstanceInput,
) -> FacetedOutput {
    return faceted(skinned(vertex_index, geometry, surface, skin, instance));
}

@vertex
fn vs_unskinned_faceted(geometry: Geometry, surface: Surface, instance: InstanceInput) -> FacetedOutput {
    return faceted(unskinned(geometry, surface, instance));
}
