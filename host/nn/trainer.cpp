#include "trainer.hpp"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <optional>
#include <stdexcept>

#include "common/parallel.hpp"
#include "data/batcher.hpp"
#include "nn/batch_transform.hpp"
#include "nn/batches_ahead.hpp"
#include "nn/interrupt.hpp"
#include "nn/latent_sparsity.hpp"
#include "nn/model_replicas.hpp"
#include "nn/test_evaluation.hpp"
#include "nn/transformed_images.hpp"
#include "report/progress.hpp"
#include "report/stopwatch.hpp"

namespace cae::nn {
namespace {

// A NaN or infinite loss means the parameters are no longer numbers: saving
// them would replace the last good checkpoint with a useless one.
void require_finite_loss(double loss, int epoch, const TrainOptions& options) {
  if (std::isfinite(loss)) return;
  std::string kept = options.checkpoint_path.empty()
                         ? std::string()
                         : "; " + options.checkpoint_path + " keeps the last finite state";
  throw std::runtime_error("training diverged in epoch " + std::to_string(epoch) +
                           ": the loss is " + (std::isnan(loss) ? "NaN" : "infinite") + kept +
                           " (try a lower --lr)");
}

// Images per thread when the host makes a batch, and the most threads: a
// batch of 64 on 8 threads (on 4 of a GPU machine's busy cores the steps
// waited for their batches).
constexpr size_t kBatchImagesPerThread = 8;
constexpr size_t kMaxBatchThreads = 8;

// Whether the transform treats each image on its own, on the host (not on
// the backend, whose context is used from one thread).
bool transforms_per_image_on_host(const BatchTransform& transform) {
  return transform.transform() && transform.transform()->per_image() &&
         !transform.whitens_on_backend();
}

}  // namespace

double reconstruction_mse(Context& context, Autoencoder& model, const ImageSet& images,
                          int batch_size) {
  return reconstruction_mse(context, model, images, batch_size, TransformedImages());
}

double reconstruction_mse(Context& context, Autoencoder& model, const ImageSet& images,
                          int batch_size, const TransformedImages& transformed) {
  return TestEvaluation(context, model, images, batch_size, transformed).mse(model);
}

TrainOutcome train_autoencoder(Context& context, const ImageSet& train, const ImageSet& test,
                               const TrainOptions& options, const Checkpoint& start,
                               std::ostream& log) {
  return train_autoencoder(std::vector<Context*>{&context}, train, test, options, start, log);
}

TrainOutcome train_autoencoder(const std::vector<Context*>& contexts, const ImageSet& train,
                               const ImageSet& test, const TrainOptions& options,
                               const Checkpoint& start, std::ostream& log) {
  TrainOutcome outcome;
  const Network& network = start.parameters.network;
  network.require_images(train.channels, train.side, "the training set");
  if (test.size() > 0) network.require_images(test.channels, test.side, "the test set");
  const size_t image_floats = size_t(network.image_floats());
  Parameters initial = start.parameters;
  if (!initial.input && options.input.active()) {
    Stopwatch learning;
    initial.input =
        std::make_shared<const InputTransform>(learn_input_transform(train, options.input));
    char line[160];
    std::snprintf(line, sizeof line, "input transform: %s, learned on %zu images in %.1f s\n",
                  describe_input_transform(options.input).c_str(), train.size(),
                  learning.seconds());
    log << line << std::flush;
  }
  ModelReplicas replicas(contexts, initial, options.optimizer, options.batch_size,
                         options.force_host_exchange, options.processes, options.execution);
  replicas.set_sparsity(options.sparsity);
  const bool primary = !options.processes || options.processes->rank() == 0;
  Context& context = replicas.primary_context();
  Autoencoder& model = replicas.primary_model();
  Optimizer& optimizer = replicas.primary_optimizer();
  TrainingState state = start.state;
  if (!start.optimizer_state.empty()) {
    replicas.import_optimizer_state(start.optimizer_state, state.optimizer_steps);
  }
  state.seed = options.seed;
  state.recipe = options.recipe;
  state.backend = options.backend;
  state.backend_options = options.backend_options;
  state.optimizer = options.optimizer;
  state.batch_size = options.batch_size;
  state.epochs_planned = options.epochs;
  state.samples = int64_t(train.size());
  state.augment = augmentation_name(options.augment);
  state.input_noise = options.input_noise;
  state.lr_schedule = lr_schedule_name(options.lr_schedule);
  state.sparsity = sparsity_name(options.sparsity);
  if (options.data) state.data = options.data;
  if (options.processes) {
    const int world = options.processes->world();
    log << "rank " << options.processes->rank() << " of " << world << " processes, "
        << options.batch_size / world << " images per process and step, gradients summed "
        << (replicas.backend_collectives() ? "by the backend's collectives"
                                           : "through files (the host's fallback: the backend "
                                             "has no process-group members)")
        << "\n";
  } else if (contexts.size() > 1) {
    log << "data parallel over " << contexts.size() << " devices, "
        << options.batch_size / int(contexts.size())
        << " images per device and step, gradients summed "
        << (replicas.backend_collectives() ? "by the backend's collectives" : "through host memory")
        << "\n";
  }

  EpochBatcher batcher(train.size(), size_t(options.batch_size), options.seed);
  // The schedule spans the run's epochs (the partial last batch is a step too).
  const int64_t steps_per_epoch =
      (int64_t(train.size()) + options.batch_size - 1) / options.batch_size;
  const int64_t run_steps = steps_per_epoch * options.epochs;
  // A batch larger than the set is the whole set: no memory for images that do not exist.
  const int64_t full_batch =
      std::max<int64_t>(1, std::min<int64_t>(options.batch_size, int64_t(train.size())));
  std::vector<float> host(size_t(full_batch) * image_floats);
  const BatchAugmenter augmenter(options.augment, options.seed);
  // Whitening's SGEMM once per image rather than once per image and epoch
  // (nn/transformed_images.hpp); flip-crop's shifts are per batch, so with
  // them the transform is too.
  Stopwatch transforming;
  BatchTransform transform(model.input_transform(), &context);
  const TransformedImages cached_train =
      options.augment != Augmentation::FlipCrop
          ? TransformedImages(train, transform, options.augment == Augmentation::Flip)
          : TransformedImages();
  const bool use_cached_train = !cached_train.empty();
  const TransformedImages cached_test =
      primary ? TransformedImages(test, transform, false) : TransformedImages();
  if (!cached_train.empty() || !cached_test.empty()) {
    // What the cores (and the backend) did before the first epoch.
    char line[200];
    std::snprintf(
        line, sizeof line,
        "input transform: applied to %zu training images%s and %zu test images in %.2f s",
        cached_train.empty() ? size_t(0) : train.size(),
        options.augment == Augmentation::Flip && !cached_train.empty() ? " (and mirrors)" : "",
        cached_test.empty() ? size_t(0) : test.size(), transforming.seconds());
    log << line << (transform.placement().empty() ? "" : "; ") << transform.placement() << "\n";
  } else if (!transform.placement().empty()) {
    log << "input transform: " << transform.placement() << "\n";
  }
  // A batch the host makes itself (without the cached transform). The
  // transform is the network's first step: it sees the augmented image (a
  // mirrored image whitened, not a whitened image mirrored). Why threads: one core making a batch
  // of 64 shifted, contrast-normalised CIFAR images takes longer than a GPU's training step. Each
  // image is read, moved (by the batch's draws, made in order first) and transformed on its own, so
  // the split does not change a bit; a transform that is not per image runs on the whole batch
  // afterwards.
  const bool per_image_transform = transforms_per_image_on_host(transform);
  const auto make_batch = [&](const std::vector<size_t>& batch, size_t epoch, size_t batch_number,
                              float* out) {
    const size_t count = batch.size();
    const std::vector<ImageMove> moves = augmenter.moves(count, epoch, batch_number);
    const int threads =
        static_cast<int>(std::min({size_t(resolve_thread_count(0)), kMaxBatchThreads,
                                   std::max<size_t>(1, count / kBatchImagesPerThread)}));
    parallel_chunks(threads, int64_t(count), [&](int64_t begin, int64_t end) {
      float* images = out + size_t(begin) * image_floats;
      const size_t n = size_t(end - begin);
      fill_batch(train, batch.data() + begin, n, images);  // a reader reads from any thread
      move_images(images, moves.data() + begin, n, network.image_channels(), network.image_side());
      if (per_image_transform) transform.apply(images, n);
    });
    if (!per_image_transform) transform.apply(out, count);
  };
  // Those batches are made a step ahead on a second thread, unless the
  // transform runs on the backend: a context is used from one thread only.
  std::optional<BatchesAhead> ahead;
  if (!use_cached_train && !transform.whitens_on_backend()) ahead.emplace(make_batch, host.size());
  std::optional<TestEvaluation> test_evaluation;
  if (primary) test_evaluation.emplace(context, model, test, options.eval_batch_size, cached_test);
  InterruptGuard interrupts;

  auto snapshot = [&]() {
    Checkpoint c;
    c.parameters = model.download_parameters();
    c.optimizer_state = optimizer.export_state();
    c.state = state;
    c.state.optimizer_steps = optimizer.steps_taken();
    c.state.execution = model.trained_with_graphs() ? "graph" : "ops";
    return c;
  };

  bool last_saved = false;  // outcome.final_state holds the last epoch's save
  // Steps run, and those whose gradients crossed inside the step's graph.
  int64_t steps_run = 0, steps_exchanged_in_graph = 0;
  for (int epoch = state.epochs_done; epoch < options.epochs; ++epoch) {
    Stopwatch epoch_clock;
    batcher.start_epoch(size_t(epoch));
    std::vector<size_t> indices;
    // Resuming mid-epoch: the epoch's order is a function of (seed, epoch), so
    // skipping the batches already done continues exactly where it stopped.
    int64_t skip = state.batches_done;
    int64_t images_done = 0;
    for (int64_t b = 0; b < skip && batcher.next_batch(indices); ++b)
      images_done += int64_t(indices.size());
    const int64_t images_skipped = images_done;
    replicas.reset_loss_sum(state.partial_loss_sum);

    ProgressOptions progress_options;
    progress_options.label =
        "epoch " + std::to_string(epoch + 1) + "/" + std::to_string(options.epochs);
    progress_options.unit = "img";
    progress_options.out = &log;
    progress_options.items_after = int64_t(options.epochs - epoch - 1) * int64_t(train.size());
    progress_options.items_after_name = "training";
    ProgressReporter progress(int64_t(train.size()), progress_options);
    progress.update(images_done);

    // A group of processes decides to stop together, inside a step's
    // exchange (a rank that stopped alone would leave the others waiting).
    bool stopping = false;
    bool have_batch = batcher.next_batch(indices);
    if (have_batch && ahead) ahead->start(indices, size_t(epoch), size_t(state.batches_done));
    std::vector<size_t> next_indices;
    while (!stopping && have_batch) {
      if (!replicas.distributed() && InterruptGuard::requested()) break;
      const int64_t n = int64_t(indices.size());
      replicas.set_learning_rate(scheduled_learning_rate(
          options.lr_schedule, options.optimizer.learning_rate,
          int64_t(epoch) * steps_per_epoch + state.batches_done, run_steps));
      // Draws depend on (seed, epoch, batch number): a resumed epoch repeats them.
      const size_t batch_number = size_t(state.batches_done);
      const float* images = host.data();
      if (use_cached_train) {
        cached_train.fill(indices, augmenter.flips(size_t(n), size_t(epoch), batch_number),
                          host.data());
      } else if (ahead) {
        images = ahead->take();
      } else {
        make_batch(indices, size_t(epoch), batch_number, host.data());
      }
      // The next batch is made while this step runs (train_step has copied
      // `images` when it returns, so their buffer may be refilled after it).
      have_batch = batcher.next_batch(next_indices);
      if (have_batch && ahead) ahead->start(next_indices, size_t(epoch), batch_number + 1);
      if (options.input_noise > 0) {
        const StepNoise noise{options.input_noise,
                              input_noise_stream(options.seed, size_t(epoch), batch_number)};
        stopping = replicas.train_step(images, n, noise, InterruptGuard::requested());
      } else {
        stopping = replicas.train_step(images, n, nullptr, InterruptGuard::requested());
      }
      ++state.batches_done;
      ++steps_run;
      if (replicas.last_step_exchanged_in_graph()) ++steps_exchanged_in_graph;
      images_done += n;
      progress.advance(n);
      indices.swap(next_indices);
    }
    // A batch made ahead that no step took (the run stopped): wait for it,
    // so that the next start() finds the worker free.
    if (have_batch && ahead) ahead->take();
    double loss_sum = replicas.drain_loss_sum();

    require_finite_loss(loss_sum, epoch + 1, options);
    if (stopping || (!replicas.distributed() && InterruptGuard::requested())) {
      state.partial_loss_sum = loss_sum;
      outcome.interrupted = true;
      // A rank stopped by another rank's signal reports SIGINT.
      outcome.signal = InterruptGuard::signal_number() ? InterruptGuard::signal_number() : SIGINT;
      outcome.final_state = snapshot();
      const bool save = !options.checkpoint_path.empty() && options.checkpoint_on_interrupt;
      if (save) save_checkpoint(options.checkpoint_path, outcome.final_state);
      log << "\ninterrupted by signal " << outcome.signal << " during epoch " << epoch + 1
          << " after " << images_done << " images";
      if (save) {
        log << "; resumable checkpoint saved to " << options.checkpoint_path
            << "\nresume with: cae train --resume " << options.checkpoint_path
            << " (plus the same --data and --backend)";
      }
      log << "\n";
      return outcome;
    }
    progress.finish();

    EpochRecord record;
    record.epoch = epoch + 1;
    record.train_loss = loss_sum / double(train.size());
    record.seconds = epoch_clock.seconds();
    record.images_per_second = double(images_done - images_skipped) / record.seconds;
    // The replicas are identical: one rank's evaluation speaks for all.
    record.test_mse = primary ? test_evaluation->mse(model) : 0.0;
    require_finite_loss(record.test_mse, epoch + 1, options);
    outcome.epochs.push_back(record);

    state.epochs_done = epoch + 1;
    state.batches_done = 0;
    state.partial_loss_sum = 0;
    state.train_losses.push_back(record.train_loss);
    state.test_mses.push_back(record.test_mse);

    char test_mse[40] = "test mse on rank 0";
    if (primary) std::snprintf(test_mse, sizeof test_mse, "test mse %.6f", record.test_mse);
    char line[240];
    std::snprintf(line, sizeof line, "epoch %d/%d  train loss %.6f  %s  %.1f s  %.0f img/s\n",
                  record.epoch, options.epochs, record.train_loss, test_mse, record.seconds,
                  record.images_per_second);
    log << line << std::flush;
    const bool last = epoch + 1 == options.epochs;
    if (!options.checkpoint_path.empty() && (options.checkpoint_each_epoch || last)) {
      outcome.final_state = snapshot();
      save_checkpoint(options.checkpoint_path, outcome.final_state);
      last_saved = last;
    }
  }
  if ((options.processes || contexts.size() > 1) && steps_run > 0) {
    // Whether the exchange overlapped the backward pass (inside the graph)
    // or waited for it (the host's exchange): the epoch times differ by it.
    log << "gradients exchanged inside the step graphs on " << steps_exchanged_in_graph << " of "
        << steps_run << " steps\n";
  }
  if (ahead && ahead->batches_taken() > 0) {
    // Whether making the batches on the host bounded the steps: the part of
    // their preparation that the steps did not hide is the wait.
    char line[200];
    std::snprintf(line, sizeof line,
                  "host batches: %zu made on a second thread in %.2f s; the steps waited %.2f s "
                  "for them\n",
                  ahead->batches_taken(), ahead->preparing_seconds(), ahead->waiting_seconds());
    log << line;
  }
  // The last epoch's saved state is the final one: its parameters are downloaded once.
  if (!last_saved) outcome.final_state = snapshot();
  return outcome;
}

}  // namespace cae::nn
