#include "plugin/row_gather.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cae {

RowRange rank_rows(size_t rows, int32_t rank, int32_t world) {
  if (world < 1 || rank < 0 || rank >= world) {
    throw std::invalid_argument("rank_rows: rank " + std::to_string(rank) + " of " +
                                std::to_string(world));
  }
  return {rows * size_t(rank) / size_t(world), rows * size_t(rank + 1) / size_t(world)};
}

std::vector<float> gather_rows(ProcessGroup& group, Context& context,
                               const std::vector<float>& mine, size_t rows, size_t dim, RowsTo to,
                               size_t tile_bytes) {
  const RowRange own = rank_rows(rows, group.rank(), group.world());
  if (mine.size() != own.size() * dim) {
    throw std::invalid_argument("gather_rows: rank " + std::to_string(group.rank()) +
                                " holds " + std::to_string(mine.size()) + " floats, not its " +
                                std::to_string(own.size()) + " rows of " +
                                std::to_string(dim));
  }
  const bool receives = to == RowsTo::EveryRank || group.rank() == 0;
  std::vector<float> all(receives ? rows * dim : 0);
  if (rows == 0 || dim == 0) return all;
  // Every rank cuts the same tiles, so the all-reduces pair up.
  const size_t tile_rows = std::max<size_t>(1, tile_bytes / (dim * sizeof(float)));
  std::vector<float> host;
  Tensor tensor;
  for (size_t first = 0; first < rows; first += tile_rows) {
    const size_t n = std::min(tile_rows, rows - first);
    host.assign(n * dim, 0.0f);
    const size_t from = std::max(first, own.begin), to = std::min(first + n, own.end);
    if (from < to) {
      std::copy(mine.begin() + long((from - own.begin) * dim), mine.begin() + long((to - own.begin) * dim),
                host.begin() + long((from - first) * dim));
    }
    if (!tensor || tensor.dims()[0] != int64_t(n)) tensor = context.alloc({int64_t(n), int64_t(dim)});
    tensor.upload(host);
    group.all_reduce_sum({&tensor}, 1.0f);
    if (receives) tensor.download(all.data() + first * dim, n * dim);
  }
  return all;
}

}  // namespace cae
