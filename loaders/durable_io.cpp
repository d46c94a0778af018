#include "loaders/durable_io.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/error.hpp"

namespace fg {

std::uint32_t crc32_of(const void* p, std::size_t n, std::uint32_t seed) {
  uLong c = seed;
  const auto* b = static_cast<const Bytef*>(p);
  while (n > 0) {  // zlib takes 32-bit lengths
    const auto k = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
    c = crc32(c, b, k);
    b += k, n -= k;
  }
  return std::uint32_t(c);
}

void write_all(int fd, const void* p, std::size_t n, const std::string& name) {
  const char* b = static_cast<const char*>(p);
  while (n > 0) {
    const ssize_t k = ::write(fd, b, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) throw error("cannot write " + name + ": " + std::strerror(k < 0 ? errno : ENOSPC));
    b += k, n -= std::size_t(k);
  }
}

void sync_data(int fd, const std::string& name) {
  if (::fdatasync(fd) != 0) throw error("cannot write " + name + ": " + std::strerror(errno));
}

void sync_folder_of(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  const int d = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (d < 0) throw error("cannot open folder " + dir + ": " + std::strerror(errno));
  const int rc = ::fsync(d);
  const int e = errno;
  ::close(d);
  if (rc != 0) throw error("cannot sync folder " + dir + ": " + std::strerror(e));
}

}  // namespace fg
