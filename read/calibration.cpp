// Calibration points: the text format, the per-device cache file, the built-in H100 points.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "core/error.hpp"
#include "read/cost_model.hpp"

namespace fg {

namespace {
// Made by scripts/make-calibration-inc.py from the H100's `bench spmv --points` files (bench/points/).
const char* const h100_points =
#include "read/calibration_h100.inc"
    ;

calibration parse(std::istream& in, const std::string& name) {
  calibration c;
  std::string line, word;
  int lineno = 0;
  auto fail = [&](const std::string& what) { throw input_error(name, lineno, what); };
  while (std::getline(in, line)) {
    ++lineno;
    std::istringstream s(line);
    if (!(s >> word) || word[0] == '#') continue;
    if (word == "fluxgraph-calibration") {
      int version = 0;
      if (!(s >> version) || version != 1) fail("unsupported calibration version");
    } else if (word == "copy_gbs") {
      if (!(s >> c.copy_gbs) || !(c.copy_gbs > 0)) fail("copy_gbs needs a positive number");
    } else if (word == "point") {
      calibration_point p;
      if (!(s >> p.value_bytes >> p.matrix >> p.rows >> p.nnz >> p.mu >> p.sigma) ||
          (p.value_bytes != 4 && p.value_bytes != 8) || !(p.rows > 0) || !(p.nnz >= 0) || !(p.mu >= 0) || !(p.sigma >= 0))
        fail("point needs BYTES(4|8) NAME ROWS NNZ MU SIGMA [MAX_ROW [pattern]]");
      if (std::string rest; s >> rest) {  // optional: files written before it was recorded lack it
        std::istringstream m(rest);
        if (!(m >> p.max_row) || !(p.max_row >= 0) || !m.eof()) fail("MAX_ROW must be one number >= 0");
        if (s >> rest) {
          if (rest != "pattern" || (s >> rest)) fail("after MAX_ROW only the word 'pattern' may follow");
          p.pattern = true;
        }
      }
      c.points.push_back(p);
    } else if (word == "kernel") {
      std::string k;
      measured_kernel m;
      if (c.points.empty()) fail("kernel line before any point");
      if (!(s >> k >> m.spmv_us >> m.convert_us) || !(m.spmv_us > 0) || !(m.convert_us >= 0))
        fail("kernel needs NAME SPMV_US CONVERT_US (positive)");
      c.points.back().kernels[k] = m;
    } else {
      fail("unknown line '" + word + "'");
    }
  }
  if (!(c.copy_gbs > 0) || c.points.empty()) throw input_error(name, lineno, "no copy_gbs or no points");
  return c;
}
}  // namespace

calibration calibration::without(const std::string& matrix) const {
  calibration c = *this;
  c.points.erase(std::remove_if(c.points.begin(), c.points.end(),
                                [&](const calibration_point& p) { return p.matrix == matrix; }),
                 c.points.end());
  return c;
}

namespace {
// Parsed once and shared: every PageRank run asks, and a copy of ~130 points costs ~30 us.
const std::shared_ptr<const calibration>& builtin_shared() {
  static const std::shared_ptr<const calibration> c = [] {
    std::istringstream in(h100_points);
    auto b = std::make_shared<calibration>(parse(in, "built-in H100 calibration"));
    b->source = "built-in: H100 points (" + std::to_string(b->points.size()) + " matrix x value-size points, bench/points/)";
    return b;
  }();
  return c;
}
}  // namespace

const calibration& builtin_calibration() { return *builtin_shared(); }

calibration read_calibration(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw input_error(path, 0, "cannot open");
  calibration c = parse(in, path);
  c.source = path + " (" + std::to_string(c.points.size()) + " points)";
  return c;
}

void write_calibration(const calibration& c, const std::string& path) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw error("cannot write " + tmp);
    out.precision(6);
    out << "fluxgraph-calibration 1\ncopy_gbs " << c.copy_gbs << "\n";
    for (const auto& p : c.points) {
      out << "point " << p.value_bytes << ' ' << p.matrix << ' ' << p.rows << ' ' << p.nnz << ' ' << p.mu << ' '
          << p.sigma << ' ' << p.max_row << (p.pattern ? " pattern" : "") << "\n";
      for (const auto& [k, m] : p.kernels) out << "kernel " << k << ' ' << m.spmv_us << ' ' << m.convert_us << "\n";
    }
    if (!out) throw error("cannot write " + tmp);
  }
  std::filesystem::rename(tmp, path);  // a reader never sees half a file
}

std::string calibration_path(const std::string& device) {
  std::string dir;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) dir = x;
  else if (const char* h = std::getenv("HOME"); h && *h) dir = std::string(h) + "/.cache";
  else dir = "/tmp";
  std::string name;
  for (char ch : device) name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return dir + "/fluxgraph/calibration-" + name + ".txt";
}

std::shared_ptr<const calibration> load_calibration(const std::string& device) {
  const std::string path = calibration_path(device);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return builtin_shared();
  // Parsed once per version of the file: every PageRank run asks, and parsing is most of a small
  // graph's selection overhead. A rewritten file (new time or size) is read again.
  struct cached {
    std::filesystem::file_time_type time;
    std::uintmax_t size = 0;
    std::shared_ptr<const calibration> c;
  };
  static std::mutex lock;
  static std::map<std::string, cached> parsed;
  const auto time = std::filesystem::last_write_time(path, ec);
  const auto size = std::filesystem::file_size(path, ec);
  std::lock_guard<std::mutex> hold(lock);
  if (const auto it = parsed.find(path); !ec && it != parsed.end() && it->second.time == time && it->second.size == size)
    return it->second.c;
  try {
    auto c = std::make_shared<calibration>(read_calibration(path));
    c->source = "measured on this device: " + c->source;
    if (!ec) parsed[path] = {time, size, c};
    return c;
  } catch (const error& e) {
    auto c = std::make_shared<calibration>(builtin_calibration());
    c->source += "; ignored a damaged cache file: " + std::string(e.what());
    return c;
  }
}

std::string save_calibration(const calibration& c, const std::string& device) {
  const std::string path = calibration_path(device);
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  write_calibration(c, path);
  return path;
}

}  // namespace fg
