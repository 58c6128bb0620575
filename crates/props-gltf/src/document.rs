//! The glTF JSON: parsing, required extensions, and the gltf crate's validation of index
//! references, with its findings turned into [`ImportError`]s that carry the JSON path.

use gltf::json::mesh::Semantic;
use gltf::json::validation::{self, Checked, Validate};
use gltf::json::{Path, Root};
use serde::Deserialize;

use crate::error::{ErrorKind, FILE, ImportError, Warnings, warn};
use crate::float_integers;
use crate::morph_colors::MorphColors;

/// Extensions this importer handles (or may safely ignore) when a file requires them.
pub(crate) const SUPPORTED_EXTENSIONS: &[&str] = &[
    "KHR_mesh_quantization",
    "KHR_materials_unlit",
    "KHR_texture_transform",
    "KHR_materials_emissive_strength",
    "KHR_materials_pbrSpecularGlossiness",
    "KHR_materials_ior",
    "KHR_materials_specular",
    "KHR_materials_transmission",
    "KHR_materials_volume",
    "KHR_materials_clearcoat",
    "KHR_materials_sheen",
    "KHR_materials_anisotropy",
    "KHR_materials_iridescence",
    "KHR_materials_diffuse_roughness",
    "KHR_lights_punctual",
    "KHR_animation_pointer",
    "KHR_node_visibility",
    "EXT_texture_webp",
    "KHR_texture_basisu",
    "EXT_mesh_gpu_instancing",
    "EXT_meshopt_compression",
    "KHR_meshopt_compression",
    "KHR_draco_mesh_compression",
    "MSFT_lod",
    "KHR_materials_variants",
    "VRMC_vrm",
    "VRM",
    "VRMC_springBone",
    "VRMC_springBone_extended_collider",
    "VRMC_node_constraint",
];

/// Whether a file that requires `name` can be read: the extension is implemented, or it only
/// names texture images the game does not decode (AVIF), which then draw untextured, or it is
/// a material's look the game does not draw (`KHR_materials_dispersion`, `EXT_materials_bump`):
/// the material is drawn without it, as three.js draws it, the geometry unchanged.
pub(crate) fn may_be_required(name: &str) -> bool {
    SUPPORTED_EXTENSIONS.contains(&name)
        || TEXTURE_SOURCES.iter().any(|(texture, _)| *texture == name)
        || name.split('_').nth(1) == Some("materials")
}

/// Extensions that give a texture another image than its `source`, in the order the game
/// prefers them, each with whether the game decodes that image (where it does not, `source` is
/// the fallback, as the extensions define).
const TEXTURE_SOURCES: &[(&str, bool)] =
    &[("EXT_texture_webp", true), ("KHR_texture_basisu", true), ("EXT_texture_avif", false)];

/// The image texture `t` shows: the first source the game decodes among its extensions' and
/// its own `source`; `None` when it has none the game decodes.
pub(crate) fn texture_image(root: &Root, t: usize) -> Option<usize> {
    let texture = root.textures.get(t)?;
    let others = texture.extensions.as_ref().map(|e| &e.others);
    let extension_source = |name: &str| {
        let source = others?.get(name)?.get("source")?.as_u64()?;
        usize::try_from(source).ok()
    };
    let decoded = TEXTURE_SOURCES.iter().filter(|(_, decoded)| *decoded).find_map(|(name, _)| extension_source(name));
    decoded.or_else(|| Some(texture.source.value()).filter(|&s| s != u32::MAX as usize))
}

/// The extensions through which texture `t` names an image (so it may leave out `source`).
pub(crate) fn texture_extension_sources(root: &Root, t: usize) -> Vec<&'static str> {
    let others = root.textures.get(t).and_then(|texture| Some(&texture.extensions.as_ref()?.others));
    let named = |name: &&str| others.is_some_and(|others| others.contains_key(*name));
    TEXTURE_SOURCES.iter().map(|(name, _)| *name).filter(named).collect()
}

/// The parsed JSON of a file.
#[derive(Debug)]
pub(crate) struct Document {
    /// The glTF objects; [`validate`] lists the indices that refer to no object.
    pub root: Root,
    /// For animations that had channels removed (see [`parse`]), the original index of each
    /// remaining channel.
    channel_origins: Vec<Vec<usize>>,
    /// Per animation, its channels without a target node: `KHR_animation_pointer`'s.
    pointer_channels: Vec<Vec<PointerChannel>>,
    /// JSON of the wrong type inside parts, which were emptied to parse the rest
    /// ([`crate::mistyped`]): the import leaves those parts out.
    pub mistyped: Vec<ImportError>,
    /// The morph targets' `COLOR_0` accessors, which `root` has no place for.
    pub morph_colors: MorphColors,
}

