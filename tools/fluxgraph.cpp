// fluxgraph: command-line front end. Every failure is one line on stderr and exit code 1.
#include <fmt/core.h>

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <set>

#include <sys/stat.h>
#include <unistd.h>

#include "tools/cli.hpp"

namespace fg::cli {

bool options::has(const std::string& f) const {
  for (const auto& x : flags)
    if (x == f) return true;
  return false;
}
std::string options::get(const std::string& n, const std::string& fallback) const {
  auto it = values.find(n);
  return it == values.end() ? fallback : it->second;
}
double options::number(const std::string& n, double fallback, double lo, double hi) const {
  auto it = values.find(n);
  if (it == values.end()) return fallback;
  const std::string& s = it->second;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0])) || *end != '\0' || !(v >= lo && v <= hi))
    throw usage_error(fmt::format("--{} needs a number in [{}, {}], got '{}'", n, lo, hi, s));
  return v;
}
std::int64_t options::integer(const std::string& n, std::int64_t fallback, std::int64_t lo, std::int64_t hi) const {
  auto it = values.find(n);
  if (it == values.end()) return fallback;
  const std::string& s = it->second;
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi)
    throw usage_error(fmt::format("--{} needs an integer in [{}, {}], got '{}'", n, lo, hi, s));
  return v;
}

namespace {
std::FILE* data_out = stdout;

// `--out -`: the data goes to standard output and only there, so what the command prints besides
// (summaries, the kernel's reason, progress) moves to standard error: standard output is kept on
// another descriptor for the data, and descriptor 1 becomes standard error's.
void keep_stdout_for_data(const options& o) {
  const bool out = o.get("out", "") == "-", edges = o.get("edges-out", "") == "-", json = json_output(o);
  if (!out && !edges && !json) return;
  if (out + edges + json > 1)
    throw usage_error("--out -, --edges-out - and --format json would share standard output: give the file a name");
  if (o.command == "stream" && o.file == "-")
    throw usage_error("stream - writes its JSON lines to standard output: give --out / --edges-out a file");
  std::fflush(stdout);
  const int kept = dup(1);
  std::FILE* f = kept >= 0 ? fdopen(kept, "w") : nullptr;
  if (f == nullptr || dup2(2, 1) < 0) throw fluxgraph::error(std::string("cannot keep standard output for --out -: ") + std::strerror(errno));
  data_out = f;
}

// Every output file's folder exists and takes files, before the input is read: a typo in --out
// fails at once, not after the work (the file itself is written atomically at the end).
void check_output_paths(const options& o) {
  for (const char* name : {"out", "edges-out", "snapshot-out", "constraints-out"}) {
    const std::string path = o.get(name, "");
    if (path.empty() || path == "-") continue;
    struct stat st {};
    if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      throw usage_error(fmt::format("--{} {}: is a folder, not a file", name, path));
    const std::string::size_type slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    if (access(dir.c_str(), W_OK | X_OK) != 0)
      throw usage_error(fmt::format("--{} {}: cannot write in {}: {}", name, path, dir, std::strerror(errno)));
  }
}

int dispatch(const options& o) {
  check_output_paths(o);
  keep_stdout_for_data(o);
  // Live input: a reader thread parses while the store applies. OpenMP's default spin-wait between
  // parallel regions keeps every core busy and starves that thread (a tiny graph took 18 s instead
  // of 0.01 s on 2 cores). Passive waiting, unless the user chose; read before OpenMP starts.
  if (o.command == "stream" && o.file == "-") setenv("OMP_WAIT_POLICY", "PASSIVE", 0);
  if (o.values.count("threads"))  // read by the first parallel region (core/threads.hpp)
    setenv("FG_THREADS", std::to_string(o.integer("threads", 1, 1, 4096)).c_str(), 1);
  fluxgraph::set_max_line_bytes(std::size_t(o.integer("max-line", 1 << 20, 16, std::int64_t(1) << 40)));
  return o.run(o);
}
}  // namespace

std::FILE* data_stream() { return data_out; }

bool json_output(const options& o) {
  const std::string f = o.get("format", "text");
  if (o.command == "stream" && (f == "bin" || f == "bin64")) return false;  // --input-format's old spelling
  if (f != "text" && f != "json") throw usage_error("--format must be text or json, got '" + f + "'");
  return f == "json" && !(o.command == "stream" && o.file == "-");  // stream - writes JSON lines anyway
}

}  // namespace fg::cli

int main(int argc, char** argv) {
  using namespace fg::cli;
  try {
    return run_command_line(argc, argv, dispatch);
  } catch (const usage_error& e) {
    fmt::print(stderr, "fluxgraph: {}\n", e.what());
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "fluxgraph: out of host memory\n");
  } catch (const std::exception& e) {
    fmt::print(stderr, "fluxgraph: {}\n", e.what());
  }
  return 1;
}
