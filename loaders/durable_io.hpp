// The few system calls that durable files need (store snapshots, the write-ahead log), each
// checked: a failure is an fg::error naming the file and the system's reason (a full disk, say).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace fg {

/// CRC-32 (zlib's polynomial) of n bytes; `seed` continues an earlier one.
std::uint32_t crc32_of(const void* p, std::size_t n, std::uint32_t seed = 0);
/// Writes all n bytes to fd (retrying short writes and EINTR). @throws fg::error "cannot write NAME: why"
void write_all(int fd, const void* p, std::size_t n, const std::string& name);
/// fdatasync, or fg::error "cannot write NAME: why".
void sync_data(int fd, const std::string& name);
/// fsync of the folder holding `path`, so that a rename or a new file in it is durable too.
void sync_folder_of(const std::string& path);

}  // namespace fg
