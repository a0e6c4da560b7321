// The linear classifier: multinomial logistic regression or one-vs-rest
// L2-SVMs by L-BFGS on raw rows with the standardisation folded into the
// weights.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <filesystem>
#include <numeric>

#include <unistd.h>

#include "io/safetensors.hpp"
#include "svm/linear_model.hpp"
#include "svm/linear_trainer.hpp"
#include "svm/model_file.hpp"
#include "svm/ovo_trainer.hpp"
#include "svm/svm_error.hpp"
#include "test_data.hpp"

namespace cae::svm {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("cae-linear-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

TEST_CASE("the linear classifier separates clusters and generalises") {
  const FeatureSet train = test::clustered(4, 60, 10, 2.0, 7, 1);
  const FeatureSet test = test::clustered(4, 40, 10, 2.0, 7, 2);
  LinearOptions options;
  options.threads = 2;
  const LinearModel model = train_linear(train, all_rows(train), options);
  CHECK(model.converged);
  CHECK(model.iterations > 0);
  CHECK(model.classes == std::vector<int32_t>{10, 20, 30, 40});
  CHECK(model.training_rows == train.rows);
  const std::vector<int32_t> predicted = predict_linear(model, test, 2);
  CHECK(test::agreement(predicted, test.labels) > 0.9);
  // A larger C penalises the weights less: a lower training loss.
  options.C = 100.0;
  const LinearModel loose = train_linear(train, all_rows(train), options);
  CHECK(loose.loss < model.loss);
}

TEST_CASE("the linear classifier's result does not depend on threads or on copying the rows") {
  const FeatureSet train = test::clustered(3, 300, 6, 1.0, 9, 1);  // several blocks of rows
  std::vector<int64_t> rows;
  for (int64_t r = 0; r < train.rows; r += 2) rows.push_back(r);  // not consecutive: gathered
  LinearOptions options;
  options.threads = 1;
  const LinearModel one = train_linear(train, rows, options);
  options.threads = 3;
  const LinearModel three = train_linear(train, rows, options);
  CHECK(one.weights == three.weights);
  CHECK(one.bias == three.bias);
  FeatureSet copy;
  copy.dim = train.dim;
  for (const int64_t r : rows) {
    copy.values.insert(copy.values.end(), train.row(r), train.row(r) + train.dim);
    copy.labels.push_back(train.labels[static_cast<size_t>(r)]);
    ++copy.rows;
  }
  const LinearModel copied = train_linear(copy, all_rows(copy), options);
  CHECK(copied.weights == one.weights);
  CHECK(copied.iterations == one.iterations);
}

TEST_CASE("a warm start from another C converges to the same classifier") {
  const FeatureSet train = test::clustered(3, 80, 8, 1.0, 4, 1);
  LinearOptions options;
  options.C = 0.1;
  options.tolerance = 1e-6;
  const LinearModel small = train_linear(train, all_rows(train), options);
  options.C = 1.0;
  const LinearModel cold = train_linear(train, all_rows(train), options);
  const LinearModel warm = train_linear(train, all_rows(train), options, &small);
  CHECK(warm.loss == doctest::Approx(cold.loss).epsilon(1e-4));
  CHECK(predict_linear(warm, train) == predict_linear(cold, train));
  const FeatureSet other = test::clustered(2, 20, 8, 1.0, 4, 1);
  CHECK_THROWS_AS(train_linear(other, all_rows(other), options, &small), SvmError);
}

// The squared-hinge objective of `model` at its own weights with weight
// `nudged` moved by `by`, computed directly from its definition
// (svm/linear_trainer.hpp): 1/2 |W|^2 + C sum_i sum_c max(0, 1 - t_ic s_ic)^2.
double squared_hinge_objective(const LinearModel& model, const FeatureSet& train, size_t nudged,
                               double by) {
  std::vector<double> weights(model.weights.begin(), model.weights.end());
  weights[nudged] += by;
  const int64_t k = model.class_count(), d = model.dim;
  double objective = 0.0;
  for (const double w : weights) objective += 0.5 * w * w;
  std::vector<float> z(static_cast<size_t>(d));
  for (int64_t r = 0; r < train.rows; ++r) {
    std::copy(train.row(r), train.row(r) + d, z.begin());
    model.standardizer.apply(z.data(), 1);
    for (int64_t c = 0; c < k; ++c) {
      double score = model.bias[static_cast<size_t>(c)];
      for (int64_t j = 0; j < d; ++j) score += weights[static_cast<size_t>(c * d + j)] * z[size_t(j)];
      const double t = model.classes[static_cast<size_t>(c)] == train.labels[size_t(r)] ? 1.0 : -1.0;
      const double margin = std::max(0.0, 1.0 - t * score);
      objective += model.C * margin * margin;
    }
  }
  return objective;
}

TEST_CASE("the squared-hinge linear classifier minimises one-vs-rest L2-SVM objectives") {
  const FeatureSet train = test::clustered(4, 60, 10, 2.0, 7, 1);
  const FeatureSet test = test::clustered(4, 40, 10, 2.0, 7, 2);
  LinearOptions options;
  options.threads = 2;
  options.loss = LinearLoss::SquaredHinge;
  options.C = 0.5;
  options.tolerance = 1e-9;  // the minimum itself, so that any nudge of a weight costs
  options.max_iterations = 2000;
  const LinearModel model = train_linear(train, all_rows(train), options);
  CHECK(model.objective == LinearLoss::SquaredHinge);
  CHECK(model.iterations > 0);
  CHECK(test::agreement(predict_linear(model, test, 2), test.labels) > 0.9);
  // Its gradient is the objective's: the weights found are the minimum of the
  // objective as defined. Along any weight, the parabola through the
  // objective at the weight and a nudge either way has its vertex there
  // (a gradient off by a factor would put it at another C's minimum).
  const double at_minimum = squared_hinge_objective(model, train, 0, 0.0);
  constexpr double kNudge = 0.01;
  for (const size_t nudged : {size_t(0), size_t(7), size_t(23), model.weights.size() - 1}) {
    CAPTURE(nudged);
    const double below = squared_hinge_objective(model, train, nudged, -kNudge);
    const double above = squared_hinge_objective(model, train, nudged, kNudge);
    const double curvature = below + above - 2.0 * at_minimum;
    REQUIRE(curvature > 0.0);
    const double vertex = kNudge * (below - above) / (2.0 * curvature);
    // Where the solver stops within its tolerance depends on the host BLAS's
    // rounding (up to 1.3e-4 on the machines it ran on); a gradient off by a
    // factor of 2 puts the vertex at 6e-3 to 2e-2.
    CHECK(std::fabs(vertex) <= 1e-3);
  }
  // Not the logistic model: another objective, other weights.
  options.loss = LinearLoss::Logistic;
  const LinearModel logistic = train_linear(train, all_rows(train), options);
  CHECK(logistic.weights != model.weights);
  CHECK(squared_hinge_objective(logistic, train, 0, 0.0) > at_minimum);
  // The same on the backend's passes.
  options.loss = LinearLoss::SquaredHinge;
  options.devices = {&test::cpu_context()};
  const LinearModel device = train_linear(train, all_rows(train), options);
  CHECK(std::fabs(squared_hinge_objective(device, train, 0, 0.0) - at_minimum) <=
        1e-4 * at_minimum);
  // Its file says which objective it minimised.
  const std::string path = temp_path("hinge");
  save_linear_model(model, path);
  CHECK(load_linear_model(path).objective == LinearLoss::SquaredHinge);
  std::filesystem::remove(path);
  CHECK(linear_loss_from_name("squared-hinge") == LinearLoss::SquaredHinge);
  CHECK(linear_loss_from_name("logistic") == LinearLoss::Logistic);
  CHECK_THROWS_WITH_AS(linear_loss_from_name("hinge"), doctest::Contains("logistic or squared-hinge"),
                       SvmError);
}

TEST_CASE("the linear model file round-trips and is told apart from an SVM model") {
  const FeatureSet train = test::clustered(3, 30, 5, 2.0, 2, 1);
  const LinearModel model = train_linear(train, all_rows(train), LinearOptions{});
  const std::string path = temp_path("model");
  save_linear_model(model, path, {{"features", "somewhere"}});
  CHECK(is_linear_model_file(path));
  const LinearModel loaded = load_linear_model(path);
  CHECK(loaded.weights == model.weights);
  CHECK(loaded.bias == model.bias);
  CHECK(loaded.classes == model.classes);
  CHECK(loaded.standardizer.mean() == model.standardizer.mean());
  CHECK(loaded.iterations == model.iterations);
  CHECK(loaded.objective == LinearLoss::Logistic);
  CHECK(predict_linear(loaded, train) == predict_linear(model, train));
  TrainOptions svm_options;
  svm_options.threads = 1;
  save_model(train_ovo(test::cpu_context(), train, svm_options), path);
  CHECK_FALSE(is_linear_model_file(path));
  CHECK_THROWS_WITH_AS(load_linear_model(path), doctest::Contains("not a valid cae linear model"),
                       SvmError);
  std::filesystem::remove(path);
  CHECK_FALSE(is_linear_model_file(path));
  FeatureSet wrong = train;
  wrong.dim = 4;
  wrong.values.resize(static_cast<size_t>(wrong.rows * 4));
  CHECK_THROWS_AS(predict_linear(model, wrong), SvmError);
  LinearOptions bad;
  bad.C = 0.0;
  CHECK_THROWS_AS(train_linear(train, all_rows(train), bad), SvmError);
}

}  // namespace
}  // namespace cae::svm

