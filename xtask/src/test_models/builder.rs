//! [`GltfBuilder`]: assembles one glTF 2.0 asset (JSON + one binary buffer) from typed data.
//!
//! Every binary blob is appended to a single buffer at a 4-byte aligned offset and gets its own
//! bufferView, so accessor and bufferView offsets are always aligned to the component size.
//! Vertex data gets `target` 34962, indices 34963, everything else (animation, inverse bind
//! matrices, sparse data) no target. `min`/`max` are written where the spec requires them
//! (POSITION, animation inputs) and computed from the final data, sparse substitution included.
//!
//! Over 600 lines: one builder whose methods each add one kind of glTF object (buffers,
//! accessors, sparse data, nodes, meshes, skins, animations, materials) to the same JSON and
//! buffer; test tooling, not shipped.

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail, ensure};
use base64::Engine as _;
use serde_json::{Value, json};

use super::math::{self, Mat4, Quat};

/// Default value of `asset.generator` (see [`GltfBuilder::set_generator`]).
const GENERATOR: &str = "props xtask gen-test-models";

/// A glTF accessor component type that can be written little-endian into the buffer.
pub trait Component: Copy {
    /// The glTF `componentType` code.
    const CODE: u32;
    /// Size in bytes.
    const SIZE: usize;
    /// Appends the little-endian bytes of `self`.
    fn write(self, out: &mut Vec<u8>);
    /// The stored (not dequantized) value, for `min`/`max`.
    fn to_f64(self) -> f64;
}

/// Implements [`Component`] for a primitive number type.
macro_rules! component {
    ($($ty:ty => $code:expr),* $(,)?) => {$(
        impl Component for $ty {
            const CODE: u32 = $code;
            const SIZE: usize = size_of::<$ty>();
            fn write(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn to_f64(self) -> f64 {
                f64::from(self)
            }
        }
    )*};
}

component!(i8 => 5120, u8 => 5121, i16 => 5122, u16 => 5123, u32 => 5125, f32 => 5126);

/// glTF accessor `type` for elements of `n` components.
fn accessor_type(n: usize) -> Result<&'static str> {
    Ok(match n {
        1 => "SCALAR",
        2 => "VEC2",
        3 => "VEC3",
        4 => "VEC4",
        9 => "MAT3",
        16 => "MAT4",
        _ => bail!("no glTF accessor type has {n} components"),
    })
}

/// A number for the JSON: the shortest decimal that reads back as the same `f32`.
pub fn num(x: f32) -> Value {
    let short: f64 = x.to_string().parse().unwrap_or(f64::from(x));
    json!(short)
}

/// A JSON array of [`num`]s.
pub fn nums(xs: &[f32]) -> Value {
    Value::Array(xs.iter().map(|&x| num(x)).collect())
}

/// One accessor's data, type-erased: packed element bytes plus the stored values.
#[derive(Clone, Debug)]
pub struct Column {
    /// glTF `componentType`.
    component_type: u32,
    /// Bytes per component.
    component_size: usize,
    /// Components per element.
    components: usize,
    /// glTF `normalized`.
    normalized: bool,
    /// Whether the accessor gets `min`/`max`.
    min_max: bool,
    /// Tightly packed little-endian elements.
    bytes: Vec<u8>,
    /// The stored values, `components` per element, for `min`/`max`.
    values: Vec<f64>,
}

impl Column {
    /// Typed elements of `N` components each.
    pub fn new<T: Component, const N: usize>(items: &[[T; N]]) -> Self {
        let mut bytes = Vec::with_capacity(items.len() * N * T::SIZE);
        let mut values = Vec::with_capacity(items.len() * N);
        for &c in items.iter().flatten() {
            c.write(&mut bytes);
            values.push(c.to_f64());
        }
        Self {
            component_type: T::CODE,
            component_size: T::SIZE,
            components: N,
            normalized: false,
            min_max: false,
            bytes,
            values,
        }
    }

    /// Scalar elements.
    pub fn scalars<T: Component>(items: &[T]) -> Self {
        let items: Vec<[T; 1]> = items.iter().map(|&x| [x]).collect();
        Self::new(&items)
    }

    /// Sets whether the integer components are normalized.
    pub fn normalized(mut self, normalized: bool) -> Self {
        self.normalized = normalized;
        self
    }

    /// Requests `min`/`max` on the accessor.
    pub fn with_min_max(mut self) -> Self {
        self.min_max = true;
        self
    }

