// A rank's place from its launcher's variables (host/cli/launcher_ranks.cpp):
// each launcher alone, launchers that agree or disagree, options against the
// launcher, and malformed values, each a one-line UsageError naming the variable.
#include "launcher_ranks.hpp"

#include <doctest/doctest.h>

#include <map>
#include <string>

#include "command.hpp"
#include "text_contains.hpp"

using cae::cli::launcher_ranks;
using cae::cli::LauncherRanks;
using cae::cli::require_agreement;
using cae::cli::UsageError;

namespace {

using Variables = std::map<std::string, std::string>;

std::optional<LauncherRanks> ranks(const Variables& variables) {
  return launcher_ranks(
      [&](const char* name) -> const char* {
        const auto found = variables.find(name);
        return found == variables.end() ? nullptr : found->second.c_str();
      },
      65536);
}

// The UsageError's text, or "" when there is none.
std::string refusal(const Variables& variables) {
  try {
    ranks(variables);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

using test_support::contains;

}  // namespace

TEST_CASE("no launcher's rank: no launcher") {
  CHECK_FALSE(ranks({{"PATH", "/bin"}}));
  // An allocation (salloc) states its size, but started no ranks.
  CHECK_FALSE(ranks({{"SLURM_NTASKS", "4"}, {"WORLD_SIZE", "2"}}));
}

TEST_CASE("Open MPI's mpirun") {
  const auto r = ranks({{"OMPI_COMM_WORLD_RANK", "1"},
                        {"OMPI_COMM_WORLD_SIZE", "4"},
                        {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
                        {"PMIX_RANK", "1"}});
  REQUIRE(r);
  CHECK(r->launcher == "Open MPI");
  CHECK(r->rank == 1);
  CHECK(r->world == 4);
  CHECK(r->local_rank == 1);
  CHECK(r->local_variable == "OMPI_COMM_WORLD_LOCAL_RANK");
  CHECK(r->mpi);
  CHECK(cae::cli::launcher_ranks_text(*r) ==
        "rank 1 of 4 from Open MPI (OMPI_COMM_WORLD_RANK=1, OMPI_COMM_WORLD_SIZE=4, PMIX_RANK=1)");
}

TEST_CASE("Slurm's srun, with and without PMIx") {
  const Variables slurm{{"SLURM_PROCID", "5"}, {"SLURM_NTASKS", "8"}, {"SLURM_LOCALID", "1"}};
  const auto plain = ranks(slurm);
  REQUIRE(plain);
  CHECK(plain->launcher == "Slurm");
  CHECK(plain->rank == 5);
  CHECK(plain->world == 8);
  CHECK(plain->local_rank == 1);
  CHECK_FALSE(plain->mpi);
  Variables pmix = slurm;
  pmix["PMIX_RANK"] = "5";
  const auto with_pmix = ranks(pmix);
  REQUIRE(with_pmix);
  CHECK(with_pmix->launcher == "Slurm");
  CHECK(with_pmix->mpi);
}

TEST_CASE("torchrun") {
  const auto r = ranks({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"LOCAL_RANK", "0"}});
  REQUIRE(r);
  CHECK(r->launcher == "torchrun");
  CHECK(r->world == 2);
  CHECK(r->local_rank == 0);
  CHECK_FALSE(r->mpi);
  CHECK(cae::cli::launcher_ranks_text(*r) == "rank 0 of 2 from torchrun (RANK=0, WORLD_SIZE=2)");
}

TEST_CASE("a launch of one process and a launcher without a local index") {
  const auto one = ranks({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "1"}});
  REQUIRE(one);
  CHECK(one->world == 1);
  CHECK_FALSE(one->local_rank);
}

TEST_CASE("launchers that disagree are refused, naming both") {
  const std::string rank = refusal({{"OMPI_COMM_WORLD_RANK", "1"},
                                    {"OMPI_COMM_WORLD_SIZE", "2"},
                                    {"SLURM_PROCID", "0"},
                                    {"SLURM_NTASKS", "2"}});
  CHECK(contains(rank, "Open MPI's OMPI_COMM_WORLD_RANK=1 and Slurm's SLURM_PROCID=0 disagree"));
  const std::string size =
      refusal({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "4"}, {"RANK", "0"}, {"WORLD_SIZE", "2"}});
  CHECK(contains(size, "Slurm's SLURM_NTASKS=4 and torchrun's WORLD_SIZE=2 disagree"));
  const std::string pmix =
      refusal({{"PMIX_RANK", "3"}, {"SLURM_PROCID", "2"}, {"SLURM_NTASKS", "4"}});
  CHECK(contains(pmix, "PMIx's PMIX_RANK=3 and Slurm's SLURM_PROCID=2 disagree"));
  const std::string local = refusal({{"SLURM_PROCID", "1"},
                                     {"SLURM_NTASKS", "2"},
                                     {"SLURM_LOCALID", "1"},
                                     {"RANK", "1"},
                                     {"WORLD_SIZE", "2"},
                                     {"LOCAL_RANK", "0"}});
  CHECK(contains(local, "Slurm's SLURM_LOCALID=1 and torchrun's LOCAL_RANK=0 disagree"));
}

