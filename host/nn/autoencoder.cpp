#include "autoencoder.hpp"

#include <stdexcept>

namespace cae::nn {
namespace {

int resized_size(const ConvLayer& layer) {
  return layer.after == After::MaxPool ? layer.size / 2 : layer.size * 2;
}

}  // namespace

Autoencoder::Autoencoder(Context& context, const Parameters& parameters) : context_(context) {
  check_architecture(parameters.tensors);
  for (const auto& layer : kLayers) {
    for (const char* suffix : {".weight", ".bias"}) {
      const HostTensor& host = parameters.at(std::string(layer.name) + suffix);
      names_.push_back(host.name);
      parameters_.push_back(context_.alloc(host.shape));
      parameters_.back().upload(host.data);
      gradients_.push_back(context_.alloc(host.shape));
    }
  }
}

Parameters Autoencoder::download_parameters() const {
  Parameters p;
  for (size_t i = 0; i < parameters_.size(); ++i) {
    p.tensors.push_back({names_[i], parameters_[i].dims(), parameters_[i].download()});
  }
  return p;
}

void Autoencoder::upload_parameters(const Parameters& parameters) {
  check_architecture(parameters.tensors);
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
  for (size_t i = 0; i < kLayers.size(); ++i) {
    const ConvLayer& layer = kLayers[i];
    std::vector<int64_t> conv_dims = {batch, layer.out_channels, layer.size, layer.size};
    a->conv.push_back(context_.alloc(conv_dims));
    if (with_gradients) a->d_conv.push_back(context_.alloc(conv_dims));
    if (layer.after != After::Nothing) {
      int s = resized_size(layer);
      std::vector<int64_t> resized_dims = {batch, layer.out_channels, s, s};
      a->resized.push_back(context_.alloc(resized_dims));
      if (with_gradients) a->d_resized.push_back(context_.alloc(resized_dims));
    }
  }
  Activations& ref = *a;
  cache_[batch] = std::move(a);
  return ref;
}

const Tensor& Autoencoder::layer_input(const Tensor& input, const Activations& a,
                                       int layer) const {
  return layer == 0 ? input : a.resized[size_t(layer - 1)];
}

void Autoencoder::forward(const Tensor& input, Activations& a, int last_layer) {
  for (int i = 0; i <= last_layer; ++i) {
    const ConvLayer& layer = kLayers[size_t(i)];
    context_.conv2d_forward(layer_input(input, a, i), parameters_[size_t(2 * i)],
                            parameters_[size_t(2 * i + 1)], a.conv[size_t(i)], layer.relu);
    if (layer.after == After::MaxPool) {
      context_.maxpool2x2_forward(a.conv[size_t(i)], a.resized[size_t(i)]);
    } else if (layer.after == After::Upsample) {
      context_.upsample2x_forward(a.conv[size_t(i)], a.resized[size_t(i)]);
    }
  }
}

void Autoencoder::forward_backward(const Tensor& input, Tensor& loss, const Tensor* target) {
  const int64_t batch = input.dims().at(0);
  Activations& a = activations_for(batch, true);
  const int last = int(kLayers.size()) - 1;
  forward(input, a, last);
  context_.mse_loss(a.conv.back(), target ? *target : input, loss, &a.d_conv.back());

  for (int i = last; i >= 0; --i) {
    const ConvLayer& layer = kLayers[size_t(i)];
    Tensor& d_out = a.d_conv[size_t(i)];
    if (layer.relu) context_.relu_backward(a.conv[size_t(i)], d_out, d_out);
    // The first layer's input gradient is never needed.
    Tensor* d_in = i > 0 ? &a.d_resized[size_t(i - 1)] : nullptr;
    context_.conv2d_backward(layer_input(input, a, i), parameters_[size_t(2 * i)], d_out, d_in,
                             gradients_[size_t(2 * i)], gradients_[size_t(2 * i + 1)]);
    if (i == 0) break;
    const ConvLayer& previous = kLayers[size_t(i - 1)];
    if (previous.after == After::MaxPool) {
      context_.maxpool2x2_backward(a.conv[size_t(i - 1)], *d_in, a.d_conv[size_t(i - 1)]);
    } else {
      context_.upsample2x_backward(*d_in, a.d_conv[size_t(i - 1)]);
    }
  }
}

void Autoencoder::reconstruct(const Tensor& input, Tensor& output, Tensor* loss) {
  Activations& a = activations_for(input.dims().at(0), false);
  const int last = int(kLayers.size()) - 1;
  forward(input, a, last - 1);
  context_.conv2d_forward(a.resized[size_t(last - 1)], parameters_[size_t(2 * last)],
                          parameters_[size_t(2 * last + 1)], output, kLayers[size_t(last)].relu);
  if (loss) context_.mse_loss(output, input, *loss, nullptr);
}

void Autoencoder::encode(const Tensor& input, Tensor& latent) {
  Activations& a = activations_for(input.dims().at(0), false);
  const int last_encoder = kEncoderLayers - 1;
  forward(input, a, last_encoder - 1);
  context_.conv2d_forward(layer_input(input, a, last_encoder), parameters_[size_t(2 * last_encoder)],
                          parameters_[size_t(2 * last_encoder + 1)], a.conv[size_t(last_encoder)],
                          kLayers[size_t(last_encoder)].relu);
  context_.maxpool2x2_forward(a.conv[size_t(last_encoder)], latent);
}

void Autoencoder::encode_maps(const Tensor& input) {
  forward(input, activations_for(input.dims().at(0), false), kEncoderLayers - 1);
}

const Tensor& Autoencoder::encoder_map(EncoderMap map, int64_t batch) {
  Activations& a = activations_for(batch, false);
  switch (map) {
    case EncoderMap::Conv1:
      return a.conv[0];
    case EncoderMap::Conv2:
      return a.conv[1];
    case EncoderMap::Latent:
      return a.resized[1];
  }
  throw std::logic_error("unknown encoder map");
}

}  // namespace cae::nn
