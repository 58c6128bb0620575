"""A box skinned wholly to one bone: the mesh the VRM export scripts hang on each bone."""

import bmesh
import bpy
from mathutils import Vector


def box(mesh_name, bone, centre, half):
    """A box around `centre` of half-sizes `half`, skinned wholly to `bone`."""
    mesh = bpy.data.meshes.new(mesh_name)
    obj = bpy.data.objects.new(mesh_name, mesh)
    bpy.context.collection.objects.link(obj)
    b = bmesh.new()
    bmesh.ops.create_cube(b, size=1.0)
    for v in b.verts:
        v.co = Vector(centre) + Vector((v.co.x * 2 * half[0], v.co.y * 2 * half[1], v.co.z * 2 * half[2]))
    b.to_mesh(mesh)
    b.free()
    obj.vertex_groups.new(name=bone).add(range(len(mesh.vertices)), 1.0, "REPLACE")
    return obj
