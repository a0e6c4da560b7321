// Composed feature recipes: the taps, encoders and pooling of a feature
// vector written out term by term instead of picked by name, e.g.
// "conv1:soft0.25:sum2+latent+flip+sqrt":
//
//   RECIPE  := TERM ('+' TERM)* ('+' 'flip')? ('+' 'sqrt')?
//   TERM    := MAP (':' ENCODER)? (':' POOL)?
//   MAP     := 'latent' | 'conv' K       the K-th encoder convolution (1..16)
//   ENCODER := 'id'                      the values as they are (default)
//            | 'soft' ALPHA              [max(0, x - ALPHA), max(0, -x - ALPHA)]
//            | 'tri'                     max(0, x_c - mean over channels)
//   POOL    := 'max' G | 'sum' G         G x G cells (1..64); default: max8 for
//                                        the latent, max4 for a convolution with
//                                        the identity, sum2 with an encoder
//
// `flip` averages each image's features with its mirror image's; `sqrt`
// takes sign(f) * sqrt(|f|) of every feature last. The recipe's name is the
// canonical text, every default written out, so a name read back from
// features.json or an SVM model gives the same recipe.
#pragma once

#include <string>

#include "nn/feature_recipe.hpp"

namespace cae::nn {

// Whether `text` is meant as a composed recipe rather than a recipe's name.
bool is_composed_recipe(const std::string& text);

// Throws std::invalid_argument naming the term at fault.
FeatureRecipe parse_composed_recipe(const std::string& text);

// The canonical text of a composed recipe's terms and modifiers.
std::string composed_recipe_name(const FeatureRecipe& recipe);

}  // namespace cae::nn
