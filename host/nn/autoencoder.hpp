// The autoencoder on a backend: parameters, gradients and activations as
// device tensors, forward and backward as a sequence of ABI calls. It knows
// nothing of any particular backend.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "nn/architecture.hpp"
#include "nn/parameters.hpp"
#include "plugin/context.hpp"

namespace cae::nn {

// The encoder's activations a feature recipe can tap, all post-ReLU.
enum class EncoderMap {
  Conv1,   // [N,256,32,32]
  Conv2,   // [N,128,16,16]
  Latent,  // [N,128,8,8]: conv2 max-pooled, the seed's feature
};

class Autoencoder {
 public:
  Autoencoder(Context& context, const Parameters& parameters);

  // input [N,3,32,32] in [0,1]. Runs forward, the MSE loss against the input
  // (written to `loss`, a 1-element tensor, left on the device) and backward,
  // leaving the gradients in gradients().
  // With `target` the loss compares the reconstruction with it instead
  // (denoising: a corrupted input, the clean image as target).
  void forward_backward(const Tensor& input, Tensor& loss, const Tensor* target = nullptr);

  // Reconstruction [N,3,32,32] of input, and its MSE in `loss` when given.
  void reconstruct(const Tensor& input, Tensor& output, Tensor* loss = nullptr);

  // The encoder alone: latent [N,128,8,8], the 8,192-d feature of each image.
  void encode(const Tensor& input, Tensor& latent);

  // Runs the encoder; encoder_map() then gives each of its activations for
  // this batch, in the model's own buffers (valid until the next call).
  void encode_maps(const Tensor& input);
  const Tensor& encoder_map(EncoderMap map, int64_t batch);

  std::vector<Tensor>& parameters() { return parameters_; }
  std::vector<Tensor>& gradients() { return gradients_; }
  const std::vector<std::string>& parameter_names() const { return names_; }
  Parameters download_parameters() const;
  void upload_parameters(const Parameters& parameters);

 private:
  // Device buffers of one batch size: each layer's input is the previous
  // layer's `resized` output; `conv` holds each convolution's (post-ReLU) output.
  struct Activations {
    std::vector<Tensor> conv;     // [N, out, size, size] per layer
    std::vector<Tensor> resized;  // after pool / upsample, layers 0..3
    std::vector<Tensor> d_conv;   // gradients of conv
    std::vector<Tensor> d_resized;  // d_conv.back() receives the loss gradient
  };
  Activations& activations_for(int64_t batch, bool with_gradients);
  void forward(const Tensor& input, Activations& a, int last_layer);
  const Tensor& layer_input(const Tensor& input, const Activations& a, int layer) const;

  Context& context_;
  std::vector<std::string> names_;
  std::vector<Tensor> parameters_;  // weight, bias per layer
  std::vector<Tensor> gradients_;
  // Two sizes at most (the batch and the last partial batch).
  std::map<int64_t, std::unique_ptr<Activations>> cache_;
};

}  // namespace cae::nn
