// The v2 backend's table and its one exported symbol.
#include "backend_table.hpp"
#include "v2_entry_points.hpp"

CAE_DEFINE_BACKEND_ENTRY_WITH_PROCESS_GROUP(
    cae_v2::entry, "v2", "1.0.0",
    "CUDA, FP32: convolutions as single batch-wide cuBLAS SGEMMs on channel-major activations");
