// SpMM (storage/spmm.hpp): the device twin (OpenMP in the CPU build, the binned CUDA kernels in the
// CUDA build) and the reference twin against an independent product computed here from CSR copies
// with std::map, for every semiring SpMM is built for; fragmented DCSR, packed DCSR and CSR operands;
// masked products; rows whose product counts fall in every CUDA bin; empty rows and matrices; a run
// sliced by a tiny workspace; out-of-memory with the inputs left as they were.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/memory.hpp"
#include "core/semiring.hpp"
#include "tests/format_support.hpp"
#include "tests/support.hpp"
#include "storage/detail/spmm_kernels.hpp"
#include "storage/spmm.hpp"

namespace {
using namespace fg;
using fg::test::random_csr;
using fg::test::shape;
using cell_map = std::map<std::pair<vertex_t, vertex_t>, double>;

// Independent product: (r, c) -> value, with a tolerance bound (sum of |a||b|) per cell.
template <class Sr, class V>
cell_map oracle(const csr_matrix<V, host_space>& A, const csr_matrix<V, host_space>& B, const cell_map* mask,
                cell_map* bound) {
  using T = typename Sr::value_type;
  std::map<std::pair<vertex_t, vertex_t>, T> acc;
  for (vertex_t r = 0; r < A.rows; ++r)
    for (offset_t j = A.row_ptr[r]; j < A.row_ptr[r + 1]; ++j) {
      const vertex_t k = A.col[j];
      const T a = value_or<V>(A.val.data(), j, Sr::pattern_value());
      for (offset_t q = B.row_ptr[k]; q < B.row_ptr[k + 1]; ++q) {
        const T b = value_or<V>(B.val.data(), q, Sr::pattern_value());
        const auto key = std::make_pair(r, B.col[q]);
        auto it = acc.find(key);
        if (it == acc.end()) acc.emplace(key, Sr::mul(a, b));
        else it->second = Sr::add(it->second, Sr::mul(a, b));
        (*bound)[key] += std::fabs(double(a) * double(b));
      }
    }
  cell_map out;
  for (const auto& [key, v] : acc)
    if (mask == nullptr || !mask->count(key)) out[key] = double(v);
  return out;
}

template <class V, class S>
cell_map cells(const dcsr_matrix<V, S>& C) {
  const auto coo = C.to_coo();
  const auto r = to_vector(coo.row), c = to_vector(coo.col);
  std::vector<stored_t<V>> v;
  if constexpr (!is_pattern_v<V>) v = to_vector(coo.val);
  cell_map m;
  std::size_t repeats = 0;
  for (std::size_t e = 0; e < coo.nnz; ++e)
    repeats += m.emplace(std::make_pair(r[e], c[e]), is_pattern_v<V> ? 1.0 : double(v[e])).second ? 0 : 1;
  REQUIRE(repeats == 0);  // one entry per cell
  return m;
}

// One REQUIRE per comparison (not per cell: doctest's bookkeeping would dominate), naming the
// first cell that differs.
template <class Sr>
void require_cells(const cell_map& got, const cell_map& want, const cell_map& bound) {
  REQUIRE(got.size() == want.size());
  const double eps = std::is_same_v<typename Sr::value_type, float> ? 1e-5 : 1e-12;
  std::string first_bad;
  for (const auto& [key, w] : want) {
    auto it = got.find(key);
    bool ok = it != got.end();
    if (ok && !std::is_same_v<Sr, or_and>) {
      if constexpr (std::is_same_v<Sr, plus_times<typename Sr::value_type>>)
        ok = std::fabs(it->second - w) <= eps * bound.at(key) + 1e-30;
      else
        ok = it->second == w;  // min-plus: exact
    }
    if (!ok) {
      first_bad = "cell (" + std::to_string(key.first) + ", " + std::to_string(key.second) + "): want " +
                  std::to_string(w) + ", got " + (it == got.end() ? std::string("none") : std::to_string(it->second));
      break;
    }
  }
  CAPTURE(first_bad);
  REQUIRE(first_bad.empty());
}

// A DCSR copy of a host CSR in space S, built from three batches so rows span several segments.
template <class S, class V>
dcsr_matrix<V, S> fragmented(const csr_matrix<V, host_space>& h) {
  dcsr_config cfg;
  cfg.square = false;
  cfg.dups = duplicates::accumulate;
  cfg.max_segments = 4;
  cfg.alpha = 1;
  dcsr_matrix<V, S> m(cfg);
  m.resize(h.rows, h.cols);
  for (int part = 0; part < 3; ++part) {
    std::vector<vertex_t> r, c;
    std::vector<stored_t<V>> v;
    for (vertex_t row = 0; row < h.rows; ++row)
      for (offset_t e = h.row_ptr[row] + part; e < h.row_ptr[row + 1]; e += 3) {
        r.push_back(row);
        c.push_back(h.col[e]);
        if constexpr (!is_pattern_v<V>) v.push_back(h.val[e]);
      }
    m.insert_batch(make_coo<V, S>(r, c, v));
  }
  return m;
}

// Runs C = A.B (masked when M is given) in both spaces, with DCSR (fragmented) and CSR operands, and
// checks each against the oracle. Returns the reference result's cells.
template <class Sr, class V>
cell_map check_product(const char* what, const csr_matrix<V, host_space>& A, const csr_matrix<V, host_space>& B,
                       const csr_matrix<pattern, host_space>* M = nullptr, const spmm_options& opt = {}) {
  CAPTURE(what);
  CAPTURE(Sr::name);
  cell_map mask, bound;
  if (M != nullptr)
    for (vertex_t r = 0; r < M->rows; ++r)
      for (offset_t j = M->row_ptr[r]; j < M->row_ptr[r + 1]; ++j) mask[{r, M->col[j]}] = 1;
  const cell_map want = oracle<Sr>(A, B, M != nullptr ? &mask : nullptr, &bound);
  cell_map ref;
  auto run = [&](auto space) {
    using S = decltype(space);
    const auto Ad = fragmented<S>(A), Bd = fragmented<S>(B);
    const auto Ac = test::csr_in<S>(A), Bc = test::csr_in<S>(B);
    spmm_stats st;
    if (M == nullptr) {
      const auto C1 = spmm<Sr>(Ad, Bd, opt, &st);
      C1.validate();
      REQUIRE(C1.rows() == A.rows);
      REQUIRE(C1.cols() >= B.cols);
      require_cells<Sr>(cells(C1), want, bound);
      require_cells<Sr>(cells(spmm<Sr>(Ac, Bc, opt)), want, bound);
      require_cells<Sr>(cells(spmm<Sr>(Ad, Bc, opt)), want, bound);
      if (std::is_same_v<S, host_space>) ref = cells(C1);
    } else {
      const auto Md = fragmented<S>(*M);
      const auto C1 = spmm_masked<Sr>(Ad, Bd, Md, opt, &st);
      C1.validate();
      require_cells<Sr>(cells(C1), want, bound);
      require_cells<Sr>(cells(spmm_masked<Sr>(Ac, Bc, test::csr_in<S>(*M), opt)), want, bound);
      if (std::is_same_v<S, host_space>) ref = cells(C1);
    }
    REQUIRE(st.entries == offset_t(want.size()));
  };
  run(host_space{});
  run(device_space{});
  return ref;
}

template <class Sr, class V>
void random_products() {
  std::uint64_t seed = 100;
  for (vertex_t n : {1, 31, 33, 257, 1025})
    for (shape s : {shape::uniform, shape::power_law, shape::empty_rows, shape::one_huge_row}) {
      const std::string what = "n=" + std::to_string(n) + " shape=" + std::to_string(int(s));
      const auto A = random_csr<V>(++seed, n, n + 2, std::size_t(n) * 4, s);
      const auto B = random_csr<V>(++seed, n + 2, n + 5, std::size_t(n) * 3, shape::uniform);
      check_product<Sr>(what.c_str(), A, B);
      const auto M = random_csr<pattern>(++seed, n, n + 5, std::size_t(n) * 6, shape::uniform);
      check_product<Sr>((what + " masked").c_str(), A, B, &M);
    }
}
}  // namespace

