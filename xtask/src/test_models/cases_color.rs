//! Cases about vertex colours: `COLOR_0` in each encoding glTF allows, multiplying the
//! material's base colour.

use anyhow::Result;

use super::builder::{GltfBuilder, Interp, Material, Node, Path, Primitive, channel};
use super::rig::{Y, rot};

/// Three unit quads in a row facing +Z, each coloured by `COLOR_0` in one encoding: VEC3
/// FLOAT red on a white material, VEC4 normalized UNSIGNED_BYTE blue on white, VEC4 normalized
/// UNSIGNED_SHORT blue on a grey (0.5) material (so the last two differ only by the base
/// colour they multiply). The row turns 30 degrees about Y over a second
/// (node animation), so the case has a clip like the others.
pub fn vertex_colors() -> Result<GltfBuilder> {
    let mut b = GltfBuilder::new();
    let white = b.material(&Material::new("White", [1.0; 4], 1.0));
    let grey = b.material(&Material::new("Grey", [0.5, 0.5, 0.5, 1.0], 1.0));
    let red = b.vertex(&[[1.0f32, 0.0, 0.0]; 4], false)?;
    let blue8 = b.vertex(&[[0u8, 0, 255, 255]; 4], true)?;
    let blue16 = b.vertex(&[[0u16, 0, 65535, 65535]; 4], true)?;
    let quad = [[-0.5, -0.5, 0.0], [0.5, -0.5, 0.0], [0.5, 0.5, 0.0], [-0.5, 0.5, 0.0f32]];
    let mut primitives = Vec::new();
    for (color, material, x) in [(red, white, -1.2f32), (blue8, white, 0.0), (blue16, grey, 1.2)] {
        let positions: Vec<[f32; 3]> = quad.iter().map(|p| [p[0] + x, p[1], p[2]]).collect();
        let indices = b.indices(&[0, 1, 2, 0, 2, 3])?;
        let primitive = Primitive::new(b.positions(&positions)?).attr("COLOR_0", color).indices(indices);
        primitives.push(primitive.material(material));
    }
    let mesh = b.mesh("ColoredQuads", &primitives, None);
    let row = b.node(Node::named("Row").mesh(mesh));
    let times = b.times(&[0.0, 1.0])?;
    let rotation = b.data(&[rot(Y, 0.0), rot(Y, 30.0)], false)?;
    b.animation("Turn", &[channel(row, Path::Rotation, Interp::Linear, times, rotation)]);
    Ok(b)
}
