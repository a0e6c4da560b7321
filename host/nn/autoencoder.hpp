// The autoencoder on a backend: parameters, gradients and activations as
// device tensors, forward and backward as a sequence of ABI calls, or as
// graphs built from the network (nn/graph_builder.hpp) where the backend
// compiles them. It knows nothing of any particular backend.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "nn/architecture.hpp"
#include "nn/graph_execution.hpp"
#include "nn/latent_sparsity.hpp"
#include "nn/parameters.hpp"
#include "plugin/context.hpp"

namespace cae::nn {

// The encoder's activations a feature recipe can tap, all post-ReLU: maps
// 0 .. encoder_layers()-1 are the encoder convolutions' outputs (before their
// pool), map encoder_layers() is the latent (the last one's output after its
// pool). For the seed: [N,256,32,32], [N,128,16,16], latent [N,128,8,8].
using EncoderMap = int;

class Optimizer;

class Autoencoder {
 public:
  Autoencoder(Context& context, const Parameters& parameters,
              Execution execution = Execution::Auto);

  // Forward, loss, backward and the optimiser's update as ONE graph, when
  // the backend compiles it: returns false (nothing done) when it runs op by
  // op instead, and the caller runs forward_backward and optimizer.step().
  // The gradients stay inside the graph (gradients() is not written).
  bool train_step(const Tensor& input, Tensor& loss, const Tensor* target, Optimizer& optimizer);

  // The same step for one member of a group of devices, the gradients summed
  // over the group inside the graph (ABI 1.6 all_reduce_sum nodes, scaled by
  // exchange.scale). prepare_exchanged_step compiles it for this batch and
  // says whether the backend runs it (false: the caller exchanges op by op);
  // exchanged_step then runs it, on every member at once, each on its own
  // thread (docs/abi.md, "ABI 1.6").
  bool prepare_exchanged_step(int64_t batch, bool with_target, const Optimizer& optimizer,
                              const GradientExchange& exchange);
  void exchanged_step(const Tensor& input, Tensor& loss, const Tensor* target,
                      Optimizer& optimizer, const GradientExchange& exchange);

  // Whether a training step of this model ran as a graph so far (what a
  // checkpoint records).
  bool trained_with_graphs() const { return trained_with_graphs_; }
  Execution execution() const { return graphs_.execution(); }

  // input [N, channels, side, side] in [0,1] (the network's images). Runs forward, the MSE loss against the input
  // (written to `loss`, a 1-element tensor, left on the device) and backward,
  // leaving the gradients in gradients().
  // With `target` the loss compares the reconstruction with it instead
  // (denoising: a corrupted input, the clean image as target).
  void forward_backward(const Tensor& input, Tensor& loss, const Tensor* target = nullptr);

  // Reconstruction (shaped like the input) of input, and its MSE in `loss` when given.
  void reconstruct(const Tensor& input, Tensor& output, Tensor* loss = nullptr);

  // The encoder alone: latent [N, latent channels, latent size, latent size]
  // (the seed's 8,192-d feature of each image).
  void encode(const Tensor& input, Tensor& latent);

  // Runs the encoder; encoder_map() then gives each of its activations for
  // this batch, in the model's own buffers (valid until the next call).
  void encode_maps(const Tensor& input);
  const Tensor& encoder_map(EncoderMap map, int64_t batch);

  const Network& network() const { return network_; }
  // The parameters' input transform (nullptr for none): the callers that
  // fill batches apply it (nn/batch_transform.hpp).
  const InputTransform* input_transform() const { return input_.get(); }
  // Sparse codes (nn/latent_sparsity.hpp): an L1 penalty adds
  // lambda * mean(|latent|) over the batch's latent values to the loss that
  // forward_backward differentiates; the spatial winner-take-all hands the
  // decoder only each latent map's winner, in training and in reconstruct()
  // (encode() and the encoder maps stay dense). Throws std::invalid_argument
  // when the network's latent maps cannot take it.
  void set_sparsity(const Sparsity& sparsity);

  std::vector<Tensor>& parameters() { return parameters_; }
  std::vector<Tensor>& gradients() { return gradients_; }
  const std::vector<std::string>& parameter_names() const { return names_; }
  Parameters download_parameters() const;
  void upload_parameters(const Parameters& parameters);

 private:
  // Device buffers of one batch size: each layer's input is the previous
  // layer's output, `resized` where it pools or upsamples, else `conv`, which
  // holds each convolution's (post-ReLU) output.
  struct Activations {
    std::vector<Tensor> conv;     // [N, out, size, size] per layer
    std::vector<Tensor> resized;  // after pool / upsample; empty for layers without
    std::vector<Tensor> d_conv;   // gradients of conv; d_conv.back() receives the loss gradient
    std::vector<Tensor> d_resized;
    Tensor l1_minus_ones, l1_mask;  // the sparsity penalty's, allocated on its first use
    std::unique_ptr<SpatialWinnerTakeAll> winners;  // the decoder's input, with wta-spatial
  };
  void add_sparsity_gradient(Activations& a, int64_t batch, Tensor& d_latent);
  // Whether the training graphs compute what the settings ask (not the
  // sparse codes): false runs op by op; with --execution graph, an error.
  bool training_graphs_cover_settings() const;
  // The compiled training step for this batch (with `exchange`, when its
  // group is set); nullptr when it runs op by op.
  const GraphCache::Entry* step_graph(int64_t batch, bool with_target, const Optimizer& optimizer,
                                      const GradientExchange& exchange);
  void run_step(const GraphCache::Entry& step, const Tensor& input, Tensor& loss,
                const Tensor* target, Optimizer& optimizer);
  // The same for the graphs through the decoder (the reconstruction): they
  // do not hand it the winners alone.
  bool decoder_graphs_cover_settings() const;
  // `covered`, or false (op by op) with a note of why when graphs are
  // optional; with --execution graph, not covered is an error saying why.
  bool graphs_cover(bool covered, const std::string& why_not) const;
  // With wta-spatial, the winners of the latent: forward_layer takes them just
  // before the decoder's first layer, and layer_input() hands them to it.
  void take_winners(Activations& a, int64_t batch);
  Activations& activations_for(int64_t batch, bool with_gradients);
  void forward(const Tensor& input, Activations& a, int last_layer);
  void forward_layer(const Tensor& input, Activations& a, int layer, Tensor* conv_output);
  const Tensor& layer_input(const Tensor& input, const Activations& a, int layer) const;
  // The bound handles of a graph: `spec`'s input, target, loss, output,
  // parameters and gradients (optimiser state is bound by the caller).
  std::vector<cae_tensor> bindings(const GraphSpec& spec, const Tensor& input, const Tensor* target,
                                   const Tensor* loss, const Tensor* output) const;
  static const Tensor& layer_output(const Activations& a, int layer);

  Context& context_;
  Network network_;
  std::shared_ptr<const InputTransform> input_;
  Sparsity sparsity_;
  std::vector<std::string> names_;
  std::vector<Tensor> parameters_;  // weight, bias per layer
  std::vector<Tensor> gradients_;
  // Two sizes at most (the batch and the last partial batch).
  std::map<int64_t, std::unique_ptr<Activations>> cache_;
  GraphCache graphs_;
  bool trained_with_graphs_ = false;
};

}  // namespace cae::nn
