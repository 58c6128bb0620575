//! Hostile cases that amplify: a small file asking the importer for far more memory or time
//! than its size, through a path that multiplies (one part named many times over, a count
//! read before it is checked, work quadratic in a count).

use std::path::PathBuf;

use serde_json::{Value, json};

use super::{HostileCase, Verdict, floats, png, png_header, push, triangle};

/// The amplifying cases.
pub(super) fn cases() -> Vec<HostileCase> {
    use Verdict::{Admitted, Refused};
    vec![
        HostileCase::new(
            "spring_groups_named_over",
            "a VRM spring naming one collider group 20,000 times, the group naming one collider 20,000 times (400 \
             million colliders gathered, 800 MB)",
            Admitted(None),
            &spring_groups(20_000),
        ),
        HostileCase::new(
            "instances_of_zeros",
            "six nodes instancing their mesh 4,194,304 times each through one accessor of no data (zeros): 5 GB of \
             transforms before the nodes were counted",
            Refused("PROPS_LIMIT_EXCEEDED"),
            &instances_of_zeros(6),
        ),
        {
            let (document, padding) = one_image_many_times(2_000, 8 << 20);
            HostileCase::new(
                "one_image_many_times",
                "2,000 images of one 8 MiB file (a header saying 16384 x 16384): 16 GB read, the file again for \
                 each",
                Admitted(Some("PROPS_LIMIT_EXCEEDED")),
                &document,
            )
            .with_file("big.png", padding)
        },
        empty_chunks(24 << 20),
        HostileCase::new(
            "lod_chains_everywhere",
            "6,000 nodes each with seven MSFT_lod levels (2.5 x 10^8 steps asking each whether it is a level; the \
             levels list themselves too, ignored)",
            Admitted(Some("PROPS_IGNORED")),
            &lod_chains(6_000),
        ),
        {
            let (document, bin) = fan(20_000);
            HostileCase::new(
                "normal_mapped_fan",
                "a normal-mapped fan of 20,000 triangles round one vertex, without tangents (MikkTSpace would \
                 recurse once per triangle, past a loading thread's stack)",
                Admitted(Some("PROPS_IGNORED")),
                &document,
            )
            .with_file("fan.bin", bin)
        },
        HostileCase::new(
            "clips_each_on_a_node",
            "5,000 animations, each turning a node of its own with the same two keys: bound as a mod's clips all \
             are, each clip's reference pose of every animated node (1.5 GB)",
            Refused("PROPS_LIMIT_EXCEEDED"),
            &clips_each_on_a_node(5_000),
        ),
        HostileCase::new(
            "morph_weights_everywhere",
            "a mesh of 256 morph targets (one accessor for all) on 1,000 nodes: 256,000 weights every posed prop \
             copies and writes",
            Refused("PROPS_LIMIT_EXCEEDED"),
            &morph_weights_everywhere(256, 1_000),
        ),
        HostileCase::new(
            "many_images_to_halve",
            "5,000 2048 x 2048 PNG headers in one buffer view, each read (each halved in turn until all fit: \
             quadratic in their count)",
            Admitted(Some("IMAGE_DATA_INVALID")),
            &many_images(5_000),
        ),
    ]
}

/// [`triangle`] whose node has a child, a VRM 1.0 spring down the two, one collider, and one
/// group naming it `times` times, named by the spring `times` times.
fn spring_groups(times: usize) -> Value {
    let mut document = triangle();
    document["nodes"][0]["children"] = json!([1]);
    push(&mut document, "/nodes", json!({"name": "tail", "translation": [0.0, 1.0, 0.0]}));
    document["extensionsUsed"] = json!(["VRMC_springBone"]);
    document["extensions"] = json!({"VRMC_springBone": {
        "specVersion": "1.0",
        "colliders": [{"node": 0, "shape": {"sphere": {"radius": 0.1}}}],
        "colliderGroups": [{"colliders": vec![0; times]}],
        "springs": [{"joints": [{"node": 0}, {"node": 1}], "colliderGroups": vec![0; times]}]
    }});
    document
}