    /// Number of elements.
    fn count(&self) -> usize {
        self.values.len() / self.components
    }

    /// Bytes per element, unpadded.
    fn element_size(&self) -> usize {
        self.components * self.component_size
    }

    /// The accessor JSON without `bufferView`/`byteOffset`/`sparse`; `values` are the final
    /// (post-substitution) values used for `min`/`max`.
    fn accessor_json(&self, count: usize, values: &[f64]) -> Result<Value> {
        let mut acc = json!({
            "componentType": self.component_type,
            "count": count,
            "type": accessor_type(self.components)?,
        });
        if self.normalized {
            acc["normalized"] = json!(true);
        }
        if self.min_max {
            let mut min = vec![f64::INFINITY; self.components];
            let mut max = vec![f64::NEG_INFINITY; self.components];
            for element in values.chunks_exact(self.components) {
                for (i, &v) in element.iter().enumerate() {
                    min[i] = min[i].min(v);
                    max[i] = max[i].max(v);
                }
            }
            acc["min"] = min_max_json(&min, self.component_type);
            acc["max"] = min_max_json(&max, self.component_type);
        }
        Ok(acc)
    }
}

/// `min`/`max` values: float components as the shortest `f32` decimal, integers as integers.
fn min_max_json(values: &[f64], component_type: u32) -> Value {
    Value::Array(
        values
            .iter()
            .map(|&v| {
                if component_type == f32::CODE {
                    // Exact: the values are f32 widened to f64.
                    num(v as f32)
                } else {
                    json!(v)
                }
            })
            .collect(),
    )
}

/// Scalar column of `indices` converted to the narrower `T`.
fn narrowed<T: Component + TryFrom<u32>>(indices: &[u32]) -> Result<Column>
where
    T::Error: std::error::Error + Send + Sync + 'static,
{
    let items = indices.iter().map(|&i| T::try_from(i)).collect::<Result<Vec<T>, _>>()?;
    Ok(Column::scalars(&items))
}

/// What a bufferView is used for, which decides its `target` (and vertex alignment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Usage {
    /// Vertex attributes: `target` 34962, elements aligned to 4 bytes.
    Vertex,
    /// Primitive indices: `target` 34963.
    Index,
    /// Animation samplers, inverse bind matrices, sparse data: no `target`.
    Other,
}

/// Component type of sparse indices.
#[derive(Clone, Copy, Debug)]
pub enum SparseIndexType {
    /// UNSIGNED_BYTE.
    U8,
    /// UNSIGNED_SHORT.
    U16,
    /// UNSIGNED_INT.
    U32,
}

/// A sparse accessor: an optional dense base (zeros when `None`) with some elements substituted.
#[derive(Clone, Debug)]
pub struct Sparse {
    /// Dense data in a bufferView; `None` = no bufferView (all zeros) with `count` elements.
    pub base: Option<Column>,
    /// Element count (must equal the base's count when there is a base).
    pub count: usize,
    /// Strictly increasing element indices to substitute.
    pub indices: Vec<u32>,
    /// Component type of `indices` in the file.
    pub index_type: SparseIndexType,
    /// Substituted elements, one per index; also gives the type (and `min`/`max` request).
    pub values: Column,
}

/// A glTF node under construction.
#[derive(Clone, Debug, Default)]
pub struct Node {
    /// `name`.
    pub name: String,
    /// `translation`.
    pub translation: Option<[f32; 3]>,
    /// `rotation` (unit quaternion, xyzw).
    pub rotation: Option<[f32; 4]>,
    /// `scale`.
    pub scale: Option<[f32; 3]>,
    /// `matrix` (column-major); exclusive with TRS.
    pub matrix: Option<[f32; 16]>,
    /// `children`.
    pub children: Vec<usize>,
    /// `mesh`.
    pub mesh: Option<usize>,
    /// `skin`.
    pub skin: Option<usize>,
    /// `weights` (morph weight override).
    pub weights: Option<Vec<f32>>,
    /// `extensions.KHR_lights_punctual.light`: the light it carries.
    pub light: Option<usize>,
}

impl Node {
    /// A node with only a name.
    pub fn named(name: &str) -> Self {
        Self { name: name.to_owned(), ..Self::default() }
    }

    /// Sets `translation`.
    pub fn t(mut self, t: [f32; 3]) -> Self {
        self.translation = Some(t);
        self
    }

    /// Sets `rotation` from an `f64` quaternion.
    pub fn r(mut self, q: Quat) -> Self {
        self.rotation = Some(to_f32(q));
        self
    }

