// Owning, move-only arrays with the memory space as a type parameter (CUSP's habit).
// host_space: ordinary host memory, used by the reference twins.
// device_space: memory from fg::memory (the GPU in the CUDA build, host memory in the CPU build).
// Contents are uninitialised after construction: T must be trivially copyable.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"

namespace fg {

struct host_space {};
struct device_space {};

template <class T, class Space>
class array {
  static_assert(std::is_trivially_copyable_v<T>, "array holds trivially copyable types only");

 public:
  using value_type = T;
  using space = Space;

  array() = default;
  explicit array(std::size_t n) : size_(n) {
    if (n == 0) return;
    if constexpr (std::is_same_v<Space, device_space>) {
      data_ = static_cast<T*>(memory::allocate(n * sizeof(T)));
    } else {
      data_ = static_cast<T*>(std::malloc(n * sizeof(T)));
      if (data_ == nullptr) throw out_of_memory("host out of memory");
    }
  }
  /// @brief n elements that resize_in_place can grow without a copy (memory::allocate_growable).
  static array growable(std::size_t n) {
    array a;
    if (n == 0) return a;
    if constexpr (std::is_same_v<Space, device_space>) {
      a.data_ = static_cast<T*>(memory::allocate_growable(n * sizeof(T)));
      a.size_ = n;
      return a;
    }
    return array(n);
  }
  array(const array&) = delete;
  array& operator=(const array&) = delete;
  array(array&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  array& operator=(array&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  ~array() { release(); }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }

  /// @brief Resized to n > 0 elements, the first min(n, size()) kept, without a copy where the memory
  ///        allows it (memory::resize_in_place); false, nothing changed, where it does not.
  bool resize_in_place(std::size_t n) noexcept {
    if constexpr (std::is_same_v<Space, device_space>) {
      if (data_ == nullptr || n == 0) return false;
      void* p = memory::resize_in_place(data_, n * sizeof(T));
      if (p == nullptr) return false;
      data_ = static_cast<T*>(p);
      size_ = n;
      return true;
    }
    return false;
  }

  /// Host-space element access (the reference twins index directly).
  T& operator[](std::size_t i) noexcept {
    static_assert(std::is_same_v<Space, host_space>, "device arrays are not indexable on the host");
    return data_[i];
  }
  const T& operator[](std::size_t i) const noexcept {
    static_assert(std::is_same_v<Space, host_space>, "device arrays are not indexable on the host");
    return data_[i];
  }

 private:
  void release() noexcept {
    if (data_ == nullptr) return;
    if constexpr (std::is_same_v<Space, device_space>) memory::deallocate(data_);
    else std::free(data_);
    data_ = nullptr;
    size_ = 0;
  }
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

/// @brief Copy between any two spaces (sizes must match).
template <class T, class S1, class S2>
void copy(array<T, S1>& dst, const array<T, S2>& src) {
  FG_EXPECTS(dst.size() == src.size(), "copy: size mismatch");
  constexpr bool dd = std::is_same_v<S1, device_space>, sd = std::is_same_v<S2, device_space>;
  if constexpr (dd && sd) memory::copy_on_device(dst.data(), src.data(), src.bytes());
  else if constexpr (dd) memory::copy_to_device(dst.data(), src.data(), src.bytes());
  else if constexpr (sd) memory::copy_to_host(dst.data(), src.data(), src.bytes());
  else if (src.bytes()) std::memcpy(dst.data(), src.data(), src.bytes());
}

template <class Space, class T>
array<T, Space> to_space(const T* src, std::size_t n) {
  array<T, Space> a(n);
  if constexpr (std::is_same_v<Space, device_space>) memory::copy_to_device(a.data(), src, n * sizeof(T));
  else if (n) std::memcpy(a.data(), src, n * sizeof(T));
  return a;
}
template <class Space, class T>
array<T, Space> to_space(const std::vector<T>& v) { return to_space<Space>(v.data(), v.size()); }

template <class T, class Space>
std::vector<T> to_vector(const array<T, Space>& a) {
  std::vector<T> v(a.size());
  if constexpr (std::is_same_v<Space, device_space>) memory::copy_to_host(v.data(), a.data(), a.bytes());
  else if (a.size()) std::memcpy(v.data(), a.data(), a.bytes());
  return v;
}

/// @brief Host copies of n elements at p, memory of space Space (a store's arrays, through a view).
template <class Space, class T>
std::vector<T> read_many(const T* p, std::size_t n) {
  std::vector<T> v(n);
  if constexpr (std::is_same_v<Space, device_space>) memory::copy_to_host(v.data(), p, n * sizeof(T));
  else if (n) std::memcpy(v.data(), p, n * sizeof(T));
  return v;
}
/// @brief The value at p, memory of space Space (a device total read by the host: one wait).
template <class Space, class T>
T read_one(const T* p) {
  T v;
  if constexpr (std::is_same_v<Space, device_space>) memory::copy_to_host(&v, p, sizeof(T));
  else v = *p;
  return v;
}
/// @brief a[i] = v.
template <class T, class Space>
void write_at(array<T, Space>& a, std::size_t i, T v) {
  if constexpr (std::is_same_v<Space, device_space>) memory::copy_to_device(a.data() + i, &v, sizeof(T));
  else a.data()[i] = v;
}
/// @brief Every byte of a[first, first + n) set to 0.
template <class T, class Space>
void zero_range(array<T, Space>& a, std::size_t first, std::size_t n) {
  FG_EXPECTS(first + n <= a.size(), "zero_range: out of bounds");
  if (n == 0) return;
  if constexpr (std::is_same_v<Space, device_space>) memory::zero_on_device(a.data() + first, n * sizeof(T));
  else std::memset(a.data() + first, 0, n * sizeof(T));
}
/// @brief Every byte of a[first, size) set to 0.
template <class T, class Space>
void zero(array<T, Space>& a, std::size_t first = 0) {
  if (first < a.size()) zero_range(a, first, a.size() - first);
}
/// @brief An array of n elements whose first src.size() are src's (n >= src.size()); the rest unset.
template <class T, class Space>
array<T, Space> grown(const array<T, Space>& src, std::size_t n) {
  array<T, Space> a(n);
  if constexpr (std::is_same_v<Space, device_space>) memory::copy_on_device(a.data(), src.data(), src.bytes());
  else if (src.size()) std::memcpy(a.data(), src.data(), src.bytes());
  return a;
}

template <class Space, class T, class S2>
array<T, Space> clone(const array<T, S2>& src) {
  array<T, Space> a(src.size());
  copy(a, src);
  return a;
}

/// @brief Zero every byte of a (same-space) array.
template <class T, class Space>
void fill_zero(array<T, Space>& a) {
  zero(a);
}

/// @brief dst[dst_off, dst_off + n) = src[src_off, src_off + n), both in one space.
template <class T, class Space>
void copy_range(array<T, Space>& dst, std::size_t dst_off, const array<T, Space>& src,
                std::size_t src_off, std::size_t n) {
  FG_EXPECTS(dst_off + n <= dst.size() && src_off + n <= src.size(), "copy_range: out of bounds");
  if (n == 0) return;
  if constexpr (std::is_same_v<Space, device_space>)
    memory::copy_on_device(dst.data() + dst_off, src.data() + src_off, n * sizeof(T));
  else
    std::memcpy(dst.data() + dst_off, src.data() + src_off, n * sizeof(T));
}
template <class T, class Space>
void copy_prefix(array<T, Space>& dst, const array<T, Space>& src, std::size_t n) {
  copy_range(dst, 0, src, 0, n);
}

}  // namespace fg
