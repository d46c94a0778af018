// Checked cuSPARSE calls for the benchmarks' baselines (CUDA build only).
#pragma once
#include <cusparse.h>

#include <string>

#include "core/cuda_check.hpp"

#define FG_CUSPARSE_TRY(call)                                                                   \
  do {                                                                                          \
    cusparseStatus_t st_ = (call);                                                              \
    if (st_ != CUSPARSE_STATUS_SUCCESS)                                                         \
      throw ::fg::cuda_error(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " +    \
                             #call + ": " + cusparseGetErrorString(st_));                       \
  } while (0)
