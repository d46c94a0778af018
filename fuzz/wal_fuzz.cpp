// Write-ahead log files (stream/wal.cpp). Every record accepted must re-encode to the bytes it
// came from (nothing read that was not written), and a log cut after its valid part scans the same.
#include "fuzz/fuzz_support.hpp"
#include "stream/wal.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t n) {
  const char* p = reinterpret_cast<const char*>(data);
  return fg::fuzz::expect_clean([&] {
    const fg::wal_scan s = fg::scan_wal("log", p, n);
    if (s.valid_bytes + s.torn_bytes != n) __builtin_trap();
    if (s.valid_bytes == 0) return;
    // A version-1 header is read but never written: compare its records only.
    const bool current = s.version == fg::wal_version;
    std::string again = current ? fg::wal_header(s.base_batch, s.seeded, static_cast<std::uint32_t>(s.acked))
                                : std::string(p, fg::wal_header_bytes);
    for (const fg::wal_record& r : s.records) fg::encode_record(r, again);
    if (again.size() != s.valid_bytes || again.compare(0, again.size(), p, s.valid_bytes) != 0) __builtin_trap();
  });
}
