#include "report/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace cae {
namespace {

double steady_seconds() {
  using std::chrono::duration;
  using std::chrono::steady_clock;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

bool stream_is_terminal(const std::ostream* out) {
  if (out == &std::cout) return ::isatty(STDOUT_FILENO) == 1;
  if (out == &std::cerr || out == &std::clog) return ::isatty(STDERR_FILENO) == 1;
  return false;
}

// "0:07", "12:34", "1:02:03": what people expect after "ETA".
std::string clock_text(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "--:--";
  auto total = static_cast<long long>(std::llround(seconds));
  long long hours = total / 3600;
  long long minutes = total / 60 % 60;
  long long secs = total % 60;
  char text[48];
  if (hours > 0) {
    std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", hours, minutes, secs);
  } else {
    std::snprintf(text, sizeof text, "%lld:%02lld", minutes, secs);
  }
  return text;
}

std::string duration_text(double seconds) {
  char text[48];
  if (seconds < 60.0) {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
    return text;
  }
  return clock_text(seconds);
}

std::string number_text(double value) {
  char text[48];
  // Three significant figures or so: the rate jitters, more digits are noise.
  std::snprintf(text, sizeof text,
                value >= 100.0  ? "%.0f"
                : value >= 10.0 ? "%.1f"
                                : "%.2f",
                value);
  return text;
}

}  // namespace

ProgressReporter::ProgressReporter(std::int64_t total, ProgressOptions options)
    : total_(std::max<std::int64_t>(total, 0)),
      options_(std::move(options)),
      out_(options_.out != nullptr ? options_.out : &std::cout),
      terminal_(options_.is_terminal.value_or(stream_is_terminal(out_))),
      start_time_(now()),
      last_log_time_(start_time_),
      next_log_percent_(std::max(options_.log_percent_step, 1)) {}

ProgressReporter::~ProgressReporter() {
  if (line_open_) {
    *out_ << '\n';
    out_->flush();
  }
}

double ProgressReporter::now() const {
  return options_.clock ? options_.clock() : steady_seconds();
}

void ProgressReporter::advance(std::int64_t count) { update(done_ + count); }

void ProgressReporter::update(std::int64_t done) {
  if (finished_) return;
  done_ = std::max<std::int64_t>(done, 0);
  maybe_report();
}

void ProgressReporter::finish() {
  if (finished_) return;
  finished_ = true;
  if (terminal_) {
    draw_terminal_line(true);
    *out_ << '\n';
    line_open_ = false;
  } else {
    write_log_line(true);
  }
  out_->flush();
}

void ProgressReporter::maybe_report() {
  double t = now();
  if (terminal_) {
    bool complete = total_ > 0 && done_ >= total_;
    if (last_draw_time_ < 0 || t - last_draw_time_ >= options_.redraw_interval_s || complete) {
      last_draw_time_ = t;
      draw_terminal_line(false);
    }
    return;
  }
  bool percent_reached = false;
  if (total_ > 0) {
    double percent = 100.0 * static_cast<double>(done_) / static_cast<double>(total_);
    int step = std::max(options_.log_percent_step, 1);
    // Jumping over several steps at once still gives one line.
    while (percent >= next_log_percent_ && next_log_percent_ < 100) {
      percent_reached = true;
      next_log_percent_ += step;
    }
  }
  bool interval_passed =
      t - last_log_time_ >= options_.log_interval_s && done_ != last_logged_done_;
  if (percent_reached || interval_passed) {
    last_log_time_ = t;
    last_logged_done_ = done_;
    write_log_line(false);
  }
}

std::string ProgressReporter::counts_text() const {
  std::string text = std::to_string(done_);
  if (total_ > 0) text += "/" + std::to_string(total_);
  return text;
}

std::string ProgressReporter::rate_text(double seconds) const {
  if (!(seconds > 0.0)) return "- " + options_.unit + "/s";
  return number_text(static_cast<double>(done_) / seconds) + " " + options_.unit + "/s";
}

// Assumes the average rate so far holds for the rest (and for `items_after`
// more); negative when unknown.
double ProgressReporter::eta_seconds(double seconds, std::int64_t items_after) const {
  if (!(seconds > 0.0) || done_ <= 0) return -1.0;
  double rate = static_cast<double>(done_) / seconds;
  return static_cast<double>(total_ - std::min(done_, total_) + items_after) / rate;
}

// "0:03", or "0:03 (training 1:04)" when more items follow this loop.
std::string ProgressReporter::eta_text(double seconds) const {
  std::string text = clock_text(eta_seconds(seconds));
  if (options_.items_after > 0) {
    text += " (" + options_.items_after_name + " " +
            clock_text(eta_seconds(seconds, options_.items_after)) + ")";
  }
  return text;
}

void ProgressReporter::draw_terminal_line(bool final_line) {
  double seconds = elapsed();
  std::string line = options_.label.empty() ? "" : options_.label + " ";
  if (total_ > 0) {
    double fraction = std::min(1.0, static_cast<double>(done_) / static_cast<double>(total_));
    int width = std::max(options_.bar_width, 1);
    int filled = static_cast<int>(fraction * width);
    std::string bar(static_cast<std::size_t>(width), ' ');
    std::fill(bar.begin(), bar.begin() + filled, '=');
    if (filled < width && done_ > 0) bar[static_cast<std::size_t>(filled)] = '>';
    char percent[16];
    std::snprintf(percent, sizeof percent, "%5.1f%%", 100.0 * fraction);
    line += "[" + bar + "] " + counts_text() + " " + percent;
  } else {
    line += counts_text();
  }
  line += "  " + rate_text(seconds);
  if (final_line) {
    line += "  in " + duration_text(seconds);
  } else if (total_ > 0) {
    line += "  ETA " + eta_text(seconds);
  }
  // Spaces wipe what a longer previous line left behind.
  std::size_t length = line.size();
  if (length < last_line_length_) line.append(last_line_length_ - length, ' ');
  last_line_length_ = length;
  *out_ << '\r' << line;
  out_->flush();
  line_open_ = true;
}

void ProgressReporter::write_log_line(bool final_line) {
  double seconds = elapsed();
  std::string line = options_.label.empty() ? "" : options_.label + ": ";
  if (final_line) {
    line += counts_text() + " done in " + duration_text(seconds) + " (" + rate_text(seconds) + ")";
  } else {
    line += counts_text();
    if (total_ > 0) {
      long percent = std::lround(100.0 * static_cast<double>(done_) / static_cast<double>(total_));
      line += " (" + std::to_string(percent) + "%)";
    }
    line += ", " + rate_text(seconds);
    if (total_ > 0) line += ", ETA " + eta_text(seconds);
  }
  *out_ << line << '\n';
  out_->flush();
}

}  // namespace cae
