// The set representations of the CPU analyses: sparse_bitset (core/sparse_bitset.hpp) against
// std::set, and the hash-consed set_table (core/set_table.hpp): equal sets share an id, memoised
// unions and differences equal the plain ones, including after the memo starts over at its cap.
#include <doctest/doctest.h>

#include <random>
#include <set>
#include <vector>

#include "core/set_table.hpp"

namespace {
using namespace fg;

std::set<std::uint32_t> ids_of(const sparse_bitset& s) {
  std::set<std::uint32_t> r;
  s.for_each([&](std::uint32_t x) { r.insert(x); });
  return r;
}

sparse_bitset random_set(std::mt19937& rng, std::uint32_t range, int k) {
  sparse_bitset s;
  for (int i = 0; i < k; ++i) s.insert(std::uint32_t(rng() % range));
  return s;
}
}  // namespace

TEST_CASE("sparse_bitset: insert, unite with new words, minus against std::set") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const std::uint32_t range = trial % 2 ? 200 : 100000;
    const sparse_bitset a = random_set(rng, range, int(rng() % 60)), b = random_set(rng, range, int(rng() % 60));
    const std::set<std::uint32_t> sa = ids_of(a), sb = ids_of(b);
    CHECK(a.count() == sa.size());
    sparse_bitset u = a;
    std::vector<sparse_bitset::word> news;
    const bool grew = u.unite(b, news);
    std::set<std::uint32_t> want = sa, fresh;
    for (std::uint32_t x : sb)
      if (want.insert(x).second) fresh.insert(x);
    CHECK(ids_of(u) == want);
    CHECK(grew == !fresh.empty());
    sparse_bitset f;
    f.unite(news);
    CHECK(ids_of(f) == fresh);
    std::set<std::uint32_t> diff;
    for (std::uint32_t x : sa)
      if (!sb.count(x)) diff.insert(x);
    CHECK(ids_of(sparse_bitset::minus(a, b)) == diff);
    for (std::uint32_t x : sb) CHECK(u.contains(x));
  }
}

TEST_CASE("set_table: equal sets share an id; memoised unions and differences are the plain ones") {
  std::mt19937 rng(11);
  for (std::size_t cap : {std::size_t(1) << 20, std::size_t(8)}) {  // 8: the memos start over often
    CAPTURE(cap);
    set_table t(cap);
    std::vector<set_table::id> ids;
    std::vector<sparse_bitset> plain;
    for (int i = 0; i < 40; ++i) {
      sparse_bitset s = random_set(rng, 300, int(rng() % 20));
      plain.push_back(s);
      ids.push_back(t.intern(std::move(s)));
    }
    for (std::size_t i = 0; i < ids.size(); ++i)
      for (std::size_t j = 0; j < ids.size(); ++j) {
        CHECK((ids[i] == ids[j]) == (plain[i] == plain[j]));
        for (int rep = 0; rep < 2; ++rep) {  // the second time from the memo
          sparse_bitset u = plain[i];
          u.unite(plain[j]);
          CHECK(t.get(t.unite(ids[i], ids[j])) == u);
          CHECK(t.get(t.minus(ids[i], ids[j])) == sparse_bitset::minus(plain[i], plain[j]));
        }
      }
    CHECK(t.get(set_table::empty_set).empty());
    const set_table::id one = t.insert(set_table::empty_set, 5);
    CHECK(t.count(one) == 1);
    CHECK(t.insert(one, 5) == one);
  }
}

TEST_CASE("set_table: compact keeps the live sets under new ids and drops the rest") {
  std::mt19937 rng(5);
  set_table t;
  std::vector<set_table::id> ids;
  std::vector<sparse_bitset> plain;
  for (int i = 0; i < 60; ++i) {
    sparse_bitset s = random_set(rng, 500, 1 + int(rng() % 30));
    plain.push_back(s);
    ids.push_back(t.intern(std::move(s)));
  }
  std::vector<char> live(t.size(), 0);
  for (std::size_t i = 0; i < ids.size(); i += 3) live[ids[i]] = 1;
  const std::vector<set_table::id> remap = t.compact(live);
  std::size_t words = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (!live[ids[i]]) {
      CHECK(remap[ids[i]] == memo_map::none);
      continue;
    }
    const set_table::id now = remap[ids[i]];
    REQUIRE(now != memo_map::none);
    CHECK(t.get(now) == plain[i]);
    sparse_bitset again = plain[i];
    CHECK(t.intern(std::move(again)) == now);  // still found by its hash
    for (std::size_t j = 0; j < ids.size(); j += 3) {  // memos start over, answers unchanged
      sparse_bitset u = plain[i];
      u.unite(plain[j]);
      CHECK(t.get(t.unite(now, remap[ids[j]])) == u);
    }
  }
  CHECK(remap[set_table::empty_set] == set_table::empty_set);
  std::set<set_table::id> kept;
  for (std::size_t i = 0; i < ids.size(); i += 3)
    if (kept.insert(remap[ids[i]]).second) words += plain[i].words();
  CHECK(t.words() >= words);
}

