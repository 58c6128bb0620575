//! Each opaque primitive's triangles in the order a GPU draws them fastest, as gltfpack writes
//! them: meshoptimizer's vertex-cache order, for its own list and each level's.
//!
//! A GPU shades the distinct vertices of a batch of consecutive triangles together, so a
//! vertex whose triangles lie far apart in the list is shaded once for each batch it is in.
//! The same triangles are kept, each with its corners in the same order (the same winding),
//! only listed in another order; the vertices are the file's. It is done here, on the thread
//! that imports, and not where a model is uploaded, which is the thread that draws frames:
//! 300,000 triangles take 40 ms to order on this project's build machine, a hitch there.
//!
//! Kept in the file's order:
//! - a blended primitive (in its own material or any variant's): three.js draws its
//!   overlapping faces in the file's order, and so does the renderer;
//! - a flat one ([`Primitive::flat`]): each of its triangles has vertices of its own, so no
//!   order reuses them. The renderer welds its corners and orders the triangles then.

use props_anim::material::{Material, MaterialVariant};
use props_anim::{Mesh, Primitive};

/// Orders the triangle lists of `meshes`' opaque, smooth primitives (see the module
/// documentation); `materials` and `variants` are the model's.
pub(crate) fn order(meshes: &mut [Mesh], materials: &[Material], variants: &[MaterialVariant]) {
    for (m, mesh) in meshes.iter_mut().enumerate() {
        for (p, primitive) in mesh.primitives.iter_mut().enumerate() {
            let variant_materials = variants.iter().filter_map(|v| v.material_of(m as u32, p as u32));
            let mut drawn_in = primitive.material.into_iter().chain(variant_materials);
            let blended =
                drawn_in.any(|material| materials.get(material as usize).is_some_and(Material::is_see_through));
            if !blended && !primitive.flat && primitive.is_whole_triangles() {
                order_primitive(primitive);
            }
        }
    }
}

/// Puts each of `primitive`'s lists (its own, then each level's) in vertex-cache order; it
/// must be whole triangles over its vertices ([`Primitive::is_whole_triangles`]).
fn order_primitive(primitive: &mut Primitive) {
    let vertices = primitive.vertex_count();
    let lists = std::iter::once(&mut primitive.indices).chain(primitive.lods.iter_mut().map(|lod| &mut lod.indices));
    for list in lists {
        *list = ::meshopt::optimize_vertex_cache(list, vertices);
    }
}