/// An animation channel that targets a JSON pointer (`KHR_animation_pointer`) instead of a
/// node.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PointerChannel {
    /// Its index among the animation's channels in the file.
    pub channel: usize,
    /// Its sampler index, if it has a valid one.
    pub sampler: Option<usize>,
    /// The pointer.
    pub pointer: String,
}

impl Document {
    /// The index channel `channel` of animation `animation` has in the file.
    pub(crate) fn source_channel(&self, animation: usize, channel: usize) -> usize {
        self.channel_origins.get(animation).and_then(|o| o.get(channel)).copied().unwrap_or(channel)
    }

    /// Animation `animation`'s channels that target a JSON pointer, in file order.
    pub(crate) fn pointer_channels(&self, animation: usize) -> &[PointerChannel] {
        self.pointer_channels.get(animation).map_or(&[], Vec::as_slice)
    }

    /// Per node: whether a clip moves it by parts (its translation, rotation or scale, by a
    /// channel or a pointer), so that a `matrix` of its is taken apart into them, as three.js
    /// takes apart every node's.
    pub(crate) fn moved_by_parts(&self) -> Vec<bool> {
        use gltf::json::animation::Property;
        let mut moved = vec![false; self.root.nodes.len()];
        for (a, animation) in self.root.animations.iter().enumerate() {
            let by_parts = |property: Property| property != Property::MorphTargetWeights;
            let channels = animation.channels.iter().filter_map(|channel| match channel.target.path {
                Checked::Valid(property) if by_parts(property) => Some(channel.target.node.value()),
                _ => None,
            });
            let pointers = self.pointer_channels(a).iter().filter_map(|channel| {
                crate::animation_pointer::node_property(&channel.pointer).filter(|&(_, p)| by_parts(p)).map(|(n, _)| n)
            });
            for node in channels.chain(pointers) {
                if let Some(flag) = moved.get_mut(node) {
                    *flag = true;
                }
            }
        }
        moved
    }
}

/// The few properties looked at before the full parse.
#[derive(Deserialize)]
struct Probe {
    #[serde(default, rename = "extensionsRequired")]
    extensions_required: Vec<String>,
    #[serde(default)]
    animations: Vec<ProbeAnimation>,
}

#[derive(Deserialize)]
struct ProbeAnimation {
    #[serde(default)]
    channels: Vec<ProbeChannel>,
}

#[derive(Deserialize)]
struct ProbeChannel {
    #[serde(default)]
    sampler: Option<serde_json::Value>,
    #[serde(default)]
    target: Option<ProbeTarget>,
}

#[derive(Deserialize)]
struct ProbeTarget {
    #[serde(default)]
    node: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    extensions: Option<ProbeTargetExtensions>,
}

#[derive(Deserialize)]
struct ProbeTargetExtensions {
    #[serde(default, rename = "KHR_animation_pointer")]
    pointer: Option<ProbePointer>,
}

#[derive(Deserialize)]
struct ProbePointer {
    #[serde(default)]
    pointer: Option<serde_json::Value>,
}

impl ProbeChannel {
    fn has_node(&self) -> bool {
        self.target.as_ref().is_some_and(|t| t.node.is_some())
    }

    fn pointer(&self) -> Option<String> {
        let pointer = self.target.as_ref()?.extensions.as_ref()?.pointer.as_ref()?.pointer.as_ref()?;
        pointer.as_str().map(str::to_owned)
    }

    fn sampler(&self) -> Option<usize> {
        usize::try_from(float_integers::as_index(self.sampler.as_ref()?)?).ok()
    }
}

