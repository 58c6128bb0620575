//! `KHR_animation_pointer`: what a channel's JSON pointer animates, per the glTF Asset
//! Object Model.
//!
//! A node's transform or weights become an ordinary node channel; material factors, texture
//! transforms, light parameters and node visibility become entries of the rig's
//! [`props_anim::property::Properties`]. A pointer to something the game does not animate (a
//! camera, an extension it does not implement, `extras`) is ignored with a warning; a
//! malformed pointer, or one naming nothing in the file, makes its clip invalid.

use gltf::json::Root;
use gltf::json::animation::Property;
use props_anim::light::Light;
use props_anim::property::{LightField, MaterialField, PropertyTarget, TextureSlot};
use props_anim::{Rig, material::Material};

/// What a pointer animates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum PointerTarget {
    /// A node's transform or morph weights (glTF node index): read as a node channel.
    Node {
        /// glTF node index.
        node: u32,
        /// The property.
        property: Property,
    },
    /// A property of the rig's table.
    Property(PropertyTarget),
}

/// Why a pointer animates nothing.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Unresolved {
    /// It names something the game does not animate: the channel is ignored, for this reason.
    Ignored(String),
    /// It is malformed or names nothing in the file: the clip is invalid, for this reason.
    Invalid(String),
}

/// What pointers are resolved against.
pub(crate) struct Targets<'a> {
    /// The file's JSON.
    pub root: &'a Root,
    /// The rig (glTF node index to rig node).
    pub rig: &'a Rig,
    /// The model's materials (glTF material `i` is `materials[i]`).
    pub materials: &'a [Material],
    /// The model's lights.
    pub lights: &'a [Light],
    /// Per light of the file, its index among the model's lights (`None`: it was not read).
    pub light_of_source: &'a [Option<u32>],
}

const LIGHTS: &str = "KHR_lights_punctual";
const TEXTURE_TRANSFORM: &str = "KHR_texture_transform";
const EMISSIVE_STRENGTH: &str = "KHR_materials_emissive_strength";
const NODE_VISIBILITY: &str = "KHR_node_visibility";

impl Targets<'_> {
    /// Resolves `pointer`.
    pub(crate) fn resolve(&self, pointer: &str) -> Result<PointerTarget, Unresolved> {
        let tokens = tokens(pointer)?;
        let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
        match tokens.as_slice() {
            ["nodes", index, rest @ ..] => self.node(index, rest),
            ["materials", index, rest @ ..] => self.material(index, rest),
            ["extensions", LIGHTS, "lights", index, rest @ ..] => self.light(index, rest),
            ["extensions", name, ..] => Err(Unresolved::Ignored(format!("the extension {name} is not animated"))),
            ["cameras", ..] => Err(Unresolved::Ignored("cameras are the host game's, not a prop's".to_owned())),
            ["meshes", ..] => Err(Unresolved::Ignored(
                "a mesh's default morph weights are not animated; animate /nodes/N/weights".to_owned(),
            )),
            ["extras", ..] => Err(Unresolved::Ignored("extras mean nothing to the game".to_owned())),
            _ => Err(invalid("it names no animatable property of the glTF Asset Object Model")),
        }
    }

    fn node(&self, index: &str, rest: &[&str]) -> Result<PointerTarget, Unresolved> {
        let node = object_index(index, self.root.nodes.len(), "node")?;
        let id = self.rig.from_source_index(node).ok_or_else(|| invalid(format!("node {node} is not in the rig")))?;
        let property = match rest {
            ["translation"] => Property::Translation,
            ["rotation"] => Property::Rotation,
            ["scale"] => Property::Scale,
            ["weights"] => Property::MorphTargetWeights,
            ["extensions", NODE_VISIBILITY, "visible"] => {
                return Ok(PointerTarget::Property(PropertyTarget::NodeVisible(id)));
            }
            ["extensions", name, ..] => return Err(ignored_extension(name)),
            ["extras", ..] => return Err(Unresolved::Ignored("extras mean nothing to the game".to_owned())),
            _ => return Err(invalid("a node's animatable properties are translation, rotation, scale and weights")),
        };
        Ok(PointerTarget::Node { node, property })
    }

    fn material(&self, index: &str, rest: &[&str]) -> Result<PointerTarget, Unresolved> {
        let material = object_index(index, self.root.materials.len(), "material")?;
        let field = match rest {
            ["pbrMetallicRoughness", "baseColorFactor"] => MaterialField::BaseColor,
            ["pbrMetallicRoughness", "metallicFactor"] => MaterialField::Metallic,
            ["pbrMetallicRoughness", "roughnessFactor"] => MaterialField::Roughness,
            ["emissiveFactor"] => MaterialField::Emissive,
            ["alphaCutoff"] => MaterialField::AlphaCutoff,
            ["normalTexture", "scale"] => MaterialField::NormalScale,
            ["occlusionTexture", "strength"] => MaterialField::OcclusionStrength,
            ["extensions", EMISSIVE_STRENGTH, "emissiveStrength"] => MaterialField::EmissiveStrength,
            ["extensions", name, ..] => return Err(ignored_extension(name)),
            ["extras", ..] => return Err(Unresolved::Ignored("extras mean nothing to the game".to_owned())),
            _ => texture_transform(rest)?,
        };
        let target = PropertyTarget::Material { material, field };
        self.check_exists(target)?;
        Ok(PointerTarget::Property(target))
    }

    fn light(&self, index: &str, rest: &[&str]) -> Result<PointerTarget, Unresolved> {
        let listed = self.root.extensions.as_ref().and_then(|e| e.others.get(LIGHTS)).and_then(|e| e.get("lights"));
        let count = listed.and_then(serde_json::Value::as_array).map_or(0, Vec::len);
        let source = object_index(index, count, "light")?;
        let Some(light) = self.light_of_source.get(source as usize).copied().flatten() else {
            return Err(Unresolved::Ignored(format!("light {source} could not be read")));
        };
        let field = match rest {
            ["color"] => LightField::Color,
            ["intensity"] => LightField::Intensity,
            ["range"] => LightField::Range,
            ["spot", "innerConeAngle"] => LightField::InnerConeAngle,
            ["spot", "outerConeAngle"] => LightField::OuterConeAngle,
            _ => {
                return Err(invalid(
                    "a light's animatable properties are color, intensity, range and its spot cone angles",
                ));
            }
        };
        let target = PropertyTarget::Light { light, field };
        self.check_exists(target)?;
        Ok(PointerTarget::Property(target))
    }

    /// Fails for a target whose object is absent (a texture slot without a texture, the
    /// cone of a light that is no spot).
    fn check_exists(&self, target: PropertyTarget) -> Result<(), Unresolved> {
        match target.rest_value(self.materials, self.lights) {
            Some(_) => Ok(()),
            None => {
                Err(invalid("the object holding this property is absent (no such texture, or the light is no spot)"))
            }
        }
    }
}

