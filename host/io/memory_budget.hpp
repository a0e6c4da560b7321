// What the machine has, checked before an allocation whose size comes from a
// file or a model description: such a size can be anything (a damaged or
// foreign file, a typo in a model), and asking the operating system for it
// ends in an out-of-memory failure that names nothing, or in swapping.
// Every such allocation is checked here first, naming what asked for it.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace cae {

// Thrown when an allocation would exceed what the machine has; one line
// naming what asked for it, its size and the machine's.
class MemoryRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The memory this process can ever have: the physical memory (MemTotal of
// /proc/meminfo), or less under a cgroup memory limit.
uint64_t physical_memory_bytes();

// What it may allocate now: MemAvailable, or less under a cgroup limit
// (its limit minus its usage).
uint64_t available_memory_bytes();

// "1.5 GiB".
std::string gib_text(uint64_t bytes);

// `a * b` in bytes, saturating at UINT64_MAX instead of wrapping (sizes from
// files and models can be anything).
uint64_t saturating_product(uint64_t a, uint64_t b);

// Throws MemoryRefused "<what> needs <bytes>, more than this machine's memory
// (<physical>)" when `bytes` exceed physical_memory_bytes().
void require_host_memory(uint64_t bytes, const std::string& what);

// The same against a device's memory (`device_bytes` as the backend reports
// it; 0 when it does not, then nothing is checked), naming the device.
void require_device_memory(uint64_t bytes, uint64_t device_bytes, const std::string& device,
                           const std::string& what);

}  // namespace cae
