#include "nn/feature_grammar.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "io/io_error.hpp"

namespace cae::nn {
namespace {

constexpr int kMaxConv = 16;  // a model's encoder has at most 16 convolutions
constexpr int kMaxGrid = 64;
constexpr int kLatentDefaultGrid = 8;
constexpr int kConvDefaultGrid = 4;
constexpr int kEncodedDefaultGrid = 2;  // quadrants: the papers' pooling

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t at = text.find(separator); at != std::string::npos; at = text.find(separator, start)) {
    parts.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  parts.push_back(text.substr(start));
  return parts;
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

// A whole number in [low, high] spelled by `digits`, or -1.
int whole_number(const std::string& digits, int low, int high) {
  if (digits.empty() || digits.size() > 4) return -1;
  for (char c : digits) {
    if (c < '0' || c > '9') return -1;
  }
  const int value = std::atoi(digits.c_str());
  return value >= low && value <= high ? value : -1;
}

[[noreturn]] void bad_term(const std::string& term, const std::string& what) {
  throw std::invalid_argument("feature recipe term '" + text_excerpt(term) + "': " + what);
}

bool is_pool(const std::string& field) {
  return starts_with(field, "max") || starts_with(field, "sum");
}

void parse_encoder(const std::string& term, const std::string& field, TapCoding& coding) {
  if (field == "id") {
    coding.encoder = TapEncoder::Identity;
  } else if (field == "tri") {
    coding.encoder = TapEncoder::Triangle;
  } else if (starts_with(field, "soft")) {
    const std::string value = field.substr(4);
    char* end = nullptr;
    errno = 0;
    const double alpha = value.empty() ? -1.0 : std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || errno != 0 || !(alpha >= 0.0 && alpha <= kMaxFeatureThreshold)) {
      bad_term(term, "'" + text_excerpt(field) +
                         "' needs a threshold from 0 to 1e6 after 'soft' (e.g. soft0.25)");
    }
    coding.encoder = TapEncoder::SoftSplit;
    coding.alpha = float(alpha);
  } else {
    bad_term(term, "unknown encoder '" + text_excerpt(field) + "' (id, softALPHA, tri)");
  }
}

TapSpec parse_term(const std::string& term) {
  const std::vector<std::string> fields = split(term, ':');
  if (fields.size() > 3) bad_term(term, "more than MAP:ENCODER:POOL");
  TapSpec spec;
  const std::string& map = fields[0];
  if (map == "latent") {
    spec.conv = 0;
  } else if (starts_with(map, "conv") && whole_number(map.substr(4), 1, kMaxConv) > 0) {
    spec.conv = whole_number(map.substr(4), 1, kMaxConv);
  } else {
    bad_term(term, "the map '" + text_excerpt(map) + "' is neither 'latent' nor convK (K = 1..16)");
  }
  std::string encoder, pool;
  if (fields.size() == 2) (is_pool(fields[1]) ? pool : encoder) = fields[1];
  if (fields.size() == 3) {
    encoder = fields[1];
    pool = fields[2];
  }
  if (!encoder.empty()) parse_encoder(term, encoder, spec.coding);
  if (pool.empty()) {
    spec.coding.pooling = spec.coding.encoder == TapEncoder::Identity ? CellPooling::Max : CellPooling::Sum;
    spec.grid = spec.coding.encoder != TapEncoder::Identity ? kEncodedDefaultGrid
                : spec.conv == 0                            ? kLatentDefaultGrid
                                                            : kConvDefaultGrid;
  } else {
    if (!is_pool(pool)) bad_term(term, "unknown pooling '" + text_excerpt(pool) + "' (maxG, sumG)");
    spec.coding.pooling = starts_with(pool, "sum") ? CellPooling::Sum : CellPooling::Max;
    spec.grid = whole_number(pool.substr(3), 1, kMaxGrid);
    if (spec.grid < 0) bad_term(term, "the pooling '" + text_excerpt(pool) + "' needs a grid of 1..64 cells per side");
  }
  return spec;
}

std::string alpha_text(float alpha) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", double(alpha));
  return text;
}

}  // namespace

bool is_composed_recipe(const std::string& text) {
  return text.find(':') != std::string::npos || text.find('+') != std::string::npos ||
         starts_with(text, "conv");
}

FeatureRecipe parse_composed_recipe(const std::string& text) {
  FeatureRecipe recipe;
  recipe.layout = FeatureRecipe::Layout::Composed;
  for (const std::string& term : split(text, '+')) {
    if (term == "flip" || term == "sqrt") {
      bool& modifier = term == "flip" ? recipe.flip_average : recipe.signed_sqrt;
      if (modifier) bad_term(term, "given twice");
      modifier = true;
    } else if (term.empty()) {
      throw std::invalid_argument("feature recipe '" + text_excerpt(text) + "' has an empty term");
    } else {
      recipe.composed.push_back(parse_term(term));
    }
  }
  if (recipe.composed.empty()) {
    throw std::invalid_argument("feature recipe '" + text_excerpt(text) + "' names no map");
  }
  // The alpha as the name writes it, so that name and features agree.
  for (TapSpec& spec : recipe.composed) spec.coding.alpha = std::strtof(alpha_text(spec.coding.alpha).c_str(), nullptr);
  recipe.name = composed_recipe_name(recipe);
  return recipe;
}

std::string composed_recipe_name(const FeatureRecipe& recipe) {
  std::string name;
  for (const TapSpec& spec : recipe.composed) {
    if (!name.empty()) name += "+";
    name += spec.conv == 0 ? "latent" : "conv" + std::to_string(spec.conv);
    switch (spec.coding.encoder) {
      case TapEncoder::Identity: name += ":id"; break;
      case TapEncoder::SoftSplit: name += ":soft" + alpha_text(spec.coding.alpha); break;
      case TapEncoder::Triangle: name += ":tri"; break;
    }
    name += (spec.coding.pooling == CellPooling::Sum ? ":sum" : ":max") + std::to_string(spec.grid);
  }
  if (recipe.flip_average) name += "+flip";
  if (recipe.signed_sqrt) name += "+sqrt";
  return name;
}

}  // namespace cae::nn
