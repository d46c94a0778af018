// cuSPARSE SpGEMM baseline (bench/spgemm.hpp): C = A B with the generic API's three phases (work
// estimation, compute, copy), 32-bit indices (its only kind), the buffers and C's arrays from the
// engine's allocator; timed whole, as a caller who wants C would pay it.
#include "bench/cusparse_check.hpp"
#include "bench/spgemm.hpp"
#include "core/error.hpp"
#include "storage/device/policy.hpp"

namespace fg::bench {

namespace {
array<std::int32_t, device_space> narrow(const array<offset_t, device_space>& a) {
  array<std::int32_t, device_space> out(a.size());
  const offset_t* in = a.data();
  std::int32_t* o = out.data();
  detail::parallel_for(std::int64_t(a.size()), FG_LAMBDA(std::int64_t i) { o[i] = std::int32_t(in[i]); });
  return out;
}
cusparseSpMatDescr_t describe(const csr_matrix<double, device_space>& M, array<std::int32_t, device_space>& rp) {
  cusparseSpMatDescr_t d{};
  FG_CUSPARSE_TRY(cusparseCreateCsr(&d, M.rows, M.cols, M.nnz(), rp.data(), const_cast<vertex_t*>(M.col.data()),
                                    const_cast<double*>(M.val.data()), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                    CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  return d;
}
}  // namespace

bool have_cusparse_spgemm() { return true; }

csr_matrix<double, device_space> spgemm_cusparse(const csr_matrix<double, device_space>& A, const csr_matrix<double, device_space>& B) {
  FG_EXPECTS(A.cols == B.rows, "spgemm_cusparse: A.cols must equal B.rows");
  FG_EXPECTS(A.nnz() < 2147483647 && B.nnz() < 2147483647, "spgemm_cusparse: 32-bit indices need nnz < 2^31");
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const double one = 1, zero = 0;
  cusparseHandle_t h{};
  FG_CUSPARSE_TRY(cusparseCreate(&h));
  array<std::int32_t, device_space> arp = narrow(A.row_ptr), brp = narrow(B.row_ptr);
  cusparseSpMatDescr_t a = describe(A, arp), b = describe(B, brp), c{};
  FG_CUSPARSE_TRY(cusparseCreateCsr(&c, A.rows, B.cols, 0, nullptr, nullptr, nullptr, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                    CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  cusparseSpGEMMDescr_t g{};
  FG_CUSPARSE_TRY(cusparseSpGEMM_createDescr(&g));
  std::size_t bytes1 = 0, bytes2 = 0;
  FG_CUSPARSE_TRY(cusparseSpGEMM_workEstimation(h, op, op, &one, a, b, &zero, c, CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT, g, &bytes1, nullptr));
  array<char, device_space> buf1(std::max<std::size_t>(bytes1, 1));
  FG_CUSPARSE_TRY(cusparseSpGEMM_workEstimation(h, op, op, &one, a, b, &zero, c, CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT, g, &bytes1, buf1.data()));
  FG_CUSPARSE_TRY(cusparseSpGEMM_compute(h, op, op, &one, a, b, &zero, c, CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT, g, &bytes2, nullptr));
  array<char, device_space> buf2(std::max<std::size_t>(bytes2, 1));
  FG_CUSPARSE_TRY(cusparseSpGEMM_compute(h, op, op, &one, a, b, &zero, c, CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT, g, &bytes2, buf2.data()));
  std::int64_t rows = 0, cols = 0, nnz = 0;
  FG_CUSPARSE_TRY(cusparseSpMatGetSize(c, &rows, &cols, &nnz));
  array<std::int32_t, device_space> crp(std::size_t(rows) + 1);
  csr_matrix<double, device_space> C;
  C.rows = vertex_t(rows), C.cols = vertex_t(cols);
  C.col = array<vertex_t, device_space>(std::size_t(nnz));
  C.val = array<double, device_space>(std::size_t(nnz));
  FG_CUSPARSE_TRY(cusparseCsrSetPointers(c, crp.data(), C.col.data(), C.val.data()));
  FG_CUSPARSE_TRY(cusparseSpGEMM_copy(h, op, op, &one, a, b, &zero, c, CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT, g));
  C.row_ptr = array<offset_t, device_space>(crp.size());
  const std::int32_t* in = crp.data();
  offset_t* out = C.row_ptr.data();
  detail::parallel_for(std::int64_t(crp.size()), FG_LAMBDA(std::int64_t i) { out[i] = offset_t(in[i]); });
  cusparseSpGEMM_destroyDescr(g);
  cusparseDestroySpMat(a), cusparseDestroySpMat(b), cusparseDestroySpMat(c);
  cusparseDestroy(h);
  return C;
}

}  // namespace fg::bench
