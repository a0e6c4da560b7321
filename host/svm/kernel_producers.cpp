#include "svm/kernel_producers.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <mutex>
#include <memory>

#include "plugin/host_buffer.hpp"
#include "plugin/per_device.hpp"
#include "svm/diagonal_blocks.hpp"
#include "svm/elapsed_seconds.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

using Clock = std::chrono::steady_clock;

// What the producers share: the task list, taken in order, and the diagonal
// blocks made so far (one table per stage).
struct Shared {
  const ProducerInput& input;
  PairScheduler& scheduler;
  std::vector<KernelTask> tasks;
  std::deque<DiagonalBlocks> diagonals;  // a deque: the tables do not move
  // A producer failed: nobody waits for a block of any stage.
  void fail_diagonals() {
    for (DiagonalBlocks& stage : diagonals) stage.fail();
  }
  // Taking the next task and reserving its memory happen under this lock, in
  // task order: a reservation then waits only for pairs reserved before it,
  // whose diagonal blocks were reserved earlier still, so no producer can
  // wait for memory that only a later task could free.
  std::mutex turn;
  size_t next = 0;
};

// How many pairs of `order` take each class's diagonal block: every other
// class's for a whole run, fewer when a rank solves only its share.
std::vector<int> pairs_per_class(const ClassLayout& layout, const std::vector<ClassPair>& order) {
  std::vector<int> count(static_cast<size_t>(layout.class_count()), 0);
  for (const ClassPair& pair : order) {
    ++count[static_cast<size_t>(pair.first)];
    ++count[static_cast<size_t>(pair.second)];
  }
  return count;
}

PairScheduler::Job job_for(const ClassLayout& layout, const KernelTask& task,
                           const ProducerInput& input) {
  const ClassPair& pair = task.pair;
  PairScheduler::Job job;
  job.stage = task.stage;
  job.rows.pair = pair;
  job.rows.rows[0] = &layout.rows[static_cast<size_t>(pair.first)];
  job.rows.rows[1] = &layout.rows[static_cast<size_t>(pair.second)];
  job.solver_bytes = pair_solver_bytes(job.rows.size(), input.settings) +
                     input.extra_solver_bytes_per_row * static_cast<uint64_t>(job.rows.size());
  return job;
}

// libsvm: the pair's rows (first class, then second) as four blocks of one
// row-major [l, l] matrix in the job's workspace.
void compute_dense_pair_kernel(KernelBlocks& blocks, const std::vector<DeviceRows>& class_rows,
                               PairScheduler::Job& job) {
  const int64_t l = job.rows.size();
  float* kernel = job.workspace->kernel(l);
  const int32_t classes[2] = {job.rows.pair.first, job.rows.pair.second};
  for (int s = 0; s < 2; ++s) {
    for (int t = 0; t < 2; ++t) {
      float* corner = kernel + (s ? job.rows.count(0) * l : 0) + (t ? job.rows.count(0) : 0);
      blocks.compute(class_rows[static_cast<size_t>(classes[s])],
                     class_rows[static_cast<size_t>(classes[t])], corner, l);
    }
  }
}

// Threads converting a diagonal block to unorm16 beside the producer's own:
// the solver workers already take every core, and the conversion is bound by
// memory bandwidth, so a few are enough to shorten the producer's share.
constexpr int kConversionThreads = 4;

// Where a unorm16 diagonal block's float32 values come from the backend: the
// producer's own buffer (page-locked when the backend offers it, so the
// download needs no copy through the driver's), made on first use at the
// largest block's size.
class Unorm16Staging {
 public:
  Unorm16Staging(Context& context, uint64_t bytes)
      : context_(context), values_(bytes / sizeof(float)) {}
  float* values() {
    if (buffer_.size() == 0) buffer_ = HostBuffer(context_, values_);
    return buffer_.data();
  }
  void convert(size_t count, uint16_t* out) {
    if (count > buffer_.size()) throw SvmError("a kernel block larger than the producer's buffer");
    convert_to_unorm16(buffer_.data(), count, out, kConversionThreads);
  }

 private:
  Context& context_;
  size_t values_ = 0;
  HostBuffer buffer_;
};