    /// Sets `scale`.
    pub fn s(mut self, s: [f32; 3]) -> Self {
        self.scale = Some(s);
        self
    }

    /// Sets `matrix`.
    pub fn matrix(mut self, m: &Mat4) -> Self {
        self.matrix = Some(to_f32(*m));
        self
    }

    /// Sets `mesh`.
    pub fn mesh(mut self, mesh: usize) -> Self {
        self.mesh = Some(mesh);
        self
    }

    /// Sets `skin`.
    pub fn skin(mut self, skin: usize) -> Self {
        self.skin = Some(skin);
        self
    }

    /// Sets `children`.
    pub fn children(mut self, children: &[usize]) -> Self {
        self.children = children.to_vec();
        self
    }

    /// Sets `weights`.
    pub fn weights(mut self, weights: &[f32]) -> Self {
        self.weights = Some(weights.to_vec());
        self
    }

    /// Places light `light` ([`GltfBuilder::light`]) on the node.
    pub fn light(mut self, light: usize) -> Self {
        self.light = Some(light);
        self
    }

    /// The local transform, from the `f32` values as written to the file.
    fn local_matrix(&self) -> Mat4 {
        if let Some(m) = self.matrix {
            return m.map(f64::from);
        }
        math::trs(
            self.translation.unwrap_or_default().map(f64::from),
            self.rotation.unwrap_or([0.0, 0.0, 0.0, 1.0]).map(f64::from),
            self.scale.unwrap_or([1.0; 3]).map(f64::from),
        )
    }

    /// The node's JSON.
    fn to_json(&self) -> Value {
        let mut node = json!({ "name": self.name });
        if !self.children.is_empty() {
            node["children"] = json!(self.children);
        }
        if let Some(m) = &self.matrix {
            node["matrix"] = nums(m);
        }
        if let Some(t) = &self.translation {
            node["translation"] = nums(t);
        }
        if let Some(r) = &self.rotation {
            node["rotation"] = nums(r);
        }
        if let Some(s) = &self.scale {
            node["scale"] = nums(s);
        }
        if let Some(mesh) = self.mesh {
            node["mesh"] = json!(mesh);
        }
        if let Some(skin) = self.skin {
            node["skin"] = json!(skin);
        }
        if let Some(w) = &self.weights {
            node["weights"] = nums(w);
        }
        if let Some(light) = self.light {
            node["extensions"] = json!({ "KHR_lights_punctual": { "light": light } });
        }
        node
    }
}

/// Narrows `f64` values to the `f32` stored in the file.
pub fn to_f32<const N: usize>(v: [f64; N]) -> [f32; N] {
    v.map(|x| x as f32)
}

/// A mesh primitive (triangles) under construction.
#[derive(Clone, Debug, Default)]
pub struct Primitive {
    /// `attributes` (semantic → accessor).
    pub attributes: BTreeMap<String, usize>,
    /// `indices`.
    pub indices: Option<usize>,
    /// Morph `targets` (semantic → accessor).
    pub targets: Vec<BTreeMap<String, usize>>,
    /// `material`.
    pub material: Option<usize>,
}

impl Primitive {
    /// A primitive with a POSITION accessor.
    pub fn new(position: usize) -> Self {
        Self::default().attr("POSITION", position)
    }

    /// Adds an attribute.
    pub fn attr(mut self, semantic: &str, accessor: usize) -> Self {
        self.attributes.insert(semantic.to_owned(), accessor);
        self
    }

    /// Sets `indices`.
    pub fn indices(mut self, accessor: usize) -> Self {
        self.indices = Some(accessor);
        self
    }

    /// Sets `material`.
    pub fn material(mut self, material: usize) -> Self {
        self.material = Some(material);
        self
    }

    /// Adds a morph target with only POSITION displacements.
    pub fn target(mut self, position: usize) -> Self {
        self.targets.push(BTreeMap::from([("POSITION".to_owned(), position)]));
        self
    }

    /// The primitive's JSON.
    fn to_json(&self) -> Value {
        let mut prim = json!({ "attributes": self.attributes, "mode": 4 });
        if let Some(indices) = self.indices {
            prim["indices"] = json!(indices);
        }
        if !self.targets.is_empty() {
            prim["targets"] = json!(self.targets);
        }
        if let Some(material) = self.material {
            prim["material"] = json!(material);
        }
        prim
    }
}

