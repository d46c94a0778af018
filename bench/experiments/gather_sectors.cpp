// The analysis behind storage/colsort.hpp (issue 22; bench/NOTES.md sessions 29-30), not built by CMake:
//   g++ -O2 -o /tmp/gather_sectors bench/experiments/gather_sectors.cpp && /tmp/gather_sectors 22
// Gather-sector simulation: distinct 32-byte sectors of x per 32-entry warp group, CSR order vs
// row-partition blocks sorted by column, and distinct sectors per 2048-entry tile of those blocks.
// R-MAT as the bench's (a .57 b .19 c .19).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
int main(int argc, char** argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 20;
  const uint64_t n = 1ull << scale, m = 16 * n;
  std::vector<uint64_t> k(m);
  std::mt19937_64 g(42);
  std::uniform_real_distribution<double> u(0, 1);
  for (uint64_t e = 0; e < m; ++e) {
    uint32_t r = 0, c = 0;
    for (int b = 0; b < scale; ++b) {
      double p = u(g); int q = p < 0.57 ? 0 : p < 0.76 ? 1 : p < 0.95 ? 2 : 3;
      r |= uint32_t(q >> 1) << b; c |= uint32_t(q & 1) << b;
    }
    k[e] = (uint64_t(r) << 32) | c;
  }
  std::sort(k.begin(), k.end()); k.erase(std::unique(k.begin(), k.end()), k.end());
  const size_t nnz = k.size();
  printf("rmat-%d: %zu entries\n", scale, nnz);
  auto count = [&](const std::vector<uint32_t>& cols, int elem, const char* what) {
    // distinct sectors of x per group of 32 consecutive entries (a warp's coalesced gather)
    size_t sec = 0;
    for (size_t i = 0; i < nnz; i += 32) {
      uint32_t s[32]; int n2 = 0;
      for (size_t j = i; j < std::min(nnz, i + 32); ++j) s[n2++] = cols[j] * elem / 32;
      std::sort(s, s + n2); sec += std::unique(s, s + n2) - s;
    }
    printf("  %-40s elem %d: %.3f sectors an entry (32 consecutive entries a warp)\n", what, elem, double(sec) / nnz);
  };
  std::vector<uint32_t> cols(nnz);
  for (size_t i = 0; i < nnz; ++i) cols[i] = uint32_t(k[i]);
  count(cols, 4, "CSR order");
  count(cols, 8, "CSR order");
  // partitions: consecutive rows while entries <= E and rows <= R (a row alone may pass E)
  for (size_t E : {16384ul, 65536ul, 262144ul}) for (size_t R : {4096ul, 16384ul}) {
    std::vector<uint32_t> c2 = cols;
    std::vector<size_t> starts{0};
    size_t i = 0, parts = 0;
    while (i < nnz) {
      size_t j = i; uint64_t r0 = k[i] >> 32;
      while (j < nnz) {
        uint64_t r = k[j] >> 32; size_t e = j; while (e < nnz && (k[e] >> 32) == r) ++e;
        if (j > i && (e - i > E || r - r0 >= R)) break;
        j = e;
      }
      std::sort(c2.begin() + i, c2.begin() + j); ++parts;
      starts.push_back(j);
      i = j;
    }
    char buf[96]; snprintf(buf, 96, "parts <= %zu entries, <= %zu rows (%zu parts)", E, R, parts);
    count(c2, 4, buf);
    count(c2, 8, buf);
    // The same partitions' 2048-entry tiles (from each part's start): distinct sectors a tile, what
    // an L1 holding the tile's lines fetches from L2 whatever the order inside the tile (so a tile
    // stored in row order would pay this, not the per-warp count, if L1 keeps its lines).
    for (int elem : {4, 8}) {
      size_t sec = 0;
      for (size_t a = 0; a + 1 < starts.size(); ++a)
        for (size_t t = starts[a]; t < starts[a + 1]; t += 2048) {
          std::vector<uint32_t> s;
          for (size_t j = t; j < std::min(starts[a + 1], t + 2048); ++j) s.push_back(c2[j] * elem / 32);
          std::sort(s.begin(), s.end()); sec += std::unique(s.begin(), s.end()) - s.begin();
        }
      printf("  %-40s elem %d: %.3f sectors an entry (distinct a 2048-entry tile)\n", buf, elem, double(sec) / nnz);
    }
  }
}