/// The node and property a pointer names when it is a node's transform or weights
/// (`/nodes/N/rotation`), whether or not node `N` exists: what the checker checks as a node
/// channel.
pub(crate) fn node_property(pointer: &str) -> Option<(usize, Property)> {
    let tokens = tokens(pointer).ok()?;
    let [nodes, index, property] = tokens.as_slice() else { return None };
    let digits = !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit());
    if nodes != "nodes" || !digits || (index.len() > 1 && index.starts_with('0')) {
        return None;
    }
    let property = match property.as_str() {
        "translation" => Property::Translation,
        "rotation" => Property::Rotation,
        "scale" => Property::Scale,
        "weights" => Property::MorphTargetWeights,
        _ => return None,
    };
    Some((index.parse().ok()?, property))
}

/// The JSON pointer of `target` in the file: materials by their glTF index (the model's are
/// the file's, in order), nodes by their glTF index, lights by their index in the file
/// (`light_of_source` maps those to the model's).
pub(crate) fn pointer_of(target: PropertyTarget, rig: &Rig, light_of_source: &[Option<u32>]) -> String {
    match target {
        PropertyTarget::NodeVisible(node) => {
            format!("/nodes/{}/extensions/{NODE_VISIBILITY}/visible", rig.source_index(node))
        }
        PropertyTarget::Material { material, field } => {
            let field = match field {
                MaterialField::BaseColor => "pbrMetallicRoughness/baseColorFactor".to_owned(),
                MaterialField::Metallic => "pbrMetallicRoughness/metallicFactor".to_owned(),
                MaterialField::Roughness => "pbrMetallicRoughness/roughnessFactor".to_owned(),
                MaterialField::Emissive => "emissiveFactor".to_owned(),
                MaterialField::EmissiveStrength => format!("extensions/{EMISSIVE_STRENGTH}/emissiveStrength"),
                MaterialField::AlphaCutoff => "alphaCutoff".to_owned(),
                MaterialField::NormalScale => "normalTexture/scale".to_owned(),
                MaterialField::OcclusionStrength => "occlusionTexture/strength".to_owned(),
                MaterialField::TextureOffset(slot) => {
                    format!("{}/extensions/{TEXTURE_TRANSFORM}/offset", slot.json_path())
                }
                MaterialField::TextureRotation(slot) => {
                    format!("{}/extensions/{TEXTURE_TRANSFORM}/rotation", slot.json_path())
                }
                MaterialField::TextureScale(slot) => {
                    format!("{}/extensions/{TEXTURE_TRANSFORM}/scale", slot.json_path())
                }
            };
            format!("/materials/{material}/{field}")
        }
        PropertyTarget::Light { light, field } => {
            let source = light_of_source.iter().position(|&l| l == Some(light)).unwrap_or(light as usize);
            let field = match field {
                LightField::Color => "color",
                LightField::Intensity => "intensity",
                LightField::Range => "range",
                LightField::InnerConeAngle => "spot/innerConeAngle",
                LightField::OuterConeAngle => "spot/outerConeAngle",
            };
            format!("/extensions/{LIGHTS}/lights/{source}/{field}")
        }
    }
}

