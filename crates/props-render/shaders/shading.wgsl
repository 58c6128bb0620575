// The glTF 2.0 material model (the specification's Appendix B): metallic-roughness PBR with
// GGX microfacets, height-correlated Smith visibility, Schlick Fresnel and Lambertian diffuse,
// under the sun (shadowed: shadows.wgsl), the point and spot lights of the fragment's cluster
// (lights.wgsl), an ambient term and the sky's image-based light; eighteen texture slots, each
// from its UV channel through its KHR_texture_transform; alpha modes; transmission
// (KHR_materials_transmission) through thin walls or, without refraction, the coloured depth of
// KHR_materials_volume; a clear coat with its own normal map (KHR_materials_clearcoat); the
// sheen of cloth (KHR_materials_sheen); double-sided back faces; the grain of brushed metal
// (KHR_materials_anisotropy); a thin film's colours (KHR_materials_iridescence); a rough
// diffuse (KHR_materials_diffuse_roughness); KHR_materials_unlit; specular anti-aliasing, as
// three.js's. Appended to skinned.wgsl (its VertexOutput), lights.wgsl, shadows.wgsl and the
// material's texture bindings (props-render's shaders.rs).

const PI: f32 = 3.14159265;

struct Material {
    base_color: vec4<f32>,
    // rgb: emissive factor; w: KHR_materials_emissive_strength.
    emissive: vec4<f32>,
    // x: metallic, y: roughness, z: normal map scale, w: occlusion strength.
    pbr: vec4<f32>,
    // x: 1 for a material whose name holds `paint` (an instance's tint paints over it); y: alpha mode
    // (0 opaque, 1 mask, 2 blend); z: alpha cutoff; w: 1 for KHR_materials_unlit.
    params: vec4<f32>,
    // A dielectric's specular factors (KHR_materials_ior, KHR_materials_specular): rgb, the
    // reflectance facing the viewer of its index of refraction times its specular colour
    // (glTF's 0.04 without them); w, its specular strength (1 without it).
    specular: vec4<f32>,
    // x: KHR_materials_transmission's factor; y, z, w: KHR_materials_clearcoat's factor,
    // roughness and normal map scale.
    layers: vec4<f32>,
    // rgb: KHR_materials_sheen's colour; w: its roughness.
    sheen: vec4<f32>,
    // rgb: what KHR_materials_volume's glass absorbs per unit of its mesh's scale in the world
    // (`props_anim::material::Material::optical_depth`).
    volume: vec4<f32>,
    // x: KHR_materials_anisotropy's strength; y, z: its rotation's cosine and sine.
    anisotropy: vec4<f32>,
    // x: KHR_materials_iridescence's factor; y: its film's index of refraction; z, w: its
    // thickness without a texture (and where it reads 1) and where its texture reads 0,
    // nanometres.
    iridescence: vec4<f32>,
    // x: KHR_materials_diffuse_roughness's factor.
    diffuse: vec4<f32>,
    // Per texture slot (the slot constants below), two rows: the UV transform's rows in xyz;
    // row 0's w is the UV channel, row 1's w is 1 when the slot has a texture.
    slots: array<vec4<f32>, 36>,
    // Per slot a clip may animate (the first five: `TextureSlot`), its transform's offset (xy)
    // and scale (zw); its rotation, four slots a row: what an animated transform is rebuilt
    // from.
    raw: array<vec4<f32>, 5>,
    rotations: array<vec4<f32>, 2>,
    // Per animatable field (the F_ constants), where an instance's palette holds its value,
    // in floats, plus 1; 0 when no clip animates it (the uniform's value holds).
    animated: array<vec4<u32>, 6>,
};

const F_BASE_COLOR: u32 = 0u;
const F_METALLIC: u32 = 1u;
const F_ROUGHNESS: u32 = 2u;
const F_EMISSIVE: u32 = 3u;
const F_EMISSIVE_STRENGTH: u32 = 4u;
const F_ALPHA_CUTOFF: u32 = 5u;
const F_NORMAL_SCALE: u32 = 6u;
const F_OCCLUSION: u32 = 7u;
// Then per slot: offset, rotation, scale.
const F_TEXTURE_TRANSFORM: u32 = 8u;

// Whether the pipeline draws materials a clip animates. A static material's pipeline never
// reads the palette in this stage: even a read behind a branch never taken costs software
// rasterisers (lavapipe) several times the whole fragment shader.
override ANIMATED_MATERIAL: bool = false;

// Which texture slots the pipeline's material has, a bit per slot (the slot constants below;
// every one by default). Each slot samples only where its bit is set: lavapipe runs a branch
// on the material's uniform under a mask, so an unused slot's sampling was paid for in full
// (a fox's base colour texture cost six more samples).
override TEXTURES: u32 = 262143u;
// What the pipeline's fragments read of the vertex, each only where its draws have it (every
// one by default): texture coordinates (a texture), tangents (a normal map), colours
// (`COLOR_0`), and whether its triangles are shaded flat (no normals of their own). What a
// pipeline does not read the rasteriser does not interpolate: on lavapipe the interpolants
// cost as much as a windmill's whole material model.
override TEXTURED: bool = TEXTURES != 0u;
override NORMAL_MAPPED: bool = (TEXTURES & (1u << NORMAL)) != 0u;
override COAT_NORMAL_MAPPED: bool = (TEXTURES & (1u << COAT_NORMAL)) != 0u;
// Whether the pipeline's fragments read tangents: for a normal map (the surface's or its
// clear coat's), or for a grain.
override TANGENTS: bool = NORMAL_MAPPED || COAT_NORMAL_MAPPED || ANISOTROPIC;
override VERTEX_COLORS: bool = true;
override FLAT_SHADED: bool = true;
// Whether the material lets light through (KHR_materials_transmission): its fragments are
// premultiplied by their coverage, and their alpha is the share of what is behind them they
// hide (the pipeline blends them so).
override TRANSMISSIVE: bool = false;
// Whether a clear coat lies over the material (KHR_materials_clearcoat): a second specular
// layer, lit by every light and the sky.
override CLEARCOAT: bool = false;
// Whether the material's fibres have a sheen (KHR_materials_sheen): a third layer, lit by every
// light and the sky.
override SHEEN: bool = false;
// Whether the material's specular lobe is stretched along a grain (KHR_materials_anisotropy),
// its direction in the tangent frame.
override ANISOTROPIC: bool = false;
// Whether a thin film lies over the material (KHR_materials_iridescence): its specular's
// Fresnel is the film's, by the factor.
override IRIDESCENT: bool = false;
// Whether the material's diffuse is rough (KHR_materials_diffuse_roughness): Oren-Nayar's, made
// energy-preserving (EON), in place of Lambert's.
override DIFFUSE_ROUGHNESS: bool = false;
// Whether the material takes the instance's paint (its tint).
override PAINTED: bool = true;
// Whether the draw is a model's impostor (`props_anim::Impostor`): its vertex colours are its
// faces' colours, their alpha the share of paint, and the material's base colour the paint's.
override IMPOSTOR: bool = false;
// Whether the draw is of points or lines: as three.js draws them (a `PointsMaterial` or
// `LineBasicMaterial` made from the material), unlit in the base colour, its texture and the
// vertex colours, at the material's alpha.
override POINTS_AND_LINES: bool = false;
// Whether the material is alpha-masked: only then may a fragment be discarded. A shader that
// can discard has its depth tested after it runs, so an opaque pipeline's cannot: hidden
// fragments are then culled before they are shaded.
override ALPHA_MASK: bool = true;
// What the frame may light with, each where the renderer's frame has it (both by default): the
// sun's shadow maps (the renderer draws them) and point and spot lights (the frame has some).
// A branch on a uniform value is no branch to lavapipe (Mesa 22): it runs both sides under a
// mask, so a pipeline that skipped the shadow lookup and the light loop at run time still paid
// for them: a tenth of 10,000 windmills' frame at 1280x720 in their bind pose.
override SHADOWED: bool = true;
override PUNCTUAL_LIGHTS: bool = true;
// Whether a curved surface's specular lobe is widened by how far its normal turns between
// pixels (the renderer's `specular_antialiasing`): a shiny prop a few pixels across then shows
// the mean of its highlights, not one that crawls from pixel to pixel.
override SPECULAR_ANTIALIASING: bool = true;

