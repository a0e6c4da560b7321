// A matrix whose rows are spread over the ranks of a group of processes,
// assembled on rank 0 or on every rank: `cae extract` under a launcher encodes
// each rank's share of the images and rank 0 writes the whole output set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/row_range.hpp"
#include "plugin/context.hpp"
#include "plugin/process_group.hpp"

namespace cae {

// Rank r's rows of `rows` in total: [rows*r/world, rows*(r+1)/world).
RowRange rank_rows(size_t rows, int32_t rank, int32_t world);

// Who receives the whole matrix: rank 0 alone (it writes the output set), or
// every rank (each then solves its share of the SVM's class pairs on it).
enum class RowsTo { Rank0, EveryRank };

// Every rank passes its rows (rank_rows(rows, rank, world), row-major, `dim`
// floats each); rank 0 (or every rank) gets the whole [rows, dim] matrix, the
// others an empty vector. Every rank must call it with the same rows, dim and
// `to`. The rows go
// through the group's all-reduce in tiles of at most `tile_bytes`: a rank
// adds its rows and zeros elsewhere, and x + 0 is x, so rank 0 receives
// each rank's values unchanged (a -0 arrives as +0).
std::vector<float> gather_rows(ProcessGroup& group, Context& context,
                               const std::vector<float>& mine, size_t rows, size_t dim,
                               RowsTo to = RowsTo::Rank0, size_t tile_bytes = size_t(64) << 20);

}  // namespace cae
