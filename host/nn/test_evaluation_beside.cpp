#include "test_evaluation_beside.hpp"

#include <stdexcept>
#include <utility>

namespace cae::nn {

TestEvaluationBeside::TestEvaluationBeside(const Context& like, const Sparsity& sparsity,
                                           Execution execution, const ImageSet& images,
                                           int batch_size, const TransformedImages& transformed)
    : like_(like),
      sparsity_(sparsity),
      execution_(execution),
      images_(images),
      batch_size_(batch_size),
      transformed_(transformed) {}

TestEvaluationBeside::~TestEvaluationBeside() {
  if (running_.valid()) running_.wait();
}

void TestEvaluationBeside::start(Parameters parameters) {
  if (running_.valid()) {
    throw std::logic_error("the test evaluation beside the epoch is still running");
  }
  running_ = std::async(std::launch::async,
                        [this, parameters = std::move(parameters)] { return measure(parameters); });
}

double TestEvaluationBeside::result() {
  if (!running_.valid()) throw std::logic_error("no test evaluation was started");
  return running_.get();
}

double TestEvaluationBeside::measure(const Parameters& parameters) {
  if (!context_) {
    // The context, model and resident batches are made here, on the
    // evaluation's thread, beside the first epoch after the one measured.
    context_ = std::make_unique<Context>(like_.table(), like_.device_index(), like_.thread_count(),
                                         like_.options());
    model_ = std::make_unique<Autoencoder>(*context_, parameters, execution_);
    model_->set_sparsity(sparsity_);
    evaluation_ =
        std::make_unique<TestEvaluation>(*context_, *model_, images_, batch_size_, transformed_);
  } else {
    model_->upload_parameters(parameters);
  }
  return evaluation_->mse(*model_);
}

bool evaluates_beside(TestEvaluationPlacement placement, const Context& context, size_t contexts,
                      bool distributed) {
  switch (placement) {
    case TestEvaluationPlacement::Between:
      return false;
    case TestEvaluationPlacement::Beside:
      return true;
    case TestEvaluationPlacement::Auto:
      break;
  }
  // Several devices train in step: a second context on the first one would
  // slow every replica's step to its pace.
  return contexts == 1 && !distributed && context.has_host_memory();
}

}  // namespace cae::nn
