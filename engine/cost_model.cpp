// The cost model behind select_kernel (engine/cost_model.hpp). Bytes follow CMRS Eq. (6.1) (matrix
// once, x and y once: beta+); what a format does with them is in its fitted efficiency, measured on
// the H100 separately for regular and skewed row lengths, because that is where formats differ most
// (SELL-C-sigma: 1.01 of copy bandwidth on regular rows, 0.004 on skewed ones).
#include "engine/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace fg {

namespace {
// launch us, eff regular, eff skewed, convert fixed us, convert ns/nnz — fitted from
// `fluxgraph bench spmv` run 8 on the H100 (bench/NOTES.md); suraa's efficiencies are capped at 1.2
// since its time is all fixed cost there.
const std::map<std::string, kernel_constants> h100_float = {
    {"adcsr", {99.9, 0.331, 0.309, 228.2, 0.024}},        {"cmrs", {9.2, 0.34, 0.103, 422.5, 0.201}},
    {"cmrs_modified", {13.9, 0.47, 0.034, 508.6, 0.232}}, {"csr_adaptive", {12.3, 0.381, 0.324, 110.8, 0.024}},
    {"csr_merge", {12.3, 0.381, 0.324, 110.8, 0.024}},  // = csr_adaptive until refitted; ties keep csr_adaptive (listed first)
    {"csr_scalar", {13.2, 0.377, 0.044, 26.1, 0.017}},    {"csr_vector", {8.5, 0.259, 0.229, 33.0, 0.014}},
    {"dcsr", {8.5, 0.249, 0.213, 0.0, 0.0}},              {"hyb", {59.8, 0.438, 0.256, 430.0, 0.078}},
    {"sell", {73.5, 1.014, 0.004, 430.1, 0.088}},         {"suraa_dp", {823.7, 1.2, 0.395, 406.6, 0.061}},
    {"suraa_once", {712.5, 1.2, 0.277, 469.7, 0.059}}};
const std::map<std::string, kernel_constants> h100_double = {
    {"adcsr", {104.4, 0.219, 0.286, 262.6, 0.025}},       {"cmrs", {9.9, 0.447, 0.137, 424.7, 0.201}},
    {"cmrs_modified", {14.2, 0.471, 0.048, 538.5, 0.226}}, {"csr_adaptive", {12.4, 0.433, 0.4, 158.3, 0.021}},
    {"csr_merge", {12.4, 0.433, 0.4, 158.3, 0.021}},  // = csr_adaptive until refitted
    {"csr_scalar", {14.5, 0.338, 0.062, 76.6, 0.016}},    {"csr_vector", {9.4, 0.185, 0.168, 125.7, 0.015}},
    {"dcsr", {9.7, 0.179, 0.164, 0.0, 0.0}},              {"hyb", {59.9, 0.441, 0.292, 425.5, 0.077}},
    {"sell", {73.6, 0.615, 0.005, 546.2, 0.084}},         {"suraa_dp", {821.5, 1.2, 1.2, 348.6, 0.060}},
    {"suraa_once", {726.5, 1.2, 0.326, 413.9, 0.059}}};

std::string cache_path(const std::string& device) {
  std::string dir;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) dir = x;
  else if (const char* h = std::getenv("HOME"); h && *h) dir = std::string(h) + "/.cache";
  else dir = "/tmp";
  std::string name;
  for (char ch : device) name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return dir + "/fluxgraph/calibration-" + name + ".txt";
}

double ms(double us) { return us * 1e-3; }
}  // namespace

const std::vector<std::string>& selectable_kernels() {
  static const std::vector<std::string> k = {"dcsr", "csr_vector", "csr_scalar", "csr_adaptive", "csr_merge", "cmrs",
                                             "cmrs_modified", "sell", "hyb", "suraa_dp", "suraa_once", "adcsr"};
  return k;
}

calibration builtin_calibration() {
  calibration c;
  c.source = "built-in: H100 SpMV benchmark, run 8 (bench/NOTES.md)";
  c.copy_gbs = 2992.6;
  c.kernels[0] = h100_float;
  c.kernels[1] = h100_double;
  return c;
}

// Text format, one kernel per line: "<size 4|8> <kernel> launch_us eff_regular eff_skewed convert_us convert_ns".
calibration load_calibration(const std::string& device) {
  calibration c = builtin_calibration();
  std::ifstream in(cache_path(device));
  if (!in) return c;
  std::string line;
  calibration read = c;
  read.source = "measured on this device: " + cache_path(device);
  if (!std::getline(in, line) || !(std::istringstream(line) >> read.copy_gbs) || !(read.copy_gbs > 0)) return c;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    int size = 0;
    std::string name;
    kernel_constants k;
    if (!(s >> size >> name >> k.launch_us >> k.eff_regular >> k.eff_skewed >> k.convert_fixed_us >> k.convert_ns_per_nnz) ||
        (size != 4 && size != 8) || !(k.eff_regular > 0) || !(k.eff_skewed > 0))
      return c;  // a damaged file is ignored, not trusted in part
    read.kernels[size == 8][name] = k;
  }
  return read;
}