TEST_CASE("spmm of every semiring matches an independent product on random matrices, masked and not") {
  random_products<or_and, pattern>();
  random_products<plus_times<float>, float>();
  random_products<plus_times<double>, double>();
  random_products<plus_times<double>, pattern>();
  random_products<min_plus<double>, double>();
}

TEST_CASE("spmm rows fall in every CUDA bin: 1..32, 33..64, ..., 1025..2048, 2049+ products (16385+ unmasked)") {
  // B: 4096 rows of one entry each (column j % 600 for row j, so products collide and reduce);
  // A's row i has a chosen number of entries: exactly that many products.
  const std::vector<offset_t> counts = {0, 1, 2, 8, 9, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257,
                                        511, 512, 513, 1023, 1024, 1025, 2047, 2048, 2049, 4000,
                                        4096, 4097, 8192, 8193, 16384, 16385, 17000};
  std::vector<std::vector<vertex_t>> arows, brows(4096);
  for (std::size_t j = 0; j < brows.size(); ++j) brows[j] = {vertex_t(j % 600)};
  std::mt19937 g(7);
  for (offset_t c : counts) {
    std::vector<vertex_t> r;
    for (offset_t e = 0; e < c; ++e) r.push_back(vertex_t(g() % 4096));
    arows.push_back(r);
  }
  for (offset_t c : counts) REQUIRE(detail::spmm_bin(c) == (c == 0 ? 0 : c <= 32 ? 1 : c <= 64 ? 2 : c <= 128 ? 3 : c <= 256 ? 4 : c <= 512 ? 5 : c <= 1024 ? 6 : c <= 2048 ? 7 : 8));
  // Unmasked: B's rows hold one entry, so a row's products are its entries.
  const std::vector<offset_t> caps = {0, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384};  // bin b takes <= caps[b]
  for (offset_t c : counts)
    REQUIRE(detail::spmm_hash_bin(c, c) == int(std::lower_bound(caps.begin(), caps.end(), c) - caps.begin()));
  REQUIRE(detail::spmm_hash_bin(3, 40) == 4);  // few products, many entries: not a lane group's row
  const auto A = test::csr_from_rows<double>(4096, arows), B = test::csr_from_rows<double>(600, brows);
  check_product<plus_times<double>>("binned doubles", A, B);
  const auto Ap = test::csr_from_rows<pattern>(4096, arows), Bp = test::csr_from_rows<pattern>(600, brows);
  check_product<or_and>("binned pattern", Ap, Bp);
  const auto M = random_csr<pattern>(9, vertex_t(counts.size()), 600, 3000, shape::uniform);
  check_product<or_and>("binned pattern masked", Ap, Bp, &M);
  check_product<min_plus<double>>("binned min-plus masked", A, B, &M);
  check_product<min_plus<double>>("binned min-plus", A, B);
  // Unmasked rows reduce in hash tables: B2's rows are distinct columns, so a row's columns are
  // nearly all distinct (full tables, and more than a block's counting sort takes: the bitonic path).
  std::vector<std::vector<vertex_t>> distinct(4096);
  for (std::size_t j = 0; j < distinct.size(); ++j) distinct[j] = {vertex_t(j), vertex_t((j * 7 + 1) % 4096)};
  const auto B2 = test::csr_from_rows<float>(4096, distinct);
  check_product<plus_times<float>>("binned distinct floats", test::csr_from_rows<float>(4096, arows), B2);
  // Long rows of few distinct columns (at most 90: the CUDA warp tables of 128 slots keep every
  // row of 33-512 products), and rows past them (up to 120 columns: a row stops once it has more
  // than 96 and is made again with a table of 512 slots).
  for (vertex_t distinct_cols : {90, 120}) {
    std::vector<std::vector<vertex_t>> narrow(4096);
    for (std::size_t j = 0; j < narrow.size(); ++j) narrow[j] = {vertex_t(j % std::size_t(distinct_cols))};
    check_product<plus_times<double>>("binned few distinct doubles", A, test::csr_from_rows<double>(600, narrow));
    check_product<min_plus<double>>("binned few distinct min-plus", A, test::csr_from_rows<double>(600, narrow));
    check_product<or_and>("binned few distinct pattern", Ap, test::csr_from_rows<pattern>(600, narrow));
  }
  // Few products but many entries of A (most reach empty rows of B): not the lane groups' rows.
  std::vector<std::vector<vertex_t>> sparse_b(4096);
  for (std::size_t j = 0; j < sparse_b.size(); j += 97) sparse_b[j] = {vertex_t(j % 600)};
  check_product<plus_times<double>>("few products, many entries", A, test::csr_from_rows<double>(600, sparse_b));
}

