//! The views an impostor is fitted to (`impostor.rs`): the model's triangles at rest, each in
//! its own material or a material variant's, drawn on the CPU orthographically along each of
//! its axes from both sides into [`CELLS`] x [`CELLS`] depth buffers, each cell keeping the
//! nearest surface's look (base colour factor, vertex colour, base colour texture; an alpha
//! mask honoured; what a see-through surface lets through shows what is behind it).
//!
//! A material variant that draws parts in other materials, each covering what is behind it in
//! both (opaque, not transmissive), sees the same surfaces: its views are the model's own with
//! those parts' cells shaded anew ([`Views::in_variant`]), each cell keeping which triangle it
//! sees and where, rather than drawn again (about a fifth of the time).

use glam::{Vec2, Vec3, Vec4};
use props_anim::material::{AlphaMode, Image, Material, TextureRef};
use props_anim::{JointMatrix, Model, Primitive, Topology};

/// Cells across each view, each way.
const CELLS: usize = 128;

/// A triangle of the model at rest, in the model's space, with what shades it.
pub(crate) struct Triangle<'a> {
    pub positions: [Vec3; 3],
    /// How far morph targets can move each vertex from there.
    pub reach: [f32; 3],
    shading: Shading<'a>,
}

/// Which triangle it is: mesh instance `slot`'s primitive `primitive`, its indices from
/// `first`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Source {
    slot: u32,
    primitive: u32,
    first: u32,
}

/// What shades a triangle.
struct Shading<'a> {
    source: Source,
    colors: [Vec4; 3],
    /// UV channels 0 and 1 of each vertex.
    uvs: [[Vec2; 3]; 2],
    /// Its material's index and the material (`None`: glTF's default).
    material: Option<(u32, &'a Material)>,
}

impl<'a> Shading<'a> {
    /// The shading of the triangle at `source`, of `primitive`, in `material`.
    fn of(primitive: &Primitive, material: Option<(u32, &'a Material)>, source: Source) -> Option<Self> {
        let first = source.first as usize;
        let t = primitive.indices.get(first..first + 3)?;
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| i as usize);
        let uv = |uvs: &[Vec2], i: usize| uvs.get(i).copied().unwrap_or_default();
        Some(Self {
            source,
            colors: [a, b, c].map(|i| primitive.colors.get(i).copied().unwrap_or(Vec4::ONE)),
            uvs: [&primitive.uv0, &primitive.uv1].map(|uvs| [a, b, c].map(|i| uv(uvs, i))),
            material,
        })
    }
}

/// Every triangle every mesh instance shown at rest draws, one at a time (a copy of them all
/// could take several times the model's indices). A part the file hides
/// (`KHR_node_visibility`) is left out, as it is drawn.
#[derive(Clone, Copy)]
pub(crate) struct Triangles<'a> {
    pub model: &'a Model,
    /// Every vertex posed at rest, as [`props_anim::skinning::model_positions`] lists them.
    pub positions: &'a [Vec3],
    /// How far morph targets can move each of them (empty: nowhere).
    pub reach: &'a [f32],
    /// The palette at rest: its visibilities.
    pub palette: &'a [JointMatrix],
    /// The material variant whose materials they are drawn in (`None`: their own).
    pub material_variant: Option<u8>,
}