std::string save_calibration(const calibration& c, const std::string& device) {
  const std::string path = cache_path(device);
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path);
  if (!out) throw error("cannot write " + path);
  out << c.copy_gbs << "\n";
  for (int i = 0; i < 2; ++i)
    for (const auto& [name, k] : c.kernels[i])
      out << (i ? 8 : 4) << ' ' << name << ' ' << k.launch_us << ' ' << k.eff_regular << ' ' << k.eff_skewed << ' '
          << k.convert_fixed_us << ' ' << k.convert_ns_per_nnz << "\n";
  if (!out) throw error("cannot write " + path);
  return path;
}

selection select_kernel(const matrix_profile& p, int value_bytes, double reads, const calibration& c,
                        const std::string& forced) {
  FG_EXPECTS(value_bytes == 4 || value_bytes == 8, "select_kernel: value_bytes must be 4 or 8");
  FG_EXPECTS(reads >= 1, "select_kernel: expected reads must be >= 1");
  const auto& table = c.kernels[value_bytes == 8];
  const bool known = forced == "auto" || std::find(selectable_kernels().begin(), selectable_kernels().end(), forced) !=
                                             selectable_kernels().end();
  if (!known) throw invalid_argument("unknown kernel '" + forced + "' (auto or one of: dcsr, csr_vector, csr_scalar, "
                                     "csr_adaptive, csr_merge, cmrs, cmrs_modified, sell, hyb, suraa_dp, suraa_once, adcsr)");
  const double sv = p.value_type == "pattern" ? 0.0 : (p.value_type == "float" ? 4.0 : 8.0);
  const double beta = (sv + 4) * double(p.nnz) + 8.0 * (double(p.rows) + 1) + 2.0 * value_bytes * double(p.rows);
  const double cv = p.mu > 0 ? p.sigma / p.mu : 0;
  const double w = std::clamp((cv - 0.5) / 1.0, 0.0, 1.0);  // 0: regular, 1: skewed
  const bool packed = p.segments_per_row <= 1.0 && p.gap_fraction <= 0.0;
  // Any other format needs a CSR snapshot of a fragmented store first: a pass like a CSR copy.
  const kernel_constants& copy = table.at("csr_vector");
  const double snapshot_ms = packed ? 0.0 : ms(copy.convert_fixed_us) + copy.convert_ns_per_nnz * double(p.nnz) * 1e-6;
  selection s;
  for (const auto& name : selectable_kernels()) {
    kernel_estimate e;
    e.kernel = name;
    e.bytes = beta;
    const auto it = table.find(name);
    if (it == table.end()) {
      e.feasible = false;
      e.why_not = "no calibration constants";
    } else if ((name == "cmrs" || name == "cmrs_modified") && p.cols >= (vertex_t(1) << 28)) {
      e.feasible = false;
      e.why_not = "columns >= 2^28 do not fit CMRS's 28-bit column field";
    }
    if (e.feasible) {
      const kernel_constants& k = it->second;
      const double eff = (1 - w) * k.eff_regular + w * k.eff_skewed;
      double spmv_ms = ms(k.launch_us) + beta / (c.copy_gbs * 1e9 * eff) * 1e3;
      if (name == "dcsr") spmv_ms *= 1.0 + 0.5 * (p.segments_per_row - 1.0);  // segment walks (insert bench: 1.3-1.9x)
      e.spmv_ms = spmv_ms;
      e.convert_ms = name == "dcsr" ? 0.0 : snapshot_ms + ms(k.convert_fixed_us) + k.convert_ns_per_nnz * double(p.nnz) * 1e-6;
      e.total_ms = e.convert_ms + reads * e.spmv_ms;
    }
    s.estimates.push_back(e);
  }
  std::stable_sort(s.estimates.begin(), s.estimates.end(), [](const kernel_estimate& a, const kernel_estimate& b) {
    if (a.feasible != b.feasible) return a.feasible;
    return a.total_ms < b.total_ms;
  });
  const kernel_estimate& best = s.estimates.front();
  std::ostringstream why;
  if (forced != "auto") {
    s.kernel = forced;
    why << "forced by --kernel " << forced << " (the model would pick " << best.kernel << ")";
  } else {
    s.kernel = best.kernel;
    const kernel_estimate& next = s.estimates.size() > 1 ? s.estimates[1] : best;
    why.precision(3);
    why << "lowest predicted total for " << reads << " read" << (reads == 1 ? "" : "s") << ": " << best.total_ms
        << " ms (convert " << best.convert_ms << " + " << reads << " x " << best.spmv_ms << ") vs " << next.kernel << " "
        << next.total_ms << " ms; rows " << (w < 0.5 ? "regular" : "skewed") << " (sigma/mu " << cv << ")"
        << (packed ? "" : ", store fragmented");
  }
  s.reason = why.str();
  return s;
}

}  // namespace fg
