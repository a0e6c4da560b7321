// Host-only checks of v3's declared options: the default is the fast path, a
// chosen value reaches the Tuning, and v4's precision options are refused by
// v3 with the option's name, never ignored.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "v3_options.hpp"

#include <doctest/doctest.h>

#include <string>

#include "plugin_support.hpp"

TEST_CASE("no option chosen: the defaults, TF32 convolutions and no poisoning") {
  const cae_cuda::Tuning v3 = cae_v3::v3_tuning(nullptr, 0);
  CHECK(v3.bf16_terms == 1);
  CHECK_FALSE(v3.fp32_convolutions);
  CHECK_FALSE(v3.poison_scratch);
  CHECK(v3.short_products);
  CHECK(v3.linear_loss);
  CHECK_FALSE(v3.tf32_kernel_products);
  CHECK(v3.smo_rows_at_once == 4);
}

TEST_CASE("short-products reaches the Tuning") {
  const cae_option_value off[] = {{"short-products", "off"}};
  CHECK_FALSE(cae_v3::v3_tuning(off, 1).short_products);
  const cae_option_value whole[] = {{"short-products", "whole-rows"}};
  CHECK(cae_v3::v3_tuning(whole, 1).short_products);
  CHECK_FALSE(cae_v3::v3_tuning(whole, 1).split_short_products);
  CHECK(cae_v3::v3_tuning(nullptr, 0).split_short_products);
}

TEST_CASE("linear-loss reaches the Tuning") {
  const cae_option_value off[] = {{"linear-loss", "off"}};
  CHECK_FALSE(cae_v3::v3_tuning(off, 1).linear_loss);
}

TEST_CASE("kernel-products reaches the Tuning") {
  const cae_option_value tf32[] = {{"kernel-products", "tf32"}};
  CHECK(cae_v3::v3_tuning(tf32, 1).tf32_kernel_products);
}

TEST_CASE("smo-rows reaches the Tuning") {
  const cae_option_value one[] = {{"smo-rows", "one"}};
  CHECK(cae_v3::v3_tuning(one, 1).smo_rows_at_once == 1);
}

TEST_CASE("poison-scratch reaches the Tuning") {
  const cae_option_value poison[] = {{"poison-scratch", "true"}};
  CHECK(cae_v3::v3_tuning(poison, 1).poison_scratch);
}

TEST_CASE("v3 declares no precision options") {
  const cae_option_value terms[] = {{"bf16-terms", "3"}};
  try {
    cae_v3::v3_tuning(terms, 1);
    FAIL("bf16-terms was accepted by v3");
  } catch (const cae_plugin::Error& e) {
    CHECK(e.status() == CAE_STATUS_UNSUPPORTED);
    CHECK(std::string(e.what()).find("bf16-terms") != std::string::npos);
  }
  cae_option_desc desc{};
  desc.struct_size = sizeof desc;
  REQUIRE(cae_plugin::describe_option(cae_v3::kV3Options, 3, 0, &desc) == CAE_STATUS_OK);
  CHECK(std::string(desc.name) == "poison-scratch");
  REQUIRE(cae_plugin::describe_option(cae_v3::kV3Options, 3, 1, &desc) == CAE_STATUS_OK);
  CHECK(std::string(desc.name) == "short-products");
  REQUIRE(cae_plugin::describe_option(cae_v3::kV3Options, 3, 2, &desc) == CAE_STATUS_OK);
  CHECK(std::string(desc.name) == "linear-loss");
  REQUIRE(cae_plugin::describe_option(cae_v3::kV3Options, 5, 3, &desc) == CAE_STATUS_OK);
  CHECK(std::string(desc.name) == "kernel-products");
  REQUIRE(cae_plugin::describe_option(cae_v3::kV3Options, 5, 4, &desc) == CAE_STATUS_OK);
  CHECK(std::string(desc.name) == "smo-rows");
  CHECK(cae_plugin::describe_option(cae_v3::kV3Options, 5, 5, &desc) ==
        CAE_STATUS_INVALID_ARGUMENT);
}
