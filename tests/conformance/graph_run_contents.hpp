// The contents of a graph's later run in the same tensors (check_graphs.cpp):
// a graph must compute on what its tensors hold when it runs, not on what
// they held the last time it saw those handles (the host uploads every batch
// into the same input tensor). For a graph that writes images (the
// reconstruction, the latent) of a batch of several, the second contents are
// the first with every tensor of images (the input, the loss's target, that
// output) rolled by one image: the results are the first contents' results
// rolled the same way, and the sums over the batch (the loss, the gradients,
// the update) are the same but for the order of rounding, so the second
// contents need no reference of their own. A graph whose every output is a
// sum over the batch (the training step) cannot tell one order from
// another, and a single image has no other order: their second contents
// are a draw of their own.
#pragma once

#include <vector>

#include "nn/graph_builder.hpp"
#include "reference_ops.hpp"

namespace conformance {

// True when rolling the batch's images makes contents the graph's outputs
// tell apart: it writes images, and its batch holds more than one.
bool rolls_images(const cae::nn::GraphSpec& spec);

// Image i becomes image i + 1 (the last the first) in every tensor of images.
void roll_images(const cae::nn::GraphSpec& spec, std::vector<std::vector<float>>& tensors);
void roll_images(const cae::nn::GraphSpec& spec, std::vector<cae_ref::Vec>& tensors);

}  // namespace conformance
