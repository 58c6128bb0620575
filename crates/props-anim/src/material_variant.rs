//! Material variants (`KHR_materials_variants`): named sets of materials a model's primitives
//! may be drawn in instead of their own, such as a car's liveries, one chosen per instance.

/// One material variant of a model: its name, and the primitives it draws in another material
/// than their own (a primitive not listed keeps its own).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MaterialVariant {
    /// Its name, as a host chooses it (`"taxi"`, `"police"`).
    pub name: String,
    /// The primitives it draws in another material, sorted by mesh and primitive, each once.
    pub materials: Vec<VariantMaterial>,
}

/// A primitive a [`MaterialVariant`] draws in another material than its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct VariantMaterial {
    /// Index into [`crate::Model::meshes`].
    pub mesh: u32,
    /// Index into that mesh's primitives.
    pub primitive: u32,
    /// Index into [`crate::Model::materials`]: the material it is drawn in.
    pub material: u32,
}

impl MaterialVariant {
    /// The material it draws primitive `primitive` of mesh `mesh` in, where it gives one.
    #[must_use]
    pub fn material_of(&self, mesh: u32, primitive: u32) -> Option<u32> {
        let at = self.materials.binary_search_by_key(&(mesh, primitive), |m| (m.mesh, m.primitive)).ok()?;
        Some(self.materials[at].material)
    }

    /// What is wrong with it in a model of `meshes` (each mesh's primitive count) and
    /// `materials` materials, if anything.
    pub(crate) fn problem(&self, meshes: &[usize], materials: usize) -> Option<&'static str> {
        if self.materials.windows(2).any(|w| (w[0].mesh, w[0].primitive) >= (w[1].mesh, w[1].primitive)) {
            return Some("its primitives are not sorted, each once");
        }
        for m in &self.materials {
            if meshes.get(m.mesh as usize).is_none_or(|&primitives| m.primitive as usize >= primitives) {
                return Some("it names a primitive the model does not have");
            }
            if m.material as usize >= materials {
                return Some("it names a material the model does not have");
            }
        }
        None
    }
}
