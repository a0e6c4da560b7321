// Host-only checks of v4's declared options: the defaults are the
// fast path, each chosen value reaches the Tuning, and a value outside its
// declaration is refused with the option's name and allowed values, never
// clamped.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "v4_options.hpp"

#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <utility>

#include "plugin_support.hpp"

namespace {

// The status and message a v4 create would answer for these values.
std::pair<cae_status, std::string> refusal(std::initializer_list<cae_option_value> values) {
  try {
    cae_v4::v4_tuning(values.begin(), static_cast<int32_t>(values.size()));
  } catch (const cae_plugin::Error& e) {
    return {e.status(), e.what()};
  }
  return {CAE_STATUS_OK, ""};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("no option chosen: the defaults, one BF16 term, TF32 RGB layers, captured graphs") {
  const cae_cuda::Tuning v4 = cae_v4::v4_tuning(nullptr, 0);
  CHECK(v4.bf16_terms == 1);
  CHECK_FALSE(v4.fp32_convolutions);
  CHECK_FALSE(v4.tf32_edge_kernels);
  CHECK_FALSE(v4.poison_scratch);
  CHECK(v4.graph_capture);
  CHECK(v4.graph_exchanges);
  CHECK(v4.graph_fusion);
  CHECK(v4.short_products);
  CHECK(v4.linear_loss);
  CHECK_FALSE(v4.tf32_kernel_products);
  CHECK(v4.smo_rows_at_once == 4);
}

TEST_CASE("smo-rows=one takes the SMO kernel's rows one at a time; other words refused") {
  const cae_option_value four[] = {{"smo-rows", "four"}};
  CHECK(cae_v4::v4_tuning(four, 1).smo_rows_at_once == 4);
  const cae_option_value one[] = {{"smo-rows", "one"}};
  CHECK(cae_v4::v4_tuning(one, 1).smo_rows_at_once == 1);
  auto [status, message] = refusal({{"smo-rows", "4"}});
  CHECK(status == CAE_STATUS_INVALID_ARGUMENT);
  CHECK(contains(message, "smo-rows=4"));
  CHECK(contains(message, "one|four"));
}

// An option of two words that sets one switch of the Tuning: the word that
// sets it, the word that clears it, and a word that is neither.
struct TwoWordOption {
  const char* name;
  const char* sets;
  const char* clears;
  bool cae_cuda::Tuning::*member;
  const char* refused;
  const char* choices;
};

constexpr TwoWordOption kTwoWordOptions[] = {
    {"kernel-products", "tf32", "fp32", &cae_cuda::Tuning::tf32_kernel_products, "bf16",
     "fp32|tf32"},
    {"linear-loss", "on", "off", &cae_cuda::Tuning::linear_loss, "true", "on|off"},
    {"short-products", "on", "off", &cae_cuda::Tuning::short_products, "false",
     "on|whole-rows|off"},
    {"graph-fusion", "on", "off", &cae_cuda::Tuning::graph_fusion, "yes", "on|off"},
    {"edge-kernels", "tensor-cores", "cuda-cores", &cae_cuda::Tuning::tf32_edge_kernels, "tf32",
     "cuda-cores|tensor-cores"},
    {"graph-exchange", "overlap", "host", &cae_cuda::Tuning::graph_exchanges, "fused",
     "overlap|host"},
    {"graph-capture", "on", "off", &cae_cuda::Tuning::graph_capture, "true", "on|off"},
};

TEST_CASE(
    "each two-word option sets its switch with one word, clears it with the other; other "
    "words are refused with the option's name and choices") {
  for (const TwoWordOption& option : kTwoWordOptions) {
    CAPTURE(option.name);
    const cae_option_value sets[] = {{option.name, option.sets}};
    CHECK(cae_v4::v4_tuning(sets, 1).*option.member);
    const cae_option_value clears[] = {{option.name, option.clears}};
    CHECK_FALSE(cae_v4::v4_tuning(clears, 1).*option.member);
    auto [status, message] = refusal({{option.name, option.refused}});
    CHECK(status == CAE_STATUS_INVALID_ARGUMENT);
    CHECK(contains(message, std::string(option.name) + "=" + option.refused));
    CHECK(contains(message, option.choices));
  }
}

TEST_CASE("short-products=whole-rows keeps the kernel, its columns uncut; on cuts them") {
  const cae_option_value whole[] = {{"short-products", "whole-rows"}};
  CHECK(cae_v4::v4_tuning(whole, 1).short_products);
  CHECK_FALSE(cae_v4::v4_tuning(whole, 1).split_short_products);
  const cae_option_value on[] = {{"short-products", "on"}};
  CHECK(cae_v4::v4_tuning(on, 1).split_short_products);
}

TEST_CASE("v4's precise setting: bf16-terms=3 fp32-conv=true") {
  const cae_option_value precise[] = {{"bf16-terms", "3"}, {"fp32-conv", "true"}};
  const cae_cuda::Tuning t = cae_v4::v4_tuning(precise, 2);
  CHECK(t.bf16_terms == 3);
  CHECK(t.fp32_convolutions);
  const cae_option_value two[] = {{"bf16-terms", "2"}, {"poison-scratch", "true"}};
  CHECK(cae_v4::v4_tuning(two, 2).bf16_terms == 2);
  CHECK(cae_v4::v4_tuning(two, 2).poison_scratch);
}

TEST_CASE("a value outside the declaration is refused, not clamped") {
  auto [status, message] = refusal({{"bf16-terms", "9"}});
  CHECK(status == CAE_STATUS_INVALID_ARGUMENT);
  CHECK(contains(message, "bf16-terms=9"));
  CHECK(contains(message, "an integer in 1..3"));
  CHECK(refusal({{"bf16-terms", "0"}}).first == CAE_STATUS_INVALID_ARGUMENT);
  CHECK(refusal({{"bf16-terms", "three"}}).first == CAE_STATUS_INVALID_ARGUMENT);
  CHECK(refusal({{"bf16-terms", "2.0"}}).first == CAE_STATUS_INVALID_ARGUMENT);
  CHECK(contains(refusal({{"fp32-conv", "1"}}).second, "true or false"));
  CHECK(contains(refusal({{"bf16-terms", "2"}, {"bf16-terms", "3"}}).second, "given twice"));
}

TEST_CASE("an undeclared name is unsupported") {
  auto [status, message] = refusal({{"split-k", "3"}});
  CHECK(status == CAE_STATUS_UNSUPPORTED);
  CHECK(contains(message, "bf16-terms, fp32-conv, edge-kernels, poison-scratch, graph-capture"));
}

TEST_CASE("option_describe gives the declarations, and refuses other indices") {
  cae_option_desc desc{};
  desc.struct_size = sizeof desc;
  REQUIRE(cae_plugin::describe_option(cae_v4::kV4Options, 4, 0, &desc) == CAE_STATUS_OK);
  CHECK(std::string(desc.name) == "bf16-terms");
  CHECK(desc.type == CAE_OPTION_INT);
  CHECK(std::string(desc.default_value) == "1");
  CHECK(desc.min_value == 1);
  CHECK(desc.max_value == 3);
  REQUIRE(cae_plugin::describe_option(cae_v4::kV4Options, 11, 2, &desc) == CAE_STATUS_OK);
  CHECK(std::string(desc.name) == "edge-kernels");
  CHECK(desc.type == CAE_OPTION_ENUM);
  CHECK(std::string(desc.default_value) == "cuda-cores");
  CHECK(std::string(desc.choices) == "cuda-cores|tensor-cores");
  REQUIRE(cae_plugin::describe_option(cae_v4::kV4Options, 11, 4, &desc) == CAE_STATUS_OK);
  CHECK(std::string(desc.name) == "graph-capture");
  CHECK(desc.type == CAE_OPTION_ENUM);
  CHECK(std::string(desc.default_value) == "on");
  CHECK(std::string(desc.choices) == "on|off");
  REQUIRE(cae_plugin::describe_option(cae_v4::kV4Options, 11, 6, &desc) == CAE_STATUS_OK);
  CHECK(std::string(desc.name) == "graph-fusion");
  CHECK(std::string(desc.default_value) == "on");
  REQUIRE(cae_plugin::describe_option(cae_v4::kV4Options, 11, 7, &desc) == CAE_STATUS_OK);
  CHECK(std::string(desc.name) == "short-products");
  CHECK(std::string(desc.default_value) == "on");
  CHECK(std::string(desc.choices) == "on|whole-rows|off");
  REQUIRE(cae_plugin::describe_option(cae_v4::kV4Options, 11, 8, &desc) == CAE_STATUS_OK);
  CHECK(std::string(desc.name) == "linear-loss");
  CHECK(std::string(desc.default_value) == "on");
  REQUIRE(cae_plugin::describe_option(cae_v4::kV4Options, 11, 9, &desc) == CAE_STATUS_OK);
  CHECK(std::string(desc.name) == "kernel-products");
  CHECK(std::string(desc.default_value) == "fp32");
  CHECK(std::string(desc.choices) == "fp32|tf32");
  REQUIRE(cae_plugin::describe_option(cae_v4::kV4Options, 11, 10, &desc) == CAE_STATUS_OK);
  CHECK(std::string(desc.name) == "smo-rows");
  CHECK(std::string(desc.default_value) == "four");
  CHECK(std::string(desc.choices) == "one|four");
  CHECK(cae_plugin::describe_option(cae_v4::kV4Options, 11, 11, &desc) ==
        CAE_STATUS_INVALID_ARGUMENT);
  CHECK(cae_plugin::describe_option(cae_v4::kV4Options, 4, -1, &desc) ==
        CAE_STATUS_INVALID_ARGUMENT);
}
