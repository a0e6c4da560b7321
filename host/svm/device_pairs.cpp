#include "svm/device_pairs.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "plugin/per_device.hpp"
#include "svm/elapsed_seconds.hpp"
#include "svm/kernel_producers.hpp"
#include "svm/smo_solver.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

using Clock = std::chrono::steady_clock;

constexpr uint64_t kFloat = sizeof(float);
// What the solver holds per row beside alpha and gradient (a CUDA backend:
// alpha, y G and the diagonal in double).
constexpr uint64_t kSolverBytesPerRow = 3 * sizeof(double);
// Of the memory the device reports free after the rows are up, the share the
// batches' kernels may take: the rest is left to the backend's own buffers
// (cuBLAS's workspace, the solver's state) and to other users of the device.
constexpr double kFreeShare = 0.6;
// Where a backend reports no memory (a host backend may not), this much.
constexpr uint64_t kUnreportedBudget = uint64_t{4} << 30;

struct Job {
  size_t stage = 0;
  size_t pair = 0;  // index into the pair list
};

int64_t rows_of(const ClassLayout& layout, int32_t c) {
  return static_cast<int64_t>(layout.rows[static_cast<size_t>(c)].size());
}

// K(a, b) and K(b, a) (the host's, or the transpose an ABI 1.9 backend
// makes inside the call: the same bytes while the pair is solved), alpha,
// gradient and the solver's state.
uint64_t job_bytes(const ClassLayout& layout, const ClassPair& pair) {
  const uint64_t a = static_cast<uint64_t>(rows_of(layout, pair.first));
  const uint64_t b = static_cast<uint64_t>(rows_of(layout, pair.second));
  return 2 * a * b * kFloat + (a + b) * (2 * kFloat + kSolverBytesPerRow);
}

cae_kernel_kind kind_of(const KernelSpec& spec) {
  return spec.kind == KernelKind::Rbf ? CAE_KERNEL_RBF : CAE_KERNEL_LINEAR;
}

// libsvm's iteration limit, as the host's solver takes it (SmoSettings).
int64_t iteration_limit(int64_t rows) { return std::max<int64_t>(10000000, 100 * rows); }

// One device's share of the jobs.
class DeviceSolver {
 public:
  DeviceSolver(Context& context, const DevicePairInput& input, const std::vector<ClassPair>& pairs,
               std::vector<Job> jobs, const std::vector<DeviceRows>* resident)
      : context_(context),
        input_(input),
        pairs_(pairs),
        jobs_(std::move(jobs)),
        classes_(classes_of_jobs()),
        resident_(resident) {}

  // Solves every job into out[stage][pair][c].
  void run(std::vector<std::vector<std::vector<SmoPairSolution>>>& out, DevicePairTimes& times,
           const std::function<void(int)>& batch_done) {
    if (jobs_.empty()) return;
    auto phase = Clock::now();
    upload_class_rows();
    times.upload_seconds += seconds_since(phase);
    const uint64_t free_bytes = context_.device_info().memory_free_bytes;
    const uint64_t budget =
        free_bytes > 0 ? static_cast<uint64_t>(kFreeShare * static_cast<double>(free_bytes))
                       : kUnreportedBudget;
    size_t next = 0;
    while (next < jobs_.size()) {
      // The batch: as many jobs as fit, at least one.
      const size_t first = next;
      uint64_t bytes = reuses_products() ? largest_product_bytes() : 0;
      std::set<size_t> stages;  // stages whose diagonal blocks the batch needs
      while (next < jobs_.size()) {
        const Job& job = jobs_[next];
        uint64_t need = job_bytes(*input_.layout, pairs_[job.pair]);
        if (!diagonals_.count(job.stage) && !stages.count(job.stage)) need += diagonal_bytes();
        if (next > first && bytes + need > budget) break;
        bytes += need;
        stages.insert(job.stage);
        ++next;
      }
      phase = Clock::now();
      compute_diagonals(stages);
      std::vector<Batched> batch = prepare_batch(first, next);
      context_.synchronize();
      times.kernel_seconds += seconds_since(phase);
      phase = Clock::now();
      solve(batch, out);
      const double solve_seconds = seconds_since(phase);
      times.solve_seconds += solve_seconds;
      ++times.batches;
      times.largest_batch = std::max(times.largest_batch, static_cast<int>(batch.size()));
      for (const Batched& b : batch) {
        for (SmoPairSolution& s : out[b.job.stage][b.job.pair]) {
          s.seconds = solve_seconds / static_cast<double>(batch.size());
        }
      }
      batch.clear();
      // A stage's diagonal blocks go once its last job is solved.
      for (auto it = diagonals_.begin(); it != diagonals_.end();) {
        const bool pending = std::any_of(jobs_.begin() + static_cast<std::ptrdiff_t>(next),
                                         jobs_.end(), [&](const Job& j) { return j.stage == it->first; });
        it = pending ? std::next(it) : diagonals_.erase(it);
      }
      batch_done(static_cast<int>(next - first));
    }
  }

