// Live-object registry: lets every entry point tell a valid handle or
// descriptor from a null, destroyed or foreign pointer (or an object of
// another kind) without touching freed memory.
#pragma once

namespace tessera {

enum class ObjectKind : int { blas_handle, sparse_handle, spvec, dnvec, spmat, mm_matrix };

bool object_register(const void *p, ObjectKind kind);
bool object_unregister(const void *p, ObjectKind kind);
bool object_is_live(const void *p, ObjectKind kind);

}  // namespace tessera