impl<'a> Triangles<'a> {
    /// The material mesh instance `slot`'s primitive `p` is drawn in, in their variant, and
    /// the primitive.
    fn material(&self, slot: usize, p: usize) -> (Option<(u32, &'a Material)>, Option<&'a Primitive>) {
        let model = self.model;
        let Some(mesh) = model.instances().get(slot).map(|instance| instance.mesh as usize) else {
            return (None, None);
        };
        let material = model.primitive_material(mesh, p, self.material_variant);
        let primitive = model.meshes().get(mesh).and_then(|m| m.primitives.get(p));
        (material.and_then(|m| Some((m, model.materials().get(m as usize)?))), primitive)
    }

    pub(crate) fn for_each(&self, mut f: impl FnMut(&Triangle)) {
        let model = self.model;
        let mut first = 0;
        for (slot, instance) in model.instances().iter().enumerate() {
            let shown = model.shown(self.palette, slot);
            for (p, primitive) in model.meshes()[instance.mesh as usize].primitives.iter().enumerate() {
                let range = first..first + primitive.vertex_count();
                let posed = self.positions.get(range.clone()).unwrap_or_default();
                let reach = self.reach.get(range).unwrap_or_default();
                first += primitive.vertex_count();
                if !shown || primitive.topology != Topology::Triangles || posed.len() != primitive.vertex_count() {
                    continue;
                }
                let (material, _) = self.material(slot, p);
                for (k, t) in primitive.indices.chunks_exact(3).enumerate() {
                    let [a, b, c] = [t[0], t[1], t[2]].map(|i| i as usize);
                    let source = Source { slot: slot as u32, primitive: p as u32, first: 3 * k as u32 };
                    let Some(shading) = Shading::of(primitive, material, source) else { continue };
                    f(&Triangle {
                        positions: [posed[a], posed[b], posed[c]],
                        reach: [a, b, c].map(|i| reach.get(i).copied().unwrap_or(0.0)),
                        shading,
                    });
                }
            }
        }
    }
}

/// What one view's cell sees: the nearest surface's depth along the view's axis (NaN: none),
/// its look ([`Surface`]) and normal (towards the viewer), and where it is: on which triangle,
/// at which barycentric coordinates.
#[derive(Clone, Copy)]
struct Cell {
    depth: f32,
    surface: Surface,
    normal: Vec3,
    source: Source,
    at: Vec3,
}

const EMPTY: Cell = Cell {
    depth: f32::NAN,
    surface: Surface::NONE,
    normal: Vec3::ZERO,
    source: Source { slot: 0, primitive: 0, first: 0 },
    at: Vec3::ZERO,
};

/// A surface's look at a point: linear colour, metalness and roughness, linear emission, and
/// its material.
#[derive(Clone, Copy, Debug, Default)]
struct Surface {
    color: Vec3,
    metal_rough: Vec2,
    emissive: Vec3,
    material: Option<u32>,
}

impl Surface {
    const NONE: Self = Self { color: Vec3::ZERO, metal_rough: Vec2::ZERO, emissive: Vec3::ZERO, material: None };
}

/// The six views: per axis, its grid and the views from its positive and negative side.
#[derive(Clone)]
pub(crate) struct Views {
    axes: [AxisViews; 3],
}

#[derive(Clone)]
struct AxisViews {
    /// A cell's sides along the other two axes (in order: y z, x z, x y); [`CELLS`] of them
    /// span the bounds.
    cell: Vec2,
    /// Seen from the positive side (the nearest surface has the largest coordinate), then the
    /// negative.
    sides: [Vec<Cell>; 2],
}

/// The other two axes of axis `a`.
pub(crate) fn others(a: usize) -> (usize, usize) {
    [(1, 2), (0, 2), (0, 1)][a]
}

impl Views {
    /// Draws `triangles` (in `bounds`) into the six views; `None` where they would visit more
    /// cells than are left in `budget` (it is charged the cells visited).
    pub(crate) fn draw(triangles: &Triangles<'_>, (min, max): (Vec3, Vec3), budget: &mut u64) -> Option<Self> {
        let extent = max - min;
        // A flat model's zero extent gets cells of a millionth of its largest: all in the first.
        let side = |e: f32| (e / CELLS as f32).max(extent.max_element() * 1e-6);
        let mut visits = 0u64;
        let mut axes = Vec::with_capacity(3);
        for a in 0..3 {
            let (u, v) = others(a);
            let cell = Vec2::new(side(extent[u]), side(extent[v]));
            let mut view = AxisViews { cell, sides: [vec![EMPTY; CELLS * CELLS], vec![EMPTY; CELLS * CELLS]] };
            triangles.for_each(|triangle| {
                if visits <= *budget {
                    visits += view.draw(triangles.model.images(), triangle, (a, min));
                }
            });
            if visits > *budget {
                return None;
            }
            axes.push(view);
        }
        *budget -= visits;
        Some(Self { axes: axes.try_into().ok()? })
    }

