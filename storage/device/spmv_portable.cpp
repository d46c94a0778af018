// Portable device twins of the SpMV kernels (CPU build: OpenMP, a thread per row, dynamic enough
// through Thrust's chunking). The CUDA build compiles storage/cuda/dcsr_spmv.cu and csr_spmv.cu
// instead, which define the same symbols. Reference twin: storage/reference/spmv.cpp.
#include "core/semiring.hpp"
#include "storage/detail/kernels.hpp"
#include "storage/device/policy.hpp"

namespace fg::detail {
using K = kernels<device_space>;

template <class Sr, class V>
void K::dcsr_spmv(const dcsr_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  parallel_for(A.rows, FG_LAMBDA(std::int64_t r) {  // Algorithm 3 with a vector width of one
    auto acc = Sr::zero();
    offset_t left = A.sizes[r];
    for (int s = 0; s < A.nseg[r] && left > 0; ++s) {
      const offset_t b = A.seg[s * A.pitch + 2 * r], e = A.seg[s * A.pitch + 2 * r + 1];
      for (offset_t j = b; j < e && left > 0; ++j, --left) {
        acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
      }
    }
    y[r] = acc;
  });
}

template <class Sr, class V>
void K::csr_spmv(const csr_view<V>& A, const typename Sr::value_type* x, typename Sr::value_type* y) {
  parallel_for(A.rows, FG_LAMBDA(std::int64_t r) {
    auto acc = Sr::zero();
    for (offset_t j = A.row_ptr[r]; j < A.row_ptr[r + 1]; ++j) {
      acc = Sr::add(acc, Sr::mul(value_or<V>(A.val, j, Sr::pattern_value()), x[A.col[j]]));
    }
    y[r] = acc;
  });
}

namespace {
// A thread a row, its k sums side by side; K > 0: k = K known to the compiler, so the k-wide
// multiply-add of each entry is one vector instruction or a few (a run-time k left it scalar).
template <int K, class V>
void k_rows(const dcsr_view<V>& A, const double* x, double* y, int k) {
  parallel_for(A.rows, FG_LAMBDA(std::int64_t r) {
    constexpr int most = K > 0 ? K : max_read_vectors;
    const int w = K > 0 ? K : k;
    double acc[most] = {};
    offset_t left = A.sizes[r];
    for (int s = 0; s < A.nseg[r] && left > 0; ++s) {
      const offset_t b = A.seg[s * A.pitch + 2 * r], e = A.seg[s * A.pitch + 2 * r + 1];
      for (offset_t j = b; j < e && left > 0; ++j, --left) {
        const double a = value_or<V>(A.val, j, 1.0);
        const double* xc = x + std::int64_t(A.col[j]) * w;
        for (int c = 0; c < w; ++c) acc[c] += a * xc[c];
      }
    }
    for (int c = 0; c < w; ++c) y[r * w + c] = acc[c];
  });
}
}  // namespace

template <class V>
void K::dcsr_spmv_k(const dcsr_view<V>& A, const double* x, double* y, int k) {
  switch (k) {
    case 2: return k_rows<2>(A, x, y, k);
    case 4: return k_rows<4>(A, x, y, k);
    case 8: return k_rows<8>(A, x, y, k);
    case 16: return k_rows<16>(A, x, y, k);
    default: return k_rows<0>(A, x, y, k);
  }
}
template void K::dcsr_spmv_k<pattern>(const dcsr_view<pattern>&, const double*, double*, int);
template void K::dcsr_spmv_k<double>(const dcsr_view<double>&, const double*, double*, int);

#define FG_INSTANTIATE(Sr, V)                                                                     \
  template void K::dcsr_spmv<Sr, V>(const dcsr_view<V>&, const Sr::value_type*, Sr::value_type*); \
  template void K::csr_spmv<Sr, V>(const csr_view<V>&, const Sr::value_type*, Sr::value_type*);
FG_FOR_EACH_SPMV(FG_INSTANTIATE)
#undef FG_INSTANTIATE

}  // namespace fg::detail
