// Every rank's bytes on every rank, through the group's all-reduce: the
// class pairs' solutions that ranks solved apart (svm/pair_share.hpp) reach
// every rank unchanged. The all-reduce sums floats, so the bytes travel as
// 16-bit integers, one per float: a rank writes its own and zeros elsewhere,
// and an integer below 2^16 plus zeros is that integer exactly, whatever the
// backend's arithmetic (no float bit pattern to be flushed or normalised).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "plugin/context.hpp"
#include "plugin/process_group.hpp"

namespace cae {

// All ranks call it together (with bytes of any size, each its own); every
// rank gets every rank's bytes, by rank. `context` is the group's context.
// The payload goes in tiles of at most `tile_bytes` of floats.
std::vector<std::vector<uint8_t>> all_gather_bytes(ProcessGroup& group, Context& context,
                                                   const std::vector<uint8_t>& mine,
                                                   size_t tile_bytes = size_t(64) << 20);

}  // namespace cae