/// Parses the JSON (not its references: see [`validate`]). Animation channels without a
/// target node are set aside ([`Document::pointer_channels`]: KHR_animation_pointer's; one
/// without a pointer either is ignored with a warning). JSON of the wrong type is mended where
/// it can be ([`crate::mistyped`]: integers written as floats read, ...); the first that cannot
/// fails at its path.
pub(crate) fn parse(json: &[u8], warnings: &mut Warnings) -> Result<Document, ImportError> {
    let syntax = |e: serde_json::Error| ImportError::at(FILE, ErrorKind::Json { message: e.to_string() });
    let probe: Probe = serde_json::from_slice(json).map_err(syntax)?;
    for (i, name) in probe.extensions_required.iter().enumerate() {
        if !may_be_required(name) {
            return Err(unsupported_extension(format!("extensionsRequired[{i}]"), name));
        }
    }
    let has_pointer_channels = probe.animations.iter().flat_map(|a| &a.channels).any(|c| !c.has_node());
    // Straight to the types where that works (most files); through a JSON value otherwise.
    let typed = (!has_pointer_channels).then(|| serde_json::from_slice::<Root>(json).ok()).flatten();
    let Document { mut root, channel_origins, pointer_channels, mistyped, morph_colors } = match typed {
        Some(root) => Document {
            root,
            channel_origins: Vec::new(),
            pointer_channels: Vec::new(),
            mistyped: Vec::new(),
            morph_colors: MorphColors::find(json),
        },
        None => from_value(serde_json::from_slice(json).map_err(syntax)?, warnings).map_err(|error| {
            let at = if error.path().iter().next().is_some() { error.path().to_string() } else { FILE.to_owned() };
            ImportError::at(at, ErrorKind::Json { message: error.into_inner().to_string() })
        })?,
    };
    if !root.asset.version.starts_with("2.") {
        let version = root.asset.version.clone();
        return Err(ImportError::at("asset.version", ErrorKind::UnsupportedVersion { version }));
    }
    for (i, name) in root.extensions_used.iter().enumerate() {
        if !SUPPORTED_EXTENSIONS.contains(&name.as_str()) {
            warn(warnings, format!("extensionsUsed[{i}]"), format!("extension {name} is not supported and is ignored"));
        }
    }
    // Every required extension is supported (checked above); the gltf crate knows only some.
    root.extensions_required.clear();
    Ok(Document { root, channel_origins, pointer_channels, mistyped, morph_colors })
}

/// The document of already parsed JSON, with none of the checks [`parse`] stops at
/// (required extensions, version, index references): the checker reports those itself.
/// Channels without a target node are dropped, with a warning. JSON of the wrong type is mended
/// where it can be ([`crate::mistyped`]); the location of the first that cannot is the error.
pub(crate) fn from_value(
    mut value: serde_json::Value,
    warnings: &mut Warnings,
) -> Result<Document, serde_path_to_error::Error<serde_json::Error>> {
    let probe = Probe::deserialize(&value).ok();
    let morph_colors = MorphColors::in_value(&value);
    let (channel_origins, pointer_channels) = match probe {
        Some(probe) => set_aside_nodeless_channels(&mut value, &probe, warnings),
        None => (Vec::new(), Vec::new()),
    };
    let (mut root, mistyped) = crate::mistyped::deserialize(value, warnings)?;
    root.extensions_required.clear();
    Ok(Document { root, channel_origins, pointer_channels, mistyped, morph_colors })
}

/// Removes the channels without `target.node` from `value`; returns, per animation, the
/// original indices of the channels kept, and the pointer channels removed (those without a
/// pointer are ignored, with a warning).
fn set_aside_nodeless_channels(
    value: &mut serde_json::Value,
    probe: &Probe,
    warnings: &mut Warnings,
) -> (Vec<Vec<usize>>, Vec<Vec<PointerChannel>>) {
    let mut origins = Vec::with_capacity(probe.animations.len());
    let mut pointers = Vec::with_capacity(probe.animations.len());
    for (a, animation) in probe.animations.iter().enumerate() {
        let keep: Vec<bool> = animation.channels.iter().map(ProbeChannel::has_node).collect();
        let mut set_aside = Vec::new();
        for (c, channel) in animation.channels.iter().enumerate().filter(|(c, _)| !keep[*c]) {
            match channel.pointer() {
                Some(pointer) => set_aside.push(PointerChannel { channel: c, sampler: channel.sampler(), pointer }),
                None => {
                    let message =
                        "channel has neither a target node nor a KHR_animation_pointer pointer, and is ignored";
                    warn(warnings, format!("animations[{a}].channels[{c}]"), message);
                }
            }
        }
        pointers.push(set_aside);
        if let Some(channels) = value.pointer_mut(&format!("/animations/{a}/channels")).and_then(|c| c.as_array_mut()) {
            let mut flags = keep.iter();
            channels.retain(|_| flags.next().copied().unwrap_or(true));
        }
        origins.push(keep.iter().enumerate().filter(|(_, keep)| **keep).map(|(c, _)| c).collect());
    }
    (origins, pointers)
}

/// The error for a required extension this importer does not implement.
pub(crate) fn unsupported_extension(json_path: String, name: &str) -> ImportError {
    let hint = match name {
        "MSFT_texture_dds" => "; re-export the model with PNG or JPEG textures, without texture compression",
        _ => "; re-export the model without it",
    };
    ImportError::at(json_path, ErrorKind::UnsupportedExtension { name: name.to_owned(), hint })
}

