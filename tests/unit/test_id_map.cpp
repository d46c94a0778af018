// stream/id_map.hpp: dense ids in order of first appearance in both forms (flat array, hash table),
// the switches between them in the middle of a stream (ids stay), huge and negative ids, find() of
// unseen ids, and random streams against a std::unordered_map.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <tuple>
#include <utility>
#include <unordered_map>
#include <vector>

#include "core/error.hpp"
#include "stream/id_map.hpp"

namespace {
using namespace fg;

// The model: what id_map must agree with, id by id.
struct model {
  std::unordered_map<std::int64_t, vertex_t> m;
  std::vector<std::int64_t> ids;
  vertex_t intern(std::int64_t id) {
    const auto [it, fresh] = m.emplace(id, vertex_t(ids.size()));
    if (fresh) ids.push_back(id);
    return it->second;
  }
  vertex_t find(std::int64_t id) const {
    const auto it = m.find(id);
    return it == m.end() ? -1 : it->second;
  }
};

// Interns `stream` into both, one by one, and compares every answer, find() of the next id after
// each (mostly unseen), and find() of every id at the end. (Whole vectors compared: one assertion.)
void check_against_model(id_map& ids, model& ref, const std::vector<std::int64_t>& stream) {
  std::vector<vertex_t> got, want;
  for (const std::int64_t id : stream) {
    got.push_back(ids.intern(id));
    want.push_back(ref.intern(id));
    got.push_back(ids.find(id + 1));
    want.push_back(ref.find(id + 1));
  }
  for (const auto& [id, d] : ref.m) {
    got.push_back(ids.find(id));
    want.push_back(d);
  }
  CHECK(got == want);
  CHECK(ids.size() == vertex_t(ref.ids.size()));
  CHECK(ids.ids() == ref.ids);
}

TEST_CASE("id_map: small ids stay in the flat array, dense ids in order of first appearance") {
  id_map ids;
  CHECK(ids.is_direct());
  CHECK(ids.find(0) == -1);
  CHECK(ids.intern(50) == 0);
  CHECK(ids.intern(7) == 1);
  CHECK(ids.intern(50) == 0);
  CHECK(ids.intern(100000) == 2);  // past the first array: it grows
  CHECK(ids.intern(0) == 3);
  CHECK(ids.is_direct());
  CHECK(ids.find(7) == 1);
  CHECK(ids.find(8) == -1);
  CHECK(ids.find(1 << 30) == -1);  // beyond the array
  CHECK(ids.find(-3) == -1);
  CHECK(ids.ids() == std::vector<std::int64_t>{50, 7, 100000, 0});
}

TEST_CASE("id_map: huge ids go to the hash table; ids given out before stay") {
  id_map ids;
  CHECK(ids.intern(3) == 0);
  CHECK(ids.intern(1) == 1);
  const std::int64_t huge = std::int64_t(1) << 62;
  CHECK(ids.intern(huge) == 2);
  CHECK_FALSE(ids.is_direct());
  CHECK(ids.intern(3) == 0);
  CHECK(ids.intern(1) == 1);
  CHECK(ids.intern(huge + 1) == 3);
  CHECK(ids.intern(huge) == 2);
  CHECK(ids.find(huge - 1) == -1);
  CHECK(ids.find(2) == -1);
  CHECK(ids.find(-1) == -1);  // the empty slots' key
  CHECK(ids.find(INT64_MAX) == -1);
  CHECK(ids.intern(INT64_MAX) == 4);
  CHECK(ids.ids() == std::vector<std::int64_t>{3, 1, huge, huge + 1, INT64_MAX});
}

TEST_CASE("id_map: a negative id is an error, in either form, and changes nothing") {
  for (const bool hashed : {false, true}) {
    id_map ids;
    ids.intern(5);
    if (hashed) ids.intern(std::int64_t(1) << 40);
    CHECK(ids.is_direct() == !hashed);
    CHECK_THROWS_AS(ids.intern(-1), invalid_argument);
    CHECK_THROWS_AS(ids.intern(INT64_MIN), invalid_argument);
    CHECK(ids.size() == (hashed ? 2 : 1));
    CHECK(ids.intern(5) == 0);
  }
}

TEST_CASE("id_map: dense to sparse in the middle of a stream, and back once the ids fill in") {
  id_map ids;
  model ref;
  std::vector<std::int64_t> s;
  for (std::int64_t i = 0; i < 100000; ++i) s.push_back((i * 7919) % 100000);  // a permutation
  check_against_model(ids, ref, s);
  CHECK(ids.is_direct());
  // 2^24 is past the array's limit for 10^5 ids (8 per id + 2^22): to the table.
  s.assign({std::int64_t(1) << 24, 2 * 100000 + 5, 99999});
  check_against_model(ids, ref, s);
  CHECK_FALSE(ids.is_direct());
  // From ~1.6 M ids on it is within the limit: the table's next doubling (at 2^21 ids) goes back.
  s.clear();
  for (std::int64_t i = 100000; i < 2300000; ++i) s.push_back(i);
  check_against_model(ids, ref, s);
  CHECK(ids.is_direct());
}

TEST_CASE("id_map: intern_pairs is intern in line order, across switches of form") {
  id_map ids;
  model ref;
  std::mt19937_64 rng(7);
  // Each phase's pairs through intern_pairs, then the model, pair by pair: then the form.
  auto phase = [&](auto&& pair_of, std::size_t pairs) {
    std::vector<std::int64_t> a(pairs), b(pairs);
    for (std::size_t i = 0; i < pairs; ++i) std::tie(a[i], b[i]) = pair_of(i);
    std::vector<vertex_t> oa(pairs), ob(pairs), ra, rb;
    ids.intern_pairs(a.data(), b.data(), oa.data(), ob.data(), pairs);
    for (std::size_t i = 0; i < pairs; ++i) {
      ra.push_back(ref.intern(a[i]));
      rb.push_back(ref.intern(b[i]));
    }
    CHECK(oa == ra);
    CHECK(ob == rb);
    CHECK(ids.ids() == ref.ids);
    return ids.is_direct();
  };
  const auto small = [&] { return std::int64_t(rng() % 40000); };
  // Small ids, new ones on either side of a pair: the flat array throughout.
  CHECK(phase([&](std::size_t) { return std::pair(small(), small()); }, 30000));
  // 2^24 once in the middle (past the limit: to the table), on the second side.
  const std::int64_t far = std::int64_t(1) << 24;
  CHECK_FALSE(phase([&](std::size_t i) { return std::pair(small(), i == 500 ? far : small()); }, 1000));
  // Filling in up to 2.3 M ids: back to the array at the table's doubling at 2^21 ids.
  const auto fresh = [](std::size_t i) { return std::pair(std::int64_t(40000 + 2 * i), std::int64_t(40001 + 2 * i)); };
  CHECK(phase(fresh, 1150000));
  // 62-bit hashes from pair 100 on: to the table for good.
  const auto hashes = [&](std::size_t i) { return std::pair(small(), i < 100 ? small() : std::int64_t(rng() >> 2)); };
  CHECK_FALSE(phase(hashes, 50000));
}

TEST_CASE("id_map: random streams against std::unordered_map") {
  // Dense ranges, sparse 62-bit ids, and ranges near the flat array's limit, with repeats.
  const std::int64_t ranges[] = {10, 1000, 1 << 20, 1 << 23, std::int64_t(1) << 40, INT64_MAX};
  std::mt19937_64 rng(42);
  for (const std::int64_t range : ranges) {
    CAPTURE(range);
    id_map ids;
    model ref;
    std::vector<std::int64_t> s(200000);
    for (auto& x : s) x = std::int64_t(rng() % std::uint64_t(range));
    check_against_model(ids, ref, s);
  }
}

}  // namespace