    /// These views (of the model in its own materials) as `triangles`' material variant sees
    /// them, where each part it draws in another material covers what is behind it in both
    /// (opaque, not transmissive: so the same surfaces are seen): each cell on such a part
    /// shaded anew in the variant's material, in `into` (made once, its cells reused for each
    /// variant after). `None` where one does not (the views must be drawn again,
    /// [`Views::draw`]).
    pub(crate) fn in_variant<'v>(&self, triangles: &Triangles<'_>, into: &'v mut Option<Self>) -> Option<&'v Self> {
        let own = Triangles { material_variant: None, ..*triangles };
        let covers = |material: Option<(u32, &Material)>| {
            material.is_none_or(|(_, m)| m.alpha_mode == AlphaMode::Opaque && !m.is_see_through())
        };
        let model = triangles.model;
        // Per mesh instance and primitive, the variant's material and the primitive where
        // it is not its own.
        let mut changed = Vec::with_capacity(model.instances().len());
        for (slot, instance) in model.instances().iter().enumerate() {
            let primitives = model.meshes()[instance.mesh as usize].primitives.len();
            let mut parts = Vec::with_capacity(primitives);
            for p in 0..primitives {
                let ((was, _), (now, primitive)) = (own.material(slot, p), triangles.material(slot, p));
                let other = was.map(|m| m.0) != now.map(|m| m.0);
                if other && !(covers(was) && covers(now)) {
                    return None;
                }
                parts.push(other.then_some((now, primitive)));
            }
            changed.push(parts);
        }
        let views = match into {
            // Into its cells, without allocating again.
            Some(views) => {
                for (to, from) in views.axes.iter_mut().zip(&self.axes) {
                    to.cell = from.cell;
                    to.sides.iter_mut().zip(&from.sides).for_each(|(to, from)| to.copy_from_slice(from));
                }
                views
            }
            None => into.insert(self.clone()),
        };
        let cells = views.axes.iter_mut().flat_map(|axis| axis.sides.iter_mut().flatten());
        for cell in cells.filter(|c| !c.depth.is_nan()) {
            let Source { slot, primitive, .. } = cell.source;
            if let Some(&Some((material, primitive))) = changed[slot as usize].get(primitive as usize) {
                let shading = Shading::of(primitive?, material, cell.source)?;
                cell.surface = surface(model.images(), &shading, cell.at)?;
            }
        }
        Some(views)
    }

    /// The box's material as the views see `model` (`paint` says which of its materials are
    /// paint): their mean metalness and roughness, the paint's colour (white without), and
    /// either the emission of material `emission_of` (whichever of its colour and strength a
    /// clip drives, the other carries the share it covers) or the views' mean emission.
    pub(crate) fn material(&self, model: &Model, paint: &[bool], emission_of: Option<u32>) -> Material {
        let means = self.means();
        let (emissive_factor, emissive_strength) = match emission_of.and_then(|m| model.materials().get(m as usize)) {
            Some(source) => {
                let share = self.share_of(emission_of);
                (source.emissive_factor.map(|c| c * share), source.emissive_strength * share)
            }
            None => {
                let strength = means.emissive.max_element().max(1.0);
                ((means.emissive / strength).to_array(), strength)
            }
        };
        let paint_color = self.paint_color(paint);
        Material {
            name: Some(if paint_color.is_some() { "painted impostor" } else { "impostor" }.to_owned()),
            base_color_factor: paint_color.unwrap_or(Vec3::ONE).extend(1.0).to_array(),
            metallic_factor: means.metal_rough.x,
            roughness_factor: means.metal_rough.y,
            emissive_factor,
            emissive_strength,
            ..Material::default()
        }
    }

