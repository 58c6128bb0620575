//! [`Doc`]: a valid glTF document (JSON plus one binary buffer) that a case damages in one
//! place, with helpers that find and edit accessor data through the document itself.

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use crate::test_models::builder::{self, Container, GltfBuilder, Interp, Path, channel};
use crate::test_models::rig::{X, Z, morph_quad, rig, rot};

/// Generator name written into every broken model.
const GENERATOR: &str = "props xtask gen-broken-models";

/// Byte-level damage applied to the serialized file (GLB framing cases).
pub type Damage = fn(&mut Vec<u8>) -> Result<()>;

/// One document being damaged.
#[derive(Debug)]
pub struct Doc {
    /// The glTF JSON.
    pub json: Value,
    /// Buffer 0.
    pub bin: Vec<u8>,
    /// How the file is written.
    pub container: Container,
    /// When set, buffer 0 is written without a `uri` even in a `.gltf` file.
    pub no_uri: bool,
    /// Damage to the serialized bytes.
    pub damage: Option<Damage>,
}

/// Sampler (and channel) order of the base animation.
pub mod sampler {
    /// LINEAR translation of `Joint0`.
    pub const TRANSLATION: usize = 0;
    /// LINEAR rotation of `Joint1`.
    pub const ROTATION: usize = 1;
    /// STEP scale of `Joint1`.
    pub const SCALE: usize = 2;
    /// CUBICSPLINE morph weights of `MorphQuad`.
    pub const WEIGHTS: usize = 3;
}

/// Node indices of the base.
pub mod node {
    /// Root joint (translation animated).
    pub const JOINT0: usize = 0;
    /// Child joint (rotation and scale animated).
    pub const JOINT1: usize = 1;
    /// The skinned tube (mesh 0, skin 0).
    pub const SKINNED: usize = 2;
    /// The morph quad (mesh 1, two morph targets).
    pub const MORPH: usize = 3;
}

impl Doc {
    /// The base: a two-joint skinned tube (`JOINTS_0` u8, `WEIGHTS_0` float, indices,
    /// normals) and a quad with two morph targets, animated by one clip with a LINEAR
    /// translation, a LINEAR rotation, a STEP scale and CUBICSPLINE morph weights. Valid, with
    /// no Khronos issue at all.
    pub fn base(container: Container) -> Result<Self> {
        let mut b = GltfBuilder::new();
        b.set_generator(GENERATOR);
        let joints = rig(&mut b, "Joint", 2, 1.0)?;
        let quad = morph_quad(&mut b, "MorphQuad", [2.0, 0.0, 0.0])?;
        let times = b.times(&[0.0, 0.5, 1.0])?;
        let translation = b.data(&[[0.0f32, 0.0, 0.0], [0.0, 0.2, 0.0], [0.0, 0.0, 0.0]], false)?;
        let rotation = b.data(&[rot(Z, 0.0), rot(Z, 30.0), rot(X, 10.0)], false)?;
        let scale = b.data(&[[1.0f32; 3], [1.2, 1.0, 1.0], [1.0; 3]], false)?;
        // Per key: in-tangents, values, out-tangents; two morph targets.
        let weights: [f32; 18] =
            [0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.5, 0.0, 0.0];
        let weights = b.scalars(&weights, false)?;
        b.animation(
            "Anim",
            &[
                channel(joints[0], Path::Translation, Interp::Linear, times, translation),
                channel(joints[1], Path::Rotation, Interp::Linear, times, rotation),
                channel(joints[1], Path::Scale, Interp::Step, times, scale),
                channel(quad, Path::Weights, Interp::CubicSpline, times, weights),
            ],
        );
        let (json, bin) = b.into_document();
        Ok(Self { json, bin, container, no_uri: false, damage: None })
    }

    /// The files of the damaged document, as `(file name, bytes)`.
    pub fn files(self, stem: &str) -> Result<Vec<(String, Vec<u8>)>> {
        let mut files = if self.no_uri {
            let mut json = self.json;
            json.sort_all_objects();
            vec![(format!("{stem}.gltf"), builder::pretty(&json)?)]
        } else {
            builder::write_document(self.json, self.bin, stem, self.container)?
        };
        if let (Some(damage), Some((_, bytes))) = (self.damage, files.first_mut()) {
            damage(bytes)?;
        }
        Ok(files)
    }

    /// The value at JSON `pointer`.
    pub fn get(&self, pointer: &str) -> Result<&Value> {
        self.json.pointer(pointer).with_context(|| format!("no {pointer} in the base document"))
    }

    /// The index stored at JSON `pointer`.
    pub fn index(&self, pointer: &str) -> Result<usize> {
        let value = self.get(pointer)?.as_u64().with_context(|| format!("{pointer} is not an index"))?;
        Ok(usize::try_from(value)?)
    }

    /// Sets the value at `pointer` (its parent must exist; the last part may be new).
    pub fn set(&mut self, pointer: &str, value: Value) -> Result<()> {
        let (parent, key) = pointer.rsplit_once('/').with_context(|| format!("bad pointer {pointer}"))?;
        let parent = self.json.pointer_mut(parent).with_context(|| format!("no {parent} in the document"))?;
        match parent {
            Value::Object(map) => {
                map.insert(key.to_owned(), value);
            }
            Value::Array(items) => {
                let slot = items.get_mut(key.parse::<usize>()?).with_context(|| format!("no {pointer}"))?;
                *slot = value;
            }
            _ => bail!("{pointer}: the parent is neither an object nor an array"),
        }
        Ok(())
    }

