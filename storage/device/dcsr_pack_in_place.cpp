// Device twin of storage/reference/dcsr_pack_in_place.cpp: Algorithm 4's packing in the store's own
// buffer, for the compact footprint (dcsr_config::in_place). Packing into a second buffer holds
// both, 1.75x the resident bytes at its peak on rmat-22 (docs/performance.md, "The compact
// footprint"). After a pack the rows lie in row order; later batches add segments above that
// prefix. So each row's first segment, when it lies in the prefix, is moved in place: their
// destinations keep their order, so the entries that move down can go in ascending windows and
// those that move up in descending ones without overwriting an entry still to move (a window's own
// entries pass through a scratch window). The other entries (the tail: segments added since, rows
// moved whole) are copied out first and written last. Scratch: the tail, a bit for every prefix
// position with a rank for every 32, a window, and one offset a row.
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

#include <algorithm>

#include "core/atomics.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/detail/search.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = kernels<device_space>;

namespace {
constexpr offset_t move_window = offset_t(1) << 22;  // entries a window moves (16 MiB of columns)

FG_HD inline int bits_set(std::uint32_t w) {
#if defined(__CUDA_ARCH__)
  return __popc(w);
#else
  return __builtin_popcount(w);
#endif
}

/// Bits [b, e): a word inside the range is this piece's alone (a plain store); the end words may be
/// shared with the neighbouring pieces (an atomic or).
FG_HD inline void set_bits(std::uint32_t* bits, offset_t b, offset_t e) {
  while (b < e) {
    const offset_t w = b / 32, end = e < (w + 1) * 32 ? e : (w + 1) * 32;
    const int lo = int(b - w * 32), n = int(end - b);
    if (n == 32) bits[w] = ~0u;
    else atomic::fetch_or(bits + w, ((1u << n) - 1) << lo);
    b = end;
  }
}

/// Where the prefix entry at p goes: its rank among the prefix entries names its row (q: the
/// exclusive scan of the prefix pieces) and its place in it.
struct destination {
  const std::uint32_t* bits;
  const offset_t* rank;  // set bits in the words below
  const offset_t* q;
  const offset_t* row_ptr;
  vertex_t rows;
  FG_HD bool stored(offset_t p) const { return (bits[p / 32] >> (p % 32) & 1u) != 0; }
  FG_HD offset_t operator()(offset_t p) const {
    const offset_t w = p / 32;
    const int lo = int(p - w * 32);
    const offset_t k = rank[w] + (lo == 0 ? 0 : bits_set(bits[w] & ((1u << lo) - 1)));
    const std::int64_t r = last_not_greater(q, std::int64_t(rows) + 1, k);
    return row_ptr[r] + (k - q[r]);
  }
};

/// The prefix entries of [from, to) whose destination lies on the `down` side of them, moved there
/// through the scratch window.
template <class V>
void move_window_of(const dcsr_view<V>& A, const destination& d, offset_t from, offset_t to, bool down, vertex_t* cs,
                    stored_t<V>* vs) {
  auto moves = [=] FG_HD(offset_t p, offset_t& at) {
    if (!d.stored(p)) return false;
    at = d(p);
    return down ? at < p : at > p;
  };
  parallel_for(to - from, FG_LAMBDA(std::int64_t t) {
    offset_t at = 0;
    if (!moves(from + t, at)) return;
    cs[t] = A.col[from + t];
    copy_value<V>(vs, t, A.val, from + t);
  });
  parallel_for(to - from, FG_LAMBDA(std::int64_t t) {
    offset_t at = 0;
    if (!moves(from + t, at)) return;
    A.col[at] = cs[t];
    copy_value<V>(A.val, at, vs, t);
  });
}
}  // namespace

template <class V>
offset_t K::prefix_entries(const dcsr_view<V>& A, offset_t ordered_end) {
  return thrust::transform_reduce(
      policy(), thrust::counting_iterator<vertex_t>(0), thrust::counting_iterator<vertex_t>(A.rows),
      FG_LAMBDA(vertex_t r) { return prefix_piece(A, r, ordered_end); }, offset_t(0), thrust::plus<offset_t>());
}

