// The test set's reconstruction error after an epoch: every batch queued with
// its loss in a tensor of its own, read back at the end, gives the value of
// the batch-by-batch loop (fill, upload, reconstruct, download) to the bit,
// whether the batches are uploaded each time or kept on the device, with a
// short last batch, and from transforms computed beforehand.
#include <doctest/doctest.h>

#include "backends.hpp"
#include "nn/input_batch.hpp"
#include "nn/test_evaluation.hpp"
#include "nn/trainer.hpp"

namespace cae::nn {
namespace {

// The loop the evaluation replaces: one download per batch.
double batch_by_batch(Context& context, Autoencoder& model, const ImageSet& images, int batch) {
  const size_t floats = size_t(model.network().image_floats());
  double sum = 0;
  for (size_t start = 0; start < images.size(); start += size_t(batch)) {
    const size_t n = std::min(images.size() - start, size_t(batch));
    std::vector<size_t> indices(n);
    for (size_t i = 0; i < n; ++i) indices[i] = start + i;
    std::vector<float> host(n * floats);
    fill_input_batch(images, indices, model.input_transform(), host.data());
    Tensor input = context.alloc(model.network().image_dims(int64_t(n)));
    Tensor output = context.alloc(input.dims());
    Tensor loss = context.alloc({1});
    input.upload(host.data(), host.size());
    model.reconstruct(input, output, &loss);
    float value = 0;
    loss.download(&value, 1);
    sum += double(value) * double(n);
  }
  return sum / double(images.size());
}

TEST_CASE("the test evaluation equals the batch-by-batch loop, uploaded or resident") {
  auto contexts = test::make_contexts(test::cpu_table(), 1);
  Context& context = *contexts.front();
  Parameters parameters = Parameters::he_normal(Network::seed(), 7);
  InputTransformSpec contrast;
  contrast.contrast_normalize = true;
  const ImageSet train = test::small_image_set(6, 2);
  const ImageSet images = test::small_image_set(7, 11);  // batches of 3: the last holds 1
  for (const bool transformed : {false, true}) {
    CAPTURE(transformed);
    if (transformed) {
      parameters.input = std::make_shared<const InputTransform>(learn_input_transform(train, contrast));
    }
    Autoencoder model(context, parameters);
    const double expected = batch_by_batch(context, model, images, 3);
    CHECK(expected > 0.0);
    const TransformedImages cached =
        transformed ? TransformedImages(images, model.input_transform(), false) : TransformedImages();
    REQUIRE(cached.empty() == !transformed);
    TestEvaluation uploaded(context, model, images, 3, cached, TestResidency::Uploaded);
    TestEvaluation resident(context, model, images, 3, cached, TestResidency::Resident);
    TestEvaluation automatic(context, model, images, 3, cached);
    CHECK_FALSE(uploaded.resident());
    CHECK(resident.resident());
    // The cpu backend offers no page-locked memory: its tensors are host memory already.
    CHECK_FALSE(automatic.resident());
    for (int repeat = 0; repeat < 2; ++repeat) {  // measured again after each epoch
      CHECK(uploaded.mse(model) == expected);
      CHECK(resident.mse(model) == expected);
      CHECK(automatic.mse(model) == expected);
    }
    CHECK(reconstruction_mse(context, model, images, 3) == expected);
  }
}

TEST_CASE("an empty test set measures 0, and a batch size below 1 is refused") {
  auto contexts = test::make_contexts(test::cpu_table(), 1);
  Autoencoder model(*contexts.front(), Parameters::he_normal(Network::seed(), 7));
  const ImageSet none = test::small_image_set(0, 1);
  TestEvaluation empty(*contexts.front(), model, none, 4, TransformedImages());
  CHECK(empty.mse(model) == 0.0);
  CHECK_THROWS_AS(TestEvaluation(*contexts.front(), model, test::small_image_set(2, 1), 0,
                                 TransformedImages()),
                  std::invalid_argument);
}

}  // namespace
}  // namespace cae::nn