    /// The cells each face's view covers (+x, -x, +y, -y, +z, -z).
    fn covered(&self, face: usize) -> impl Iterator<Item = &Cell> {
        self.axes[face / 2].sides[face % 2].iter().filter(|c| !c.depth.is_nan())
    }

    /// The box's centre and full extents: each axis's extent such that every side's face has
    /// the area the model covers seen from there (a share `r` of the bounds' face: the box's
    /// shares along the other two multiply to it), at most the bounds'; centred on the
    /// covered cells, inside the bounds.
    pub(crate) fn fit(&self, (min, max): (Vec3, Vec3)) -> (Vec3, Vec3) {
        let extent = max - min;
        let cells = (CELLS * CELLS) as f32;
        let r = Vec3::from_array(std::array::from_fn(|a| self.covered(2 * a).count() as f32 / cells));
        let flat = extent.cmple(Vec3::splat(extent.max_element() * 1e-4));
        let mut scale = Vec3::ONE;
        for a in 0..3 {
            let (u, v) = others(a);
            scale[a] = if flat.test(a) {
                1.0
            } else if flat.test(u) {
                r[u].sqrt()
            } else if flat.test(v) {
                r[v].sqrt()
            } else {
                (r[u] * r[v] / r[a].max(1e-6)).sqrt().min(1.0)
            };
        }
        let extents = extent * scale;
        // Each axis's centre: the mean of the covered cells' centres in the views across it.
        let (mut sum, mut count) = (Vec3::ZERO, Vec3::ZERO);
        for (a, view) in self.axes.iter().enumerate() {
            let (u, v) = others(a);
            for (k, _) in view.sides[0].iter().enumerate().filter(|(_, c)| !c.depth.is_nan()) {
                let (i, j) = (k % CELLS, k / CELLS);
                sum[u] += min[u] + (i as f32 + 0.5) * view.cell.x;
                sum[v] += min[v] + (j as f32 + 0.5) * view.cell.y;
                count[u] += 1.0;
                count[v] += 1.0;
            }
        }
        let mean = (sum / count.max(Vec3::ONE)).clamp(min, max);
        (mean.clamp(min + extents * 0.5, max - extents * 0.5), extents)
    }

    /// Each face's colour and normal, +x, -x, +y, -y, +z, -z: the means of what its view sees
    /// (a normal pointing out of the face; its axis where they do not), the colour's alpha the
    /// share of it whose material is `paint` says is paint.
    pub(crate) fn faces(&self, paint: &[bool]) -> [(Vec4, Vec3); 6] {
        std::array::from_fn(|f| {
            let axis = Vec3::AXES[f / 2] * if f % 2 == 0 { 1.0 } else { -1.0 };
            let (color, normal, n) = self.covered(f).fold((Vec4::ZERO, Vec3::ZERO, 0.0), |(c, m, n), cell| {
                let painted = is_paint(paint, cell.surface.material);
                (c + cell.surface.color.extend(f32::from(u8::from(painted))), m + cell.normal, n + 1.0)
            });
            let normal = normal.try_normalize().filter(|m| m.dot(axis) > 0.0).unwrap_or(axis);
            (if n > 0.0 { color / n } else { Vec4::new(0.5, 0.5, 0.5, 0.0) }, normal)
        })
    }

    /// The mean colour of the paint every view sees (`paint` says which materials are), if
    /// any sees some.
    fn paint_color(&self, paint: &[bool]) -> Option<Vec3> {
        let (sum, n) = (0..6)
            .flat_map(|f| self.covered(f))
            .filter(|c| is_paint(paint, c.surface.material))
            .fold((Vec3::ZERO, 0.0), |(sum, n), c| (sum + c.surface.color, n + 1.0));
        (n > 0.0).then(|| sum / n)
    }