TEST_CASE("spmm block rows, tables sized by their columns first: kept, given up, 16385+ products") {
  // The CUDA build's first try (storage/cuda/spmm_block_rows.cuh). Rows of
  // 1025 .. 40000 products over B rows of one entry (at most 600 distinct columns: every row keeps
  // its first table of 2048 slots, the 16385+ ones too) or of two (up to 4096 distinct: rows past
  // ~770 entries give up at 1536 and are made again by their bin's table or the global path).
  const std::vector<offset_t> counts = {3, 40, 600, 1025, 2047, 2049, 4000, 4097, 8192, 8193, 16384, 16385, 17000, 40000};
  std::vector<std::vector<vertex_t>> arows, narrow(4096), wide(4096);
  for (std::size_t j = 0; j < narrow.size(); ++j) narrow[j] = {vertex_t(j % 600)};
  for (std::size_t j = 0; j < wide.size(); ++j) wide[j] = {vertex_t(j), vertex_t((j * 7 + 1) % 4096)};
  std::mt19937 g(17);
  for (offset_t c : counts) {
    std::vector<vertex_t> r;
    for (offset_t e = 0; e < c; ++e) r.push_back(vertex_t(g() % 4096));
    arows.push_back(r);
  }
  const auto A = test::csr_from_rows<double>(4096, arows);
  const auto Ap = test::csr_from_rows<pattern>(4096, arows);
  check_product<plus_times<double>>("first tables kept", A, test::csr_from_rows<double>(600, narrow));
  check_product<min_plus<double>>("first tables kept, min-plus", A, test::csr_from_rows<double>(600, narrow));
  check_product<or_and>("first tables kept, pattern", Ap, test::csr_from_rows<pattern>(600, narrow));
  check_product<plus_times<float>>("first tables given up", test::csr_from_rows<float>(4096, arows),
                                   test::csr_from_rows<float>(4096, wide));
  check_product<or_and>("first tables given up, pattern", Ap, test::csr_from_rows<pattern>(4096, wide));
}