/// [`triangle`] drawn by `nodes` nodes instancing it through one accessor of the mods' most
/// elements, with no buffer view.
fn instances_of_zeros(nodes: usize) -> Value {
    let mut document = triangle();
    push(&mut document, "/accessors", json!({"componentType": 5126, "count": 4 << 20, "type": "VEC3"}));
    let instanced = json!({"mesh": 0, "extensions": {"EXT_mesh_gpu_instancing": {"attributes": {"TRANSLATION": 4}}}});
    document["nodes"] = json!(vec![instanced; nodes]);
    document["scenes"] = json!([{"nodes": (0..nodes).collect::<Vec<_>>()}]);
    document["extensionsUsed"] = json!(["EXT_mesh_gpu_instancing"]);
    document
}

/// [`triangle`] in `images` materials, each's base colour an image of one file of `bytes`
/// bytes (a PNG header saying 16384 x 16384, then zeros), and the file.
fn one_image_many_times(images: usize, bytes: usize) -> (Value, Vec<u8>) {
    let mut document = triangle();
    let primitive = document["meshes"][0]["primitives"][0].clone();
    document["images"] = json!(vec![json!({"uri": "big.png"}); images]);
    document["textures"] = json!((0..images).map(|i| json!({"source": i})).collect::<Vec<_>>());
    document["materials"] = json!(
        (0..images).map(|i| json!({"pbrMetallicRoughness": {"baseColorTexture": {"index": i}}})).collect::<Vec<_>>()
    );
    document["meshes"][0]["primitives"] = json!(
        (0..images)
            .map(|i| {
                let mut p = primitive.clone();
                p["material"] = json!(i);
                p
            })
            .collect::<Vec<_>>()
    );
    let mut file = png_header(16_384, 16_384);
    file.resize(bytes, 0);
    (document, file)
}

/// A GLB of [`triangle`] followed by chunks of no bytes and no type to fill `bytes` bytes.
fn empty_chunks(bytes: usize) -> HostileCase {
    let mut json = triangle().to_string().into_bytes();
    json.resize(json.len().next_multiple_of(4), b' ');
    let total = (12 + 8 + json.len()).max(bytes).next_multiple_of(8);
    let mut glb = Vec::with_capacity(total);
    glb.extend_from_slice(b"glTF");
    glb.extend_from_slice(&2u32.to_le_bytes());
    glb.extend_from_slice(&(total as u32).to_le_bytes());
    glb.extend_from_slice(&(json.len() as u32).to_le_bytes());
    glb.extend_from_slice(b"JSON");
    glb.extend_from_slice(&json);
    glb.resize(total, 0);
    let model = PathBuf::from("empty_chunks.glb");
    HostileCase {
        name: "empty_chunks",
        attack: "a 24 MiB GLB of three million empty chunks of no type after its JSON (an issue each: 400 MB)",
        files: vec![(model.clone(), glb)],
        model,
        specials: Vec::new(),
        verdict: Verdict::Admitted(Some("GLB_UNKNOWN_CHUNK_TYPE")),
    }
}

/// [`triangle`] drawn by `nodes` nodes, each giving nodes 1 to 7 (drawing it too) as its
/// seven coarser levels.
fn lod_chains(nodes: usize) -> Value {
    let mut document = triangle();
    let chained = json!({"mesh": 0, "extensions": {"MSFT_lod": {"ids": [1, 2, 3, 4, 5, 6, 7]}}});
    document["nodes"] = json!(vec![chained; nodes]);
    document["scenes"] = json!([{"nodes": (0..nodes).collect::<Vec<_>>()}]);
    document["extensionsUsed"] = json!(["MSFT_lod"]);
    document
}