    /// The mean look of what every view sees (a rough dielectric where none sees anything).
    fn means(&self) -> Surface {
        let cells = (0..6).flat_map(|f| self.covered(f));
        let (sum, n) = cells.fold((Surface::NONE, 0.0), |(s, n), c| {
            let c = c.surface;
            (
                Surface {
                    color: s.color + c.color,
                    metal_rough: s.metal_rough + c.metal_rough,
                    emissive: s.emissive + c.emissive,
                    material: None,
                },
                n + 1.0,
            )
        });
        if n == 0.0 {
            return Surface { color: Vec3::ONE, metal_rough: Vec2::new(0.0, 1.0), ..Surface::NONE };
        }
        Surface { color: sum.color / n, metal_rough: sum.metal_rough / n, emissive: sum.emissive / n, material: None }
    }

    /// The share of what every view sees that is of material `material`.
    fn share_of(&self, material: Option<u32>) -> f32 {
        let (of, all) = (0..6)
            .flat_map(|f| self.covered(f))
            .fold((0.0, 0.0), |(of, all), c| (of + f32::from(u8::from(c.surface.material == material)), all + 1.0));
        if all > 0.0 { of / all } else { 0.0 }
    }
}

impl AxisViews {
    /// Draws `triangle` into both views of axis `a` (the bounds start at `min`); returns the
    /// cells it visited.
    fn draw(&mut self, images: &[Image], triangle: &Triangle<'_>, (a, min): (usize, Vec3)) -> u64 {
        let (u, v) = others(a);
        let to_grid = |p: Vec3| Vec2::new(p[u] - min[u], p[v] - min[v]) / self.cell;
        let [p0, p1, p2] = triangle.positions.map(to_grid);
        let area = (p1 - p0).perp_dot(p2 - p0);
        if area.abs() <= f32::EPSILON || !area.is_finite() {
            return 0;
        }
        let lo = p0.min(p1).min(p2).floor().max(Vec2::ZERO);
        let hi = p0.max(p1).max(p2).ceil().min(Vec2::splat(CELLS as f32));
        let (i0, j0, i1, j1) = (lo.x as usize, lo.y as usize, hi.x as usize, hi.y as usize);
        let normal = (triangle.positions[1] - triangle.positions[0])
            .cross(triangle.positions[2] - triangle.positions[0])
            .normalize_or_zero();
        let mut visits = 0;
        for j in j0..j1 {
            for i in i0..i1 {
                visits += 1;
                let q = Vec2::new(i as f32 + 0.5, j as f32 + 0.5);
                let b = Vec3::new((p2 - p1).perp_dot(q - p1), (p0 - p2).perp_dot(q - p2), (p1 - p0).perp_dot(q - p0))
                    / area;
                if b.min_element() < 0.0 {
                    continue;
                }
                let depth = b.dot(Vec3::from_array(triangle.positions.map(|p| p[a])));
                let k = j * CELLS + i;
                let nearer = |cell: &Cell, side: usize| {
                    cell.depth.is_nan() || if side == 0 { depth > cell.depth } else { depth < cell.depth }
                };
                if !nearer(&self.sides[0][k], 0) && !nearer(&self.sides[1][k], 1) {
                    continue;
                }
                let Some(surface) = surface(images, &triangle.shading, b) else { continue };
                for side in 0..2 {
                    if nearer(&self.sides[side][k], side) {
                        let toward = if side == 0 { 1.0 } else { -1.0 };
                        let normal = if normal[a] * toward < 0.0 { -normal } else { normal };
                        self.sides[side][k] = Cell { depth, surface, normal, source: triangle.shading.source, at: b };
                    }
                }
            }
        }
        visits
    }
}

/// The look of `triangle` at barycentric `b`; `None` where it lets what is behind through:
/// its alpha below a mask's cutoff, or its coverage (alpha, less what a transmissive one lets
/// through) under half for a see-through one.
fn surface(images: &[Image], triangle: &Shading<'_>, b: Vec3) -> Option<Surface> {
    let default;
    let material = match triangle.material {
        Some((_, material)) => material,
        None => {
            default = Material::default();
            &default
        }
    };
    let vertex = triangle.colors[0] * b.x + triangle.colors[1] * b.y + triangle.colors[2] * b.z;
    let texel = |texture: Option<TextureRef>| {
        texture.map_or(Vec4::ONE, |t| {
            let [u0, u1, u2] = triangle.uvs[usize::from(t.channel == 1)];
            sample(images, &t, u0 * b.x + u1 * b.y + u2 * b.z)
        })
    };
    let color = Vec4::from_array(material.base_color_factor) * vertex * texel(material.base_color_texture);
    let transmission = material.transmission_factor * texel(material.transmission_texture).x;
    let coverage = color.w * (1.0 - transmission.clamp(0.0, 1.0));
    let cutoff = match material.alpha_mode {
        AlphaMode::Mask { cutoff } => cutoff,
        _ if material.is_see_through() => 0.5,
        AlphaMode::Opaque | AlphaMode::Blend => 0.0,
    };
    let emissive = Vec3::from_array(material.emissive_factor)
        * material.emissive_strength
        * texel(material.emissive_texture).truncate();
    (coverage >= cutoff).then_some(Surface {
        color: color.truncate(),
        metal_rough: Vec2::new(material.metallic_factor, material.roughness_factor),
        emissive,
        material: triangle.material.map(|(m, _)| m),
    })
}

/// Each 8-bit sRGB value made linear.
static SRGB_TO_LINEAR: std::sync::LazyLock<[f32; 256]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|c| {
        let c = c as f32 / 255.0;
        if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
    })
});