// The instance's paint over `base` (a painted material's colour), as its tint's alpha says.
fn painted(base: vec3<f32>, in: VertexOutput) -> vec3<f32> {
    if PAINTED {
        return mix(base, in.tint.rgb, in.tint.a * material.params.x);
    }
    return base;
}

// The vertex's colour: white where the draw's vertices have none.
fn vertex_color(in: VertexOutput) -> vec4<f32> {
    if VERTEX_COLORS {
        return in.color;
    }
    return vec4<f32>(1.0);
}

// The colour under the textures: the material's `factor` painted, times the vertex's colour;
// an impostor's face colour, its share of paint moved from the paint's colour (`factor`)
// towards the instance's, as the paint it stands for would be.
fn surface_color(factor: vec4<f32>, in: VertexOutput) -> vec4<f32> {
    if IMPOSTOR {
        let paint = in.tint.a * material.params.x * in.color.a;
        return vec4<f32>(in.color.rgb + paint * (in.tint.rgb - factor.rgb), 1.0);
    }
    return vec4<f32>(painted(factor.rgb, in), factor.a) * vertex_color(in);
}

// Component `c` of field `field` for the fragment's instance: its animated value, or
// `fallback` (the uniform's) when no clip animates it.
fn field_value(field: u32, c: u32, fallback: f32, in: VertexOutput) -> f32 {
    if !ANIMATED_MATERIAL {
        return fallback;
    }
    let at = material.animated[field / 4u][field % 4u];
    if at == 0u {
        return fallback;
    }
    return palette_value(in.instance_base, at - 1u + c);
}

fn field_vec3(field: u32, fallback: vec3<f32>, in: VertexOutput) -> vec3<f32> {
    return vec3<f32>(
        field_value(field, 0u, fallback.x, in),
        field_value(field, 1u, fallback.y, in),
        field_value(field, 2u, fallback.z, in),
    );
}

fn is_animated(field: u32) -> bool {
    return material.animated[field / 4u][field % 4u] != 0u;
}

@group(2) @binding(0) var<uniform> material: Material;
// Then each texture slot's texture and sampler (bindings 1 + 2 slot and 2 + 2 slot), and its
// `fn sample_NAME(uv: vec2<f32>) -> vec4<f32>` (`sample_base_color`, ...): props-render's
// shaders.rs declares them, in the order of the slot constants below, each bound where the
// device binds that many textures (a slot past them reads white, as a missing texture).

// The sky's radiance, prefiltered for roughness: one mip level per step of roughness.
@group(0) @binding(3) var sky_texture: texture_cube<f32>;
@group(0) @binding(4) var sky_sampler: sampler;
// The specular lobe's directional albedo (`directional_albedo`): DFG_SIDE x DFG_SIDE texels,
// roughness across, n.v down, each its (scale, bias) and its rougher neighbour's.
@group(0) @binding(11) var<uniform> dfg_table: array<vec4<f32>, 1024>;

const BASE_COLOR: u32 = 0u;
const METALLIC_ROUGHNESS: u32 = 1u;
const NORMAL: u32 = 2u;
const OCCLUSION: u32 = 3u;
const EMISSIVE: u32 = 4u;
const SPECULAR: u32 = 5u;
const SPECULAR_COLOR: u32 = 6u;
const TRANSMISSION: u32 = 7u;
const SHEEN_COLOR: u32 = 8u;
const SHEEN_ROUGHNESS: u32 = 9u;
const ANISOTROPY: u32 = 10u;
const COAT: u32 = 11u;
const COAT_ROUGHNESS: u32 = 12u;
const COAT_NORMAL: u32 = 13u;
const FILM: u32 = 14u;
const FILM_THICKNESS: u32 = 15u;
const THICKNESS: u32 = 16u;
const ROUGH_DIFFUSE: u32 = 17u;
// The slots whose transform a clip may animate.
const ANIMATABLE_SLOTS: u32 = 5u;

// The texture coordinates of slot `slot`: its UV channel through its transform.
fn slot_uv(slot: u32, in: VertexOutput) -> vec2<f32> {
    var row0 = material.slots[2u * slot];
    var row1 = material.slots[2u * slot + 1u];
    let uv = vec3<f32>(select(in.uv0, in.uv1, row0.w > 0.5), 1.0);
    let f = F_TEXTURE_TRANSFORM + 3u * slot;
    if ANIMATED_MATERIAL && slot < ANIMATABLE_SLOTS
        && (is_animated(f) || is_animated(f + 1u) || is_animated(f + 2u)) {
        // KHR_texture_transform: u' = cos sx u + sin sy v + ox, v' = -sin sx u + cos sy v + oy.
        let raw = material.raw[slot];
        let ox = field_value(f, 0u, raw.x, in);
        let oy = field_value(f, 1u, raw.y, in);
        let angle = field_value(f + 1u, 0u, material.rotations[slot / 4u][slot % 4u], in);
        let sx = field_value(f + 2u, 0u, raw.z, in);
        let sy = field_value(f + 2u, 1u, raw.w, in);
        let s = sin(angle);
        let c = cos(angle);
        return vec2<f32>(dot(vec3<f32>(c * sx, s * sy, ox), uv), dot(vec3<f32>(-s * sx, c * sy, oy), uv));
    }
    return vec2<f32>(dot(row0.xyz, uv), dot(row1.xyz, uv));
}

fn has_texture(slot: u32) -> bool {
    return (TEXTURES & (1u << slot)) != 0u && material.slots[2u * slot + 1u].w > 0.5;
}