/// An untextured metallic-roughness material.
#[derive(Clone, Debug)]
pub struct Material {
    /// `name`.
    pub name: String,
    /// `pbrMetallicRoughness.baseColorFactor` (linear RGBA).
    pub base_color: [f32; 4],
    /// `pbrMetallicRoughness.metallicFactor`.
    pub metallic: f32,
    /// `pbrMetallicRoughness.roughnessFactor`.
    pub roughness: f32,
    /// `alphaMode: BLEND` (the base colour's alpha blends it over what is behind).
    pub blend: bool,
}

impl Material {
    /// A dielectric (metallic 0) material of the given colour and roughness, not emissive (the
    /// assets' lamps glow through animated emissive factors).
    pub fn new(name: &str, base_color: [f32; 4], roughness: f32) -> Self {
        Self { name: name.to_owned(), base_color, metallic: 0.0, roughness, blend: false }
    }

    /// Sets `metallicFactor`.
    pub fn metallic(mut self, metallic: f32) -> Self {
        self.metallic = metallic;
        self
    }

    /// Blended over what is behind it at `alpha` (`alphaMode: BLEND`).
    pub fn blend(mut self, alpha: f32) -> Self {
        self.base_color[3] = alpha;
        self.blend = true;
        self
    }

    /// The material's JSON.
    fn to_json(&self) -> Value {
        let mut material = json!({
            "name": self.name,
            "pbrMetallicRoughness": {
                "baseColorFactor": nums(&self.base_color),
                "metallicFactor": num(self.metallic),
                "roughnessFactor": num(self.roughness),
            },
        });
        if self.blend {
            material["alphaMode"] = json!("BLEND");
        }
        material
    }
}

/// Animated property (`channel.target.path`, or a `KHR_animation_pointer` pointer).
#[derive(Clone, Debug)]
pub enum Path {
    /// `translation`.
    Translation,
    /// `rotation`.
    Rotation,
    /// `scale`.
    Scale,
    /// `weights`.
    Weights,
    /// Any property, by JSON pointer (`KHR_animation_pointer`; the channel's node is not
    /// written).
    Pointer(String),
}

/// Sampler interpolation.
#[derive(Clone, Copy, Debug)]
pub enum Interp {
    /// `LINEAR`.
    Linear,
    /// `STEP`.
    Step,
    /// `CUBICSPLINE`.
    CubicSpline,
}

/// One animation channel with its own sampler.
#[derive(Clone, Debug)]
pub struct Channel {
    /// Target node.
    pub node: usize,
    /// Target property.
    pub path: Path,
    /// Sampler interpolation.
    pub interp: Interp,
    /// Input (key times) accessor, from [`GltfBuilder::times`].
    pub input: usize,
    /// Output accessor.
    pub output: usize,
}

/// Shorthand constructor for a [`Channel`].
pub fn channel(node: usize, path: Path, interp: Interp, input: usize, output: usize) -> Channel {
    Channel { node, path, interp, input, output }
}

/// How the binary buffer is stored.
#[derive(Clone, Copy, Debug)]
pub enum Container {
    /// `.gltf` with the buffer as a base64 `data:` URI.
    Embedded,
    /// `.gltf` plus `<stem>.bin` next to it.
    ExternalBin,
    /// Binary `.glb` with the buffer in the BIN chunk.
    Glb,
}

/// Builds one glTF asset; see the module docs.
#[derive(Debug, Default)]
pub struct GltfBuilder {
    /// The single binary buffer.
    bin: Vec<u8>,
    /// `bufferViews`.
    views: Vec<Value>,
    /// `accessors`.
    accessors: Vec<Value>,
    /// `nodes`.
    nodes: Vec<Node>,
    /// `meshes`.
    meshes: Vec<Value>,
    /// `skins`.
    skins: Vec<Value>,
    /// `animations`.
    animations: Vec<Value>,
    /// `materials`.
    materials: Vec<Value>,
    /// `extensions.KHR_lights_punctual.lights`.
    lights: Vec<Value>,
    /// `asset.generator`; [`GENERATOR`] when `None`.
    generator: Option<String>,
    /// Key times of every accessor made by [`Self::times`], by accessor index.
    key_times: BTreeMap<usize, Vec<f32>>,
    /// Input accessors used by each animation.
    animation_inputs: Vec<Vec<usize>>,
}

impl GltfBuilder {
    /// An empty asset.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `asset.generator` (default: `props xtask gen-test-models`).
    pub fn set_generator(&mut self, generator: &str) {
        self.generator = Some(generator.to_owned());
    }

