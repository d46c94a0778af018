// Device steps of the bit-row inclusion solver (algorithms/detail/pointsto_bits.hpp). Row-wise
// work runs one thread per (row, word), so a warp reads 128 consecutive bytes of a row; the OR of a
// node's predecessors is a loop in that thread, which needs no atomics (a level's rows are written
// by their own threads only).
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
  } else {
    call_edges(t.calls, std::size_t(a), o, emit);
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

void pull_level(word* rows, std::size_t words, const vertex_t* nodes, std::size_t count, const offset_t* pred_ptr,
                const vertex_t* preds) {
  parallel_for(std::int64_t(count * words), FG_LAMBDA(std::int64_t t) {
    const std::size_t i = std::size_t(t) / words, w = std::size_t(t) % words;
    word* dst = rows + std::size_t(nodes[i]) * words + w;
    word acc = *dst;
    for (offset_t j = pred_ptr[i]; j < pred_ptr[i + 1]; ++j) acc |= rows[std::size_t(preds[j]) * words + w];
    *dst = acc;
  });
}

bool take_deltas(const word* rows, std::size_t words, const vertex_t* slot_row, std::size_t slots, word* ran, word* delta) {
  if (slots == 0) return false;
  return thrust::transform_reduce(
             policy(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(slots * words),
             FG_LAMBDA(std::size_t t) {
               const std::size_t s = t / words, w = t % words;
               const word d = rows[std::size_t(slot_row[s]) * words + w] & ~ran[t];
               ran[t] |= d;
               delta[t] = d;
               return int(d != 0);
             },
             0, thrust::maximum<int>()) != 0;
}

void gather_rows(const word* rows, std::size_t words, const vertex_t* idx, std::size_t m, word* out) {
  parallel_for(std::int64_t(m * words), FG_LAMBDA(std::int64_t t) {
    out[t] = rows[std::size_t(idx[std::size_t(t) / words]) * words + std::size_t(t) % words];
  });
}

offset_t count_edges(const units_view& u, const tables_view& t, const word* delta, std::size_t words) {
  if (u.count == 0) return 0;
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(u.count),
      FG_LAMBDA(std::size_t i) {
        const word* d = delta + std::size_t(u.slot[i]) * words;
        offset_t c = 0;
        if (u.kind[i] == load || (u.kind[i] == store && t.fields.identity[u.family[i]])) {
          for (std::size_t w = 0; w < words; ++w) c += popcount(d[w]);
        } else {
          for (std::size_t w = 0; w < words; ++w)
            each_bit(d[w], w, t.object_of, [&](vertex_t o) { unit_edges(u, t, i, o, [&](vertex_t, vertex_t) { ++c; }); });
        }
        return c;
      },
      offset_t(0), thrust::plus<offset_t>());
}

std::size_t emit_edges(const units_view& u, const tables_view& t, const word* delta, std::size_t words, std::uint64_t* keys) {
  array<std::uint64_t, device_space> counter(1);
  zero(counter);
  std::uint64_t* n = counter.data();
  parallel_for(std::int64_t(u.count * words), FG_LAMBDA(std::int64_t k) {
    const std::size_t i = std::size_t(k) / words, w = std::size_t(k) % words;
    const word d = delta[std::size_t(u.slot[i]) * words + w];
    if (d == 0) return;
    each_bit(d, w, t.object_of, [&](vertex_t o) {
      unit_edges(u, t, i, o, [&](vertex_t a, vertex_t b) {
        a = t.rep[a], b = t.rep[b];
        if (a != b) keys[atomic::fetch_add_shared(n, std::uint64_t(1))] = std::uint64_t(std::uint32_t(a)) << 32 | std::uint32_t(b);
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
  const std::size_t distinct = std::size_t(thrust::unique(policy(), keys.data(), keys.data() + m) - keys.data());
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