// The sky's diffuse irradiance towards `n`, divided by pi (the radiance a white Lambertian
// surface returns): its spherical harmonics convolved with the cosine lobe.
fn sky_irradiance(n: vec3<f32>) -> vec3<f32> {
    let sh = globals.sky_sh;
    let c1 = 0.429043;
    let c2 = 0.511664;
    let c3 = 0.743125;
    let c4 = 0.886227;
    let c5 = 0.247708;
    let e = c1 * sh[8].rgb * (n.x * n.x - n.y * n.y) + c3 * sh[6].rgb * n.z * n.z + c4 * sh[0].rgb
        - c5 * sh[6].rgb + 2.0 * c1 * (sh[4].rgb * n.x * n.y + sh[7].rgb * n.x * n.z + sh[5].rgb * n.y * n.z)
        + 2.0 * c2 * (sh[3].rgb * n.x + sh[1].rgb * n.y + sh[2].rgb * n.z);
    return max(e, vec3<f32>(0.0)) / PI;
}

// Texels per side of `dfg_table`.
const DFG_SIDE: u32 = 32u;

// The split sum's scale and bias of f0 and f90: what the specular lobe of perceptual
// `roughness` reflects towards a view at `n_dot_v` of light from every direction,
// `f0 * x + f90 * y` (props-render's ggx.rs integrates it), filtered bilinearly.
fn directional_albedo(roughness: f32, n_dot_v: f32) -> vec2<f32> {
    let p = clamp(vec2<f32>(roughness, n_dot_v), vec2<f32>(0.0), vec2<f32>(1.0)) * f32(DFG_SIDE - 1u);
    let i = min(vec2<u32>(p), vec2<u32>(DFG_SIDE - 2u));
    let f = p - vec2<f32>(i);
    let near = dfg_table[i.y * DFG_SIDE + i.x];
    let far = dfg_table[(i.y + 1u) * DFG_SIDE + i.x];
    return mix(mix(near.xy, near.zw, f.x), mix(far.xy, far.zw, f.x), f.y);
}

// What a specular lobe of facing reflectance `f0`, whose single scattering reflects `single` of
// light from every direction (the split sum's `albedo` applied), reflects of it after bouncing
// between microfacets: Fdez-Aguera's multiple-scattering estimate, as three.js makes it.
fn multiply_scattered(f0: vec3<f32>, single: vec3<f32>, albedo: vec2<f32>) -> vec3<f32> {
    let lost = 1.0 - (albedo.x + albedo.y);
    let average = f0 + (1.0 - f0) / 21.0;
    return single * average / (1.0 - lost * average) * lost;
}

// How a surface reflects light: its diffuse colour (the dielectric's share of the base colour),
// its specular lobe's reflectance facing the viewer and at grazing angles (the dielectric's
// and the metal's mixed) and the dielectric's own, which alone takes its share of the light from
// the diffuse layer under it (glTF's `fresnel_mix`; the metal has no diffuse layer); the
// lobe's GGX alpha squared, and `multiple`, the energy its single scattering loses, given back.
struct Reflectance {
    c_diff: vec3<f32>,
    f0: vec3<f32>,
    f90: f32,
    dielectric_f0: vec3<f32>,
    dielectric_f90: f32,
    a2: f32,
    multiple: vec3<f32>,
    grain: Grain,
    // A thin film (KHR_materials_iridescence): its Fresnel towards the view (rgb), which
    // replaces the lobe's Schlick Fresnel by how much film there is (a; 0: none).
    film: vec4<f32>,
    // A rough diffuse (KHR_materials_diffuse_roughness): its albedo (rgb; `c_diff` is it times
    // `diffuse_share`) and its roughness (a; 0: Lambert's).
    rough: vec4<f32>,
    diffuse_share: f32,
};

// A lobe's grain (KHR_materials_anisotropy): its GGX alpha along the grain (across it, the
// lobe's own; 0: no grain, an isotropic lobe), the grain's direction and the direction across
// it (unit vectors in the surface), and its strength, 0 to 1.
struct Grain {
    alpha: f32,
    along: vec3<f32>,
    across: vec3<f32>,
    strength: f32,
};

const NO_GRAIN: Grain = Grain(0.0, vec3<f32>(0.0), vec3<f32>(0.0), 0.0);

// The grain of a fragment of perceptual `roughness` whose tangent frame is `t`, `b` (unit
// vectors in the surface): the material's strength and rotation over the direction in its
// texture's `texel` (RG, from [0, 1] to [-1, 1]) and the strength in B, as three.js reads them.
// Along the grain the lobe is rougher, from the material's alpha to 1 by the strength squared.
fn grain_of(t: vec3<f32>, b: vec3<f32>, texel: vec3<f32>, roughness: f32) -> Grain {
    let factor = material.anisotropy;
    let read = texel.rg * 2.0 - 1.0;
    let read_length = length(read);
    let unit = select(vec2<f32>(1.0, 0.0), read / read_length, read_length > 0.0);
    // Turned by the rotation (counter-clockwise, from the tangent towards the bitangent).
    let turned = factor.yz * unit.x + vec2<f32>(-factor.z, factor.y) * unit.y;
    let scaled = turned * factor.x * texel.b;
    let strength = length(scaled);
    let direction = select(vec2<f32>(1.0, 0.0), scaled / strength, strength > 0.0);
    let kept = min(strength, 1.0);
    let a = roughness * roughness;
    return Grain(mix(a, 1.0, kept * kept), t * direction.x + b * direction.y, b * direction.x - t * direction.y, kept);
}

// What a surface of reflectance `s` returns towards `v` of a unit irradiance from `l`: glTF's
// BRDF (GGX, height-correlated Smith, Schlick from f0 to f90, Lambert) times the cosine.
fn direct_light(n: vec3<f32>, v: vec3<f32>, l: vec3<f32>, s: Reflectance) -> vec3<f32> {
    let a2 = s.a2;
    let h = normalize(l + v);
    let n_dot_l = clamp(dot(n, l), 0.0, 1.0);
    let n_dot_v = clamp(abs(dot(n, v)), 1e-4, 1.0);
    let n_dot_h = clamp(dot(n, h), 0.0, 1.0);
    let v_dot_h = clamp(dot(v, h), 0.0, 1.0);
    let x5 = fifth(1.0 - v_dot_h);
    var fresnel = s.f0 + (s.f90 - s.f0) * x5;
    if IRIDESCENT {
        fresnel = mix(fresnel, s.film.rgb, s.film.a);
    }
    var distribution: f32;
    var visibility: f32;
    if ANISOTROPIC && s.grain.alpha > 0.0 {
        // Burley's anisotropic GGX and its height-correlated Smith visibility, as the extension
        // and three.js write them (equal to the isotropic lobe's for equal alphas).
        let along = s.grain.alpha;
        let across = sqrt(a2);
        let both = along * across;
        let w = vec3<f32>(across * dot(s.grain.along, h), along * dot(s.grain.across, h), both * n_dot_h);
        let w2 = both / dot(w, w);
        distribution = both * w2 * w2 / PI;
        let seen = vec3<f32>(along * dot(s.grain.along, v), across * dot(s.grain.across, v), n_dot_v);
        let lit = vec3<f32>(along * dot(s.grain.along, l), across * dot(s.grain.across, l), n_dot_l);
        visibility = clamp(0.5 / (n_dot_l * length(seen) + n_dot_v * length(lit)), 0.0, 1.0);
    } else {
        let d_denominator = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
        distribution = a2 / (PI * d_denominator * d_denominator);
        let visibility_denominator =
            n_dot_l * sqrt(n_dot_v * n_dot_v * (1.0 - a2) + a2) + n_dot_v * sqrt(n_dot_l * n_dot_l * (1.0 - a2) + a2);
        visibility = select(0.0, 0.5 / visibility_denominator, visibility_denominator > 0.0);
    }
    var diffuse_brdf = s.c_diff / PI;
    if DIFFUSE_ROUGHNESS && s.rough.a > 0.0 {
        diffuse_brdf = rough_diffuse(n, v, l, s.rough) * s.diffuse_share;
    }
    let diffuse = (1.0 - (s.dielectric_f0 + (s.dielectric_f90 - s.dielectric_f0) * x5)) * diffuse_brdf;
    let specular = fresnel * distribution * visibility * s.multiple;
    return (diffuse + specular) * n_dot_l;
}