TEST_CASE("spmm sums are the same bits every run, and for packed DCSR or CSR operands (float, rows kept or redone)") {
  // Values whose float sums depend on their order; rows of 33-512 products with 90 or 120 distinct
  // columns (the CUDA warp tables keep the first, give the second up part way and redo them).
  std::mt19937 g(11);
  for (vertex_t distinct_cols : {90, 120}) {
    std::vector<std::vector<vertex_t>> arows, brows(4096);
    for (std::size_t j = 0; j < brows.size(); ++j) brows[j] = {vertex_t(j % std::size_t(distinct_cols))};
    for (int i = 0; i < 300; ++i) {
      std::vector<vertex_t> r(std::size_t(33 + g() % 480));
      for (vertex_t& c : r) c = vertex_t(g() % 4096);
      arows.push_back(r);
    }
    auto A = test::csr_from_rows<float>(4096, arows), B = test::csr_from_rows<float>(600, brows);
    for (auto* M : {&A, &B})
      for (std::size_t j = 0; j < M->val.size(); ++j) M->val[j] = 1.0f / float(3 + g() % 1000);
    // Packed DCSR operands keep CSR's entry order (a fragmented store's may differ, and with it the
    // order of the sums); each kind must also repeat itself.
    const auto Ac = test::csr_in<device_space>(A), Bc = test::csr_in<device_space>(B);
    const auto Ad = dcsr_matrix<float, device_space>::from_csr(Ac), Bd = dcsr_matrix<float, device_space>::from_csr(Bc);
    const auto Af = fragmented<device_space>(A), Bf = fragmented<device_space>(B);
    const cell_map first = cells(spmm<plus_times<float>>(Ad, Bd));
    REQUIRE(cells(spmm<plus_times<float>>(Ad, Bd)) == first);
    REQUIRE(cells(spmm<plus_times<float>>(Ac, Bc)) == first);
    REQUIRE(cells(spmm<plus_times<float>>(Ad, Bc)) == first);
    const cell_map frag = cells(spmm<plus_times<float>>(Af, Bf));
    REQUIRE(cells(spmm<plus_times<float>>(Af, Bf)) == frag);
#if !defined(FG_WITH_CUDA)
    // The CPU build's hash rows add a column's products in input order, as the reference twin's
    // stable sort does: the same bits (the CUDA tables add in another order).
    const auto Ah = test::csr_in<host_space>(A), Bh = test::csr_in<host_space>(B);
    REQUIRE(cells(spmm<plus_times<float>>(Ah, Bh)) == first);
#endif
  }
}

