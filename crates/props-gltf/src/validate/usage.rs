//! How buffer views and accessors are used, as Khronos's validator tracks it: a view serves
//! one purpose (its declared `target`, or its first use: vertex data, indices, inverse bind
//! matrices, an image), an accessor too (vertex attribute, indices, inverse bind matrices);
//! only vertex data has a `byteStride`; vertex attributes are 4-byte aligned, and accessors
//! sharing a vertex view need its `byteStride`.

use gltf::json::buffer::Target;
use gltf::json::validation::Checked;

use super::Check;

/// What an accessor or a buffer view serves, named as in Khronos's messages.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Use {
    VertexBuffer,
    IndexBuffer,
    Ibm,
    Image,
    AnimationInput,
    AnimationOutput,
}

impl Use {
    /// The name of a view's use (animation data is "Other").
    fn view_name(self) -> &'static str {
        match self {
            Use::VertexBuffer => "VertexBuffer",
            Use::IndexBuffer => "IndexBuffer",
            Use::Ibm => "IBM",
            Use::Image => "Image",
            Use::AnimationInput | Use::AnimationOutput => "Other",
        }
    }

    /// The name of an accessor's use.
    fn accessor_name(self) -> &'static str {
        match self {
            Use::VertexBuffer => "VertexAttribute",
            Use::IndexBuffer => "PrimitiveIndices",
            Use::Ibm => "IBM",
            Use::Image => "Image",
            Use::AnimationInput => "AnimationInput",
            Use::AnimationOutput => "AnimationOutput",
        }
    }
}