// A fragment's light: what it returns towards the eye, its coverage (alpha), and the share of
// what is behind it that it lets through (per channel; zero unless transmissive).
struct Shaded {
    color: vec3<f32>,
    alpha: f32,
    transmitted: vec3<f32>,
};

@fragment
fn fs_main(in: VertexOutput, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    return shaded_color(in, front);
}

@fragment
fn fs_main_untextured(in: UntexturedOutput, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    return shaded_color(from_untextured(in), front);
}

@fragment
fn fs_main_plain(in: PlainOutput, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    return shaded_color(from_plain(in), front);
}

@fragment
fn fs_main_faceted(in: FacetedOutput, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    return shaded_color(from_faceted(in), front);
}

// What `fs_main` returns: the fragment's light and coverage (premultiplied where it lets light
// through).
fn shaded_color(in: VertexOutput, front: bool) -> vec4<f32> {
    let shaded = shade(in, front);
    if TRANSMISSIVE {
        // Premultiplied: what is behind is kept where the fragment does not cover it and where
        // it lets it through (the mean of its channels: one blend factor per pixel).
        let through = dot(shaded.transmitted, vec3<f32>(1.0 / 3.0));
        return vec4<f32>(shaded.color * shaded.alpha, shaded.alpha * (1.0 - through));
    }
    return vec4<f32>(shaded.color, shaded.alpha);
}

// The triangle's own normal, unnormalized, from the slope of its surface on screen (zero where
// the triangle is too thin to have one at the pixel). Call it where control flow is uniform.
fn triangle_normal(world_position: vec3<f32>) -> vec3<f32> {
    return cross(dpdy(world_position), dpdx(world_position));
}