/// The findings of the gltf crate's validation (index references, required properties, enum
/// values) that matter to the importer: all but missing POSITION bounds (metadata the
/// importer does not need) and invalid sampler values (never read).
pub(crate) fn validate(root: &Root) -> Vec<ImportError> {
    let is_bounds = |error: &ImportError| {
        matches!(error.kind, ErrorKind::MissingProperty)
            && (error.json_path.ends_with("[\"POSITION\"].min") || error.json_path.ends_with("[\"POSITION\"].max"))
    };
    // Samplers are never read (the renderer has its own); Khronos only warns about them.
    let is_sampler_value =
        |error: &ImportError| matches!(error.kind, ErrorKind::InvalidValue) && error.json_path.starts_with("samplers[");
    validation_findings(root).into_iter().filter(|error| !is_bounds(error) && !is_sampler_value(error)).collect()
}

/// Findings of the gltf crate's validation kept per file.
const MAX_FINDINGS: usize = 1024;

/// The findings of the gltf crate's validation (index references, required properties, enum
/// values), in its order, at most [`MAX_FINDINGS`].
pub(crate) fn validation_findings(root: &Root) -> Vec<ImportError> {
    // The gltf crate's own check of POSITION indexes the accessor list without a bounds
    // check: do that one first, and stop there if it fails.
    let mut findings = Vec::new();
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            let position = primitive.attributes.get(&Checked::Valid(Semantic::Positions));
            if position.is_some_and(|index| root.accessors.get(index.value()).is_none()) {
                let path = format!("meshes[{m}].primitives[{p}].attributes[\"POSITION\"]");
                findings.push(ImportError::at(path, ErrorKind::InvalidIndex));
            }
        }
    }
    if !findings.is_empty() {
        return findings;
    }
    root.validate(root, Path::new, &mut |path, error| {
        // A hostile file may have a broken reference per object: keep the first ones only.
        if findings.len() >= MAX_FINDINGS {
            return;
        }
        let path = path().0;
        // An accessor with neither `bufferView` nor `sparse` is valid glTF (all zeros); the
        // gltf crate calls its `bufferView` missing.
        if matches!(error, validation::Error::Missing)
            && path.starts_with("accessors[")
            && path.ends_with("].bufferView")
        {
            return;
        }
        // An attribute of no name glTF defines is never read (the checker names it: the gltf
        // crate keeps no name for it).
        if matches!(error, validation::Error::Invalid) && path.contains(".attributes[\"<invalid semantic name>\"]") {
            return;
        }
        // A texture whose image an extension names (EXT_texture_webp, ...) needs no `source`.
        let texture = path.strip_prefix("textures[").and_then(|rest| rest.strip_suffix("].source"));
        if matches!(error, validation::Error::Missing)
            && texture.and_then(|t| t.parse().ok()).is_some_and(|t| !texture_extension_sources(root, t).is_empty())
        {
            return;
        }
        findings.push(match error {
            validation::Error::IndexOutOfBounds => ImportError::at(path, ErrorKind::InvalidIndex),
            validation::Error::Invalid => ImportError::at(path, ErrorKind::InvalidValue),
            validation::Error::Missing => ImportError::at(path, ErrorKind::MissingProperty),
            validation::Error::Oversize => ImportError::at(path, ErrorKind::ValueTooLarge),
            // The path reads `extensionsRequired[i] = "NAME"`.
            validation::Error::Unsupported => {
                let name = path.split('"').nth(1).unwrap_or(&path).to_owned();
                let json_path = path.split(" = ").next().unwrap_or(&path).to_owned();
                unsupported_extension(json_path, &name)
            }
        });
    });
    findings
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn parse_value(value: serde_json::Value) -> (Result<Document, ImportError>, Warnings) {
        let mut warnings = Vec::new();
        let result = parse(value.to_string().as_bytes(), &mut warnings).and_then(|document| {
            match validate(&document.root).into_iter().next() {
                Some(error) => Err(error),
                None => Ok(document),
            }
        });
        (result, warnings)
    }

    #[test]
    fn required_extensions() {
        let (dds, _) = parse_value(json!({"asset": {"version": "2.0"},
            "extensionsRequired": ["KHR_mesh_quantization", "KHR_draco_mesh_compression", "MSFT_texture_dds"]}));
        let error = dds.expect_err("DDS textures are not supported");
        assert_eq!(error.json_path, "extensionsRequired[2]");
        assert!(error.kind.to_string().contains("MSFT_texture_dds"));
        assert!(error.kind.to_string().contains("with PNG or JPEG textures"));
        let (ok, warnings) = parse_value(json!({"asset": {"version": "2.0"},
            "extensionsUsed": ["KHR_materials_unlit", "KHR_materials_dispersion", "KHR_lights_punctual"],
            "extensionsRequired": ["KHR_mesh_quantization", "KHR_materials_unlit", "KHR_texture_transform",
                "KHR_lights_punctual"]}));
        ok.expect("supported extensions");
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].json_path, "extensionsUsed[1]");
    }

    #[test]
    fn validation_findings_keep_their_path() {
        let (result, _) = parse_value(json!({"asset": {"version": "2.0"}, "nodes": [{"mesh": 3}]}));
        let error = result.expect_err("mesh 3 does not exist");
        assert_eq!(error.json_path, "nodes[0].mesh");
        assert!(matches!(error.kind, ErrorKind::InvalidIndex));
        let (result, _) = parse_value(json!({"asset": {"version": "2.0"},
            "meshes": [{"primitives": [{"attributes": {"POSITION": 7}}]}]}));
        let error = result.expect_err("accessor 7 does not exist");
        assert_eq!(error.json_path, "meshes[0].primitives[0].attributes[\"POSITION\"]");
        let (result, _) = parse_value(json!({"asset": {"version": "1.0"}}));
        assert!(matches!(result.expect_err("1.0").kind, ErrorKind::UnsupportedVersion { .. }));
        let (result, _) = parse_value(json!({"asset": {"version": "2.0"}, "nodes": {}}));
        assert!(matches!(result.expect_err("nodes is no list").kind, ErrorKind::Json { .. }));
    }

    /// `"count": 3.0` is read as 3, with one warning where the first such integer is; a string
    /// where an integer goes fails there.
    #[test]
    fn integers_written_as_floats_are_read_and_a_mismatch_says_where() {
        let file = |count: serde_json::Value| {
            json!({"asset": {"version": "2.0"}, "nodes": [{"mesh": 0.0, "scale": [1.0, 2.0, 1.0]}],
                "meshes": [{"primitives": [{"attributes": {"POSITION": 0.0}}]}],
                "accessors": [{"componentType": 5126.0, "type": "VEC3", "count": count}],
                "animations": [{"samplers": [{"input": 0.0, "output": 0.0}], "channels": [{"sampler": 0.0,
                    "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/x"}}}}]}]})
        };
        let (result, warnings) = parse_value(file(json!(3.0)));
        let document = result.expect("parses");
        assert_eq!(document.root.nodes[0].mesh.map(|m| m.value()), Some(0));
        assert_eq!(document.root.accessors[0].count.0, 3);
        assert_eq!(document.root.nodes[0].scale, Some([1.0, 2.0, 1.0]));
        assert_eq!(document.pointer_channels(0)[0].sampler, Some(0), "the set-aside channel's sampler");
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(warnings[0].json_path, "accessors[0].componentType");
        assert!(warnings[0].message.contains("(`5126.0` here)"), "{}", warnings[0].message);

        let (result, _) = parse_value(file(json!("3")));
        let error = result.expect_err("a string is no count");
        assert_eq!(error.json_path, "accessors[0].count");
        assert!(matches!(error.kind, ErrorKind::Json { .. }), "{error}");
        let (result, _) = parse_value(file(json!(3.5)));
        assert_eq!(result.expect_err("3.5 is no count").json_path, "accessors[0].count");
    }

    #[test]
    fn pointer_channels_are_set_aside() {
        let (result, warnings) = parse_value(json!({"asset": {"version": "2.0"}, "nodes": [{}],
            "accessors": [{"componentType": 5126, "type": "SCALAR", "count": 1, "sparse": {"count": 0,
                "indices": {"bufferView": 0, "componentType": 5121}, "values": {"bufferView": 0}}}],
            "buffers": [{"byteLength": 4, "uri": "data:;base64,AAAAAA=="}],
            "bufferViews": [{"buffer": 0, "byteLength": 4}],
            "animations": [{"samplers": [{"input": 0, "output": 0}], "channels": [
                {"sampler": 0, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/x"}}}},
                {"sampler": 0, "target": {"node": 0, "path": "weights"}},
                {"sampler": 0, "target": {"path": "pointer"}}]}]}));
        let document = result.expect("parses");
        assert_eq!(document.root.animations[0].channels.len(), 1);
        assert_eq!(document.source_channel(0, 0), 1);
        let pointer = PointerChannel { channel: 0, sampler: Some(0), pointer: "/x".to_owned() };
        assert_eq!(document.pointer_channels(0), [pointer]);
        assert_eq!(warnings.len(), 1, "the channel with neither node nor pointer: {warnings:?}");
        assert_eq!(warnings[0].json_path, "animations[0].channels[2]");
    }
}
