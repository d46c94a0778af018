// Growth without a whole-store pass: the device store's pair index (storage/edge_set.hpp) while it
// grows by moving a step a batch holds exactly the stored pairs after every batch, each in one
// table, and the store drops exactly the duplicates a model predicts; a row table that grows with
// room kept keeps every row.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "core/memory.hpp"
#include "storage/dcsr.hpp"
#include "tests/support.hpp"

using namespace fg;

namespace {

/// The keys of one table, copied to the host (neither empty nor tombstones).
std::vector<std::uint64_t> keys_in(const std::uint64_t* table, std::uint64_t mask) {
  if (table == nullptr) return {};
  std::vector<std::uint64_t> slots(mask + 1);
  memory::copy_to_host(slots.data(), table, slots.size() * sizeof(std::uint64_t));
  std::vector<std::uint64_t> out;
  for (std::uint64_t k : slots)
    if (k != edge_set_view::empty && k != edge_set_view::tomb) out.push_back(edge_set_view::key_of(k));
  return out;
}

/// Both tables' keys; fails when a key is in both or twice in one.
std::set<std::uint64_t> index_keys(const edge_set_view& v) {
  std::set<std::uint64_t> all;
  std::size_t n = 0;
  for (const auto& part : {keys_in(v.slot, v.mask), keys_in(v.old, v.old_mask)}) {
    n += part.size();
    all.insert(part.begin(), part.end());
  }
  CHECK(all.size() == n);
  return all;
}

}  // namespace

TEST_CASE("the pair index grown a step a batch holds exactly the stored pairs after every batch") {
  dcsr_config cfg;
  cfg.index = edge_index::always;
  dcsr_matrix<pattern, device_space> A(cfg);
  std::set<std::uint64_t> model;
  std::mt19937_64 g(7);
  std::int64_t dropped = 0, deleted = 0;
  bool seen_two_tables = false;
  for (int b = 0; b < 300; ++b) {
    CAPTURE(b);
    const vertex_t n = vertex_t(200 + 40 * b);  // the graph grows: the index grows many times
    test::edges ins, del;
    if (b % 3 == 2) {  // delete stored pairs (a few twice: the second finds it absent)
      for (int i = 0; i < 25; ++i) {
        auto it = model.lower_bound(edge_set_view::key(vertex_t(g() % n), 0));
        if (it == model.end()) it = model.begin();
        const std::uint64_t k = *it;
        del.add(vertex_t(k >> 32), vertex_t(k & 0xffffffffu), 0);
        deleted += std::int64_t(model.erase(k));
      }
      A.delete_batch(test::to_batch<pattern, device_space>(del));
    }
    std::set<std::uint64_t> in_batch;
    for (int i = 0; i < 40 + b % 7 * 30; ++i) {
      const vertex_t r = vertex_t(g() % n), c = vertex_t(g() % n);
      ins.add(r, c, 1);
      const std::uint64_t k = edge_set_view::key(r, c);
      if (model.count(k) != 0 || !in_batch.insert(k).second) ++dropped;
    }
    A.insert_batch(test::to_batch<pattern, device_space>(ins));
    model.insert(in_batch.begin(), in_batch.end());
    const edge_set_view v = A.pair_index();
    REQUIRE(v.slot != nullptr);
    seen_two_tables = seen_two_tables || v.old != nullptr;
    REQUIRE(index_keys(v) == model);
    CHECK(A.nnz() == offset_t(model.size()));
  }
  CHECK(A.stats().duplicates_dropped == dropped);
  CHECK(A.stats().entries_deleted == deleted);
  CHECK(A.stats().index_builds == 1);  // the first; every growth after it moved a step a batch
  CHECK(A.stats().index_moves >= 3);
  CHECK(seen_two_tables);
  A.validate();
}

