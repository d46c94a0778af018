// A set of non-negative 32-bit ids as a sorted vector of 64-bit words, each with its word index
// (the "sparse bitmap" of GCC's and LLVM's points-to solvers: Hardekopf & Lin measured it the best
// representation for Andersen's analysis). Points-to sets are clustered (a function's locals, an
// allocation site's neighbours), so a set of k ids takes far fewer than k words, and union,
// difference and subset tests walk two sorted word lists once.
#pragma once
#include <cstdint>
#include <vector>

namespace fg {

class sparse_bitset {
 public:
  struct word {
    std::uint32_t index;  ///< ids [64 * index, 64 * index + 64)
    std::uint64_t bits;
  };

  bool empty() const noexcept { return w_.empty(); }
  std::size_t words() const noexcept { return w_.size(); }
  const std::vector<word>& data() const noexcept { return w_; }
  void clear() noexcept { w_.clear(); }

  /// @brief Adds id; true when it was not there.
  bool insert(std::uint32_t id) {
    const std::uint32_t wi = id >> 6;
    const std::uint64_t bit = std::uint64_t(1) << (id & 63);
    if (w_.empty() || w_.back().index < wi) {  // ids mostly arrive ascending
      if (w_.capacity() == 0) w_.reserve(4);  // sets grow a word at a time: skip the 1-2-4 reallocations
      w_.push_back({wi, bit});
      return true;
    }
    std::size_t lo = 0, hi = w_.size();
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (w_[mid].index < wi) lo = mid + 1;
      else hi = mid;
    }
    if (lo < w_.size() && w_[lo].index == wi) {
      const bool added = (w_[lo].bits & bit) == 0;
      w_[lo].bits |= bit;
      return added;
    }
    w_.insert(w_.begin() + std::ptrdiff_t(lo), word{wi, bit});
    return true;
  }

  bool contains(std::uint32_t id) const noexcept {
    const std::uint32_t wi = id >> 6;
    std::size_t lo = 0, hi = w_.size();
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (w_[mid].index < wi) lo = mid + 1;
      else hi = mid;
    }
    return lo < w_.size() && w_[lo].index == wi && ((w_[lo].bits >> (id & 63)) & 1) != 0;
  }

  /// @brief *this |= o; true when *this grew.
  bool unite(const sparse_bitset& o) {
    if (o.w_.empty()) return false;
    if (w_.empty()) {
      w_ = o.w_;
      return true;
    }
    static thread_local std::vector<word> news;
    return unite(o, news);
  }

  /// @brief *this |= o; `news` gets the words of the ids that were not here (cleared first, ascending).
  ///        True when there were any. A small o into a large set costs |o| galloping searches, and
  ///        when o adds bits only to words already here they are set in place (no merge).
  bool unite(const sparse_bitset& o, std::vector<word>& news) {
    news.clear();
    std::size_t missing = 0, i = 0;
    for (const word& y : o.w_) {
      i = seek(i, y.index);
      const bool here = i < w_.size() && w_[i].index == y.index;
      const std::uint64_t bits = here ? y.bits & ~w_[i].bits : y.bits;
      if (bits != 0) news.push_back({y.index, bits});
      missing += !here;
    }
    if (news.empty()) return false;
    if (missing > 0) {
      merge(o.w_);
      return true;
    }
    i = 0;
    for (const word& x : news) i = seek(i, x.index), w_[i].bits |= x.bits;
    return true;
  }

  /// @brief *this |= the ids of an ascending word list (what unite's `news` holds).
  void unite(const std::vector<word>& ws) {
    if (ws.empty()) return;
    if (w_.empty() || w_.back().index < ws.front().index) {
      w_.insert(w_.end(), ws.begin(), ws.end());
      return;
    }
    merge(ws);
  }

  /// @brief The ids of a not in b.
  static sparse_bitset minus(const sparse_bitset& a, const sparse_bitset& b) {
    sparse_bitset r;
    std::size_t j = 0;
    for (const word& x : a.w_) {
      while (j < b.w_.size() && b.w_[j].index < x.index) ++j;
      const std::uint64_t bits = j < b.w_.size() && b.w_[j].index == x.index ? x.bits & ~b.w_[j].bits : x.bits;
      if (bits != 0) r.w_.push_back({x.index, bits});
    }
    return r;
  }

  /// @brief f(id) for every id, ascending.
  template <class F>
  void for_each(F&& f) const {
    for (const word& x : w_)
      for (std::uint64_t b = x.bits; b != 0; b &= b - 1) f(std::uint32_t(x.index * 64 + unsigned(__builtin_ctzll(b))));
  }

  std::size_t count() const noexcept {
    std::size_t c = 0;
    for (const word& x : w_) c += std::size_t(__builtin_popcountll(x.bits));
    return c;
  }

  bool operator==(const sparse_bitset& o) const noexcept {
    if (w_.size() != o.w_.size()) return false;
    for (std::size_t i = 0; i < w_.size(); ++i)
      if (w_[i].index != o.w_[i].index || w_[i].bits != o.w_[i].bits) return false;
    return true;
  }

 private:
  // The first position from i whose word index is >= index: galloping, so a walk of a small set's
  // words through a large one costs logarithms, and of two similar sets about a linear merge (a
  // linear scan of a 10^4-word set per small union was half of the CFL solver's time on psql.peg).
  std::size_t seek(std::size_t i, std::uint32_t index) const noexcept {
    const std::size_t n = w_.size();
    if (i >= n || w_[i].index >= index) return i;
    std::size_t lo = i, step = 1;  // w_[lo].index < index
    while (lo + step < n && w_[lo + step].index < index) lo += step, step *= 2;
    std::size_t hi = lo + step < n ? lo + step : n;  // w_[hi].index >= index, or hi == n
    ++lo;
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (w_[mid].index < index) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  // Merges ws into w_ through a per-thread scratch vector that then keeps w_'s old storage: steady
  // state, a union allocates nothing (one vector per union was a third of the CFL solver's time).
  void merge(const std::vector<word>& ws) {
    static thread_local std::vector<word> out;
    out.clear();
    out.reserve(w_.size() + ws.size());
    std::size_t i = 0, j = 0;
    while (i < w_.size() || j < ws.size()) {
      if (j == ws.size() || (i < w_.size() && w_[i].index < ws[j].index)) {
        out.push_back(w_[i++]);
        continue;
      }
      const bool both = i < w_.size() && w_[i].index == ws[j].index;
      out.push_back({ws[j].index, (both ? w_[i].bits : 0) | ws[j].bits});
      i += both, ++j;
    }
    w_.swap(out);
  }
  std::vector<word> w_;
};

}  // namespace fg