void run_producer(Context& context, size_t index, Shared& shared, ProducerTimes& times) {
  const ProducerInput& in = shared.input;
  PairScheduler& scheduler = shared.scheduler;
  const KernelValues values = in.settings.kernel_values;
  try {
    Unorm16Staging staging(context,
                           producer_staging_bytes(in.layout->largest_class_rows(), in.settings));
    auto phase = Clock::now();
    std::vector<DeviceRows> uploaded;
    if (in.resident_rows.empty()) {
      uploaded = upload_class_rows(context, *in.train, *in.layout, *in.standardizer, in.tile_rows);
    }
    const std::vector<DeviceRows>& class_rows =
        in.resident_rows.empty() ? uploaded : *in.resident_rows[index];
    // The kernel of the stage being computed (the tasks come stage by stage).
    std::unique_ptr<KernelBlocks> blocks;
    size_t blocks_stage = 0;
    times.upload += seconds_since(phase);
    auto rows_of = [&](int32_t c) -> const DeviceRows& {
      return class_rows[static_cast<size_t>(c)];
    };

    for (;;) {
      if (index == 0 && in.between_tasks) in.between_tasks();
      KernelTask task;
      PairScheduler::Job job;
      std::shared_ptr<DiagonalBlock> block;
      {
        std::lock_guard<std::mutex> turn(shared.turn);
        if (shared.next == shared.tasks.size()) break;
        task = shared.tasks[shared.next++];
        phase = Clock::now();
        bool reserved = false;
        if (task.diagonal) {
          const int64_t n = rows_of(task.cls).rows();
          reserved = scheduler.reserve_block(diagonal_block_bytes(n, values));
          if (reserved) {
            block = make_diagonal_block(
                n, values, [&scheduler](uint64_t bytes) { scheduler.give_back_block(bytes); });
          }
        } else {
          job = job_for(*in.layout, task, in);
          reserved = scheduler.reserve(job);
        }
        times.memory_wait += seconds_since(phase);
        if (!reserved) {  // another thread failed
          shared.fail_diagonals();
          break;
        }
      }
      phase = Clock::now();
      if (!blocks || blocks_stage != task.stage) {
        blocks.reset();  // frees the last stage's device buffer first
        blocks = std::make_unique<KernelBlocks>(context, in.specs[task.stage]);
        blocks_stage = task.stage;
      }
      DiagonalBlocks& diagonals = shared.diagonals[task.stage];
      if (task.diagonal) {
        // Converted once here, not per pair: the class's pairs all read it.
        if (values == KernelValues::Unorm16) {
          blocks->compute(rows_of(task.cls), rows_of(task.cls), staging.values());
          staging.convert(static_cast<size_t>(block->rows() * block->rows()), block->unorm16_out());
        } else {
          blocks->compute(rows_of(task.cls), rows_of(task.cls), block->float32_out());
        }
        times.kernel += seconds_since(phase);
        diagonals.publish(task.cls, std::move(block));
        continue;
      }
      if (in.settings.solver == SolverKind::Libsvm) {
        compute_dense_pair_kernel(*blocks, class_rows, job);
        times.kernel += seconds_since(phase);
      } else {
        // Float32 as computed, also into a unorm16 workspace, whose worker
        // rewrites it in place (PairWorkspace): the conversion runs on the
        // workers, beside one another, not on this thread.
        blocks->compute(rows_of(task.pair.first), rows_of(task.pair.second),
                        job.workspace->kernel(job.rows.size()));
        times.kernel += seconds_since(phase);
        job.diagonal[0] = diagonals.take(task.pair.first);
        job.diagonal[1] = diagonals.take(task.pair.second);
        if (!job.diagonal[0] || !job.diagonal[1]) break;  // a producer failed
      }
      scheduler.submit(std::move(job));
    }
  } catch (...) {
    scheduler.fail(std::current_exception());
    shared.fail_diagonals();
  }
}

}  // namespace

std::vector<DeviceRows> upload_class_rows(Context& context, const FeatureSet& train,
                                          const ClassLayout& layout,
                                          const Standardizer& standardizer, int64_t tile_rows) {
  std::vector<DeviceRows> class_rows;
  RowStaging staging(context);
  for (const std::vector<int64_t>& rows : layout.rows) {
    class_rows.push_back(upload_rows(context, train, rows, standardizer, tile_rows, &staging));
  }
  return class_rows;
}

uint64_t producer_staging_bytes(int64_t largest_class_rows, const SolverSettings& settings) {
  if (settings.solver != SolverKind::Smo || settings.kernel_values != KernelValues::Unorm16) {
    return 0;
  }
  const uint64_t n = static_cast<uint64_t>(largest_class_rows);
  return n * n * sizeof(float);
}

std::vector<KernelTask> kernel_tasks(const std::vector<ClassPair>& order, SolverKind solver) {
  std::vector<KernelTask> tasks;
  std::vector<bool> made;
  for (const ClassPair& pair : order) {
    if (solver == SolverKind::Smo) {
      for (const int32_t c : {pair.first, pair.second}) {
        if (static_cast<size_t>(c) >= made.size()) made.resize(static_cast<size_t>(c) + 1, false);
        if (made[static_cast<size_t>(c)]) continue;
        made[static_cast<size_t>(c)] = true;
        tasks.push_back({true, c, {}});
      }
    }
    tasks.push_back({false, 0, pair});
  }
  return tasks;
}

ProducerTimes produce_kernels(const std::vector<Context*>& contexts, const ProducerInput& input,
                              PairScheduler& scheduler) {
  if (contexts.empty()) throw SvmError("the SVM needs at least one backend context");
  if (input.specs.empty()) throw SvmError("the SVM's pairs need at least one kernel");
  Shared shared{input, scheduler, {}, {}, {}, 0};
  for (size_t stage = 0; stage < input.specs.size(); ++stage) {
    for (KernelTask task : kernel_tasks(input.order, input.settings.solver)) {
      task.stage = stage;
      shared.tasks.push_back(task);
    }
    shared.diagonals.emplace_back(pairs_per_class(*input.layout, input.order));
  }
  std::vector<ProducerTimes> times(contexts.size());
  if (!input.resident_rows.empty() && input.resident_rows.size() != contexts.size()) {
    throw SvmError("resident class rows are needed for every context");
  }
  run_per_device(contexts.size(),
                 [&](size_t d) { run_producer(*contexts[d], d, shared, times[d]); });
  // After a failure, blocks no pair took are still held here; they report to
  // the scheduler, which outlives this call.
  for (DiagonalBlocks& diagonals : shared.diagonals) diagonals.clear();
  ProducerTimes total;
  for (const ProducerTimes& t : times) {
    total.upload += t.upload;
    total.kernel += t.kernel;
    total.memory_wait += t.memory_wait;
  }
  return total;
}

}  // namespace cae::svm