TEST_CASE("id_map: intern_batch numbers a batch's new ids in increasing order; truncate gives them back") {
  for (const std::int64_t base : {std::int64_t(0), std::int64_t(1) << 50}) {  // the flat array, the table
    id_map ids;
    ids.intern(base + 5);
    const std::vector<std::int64_t> a{base + 9, base + 5, base + 7}, b{base + 3, base + 9, base + 5};
    std::vector<vertex_t> oa(3), ob(3);
    ids.intern_batch(a.data(), b.data(), oa.data(), ob.data(), 3);
    CHECK(ids.ids() == std::vector<std::int64_t>{base + 5, base + 3, base + 7, base + 9});  // 5 first: it was known
    CHECK(oa == std::vector<vertex_t>{3, 0, 2});
    CHECK(ob == std::vector<vertex_t>{1, 3, 0});
    CHECK(ids.find(base + 9) == 3);
    CHECK(ids.find(base + 3) == 1);
    ids.truncate(2);
    CHECK(ids.size() == 2);
    CHECK(ids.find(base + 9) == -1);
    CHECK(ids.find(base + 7) == -1);
    CHECK(ids.intern(base + 100) == 2);
    CHECK_FALSE(ids.identity());
  }
  id_map dense;
  dense.intern_first(4);
  CHECK(dense.identity());
  CHECK(dense.ids() == std::vector<std::int64_t>{0, 1, 2, 3});
  // identity() follows batches: ids 0..5 in any order are the identity once numbered; a gap is
  // not; giving the gap's batch back restores it.
  id_map shuffled;
  const std::vector<std::int64_t> s{4, 1, 0}, t{2, 5, 3}, gap_s{9}, gap_t{6};
  std::vector<vertex_t> os(3), ot(3);
  shuffled.intern_batch(s.data(), t.data(), os.data(), ot.data(), 3);
  CHECK(shuffled.identity());
  CHECK(os == std::vector<vertex_t>{4, 1, 0});
  shuffled.intern_batch(gap_s.data(), gap_t.data(), os.data(), ot.data(), 1);
  CHECK_FALSE(shuffled.identity());  // 6 then 9: vertex 7 is id 9
  shuffled.truncate(6);
  CHECK(shuffled.identity());
  shuffled.intern(7);
  CHECK_FALSE(shuffled.identity());
}