/// Checks every use of every buffer view and accessor, in Khronos's order: images, meshes
/// (per primitive: attributes, morph targets, indices), skins, animations.
pub(super) fn check(check: &mut Check<'_>) {
    let root = check.root;
    let mut views: Vec<Option<&'static str>> = root
        .buffer_views
        .iter()
        .map(|view| match view.target {
            Some(Checked::Valid(Target::ArrayBuffer)) => Some(Use::VertexBuffer.view_name()),
            Some(Checked::Valid(Target::ElementArrayBuffer)) => Some(Use::IndexBuffer.view_name()),
            _ => None,
        })
        .collect();
    for (v, view) in root.buffer_views.iter().enumerate() {
        if view.byte_stride.is_some() && views[v] == Some(Use::IndexBuffer.view_name()) {
            let message = "only a view of vertex data can have a byteStride (this one's target is indices)";
            check.error("BUFFER_VIEW_INVALID_BYTE_STRIDE", format!("/bufferViews/{v}/byteStride"), message);
        }
    }
    let mut accessors: Vec<Option<Use>> = vec![None; root.accessors.len()];
    // Per view: the first accessor read from it as vertex data.
    let mut vertex_accessor: Vec<Option<usize>> = vec![None; root.buffer_views.len()];
    let mut uses = Vec::new();
    for (i, image) in root.images.iter().enumerate() {
        if let Some(view) = image.buffer_view {
            uses.push((Use::Image, None, Some(view.value()), format!("/images/{i}/bufferView")));
        }
    }
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            let pointer = format!("/meshes/{m}/primitives/{p}");
            // In name order: the file's order is not kept (Khronos follows the file's, which
            // is the same for files written with sorted keys).
            let mut attributes: Vec<(String, usize)> = primitive
                .attributes
                .iter()
                .filter_map(|(semantic, index)| match semantic {
                    Checked::Valid(semantic) => Some((semantic.to_string(), index.value())),
                    Checked::Invalid => None,
                })
                .collect();
            attributes.sort();
            for (name, index) in attributes {
                uses.push((Use::VertexBuffer, Some(index), None, format!("{pointer}/attributes/{name}")));
            }
            for (t, target) in primitive.targets.iter().flatten().enumerate() {
                for (name, index) in
                    [("POSITION", target.positions), ("NORMAL", target.normals), ("TANGENT", target.tangents)]
                {
                    if let Some(index) = index {
                        uses.push((
                            Use::VertexBuffer,
                            Some(index.value()),
                            None,
                            format!("{pointer}/targets/{t}/{name}"),
                        ));
                    }
                }
            }
            if let Some(index) = primitive.indices {
                uses.push((Use::IndexBuffer, Some(index.value()), None, format!("{pointer}/indices")));
            }
        }
    }
    for (s, skin) in root.skins.iter().enumerate() {
        if let Some(index) = skin.inverse_bind_matrices {
            uses.push((Use::Ibm, Some(index.value()), None, format!("/skins/{s}/inverseBindMatrices")));
        }
    }
    for (a, animation) in root.animations.iter().enumerate() {
        for (s, sampler) in animation.samplers.iter().enumerate() {
            let pointer = format!("/animations/{a}/samplers/{s}");
            uses.push((Use::AnimationInput, Some(sampler.input.value()), None, format!("{pointer}/input")));
            uses.push((Use::AnimationOutput, Some(sampler.output.value()), None, format!("{pointer}/output")));
        }
    }
    for (purpose, accessor, view, pointer) in uses {
        let accessor = accessor.and_then(|a| Some((a, root.accessors.get(a)?)));
        if let Some((a, _)) = accessor {
            let slot = &mut accessors[a];
            match *slot {
                Some(first) if first != purpose => {
                    let message = format!(
                        "accessor {a} was used as {}, and is now used as {}",
                        first.accessor_name(),
                        purpose.accessor_name()
                    );
                    check.error("ACCESSOR_USAGE_OVERRIDE", &pointer, message);
                }
                _ => *slot = Some(purpose),
            }
        }
        let view = view.or_else(|| accessor.and_then(|(_, a)| a.buffer_view.map(|v| v.value())));
        let Some(v) = view.filter(|&v| v < views.len()) else { continue };
        match views[v] {
            Some(first) if first != purpose.view_name() => {
                let message = format!("buffer view {v} serves {first}, and is now used as {}", purpose.view_name());
                check.error("BUFFER_VIEW_TARGET_OVERRIDE", &pointer, message);
            }
            _ => views[v] = Some(purpose.view_name()),
        }
        if purpose == Use::VertexBuffer
            && let Some((a, accessor)) = accessor
        {
            vertex_layout(check, a, accessor, v, &mut vertex_accessor[v], &pointer);
        }
    }
}

/// A vertex attribute's accessor `a`, read from view `v`: 4-byte aligned, and alone in the
/// view unless the view has a `byteStride`.
fn vertex_layout(
    check: &mut Check<'_>,
    a: usize,
    accessor: &gltf::json::Accessor,
    v: usize,
    first: &mut Option<usize>,
    pointer: &str,
) {
    let Some(view) = check.root.buffer_views.get(v) else { return };
    let Checked::Valid(component) = accessor.component_type else { return };
    let Checked::Valid(ty) = accessor.type_ else { return };
    let element = component.0.size() * ty.multiplicity();
    let offset = accessor.byte_offset.map_or(0, |o| o.0) + view.byte_offset.map_or(0, |o| o.0);
    if !offset.is_multiple_of(4) || (view.byte_stride.is_none() && !element.is_multiple_of(4)) {
        let message = format!(
            "vertex data must be 4-byte aligned: it starts at byte {offset} of its buffer, elements of {element} bytes{}",
            if view.byte_stride.is_none() { " packed without a byteStride" } else { "" }
        );
        check.error("MESH_PRIMITIVE_ACCESSOR_UNALIGNED", pointer, message);
    }
    match *first {
        Some(other) if other != a && view.byte_stride.is_none() => {
            let message = format!("accessors {other} and {a} both read buffer view {v}, which then needs a byteStride");
            check.error("MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE", pointer, message);
        }
        Some(_) => {}
        None => *first = Some(a),
    }
}