/// Texture `texture` at `uv` (transformed, repeated, nearest texel), its colour made linear.
fn sample(images: &[Image], texture: &TextureRef, uv: Vec2) -> Vec4 {
    let Some(image) = images.get(texture.image as usize).filter(|i| i.width > 0 && i.height > 0) else {
        return Vec4::ONE;
    };
    let [r0, r1] = texture.transform.rows();
    let uv = Vec2::new(r0[0] * uv.x + r0[1] * uv.y + r0[2], r1[0] * uv.x + r1[1] * uv.y + r1[2]);
    let at = |t: f32, n: u32| ((t.rem_euclid(1.0) * n as f32) as u32).min(n - 1) as usize;
    let k = 4 * (at(uv.y, image.height) * image.width as usize + at(uv.x, image.width));
    let Some(texel) = image.rgba8.get(k..k + 4) else { return Vec4::ONE };
    let linear = |c: u8| SRGB_TO_LINEAR[usize::from(c)];
    Vec4::new(linear(texel[0]), linear(texel[1]), linear(texel[2]), f32::from(texel[3]) / 255.0)
}

/// Whether material `material` (`None`: the default material) is paint, as `paint` says.
fn is_paint(paint: &[bool], material: Option<u32>) -> bool {
    material.is_some_and(|m| paint.get(m as usize).copied().unwrap_or(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What an impostor's views see of a surface: glass (transmissive) and a blended pane show
    /// what is behind them where they cover less than half; opaque paint is seen.
    #[test]
    fn see_through_surfaces_show_what_is_behind_them() {
        let seen = |material: &Material| {
            let shading = Shading {
                source: Source::default(),
                colors: [Vec4::ONE; 3],
                uvs: [[Vec2::ZERO; 3]; 2],
                material: Some((0, material)),
            };
            surface(&[], &shading, Vec3::splat(1.0 / 3.0)).is_some()
        };
        let paint = Material::matte("paint", [1.0; 4]);
        assert!(seen(&paint));
        assert!(!seen(&Material { transmission_factor: 1.0, ..paint.clone() }), "clear glass");
        assert!(seen(&Material { transmission_factor: 0.4, ..paint.clone() }), "mostly paint");
        let pane = Material { alpha_mode: AlphaMode::Blend, ..Material::matte("pane", [1.0, 1.0, 1.0, 0.3]) };
        assert!(!seen(&pane));
        assert!(seen(&Material { base_color_factor: [1.0; 4], ..pane }));
    }
}