namespace cae::svm {
namespace {

TEST_CASE("the kernel SVM's memory estimate grows as rows^2; the linear classifier's not with rows") {
  TrainOptions options;
  options.threads = 2;
  const std::vector<int64_t> cifar(10, 4500);    // 45,000 rows
  const std::vector<int64_t> large(10, 20000);   // 200,000 rows
  const uint64_t gib = uint64_t{1} << 30;
  // 45,000 x 8,192: 0.75 GiB of diagonal blocks, 4 pairs of 0.15 GiB (2 workers + 2),
  // 1.4 GiB of support vectors.
  const uint64_t small_bytes = kernel_svm_host_bytes(cifar, 8192, options);
  CHECK(small_bytes > 2 * gib);
  CHECK(small_bytes < 4 * gib);
  // 200,000 rows: 14.9 GiB of diagonal blocks alone.
  CHECK(kernel_svm_host_bytes(large, 8192, options) > 20 * gib);
  CHECK(linear_training_bytes(10, 8192, 2) < gib / 10);
}

}  // namespace
}  // namespace cae::svm

namespace cae::svm {
namespace {

TEST_CASE("a linear model file with damaged metadata is refused") {
  const std::string path = temp_path("damaged");
  const std::vector<NamedTensor> tensors{{"classes", {2}, {1.0f, 2.0f}},
                                         {"weights", {2, 3}, {0, 1, 2, 3, 4, 5}},
                                         {"bias", {2}, {0.5f, -0.5f}}};
  const SafetensorsMetadata good{{"format", "cae-linear"}, {"format_version", "1"},
                                 {"C", "1"},           {"dim", "3"},
                                 {"training_rows", "10"}, {"iterations", "4"},
                                 {"converged", "yes"}, {"loss", "0.5"},
                                 {"objective",
                                  "multinomial logistic regression, L2: 1/2 |W|^2 + C sum "
                                  "cross-entropy (L-BFGS)"}};
  write_safetensors(path, tensors, good);
  CHECK(load_linear_model(path).weights == std::vector<float>{0, 1, 2, 3, 4, 5});
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"training_rows", "1e300"}, {"iterations", "-1"}, {"iterations", "2.5"},
           {"C", "0"}, {"dim", "4"}, {"format", "cae-svm-ovo"}, {"objective", "k-means"}}) {
    INFO(key << " = " << value);
    SafetensorsMetadata bad = good;
    bad[key] = value;
    write_safetensors(path, tensors, bad);
    CHECK_THROWS_WITH_AS(load_linear_model(path), doctest::Contains("not a valid cae linear model"),
                         SvmError);
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace cae::svm

namespace cae::svm {
namespace {

// The largest difference of two models' weights, relative to the largest
// weight of `reference`.
double weight_difference(const LinearModel& model, const LinearModel& reference) {
  REQUIRE(model.weights.size() == reference.weights.size());
  double largest = 0.0, difference = 0.0;
  for (size_t i = 0; i < reference.weights.size(); ++i) {
    largest = std::max(largest, double(std::fabs(reference.weights[i])));
    difference = std::max(difference, double(std::fabs(reference.weights[i] - model.weights[i])));
  }
  return difference / largest;
}

TEST_CASE("the linear classifier's passes on the backend reach the host's model") {
  // 17,000 rows: 67 blocks of 256 rows, in 64 groups on the host (three of
  // them two blocks) and in 8 groups of 8 or 9 blocks on the backend.
  const FeatureSet train = test::clustered(5, 3400, 12, 1.5, 29, 1);
  const FeatureSet test = test::clustered(5, 40, 12, 1.5, 29, 2);
  LinearOptions options;
  options.threads = 2;
  options.C = 2.0;
  const LinearModel host = train_linear(train, all_rows(train), options);
  LinearOptions on_device = options;
  on_device.devices = {&test::cpu_context()};
  const LinearModel device = train_linear(train, all_rows(train), on_device);
  CHECK(device.converged);
  // The same minimiser, reached through other roundings: close, not equal.
  CHECK(weight_difference(device, host) <= 1e-2);
  CHECK(std::fabs(device.loss - host.loss) <= 1e-3 * std::max(1.0, host.loss));
  CHECK(test::agreement(predict_linear(device, test, 2), predict_linear(host, test, 2)) >= 0.97);
  // Two devices take the groups in turn and sum them in the same order: the
  // model of one device, bit for bit.
  const std::unique_ptr<Context> second = test::new_cpu_context();
  on_device.devices = {&test::cpu_context(), second.get()};
  const LinearModel two = train_linear(train, all_rows(train), on_device);
  CHECK(two.weights == device.weights);
  CHECK(two.bias == device.bias);
  CHECK(two.iterations == device.iterations);
}

// A backend whose linear_loss is declared but turned off, as v3's and v4's
// with linear-loss=off.
cae_status refuse_linear_loss(cae_context, cae_tensor, cae_tensor, cae_tensor, int32_t, float,
                              cae_tensor, cae_tensor) {
  return CAE_STATUS_UNSUPPORTED;
}

Context& cpu_refusing_linear_loss() {
  static const cae_backend_table table = [] {
    cae_backend_table copy = test::cpu_context().table();
    copy.linear_loss = refuse_linear_loss;
    return copy;
  }();
  static Context context(table, 0, 2);
  return context;
}

TEST_CASE(
    "the loss on the backend (linear_loss) gives the model of the host's loss between the "
    "backend's products") {
  // 3,500 rows: 14 blocks of 256 rows in 8 groups, the last block short.
  const FeatureSet train = test::clustered(5, 700, 12, 1.5, 31, 1);
  const std::vector<int64_t> rows = all_rows(train);  // the trainers keep a reference
  Context& without = test::cpu_without<&cae_backend_table::linear_loss>();
  for (const LinearLoss loss : {LinearLoss::Logistic, LinearLoss::SquaredHinge}) {
    CAPTURE(static_cast<int>(loss));
    LinearOptions options;
    options.threads = 2;
    options.loss = loss;
    options.devices = {&test::cpu_context()};
    LinearTrainer on_device(train, rows, options);
    CHECK(on_device.accounting().loss_placement == "on the backend (cpu)");
    options.devices = {&without};
    LinearTrainer on_host(train, rows, options);
    CHECK(on_host.accounting().loss_placement == "on the host: cpu has no linear_loss (ABI 1.11)");
    options.devices = {&cpu_refusing_linear_loss()};
    LinearTrainer refused(train, rows, options);
    CHECK(refused.accounting().loss_placement.rfind("on the host: ", 0) == 0);
    for (const double C : {0.05, 3.0}) {
      CAPTURE(C);
      const LinearModel device = on_device.train(C);
      const LinearModel host = on_host.train(C);
      // The same products and the same double arithmetic per row; only the
      // scale of the residuals (a float on the device) and the order of a
      // block's sums differ.
      CHECK(weight_difference(device, host) <= 1e-4);
      CHECK(std::fabs(device.loss - host.loss) <= 1e-6 * std::max(1.0, host.loss));
      CHECK(device.converged == host.converged);
      // A refusal is the host's loss, bit for bit.
      const LinearModel fallback = refused.train(C);
      CHECK(fallback.weights == host.weights);
      CHECK(fallback.bias == host.bias);
    }
  }
}

TEST_CASE(
    "the rows transposed on the backend (transpose) give the model of the host's "
    "transpose bit for bit") {
  // 3,500 rows in 8 groups, 12 features: tiles cut on both sides.
  const FeatureSet train = test::clustered(5, 700, 12, 1.5, 37, 1);
  LinearOptions options;
  options.threads = 2;
  options.C = 0.5;
  options.devices = {&test::cpu_context()};
  REQUIRE(test::cpu_context().has_transpose());
  const LinearModel on_device = train_linear(train, all_rows(train), options);
  Context& without = test::cpu_without<&cae_backend_table::transpose>();
  REQUIRE_FALSE(without.has_transpose());
  options.devices = {&without};
  const LinearModel on_host = train_linear(train, all_rows(train), options);
  CHECK(on_device.weights == on_host.weights);
  CHECK(on_device.bias == on_host.bias);
  CHECK(on_device.iterations == on_host.iterations);
}

TEST_CASE("one trainer for several C gives train_linear's model for each, on host and backend") {
  const FeatureSet train = test::clustered(4, 700, 10, 1.2, 13, 1);
  std::vector<int64_t> rows;  // not every row, and not consecutive: gathered groups
  for (int64_t r = 0; r < train.rows; ++r) {
    if (r % 7 != 3) rows.push_back(r);
  }
  for (const bool on_backend : {false, true}) {
    CAPTURE(on_backend);
    LinearOptions options;
    options.threads = 3;
    if (on_backend) options.devices = {&test::cpu_context()};
    LinearTrainer trainer(train, rows, options);
    LinearModel previous;
    for (const double C : {0.01, 0.3, 5.0}) {
      CAPTURE(C);
      LinearOptions alone = options;
      alone.C = C;
      const LinearModel* start = C == 0.01 ? nullptr : &previous;
      const LinearModel expected = train_linear(train, rows, alone, start);
      const LinearModel got = trainer.train(C, start);
      CHECK(got.C == C);
      CHECK(got.weights == expected.weights);
      CHECK(got.bias == expected.bias);
      CHECK(got.iterations == expected.iterations);
      CHECK(got.loss == expected.loss);
      previous = got;
    }
    CHECK_THROWS_AS(trainer.train(0.0), SvmError);
    CHECK_THROWS_AS(trainer.train(std::nan("")), SvmError);
  }
}

}  // namespace
}  // namespace cae::svm