// The glTF material model at a fragment.
fn shade(in: VertexOutput, front: bool) -> Shaded {
    // The triangle's own normal, from the slope of its surface on screen (first, where control
    // flow is uniform): what a primitive without normals is shaded by, as three.js's flat
    // shading does.
    let face = triangle_normal(in.world_position);
    // Specular anti-aliasing (`SPECULAR_ANTIALIASING`): a lobe is widened by how far the
    // surface's own normal turns between neighbouring pixels, as three.js's is. (The normal
    // map's detail does not widen it; a flat triangle's normal does not turn.)
    var geometry_roughness = 0.0;
    if SPECULAR_ANTIALIASING && !FLAT_SHADED {
        let smooth_normal = normalize(in.world_normal.xyz);
        let turn = max(abs(dpdx(smooth_normal)), abs(dpdy(smooth_normal)));
        geometry_roughness = max(max(turn.x, turn.y), turn.z);
    }
    // Each texture is sampled only where the material has one (a branch on the material's
    // uniform, so control flow stays uniform); a missing one is white, as the 1x1 stand-in
    // bound in its place would sample, without the sampling.
    var base_texel = vec4<f32>(1.0);
    if has_texture(BASE_COLOR) {
        base_texel = sample_base_color(slot_uv(BASE_COLOR, in));
    }
    var mr_texel = vec4<f32>(1.0);
    if has_texture(METALLIC_ROUGHNESS) {
        mr_texel = sample_metallic_roughness(slot_uv(METALLIC_ROUGHNESS, in));
    }
    var normal_texel = vec4<f32>(1.0);
    if has_texture(NORMAL) {
        normal_texel = sample_normal(slot_uv(NORMAL, in));
    }
    var occlusion_texel = vec4<f32>(1.0);
    if has_texture(OCCLUSION) {
        occlusion_texel = sample_occlusion(slot_uv(OCCLUSION, in));
    }
    var emissive_texel = vec4<f32>(1.0);
    if has_texture(EMISSIVE) {
        emissive_texel = sample_emissive(slot_uv(EMISSIVE, in));
    }
    var specular_texel = vec4<f32>(1.0);
    if has_texture(SPECULAR) {
        specular_texel = sample_specular(slot_uv(SPECULAR, in));
    }
    var specular_color_texel = vec4<f32>(1.0);
    if has_texture(SPECULAR_COLOR) {
        specular_color_texel = sample_specular_color(slot_uv(SPECULAR_COLOR, in));
    }
    var transmission_texel = vec4<f32>(1.0);
    if has_texture(TRANSMISSION) {
        transmission_texel = sample_transmission(slot_uv(TRANSMISSION, in));
    }
    var sheen_color_texel = vec4<f32>(1.0);
    if has_texture(SHEEN_COLOR) {
        sheen_color_texel = sample_sheen_color(slot_uv(SHEEN_COLOR, in));
    }
    var sheen_roughness_texel = vec4<f32>(1.0);
    if has_texture(SHEEN_ROUGHNESS) {
        sheen_roughness_texel = sample_sheen_roughness(slot_uv(SHEEN_ROUGHNESS, in));
    }
    // Without a texture, the grain runs along the tangent at full strength (before the factor
    // and the rotation).
    var anisotropy_texel = vec4<f32>(1.0, 0.5, 1.0, 1.0);
    if has_texture(ANISOTROPY) {
        anisotropy_texel = sample_anisotropy(slot_uv(ANISOTROPY, in));
    }
    var coat_texel = vec4<f32>(1.0);
    if has_texture(COAT) {
        coat_texel = sample_clearcoat(slot_uv(COAT, in));
    }
    var coat_roughness_texel = vec4<f32>(1.0);
    if has_texture(COAT_ROUGHNESS) {
        coat_roughness_texel = sample_clearcoat_roughness(slot_uv(COAT_ROUGHNESS, in));
    }
    var coat_normal_texel = vec4<f32>(1.0);
    if has_texture(COAT_NORMAL) {
        coat_normal_texel = sample_clearcoat_normal(slot_uv(COAT_NORMAL, in));
    }
    var film_texel = vec4<f32>(1.0);
    if has_texture(FILM) {
        film_texel = sample_iridescence(slot_uv(FILM, in));
    }
    var film_thickness_texel = vec4<f32>(1.0);
    if has_texture(FILM_THICKNESS) {
        film_thickness_texel = sample_iridescence_thickness(slot_uv(FILM_THICKNESS, in));
    }
    var thickness_texel = vec4<f32>(1.0);
    if has_texture(THICKNESS) {
        thickness_texel = sample_thickness(slot_uv(THICKNESS, in));
    }
    var rough_diffuse_texel = vec4<f32>(1.0);
    if has_texture(ROUGH_DIFFUSE) {
        rough_diffuse_texel = sample_diffuse_roughness(slot_uv(ROUGH_DIFFUSE, in));
    }

    let base_color = vec4<f32>(
        field_vec3(F_BASE_COLOR, material.base_color.rgb, in),
        field_value(F_BASE_COLOR, 3u, material.base_color.a, in),
    );
    let base = surface_color(base_color, in) * base_texel;
    let mode = material.params.y;
    if ALPHA_MASK && base.a < field_value(F_ALPHA_CUTOFF, 0u, material.params.z, in) {
        discard;
    }
    let alpha = select(1.0, base.a, mode > 1.5);
    if POINTS_AND_LINES || material.params.w > 0.5 {
        return Shaded(base.rgb, alpha, vec3<f32>(0.0));
    }

    // The shading frame; a back face (drawn only for double-sided materials) is lit from its side.
    let side = select(-1.0, 1.0, front);
    var n = normalize(in.world_normal.xyz) * side;
    // The shadow maps are read off the surface along its normal: the vertices', or the
    // triangle's where it is drawn flat (a welded vertex's normal is its faces' mean).
    var offset_normal = normalize(in.world_normal.xyz);
    if FLAT_SHADED && dot(face, face) > 0.0 {
        let towards = globals.eye.xyz - in.world_position;
        n = normalize(select(-face, face, dot(face, towards) >= 0.0));
        offset_normal = n;
    }
    // The clear coat lies on the surface's own normal, or its own normal map's: not the
    // surface's normal map's.
    var coat_n = n;
    // The tangent frame, on the surface's own normal (zero where the primitive has no tangents).
    let tangent = select(vec3<f32>(0.0), in.world_tangent.xyz, TANGENTS);
    let has_frame = TANGENTS && dot(tangent, tangent) > 0.0;
    var t = vec3<f32>(0.0);
    var b = vec3<f32>(0.0);
    if has_frame {
        // Made on the front's normal, then turned with it: a back face's whole frame is
        // mirrored (as three.js mirrors it), not its bitangent alone, which would mirror the
        // normal map's slopes across the tangent.
        let front_n = n * side;
        let front_t = normalize(tangent - front_n * dot(front_n, tangent));
        t = front_t * side;
        b = cross(front_n, front_t) * in.world_tangent.w * side;
    }
    if COAT_NORMAL_MAPPED && has_texture(COAT_NORMAL) && has_frame {
        let scale = material.layers.w;
        let m = (coat_normal_texel.xyz * 2.0 - 1.0) * vec3<f32>(scale, scale, 1.0);
        coat_n = normalize(t * m.x + b * m.y + n * m.z);
    }
    if NORMAL_MAPPED && has_texture(NORMAL) && has_frame {
        let scale = field_value(F_NORMAL_SCALE, 0u, material.pbr.z, in);
        let m = (normal_texel.xyz * 2.0 - 1.0) * vec3<f32>(scale, scale, 1.0);
        n = normalize(t * m.x + b * m.y + n * m.z);
    }

    let metallic = clamp(field_value(F_METALLIC, 0u, material.pbr.x, in) * mr_texel.b, 0.0, 1.0);
    // Perceptual roughness, kept off zero (a mirror's highlight from a point-like sun is a
    // singularity), widened by how far the surface turns between pixels (above).
    let roughness =
        min(clamp(field_value(F_ROUGHNESS, 0u, material.pbr.y, in) * mr_texel.g, 0.045, 1.0) + geometry_roughness, 1.0);
    let occlusion = 1.0 + field_value(F_OCCLUSION, 0u, material.pbr.w, in) * (occlusion_texel.r - 1.0);
    // A thin-walled transmissive surface lets through, in place of its diffuse light, what is
    // behind it, tinted by its diffuse colour and less what its specular reflects (as three.js
    // draws it, without the blur of rough glass).
    var transmission = 0.0;
    if TRANSMISSIVE {
        transmission = clamp(material.layers.x * transmission_texel.r, 0.0, 1.0);
    }
    let tint = mix(base.rgb, vec3<f32>(0.0), metallic);
    let c_diff = tint * (1.0 - transmission);
    // A dielectric reflects min(F0 of its index x its specular colour, 1) x its strength facing
    // the viewer, its strength at grazing angles; a metal, its base colour and 1.
    let strength = material.specular.w * specular_texel.a;
    let dielectric_f0 = min(material.specular.rgb * specular_color_texel.rgb, vec3<f32>(1.0)) * strength;
    let f0 = mix(dielectric_f0, base.rgb, metallic);
    // (Not `mix`, which need not return exactly 1 between two ones.)
    let f90 = strength + (1.0 - strength) * metallic;

    let v = normalize(globals.eye.xyz - in.world_position);
    let n_dot_v = clamp(abs(dot(n, v)), 1e-4, 1.0);
    let a = roughness * roughness;
    let a2 = a * a;
    // GGX with single scattering loses the light that bounces between microfacets (more than
    // half of it on a rough metal seen face on): Turquin's compensation gives it back, tinted
    // by f0, as three.js and Filament do. The albedo in a white furnace (f0 = f90 = 1) is x + y.
    let albedo = directional_albedo(roughness, n_dot_v);
    let multiple = 1.0 + f0 * (1.0 / (albedo.x + albedo.y) - 1.0);
    var sun = globals.light_color.rgb;
    if SHADOWED {
        sun *= sun_visibility(in.world_position, offset_normal);
    }
    // The grain runs in the tangent frame, which a back face turns over (above) as three.js does.
    var grain = NO_GRAIN;
    if ANISOTROPIC && has_frame {
        grain = grain_of(t, b, anisotropy_texel.rgb, roughness);
    }
    // KHR_materials_iridescence: the film's Fresnel towards the view over the dielectric and
    // over the metal, and the facing reflectance that gives the same at this angle (what the
    // light from every direction is reflected by), as three.js makes them.
    var film = vec4<f32>(0.0);
    var dielectric_fr = dielectric_f0;
    var metal_fr = base.rgb;
    // Its thickness: the greatest without a texture, else from the least (0) to it (1).
    var film_thickness = material.iridescence.z;
    if has_texture(FILM_THICKNESS) {
        film_thickness = mix(material.iridescence.w, material.iridescence.z, film_thickness_texel.g);
    }
    if IRIDESCENT && film_thickness > 0.0 {
        let amount = clamp(material.iridescence.x * film_texel.r, 0.0, 1.0);
        let facing = clamp(dot(n, v), 0.0, 1.0);
        let over_dielectric = thin_film(material.iridescence.y, facing, film_thickness, dielectric_f0);
        let over_metal = thin_film(material.iridescence.y, facing, film_thickness, base.rgb);
        film = vec4<f32>(mix(over_dielectric, over_metal, metallic), amount);
        dielectric_fr = mix(dielectric_f0, schlick_to_f0(over_dielectric, facing), amount);
        metal_fr = mix(base.rgb, schlick_to_f0(over_metal, facing), amount);
    }
    // KHR_materials_diffuse_roughness: the diffuse layer's albedo and roughness, and its share
    // (neither metal nor let through); its albedo under light from every direction.
    let rough_factor = clamp(material.diffuse.x * rough_diffuse_texel.r, 0.0, 1.0);
    let rough = vec4<f32>(clamp(base.rgb, vec3<f32>(0.0), vec3<f32>(1.0)), rough_factor);
    let diffuse_share = (1.0 - metallic) * (1.0 - transmission);
    var diffuse_albedo = c_diff;
    if DIFFUSE_ROUGHNESS && rough.a > 0.0 {
        diffuse_albedo = rough_diffuse_albedo(rough, clamp(dot(n, v), 0.0, 1.0)) * diffuse_share;
    }
    let reflectance =
        Reflectance(c_diff, f0, f90, dielectric_f0, strength, a2, multiple, grain, film, rough, diffuse_share);
    var color = direct_light(n, v, globals.light_direction.xyz, reflectance) * sun;
    // KHR_materials_sheen: the back-scattering of cloth's fibres (Charlie's distribution), over
    // the material, which gives up to it what it reflects (as three.js composes them). Its
    // light: `sheen_light`.
    var sheen_color = vec3<f32>(0.0);
    var sheen_roughness = 1.0;
    var sheen_light = vec3<f32>(0.0);
    if SHEEN {
        sheen_color = clamp(material.sheen.rgb * sheen_color_texel.rgb, vec3<f32>(0.0), vec3<f32>(1.0));
        sheen_roughness = clamp(material.sheen.w * sheen_roughness_texel.a, 0.0001, 1.0);
        let lit = sheen(n, v, globals.light_direction.xyz, sheen_color, sheen_roughness);
        sheen_light = lit.rgb * sun;
        color *= lit.w;
    }
    // KHR_materials_clearcoat: a clear dielectric (glTF's 4 % facing reflectance, all of it at
    // grazing angles) of its own roughness over the material, which it dims by what it
    // reflects (as three.js and the extension compose them). Its light: `coat_light`.
    var coat = 0.0;
    var coat_roughness = 1.0;
    var coat_a2 = 1.0;
    var coat_light = vec3<f32>(0.0);
    if CLEARCOAT {
        coat = clamp(material.layers.y * coat_texel.r, 0.0, 1.0);
        coat_roughness =
            min(clamp(material.layers.z * coat_roughness_texel.g, 0.045, 1.0) + geometry_roughness, 1.0);
        coat_a2 = coat_roughness * coat_roughness * coat_roughness * coat_roughness;
        coat_light = clearcoat_light(coat_n, v, globals.light_direction.xyz, coat_a2) * sun;
    }

    // The point and spot lights of the fragment's cluster.
    if PUNCTUAL_LIGHTS && globals.light_count.x > 0u {
        let header = cluster_texel(cluster_of(in.clip_position.xy, in.world_position));
        let first = header >> COUNT_BITS;
        let count = header & ((1u << COUNT_BITS) - 1u);
        for (var k = 0u; k < count; k++) {
            let slot = first + k;
            let index = (cluster_texel(CLUSTERS + slot / 4u) >> (8u * (slot % 4u))) & 0xffu;
            let light = incoming(punctual_lights[index], in.world_position);
            // Most of a cluster lies outside a spot's cone or a light's range: no light, no BRDF.
            if any(light.irradiance > vec3<f32>(0.0)) {
                var lit = direct_light(n, v, light.l, reflectance) * light.irradiance;
                if SHEEN {
                    let sheen_lit = sheen(n, v, light.l, sheen_color, sheen_roughness);
                    sheen_light += sheen_lit.rgb * light.irradiance;
                    lit *= sheen_lit.w;
                }
                color += lit;
                if CLEARCOAT {
                    coat_light += clearcoat_light(coat_n, v, light.l, coat_a2) * light.irradiance;
                }
            }
        }
    }

    // Light from every direction: what the specular lobe reflects of it, once (`single`) and
    // after bouncing between microfacets (`scattered`, Fdez-Aguera's estimate, which needs the
    // light's irradiance), and what the diffuse layer keeps, less what the dielectric's lobe
    // reflects above it, as three.js (`computeMultiscattering`) and Filament share it out.
    // (A thin film's facing reflectances in place of the dielectric's and the metal's.)
    let dielectric_single = dielectric_fr * albedo.x + strength * albedo.y;
    let metal_single = metal_fr * albedo.x + albedo.y;
    let single = mix(dielectric_single, metal_single, metallic);
    let dielectric_scattered = multiply_scattered(dielectric_fr, dielectric_single, albedo);
    let metal_scattered = multiply_scattered(metal_fr, metal_single, albedo);
    let scattered = mix(dielectric_scattered, metal_scattered, metallic);
    let diffuse_kept = 1.0 - dielectric_single - dielectric_scattered;
    // Ambient (diffuse only), then the sky's light: its irradiance and its radiance
    // prefiltered for the roughness, in the reflected direction.
    var indirect = diffuse_albedo * diffuse_kept / PI * globals.ambient.rgb;
    // What a white Lambertian surface returns of the ambient and the sky: what the sheen
    // scatters, by its albedo.
    var diffuse_light = globals.ambient.rgb / PI;
    let sky = globals.ambient.w;
    if sky > 0.0 {
        // A grain bends the normal the sky is reflected about, across the grain, the more the
        // smoother and the stronger the grain (three.js's and Filament's bent normal).
        var sky_n = n;
        if ANISOTROPIC && grain.alpha > 0.0 {
            let bent = normalize(cross(cross(grain.across, v), grain.across));
            let bend = 1.0 - grain.strength * (1.0 - roughness);
            sky_n = normalize(mix(bent, n, bend * bend * bend * bend));
        }
        let r = reflect(-v, sky_n);
        let levels = f32(textureNumLevels(sky_texture) - 1u);
        let radiance = textureSampleLevel(sky_texture, sky_sampler, r, roughness * levels).rgb;
        let sky_diffuse = sky * sky_irradiance(n);
        indirect += (diffuse_albedo * diffuse_kept + scattered) * sky_diffuse + sky * radiance * single;
        diffuse_light += sky_diffuse;
        if CLEARCOAT {
            let coat_r = reflect(-v, coat_n);
            let coat_radiance = textureSampleLevel(sky_texture, sky_sampler, coat_r, coat_roughness * levels).rgb;
            let coat_albedo = directional_albedo(coat_roughness, clamp(dot(coat_n, v), 1e-4, 1.0));
            coat_light += sky * coat_radiance * (0.04 * coat_albedo.x + coat_albedo.y) * occlusion;
        }
    }
    if SHEEN {
        let sheen_albedo = sheen_directional_albedo(dot(n, v), sheen_roughness);
        indirect *= 1.0 - max(sheen_color.r, max(sheen_color.g, sheen_color.b)) * sheen_albedo;
        sheen_light += (diffuse_light * sheen_color * sheen_albedo) * occlusion;
    }
    color += indirect * occlusion;
    let emissive = field_vec3(F_EMISSIVE, material.emissive.rgb, in)
        * field_value(F_EMISSIVE_STRENGTH, 0u, material.emissive.w, in);
    color += emissive * emissive_texel.rgb;
    color += sheen_light;
    var transmitted = vec3<f32>(0.0);
    if TRANSMISSIVE {
        // Through a volume's glass (KHR_materials_volume), Beer's law over its thickness, which
        // is scaled as its mesh is in the world, as three.js keeps it (without the refraction's
        // offset).
        let kept = exp(-material.volume.rgb * thickness_texel.g * in.world_normal.w);
        transmitted = transmission * tint * (1.0 - single) * kept;
    }
    if CLEARCOAT {
        let dimmed = 1.0 - coat * (0.04 + 0.96 * fifth(1.0 - clamp(dot(coat_n, v), 0.0, 1.0)));
        color = color * dimmed + coat_light * coat;
        transmitted *= dimmed;
    }
    return Shaded(color, alpha, transmitted);
}

