// Every member of the CPU backend's table. Signatures are exactly the ABI's
// (api/cae/backend.h, listed once in backend_table.hpp); cpu_backend.cpp
// assembles them into the table.
#pragma once

#include <cae/backend.h>

#include "backend_table.hpp"

namespace cae_cpu {

// Defined in cpu_backend.cpp (lifecycle, synchronize, timer, memory_stats),
// cpu_device_info.cpp, cpu_tensors.cpp, cpu_conv.cpp, cpu_activation.cpp,
// cpu_resample.cpp (max-pool, upsample), cpu_loss.cpp, cpu_optimizers.cpp and
// cpu_kernel_matrix.cpp.
CAE_DECLARE_BACKEND_MEMBERS();
// cpu_group.cpp: the ABI 1.1 collectives.
CAE_DECLARE_BACKEND_GROUP_MEMBERS();
// cpu_svm_dual.cpp: the ABI 1.8 SVM dual solver.
CAE_DECLARE_BACKEND_SVM_SOLVER_MEMBERS();
// cpu_kernel_matrix.cpp: the ABI 1.10 RBF kernel from the linear one.
CAE_DECLARE_BACKEND_KERNEL_REUSE_MEMBERS();
// cpu_linear_loss.cpp: the ABI 1.11 linear classifier loss.
CAE_DECLARE_BACKEND_LINEAR_LOSS_MEMBERS();
// cpu_transpose.cpp: the ABI 1.11 transpose.
CAE_DECLARE_BACKEND_TRANSPOSE_MEMBERS();
// cpu_noise.cpp: the ABI 1.12 input noise.
CAE_DECLARE_BACKEND_NOISE_MEMBERS();
// cpu_channel_code.cpp: the ABI 1.13 encoders' linear part.
CAE_DECLARE_BACKEND_CHANNEL_CODE_MEMBERS();

}  // namespace cae_cpu
