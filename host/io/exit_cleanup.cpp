#include "io/exit_cleanup.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>

namespace cae {

namespace {

// Fixed storage: the signal handler may neither allocate nor take locks.
constexpr int kSlots = 64;
constexpr size_t kPathBytes = 4096;
char g_paths[kSlots][kPathBytes];
std::atomic<bool> g_in_use[kSlots];
std::atomic<bool> g_claimed[kSlots];
std::atomic<int> g_deferring{0};
std::atomic<int> g_pending_signal{0};

void write_stderr(const char* text) {
  const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

void remove_registered() {
  for (int i = 0; i < kSlots; ++i) {
    if (g_in_use[i].load(std::memory_order_acquire)) ::unlink(g_paths[i]);
  }
}

extern "C" void remove_registered_and_exit(int number) {
  if (g_deferring.load(std::memory_order_acquire) > 0) {
    g_pending_signal.store(number, std::memory_order_release);
    return;
  }
  remove_registered();
  write_stderr(number == SIGINT    ? "\ncae: interrupted (SIGINT); temporary files removed\n"
               : number == SIGTERM ? "\ncae: terminated (SIGTERM); temporary files removed\n"
                                   : "\ncae: stopped by a signal; temporary files removed\n");
  ::_exit(128 + number);
}

// A signal the process sent itself is no user's Ctrl-C: OpenBLAS raises
// SIGINT when it cannot start its threads (a memory or thread limit). That
// is a failure, said as one and ended with exit 1.
extern "C" void on_fatal_signal(int number, siginfo_t* info, void*) {
  if (g_deferring.load(std::memory_order_acquire) > 0) {
    g_pending_signal.store(number, std::memory_order_release);
    return;
  }
  const bool self_raised = info != nullptr && info->si_code <= 0 && info->si_pid == ::getpid();
  if (!self_raised) {
    remove_registered_and_exit(number);
    return;
  }
  remove_registered();
  write_stderr("cae: a library stopped the run (it could not start its threads or get memory: "
               "check `ulimit -v` and `ulimit -u`); temporary files removed\n");
  ::_exit(1);
}

}  // namespace

void install_exit_cleanup() {
  struct sigaction action {};
  action.sa_sigaction = on_fatal_signal;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  for (int number : {SIGINT, SIGTERM, SIGHUP}) sigaction(number, &action, nullptr);
  std::signal(SIGXFSZ, SIG_IGN);
}

int register_exit_cleanup(const std::string& path) {
  if (path.size() >= kPathBytes) return -1;
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (!g_claimed[i].compare_exchange_strong(expected, true)) continue;
    std::memcpy(g_paths[i], path.c_str(), path.size() + 1);
    g_in_use[i].store(true, std::memory_order_release);
    return i;
  }
  return -1;
}

void defer_fatal_signals() { g_deferring.fetch_add(1, std::memory_order_acq_rel); }

void resume_fatal_signals() {
  if (g_deferring.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  const int pending = g_pending_signal.exchange(0, std::memory_order_acq_rel);
  if (pending != 0) remove_registered_and_exit(pending);
}

void unregister_exit_cleanup(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  g_in_use[slot].store(false, std::memory_order_release);
  g_claimed[slot].store(false, std::memory_order_release);
}

}  // namespace cae
