// Index and value types shared by every layer. Plain C++: no CUDA, no Thrust.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

#if defined(__CUDACC__)
#define FG_HD __host__ __device__
#else
#define FG_HD
#endif

namespace fg {

using vertex_t = std::int32_t;  ///< row / column ids (graphs up to 2^31 - 1 vertices)
using offset_t = std::int64_t;  ///< positions in the column array (stores past 2^31 entries)

/// @brief Value type of a graph without weights: the store keeps no value array at all.
struct pattern {};
template <class V>
inline constexpr bool is_pattern_v = std::is_same_v<V, pattern>;

/// NaN and +-inf fail (x - x is NaN for both); usable in device code, unlike std::isfinite.
FG_HD inline bool finite_value(double x) { return x - x == 0.0; }

/// @brief Which twin runs an operation: the sequential reference or the device system
///        (OpenMP in the CPU build, the GPU in the CUDA build).
enum class exec { reference, device };

/// @brief "cuda" in the CUDA build, "openmp" in the CPU build.
const char* device_backend_name() noexcept;
/// @brief Threads (CPU build) or multiprocessors (CUDA build) the device system runs on, and its name.
std::string device_description();

}  // namespace fg