/// A texture slot's `KHR_texture_transform` field, from the tokens after `/materials/N/`.
fn texture_transform(rest: &[&str]) -> Result<MaterialField, Unresolved> {
    let unknown = || invalid("it names no animatable property of a material");
    let slot = TextureSlot::ALL.into_iter().find(|slot| {
        let path: Vec<&str> = slot.json_path().split('/').collect();
        rest.starts_with(&path)
    });
    let slot = slot.ok_or_else(unknown)?;
    let after = &rest[slot.json_path().split('/').count()..];
    match after {
        ["extensions", TEXTURE_TRANSFORM, "offset"] => Ok(MaterialField::TextureOffset(slot)),
        ["extensions", TEXTURE_TRANSFORM, "rotation"] => Ok(MaterialField::TextureRotation(slot)),
        ["extensions", TEXTURE_TRANSFORM, "scale"] => Ok(MaterialField::TextureScale(slot)),
        ["extensions", name, ..] => Err(ignored_extension(name)),
        _ => Err(unknown()),
    }
}

/// The reference tokens of a JSON pointer (RFC 6901), unescaped.
fn tokens(pointer: &str) -> Result<Vec<String>, Unresolved> {
    let Some(rest) = pointer.strip_prefix('/') else {
        return Err(invalid("a JSON pointer starts with '/'"));
    };
    rest.split('/')
        .map(|token| {
            if token.contains('~') && token.replace("~0", "").replace("~1", "").contains('~') {
                return Err(invalid("'~' in a JSON pointer is followed by 0 or 1"));
            }
            Ok(token.replace("~1", "/").replace("~0", "~"))
        })
        .collect()
}

/// An array index token of a list of `count` objects.
fn object_index(token: &str, count: usize, what: &str) -> Result<u32, Unresolved> {
    let digits = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
    if !digits || (token.len() > 1 && token.starts_with('0')) {
        return Err(invalid(format!("'{token}' is not a {what} index")));
    }
    match token.parse::<u32>() {
        Ok(index) if (index as usize) < count => Ok(index),
        _ => Err(invalid(format!("{what} {token} does not exist ({count} in the file)"))),
    }
}

fn invalid(why: impl Into<String>) -> Unresolved {
    Unresolved::Invalid(why.into())
}

fn ignored_extension(name: &str) -> Unresolved {
    Unresolved::Ignored(format!("the extension {name} is not animated by the game"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_are_tokenized_as_rfc_6901_says() {
        assert_eq!(tokens("/a~1b/c~0d/").expect("valid"), ["a/b", "c~d", ""]);
        assert!(matches!(tokens("nodes/0"), Err(Unresolved::Invalid(_))));
        assert!(matches!(tokens("/a~2"), Err(Unresolved::Invalid(_))));
        assert_eq!(object_index("12", 13, "node"), Ok(12));
        assert!(object_index("13", 13, "node").is_err());
        assert!(object_index("01", 13, "node").is_err());
        assert!(object_index("-1", 13, "node").is_err());
        assert!(object_index("", 13, "node").is_err());
    }

    #[test]
    fn node_pointers_name_a_node_property() {
        assert_eq!(node_property("/nodes/12/rotation"), Some((12, Property::Rotation)));
        assert_eq!(node_property("/nodes/0/weights"), Some((0, Property::MorphTargetWeights)));
        for other in
            ["/nodes/01/scale", "/nodes/x/scale", "/nodes/1/matrix", "/materials/0/emissiveFactor", "nodes/1/scale"]
        {
            assert_eq!(node_property(other), None, "{other}");
        }
    }

    #[test]
    fn texture_transform_fields_name_their_slot() {
        let field = |p: &str| texture_transform(&p.split('/').collect::<Vec<_>>());
        assert_eq!(
            field("pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset"),
            Ok(MaterialField::TextureOffset(TextureSlot::BaseColor))
        );
        assert_eq!(
            field("normalTexture/extensions/KHR_texture_transform/rotation"),
            Ok(MaterialField::TextureRotation(TextureSlot::Normal))
        );
        assert!(matches!(field("emissiveTexture/extensions/EXT_foo/x"), Err(Unresolved::Ignored(_))));
        assert!(matches!(field("emissiveTexture/texCoord"), Err(Unresolved::Invalid(_))));
        assert!(matches!(field("doubleSided"), Err(Unresolved::Invalid(_))));
    }
}