 private:
  struct Batched {
    Job job;
    Tensor ab, ba, alpha, gradient;
  };

  // The classes this device's pairs need, ascending.
  std::vector<int32_t> classes_of_jobs() const {
    std::vector<bool> used(static_cast<size_t>(input_.layout->class_count()), false);
    for (const Job& job : jobs_) {
      used[static_cast<size_t>(pairs_[job.pair].first)] = true;
      used[static_cast<size_t>(pairs_[job.pair].second)] = true;
    }
    std::vector<int32_t> out;
    for (size_t c = 0; c < used.size(); ++c) {
      if (used[c]) out.push_back(static_cast<int32_t>(c));
    }
    return out;
  }

  uint64_t diagonal_bytes() const {
    uint64_t bytes = 0;
    for (const int32_t c : classes_) {
      const uint64_t n = static_cast<uint64_t>(rows_of(*input_.layout, c));
      bytes += n * n * kFloat;
    }
    return bytes;
  }

  // Each class's standardised rows as one tensor [n_c, dim]: the caller's
  // where it holds the class in one tile, else uploaded.
  void upload_class_rows() {
    const ClassLayout& layout = *input_.layout;
    rows_.resize(static_cast<size_t>(layout.class_count()));
    tensors_.assign(rows_.size(), nullptr);
    RowStaging staging(context_);
    for (const int32_t c : classes_) {
      const size_t k = static_cast<size_t>(c);
      if (resident_ && k < resident_->size() && (*resident_)[k].tiles().size() == 1) {
        tensors_[k] = &(*resident_)[k].tiles().front().tensor;
        continue;
      }
      rows_[k].emplace(upload_rows_of_class(layout.rows[k], staging));
      tensors_[k] = &rows_[k]->tiles().front().tensor;
    }
  }
  DeviceRows upload_rows_of_class(const std::vector<int64_t>& rows, RowStaging& staging) {
    return svm::upload_rows(context_, *input_.train, rows, *input_.standardizer,
                            std::max<int64_t>(1, static_cast<int64_t>(rows.size())), &staging);
  }
  const Tensor& rows_tensor(int32_t c) const { return *tensors_[static_cast<size_t>(c)]; }

  // With more than one RBF kernel over the same rows (a search's gammas) on
  // a backend of ABI 1.10, each block's product is computed once and every
  // gamma's kernel made from it in a memory pass (kernel_rbf_from_linear:
  // the same values as kernel_matrix's, bit for bit). A product is most of
  // a block's work: three gammas took three times the FP32 GEMMs.
  bool reuses_products() const {
    if (input_.specs.size() < 2 || !context_.has_kernel_rbf_from_linear()) return false;
    return std::all_of(input_.specs.begin(), input_.specs.end(),
                       [](const KernelSpec& spec) { return spec.kind == KernelKind::Rbf; });
  }
  // The product a batch holds besides its kernels while it makes them.
  uint64_t largest_product_bytes() const {
    uint64_t largest = 0;
    for (const int32_t a : classes_) {
      for (const int32_t b : classes_) {
        largest = std::max(largest, static_cast<uint64_t>(rows_of(*input_.layout, a)) *
                                        static_cast<uint64_t>(rows_of(*input_.layout, b)) * kFloat);
      }
    }
    return largest;
  }