template <class V>
void K::pack_in_place(const dcsr_view<V>& A, const offset_t* row_ptr, offset_t ordered_end, offset_t tail) {
  const vertex_t rows = A.rows;
  const offset_t words = (ordered_end + 31) / 32, window = std::min(std::max<offset_t>(words, 1) * 32, move_window);
  array<offset_t, device_space> scan{std::size_t(rows) + 1};
  array<vertex_t, device_space> tail_col{std::size_t(tail)};
  array<stored_t<V>, device_space> tail_val{is_pattern_v<V> ? 0 : std::size_t(tail)};
  array<std::uint32_t, device_space> bitmap{std::size_t(words) + 1};
  array<offset_t, device_space> ranks{std::size_t(words) + 1};
  array<vertex_t, device_space> win_col{std::size_t(window)};
  array<stored_t<V>, device_space> win_val{is_pattern_v<V> ? 0 : std::size_t(window)};
  // Every allocation is made: nothing below can fail, and nothing above wrote.
  offset_t* q = scan.data();
  parallel_for(std::int64_t(rows) + 1, FG_LAMBDA(std::int64_t r) { q[r] = r < rows ? prefix_piece(A, vertex_t(r), ordered_end) : 0; });
  thrust::exclusive_scan(policy(), q, q + rows + 1, q);
  // The tail out, row r's at row_ptr[r] - q[r] (the tail entries of the rows before it).
  vertex_t* tc = tail_col.data();
  stored_t<V>* tv = tail_val.data();
  parallel_for(rows, FG_LAMBDA(std::int64_t r) {
    const offset_t skip = q[r + 1] - q[r];
    offset_t i = 0, out = row_ptr[r] - q[r];
    A.for_each_piece(vertex_t(r), [&](offset_t b, offset_t e) {
      const offset_t first = i >= skip ? b : b + std::min(e - b, skip - i);  // the prefix piece's entries stay
      i += e - b;
      for (offset_t j = first; j < e; ++j, ++out) {
        tc[out] = A.col[j];
        copy_value<V>(tv, out, A.val, j);
      }
    });
  });
  // The prefix pieces, moved in place: down in ascending windows, then up in descending ones.
  std::uint32_t* bits = bitmap.data();
  offset_t* rank = ranks.data();
  fill_zero(bitmap);
  parallel_for(rows, FG_LAMBDA(std::int64_t r) {
    const offset_t len = q[r + 1] - q[r];
    if (len > 0) set_bits(bits, A.seg[2 * r], A.seg[2 * r] + len);
  });
  thrust::transform(policy(), bits, bits + words + 1, rank, FG_LAMBDA(std::uint32_t w) { return offset_t(bits_set(w)); });
  thrust::exclusive_scan(policy(), rank, rank + words + 1, rank);
  const destination d{bits, rank, q, row_ptr, rows};
  for (offset_t from = 0; from < ordered_end; from += window)
    move_window_of(A, d, from, std::min(from + window, ordered_end), true, win_col.data(), win_val.data());
  for (offset_t to = ordered_end; to > 0; to -= std::min(to, window))
    move_window_of(A, d, to - std::min(to, window), to, false, win_col.data(), win_val.data());
  // The tail in, after each row's prefix piece.
  parallel_for(rows, FG_LAMBDA(std::int64_t r) {
    const offset_t skip = q[r + 1] - q[r], from = row_ptr[r] - q[r], n = row_ptr[r + 1] - row_ptr[r] - skip;
    for (offset_t j = 0; j < n; ++j) {
      A.col[row_ptr[r] + skip + j] = tc[from + j];
      copy_value<V>(A.val, row_ptr[r] + skip + j, tv, from + j);
    }
  });
}

#define FG_INSTANTIATE(V)                                                    \
  template offset_t K::prefix_entries<V>(const dcsr_view<V>&, offset_t);    \
  template void K::pack_in_place<V>(const dcsr_view<V>&, const offset_t*, offset_t, offset_t);
FG_FOR_EACH_VALUE(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