    /// Adds a material, returning its index.
    pub fn material(&mut self, material: &Material) -> usize {
        self.materials.push(material.to_json());
        self.materials.len() - 1
    }

    /// Adds a `KHR_lights_punctual` light (its JSON: type, colour, intensity, range, spot),
    /// returning its index.
    pub fn light(&mut self, light: Value) -> usize {
        self.lights.push(light);
        self.lights.len() - 1
    }

    /// Appends `bytes` at a 4-byte aligned offset as a new bufferView.
    fn view(&mut self, bytes: &[u8], stride: Option<usize>, usage: Usage) -> usize {
        self.bin.resize(self.bin.len().next_multiple_of(4), 0);
        let mut view = json!({
            "buffer": 0,
            "byteOffset": self.bin.len(),
            "byteLength": bytes.len(),
        });
        self.bin.extend_from_slice(bytes);
        if let Some(stride) = stride {
            view["byteStride"] = json!(stride);
        }
        match usage {
            Usage::Vertex => view["target"] = json!(34962),
            Usage::Index => view["target"] = json!(34963),
            Usage::Other => {}
        }
        self.views.push(view);
        self.views.len() - 1
    }

    /// Pushes an accessor JSON, returning its index.
    fn push_accessor(&mut self, acc: Value) -> usize {
        self.accessors.push(acc);
        self.accessors.len() - 1
    }

    /// Appends a column's elements as a new bufferView. Vertex elements whose size is not a
    /// multiple of 4 are padded, with a `byteStride`.
    fn column_view(&mut self, col: &Column, usage: Usage) -> usize {
        let size = col.element_size();
        if usage == Usage::Vertex && !size.is_multiple_of(4) {
            let stride = size.next_multiple_of(4);
            let mut bytes = Vec::with_capacity(col.count() * stride);
            for element in col.bytes.chunks_exact(size) {
                bytes.extend_from_slice(element);
                bytes.resize(bytes.len().next_multiple_of(4), 0);
            }
            self.view(&bytes, Some(stride), usage)
        } else {
            self.view(&col.bytes, None, usage)
        }
    }

    /// Adds an accessor over its own bufferView.
    pub fn accessor(&mut self, col: &Column, usage: Usage) -> Result<usize> {
        let view = self.column_view(col, usage);
        let mut acc = col.accessor_json(col.count(), &col.values)?;
        acc["bufferView"] = json!(view);
        Ok(self.push_accessor(acc))
    }

    /// Adds several vertex attributes interleaved in one bufferView with a `byteStride`; returns
    /// the accessor indices in the order of `cols`.
    pub fn interleaved(&mut self, cols: &[Column]) -> Result<Vec<usize>> {
        let count = cols.first().map_or(0, Column::count);
        ensure!(cols.iter().all(|c| c.count() == count), "interleaved attributes differ in length");
        let offsets: Vec<usize> = cols
            .iter()
            .scan(0, |offset, c| {
                let start = *offset;
                *offset += c.element_size().next_multiple_of(4);
                Some(start)
            })
            .collect();
        let stride: usize = cols.iter().map(|c| c.element_size().next_multiple_of(4)).sum();
        let mut bytes = Vec::with_capacity(count * stride);
        for i in 0..count {
            for c in cols {
                let size = c.element_size();
                bytes.extend_from_slice(&c.bytes[i * size..(i + 1) * size]);
                bytes.resize(bytes.len().next_multiple_of(4), 0);
            }
        }
        let view = self.view(&bytes, Some(stride), Usage::Vertex);
        cols.iter()
            .zip(offsets)
            .map(|(c, offset)| {
                let mut acc = c.accessor_json(count, &c.values)?;
                acc["bufferView"] = json!(view);
                acc["byteOffset"] = json!(offset);
                Ok(self.push_accessor(acc))
            })
            .collect()
    }