  // K(x, y) of every stage in `stages` into `out` (allocated here, [n, m]).
  void kernels_of(const Tensor& x, const Tensor& y, const std::vector<size_t>& stages,
                  std::vector<Tensor*> out) {
    const int64_t n = x.dims()[0], m = y.dims()[0];
    for (Tensor* k : out) *k = context_.alloc({n, m});
    if (!reuses_products() || stages.size() < 2) {
      for (size_t s = 0; s < stages.size(); ++s) {
        const KernelSpec& spec = input_.specs[stages[s]];
        context_.kernel_matrix(x, y, *out[s], kind_of(spec), spec.gamma);
      }
      return;
    }
    std::vector<GammaKernel> kernels;
    for (size_t s = 0; s < stages.size(); ++s) kernels.push_back({input_.specs[stages[s]].gamma, out[s]});
    Tensor product;
    rbf_kernels_from_one_product(context_, x, y, product, kernels);
  }

  void compute_diagonals(const std::set<size_t>& wanted) {
    std::vector<size_t> stages;
    for (const size_t stage : wanted) {
      if (!diagonals_.count(stage)) stages.push_back(stage);
    }
    if (stages.empty()) return;
    for (const size_t stage : stages) diagonals_[stage].resize(rows_.size());
    for (const int32_t c : classes_) {
      std::vector<Tensor*> out;
      for (const size_t stage : stages) out.push_back(&diagonals_[stage][static_cast<size_t>(c)]);
      kernels_of(rows_tensor(c), rows_tensor(c), stages, out);
    }
  }

  // Jobs [first, end): each pair's K(a, b) for all its stages in the batch
  // together (one product for them all where reuses_products()).
  std::vector<Batched> prepare_batch(size_t first, size_t end) {
    std::vector<Batched> batch;
    for (size_t k = first; k < end; ++k) batch.push_back(prepare(jobs_[k]));
    std::map<size_t, std::vector<size_t>> by_pair;  // pair -> its jobs' places in `batch`
    for (size_t k = 0; k < batch.size(); ++k) by_pair[batch[k].job.pair].push_back(k);
    for (const auto& [pair_index, places] : by_pair) {
      const ClassPair& pair = pairs_[pair_index];
      std::vector<size_t> stages;
      std::vector<Tensor*> out;
      for (const size_t k : places) {
        stages.push_back(batch[k].job.stage);
        out.push_back(&batch[k].ab);
      }
      kernels_of(rows_tensor(pair.first), rows_tensor(pair.second), stages, out);
      // K(b, a) is K(a, b)'s transpose: a backend of ABI 1.9 makes it from
      // K(a, b) in a memory pass, where computing it was half of the pair's
      // own kernel work (the whole product again).
      if (!context_.svm_dual_transposes()) {
        std::vector<Tensor*> transposed;
        for (const size_t k : places) transposed.push_back(&batch[k].ba);
        kernels_of(rows_tensor(pair.second), rows_tensor(pair.first), stages, transposed);
      }
    }
    return batch;
  }

  // A job's solver state (alpha 0, gradient -1); its kernels come from prepare_batch.
  Batched prepare(const Job& job) {
    const ClassPair& pair = pairs_[job.pair];
    const int64_t a = rows_of(*input_.layout, pair.first);
    const int64_t b = rows_of(*input_.layout, pair.second);
    Batched out{job, Tensor(), Tensor(), context_.alloc({a + b}), context_.alloc({a + b})};
    out.alpha.upload(std::vector<float>(static_cast<size_t>(a + b), 0.0f));
    out.gradient.upload(std::vector<float>(static_cast<size_t>(a + b), -1.0f));
    return out;
  }

