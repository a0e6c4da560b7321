// The names of cae's training recipes (host/cli/training_recipe.cpp defines
// what each sets). A checkpoint records the one it was trained with; a name
// outside this list is a file from elsewhere, refused at load.
#pragma once

#include <algorithm>
#include <array>
#include <string>

namespace cae::nn {

inline constexpr std::array<const char*, 2> kTrainingRecipeNames = {"default", "seed"};

inline bool is_training_recipe(const std::string& name) {
  return std::any_of(kTrainingRecipeNames.begin(), kTrainingRecipeNames.end(),
                     [&](const char* known) { return name == known; });
}

}  // namespace cae::nn