TEST_CASE("spmm on empty matrices, empty rows and rows of A that reach only empty rows of B") {
  const auto E = random_csr<double>(1, 0, 0, 0, shape::uniform);
  check_product<plus_times<double>>("0x0 times 0x0", E, E);
  const auto Z = test::csr_from_rows<double>(4, {{}, {}, {}});
  const auto B = test::csr_from_rows<double>(5, {{0, 1}, {}, {4}, {}});
  check_product<plus_times<double>>("3x4 without entries", Z, B);
  const auto A = test::csr_from_rows<double>(4, {{1, 3}, {}, {1, 1, 3}, {0, 2}});
  check_product<plus_times<double>>("only empty rows of B, then some", A, B);
  check_product<plus_times<double>>("B without entries", A, test::csr_from_rows<double>(5, {{}, {}, {}, {}}));
  // A mask that removes everything.
  const auto Ap = test::csr_from_rows<pattern>(4, {{0, 2}, {2}, {}});
  const auto Bp = test::csr_from_rows<pattern>(5, {{0, 1}, {}, {4}, {}});
  const auto all = test::csr_from_rows<pattern>(5, {{0, 1, 4}, {4}, {}});
  CHECK(check_product<or_and>("masked to nothing", Ap, Bp, &all).empty());
}

TEST_CASE("spmm sliced by a tiny workspace equals the unsliced product; a row that cannot fit throws") {
  const auto A = random_csr<pattern>(21, 300, 300, 3000, shape::uniform);
  const auto B = random_csr<pattern>(22, 300, 300, 3000, shape::uniform);
  const auto M = random_csr<pattern>(23, 300, 300, 9000, shape::uniform);
  auto run = [&](auto space) {
    using S = decltype(space);
    const auto Ad = fragmented<S>(A), Bd = fragmented<S>(B), Md = fragmented<S>(M);
    spmm_stats whole, sliced;
    const auto C = spmm_masked<or_and>(Ad, Bd, Md, {}, &whole);
    spmm_options tiny;
    tiny.workspace_bytes = 50000;  // a few rows' products (about 100 each, 40 bytes a product)
    const auto D = spmm_masked<or_and>(Ad, Bd, Md, tiny, &sliced);
    CHECK(whole.slices == 1);
    CHECK(sliced.slices > 3);
    CHECK(cells(C) == cells(D));
    D.validate();
    spmm_options hopeless;
    hopeless.workspace_bytes = 1000;
    try {
      (void)spmm<or_and>(Ad, Bd, hopeless);
      FAIL("expected out_of_memory");
    } catch (const out_of_memory& e) {
      CHECK(std::string(e.what()).find("alone has") != std::string::npos);
    }
  };
  run(host_space{});
  run(device_space{});
}

TEST_CASE("spmm_product keeps a one-slice result in its workspace: the same cells as packed, rows with room, inserts land") {
  const auto A = random_csr<double>(31, 400, 300, 2400, shape::power_law);
  const auto B = random_csr<double>(32, 300, 350, 2100, shape::uniform);
  auto run = [&](auto space) {
    using S = decltype(space);
    const auto Ad = fragmented<S>(A), Bd = fragmented<S>(B);
    spmm_options keep, pack;
    keep.keep_workspace = 1e9;  // always kept
    pack.keep_workspace = 0;    // always packed
    spmm_stats st;
    auto K = spmm<plus_times<double>>(Ad, Bd, keep, &st);
    const auto P = spmm<plus_times<double>>(Ad, Bd, pack);
    K.validate();
    CHECK(K.nnz() == P.nnz());
    CHECK(K.capacity() == st.products);  // the workspace: a slot per partial product
    CHECK(P.capacity() == P.nnz());
    CHECK(st.products > st.entries);     // so some row has room to spare
    // The same cells; values to rounding (the CUDA hash tables may sum a cell's products in another
    // order from one run to the next).
    auto same = [](const cell_map& got, const cell_map& want) {
      if (got.size() != want.size()) return false;
      for (const auto& [key, w] : want) {
        const auto it = got.find(key);
        if (it == got.end() || std::fabs(it->second - w) > 1e-12 * (1 + std::fabs(w))) return false;
      }
      return true;
    };
    CHECK(same(cells(K), cells(P)));
    // A row of the kept store grows into its room: an entry in a cell A x B leaves empty.
    auto want = cells(P);
    vertex_t c = 349;
    while (want.count({0, c})) --c;
    K.insert_batch(make_coo<double, S>({0}, {c}, {1.5}));
    K.validate();
    want[{0, c}] = 1.5;
    CHECK(same(cells(K), want));
  };
  run(host_space{});
  run(device_space{});
}