    /// Adds a sparse accessor (see [`Sparse`]).
    pub fn sparse(&mut self, sparse: &Sparse, usage: Usage) -> Result<usize> {
        let values = &sparse.values;
        ensure!(sparse.indices.len() == values.count(), "sparse indices and values differ in length");
        ensure!(sparse.indices.windows(2).all(|w| w[0] < w[1]), "sparse indices must strictly increase");
        let mut dense = match &sparse.base {
            Some(base) => {
                ensure!(base.count() == sparse.count, "sparse base count mismatch");
                ensure!(
                    (base.component_type, base.components, base.normalized)
                        == (values.component_type, values.components, values.normalized),
                    "sparse values differ in type from the base"
                );
                base.values.clone()
            }
            None => vec![0.0; sparse.count * values.components],
        };
        let n = values.components;
        for (&index, element) in sparse.indices.iter().zip(values.values.chunks_exact(n)) {
            let start = usize::try_from(index)? * n;
            dense.get_mut(start..start + n).context("sparse index out of range")?.copy_from_slice(element);
        }
        let mut acc = values.accessor_json(sparse.count, &dense)?;
        if let Some(base) = &sparse.base {
            acc["bufferView"] = json!(self.column_view(base, usage));
        }
        let index_col = match sparse.index_type {
            SparseIndexType::U8 => narrowed::<u8>(&sparse.indices)?,
            SparseIndexType::U16 => narrowed::<u16>(&sparse.indices)?,
            SparseIndexType::U32 => Column::scalars(&sparse.indices),
        };
        let indices_view = self.view(&index_col.bytes, None, Usage::Other);
        let values_view = self.view(&values.bytes, None, Usage::Other);
        acc["sparse"] = json!({
            "count": sparse.indices.len(),
            "indices": { "bufferView": indices_view, "componentType": index_col.component_type },
            "values": { "bufferView": values_view },
        });
        Ok(self.push_accessor(acc))
    }

    /// A FLOAT VEC3 accessor of `count` zeros with neither `bufferView` nor `sparse` (valid
    /// glTF: such an accessor is all zeros), with `min`/`max`.
    pub fn zero_vec3(&mut self, count: usize) -> usize {
        self.push_accessor(json!({"componentType": 5126, "count": count, "type": "VEC3",
            "min": [0, 0, 0], "max": [0, 0, 0]}))
    }

    /// POSITION-style vertex attribute (with `min`/`max`).
    pub fn positions(&mut self, positions: &[[f32; 3]]) -> Result<usize> {
        self.accessor(&Column::new(positions).with_min_max(), Usage::Vertex)
    }

    /// Any other vertex attribute (NORMAL, JOINTS_n, WEIGHTS_n).
    pub fn vertex<T: Component, const N: usize>(&mut self, items: &[[T; N]], normalized: bool) -> Result<usize> {
        let col = Column::new(items).normalized(normalized);
        self.accessor(&col, Usage::Vertex)
    }

    /// Triangle indices.
    pub fn indices(&mut self, indices: &[u16]) -> Result<usize> {
        self.accessor(&Column::scalars(indices), Usage::Index)
    }

    /// Animation input (key times, with `min`/`max`).
    pub fn times(&mut self, times: &[f32]) -> Result<usize> {
        let index = self.accessor(&Column::scalars(times).with_min_max(), Usage::Other)?;
        self.key_times.insert(index, times.to_vec());
        Ok(index)
    }

    /// Non-vertex data: animation outputs, inverse bind matrices.
    pub fn data<T: Component, const N: usize>(&mut self, items: &[[T; N]], normalized: bool) -> Result<usize> {
        let col = Column::new(items).normalized(normalized);
        self.accessor(&col, Usage::Other)
    }

    /// Scalar non-vertex data (morph weight outputs).
    pub fn scalars<T: Component>(&mut self, items: &[T], normalized: bool) -> Result<usize> {
        let col = Column::scalars(items).normalized(normalized);
        self.accessor(&col, Usage::Other)
    }

