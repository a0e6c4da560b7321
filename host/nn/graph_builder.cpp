#include "nn/graph_builder.hpp"

#include <string>

namespace cae::nn {
namespace {

// Appends tensors and nodes to one spec; the activations follow
// Autoencoder's buffers: each layer's convolution output, and its resized
// output where it pools or upsamples.
class Builder {
 public:
  Builder(const Network& network, int64_t batch) : network_(network), batch_(batch) {}

  int32_t tensor(int32_t role, std::vector<int64_t> dims) {
    cae_graph_tensor t{};
    t.role = role;
    t.ndim = int32_t(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) t.dims[i] = dims[i];
    spec.tensors.push_back(t);
    return int32_t(spec.tensors.size() - 1);
  }

  cae_graph_node& node(int32_t op, std::initializer_list<int32_t> args) {
    cae_graph_node n{};
    n.op = op;
    for (int32_t& a : n.args) a = -1;
    int i = 0;
    for (int32_t a : args) n.args[i++] = a;
    spec.nodes.push_back(n);
    return spec.nodes.back();
  }

  // The weights and biases of layers [0, count).
  void add_parameters(int count) {
    for (int i = 0; i < count; ++i) {
      const ConvLayer& layer = network_.layers()[size_t(i)];
      spec.parameters.push_back(tensor(CAE_GRAPH_PARAMETER, layer.weight_shape()));
      spec.parameters.push_back(tensor(CAE_GRAPH_PARAMETER, {layer.out_channels}));
    }
  }

  std::vector<int64_t> conv_dims(const ConvLayer& layer) const {
    return {batch_, layer.out_channels, layer.size, layer.size};
  }
  std::vector<int64_t> resized_dims(const ConvLayer& layer) const {
    const int s = layer.output_size();
    return {batch_, layer.out_channels, s, s};
  }

  // Internal activation tensors of layers [0, count).
  void add_activations(int count) {
    for (int i = 0; i < count; ++i) {
      const ConvLayer& layer = network_.layers()[size_t(i)];
      conv_.push_back(tensor(CAE_GRAPH_INTERNAL, conv_dims(layer)));
      resized_.push_back(layer.after == After::Nothing
                             ? -1
                             : tensor(CAE_GRAPH_INTERNAL, resized_dims(layer)));
    }
  }

  int32_t layer_input(int i) const {
    if (i == 0) return spec.input;
    return resized_[size_t(i - 1)] >= 0 ? resized_[size_t(i - 1)] : conv_[size_t(i - 1)];
  }

  // Layer i's convolution into `into`, then its pool or upsample into
  // `resized_into` (-1: none).
  void forward_layer(int i, int32_t into, int32_t resized_into) {
    const ConvLayer& layer = network_.layers()[size_t(i)];
    node(CAE_GRAPH_CONV2D_FORWARD, {layer_input(i), spec.parameters[size_t(2 * i)],
                                    spec.parameters[size_t(2 * i + 1)], into})
        .fuse_relu = layer.relu ? 1 : 0;
    if (resized_into < 0) return;
    if (layer.after == After::MaxPool) node(CAE_GRAPH_MAXPOOL2X2_FORWARD, {into, resized_into});
    if (layer.after == After::Upsample) node(CAE_GRAPH_UPSAMPLE2X_FORWARD, {into, resized_into});
  }

  void forward(int count) {
    for (int i = 0; i < count; ++i) forward_layer(i, conv_[size_t(i)], resized_[size_t(i)]);
  }

  // Autoencoder::forward_backward's backward pass, node for call.
  void backward() {
    const auto& layers = network_.layers();
    const int last = int(layers.size()) - 1;
    std::vector<int32_t> d_conv, d_resized;
    for (int i = 0; i <= last; ++i) {
      d_conv.push_back(tensor(CAE_GRAPH_INTERNAL, conv_dims(layers[size_t(i)])));
      d_resized.push_back(resized_[size_t(i)] < 0
                              ? -1
                              : tensor(CAE_GRAPH_INTERNAL, resized_dims(layers[size_t(i)])));
    }
    for (size_t p = 0; p < spec.parameters.size(); ++p) {
      const cae_graph_tensor& param = spec.tensors[size_t(spec.parameters[p])];
      spec.gradients.push_back(
          tensor(CAE_GRAPH_OUTPUT, std::vector<int64_t>(param.dims, param.dims + param.ndim)));
    }
    node(CAE_GRAPH_MSE_LOSS, {conv_.back(), spec.target >= 0 ? spec.target : spec.input,
                              spec.loss, d_conv.back()});
    for (int i = last; i >= 0; --i) {
      const ConvLayer& layer = layers[size_t(i)];
      const int32_t d_out = d_conv[size_t(i)];
      int32_t d_in = -1;
      if (i > 0) d_in = d_resized[size_t(i - 1)] >= 0 ? d_resized[size_t(i - 1)] : d_conv[size_t(i - 1)];
      if (layer.relu) node(CAE_GRAPH_RELU_BACKWARD, {conv_[size_t(i)], d_out, d_out});
      node(CAE_GRAPH_CONV2D_BACKWARD, {layer_input(i), spec.parameters[size_t(2 * i)], d_out, d_in,
                                       spec.gradients[size_t(2 * i)],
                                       spec.gradients[size_t(2 * i + 1)]});
      if (exchange.group != nullptr) {
        for (const size_t p : {size_t(2 * i), size_t(2 * i + 1)}) {
          node(CAE_GRAPH_ALL_REDUCE_SUM, {spec.gradients[p]}).scale = exchange.scale;
        }
      }
      if (i == 0) break;
      const ConvLayer& previous = layers[size_t(i - 1)];
      if (previous.after == After::MaxPool) {
        node(CAE_GRAPH_MAXPOOL2X2_BACKWARD, {conv_[size_t(i - 1)], d_in, d_conv[size_t(i - 1)]});
      } else if (previous.after == After::Upsample) {
        node(CAE_GRAPH_UPSAMPLE2X_BACKWARD, {d_in, d_conv[size_t(i - 1)]});
      }
    }
  }