// What a clear coat of GGX roughness `a2` (alpha squared) on normal `n` returns towards `v`
// of a unit irradiance from `l`: glTF's specular lobe with a facing reflectance of 4 %.
fn clearcoat_light(n: vec3<f32>, v: vec3<f32>, l: vec3<f32>, a2: f32) -> vec3<f32> {
    let coat = vec3<f32>(0.04);
    let none = vec4<f32>(0.0);
    let reflectance = Reflectance(vec3<f32>(0.0), coat, 1.0, coat, 1.0, a2, vec3<f32>(1.0), NO_GRAIN, none, none, 0.0);
    return direct_light(n, v, l, reflectance);
}

// What a sheen of colour `color` and perceptual roughness `roughness` on normal `n` returns
// towards `v` of a unit irradiance from `l` (rgb: Charlie's distribution, Neubelt's visibility,
// times the cosine), and the share of that light it leaves the material under it (w: less the
// most it scatters of light towards `v` or from `l`), as three.js and Filament draw it.
fn sheen(n: vec3<f32>, v: vec3<f32>, l: vec3<f32>, color: vec3<f32>, roughness: f32) -> vec4<f32> {
    let h = normalize(l + v);
    let n_dot_l = clamp(dot(n, l), 0.0, 1.0);
    let n_dot_v = clamp(dot(n, v), 0.0, 1.0);
    let n_dot_h = clamp(dot(n, h), 0.0, 1.0);
    // Estevez and Kulla's "Production Friendly Microfacet Sheen BRDF".
    let inverse_alpha = 1.0 / (roughness * roughness);
    let sin2h = max(1.0 - n_dot_h * n_dot_h, 0.0078125);
    let distribution = (2.0 + inverse_alpha) * pow(sin2h, inverse_alpha * 0.5) / (2.0 * PI);
    let visibility = clamp(1.0 / (4.0 * (n_dot_l + n_dot_v - n_dot_l * n_dot_v)), 0.0, 1.0);
    let albedo = max(sheen_directional_albedo(n_dot_v, roughness), sheen_directional_albedo(n_dot_l, roughness));
    let kept = 1.0 - max(color.r, max(color.g, color.b)) * albedo;
    return vec4<f32>(color * distribution * visibility * n_dot_l, kept);
}

