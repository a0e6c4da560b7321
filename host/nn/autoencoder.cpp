#include "autoencoder.hpp"

#include <stdexcept>

#include "nn/latent_sparsity.hpp"
#include "nn/optimizer.hpp"
#include "plugin/backend_error.hpp"

namespace cae::nn {
namespace {

// A backend that cannot run a layer's shape says UNSUPPORTED about one op;
// the user needs to know which layer of their model it was.
template <class Call>
void on_layer(const ConvLayer& layer, Call&& call) {
  try {
    call();
  } catch (const BackendError& error) {
    if (error.status() != CAE_STATUS_UNSUPPORTED) throw;
    throw BackendError(error.status(),
                       "the backend cannot run layer " + layer.describe() + ": " + error.what());
  }
}

}  // namespace

namespace {

// A graph's cache key: its purpose first (named in messages), then what
// changes its nodes or shapes.
std::string graph_key(const char* purpose, int64_t batch, const std::string& variant = "") {
  return std::string(purpose) + "/" + std::to_string(batch) + "/" + variant;
}

}  // namespace

Autoencoder::Autoencoder(Context& context, const Parameters& parameters, Execution execution)
    : context_(context),
      network_(parameters.network),
      input_(parameters.input),
      graphs_(context, execution) {
  check_architecture(network_, parameters.tensors);
  for (const auto& layer : network_.layers()) {
    for (const char* suffix : {".weight", ".bias"}) {
      const HostTensor& host = parameters.at(layer.name + suffix);
      names_.push_back(host.name);
      parameters_.push_back(context_.alloc(host.shape));
      parameters_.back().upload(host.data);
      gradients_.push_back(context_.alloc(host.shape));
    }
  }
}

Parameters Autoencoder::download_parameters() const {
  Parameters p;
  p.network = network_;
  p.input = input_;
  for (size_t i = 0; i < parameters_.size(); ++i) {
    p.tensors.push_back({names_[i], parameters_[i].dims(), parameters_[i].download()});
  }
  return p;
}

void Autoencoder::upload_parameters(const Parameters& parameters) {
  check_architecture(network_, parameters.tensors);
  for (size_t i = 0; i < parameters_.size(); ++i) {
    parameters_[i].upload(parameters.at(names_[i]).data);
  }
}

Autoencoder::Activations& Autoencoder::activations_for(int64_t batch, bool with_gradients) {
  auto found = cache_.find(batch);
  if (found != cache_.end()) {
    if (!with_gradients || !found->second->d_conv.empty()) return *found->second;
    cache_.erase(found);  // inference-only buffers: rebuild with gradients
  }
  // Keep at most two batch sizes alive (the batch and the partial tail): drop
  // the smallest, which is the tail of the previous pass.
  while (cache_.size() >= 2) cache_.erase(cache_.begin());
  auto a = std::make_unique<Activations>();
  for (const ConvLayer& layer : network_.layers()) {
    std::vector<int64_t> conv_dims = {batch, layer.out_channels, layer.size, layer.size};
    a->conv.push_back(context_.alloc(conv_dims));
    if (with_gradients) a->d_conv.push_back(context_.alloc(conv_dims));
    a->resized.emplace_back();
    if (with_gradients) a->d_resized.emplace_back();
    if (layer.after != After::Nothing) {
      const int s = layer.output_size();
      std::vector<int64_t> resized_dims = {batch, layer.out_channels, s, s};
      a->resized.back() = context_.alloc(resized_dims);
      if (with_gradients) a->d_resized.back() = context_.alloc(resized_dims);
    }
  }
  Activations& ref = *a;
  cache_[batch] = std::move(a);
  return ref;
}

const Tensor& Autoencoder::layer_output(const Activations& a, int layer) {
  const Tensor& resized = a.resized[size_t(layer)];
  return resized ? resized : a.conv[size_t(layer)];
}

const Tensor& Autoencoder::layer_input(const Tensor& input, const Activations& a,
                                       int layer) const {
  if (layer == 0) return input;
  if (a.winners && layer == network_.encoder_layers()) return a.winners->code();
  return layer_output(a, layer - 1);
}

// One layer: its convolution into conv_output (a.conv[layer] when null), then
// its pool or upsample from there.
void Autoencoder::forward_layer(const Tensor& input, Activations& a, int i, Tensor* conv_output) {
  if (i == network_.encoder_layers()) take_winners(a, input.dims().at(0));  // the decoder's input
  const ConvLayer& layer = network_.layers()[size_t(i)];
  Tensor& conv = conv_output ? *conv_output : a.conv[size_t(i)];
  on_layer(layer, [&] {
    context_.conv2d_forward(layer_input(input, a, i), parameters_[size_t(2 * i)],
                            parameters_[size_t(2 * i + 1)], conv, layer.relu);
    if (layer.after == After::MaxPool) {
      context_.maxpool2x2_forward(conv, a.resized[size_t(i)]);
    } else if (layer.after == After::Upsample) {
      context_.upsample2x_forward(conv, a.resized[size_t(i)]);
    }
  });
}

void Autoencoder::forward(const Tensor& input, Activations& a, int last_layer) {
  for (int i = 0; i <= last_layer; ++i) forward_layer(input, a, i, nullptr);
}

void Autoencoder::take_winners(Activations& a, int64_t batch) {
  if (!sparsity_.spatial_wta) return;
  const Tensor& latent = layer_output(a, network_.encoder_layers() - 1);
  if (!a.winners) {
    const int64_t side = network_.latent_size();
    a.winners = std::make_unique<SpatialWinnerTakeAll>(
        context_, std::vector<int64_t>{batch, network_.latent_channels(), side, side});
  }
  a.winners->forward(latent);
}

void Autoencoder::set_sparsity(const Sparsity& sparsity) {
  require_sparsity_fits(network_, sparsity);
  sparsity_ = sparsity;
  cache_.clear();  // buffers of the previous setting
}

void Autoencoder::add_sparsity_gradient(Activations& a, int64_t batch, Tensor& d_latent) {
  const Tensor& latent = layer_output(a, network_.encoder_layers() - 1);
  if (!a.l1_minus_ones) {
    a.l1_minus_ones = context_.alloc(latent.dims());
    a.l1_mask = context_.alloc(latent.dims());
    a.l1_minus_ones.upload(std::vector<float>(size_t(batch) * size_t(network_.feature_dim()), -1.0f));
  }
  // The penalty is lambda * mean(|latent|) over the batch's latent values,
  // scaled like the MSE (a mean), so one lambda suits any batch and network.
  const float coefficient = sparsity_.l1 / (float(batch) * float(network_.feature_dim()));
  add_latent_l1_gradient(context_, latent, d_latent, a.l1_minus_ones, a.l1_mask, coefficient);
}

bool Autoencoder::graphs_cover(bool covered, const std::string& why_not) const {
  if (covered) return true;
  if (graphs_.execution() == Execution::Graph) {
    throw std::runtime_error("--execution graph does not cover --sparsity " +
                             sparsity_name(sparsity_) + " (" + why_not +
                             "); use --execution auto or ops");
  }
  return false;
}

bool Autoencoder::training_graphs_cover_settings() const {
  return graphs_cover(sparsity_.none(),
                      "the training graphs hold the reconstruction loss of the dense latent alone");
}

bool Autoencoder::decoder_graphs_cover_settings() const {
  return graphs_cover(!sparsity_.spatial_wta, "the reconstruction graph decodes the dense latent");
}

std::vector<cae_tensor> Autoencoder::bindings(const GraphSpec& spec, const Tensor& input,
                                              const Tensor* target, const Tensor* loss,
                                              const Tensor* output) const {
  std::vector<cae_tensor> bound(spec.tensors.size(), nullptr);
  auto bind = [&](int32_t index, const Tensor* tensor) {
    if (index >= 0 && tensor) bound[size_t(index)] = tensor->handle();
  };
  bind(spec.input, &input);
  bind(spec.target, target);
  bind(spec.loss, loss);
  bind(spec.output, output);
  for (size_t p = 0; p < spec.parameters.size(); ++p) bind(spec.parameters[p], &parameters_[p]);
  for (size_t p = 0; p < spec.gradients.size(); ++p) bind(spec.gradients[p], &gradients_[p]);
  return bound;
}

const GraphCache::Entry* Autoencoder::step_graph(int64_t batch, bool with_target,
                                                const Optimizer& optimizer,
                                                const GradientExchange& exchange) {
  if (!training_graphs_cover_settings()) return nullptr;
  const GraphUpdate update = optimizer.graph_update();
  std::string variant = std::string(with_target ? "target," : "") +
                        (update.kind == GraphUpdate::Kind::Adam ? "adam" : "sgd");
  if (exchange.group != nullptr) {
    variant += ",exchanged " + std::to_string(exchange.member) + "/" +
               std::to_string(exchange.members) + " x" + std::to_string(exchange.scale);
  }
  return graphs_.find(graph_key("training step", batch, variant), [&] {
    TrainingGraphOptions options;
    options.separate_target = with_target;
    options.gradients_visible = false;
    options.update = update;
    options.exchange = exchange;
    return build_training_graph(network_, batch, options);
  }, /*optional=*/exchange.group != nullptr);
}

bool Autoencoder::prepare_exchanged_step(int64_t batch, bool with_target,
                                         const Optimizer& optimizer,
                                         const GradientExchange& exchange) {
  return step_graph(batch, with_target, optimizer, exchange) != nullptr;
}

void Autoencoder::exchanged_step(const Tensor& input, Tensor& loss, const Tensor* target,
                                 Optimizer& optimizer, const GradientExchange& exchange) {
  const GraphCache::Entry* entry =
      step_graph(input.dims().at(0), target != nullptr, optimizer, exchange);
  if (!entry) throw std::logic_error("exchanged_step: the step was not prepared");
  run_step(*entry, input, loss, target, optimizer);
}

bool Autoencoder::train_step(const Tensor& input, Tensor& loss, const Tensor* target,
                             Optimizer& optimizer) {
  const GraphCache::Entry* entry =
      step_graph(input.dims().at(0), target != nullptr, optimizer, GradientExchange{});
  if (!entry) return false;
  run_step(*entry, input, loss, target, optimizer);
  return true;
}

void Autoencoder::run_step(const GraphCache::Entry& step, const Tensor& input, Tensor& loss,
                           const Tensor* target, Optimizer& optimizer) {
  std::vector<cae_tensor> bound = bindings(step.spec, input, target, &loss, nullptr);
  for (size_t p = 0; p < step.spec.first_state.size(); ++p) {
    bound[size_t(step.spec.first_state[p])] = optimizer.first_state()[p].handle();
  }
  for (size_t p = 0; p < step.spec.second_state.size(); ++p) {
    bound[size_t(step.spec.second_state[p])] = optimizer.second_state()[p].handle();
  }
  const cae_graph_run_params params = optimizer.take_graph_step();
  step.graph->run(bound, &params);
  trained_with_graphs_ = true;
}

void Autoencoder::forward_backward(const Tensor& input, Tensor& loss, const Tensor* target) {
  const int64_t batch = input.dims().at(0);
  const GraphCache::Entry* entry =
      !training_graphs_cover_settings()
          ? nullptr
          : graphs_.find(graph_key("backward", batch, target ? "target" : ""), [&] {
              TrainingGraphOptions options;
              options.separate_target = target != nullptr;
              return build_training_graph(network_, batch, options);
            });
  if (entry) {
    entry->graph->run(bindings(entry->spec, input, target, &loss, nullptr));
    trained_with_graphs_ = true;
    return;
  }
  Activations& a = activations_for(batch, true);
  const auto& layers = network_.layers();
  const int last = int(layers.size()) - 1;
  forward(input, a, last);
  context_.mse_loss(a.conv.back(), target ? *target : input, loss, &a.d_conv.back());

  for (int i = last; i >= 0; --i) {
    const ConvLayer& layer = layers[size_t(i)];
    Tensor& d_out = a.d_conv[size_t(i)];
    // The first layer's input gradient is never needed; a previous layer
    // without a pool or upsample takes it straight into its d_conv.
    Tensor* d_in = nullptr;
    if (i > 0) {
      Tensor& d_resized = a.d_resized[size_t(i - 1)];
      d_in = d_resized ? &d_resized : &a.d_conv[size_t(i - 1)];
    }
    on_layer(layer, [&] {
      if (layer.relu) context_.relu_backward(a.conv[size_t(i)], d_out, d_out);
      context_.conv2d_backward(layer_input(input, a, i), parameters_[size_t(2 * i)], d_out, d_in,
                               gradients_[size_t(2 * i)], gradients_[size_t(2 * i + 1)]);
    });
    if (i == 0) break;
    // d_in is now the gradient of layer i's input; for the first decoder
    // layer that is the latent (or its winners), where the sparse codes enter.
    if (i == network_.encoder_layers()) {
      if (a.winners) a.winners->backward(*d_in);
      if (sparsity_.l1 > 0.0f) add_sparsity_gradient(a, batch, *d_in);
    }
    const ConvLayer& previous = layers[size_t(i - 1)];
    on_layer(previous, [&] {
      if (previous.after == After::MaxPool) {
        context_.maxpool2x2_backward(a.conv[size_t(i - 1)], *d_in, a.d_conv[size_t(i - 1)]);
      } else if (previous.after == After::Upsample) {
        context_.upsample2x_backward(*d_in, a.d_conv[size_t(i - 1)]);
      }
    });
  }
}

void Autoencoder::reconstruct(const Tensor& input, Tensor& output, Tensor* loss) {
  const int64_t batch = input.dims().at(0);
  const GraphCache::Entry* entry =
      !decoder_graphs_cover_settings()
          ? nullptr
          : graphs_.find(graph_key("reconstruction", batch, loss ? "loss" : ""), [&] {
              return build_reconstruction_graph(network_, batch, loss != nullptr);
            });
  if (entry) {
    entry->graph->run(bindings(entry->spec, input, nullptr, loss, &output));
    return;
  }
  Activations& a = activations_for(input.dims().at(0), false);
  const int last = int(network_.layers().size()) - 1;
  forward(input, a, last - 1);
  forward_layer(input, a, last, &output);  // the reconstruction neither pools nor upsamples
  if (loss) context_.mse_loss(output, input, *loss, nullptr);
}

void Autoencoder::encode(const Tensor& input, Tensor& latent) {
  const int64_t batch = input.dims().at(0);
  const GraphCache::Entry* entry = graphs_.find(
      graph_key("encoder", batch), [&] { return build_encoder_graph(network_, batch); });
  if (entry) {
    entry->graph->run(bindings(entry->spec, input, nullptr, nullptr, &latent));
    return;
  }
  Activations& a = activations_for(input.dims().at(0), false);
  const int last_encoder = network_.encoder_layers() - 1;
  const ConvLayer& layer = network_.layers()[size_t(last_encoder)];
  forward(input, a, last_encoder - 1);
  if (layer.after == After::Nothing) {
    forward_layer(input, a, last_encoder, &latent);
    return;
  }
  on_layer(layer, [&] {
    context_.conv2d_forward(layer_input(input, a, last_encoder),
                            parameters_[size_t(2 * last_encoder)],
                            parameters_[size_t(2 * last_encoder + 1)], a.conv[size_t(last_encoder)],
                            layer.relu);
    context_.maxpool2x2_forward(a.conv[size_t(last_encoder)], latent);
  });
}

void Autoencoder::encode_maps(const Tensor& input) {
  forward(input, activations_for(input.dims().at(0), false), network_.encoder_layers() - 1);
}

const Tensor& Autoencoder::encoder_map(EncoderMap map, int64_t batch) {
  Activations& a = activations_for(batch, false);
  if (map < 0 || map > network_.encoder_layers()) throw std::logic_error("unknown encoder map");
  if (map == network_.encoder_layers()) return layer_output(a, map - 1);
  return a.conv[size_t(map)];
}

}  // namespace cae::nn