TEST_CASE("id_map: intern_first on a non-empty map interns only the ids past it, at a cost that does not grow with it") {
  id_map m;
  m.intern_first(10);
  m.intern_first(15);  // the identity map: 10..14 are new
  CHECK(m.identity());
  CHECK(m.size() == 15);
  for (std::int64_t id = 0; id < 15; ++id) CHECK(m.find(id) == id);
  m.intern_first(3);  // nothing new
  CHECK(m.size() == 15);
  id_map other;  // not the identity: 0..2 are looked up, the new ones come after id 5
  other.intern(5);
  other.intern_first(3);
  CHECK(other.ids() == std::vector<std::int64_t>{5, 0, 1, 2});
  other.intern_first(7);
  CHECK(other.ids() == std::vector<std::int64_t>{5, 0, 1, 2, 3, 4, 6});
  // Many one-vertex steps on a large identity map (a graph's small batches in dense ids): were each
  // to look up every id, 1000 steps over 4M ids would be 4e9 look-ups, seconds; they are 1000.
  id_map big;
  big.intern_first(std::int64_t(1) << 22);
  const auto t = std::chrono::steady_clock::now();
  for (std::int64_t k = 1; k <= 1000; ++k) big.intern_first((std::int64_t(1) << 22) + k);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  CHECK(big.identity());
  CHECK(big.size() == (std::int64_t(1) << 22) + 1000);
  CHECK(seconds < 2.0);  // 4e9 look-ups take tens of seconds; 1000 steps took 0.50 s under ASan beside a compiler
}
