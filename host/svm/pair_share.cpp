#include "svm/pair_share.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "plugin/byte_exchange.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

class Writer {
 public:
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable<T>::value, "plain values only");
    const auto* p = reinterpret_cast<const uint8_t*>(&value);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  template <class T>
  void put_all(const std::vector<T>& values) {
    put(uint64_t(values.size()));
    for (const T& v : values) put(v);
  }
  std::vector<uint8_t> take() { return std::move(bytes_); }

 private:
  std::vector<uint8_t> bytes_;
};

class Reader {
 public:
  explicit Reader(const std::vector<uint8_t>& bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    if (bytes_.size() - at_ < sizeof(T)) throw SvmError("a shared pair solution is cut short");
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  template <class T>
  std::vector<T> get_all() {
    const uint64_t n = get<uint64_t>();
    if (n > (bytes_.size() - at_) / sizeof(T)) throw SvmError("a shared pair solution is cut short");
    std::vector<T> values(static_cast<size_t>(n));
    for (T& v : values) v = get<T>();
    return values;
  }
  bool done() const { return at_ == bytes_.size(); }

 private:
  const std::vector<uint8_t>& bytes_;
  size_t at_ = 0;
};

}  // namespace

std::vector<ClassPair> pairs_of_rank(const ClassLayout& layout, int32_t rank, int32_t world) {
  if (world < 1 || rank < 0 || rank >= world) {
    throw SvmError("pairs_of_rank: rank " + std::to_string(rank) + " of " + std::to_string(world));
  }
  std::vector<ClassPair> pairs = class_pairs(layout.class_count());
  auto rows = [&](const ClassPair& p) {
    return double(layout.rows[size_t(p.first)].size() + layout.rows[size_t(p.second)].size());
  };
  std::stable_sort(pairs.begin(), pairs.end(),
                   [&](const ClassPair& a, const ClassPair& b) { return rows(a) > rows(b); });
  std::vector<double> work(size_t(world), 0.0);
  std::vector<ClassPair> mine;
  for (const ClassPair& pair : pairs) {
    const size_t to = size_t(std::min_element(work.begin(), work.end()) - work.begin());
    work[to] += rows(pair) * rows(pair);
    if (to == size_t(rank)) mine.push_back(pair);
  }
  return mine;
}

void take_rank_share(PairRunInput& input, const ClassLayout& layout, const RankShare& ranks) {
  if (!ranks.spread()) return;
  input.order = pairs_of_rank(layout, ranks.group->rank(), ranks.group->world());
  input.order_is_share = true;
}

bool has_pairs_here(const PairRunInput& input) {
  return !input.order_is_share || !input.order.empty();
}

std::vector<uint8_t> encode_chains(const std::vector<std::vector<SmoPairSolution>>& chains) {
  Writer out;
  out.put(uint64_t(chains.size()));
  for (const std::vector<SmoPairSolution>& chain : chains) {
    out.put(uint64_t(chain.size()));
    for (const SmoPairSolution& s : chain) {
      out.put(s.solution.pair.first);
      out.put(s.solution.pair.second);
      out.put_all(s.solution.support);
      out.put_all(s.solution.coef);
      out.put(s.solution.rho);
      out.put(uint8_t(s.solution.converged));
      out.put(s.objective);
      out.put(s.iterations);
      out.put(uint8_t(s.converged));
      out.put(s.seconds);
    }
  }
  return out.take();
}

std::vector<std::vector<SmoPairSolution>> decode_chains(const std::vector<uint8_t>& bytes) {
  Reader in(bytes);
  std::vector<std::vector<SmoPairSolution>> chains;
  for (uint64_t c = in.get<uint64_t>(); c > 0; --c) {
    std::vector<SmoPairSolution> chain;
    for (uint64_t k = in.get<uint64_t>(); k > 0; --k) {
      SmoPairSolution s;
      s.solution.pair.first = in.get<int32_t>();
      s.solution.pair.second = in.get<int32_t>();
      s.solution.support = in.get_all<int64_t>();
      s.solution.coef = in.get_all<float>();
      s.solution.rho = in.get<float>();
      s.solution.converged = in.get<uint8_t>() != 0;
      s.objective = in.get<double>();
      s.iterations = in.get<int64_t>();
      s.converged = in.get<uint8_t>() != 0;
      s.seconds = in.get<double>();
      if (s.solution.support.size() != s.solution.coef.size()) {
        throw SvmError("a shared pair solution has " + std::to_string(s.solution.support.size()) +
                       " support rows for " + std::to_string(s.solution.coef.size()) +
                       " coefficients");
      }
      chain.push_back(std::move(s));
    }
    chains.push_back(std::move(chain));
  }
  if (!in.done()) throw SvmError("a shared pair solution has bytes after its end");
  return chains;
}

std::vector<std::vector<SmoPairSolution>> share_chains(
    const RankShare& ranks, const std::vector<std::vector<SmoPairSolution>>& mine) {
  if (!ranks.spread()) return mine;
  std::vector<std::vector<SmoPairSolution>> all;
  for (const std::vector<uint8_t>& bytes :
       all_gather_bytes(*ranks.group, *ranks.context, encode_chains(mine))) {
    for (std::vector<SmoPairSolution>& chain : decode_chains(bytes)) all.push_back(std::move(chain));
  }
  return all;
}

std::vector<PairSolution> share_solutions(const RankShare& ranks,
                                          const std::vector<PairSolution>& mine) {
  if (!ranks.spread()) return mine;
  std::vector<std::vector<SmoPairSolution>> chains;
  for (const PairSolution& solution : mine) {
    SmoPairSolution s;
    s.solution = solution;
    s.converged = solution.converged;
    chains.push_back({s});
  }
  std::vector<PairSolution> all;
  for (std::vector<SmoPairSolution>& chain : share_chains(ranks, chains)) {
    all.push_back(std::move(chain.front().solution));
  }
  return all;
}

}  // namespace cae::svm
