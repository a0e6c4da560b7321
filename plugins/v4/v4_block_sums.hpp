// The second step of a weight gradient summed by blocks (the fused layers of
// v4_pooled_conv.hpp and v4_upsampled_conv.hpp): each block of the first step
// wrote one row of partial sums, in the order of dw's storage and then db's;
// this adds the rows in an order fixed by the shape (every 8th row in row
// order, then those 8 totals in order). Fixed-order sums: deterministic, as
// v4 declares, where atomics would not be.
#pragma once

#include <cstdint>

#include "runtime_context.hpp"

namespace cae_v4 {

// dw[i] = sum over rows k of partials[k][i] for i < dw_count, and
// db[i - dw_count] for the db_count items after them.
void block_sums(cae_cuda::Context& ctx, int64_t rows, int64_t dw_count, int64_t db_count,
                const float* partials, float* dw, float* db);

}  // namespace cae_v4
