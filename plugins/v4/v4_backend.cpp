// The v4 backend's table and its one exported symbol. v4 is v3's runtime
// (tensors, element-wise passes, optimizers, collectives: plugins/v3) with
// its own convolutions (v4_conv.cu) and its own identity (v4_entry_lifecycle.cpp).
#include "backend_table.hpp"
#include "v3_entry.hpp"

CAE_DEFINE_BACKEND_ENTRY_WITH(
    cae_v3::entry, "v4", "0.1.0",
    "CUDA, BF16 tensor cores (Hopper wgmma): implicit-GEMM convolutions, im2col fused into the "
    "operand loads",
    CAE_GROUP_MEMBER_SET CAE_PROCESS_GROUP_MEMBER_SET CAE_HOST_MEMORY_MEMBER_SET
        CAE_OPTIONS_MEMBER_SET);
