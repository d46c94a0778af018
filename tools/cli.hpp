// The `fluxgraph` command: parsed options and the subcommands. The command is a user of the public
// API (include/fluxgraph) only; the benchmarks (bench/) are the one part that reads the engine.
#pragma once
#include <fmt/core.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "fluxgraph/distributed.hpp"
#include "fluxgraph/fluxgraph.hpp"
#include "tools/json.hpp"

namespace fg::cli {

using fluxgraph::vertex_id;

/// Usage error: exit code 1 with the message (run_command_line adds the hint to the command's --help).
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct options {
  std::string command, file;
  std::string file2;                          ///< cfl: the grammar
  std::map<std::string, std::string> values;  ///< --name value
  std::vector<std::string> flags;             ///< --name (no value)
  int (*run)(const options&) = nullptr;       ///< the command's function (its row in tools/cli_spec.cpp)
  bool has(const std::string& flag) const;
  std::string get(const std::string& name, const std::string& fallback) const;
  double number(const std::string& name, double fallback, double lo, double hi) const;
  std::int64_t integer(const std::string& name, std::int64_t fallback, std::int64_t lo, std::int64_t hi) const;
};

/// Parses argv (CLI11: tools/cli_spec.cpp, one row a command, with its function) and calls `run`
/// with the chosen command's options (options::run: that function), or runs a benchmark; --help
/// and --version print and give 0. Throws usage_error (with the command's "see ... --help" hint)
/// for a bad command line.
int run_command_line(int argc, char** argv, int (*run)(const options&));
/// The device from --backend (cpu|cuda), and what runs there for the output.
fluxgraph::device backend_of(const options& o, std::string& description);

int run_info(const options& o);
int run_pagerank(const options& o);
int run_ppr(const options& o);  ///< personalized PageRank (tools/commands.cpp)
/// pagerank under mpirun: every rank its share (tools/distributed.cpp).
int run_pagerank_distributed(const options& o, fluxgraph::ranks& r);
/// stream FILE under mpirun: batches of --batch edges over all ranks, then PageRank (tools/distributed.cpp).
int run_stream_distributed(const options& o, fluxgraph::ranks& r);
/// --partition sorted under mpirun: the file's vertices renumbered by decreasing row size (rows:
/// targets with in_edges), edges and original_id with them, for a cyclic partition over the new ids
/// (the DCSR paper's rule). Returns the new id of each old dense id (empty for another partition).
std::vector<vertex_id> renumber_by_row_size(const options& o, fluxgraph::ranks& r, fluxgraph::distributed_file& f, bool in_edges);
/// A distributed graph's options from --weighted and --partition (blocks: cut by e's rows; sorted:
/// cyclic over renumber_by_row_size's ids), rows the targets with in_edges.
fluxgraph::distributed_options graph_options(const options& o, fluxgraph::ranks& r, const fluxgraph::distributed_file& f,
                                             const fluxgraph::edge_span<std::int32_t>& e, bool in_edges);
int run_stream(const options& o);       ///< stream FILE (tools/stream.cpp)
int run_stream_live(const options& o);  ///< stream - (tools/stream_live.cpp)
int run_wal(const options& o);          ///< wal check DIR (tools/stream_live.cpp)
int run_closure(const options& o);
int run_spmv(const options& o);  ///< spmv FILE, one process or under mpirun (tools/spmv.cpp)
int run_reach(const options& o);
int run_pointsto(const options& o);
int run_cfl(const options& o);
int run_cfa(const options& o);
int run_app(const options& o);  ///< bfs, sssp, wcc, cdlp, lcc, tc (tools/apps.cpp)

// Shared by the subcommands (tools/commands.cpp).
/// The graph file, and the seconds it took to read.
fluxgraph::edge_file load(const std::string& path, double& seconds);
/// The file's edges in a graph on `where` (weighted: with the file's weights, parallel edges apiece).
fluxgraph::graph graph_of(const fluxgraph::edge_file& f, fluxgraph::device where, bool weighted);
/// The dense id of file id `id` (original_id is increasing in every format), or -1.
vertex_id dense_vertex(const fluxgraph::edge_file& f, std::int64_t id);
/// PageRank's options from --damping, --tol, --max-iter, --kernel (a progress line on a tty).
fluxgraph::pagerank_options pagerank_opts(const options& o);
/// The stream's options from --pagerank, --closure, --compare, --defrag, --layout and the above.
fluxgraph::stream_options stream_opts(const options& o, fluxgraph::device where);
/// Whether a stream keeps a graph application (--bfs, --sssp, --wcc, --triangles).
inline bool apps_on(const fluxgraph::stream_options& s) { return s.bfs_source >= 0 || s.sssp_source >= 0 || s.wcc || s.triangles; }
/// --edges-out: the edges e (dense ids) in the input's own ids id[v], sorted by them: FILE.mtx as
/// Matrix Market (n = the largest id; the ids must be >= 1), any other name as an edge list.
void write_edges(const std::string& path, const std::string& source, const std::vector<std::int64_t>& id,
                 const fluxgraph::coo& e);
/// Prints a PageRank result (kernel, iterations) and writes --out or prints the --top vertices, by
/// the file ids `id` (id[v] for dense vertex v).
void report(const options& o, const std::vector<std::int64_t>& id, const fluxgraph::pagerank_result& r,
            const fluxgraph::pagerank_options& p);
/// A progress line on standard error when a person watches (a tty), else nothing.
std::function<void(int, std::int64_t, std::int64_t)> progress_line(const char* step);

/// Where `--out -` (or `--edges-out -`) writes: the process's standard output, kept for the data
/// alone (dispatch() sends everything else printed to standard error then).
std::FILE* data_stream();

/// Whether --format json asks for the summary as one JSON object on data_stream() (stream -
/// always writes JSON lines; its --format bin|bin64 is --input-format's old spelling); a value other
/// than text or json is a usage error.
bool json_output(const options& o);
/// "top" into j: the k best of `best` (dense ids, as fluxgraph::stream::top gives them, ties to the
/// k-th included) by input id, ties to the smaller input id.
void add_top(json_line& j, std::vector<std::pair<fluxgraph::vertex_id, double>> best, const std::vector<std::int64_t>& id,
             std::int64_t k);

/// --format json's object, begun with what every command's summary says first: command, file,
/// vertices, edges, backend.
json_line json_summary(const options& o, const fluxgraph::edge_file& f, const fluxgraph::graph& g, const std::string& backend);

/// One data line "id value" of every --out file: the input's id, then the value; a real number in
/// the shortest form that reads back to the same double (fmt's default), one format everywhere.
template <class Value>
void data_line(std::FILE* out, std::int64_t id, const Value& value) {
  fmt::print(out, "{} {}\n", id, value);
}

// Output goes to a temporary file renamed into place at the end: a failure leaves no partial file.
// `write` prints through the FILE* and returns false when a write failed. "-": standard output.
template <class F>
void write_atomically(const std::string& path, F write) {
  if (path == "-") {
    std::FILE* out = data_stream();
    if (!write(out) || std::fflush(out) != 0) throw fluxgraph::error("cannot write to standard output");
    return;
  }
  const std::string tmp = path + ".tmp" + std::to_string(getpid());
  std::FILE* out = std::fopen(tmp.c_str(), "w");
  if (out == nullptr) throw fluxgraph::error("cannot write " + path + ": " + std::strerror(errno));
  bool ok = false;
  try {
    ok = write(out);
  } catch (...) {
    std::fclose(out);
    std::remove(tmp.c_str());
    throw;
  }
  ok = std::fclose(out) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw fluxgraph::error("cannot write " + path + ": " + std::strerror(err));
  }
}

}  // namespace fg::cli
