// The test set's reconstruction error measured beside the next epoch: on a
// second context of the training device, driven by a thread of its own.
//
// Why: in the training context's stream the evaluation runs between two
// epochs' steps, and its 10,000 CIFAR-10 images add about 7% to a GPU epoch
// that nothing else waits for. A context has one stream (the ABI), so a
// second context lets the evaluation's kernels run while the next epoch's
// small-batch steps leave the GPU room. The parameters are copied at the
// epoch's end, after the epoch's loss was read back (the training stream is
// idle then), and the second context runs the same graphs on the same
// batches: the value is the one the training context would measure, to the
// bit. Worth it where the backend has memory and copy engines of its own
// (it offers page-locked host memory, ABI 1.3): a CPU backend would only
// split its threads.
#pragma once

#include <future>
#include <memory>

#include "data/image_set.hpp"
#include "nn/autoencoder.hpp"
#include "nn/latent_sparsity.hpp"
#include "nn/parameters.hpp"
#include "nn/test_evaluation.hpp"
#include "nn/transformed_images.hpp"
#include "plugin/context.hpp"

namespace cae::nn {

class TestEvaluationBeside {
 public:
  // A context like `like` (same backend, device, threads and options) is
  // made on the first start(), on the evaluation's thread. `images` and
  // `transformed` must outlive this object.
  TestEvaluationBeside(const Context& like, const Sparsity& sparsity, Execution execution,
                       const ImageSet& images, int batch_size,
                       const TransformedImages& transformed);
  // Waits for a measurement still running (its result or error is dropped).
  ~TestEvaluationBeside();
  TestEvaluationBeside(const TestEvaluationBeside&) = delete;
  TestEvaluationBeside& operator=(const TestEvaluationBeside&) = delete;

  // Starts measuring `parameters` (a copy of the training model's) and
  // returns at once. One measurement at a time: result() first.
  void start(Parameters parameters);
  bool running() const { return running_.valid(); }
  // Waits for the started measurement and returns its mean squared error;
  // rethrows what it threw.
  double result();

 private:
  double measure(const Parameters& parameters);

  const Context& like_;
  Sparsity sparsity_;
  Execution execution_;
  const ImageSet& images_;
  int batch_size_;
  const TransformedImages& transformed_;
  // Made and used on the evaluation's thread; freed by the destructor once
  // no measurement runs.
  std::unique_ptr<Context> context_;
  std::unique_ptr<Autoencoder> model_;
  std::unique_ptr<TestEvaluation> evaluation_;
  std::future<double> running_;
};

// Whether the test evaluation runs beside the next epoch (Beside) or
// between epochs in the training context (Between); Auto chooses Beside
// for one device whose backend has memory of its own.
enum class TestEvaluationPlacement { Auto, Between, Beside };

bool evaluates_beside(TestEvaluationPlacement placement, const Context& context, size_t contexts,
                      bool distributed);

}  // namespace cae::nn