/// A fan of `triangles` triangles round vertex 0 (its rim a spiral), with texture coordinates
/// and a normal map but no tangents, its buffer `fan.bin`; and the buffer.
fn fan(triangles: u32) -> (Value, Vec<u8>) {
    let rim = |k: u32| {
        let angle = k as f32 * 0.001;
        [angle.cos() * (1.0 + k as f32), angle.sin() * (1.0 + k as f32), 0.0]
    };
    let positions: Vec<f32> = [0.0, 0.0, 0.0].into_iter().chain((0..=triangles).flat_map(rim)).collect();
    let uvs: Vec<f32> = (0..=triangles + 1).flat_map(|k| [k as f32 * 1e-3, 0.5]).collect();
    let indices: Vec<u8> = (0..triangles).flat_map(|k| [0, k + 1, k + 2]).flat_map(u32::to_le_bytes).collect();
    let vertices = triangles as usize + 2;
    let mut bin = floats(&positions);
    let uv_at = bin.len();
    bin.extend(floats(&uvs));
    let indices_at = bin.len();
    bin.extend(&indices);
    let (max, min) = positions.chunks(3).fold(([f32::MIN; 3], [f32::MAX; 3]), |(max, min), p| {
        ([0, 1, 2].map(|i| max[i].max(p[i])), [0, 1, 2].map(|i| min[i].min(p[i])))
    });
    let document = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "indices": 2, "material": 0}]}],
        "materials": [{"normalTexture": {"index": 0}}],
        "textures": [{"source": 0}],
        "images": [{"uri": super::data_uri("image/png", &png(2, 2))}],
        "buffers": [{"byteLength": bin.len(), "uri": "fan.bin"}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": uv_at},
            {"buffer": 0, "byteOffset": uv_at, "byteLength": indices_at - uv_at},
            {"buffer": 0, "byteOffset": indices_at, "byteLength": indices.len()}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": vertices, "type": "VEC3", "min": min, "max": max},
            {"bufferView": 1, "componentType": 5126, "count": vertices, "type": "VEC2"},
            {"bufferView": 2, "componentType": 5125, "count": indices.len() / 4, "type": "SCALAR"}
        ]
    });
    (document, bin)
}

/// [`triangle`] in `images` materials, each's base colour an image of one buffer view, which
/// holds a PNG header saying 2048 x 2048 pixels and no data.
fn many_images(images: usize) -> Value {
    let (mut document, _) = one_image_many_times(images, 0);
    let header = png_header(2048, 2048);
    push(
        &mut document,
        "/buffers",
        json!({"byteLength": header.len(), "uri": super::data_uri("application/octet-stream", &header)}),
    );
    push(&mut document, "/bufferViews", json!({"buffer": 1, "byteLength": header.len()}));
    let view = json!({"bufferView": 4, "mimeType": "image/png"});
    document["images"] = json!(vec![view; images]);
    document
}

/// [`triangle`] under a root with `nodes` children, each turned by an animation of its own
/// (all sharing the triangle's key accessors).
fn clips_each_on_a_node(nodes: usize) -> Value {
    let mut document = triangle();
    let children: Vec<usize> = (1..=nodes).collect();
    document["nodes"][0]["children"] = json!(children);
    for _ in 0..nodes {
        push(&mut document, "/nodes", json!({}));
    }
    let animations: Vec<Value> = (1..=nodes)
        .map(|node| {
            json!({"channels": [{"sampler": 0, "target": {"node": node, "path": "rotation"}}],
                "samplers": [{"input": 2, "output": 3}]})
        })
        .collect();
    document["animations"] = json!(animations);
    document
}

/// [`triangle`] with `targets` morph targets (each its own positions) on `nodes` nodes.
fn morph_weights_everywhere(targets: usize, nodes: usize) -> Value {
    let mut document = triangle();
    document["meshes"][0]["primitives"][0]["targets"] = json!(vec![json!({"POSITION": 0}); targets]);
    document["nodes"] = json!(vec![json!({"mesh": 0}); nodes]);
    document["scenes"] = json!([{"nodes": (0..nodes).collect::<Vec<_>>()}]);
    document
}
