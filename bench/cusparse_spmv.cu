// cuSPARSE baseline: cusparseSpMV, CSR, CUSPARSE_SPMV_ALG_DEFAULT; descriptors and the external
// buffer are set up once so each run() is one library call, as a tuned caller would do.
#include <string>

#include "bench/cusparse_check.hpp"
#include "bench/cusparse_spmv.hpp"
#include "storage/device/policy.hpp"

namespace fg::bench {

namespace {
// cuSPARSE gets 32-bit row offsets (its fast path); ours are 64-bit.
void narrow_offsets(const offset_t* src, std::int32_t* dst, std::int64_t n) {
  detail::parallel_for(n, FG_LAMBDA(std::int64_t i) { dst[i] = std::int32_t(src[i]); });
}
}  // namespace

template <class V>
struct cusparse_csr<V>::state {
  cusparseHandle_t handle{};
  cusparseSpMatDescr_t A{};
  cusparseDnVecDescr_t x{}, y{};
  array<std::int32_t, device_space> row_ptr;
  array<char, device_space> buffer;
  std::int64_t rows = 0, cols = 0;
};

template <class V>
cusparse_csr<V>::cusparse_csr(const csr_matrix<V, device_space>& A) : s_(new state) {
  FG_EXPECTS(A.nnz() < 2147483647, "cuSPARSE baseline: 32-bit offsets need nnz < 2^31");
  constexpr cudaDataType type = std::is_same_v<V, float> ? CUDA_R_32F : CUDA_R_64F;
  s_->rows = A.rows;
  s_->cols = A.cols;
  s_->row_ptr = array<std::int32_t, device_space>(std::size_t(A.rows) + 1);
  std::int32_t* rp = s_->row_ptr.data();
  narrow_offsets(A.row_ptr.data(), rp, std::int64_t(A.rows) + 1);
  FG_CUSPARSE_TRY(cusparseCreate(&s_->handle));
  FG_CUSPARSE_TRY(cusparseCreateCsr(&s_->A, A.rows, A.cols, A.nnz(), rp, const_cast<vertex_t*>(A.col.data()),
                                    const_cast<V*>(A.val.data()), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                    CUSPARSE_INDEX_BASE_ZERO, type));
  // Placeholder vectors for the buffer query; run() points them at the caller's arrays.
  array<V, device_space> tx(std::size_t(std::max<vertex_t>(A.cols, 1))), ty(std::size_t(std::max<vertex_t>(A.rows, 1)));
  FG_CUSPARSE_TRY(cusparseCreateDnVec(&s_->x, A.cols, tx.data(), type));
  FG_CUSPARSE_TRY(cusparseCreateDnVec(&s_->y, A.rows, ty.data(), type));
  const V one = 1, zero = 0;
  std::size_t bytes = 0;
  FG_CUSPARSE_TRY(cusparseSpMV_bufferSize(s_->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s_->A, s_->x, &zero,
                                          s_->y, type, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  s_->buffer = array<char, device_space>(std::max<std::size_t>(bytes, 1));
  FG_CUSPARSE_TRY(cusparseSpMV_preprocess(s_->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s_->A, s_->x, &zero,
                                          s_->y, type, CUSPARSE_SPMV_ALG_DEFAULT, s_->buffer.data()));
}

template <class V>
cusparse_csr<V>::~cusparse_csr() {
  cusparseDestroyDnVec(s_->x);
  cusparseDestroyDnVec(s_->y);
  cusparseDestroySpMat(s_->A);
  cusparseDestroy(s_->handle);
}

template <class V>
void cusparse_csr<V>::run(const array<V, device_space>& x, array<V, device_space>& y) {
  constexpr cudaDataType type = std::is_same_v<V, float> ? CUDA_R_32F : CUDA_R_64F;
  const V one = 1, zero = 0;
  FG_CUSPARSE_TRY(cusparseDnVecSetValues(s_->x, const_cast<V*>(x.data())));
  FG_CUSPARSE_TRY(cusparseDnVecSetValues(s_->y, y.data()));
  FG_CUSPARSE_TRY(cusparseSpMV(s_->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s_->A, s_->x, &zero, s_->y, type,
                               CUSPARSE_SPMV_ALG_DEFAULT, s_->buffer.data()));
}

template class cusparse_csr<float>;
template class cusparse_csr<double>;

struct cusparse_spmm::state {
  cusparseHandle_t handle{};
  cusparseSpMatDescr_t A{};
  cusparseDnMatDescr_t X{}, Y{};
  array<std::int32_t, device_space> row_ptr;
  array<char, device_space> buffer;
};

cusparse_spmm::cusparse_spmm(const csr_matrix<double, device_space>& A, int k, bool row_major) : s_(new state) {
  FG_EXPECTS(A.nnz() < 2147483647, "cuSPARSE baseline: 32-bit offsets need nnz < 2^31");
  s_->row_ptr = array<std::int32_t, device_space>(std::size_t(A.rows) + 1);
  std::int32_t* rp = s_->row_ptr.data();
  narrow_offsets(A.row_ptr.data(), rp, std::int64_t(A.rows) + 1);
  FG_CUSPARSE_TRY(cusparseCreate(&s_->handle));
  FG_CUSPARSE_TRY(cusparseCreateCsr(&s_->A, A.rows, A.cols, A.nnz(), rp, const_cast<vertex_t*>(A.col.data()),
                                    const_cast<double*>(A.val.data()), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                    CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  const cusparseOrder_t order = row_major ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL;
  array<double, device_space> tx(std::size_t(std::max<vertex_t>(A.cols, 1)) * k), ty(std::size_t(std::max<vertex_t>(A.rows, 1)) * k);
  FG_CUSPARSE_TRY(cusparseCreateDnMat(&s_->X, A.cols, k, row_major ? k : A.cols, tx.data(), CUDA_R_64F, order));
  FG_CUSPARSE_TRY(cusparseCreateDnMat(&s_->Y, A.rows, k, row_major ? k : A.rows, ty.data(), CUDA_R_64F, order));
  const double one = 1, zero = 0;
  std::size_t bytes = 0;
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  FG_CUSPARSE_TRY(cusparseSpMM_bufferSize(s_->handle, op, op, &one, s_->A, s_->X, &zero, s_->Y, CUDA_R_64F,
                                          CUSPARSE_SPMM_ALG_DEFAULT, &bytes));
  s_->buffer = array<char, device_space>(std::max<std::size_t>(bytes, 1));
  FG_CUSPARSE_TRY(cusparseSpMM_preprocess(s_->handle, op, op, &one, s_->A, s_->X, &zero, s_->Y, CUDA_R_64F,
                                          CUSPARSE_SPMM_ALG_DEFAULT, s_->buffer.data()));
}

cusparse_spmm::~cusparse_spmm() {
  cusparseDestroyDnMat(s_->X);
  cusparseDestroyDnMat(s_->Y);
  cusparseDestroySpMat(s_->A);
  cusparseDestroy(s_->handle);
}

void cusparse_spmm::run(const array<double, device_space>& X, array<double, device_space>& Y) {
  const double one = 1, zero = 0;
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  FG_CUSPARSE_TRY(cusparseDnMatSetValues(s_->X, const_cast<double*>(X.data())));
  FG_CUSPARSE_TRY(cusparseDnMatSetValues(s_->Y, Y.data()));
  FG_CUSPARSE_TRY(cusparseSpMM(s_->handle, op, op, &one, s_->A, s_->X, &zero, s_->Y, CUDA_R_64F,
                               CUSPARSE_SPMM_ALG_DEFAULT, s_->buffer.data()));
}

}  // namespace fg::bench