  void solve(std::vector<Batched>& batch,
             std::vector<std::vector<std::vector<SmoPairSolution>>>& out) {
    std::vector<cae_svm_dual_problem> problems(batch.size());
    for (const double C : input_.ascending_Cs) {
      for (size_t k = 0; k < batch.size(); ++k) {
        const Batched& b = batch[k];
        const ClassPair& pair = pairs_[b.job.pair];
        const std::vector<Tensor>& diagonal = diagonals_.at(b.job.stage);
        cae_svm_dual_problem& p = problems[k];
        p = cae_svm_dual_problem{};
        p.kernel_aa = diagonal[static_cast<size_t>(pair.first)].handle();
        p.kernel_ab = b.ab.handle();
        p.kernel_ba = b.ba ? b.ba.handle() : nullptr;
        p.kernel_bb = diagonal[static_cast<size_t>(pair.second)].handle();
        p.alpha = b.alpha.handle();
        p.gradient = b.gradient.handle();
        p.C = C;
        p.eps = input_.eps;
        p.max_iterations = iteration_limit(b.alpha.count());
      }
      context_.svm_dual_solve(problems);
      for (size_t k = 0; k < batch.size(); ++k) {
        const Batched& b = batch[k];
        const ClassPair& pair = pairs_[b.job.pair];
        PairRows rows;
        rows.pair = pair;
        rows.rows[0] = &input_.layout->rows[static_cast<size_t>(pair.first)];
        rows.rows[1] = &input_.layout->rows[static_cast<size_t>(pair.second)];
        const std::vector<float> alpha = b.alpha.download();
        const std::vector<float> gradient = b.gradient.download();
        SmoResult result = smo_result_of(std::vector<double>(alpha.begin(), alpha.end()),
                                         std::vector<double>(gradient.begin(), gradient.end()),
                                         rows.count(0), C);
        result.iterations = problems[k].iterations;
        result.converged = problems[k].converged == 1;
        out[b.job.stage][b.job.pair].push_back(pair_solution_of(rows, result));
      }
    }
  }

  Context& context_;
  const DevicePairInput& input_;
  const std::vector<ClassPair>& pairs_;
  std::vector<Job> jobs_;
  std::vector<int32_t> classes_;
  const std::vector<DeviceRows>* resident_;
  std::vector<std::optional<DeviceRows>> rows_;  // the classes uploaded here
  std::vector<const Tensor*> tensors_;           // every class's rows, [n_c, dim]
  std::map<size_t, std::vector<Tensor>> diagonals_;
};

}  // namespace

bool backend_solves_pairs(const Context& context) { return context.has_svm_dual_solve(); }

std::vector<std::vector<std::vector<SmoPairSolution>>> solve_pairs_on_backend(
    const std::vector<Context*>& contexts, const DevicePairInput& input, DevicePairTimes* times) {
  if (contexts.empty()) throw SvmError("the SVM needs at least one backend context");
  for (const Context* context : contexts) {
    if (!backend_solves_pairs(*context)) {
      throw SvmError("the " + context->backend_name() +
                     " backend does not solve the SVM's dual problems (svm_dual_solve, ABI 1.8)");
    }
  }
  if (input.specs.empty() || input.ascending_Cs.empty()) {
    throw SvmError("the SVM's pairs need at least one kernel and one C");
  }
  if (!std::is_sorted(input.ascending_Cs.begin(), input.ascending_Cs.end())) {
    throw SvmError("alpha seeding needs the Cs ascending");
  }
  const std::vector<ClassPair> pairs =
      input.pairs.empty() ? class_pairs(input.layout->class_count()) : input.pairs;
  std::vector<std::vector<Job>> jobs(contexts.size());
  for (size_t stage = 0; stage < input.specs.size(); ++stage) {
    for (size_t k = 0; k < pairs.size(); ++k) jobs[k % contexts.size()].push_back({stage, k});
  }
  std::vector<std::vector<std::vector<SmoPairSolution>>> out(
      input.specs.size(), std::vector<std::vector<SmoPairSolution>>(pairs.size()));
  std::vector<DevicePairTimes> device_times(contexts.size());
  const int total = static_cast<int>(input.specs.size() * pairs.size());
  int done = 0;
  std::mutex progress_mutex;
  run_per_device(contexts.size(), [&](size_t d) {
    DeviceSolver solver(*contexts[d], input, pairs, jobs[d],
                        d < input.resident_rows.size() ? input.resident_rows[d] : nullptr);
    solver.run(out, device_times[d], [&](int finished) {
      std::lock_guard<std::mutex> lock(progress_mutex);
      done += finished;
      if (input.progress) input.progress(done, total);
    });
  });
  if (times) {
    for (const DevicePairTimes& t : device_times) {
      times->upload_seconds += t.upload_seconds;
      times->kernel_seconds += t.kernel_seconds;
      times->solve_seconds += t.solve_seconds;
      times->batches += t.batches;
      times->largest_batch = std::max(times->largest_batch, t.largest_batch);
    }
  }
  return out;
}

}  // namespace cae::svm
