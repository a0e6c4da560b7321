// The default doctest reporter of cae-conformance ("cae"). The suite prints
// its own line per check, so this reporter stays silent about assertions and
// speaks only of what those lines cannot show: an exception or a crash that
// escaped a test case, and doctest's queries (--list-test-cases, --count).
// `--reporters=console` brings doctest's usual output back.
#include <doctest/doctest.h>

#include <ostream>

namespace conformance {
namespace {

class QuietReporter : public doctest::IReporter {
 public:
  explicit QuietReporter(const doctest::ContextOptions& options)
      : options_(options), out_(*options.cout) {}

  void report_query(const doctest::QueryData& query) override {
    if (options_.version) out_ << "doctest " << DOCTEST_VERSION_STR << "\n";
    if (options_.help) out_ << "doctest's own options: --reporters=console --dt-help\n";
    if (options_.count && query.run_stats) {
      out_ << query.run_stats->numTestCasesPassingFilters << " test cases\n";
    }
    for (unsigned i = 0; i < query.num_data; ++i) out_ << query.data[i]->m_name << "\n";
  }

  void test_case_start(const doctest::TestCaseData& test_case) override {
    current_ = test_case.m_name;
  }

  void test_case_exception(const doctest::TestCaseException& e) override {
    out_ << "!! " << current_ << ": " << (e.is_crash ? "crashed: " : "unexpected exception: ")
         << e.error_string.c_str() << std::endl;
  }

  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}

 private:
  const doctest::ContextOptions& options_;
  std::ostream& out_;
  const char* current_ = "";
};

}  // namespace
}  // namespace conformance

DOCTEST_REGISTER_REPORTER("cae", 1, conformance::QuietReporter);