TEST_CASE_TEMPLATE("a row table grown past a million rows keeps every row, with room or without", S, host_space,
                   device_space) {
  // k = 2: a slab passes 16 MB at 1 M rows, where the CPU build starts keeping room (dcsr.cpp,
  // grow_row_table); the growths after it copy no slab. Content and layout are checked either way.
  dcsr_config cfg;
  cfg.max_segments = 2;
  dcsr_matrix<pattern, S> A(cfg);
  std::set<std::pair<vertex_t, vertex_t>> model;
  std::mt19937_64 g(11);
  for (vertex_t top : {1000, 300000, 1200000, 2000000, 2600000}) {
    test::edges e;
    for (int i = 0; i < 2000; ++i) {
      const vertex_t r = vertex_t(g() % std::uint64_t(top)), c = vertex_t(g() % 1000);
      e.add(r, c, 1);
      model.emplace(r, c);
    }
    e.add(top - 1, 0, 1);  // the new last row
    model.emplace(top - 1, 0);
    A.insert_batch(test::to_batch<pattern, S>(e));
  }
  CHECK(A.rows() == 2600000);
  CHECK(A.stats().row_table_grows >= 4);
  const auto cells = test::cells_of(A);
  CHECK(cells.size() == model.size());
  for (const auto& [key, cell] : cells) CHECK(model.count(key) == 1);
  A.validate();
}

TEST_CASE("zero_lazily zeroes exactly its range of a large block, and the pair index keeps pair (0, 0)") {
  // A block past the CPU build's mapping threshold (8 MB), written, freed and taken again: the
  // cache hands it back with its old bytes, so the zeroes below are zero_lazily's.
  const std::size_t n = std::size_t(24) << 20;
  std::vector<unsigned char> host(n, 0xab);
  void* p = memory::allocate(n);
  memory::copy_to_device(p, host.data(), n);
  memory::deallocate(p);
  p = memory::allocate(n);
  memory::copy_to_device(p, host.data(), n);
  const std::size_t from = 100, len = n - 300;  // neither end on a page boundary
  memory::zero_lazily(static_cast<unsigned char*>(p) + from, len);
  memory::copy_to_host(host.data(), p, n);
  memory::deallocate(p);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += host[i] != ((i >= from && i < from + len) ? 0 : 0xab);
  CHECK(wrong == 0);
  // A slot holds ~key, so the key of pair (0, 0), 0, is not the empty slot.
  pair_hash_set s;
  CHECK(s.insert(0, 0));
  CHECK_FALSE(s.insert(0, 0));
  CHECK(s.insert(0, 1));
  CHECK(s.size() == 2);
}

TEST_CASE("a growable device array resized in place keeps its prefix and its accounting, or says it cannot") {
  // 40 MB of int32: past the CPU build's mapping threshold and the CUDA build's growable minimum
  const std::size_t n = std::size_t(10) << 20;
  std::vector<std::int32_t> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = std::int32_t(i * 7 + 1);
  const std::size_t used = memory::bytes_in_use();
  auto a = array<std::int32_t, device_space>::growable(n);
  memory::copy_to_device(a.data(), host.data(), n * sizeof(std::int32_t));
  const std::int32_t* at = a.data();
  const bool remapped = a.resize_in_place(3 * n);
#if defined(__SANITIZE_ADDRESS__)
  CHECK_FALSE(remapped);  // AddressSanitizer's malloc blocks are not remapped
#else
  CHECK(remapped);  // CPU: mremap; CUDA: more memory mapped behind the same address (core/vmm.hpp)
#endif
#if defined(FG_WITH_CUDA)
  if (remapped) CHECK(a.data() == at);
  array<std::int32_t, device_space> plain(n);
  CHECK_FALSE(plain.resize_in_place(2 * n));  // a pool block is not growable
  plain = {};
#endif
  (void)at;
  if (remapped) {
    CHECK(a.size() == 3 * n);
    CHECK(memory::bytes_in_use() == used + 3 * n * sizeof(std::int32_t));
    std::vector<std::int32_t> back(n);
    memory::copy_to_host(back.data(), a.data(), n * sizeof(std::int32_t));
    CHECK(back == host);
    const std::vector<std::int32_t> tail(n, 5);
    memory::copy_to_device(a.data() + 2 * n, tail.data(), n * sizeof(std::int32_t));  // the new pages are writable
    CHECK(a.resize_in_place(n));  // back: the prefix stays
    memory::copy_to_host(back.data(), a.data(), n * sizeof(std::int32_t));
    CHECK(back == host);
  }
  CHECK(a.size() == n);
  array<std::int32_t, device_space> small(16);
  CHECK_FALSE(small.resize_in_place(32));  // a small block is malloc's: never remapped
  CHECK(small.size() == 16);
  memory::set_limit_for_testing(memory::bytes_in_use() + 1024);
  CHECK_FALSE(a.resize_in_place(2 * n));  // past a test limit: refused, nothing changed
  memory::set_limit_for_testing(0);
  CHECK(a.size() == n);
  a = {};
  small = {};
  CHECK(memory::bytes_in_use() == used);
}