  // After each layer's conv2d_backward, its weight and bias gradients summed
  // over the group (ABI 1.6).
  GradientExchange exchange;

  // Optimizer::step, node for call; reads the gradient tensors just written.
  void update(const GraphUpdate& u, const std::vector<int32_t>& gradients) {
    for (size_t p = 0; p < spec.parameters.size(); ++p) {
      const cae_graph_tensor& param = spec.tensors[size_t(spec.parameters[p])];
      const std::vector<int64_t> dims(param.dims, param.dims + param.ndim);
      if (u.kind == GraphUpdate::Kind::Adam) {
        spec.first_state.push_back(tensor(CAE_GRAPH_OPTIMIZER_STATE, dims));
        spec.second_state.push_back(tensor(CAE_GRAPH_OPTIMIZER_STATE, dims));
        cae_graph_node& n = node(CAE_GRAPH_ADAM_STEP, {spec.parameters[p], gradients[p],
                                                       spec.first_state.back(),
                                                       spec.second_state.back()});
        n.beta1 = u.beta1;
        n.beta2 = u.beta2;
        n.epsilon = u.epsilon;
        n.weight_decay = u.weight_decay;
      } else {
        int32_t velocity = -1;
        if (u.momentum > 0) {
          velocity = tensor(CAE_GRAPH_OPTIMIZER_STATE, dims);
          spec.first_state.push_back(velocity);
        }
        cae_graph_node& n = node(CAE_GRAPH_SGD_STEP, {spec.parameters[p], gradients[p], velocity});
        n.momentum = u.momentum;
        n.weight_decay = u.weight_decay;
      }
    }
  }

  GraphSpec spec;

 private:
  const Network& network_;
  int64_t batch_;
  std::vector<int32_t> conv_, resized_;
};

}  // namespace

GraphSpec build_training_graph(const Network& network, int64_t batch,
                               const TrainingGraphOptions& options) {
  Builder b(network, batch);
  b.spec.input = b.tensor(CAE_GRAPH_INPUT, network.image_dims(batch));
  if (options.separate_target) b.spec.target = b.tensor(CAE_GRAPH_INPUT, network.image_dims(batch));
  b.spec.loss = b.tensor(CAE_GRAPH_OUTPUT, {1});
  const int layers = int(network.layers().size());
  b.add_parameters(layers);
  b.add_activations(layers);
  b.forward(layers);
  b.exchange = options.exchange;
  if (options.exchange.group != nullptr) {
    b.spec.group = options.exchange.group;
    b.spec.group_member = options.exchange.member;
    b.spec.group_members = options.exchange.members;
  }
  b.backward();
  const std::vector<int32_t> gradients = b.spec.gradients;
  if (!options.gradients_visible) {
    for (int32_t g : gradients) b.spec.tensors[size_t(g)].role = CAE_GRAPH_INTERNAL;
    b.spec.gradients.assign(gradients.size(), -1);
  }
  if (options.update.kind != GraphUpdate::Kind::None) b.update(options.update, gradients);
  return b.spec;
}

GraphSpec build_reconstruction_graph(const Network& network, int64_t batch, bool with_loss) {
  Builder b(network, batch);
  b.spec.input = b.tensor(CAE_GRAPH_INPUT, network.image_dims(batch));
  b.spec.output = b.tensor(CAE_GRAPH_OUTPUT, network.image_dims(batch));
  if (with_loss) b.spec.loss = b.tensor(CAE_GRAPH_OUTPUT, {1});
  const int last = int(network.layers().size()) - 1;
  b.add_parameters(last + 1);
  b.add_activations(last);
  b.forward(last);
  b.forward_layer(last, b.spec.output, -1);  // the reconstruction neither pools nor upsamples
  if (with_loss) b.node(CAE_GRAPH_MSE_LOSS, {b.spec.output, b.spec.input, b.spec.loss, -1});
  return b.spec;
}

GraphSpec build_encoder_graph(const Network& network, int64_t batch) {
  Builder b(network, batch);
  b.spec.input = b.tensor(CAE_GRAPH_INPUT, network.image_dims(batch));
  const int last = network.encoder_layers() - 1;
  b.add_parameters(last + 1);
  const ConvLayer& layer = network.layers()[size_t(last)];
  const int64_t latent_side = network.latent_size();
  b.spec.output = b.tensor(CAE_GRAPH_OUTPUT, {batch, network.latent_channels(), latent_side, latent_side});
  b.add_activations(last);
  b.forward(last);
  if (layer.after == After::Nothing) {
    b.forward_layer(last, b.spec.output, -1);
  } else {
    b.forward_layer(last, b.tensor(CAE_GRAPH_INTERNAL, b.conv_dims(layer)), b.spec.output);
  }
  return b.spec;
}

}  // namespace cae::nn
