// Would packed entries fit colsort's tiles? (issue 22; bench/NOTES.md session 31). Not built by CMake:
//   g++ -O2 -fopenmp -o /tmp/tile_spans bench/experiments/tile_spans.cpp && /tmp/tile_spans 22
// R-MAT as the bench's (a .57 b .19 c .19, 16 edges a vertex, duplicates dropped), cut as colsort
// cuts it, approximately (groups of 8192 rows, cut greedily into partitions of at most E entries:
// nnz / 512 within [16 K, 256 K]; colsort cuts where the entries pass a multiple of E), each
// partition sorted by column and read in 2048-entry tiles. For each tile: its column span (max -
// min), so the share of entries whose columns fit a 16-, 18- or 19-bit offset from the tile's first
// column, and the matrix bytes an entry of colsort_options::packed (19-bit offsets beside a 13-bit
// row in one word; float values; other tiles a 4-byte column and a 2-byte row).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

int main(int argc, char** argv) {
  const int scale = argc > 1 ? atoi(argv[1]) : 20;
  const uint64_t n = 1ull << scale, m = 16 * n;
  std::vector<uint64_t> k(m);
#pragma omp parallel
  {
    std::mt19937_64 g(42);
    std::uniform_real_distribution<double> u(0, 1);
#pragma omp for schedule(static, 65536)
    for (uint64_t e = 0; e < m; ++e) {
      if (e % 65536 == 0) g.seed(42 + e);  // chunks of 65536: the same stream whatever the thread count
      uint32_t r = 0, c = 0;
      for (int b = 0; b < scale; ++b) {
        const double p = u(g);
        const int q = p < 0.57 ? 0 : p < 0.76 ? 1 : p < 0.95 ? 2 : 3;
        r |= uint32_t(q >> 1) << b, c |= uint32_t(q & 1) << b;
      }
      k[e] = (uint64_t(r) << 32) | c;
    }
  }
  std::sort(k.begin(), k.end());
  k.erase(std::unique(k.begin(), k.end()), k.end());
  const size_t nnz = k.size();
  size_t cap = 16384;
  while (cap < 262144 && cap < nnz / 512) cap <<= 1;
  std::printf("rmat-%d: %zu entries, partitions of <= %zu entries in 8192-row groups\n", scale, nnz, cap);
  std::vector<uint32_t> col(nnz);
  size_t tiles = 0, narrow_tiles = 0, parts = 0;
  const int shifts[] = {16, 18, 19};
  size_t within[3] = {0, 0, 0};
  for (size_t i = 0; i < nnz;) {  // one 8192-row group, cut into partitions of <= cap entries
    const uint64_t g0 = (k[i] >> 32) / 8192;
    size_t end = i;
    while (end < nnz && (k[end] >> 32) / 8192 == g0) ++end;
    for (size_t p = i; p < end;) {
      size_t q = p;
      while (q < end) {  // whole rows while the partition stays <= cap (a longer row alone)
        size_t e = q;
        while (e < end && (k[e] >> 32) == (k[q] >> 32)) ++e;
        if (q > p && e - p > cap) break;
        q = e;
      }
      for (size_t j = p; j < q; ++j) col[j] = uint32_t(k[j]);
      std::sort(col.begin() + long(p), col.begin() + long(q));
      for (size_t t = p; t < q; t += 2048) {
        const size_t te = std::min(q, t + 2048);
        const uint32_t span = col[te - 1] - col[t];
        ++tiles;
        for (int s = 0; s < 3; ++s) within[s] += span < (1u << shifts[s]) ? te - t : 0;
        if (span < 65536) ++narrow_tiles;
      }
      ++parts;
      p = q;
    }
    i = end;
  }
  const double f = double(within[2]) / double(nnz);  // packed: span < 2^19
  std::printf("  %zu partitions, %zu tiles; span < 2^16: %.1f%% of tiles\n", parts, tiles,
              100.0 * double(narrow_tiles) / double(tiles));
  for (int s = 0; s < 3; ++s)
    std::printf("  entries in tiles of span < 2^%d: %.1f%%\n", shifts[s], 100.0 * double(within[s]) / double(nnz));
  // float value 4 + a packed word 4, or a column 4 and a row 2; an 8-byte word a tile
  std::printf("  packed, float matrix bytes an entry: %.2f (unpacked 10.00); double: %.2f (14.00)\n",
              8.0 + 2.0 * (1 - f) + 8.0 * double(tiles) / double(nnz), 12.0 + 2.0 * (1 - f) + 8.0 * double(tiles) / double(nnz));
}
