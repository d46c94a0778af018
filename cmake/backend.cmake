# Resolve FG_BACKEND to cpu or cuda, and find Thrust/CUB headers for the CPU build.
include(CheckLanguage)

set(_want "${FG_BACKEND}")
if(_want STREQUAL "auto")
  set(_want "cpu")
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    execute_process(COMMAND nvidia-smi -L OUTPUT_VARIABLE _gpus RESULT_VARIABLE _rc ERROR_QUIET)
    if(_rc EQUAL 0 AND _gpus MATCHES "GPU")
      set(_want "cuda")
    endif()
  endif()
endif()
if(NOT _want MATCHES "^(cpu|cuda)$")
  message(FATAL_ERROR "FG_BACKEND must be auto, cpu or cuda (got '${FG_BACKEND}')")
endif()
set(FG_BACKEND_RESOLVED ${_want})

if(_want STREQUAL "cuda")
  set(FG_USE_CUDA ON)
  # sm_90 machine code plus compute_90 PTX for newer GPUs.
  if(NOT CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES "90-real;90-virtual")
  endif()
  set(FG_CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}")
  enable_language(CUDA)
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  find_package(CUDAToolkit REQUIRED)
  set(FG_THRUST_INCLUDE "")  # nvcc finds CCCL itself
else()
  set(FG_USE_CUDA OFF)
  find_package(OpenMP REQUIRED)
  # CCCL of a CUDA toolkit when one is installed, else Debian's libthrust-dev/libcub-dev.
  find_path(FG_THRUST_INCLUDE thrust/version.h
    HINTS ENV CUDA_PATH ${CUDAToolkit_ROOT}
    PATHS /usr/local/cuda/include/cccl /usr/local/cuda/include /usr/include
    PATH_SUFFIXES include/cccl
    NO_DEFAULT_PATH)
  if(NOT FG_THRUST_INCLUDE)
    message(FATAL_ERROR "Thrust headers not found: install a CUDA toolkit or libthrust-dev "
                        "(scripts/install-deps.sh does this)")
  endif()
endif()
