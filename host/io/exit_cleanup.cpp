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

void write_stderr(const char* text) {
  const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

extern "C" void remove_registered_and_exit(int number) {
  for (int i = 0; i < kSlots; ++i) {
    if (g_in_use[i].load(std::memory_order_acquire)) ::unlink(g_paths[i]);
  }
  write_stderr(number == SIGINT    ? "\ncae: interrupted (SIGINT); temporary files removed\n"
               : number == SIGTERM ? "\ncae: terminated (SIGTERM); temporary files removed\n"
                                   : "\ncae: stopped by a signal; temporary files removed\n");
  ::_exit(128 + number);
}

}  // namespace

void install_exit_cleanup() {
  struct sigaction action {};
  action.sa_handler = remove_registered_and_exit;
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

void unregister_exit_cleanup(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  g_in_use[slot].store(false, std::memory_order_release);
  g_claimed[slot].store(false, std::memory_order_release);
}

}  // namespace cae
