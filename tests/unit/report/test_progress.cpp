#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>

#include "report/progress.hpp"

namespace {

// A clock the test moves by hand.
struct FakeClock {
  double now = 1000.0;
};

cae::ProgressOptions options_for(std::ostringstream& out, FakeClock& clock, bool terminal) {
  cae::ProgressOptions options;
  options.label = "epoch 1";
  options.unit = "img";
  options.out = &out;
  options.is_terminal = terminal;
  options.clock = [&clock] { return clock.now; };
  return options;
}

std::size_t count_of(const std::string& text, char c) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), c));
}

}  // namespace

TEST_CASE("log mode prints a line every 10 percent and a final line") {
  std::ostringstream out;
  FakeClock clock;
  cae::ProgressReporter progress(200, options_for(out, clock, false));
  CHECK_FALSE(progress.is_terminal());
  for (int i = 0; i < 200; ++i) {
    clock.now += 0.01;  // 100 img/s
    progress.advance();
  }
  progress.finish();
  progress.finish();  // idempotent
  std::string text = out.str();
  CHECK(count_of(text, '\r') == 0);
  CHECK(count_of(text, '\n') == 10);  // 10 %, 20 %, ..., 90 %, then "done"
  CHECK(text.find("epoch 1: 20/200 (10%), 100 img/s, ETA 0:02\n") != std::string::npos);
  CHECK(text.find("epoch 1: 100/200 (50%), 100 img/s, ETA 0:01\n") != std::string::npos);
  CHECK(text.find("epoch 1: 200/200 done in 2.0 s (100 img/s)\n") != std::string::npos);
}

TEST_CASE("log mode also prints after a quiet interval") {
  std::ostringstream out;
  FakeClock clock;
  auto options = options_for(out, clock, false);
  options.log_interval_s = 30.0;
  cae::ProgressReporter progress(0, options);  // unknown total: no percentages
  progress.advance(5);
  CHECK(out.str().empty());
  clock.now += 31.0;
  progress.advance(5);
  CHECK(out.str() == "epoch 1: 10, 0.32 img/s\n");
  clock.now += 1.0;
  progress.advance();
  CHECK(count_of(out.str(), '\n') == 1);  // not again so soon
}

TEST_CASE("log mode: a jump over several steps gives one line") {
  std::ostringstream out;
  FakeClock clock;
  cae::ProgressReporter progress(10, options_for(out, clock, false));
  clock.now += 1.0;
  progress.update(7);
  CHECK(count_of(out.str(), '\n') == 1);
  CHECK(out.str().find("7/10 (70%)") != std::string::npos);
  // Nothing follows this loop (no items_after): one ETA, of the loop.
  CHECK(out.str() == "epoch 1: 7/10 (70%), 7.00 img/s, ETA 0:00\n");
}

TEST_CASE("terminal mode redraws one line with a bar, rate and ETA") {
  std::ostringstream out;
  FakeClock clock;
  cae::ProgressReporter progress(100, options_for(out, clock, true));
  clock.now += 1.0;
  progress.advance(25);
  std::string first = out.str();
  CHECK(first.front() == '\r');
  CHECK(count_of(first, '\n') == 0);
  CHECK(first.find("epoch 1 [=======>") != std::string::npos);
  CHECK(first.find("25/100  25.0%") != std::string::npos);
  CHECK(first.find("25.0 img/s") != std::string::npos);
  CHECK(first.find("ETA 0:03") != std::string::npos);

  // Many updates within the redraw interval draw nothing new.
  for (int i = 0; i < 50; ++i) progress.advance();
  CHECK(out.str() == first);

  clock.now += 1.0;
  progress.advance(25);  // 100/100 after 2 s
  progress.finish();
  std::string text = out.str();
  CHECK(count_of(text, '\n') == 1);
  CHECK(text.back() == '\n');
  CHECK(text.find("[" + std::string(30, '=') + "] 100/100 100.0%  50.0 img/s  in 2.0 s") !=
        std::string::npos);
}

TEST_CASE("items after the loop: the ETA also says when they are all done") {
  std::ostringstream out;
  FakeClock clock;
  auto options = options_for(out, clock, false);
  options.items_after = 400;  // two more epochs of 200
  options.items_after_name = "training";
  cae::ProgressReporter progress(200, options);
  for (int i = 0; i < 100; ++i) {
    clock.now += 0.5;  // 2 img/s: this epoch's other 100 take 50 s, all 500 more 250 s
    progress.advance();
  }
  progress.finish();
  const std::string text = out.str();
  CHECK(text.find("epoch 1: 20/200 (10%), 2.00 img/s, ETA 1:30 (training 4:50)\n") !=
        std::string::npos);
  CHECK(text.find("epoch 1: 100/200 (50%), 2.00 img/s, ETA 0:50 (training 4:10)\n") !=
        std::string::npos);
  // The closing line, like a loop with nothing after it, says what was done.
  CHECK(text.find("epoch 1: 100/200 done in 50.0 s (2.00 img/s)\n") != std::string::npos);

  std::ostringstream bar;
  auto on_terminal = options_for(bar, clock, true);
  on_terminal.items_after = 400;
  on_terminal.items_after_name = "training";
  cae::ProgressReporter drawn(200, on_terminal);
  clock.now += 50.0;
  drawn.advance(100);
  CHECK(bar.str().find("2.00 img/s  ETA 0:50 (training 4:10)") != std::string::npos);
}

TEST_CASE("terminal mode wipes leftovers of a longer previous line") {
  std::ostringstream out;
  FakeClock clock;
  auto options = options_for(out, clock, true);
  options.bar_width = 4;
  cae::ProgressReporter progress(1000, options);
  clock.now += 100.0;
  progress.advance(1);  // slow start: a long ETA
  std::size_t first_length = out.str().size() - 1;
  clock.now += 1.0;
  progress.advance(999);
  std::string text = out.str();
  std::string second = text.substr(text.rfind('\r') + 1);
  CHECK(second.size() >= first_length);
}

TEST_CASE("an unfinished terminal line is ended when the reporter goes away") {
  std::ostringstream out;
  FakeClock clock;
  {
    cae::ProgressReporter progress(10, options_for(out, clock, true));
    progress.advance();
  }
  CHECK(out.str().back() == '\n');
  CHECK(out.str().find("done") == std::string::npos);
  CHECK(out.str().find(" in ") == std::string::npos);
}

TEST_CASE("a plain stream is not a terminal") {
  std::ostringstream out;
  cae::ProgressOptions options;
  options.out = &out;
  cae::ProgressReporter progress(1, options);
  CHECK_FALSE(progress.is_terminal());
}