// The share of light from every direction a white sheen of perceptual roughness `roughness`
// returns towards a view at `n_dot_v` (three.js's fit of Charlie's sheen over the hemisphere).
fn sheen_directional_albedo(n_dot_v: f32, roughness: f32) -> f32 {
    let r2 = roughness * roughness;
    let r_inverse = 1.0 / (roughness + 0.1);
    let a = -1.9362 + 1.0678 * roughness + 0.4573 * r2 - 0.8469 * r_inverse;
    let b = -0.6014 + 0.5538 * roughness - 0.4670 * r2 - 0.1255 * r_inverse;
    return clamp(exp(a * clamp(n_dot_v, 0.0, 1.0) + b), 0.0, 1.0);
}

// The shadow pass's alpha test: an alpha-masked material casts no shadow where its mask cuts
// it out (opaque ones draw no fragment stage at all).
@fragment
fn fs_shadow_mask(in: VertexOutput) {
    let texel = sample_base_color(slot_uv(BASE_COLOR, in));
    let alpha = field_value(F_BASE_COLOR, 3u, material.base_color.a, in) * vertex_color(in).a * texel.a;
    if alpha < field_value(F_ALPHA_CUTOFF, 0u, material.params.z, in) {
        discard;
    }
}

// The shading before the material model, for `cargo xtask bench render`'s baseline: the base
// colour under Lambert's law, both faces lit alike.
@fragment
fn fs_lambert(in: VertexOutput) -> @location(0) vec4<f32> {
    return lambert(in);
}

@fragment
fn fs_lambert_untextured(in: UntexturedOutput) -> @location(0) vec4<f32> {
    return lambert(from_untextured(in));
}

@fragment
fn fs_lambert_plain(in: PlainOutput) -> @location(0) vec4<f32> {
    return lambert(from_plain(in));
}

@fragment
fn fs_lambert_faceted(in: FacetedOutput) -> @location(0) vec4<f32> {
    return lambert(from_faceted(in));
}

fn lambert(in: VertexOutput) -> vec4<f32> {
    var texel = vec4<f32>(1.0);
    if has_texture(BASE_COLOR) {
        texel = sample_base_color(slot_uv(BASE_COLOR, in));
    }
    let albedo = surface_color(material.base_color, in) * texel;
    if POINTS_AND_LINES {
        return albedo;
    }
    // A flat-shaded draw's normal is its triangle's, as `shade` takes it.
    var n = normalize(in.world_normal.xyz);
    if FLAT_SHADED {
        let face = triangle_normal(in.world_position);
        if dot(face, face) > 0.0 {
            n = normalize(face);
        }
    }
    let diffuse = abs(dot(n, globals.light_direction.xyz));
    let lit = albedo.rgb * (globals.ambient.rgb + globals.light_color.rgb * diffuse);
    return vec4<f32>(lit, albedo.a);
}

// Linear sRGB (Rec. 709) from CIE XYZ.
const XYZ_TO_REC709: mat3x3<f32> = mat3x3<f32>(
    vec3<f32>(3.2404542, -0.9692660, 0.0556434),
    vec3<f32>(-1.5371385, 1.8760108, -0.2040259),
    vec3<f32>(-0.4985314, 0.0415560, 1.0572252),
);