    /// Adds a node, returning its index.
    pub fn node(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// Mutable access to a node added earlier.
    pub fn node_mut(&mut self, index: usize) -> Result<&mut Node> {
        self.nodes.get_mut(index).context("no such node")
    }

    /// Appends `child` to `parent`'s children.
    pub fn add_child(&mut self, parent: usize, child: usize) -> Result<()> {
        self.node_mut(parent)?.children.push(child);
        Ok(())
    }

    /// The parent of `node`, if any.
    fn parent(&self, node: usize) -> Option<usize> {
        self.nodes.iter().position(|n| n.children.contains(&node))
    }

    /// World (scene-space) rest transform of `node`, from the stored `f32` values.
    pub fn world_matrix(&self, node: usize) -> Result<Mat4> {
        let mut m = self.nodes.get(node).context("no such node")?.local_matrix();
        let mut current = node;
        for _ in 0..self.nodes.len() {
            match self.parent(current) {
                Some(parent) => {
                    m = math::mul(&self.nodes[parent].local_matrix(), &m);
                    current = parent;
                }
                None => return Ok(m),
            }
        }
        bail!("node hierarchy has a cycle")
    }

    /// Adds a skin whose inverse bind matrices are the inverses of the joints' current world
    /// transforms (set the hierarchy up first).
    pub fn skin(&mut self, joints: &[usize], skeleton: Option<usize>) -> Result<usize> {
        self.skin_with_spare_matrices(joints, skeleton, 0)
    }

    /// [`GltfBuilder::skin`] with `spare` identity matrices after the joints' inverse bind
    /// matrices (glTF allows more matrices than joints; the extra ones are unused).
    pub fn skin_with_spare_matrices(
        &mut self,
        joints: &[usize],
        skeleton: Option<usize>,
        spare: usize,
    ) -> Result<usize> {
        let mut ibms = joints
            .iter()
            .map(|&j| {
                let world = self.world_matrix(j)?;
                math::inverse(&world).map(to_f32).context("joint world transform is singular")
            })
            .collect::<Result<Vec<_>>>()?;
        let identity = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
        ibms.extend(std::iter::repeat_n(identity, spare));
        let ibm = self.data(&ibms, false)?;
        let mut skin = json!({ "joints": joints, "inverseBindMatrices": ibm });
        if let Some(skeleton) = skeleton {
            skin["skeleton"] = json!(skeleton);
        }
        self.skins.push(skin);
        Ok(self.skins.len() - 1)
    }

    /// Adds a mesh, with optional default morph `weights`.
    pub fn mesh(&mut self, name: &str, primitives: &[Primitive], weights: Option<&[f32]>) -> usize {
        let prims: Vec<Value> = primitives.iter().map(Primitive::to_json).collect();
        let mut mesh = json!({ "name": name, "primitives": prims });
        if let Some(w) = weights {
            mesh["weights"] = nums(w);
        }
        self.meshes.push(mesh);
        self.meshes.len() - 1
    }

    /// Adds an animation with one sampler per channel.
    pub fn animation(&mut self, name: &str, channels: &[Channel]) -> usize {
        let samplers: Vec<Value> = channels
            .iter()
            .map(|c| {
                let interp = match c.interp {
                    Interp::Linear => "LINEAR",
                    Interp::Step => "STEP",
                    Interp::CubicSpline => "CUBICSPLINE",
                };
                json!({ "input": c.input, "output": c.output, "interpolation": interp })
            })
            .collect();
        let chans: Vec<Value> = channels
            .iter()
            .enumerate()
            .map(|(sampler, c)| {
                let path = match &c.path {
                    Path::Translation => "translation",
                    Path::Rotation => "rotation",
                    Path::Scale => "scale",
                    Path::Weights => "weights",
                    Path::Pointer(pointer) => {
                        let pointer = json!({ "KHR_animation_pointer": { "pointer": pointer } });
                        return json!({ "sampler": sampler, "target": { "path": "pointer", "extensions": pointer } });
                    }
                };
                json!({ "sampler": sampler, "target": { "node": c.node, "path": path } })
            })
            .collect();
        self.animations.push(json!({ "name": name, "samplers": samplers, "channels": chans }));
        self.animation_inputs.push(channels.iter().map(|c| c.input).collect());
        self.animations.len() - 1
    }

    /// Sorted, deduplicated key times of every channel of animation `index`.
    pub fn key_times(&self, index: usize) -> Vec<f32> {
        let mut times: Vec<f32> = self
            .animation_inputs
            .get(index)
            .into_iter()
            .flatten()
            .filter_map(|input| self.key_times.get(input))
            .flatten()
            .copied()
            .collect();
        times.sort_by(f32::total_cmp);
        times.dedup();
        times
    }

    /// Serializes the asset as `(file name, bytes)` pairs: the model file, plus `<stem>.bin` for
    /// [`Container::ExternalBin`].
    pub fn finish(self, stem: &str, container: Container) -> Result<Vec<(String, Vec<u8>)>> {
        let (root, bin) = self.into_document();
        write_document(root, bin, stem, container)
    }

    /// The asset as its glTF JSON (buffer 0 has its `byteLength` but no `uri` yet) and its
    /// binary buffer, padded to a multiple of 4 bytes.
    pub fn into_document(mut self) -> (Value, Vec<u8>) {
        self.bin.resize(self.bin.len().next_multiple_of(4), 0);
        let roots: Vec<usize> = (0..self.nodes.len()).filter(|&n| self.parent(n).is_none()).collect();
        let mut root = json!({
            "asset": { "version": "2.0", "generator": self.generator.as_deref().unwrap_or(GENERATOR) },
            "scene": 0,
            "scenes": [{ "nodes": roots }],
            "nodes": self.nodes.iter().map(Node::to_json).collect::<Vec<_>>(),
            "buffers": [{ "byteLength": self.bin.len() }],
            "bufferViews": self.views,
            "accessors": self.accessors,
        });
        let pointers = self.animations.iter().flat_map(|a| a["channels"].as_array().into_iter().flatten());
        let mut used = Vec::new();
        if pointers.into_iter().any(|c| c["target"]["path"] == "pointer") {
            used.push("KHR_animation_pointer");
        }
        if !self.lights.is_empty() {
            used.push("KHR_lights_punctual");
            root["extensions"] = json!({ "KHR_lights_punctual": { "lights": self.lights } });
        }
        if !used.is_empty() {
            root["extensionsUsed"] = json!(used);
        }
        for (key, items) in [
            ("meshes", self.meshes),
            ("materials", self.materials),
            ("skins", self.skins),
            ("animations", self.animations),
        ] {
            if !items.is_empty() {
                root[key] = Value::Array(items);
            }
        }
        (root, self.bin)
    }
}

/// Serializes a glTF JSON `root` and its binary buffer as `(file name, bytes)` pairs: the model
/// file, plus `<stem>.bin` for [`Container::ExternalBin`]. Buffer 0 gets the `uri` the
/// container needs unless it already has one.
pub fn write_document(
    mut root: Value,
    bin: Vec<u8>,
    stem: &str,
    container: Container,
) -> Result<Vec<(String, Vec<u8>)>> {
    let bin_name = format!("{stem}.bin");
    let buffer = root.pointer_mut("/buffers/0").context("the document has no buffer 0")?;
    if buffer.get("uri").is_none() {
        match container {
            Container::Embedded => {
                let data = base64::engine::general_purpose::STANDARD.encode(&bin);
                buffer["uri"] = json!(format!("data:application/octet-stream;base64,{data}"));
            }
            Container::ExternalBin => buffer["uri"] = json!(bin_name),
            Container::Glb => {}
        }
    }
    // Key order independent of serde_json's `preserve_order` feature.
    root.sort_all_objects();
    Ok(match container {
        Container::Embedded => vec![(format!("{stem}.gltf"), pretty(&root)?)],
        Container::ExternalBin => vec![(format!("{stem}.gltf"), pretty(&root)?), (bin_name, bin)],
        Container::Glb => vec![(format!("{stem}.glb"), glb(&root, &bin)?)],
    })
}

/// Indented JSON with a trailing newline; arrays of plain values stay on one line (serde_json's
/// pretty printer would put every number of every matrix on its own line).
pub fn pretty(root: &Value) -> Result<Vec<u8>> {
    let mut text = String::new();
    write_json(root, 0, &mut text)?;
    text.push('\n');
    Ok(text.into_bytes())
}

/// Appends `value` to `out`, nested `depth` levels deep (two spaces each).
fn write_json(value: &Value, depth: usize, out: &mut String) -> Result<()> {
    let indent = |out: &mut String, depth: usize| out.push_str(&"  ".repeat(depth));
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push_str("{\n");
            for (i, (key, item)) in map.iter().enumerate() {
                indent(out, depth + 1);
                out.push_str(&serde_json::to_string(key)?);
                out.push_str(": ");
                write_json(item, depth + 1, out)?;
                out.push_str(if i + 1 < map.len() { ",\n" } else { "\n" });
            }
            indent(out, depth);
            out.push('}');
        }
        Value::Array(items) if items.iter().any(|v| v.is_object() || v.is_array()) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                indent(out, depth + 1);
                write_json(item, depth + 1, out)?;
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            indent(out, depth);
            out.push(']');
        }
        Value::Array(items) => {
            let parts = items.iter().map(serde_json::to_string).collect::<Result<Vec<_>, _>>()?;
            out.push('[');
            out.push_str(&parts.join(", "));
            out.push(']');
        }
        _ => out.push_str(&serde_json::to_string(value)?),
    }
    Ok(())
}

/// A GLB container: 12-byte header, JSON chunk (space padded), BIN chunk (zero padded).
pub fn glb(root: &Value, bin: &[u8]) -> Result<Vec<u8>> {
    Ok(props_gltf::glb::write(&serde_json::to_vec(root)?, Some(bin))?)
}
