// Progress display for long loops (epochs, feature extraction, kernel rows).
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

namespace cae {

struct ProgressOptions {
  std::string label;           // printed first, e.g. "epoch 3/20"
  std::string unit = "items";  // the rate reads "<n> <unit>/s"
  // Where to print; nullptr means std::cout.
  std::ostream* out = nullptr;
  // Whether `out` is an interactive terminal. Unset: detected with isatty()
  // for std::cout / std::cerr, false for any other stream.
  std::optional<bool> is_terminal;
  // Monotonic time in seconds; unset means std::chrono::steady_clock.
  std::function<double()> clock;
  // Terminal: redraw the bar at most this often, so a fast loop does not
  // spend its time printing.
  double redraw_interval_s = 0.1;
  // Not a terminal (log files, CI): a line each time another `log_percent_step`
  // percent is done, and at least every `log_interval_s` seconds while
  // something moves, so logs stay short but never look stuck.
  int log_percent_step = 10;
  double log_interval_s = 30.0;
  int bar_width = 30;
  // Items of the same kind that follow this loop, expected at its rate (a
  // training's later epochs): the ETA then also says when they will all be
  // done, under this name: "ETA 0:04 (training 4:10:00)". An epoch of a long
  // run on the cpu backend takes minutes; its own ETA alone hides the hours
  // the run still has.
  std::int64_t items_after = 0;
  std::string items_after_name = "all";
};

// On a terminal: one line redrawn in place with '\r':
//   label [=========>          ] 1200/4000  30.0%  812.3 items/s  ETA 0:03
// Elsewhere: plain lines at a modest rate:
//   label: 1200/4000 (30%), 812.3 items/s, ETA 0:03
// (with items_after, "ETA 0:03 (training 1:04)" in both).
// finish() prints the closing line with the elapsed time. A total of 0 means
// "unknown": no bar, percentage or ETA. Not thread-safe: report from the
// thread that runs the loop.
class ProgressReporter {
 public:
  explicit ProgressReporter(std::int64_t total, ProgressOptions options = {});
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;
  // Ends a half-drawn terminal line (e.g. when an exception leaves the loop)
  // so the next output starts on a line of its own. Prints no "done" line.
  ~ProgressReporter();

  void advance(std::int64_t count = 1);
  // Sets the absolute number of items done.
  void update(std::int64_t done);
  // Prints the final line once; later calls do nothing.
  void finish();

  std::int64_t done() const { return done_; }
  std::int64_t total() const { return total_; }
  bool is_terminal() const { return terminal_; }

 private:
  double now() const;
  double elapsed() const { return now() - start_time_; }
  void maybe_report();
  void draw_terminal_line(bool final_line);
  void write_log_line(bool final_line);
  std::string counts_text() const;
  std::string rate_text(double seconds) const;
  double eta_seconds(double seconds, std::int64_t items_after = 0) const;
  std::string eta_text(double seconds) const;

  std::int64_t total_;
  ProgressOptions options_;
  std::ostream* out_;
  bool terminal_;
  double start_time_;
  std::int64_t done_ = 0;
  bool finished_ = false;
  // Terminal mode.
  double last_draw_time_ = -1.0;
  std::size_t last_line_length_ = 0;
  bool line_open_ = false;
  // Log mode.
  double last_log_time_;
  std::int64_t last_logged_done_ = 0;
  int next_log_percent_;
};

}  // namespace cae
