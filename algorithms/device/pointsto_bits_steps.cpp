// Device steps of the bit-row inclusion solver (algorithms/detail/pointsto_bits.hpp). Row-wise
// work runs one thread per (row or edge, word), so a warp reads 128 consecutive bytes of a row.
#include "algorithms/detail/pointsto_bits.hpp"

#include <thrust/merge.h>
#include <thrust/set_operations.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

#include "core/atomics.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail::bits {

namespace {
// emit(a, b) for each edge unit i makes from object o (the rules of pointsto.hpp).
template <class Emit>
FG_HD inline void unit_edges(const units_view& u, const tables_view& t, std::size_t i, vertex_t o, Emit&& emit) {
  const vertex_t a = u.arg[i];
  if (u.kind[i] == load) {
    emit(o, a);
  } else if (u.kind[i] == store) {
    store_edges(t.fields, std::size_t(u.family[i]), a, o, emit);
  } else if (u.kind[i] == call) {
    call_edges(t.calls, std::size_t(a), o, emit);
  } else {
    const matched_view& m = t.matched;
    for (offset_t j = m.ptr[o]; j < m.ptr[o + 1]; ++j)
      if (m.idx[j] == vertex_t(u.family[i])) emit(m.src[j], a);
  }
}

// f(object) for every bit of x, the word at `w` of a row.
template <class F>
FG_HD inline void each_bit(word x, std::size_t w, const vertex_t* object_of, F&& f) {
  while (x != 0) {
    const int b = lowest_bit(x);
    x &= x - 1;
    f(object_of[w * 32 + std::size_t(b)]);
  }
}
}  // namespace

void set_bits(word* rows, std::size_t words, const vertex_t* node, const vertex_t* bit, std::size_t m) {
  parallel_for(std::int64_t(m), FG_LAMBDA(std::int64_t i) {
    atomic::fetch_or(rows + std::size_t(node[i]) * words + std::size_t(bit[i]) / 32, word(1) << (bit[i] % 32));
  });
}

void or_rows(word* rows, std::size_t words, const vertex_t* into, const vertex_t* from, std::size_t m) {
  parallel_for(std::int64_t(m * words), FG_LAMBDA(std::int64_t t) {
    const std::size_t i = std::size_t(t) / words, w = std::size_t(t) % words;
    const word x = rows[std::size_t(from[i]) * words + w];
    if (x != 0) atomic::fetch_or(rows + std::size_t(into[i]) * words + w, x);
  });
}

void push_edges(word* rows, std::size_t words, const vertex_t* src, const vertex_t* dst, std::size_t m) {
  parallel_for(std::int64_t(m * words), FG_LAMBDA(std::int64_t t) {
    const std::size_t i = std::size_t(t) / words, w = std::size_t(t) % words;
    const word x = rows[std::size_t(src[i]) * words + w];
    word* to = rows + std::size_t(dst[i]) * words + w;
    if ((x & ~atomic::load(to)) != 0) atomic::fetch_or(to, x);  // most words hold their bits already
  });
}

bool take_deltas(const word* rows, std::size_t words, const vertex_t* slot_row, std::size_t slots, word* ran, word* delta,
                 std::uint8_t* active) {
  if (slots == 0) return false;
  return thrust::transform_reduce(
             policy(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(slots * words),
             FG_LAMBDA(std::size_t t) {
               const std::size_t s = t / words, w = t % words;
               const word d = rows[std::size_t(slot_row[s]) * words + w] & ~ran[t];
               ran[t] |= d;
               delta[t] = d;
               if (d != 0) active[s] = 1;  // the same value from every word: no atomics
               return int(d != 0);
             },
             0, thrust::maximum<int>()) != 0;
}

void gather_rows(const word* rows, std::size_t words, const vertex_t* idx, std::size_t m, word* out) {
  parallel_for(std::int64_t(m * words), FG_LAMBDA(std::int64_t t) {
    out[t] = rows[std::size_t(idx[std::size_t(t) / words]) * words + std::size_t(t) % words];
  });
}

// How many edges unit i makes from the objects of d, its delta's word at w (self-loops included).
FG_HD inline offset_t word_edges(const units_view& u, const tables_view& t, std::size_t i, word d, std::size_t w) {
  if (d == 0) return 0;
  if (u.kind[i] == load || (u.kind[i] == store && t.fields.identity[u.family[i]])) return offset_t(popcount(d));
  offset_t c = 0;
  each_bit(d, w, t.object_of, [&](vertex_t o) { unit_edges(u, t, i, o, [&](vertex_t, vertex_t) { ++c; }); });
  return c;
}

// One thread per (unit, word): a warp reads consecutive words of one delta row.
offset_t count_edges(const units_view& u, const tables_view& t, const word* delta, std::size_t words) {
  if (u.count == 0) return 0;
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(u.count * words),
      FG_LAMBDA(std::size_t k) {
        const std::size_t i = k / words, w = k % words;
        return word_edges(u, t, i, delta[std::size_t(u.slot[i]) * words + w], w);
      },
      offset_t(0), thrust::plus<offset_t>());
}