    /// Removes the object member at `pointer`.
    pub fn remove(&mut self, pointer: &str) -> Result<()> {
        let (parent, key) = pointer.rsplit_once('/').with_context(|| format!("bad pointer {pointer}"))?;
        let parent = self.json.pointer_mut(parent).and_then(Value::as_object_mut);
        parent.and_then(|map| map.remove(key)).with_context(|| format!("no {pointer} to remove"))?;
        Ok(())
    }

    /// Appends `item` to the array at `pointer` (created when absent); returns its index.
    pub fn push(&mut self, pointer: &str, item: Value) -> Result<usize> {
        if self.json.pointer(pointer).is_none() {
            self.set(pointer, json!([]))?;
        }
        let list = self.json.pointer_mut(pointer).and_then(Value::as_array_mut);
        let list = list.with_context(|| format!("{pointer} is not an array"))?;
        list.push(item);
        Ok(list.len() - 1)
    }

    /// Appends `bytes` (4-byte aligned) to buffer 0 as a new bufferView; returns its index.
    pub fn view(&mut self, bytes: &[u8]) -> Result<usize> {
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.bin.resize(self.bin.len().next_multiple_of(4), 0);
        self.set("/buffers/0/byteLength", json!(self.bin.len()))?;
        self.push("/bufferViews", json!({"buffer": 0, "byteOffset": offset, "byteLength": bytes.len()}))
    }

    /// Appends an accessor of `count` elements over a new view holding `bytes`.
    pub fn accessor(&mut self, bytes: &[u8], component: u32, ty: &str, count: usize) -> Result<usize> {
        let view = self.view(bytes)?;
        self.push("/accessors", json!({"bufferView": view, "componentType": component, "type": ty, "count": count}))
    }

    /// Appends a FLOAT accessor of type `ty` holding `values`, with `min`/`max` when `bounds`.
    pub fn floats(&mut self, values: &[f32], ty: &str, bounds: bool) -> Result<usize> {
        let width = components(ty)?;
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let index = self.accessor(&bytes, 5126, ty, values.len() / width)?;
        if bounds {
            let column = |k: usize| values.iter().skip(k).step_by(width).copied();
            let min: Vec<Value> = (0..width).map(|k| builder::num(column(k).fold(f32::INFINITY, f32::min))).collect();
            let max: Vec<Value> =
                (0..width).map(|k| builder::num(column(k).fold(f32::NEG_INFINITY, f32::max))).collect();
            self.set(&format!("/accessors/{index}/min"), Value::Array(min))?;
            self.set(&format!("/accessors/{index}/max"), Value::Array(max))?;
        }
        Ok(index)
    }

    /// Byte offset in buffer 0 of element `element` of accessor `accessor` (tightly packed
    /// unless its view has a `byteStride`).
    pub fn element_offset(&self, accessor: usize, element: usize) -> Result<usize> {
        let view = self.index(&format!("/accessors/{accessor}/bufferView"))?;
        let view_offset = self.index(&format!("/bufferViews/{view}/byteOffset")).unwrap_or(0);
        let accessor_offset = self.index(&format!("/accessors/{accessor}/byteOffset")).unwrap_or(0);
        let component = match self.index(&format!("/accessors/{accessor}/componentType"))? {
            5120 | 5121 => 1,
            5122 | 5123 => 2,
            _ => 4,
        };
        let ty = self.get(&format!("/accessors/{accessor}/type"))?.as_str().context("accessor type")?;
        let stride = match self.index(&format!("/bufferViews/{view}/byteStride")) {
            Ok(stride) => stride,
            Err(_) => component * components(ty)?,
        };
        Ok(view_offset + accessor_offset + element * stride)
    }

    /// Overwrites component `component` of element `element` of a FLOAT accessor.
    pub fn write_f32(&mut self, accessor: usize, element: usize, component: usize, value: f32) -> Result<()> {
        let at = self.element_offset(accessor, element)? + 4 * component;
        self.bin.get_mut(at..at + 4).context("element past the buffer")?.copy_from_slice(&value.to_le_bytes());
        Ok(())
    }

    /// Overwrites the first bytes of element `element` of an accessor.
    pub fn write_bytes(&mut self, accessor: usize, element: usize, bytes: &[u8]) -> Result<()> {
        let at = self.element_offset(accessor, element)?;
        self.bin.get_mut(at..at + bytes.len()).context("element past the buffer")?.copy_from_slice(bytes);
        Ok(())
    }

    /// The accessor used by sampler `sampler` of animation 0 as `"input"` or `"output"`.
    pub fn sampler_accessor(&self, sampler: usize, which: &str) -> Result<usize> {
        self.index(&format!("/animations/0/samplers/{sampler}/{which}"))
    }

    /// The accessor of attribute `semantic` of primitive 0 of mesh `mesh`.
    pub fn attribute(&self, mesh: usize, semantic: &str) -> Result<usize> {
        self.index(&format!("/meshes/{mesh}/primitives/0/attributes/{semantic}"))
    }
}

/// Components of an accessor `type`.
fn components(ty: &str) -> Result<usize> {
    Ok(match ty {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" | "MAT2" => 4,
        "MAT3" => 9,
        "MAT4" => 16,
        _ => bail!("unknown accessor type {ty}"),
    })
}