// What a thin film of index of refraction `film_ior` and `thickness` nanometres, in air over a
// base of facing reflectance `base_f0`, reflects towards a view at `cos_view` to the normal:
// Belcour and Barla's "A Practical Extension to Microfacet Theory for the Modeling of Varying
// Iridescence" (2017), the interference of its first two orders summed over the eye's
// sensitivities, as KHR_materials_iridescence and three.js write it.
fn thin_film(film_ior: f32, cos_view: f32, thickness: f32, base_f0: vec3<f32>) -> vec3<f32> {
    // The film fades to air as it thins to nothing.
    let ior = mix(1.0, film_ior, smoothstep(0.0, 0.03, thickness));
    let cos_film_sq = 1.0 - (1.0 - cos_view * cos_view) / (ior * ior);
    if cos_film_sq < 0.0 {
        // Total internal reflection.
        return vec3<f32>(1.0);
    }
    let cos_film = sqrt(cos_film_sq);
    // Air to film, then film to base (its index from its facing reflectance, kept off 1).
    let r0 = (ior - 1.0) * (ior - 1.0) / ((ior + 1.0) * (ior + 1.0));
    let r12 = r0 + (1.0 - r0) * fifth(1.0 - cos_view);
    let t121 = 1.0 - r12;
    let phi12 = select(0.0, PI, ior < 1.0);
    let phi21 = PI - phi12;
    let root = sqrt(clamp(base_f0, vec3<f32>(0.0), vec3<f32>(0.9999)));
    let base_ior = (1.0 + root) / (1.0 - root);
    let r1 = (base_ior - ior) * (base_ior - ior) / ((base_ior + ior) * (base_ior + ior));
    let r23 = r1 + (1.0 - r1) * fifth(1.0 - cos_film);
    let phi23 = select(vec3<f32>(0.0), vec3<f32>(PI), base_ior < vec3<f32>(ior));
    // The optical path difference and the phase shifts.
    let opd = 2.0 * ior * thickness * cos_film;
    let phi = vec3<f32>(phi21) + phi23;
    let r123 = clamp(r12 * r23, vec3<f32>(1e-5), vec3<f32>(0.9999));
    let rs = t121 * t121 * r23 / (1.0 - r123);
    // The mean reflectance, then the first two orders of interference.
    var reflected = r12 + rs;
    var cm = rs - t121;
    for (var m = 1; m <= 2; m++) {
        cm *= sqrt(r123);
        reflected += cm * 2.0 * film_sensitivity(f32(m) * opd, f32(m) * phi);
    }
    // Colours out of the gamut come out negative: none.
    return max(reflected, vec3<f32>(0.0));
}

// The eye's response, linear sRGB, to an interference of optical path difference `opd`
// nanometres and phase shift `shift`: XYZ's colour matching functions as Gaussians in Fourier
// space (Belcour and Barla's fit).
fn film_sensitivity(opd: f32, shift: vec3<f32>) -> vec3<f32> {
    let phase = 2.0 * PI * opd * 1.0e-9;
    let value = vec3<f32>(5.4856e-13, 4.4201e-13, 5.2481e-13);
    let position = vec3<f32>(1.6810e+06, 1.7953e+06, 2.2084e+06);
    let variance = vec3<f32>(4.3278e+09, 9.3046e+09, 6.6121e+09);
    var xyz = value * sqrt(2.0 * PI * variance) * cos(position * phase + shift) * exp(-phase * phase * variance);
    xyz.x += 9.7470e-14 * sqrt(2.0 * PI * 4.5282e+09) * cos(2.2399e+06 * phase + shift.x)
        * exp(-4.5282e+09 * phase * phase);
    return XYZ_TO_REC709 * (xyz / 1.0685e-7);
}

// The facing reflectance whose Schlick Fresnel at `cos_view` is `fresnel` (towards 1 at grazing
// angles), as three.js estimates a film's.
fn schlick_to_f0(fresnel: vec3<f32>, cos_view: f32) -> vec3<f32> {
    let x5 = min(fifth(clamp(1.0 - cos_view, 0.0, 1.0)), 0.9999);
    return (fresnel - x5) / (1.0 - x5);
}

// `x` to the fifth, as products (a `pow` is an exp2 of a log2, undefined at 0).
fn fifth(x: f32) -> f32 {
    let x2 = x * x;
    return x2 * x2 * x;
}

// A rough diffuse's BRDF (without the cosine) for albedo `rough.rgb` and roughness `rough.a`
// on normal `n`, from `l` towards `v`: Portsmouth et al.'s "EON: A Practical Energy-Preserving
// Rough Diffuse BRDF" (2025), its Fujii Oren-Nayar lobe and the light it scatters more than
// once, as KHR_materials_diffuse_roughness and three.js write it.
fn rough_diffuse(n: vec3<f32>, v: vec3<f32>, l: vec3<f32>, rough: vec4<f32>) -> vec3<f32> {
    let rho = rough.rgb;
    let r = rough.a;
    let n_dot_l = clamp(dot(n, l), 0.0, 1.0);
    let n_dot_v = clamp(dot(n, v), 0.0, 1.0);
    let s = dot(l, v) - n_dot_l * n_dot_v;
    let s_over_t = select(s, s / max(max(n_dot_l, n_dot_v), 1e-7), s > 0.0);
    let a = fon_scale(r);
    let single = rho / PI * a * (1.0 + r * s_over_t);
    let average = fon_average_albedo(r, a);
    let multi_rho = rho * rho * average / max(vec3<f32>(1e-7), 1.0 - rho * (1.0 - average));
    let multi = multi_rho / PI * max(1e-7, 1.0 - fon_albedo(n_dot_v, r, a)) * max(1e-7, 1.0 - fon_albedo(n_dot_l, r, a))
        / max(1e-7, 1.0 - average);
    return single + multi;
}

// What a rough diffuse of albedo `rough.rgb` and roughness `rough.a` reflects, towards a view at
// `n_dot_v`, of light from every direction (EON's directional albedo).
fn rough_diffuse_albedo(rough: vec4<f32>, n_dot_v: f32) -> vec3<f32> {
    let rho = rough.rgb;
    let a = fon_scale(rough.a);
    let directional = fon_albedo(n_dot_v, rough.a, a);
    let average = fon_average_albedo(rough.a, a);
    let multi_rho = rho * rho * average / max(vec3<f32>(1e-7), 1.0 - rho * (1.0 - average));
    return rho * directional + multi_rho * (1.0 - directional);
}

// Fujii's Oren-Nayar: its scale for roughness `r`, its directional albedo towards `mu` (a
// polynomial fit) and its mean albedo.
fn fon_scale(r: f32) -> f32 {
    return 1.0 / (1.0 + (0.5 - 2.0 / (3.0 * PI)) * r);
}

fn fon_albedo(mu: f32, r: f32, a: f32) -> f32 {
    let m = 1.0 - mu;
    let g_over_pi = m * (0.0571085289 + m * (0.491881867 + m * (-0.332181442 + m * 0.0714429953)));
    return a * (1.0 + r * g_over_pi);
}

fn fon_average_albedo(r: f32, a: f32) -> f32 {
    return a * (1.0 + (2.0 / 3.0 - 28.0 / (15.0 * PI)) * r);
}