TEST_CASE("options against the launcher") {
  const auto r = ranks({{"RANK", "1"}, {"WORLD_SIZE", "2"}});
  REQUIRE(r);
  CHECK_NOTHROW(require_agreement(*r, 1, 2));
  CHECK_NOTHROW(require_agreement(*r, std::nullopt, std::nullopt));
  CHECK_THROWS_WITH_AS(require_agreement(*r, 0, std::nullopt),
                       "--rank 0 disagrees with rank 1 from torchrun (RANK=1, WORLD_SIZE=2): "
                       "leave --rank out under a launcher",
                       UsageError);
  CHECK_THROWS_WITH_AS(
      require_agreement(*r, std::nullopt, 3),
      "--world-size 3 disagrees with 2 ranks from torchrun (RANK=1, WORLD_SIZE=2): "
      "leave --world-size out under a launcher",
      UsageError);
}

TEST_CASE("malformed values name the variable") {
  for (const char* bad : {"x", "", "-1", "+1", " 1", "1.0", "99999999999"}) {
    CAPTURE(bad);
    CHECK(contains(
        refusal({{"RANK", bad}, {"WORLD_SIZE", "2"}}),
        "RANK='" + std::string(bad) + "' (torchrun's rank) is not a whole number from 0 to 65535"));
  }
  CHECK(contains(refusal({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "0"}}),
                 "SLURM_NTASKS=0 (Slurm's number of ranks) must be at least 1"));
  CHECK(contains(
      refusal({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "70000"}}),
      "SLURM_NTASKS='70000' (Slurm's number of ranks) is not a whole number from 0 to 65536"));
  CHECK(contains(refusal({{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "2"}}),
                 "OMPI_COMM_WORLD_RANK=2 is not below OMPI_COMM_WORLD_SIZE=2"));
  CHECK(contains(refusal({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"LOCAL_RANK", "2"}}),
                 "LOCAL_RANK=2 is not below WORLD_SIZE=2"));
  CHECK(contains(refusal({{"OMPI_COMM_WORLD_LOCAL_RANK", "z"},
                          {"OMPI_COMM_WORLD_RANK", "0"},
                          {"OMPI_COMM_WORLD_SIZE", "2"}}),
                 "OMPI_COMM_WORLD_LOCAL_RANK='z'"));
}

TEST_CASE("half a launcher is refused") {
  CHECK(contains(refusal({{"RANK", "0"}}), "RANK is set but WORLD_SIZE is not"));
  CHECK(contains(refusal({{"PMIX_RANK", "0"}}),
                 "PMIX_RANK=0 is set but no launcher variable gives the number of ranks"));
}