TEST_CASE("spmm: a row past the default workspace cap (64 MiB in the CPU build) gets a slice of its own") {
  // Row 1 of A holds 2000 entries whose rows of B hold ~970 each: 1.9e6 products, about 77 MB of
  // workspace. Rows 0 and 2 are small, so the slices around the big row are ordinary.
  const vertex_t n = 4096;
  std::mt19937 g(5);
  std::vector<vertex_t> ar, ac, br, bc;
  for (vertex_t j = 0; j < 2000; ++j) ar.push_back(1), ac.push_back(j);
  ar.insert(ar.end(), {0, 2}), ac.insert(ac.end(), {7, 9});
  std::set<vertex_t> row1;
  std::vector<std::set<vertex_t>> brow(2000);  // B's rows as stored: repeats collapse
  offset_t products = 0;
  for (vertex_t r = 0; r < 2000; ++r) {
    for (int j = 0; j < 1100; ++j) {
      const auto c = vertex_t(g() % std::uint32_t(n));
      br.push_back(r), bc.push_back(c);
      brow[std::size_t(r)].insert(c);
      row1.insert(c);
    }
    products += offset_t(brow[std::size_t(r)].size());
  }
  products += offset_t(brow[7].size() + brow[9].size());
  REQUIRE(products > 1900000);
  auto run = [&](auto space) {
    using S = decltype(space);
    const auto A = dcsr_matrix<pattern, S>::from_coo(make_coo<pattern, S>(ar, ac), n, n);
    const auto B = dcsr_matrix<pattern, S>::from_coo(make_coo<pattern, S>(br, bc), n, n);
    spmm_stats st;
    const auto C = spmm<or_and>(A, B, {}, &st);
    CHECK(st.products == products);
    const csr_matrix<pattern, S> c = C.to_csr();
    const auto rp = to_vector(c.row_ptr);
    const auto col = to_vector(c.col);
    CHECK(std::set<vertex_t>(col.begin() + rp[1], col.begin() + rp[2]) == row1);
    CHECK(rp[1] - rp[0] == offset_t(brow[7].size()));
    CHECK(rp[3] - rp[2] == offset_t(brow[9].size()));
  };
  run(host_space{});
  run(device_space{});
}

TEST_CASE("spmm out of device memory throws fg::out_of_memory and leaves the operands unchanged") {
  const auto A = random_csr<float>(31, 2000, 2000, 40000, shape::uniform);
  auto Ad = fragmented<device_space>(A);
  const auto before = test::cells_of(Ad);
  const std::size_t used = memory::bytes_in_use();
  bool threw = false;
  for (std::size_t extra : {std::size_t(1000), std::size_t(200000), std::size_t(2000000)}) {
    memory::set_limit_for_testing(used + extra);
    try {
      (void)spmm<plus_times<float>>(Ad, Ad);
    } catch (const out_of_memory&) {
      threw = true;
    }
    memory::set_limit_for_testing(0);
    CHECK(memory::bytes_in_use() == used);  // nothing leaked
  }
  CHECK(threw);
  Ad.validate();
  CHECK(test::cells_of(Ad) == before);
  CHECK(spmm<plus_times<float>>(Ad, Ad).nnz() > 0);  // and it works once memory is back
}

