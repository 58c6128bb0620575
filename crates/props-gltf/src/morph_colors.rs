//! Morph targets that displace vertex colours: `COLOR_0` in a primitive's `targets`, which glTF
//! allows (a client may morph it) and three.js draws. The gltf crate's morph targets hold only
//! `POSITION`, `NORMAL` and `TANGENT`, so their accessors are found in the JSON beside it.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::float_integers;

/// Every morph target's `COLOR_0` accessor, by mesh, primitive and target (usually none), in
/// that order: found by a binary search (a file may have a colour target on each of 256
/// targets of many primitives).
#[derive(Debug, Default)]
pub(crate) struct MorphColors(Vec<((usize, usize, usize), Value)>);

impl MorphColors {
    /// The morph colours of the JSON `json`; none where its meshes are not as glTF writes them
    /// (the full parse says why).
    pub(crate) fn find(json: &[u8]) -> Self {
        serde_json::from_slice::<File>(json).map(Self::of).unwrap_or_default()
    }

    /// [`MorphColors::find`] of parsed JSON.
    pub(crate) fn in_value(value: &Value) -> Self {
        File::deserialize(value).map(Self::of).unwrap_or_default()
    }

    fn of(file: File) -> Self {
        let mut found = Vec::new();
        for (m, mesh) in file.meshes.into_iter().enumerate() {
            for (p, primitive) in mesh.primitives.into_iter().enumerate() {
                for (t, target) in primitive.targets.into_iter().enumerate() {
                    found.extend(target.color.map(|index| ((m, p, t), index)));
                }
            }
        }
        Self(found)
    }

    /// Target `target` of primitive `primitive` of mesh `mesh`'s `COLOR_0`: `None` where it has
    /// none, `Some(None)` where it is not an index.
    pub(crate) fn get(&self, mesh: usize, primitive: usize, target: usize) -> Option<Option<usize>> {
        let found = self.0.binary_search_by_key(&(mesh, primitive, target), |(at, _)| *at).ok()?;
        let (_, index) = &self.0[found];
        Some(float_integers::as_index(index).and_then(|index| usize::try_from(index).ok()))
    }
}

/// The JSON read for them: any part not as glTF writes it reads as empty.
#[derive(Deserialize)]
struct File {
    #[serde(default, deserialize_with = "lenient")]
    meshes: Vec<Mesh>,
}

#[derive(Default, Deserialize)]
struct Mesh {
    #[serde(default, deserialize_with = "lenient")]
    primitives: Vec<Primitive>,
}

#[derive(Default, Deserialize)]
struct Primitive {
    #[serde(default, deserialize_with = "lenient")]
    targets: Vec<Target>,
}

#[derive(Default, Deserialize)]
struct Target {
    #[serde(default, rename = "COLOR_0")]
    color: Option<Value>,
}

/// `T`, or its default where the JSON is of another shape.
fn lenient<'de, D: Deserializer<'de>, T: DeserializeOwned + Default>(deserializer: D) -> Result<T, D::Error> {
    Ok(T::deserialize(Value::deserialize(deserializer)?).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Each target's accessor is found where it is, an index written as a float too; a mesh
    /// of another shape has none, and leaves the others' alone.
    #[test]
    fn each_target_s_colour_is_found_where_it_is() {
        let file = json!({"meshes": [
            {"primitives": [{"targets": [{"POSITION": 0}, {"COLOR_0": 4}]}, {"targets": [{"COLOR_0": 5.0}]}]},
            {"primitives": 3},
            {"primitives": [{"targets": [{"COLOR_0": "six"}]}]},
        ]});
        for colors in [MorphColors::find(file.to_string().as_bytes()), MorphColors::in_value(&file)] {
            assert_eq!(colors.get(0, 0, 0), None);
            assert_eq!(colors.get(0, 0, 1), Some(Some(4)));
            assert_eq!(colors.get(0, 1, 0), Some(Some(5)));
            assert_eq!(colors.get(1, 0, 0), None);
            assert_eq!(colors.get(2, 0, 0), Some(None), "not an index");
        }
        assert_eq!(MorphColors::find(br#"{"meshes": {}}"#).0.len(), 0);
    }
}