// Each thread takes room for its word's edges with one (warp-aggregated) atomic, then fills it;
// self-loops between representatives leave their places unused (marked ~0, dropped by the sort).
std::size_t emit_edges(const units_view& u, const tables_view& t, const word* delta, std::size_t words, std::uint64_t* keys) {
  array<std::uint64_t, device_space> counter(1);
  zero(counter);
  std::uint64_t* n = counter.data();
  parallel_for(std::int64_t(u.count * words), FG_LAMBDA(std::int64_t k) {
    const std::size_t i = std::size_t(k) / words, w = std::size_t(k) % words;
    const word d = delta[std::size_t(u.slot[i]) * words + w];
    const offset_t c = word_edges(u, t, i, d, w);
    if (c == 0) return;
    std::uint64_t at = atomic::fetch_add_shared(n, std::uint64_t(c));
    each_bit(d, w, t.object_of, [&](vertex_t o) {
      unit_edges(u, t, i, o, [&](vertex_t a, vertex_t b) {
        a = t.rep[a], b = t.rep[b];
        keys[at++] = a != b ? std::uint64_t(std::uint32_t(a)) << 32 | std::uint32_t(b) : ~std::uint64_t(0);
      });
    });
  });
  return std::size_t(to_vector(counter)[0]);
}

std::vector<std::uint64_t> fresh_edges(array<std::uint64_t, device_space>& keys, std::size_t m,
                                       array<std::uint64_t, device_space>& known) {
  if (m == 0) return {};
  claim_sort_scratch(m * sizeof(std::uint64_t));
  thrust::sort(policy(), keys.data(), keys.data() + m);
  std::size_t distinct = std::size_t(thrust::unique(policy(), keys.data(), keys.data() + m) - keys.data());
  if (distinct > 0 && read_many<device_space>(keys.data() + distinct - 1, 1)[0] == ~std::uint64_t(0)) --distinct;  // emit_edges' self-loops
  array<std::uint64_t, device_space> fresh(distinct);
  const std::size_t f = std::size_t(thrust::set_difference(policy(), keys.data(), keys.data() + distinct, known.data(),
                                                           known.data() + known.size(), fresh.data()) -
                                    fresh.data());
  if (f == 0) return {};
  array<std::uint64_t, device_space> merged(known.size() + f);
  thrust::merge(policy(), known.data(), known.data() + known.size(), fresh.data(), fresh.data() + f, merged.data());
  known = std::move(merged);
  std::vector<std::uint64_t> out = to_vector(fresh);
  out.resize(f);
  return out;
}

void row_sizes(const word* rows, std::size_t words, const vertex_t* rep, vertex_t n, offset_t* counts) {
  parallel_for(n, FG_LAMBDA(std::int64_t v) {
    const word* r = rows + std::size_t(rep[v]) * words;
    offset_t c = 0;
    for (std::size_t w = 0; w < words; ++w) c += popcount(r[w]);
    counts[v] = c;
  });
}

void row_objects(const word* rows, std::size_t words, const vertex_t* rep, const vertex_t* object_of, vertex_t n,
                 const offset_t* row_ptr, vertex_t* col) {
  parallel_for(n, FG_LAMBDA(std::int64_t v) {
    const word* r = rows + std::size_t(rep[v]) * words;
    offset_t at = row_ptr[v];
    for (std::size_t w = 0; w < words; ++w) each_bit(r[w], w, object_of, [&](vertex_t o) { col[at++] = o; });
  });
}

}  // namespace fg::detail::bits