TEST_CASE("memory: the free-memory estimate between queries, and under a test limit") {
  // aged_free: what the process took since the query came out of the free memory; what it gave
  // back (to the pool or the heap) is free again; never below zero.
  CHECK(memory::aged_free(1000, 100, 300) == 800);
  CHECK(memory::aged_free(1000, 300, 100) == 1200);
  CHECK(memory::aged_free(1000, 300, 300) == 1000);
  CHECK(memory::aged_free(100, 0, 500) == 0);
  // A test limit caps the estimate exactly, whether or not the last query is still fresh.
  const std::size_t used = memory::bytes_in_use();
  memory::set_limit_for_testing(used + 5000);
  CHECK(memory::available_bytes() <= 5000);
  {
    const array<std::uint8_t, device_space> block(3000);
    CHECK(memory::available_bytes() <= 2000);
  }
  CHECK(memory::available_bytes() <= 5000);
  memory::set_limit_for_testing(0);
  CHECK(memory::available_bytes() > 5000);
}

TEST_CASE("memory: small blocks freed and taken again keep their bytes' accounting and their data") {
  // The CUDA build keeps freed blocks of at most 1 MiB on the host and hands them out again; the
  // counters and the copies must not see the difference, in either build.
  const std::size_t used = memory::bytes_in_use();
  std::vector<int> want(700);
  for (std::size_t i = 0; i < want.size(); ++i) want[i] = int(i * 7 + 1);
  for (int round = 0; round < 3; ++round) {
    array<int, device_space> a(want.size());
    CHECK(memory::bytes_in_use() == used + want.size() * sizeof(int));
    memory::copy_to_device(a.data(), want.data(), want.size() * sizeof(int));
    array<int, device_space> b(100 + std::size_t(round));  // another class; a and b are taken again next round
    memory::copy_on_device(b.data(), a.data(), b.bytes());
    std::vector<int> got(b.size());
    memory::copy_to_host(got.data(), b.data(), b.bytes());  // a small read: the pinned path
    CHECK(std::equal(got.begin(), got.end(), want.begin()));
    CHECK(to_vector(a) == want);  // 2800 bytes: also under the small-read size
  }
  CHECK(memory::bytes_in_use() == used);
  // A read larger than the small-read buffer takes the plain copy.
  std::vector<int> big(5000);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = int(i) - 77;
  const array<int, device_space> c = to_space<device_space>(big);
  CHECK(to_vector(c) == big);
  // A test limit still counts requested bytes, whatever block the request was served from.
  memory::set_limit_for_testing(memory::bytes_in_use() + 4000);
  using ints = array<int, device_space>;
  CHECK_THROWS_AS(ints(2000), out_of_memory);  // 8000 bytes
  { const array<int, device_space> fits(900); }
  memory::set_limit_for_testing(0);
  CHECK(memory::bytes_in_use() == used + c.bytes());
}

TEST_CASE("spmm on real graphs: R x R of road and P2P networks, or-and and path counts") {
  for (const char* g : {"TG.cedge.data_23874.txt", "p2p-Gnutella04.data_39994.txt.gz"}) {
    const std::string path = std::string(FG_TEST_DATA_DIR) + "/pagerank/graphs/" + g;
    const auto R = test::graph_csr<pattern>(path);
    check_product<or_and>(g, R, R);
    check_product<plus_times<double>>(g, R, R);
    check_product<or_and>((std::string(g) + " masked by R").c_str(), R, R, &R);
  }
}

TEST_CASE("append_sorted: a sorted new batch lands like insert_batch; an unsorted one is refused") {
  auto run = [](auto space) {
    using S = decltype(space);
    dcsr_matrix<pattern, S> a, b;
    const std::vector<vertex_t> r1 = {0, 0, 2, 5}, c1 = {1, 3, 2, 0}, r2 = {0, 3, 5}, c2 = {2, 3, 4};
    a.insert_batch(make_coo<pattern, S>(r1, c1));
    b.insert_batch(make_coo<pattern, S>(r1, c1));
    a.insert_batch(make_coo<pattern, S>(r2, c2));
    b.append_sorted(make_coo<pattern, S>(r2, c2));
    b.validate();
    test::require_identical(a, b);
    const std::vector<vertex_t> bad_r = {1, 0}, bad_c = {0, 0}, rep_r = {4, 4}, rep_c = {1, 1};
    CHECK_THROWS_AS(b.append_sorted(make_coo<pattern, S>(bad_r, bad_c)), invalid_argument);
    CHECK_THROWS_AS(b.append_sorted(make_coo<pattern, S>(rep_r, rep_c)), invalid_argument);
    test::require_identical(a, b);
  };
  run(host_space{});
  run(device_space{});
}
