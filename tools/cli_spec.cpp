// The `fluxgraph` command line: every command, its options and its help, as CLI11 subcommands.
// Ranges and meanings are checked by the commands (options::number/integer): one error style.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <memory>

#include "bench/bench.hpp"
#include "fluxgraph/graph.hpp"
#include "tools/cli.hpp"

namespace fg::cli {

namespace {
struct option_spec {
  const char* name;
  const char* value;  ///< the value's name in the help; null for a flag
  const char* help;
};
struct command_spec {
  const char* name;
  std::vector<const char*> files;  ///< positional arguments, all required
  const char* help;
  std::vector<option_spec> options;
  const char* notes;               ///< the help's footer
  int (*run)(const cli::options&);  ///< what runs it (tools/cli.hpp)
};

const option_spec backend{"backend", "cpu|cuda", "cpu: the host (OpenMP in the CPU build, the sequential reference in the "
                                                 "CUDA build; points-to and cfl: the CPU solvers in both); cuda: the GPU "
                                                 "(CUDA build only). Default: the build's device"};
const option_spec max_line{"max-line", "BYTES", "the longest input line accepted (default 1048576): a longer one is an "
                                                 "error at its line, found while reading"};
const option_spec threads{"threads", "N", "CPU build: N OpenMP threads (default: the affinity mask's CPUs less those other "
                                          "processes keep busy, looked at as it runs; FG_THREADS=N does the same)"};
const option_spec kernel{"kernel", "auto|NAME", "the SpMV kernel: the cost model's pick (auto) or a name"};
const option_spec json_format{"format", "text|json", "json: the summary as one JSON object on standard output, "
                                                     "everything else on standard error (default text)"};
const std::vector<option_spec> pagerank_options = {
    {"damping", "D", "damping factor (networkx's alpha), default 0.85"},
    {"tol", "T", "stop when the L1 change < T * n (networkx's rule), default 1e-10"},
    {"max-iter", "N", "at most N iterations, default 1000"},
    {"double-reads", nullptr, "read the scores as double in every SpMV (default: as float where tol n >= 2^-16)"},
    {"top", "K", "print the K highest scores (default 10 without --out)"},
    {"out", "FILE", "write 'id score' lines for every vertex; - for stdout"},
    {"verbose", nullptr, "print why the kernel was chosen (the cost model's reasoning)"},
};

std::vector<option_spec> without(std::vector<option_spec> a, const std::string& name) {
  a.erase(std::remove_if(a.begin(), a.end(), [&](const option_spec& o) { return name == o.name; }), a.end());
  return a;
}

std::vector<option_spec> plus(std::vector<option_spec> a, const std::vector<option_spec>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The graph applications (docs/graph-apps.md): FILE also a Graphalytics X.e (with X.v) or X.adj.
const option_spec source{"source", "ID", "the source vertex, a file id (required)"};
std::vector<option_spec> app_options(std::vector<option_spec> own) {
  return plus(std::move(own), {{"undirected", nullptr, "store every edge both ways (an undirected graph file)"},
                               {"out", "FILE", "write 'id value' lines (file ids); - for stdout"}, backend, json_format});
}

const std::vector<command_spec>& commands() {
  static const std::vector<command_spec> all = {
      {"info", {"FILE"}, "what the graph is and how the engine would read it",
       {{"explain", nullptr, "the kernel selector's estimates for every kernel"},
        {"reads", "R", "SpMVs expected (with --explain)"}, kernel, json_format,
        {"memory", nullptr, "where the graph's memory goes once PageRank ran: each part in bytes per edge"}},
       "FILE: Matrix Market (.mtx[.gz]) or an edge list (SNAP/whitespace, [.gz]).", run_info},
      {"pagerank", {"FILE"}, "PageRank of a graph file (networkx.pagerank semantics)",
       plus(pagerank_options, {{"weighted", nullptr, "edges count by their weight"}, backend, kernel, json_format,
                               {"comm", "auto|mpi|nccl|self", "the ranks' transport (default auto: MPI under mpirun)"},
                               {"partition", "cyclic|blocks|sorted", "a distributed run's rows: v mod P, ranges balanced by edges, or "
                                                                     "rows sorted by size dealt mod P (default cyclic)"}}),
       "Damping 0.85, uniform teleport, dangling mass spread uniformly, duplicate edges counted once\n"
       "(unless --weighted). Results use the file's own ids.\n"
       "Under mpirun (mpirun -np P fluxgraph pagerank FILE) every rank reads its share of the lines and\n"
       "keeps its rows; rank 0 prints and writes (docs/distributed.md).", run_pagerank},
      {"ppr", {"FILE"}, "personalized PageRank of seed sets (networkx.pagerank with personalization=)",
       plus({{"seeds", "ID[,ID...][/ID...]", "the seed set (file ids), or several separated by '/' (required)"}},
            plus(without(pagerank_options, "double-reads"), {{"weighted", nullptr, "edges count by their weight"}, backend, kernel, json_format})),
       "Each set's walk teleports to its seeds, uniformly, and so does its dangling mass (networkx's\n"
       "personalization= with dangling=None). Up to 32 sets are read together: one read of the graph\n"
       "serves every set's scores (an SpMM). --out writes 'id score_1 ... score_k', a column per set.", run_ppr},
      {"stream", {"FILE"}, "stream a graph file (or standard input: FILE -) into DCSR in batches, then PageRank",
       plus(pagerank_options,
            {{"batch", "N", "edges per batch (required)"},
             {"delete-fraction", "F", "stream FILE: after each insert batch, delete a random F of the edges it inserted"},
             {"seed", "S", "the deletions' seed (default 1)"},
             {"edges-out", "FILE", "write the edges that remain, in the input's ids: FILE.mtx as Matrix Market, else an edge list; - for stdout"},
             {"defrag", "none|limit|measured", "when to defragment between batches (default measured)"},
             {"layout", "auto|rows|size", "where a defragmentation puts the rows (default auto)"},
             {"max-delay", "MS", "stream -: cut a batch MS milliseconds after its first edge (default 10)"},
             {"on-error", "skip|fail", "stream -: on a bad line, go on or stop (default fail)"},
             {"input-format", "text|bin|bin64", "stream -: the input's format (default text)"},
             {"format", "text|json", "stream FILE: json: the summary as one JSON object on standard output, the table on "
                                     "standard error (stream - always writes JSON lines). bin|bin64: --input-format's old "
                                     "spelling, still taken"},
             {"pagerank", nullptr, "PageRank after every batch, warm-started from the last scores"},
             {"pagerank-every", "N", "with --pagerank: bring the scores within their bound after every N batches and at the end "
                                     "(default 1); a batch in between only moves the kept residual"},
             {"memory", "fast|compact", "with --pagerank: keep both orientations and a pair index (fast, the default), or the "
                                        "out-edges alone with less slack (compact: about a quarter of the bytes per edge; sweeps "
                                        "read the out-edges with atomics)"},
             {"closure", nullptr, "keep the transitive closure current after every batch"},
             {"bfs", "ID", "keep BFS levels from vertex ID current after every batch"},
             {"sssp", "ID", "keep shortest-path lengths (hops) from vertex ID current after every batch"},
             {"wcc", nullptr, "keep the weakly connected components current after every batch"},
             {"triangles", nullptr, "keep the triangle count current after every batch"},
             {"compare", nullptr, "stream FILE: also run each batch's analysis from scratch and check"},
             {"snapshot-in", "FILE", "start from a snapshot (--snapshot-out, graph.save): its edges and ids first"},
             {"snapshot-out", "FILE", "at the end, write the graph and its ids as a snapshot (atomic)"},
             {"wal", "DIR", "stream -: durable: log every batch in DIR before its JSON line; resume from DIR"},
             {"sync", "batch|interval[:MS]|none", "stream -: when the log reaches the disk (default batch)"},
             {"snapshot-every", "N|SIZE", "stream -: a snapshot in DIR every N batches or SIZE log bytes (64MB; default 1000)"},
             {"accept-loss", nullptr, "stream - --wal: a log that lost acknowledged batches (cut short, damaged) is refused; "
                                      "with this, the stream goes on from what is left and warns"},
             backend, kernel,
             {"comm", "auto|mpi|nccl|self", "stream FILE: the ranks' transport (default auto: MPI under mpirun)"},
             {"partition", "cyclic|blocks|sorted", "stream FILE under mpirun: the ranks' rows (default cyclic)"}}),
       "stream FILE inserts the file's edges in batches in file order, then defragments and runs PageRank.\n"
       "--defrag: never (none), when a row reaches k segments (limit), or when the reads before the next\n"
       "batch make it pay off (measured). --layout size groups rows by length (the ADCSR kernels then read\n"
       "the store with no copy); auto picks size when the selector would read with ADCSR.\n"
       "stream -: edges from standard input as they arrive: 'u v' or '+ u v' inserts, '- u v' deletes, an\n"
       "optional weight after u v (checked; each edge counts once), fields split by spaces, tabs or commas,\n"
       "'#' comments. A batch is cut at N edges,\n"
       "MS milliseconds after its first edge arrived, or at the end of the input. stdout: one JSON object\n"
       "a line per batch, then a summary line. --input-format bin|bin64: little-endian int32|int64 (u, v) pairs,\n"
       "inserts only. A bad line is named on stderr (<stdin>:LINE).\n"
       "--wal DIR (docs/durability.md): each batch is appended to a write-ahead log in DIR (synced per --sync)\n"
       "before its line is printed; snapshots every --snapshot-every. Restarted on DIR, the stream loads the\n"
       "newest good snapshot, replays the log (a torn last record is dropped) and prints a first line\n"
       "{\"recovered\":...,\"edges_in\":T}: the producer resumes after its T-th edge line.", run_stream},
      {"wal", {"ACTION", "DIR"}, "a durable stream's folder (stream - --wal DIR): `wal check DIR` reads every snapshot and log",
       {json_format},
       "Prints a line per snapshot and log (whole, or what is wrong with it), then what a start on DIR would do\n"
       "(the batch it recovers, or why it would be refused). Takes no lock and changes nothing: a stream may be\n"
       "running on DIR. Exit status 1 unless every file is whole and a start loses nothing.", run_wal},
      {"bfs", {"FILE"}, "BFS levels from a source (direction-optimizing)", app_options({source}),
       "Writes 'id level' lines with --out (FILE, or - for stdout); unreached vertices are left out.", run_app},
      {"sssp", {"FILE"}, "shortest path lengths from a source (delta-stepping; weights >= 0, else 1 per edge)",
       app_options({source, {"delta", "D", "bucket width (default automatic)"}}),
       "Writes 'id distance' lines with --out; unreached vertices are left out.", run_app},
      {"wcc", {"FILE"}, "weakly connected components", app_options({}),
       "Writes 'id label' lines with --out: the label is the component's least id.", run_app},
      {"cdlp", {"FILE"}, "community detection by label propagation (LDBC Graphalytics rules)",
       app_options({{"iterations", "N", "synchronous rounds (default 10)"}}), "Writes 'id label' lines with --out.", run_app},
      {"lcc", {"FILE"}, "local clustering coefficient (LDBC Graphalytics: in- and out-neighbours)", app_options({}),
       "Writes 'id coefficient' lines with --out.", run_app},
      {"tc", {"FILE"}, "triangle count of the undirected simple graph underneath", app_options({}),
       "Prints the total; --out writes 'id triangles' lines (per vertex).", run_app},
      {"spmv", {"FILE"}, "y = A x over a semiring (row u of A: u's out-edges)",
       {{"semiring", "plus_times|min_plus|or_and", "default plus_times (or_and: any nonzero x is true)"},
        {"x", "FILE", "'id value' lines in the graph's ids (default: every entry 1; ids not listed: 0, +inf under min_plus)"},
        {"transpose", nullptr, "y = A^T x: row v holds v's in-edges (PageRank's pull)"},
        {"weighted", nullptr, "entries are the file's weights (default 1)"},
        {"repeat", "R", "multiply R times and report the median time (default 1)"},
        {"out", "FILE", "write 'id value' lines for every vertex; - for stdout"}, backend, json_format,
        {"comm", "auto|mpi|nccl|self", "the ranks' transport (default auto: MPI under mpirun)"},
        {"partition", "cyclic|blocks|sorted", "a distributed run's rows: v mod P, ranges balanced by edges, or rows sorted by size dealt mod P (default cyclic)"}},
       "Under mpirun (mpirun -np P fluxgraph spmv FILE) every rank reads its share of the lines and multiplies\n"
       "its rows (x by the sparse exchange or the all-gather, docs/distributed.md); rank 0 writes.", run_spmv},
      {"closure", {"FILE"}, "the transitive closure: pairs joined by a path of length >= 1",
       {{"count-only", nullptr, "keep the pairs on the device, print their number (default without --out)"},
        {"out", "FILE", "write the pairs as 'x y' lines (file ids); - for stdout"}, backend, json_format},
       "Prints the pairs' number, the semi-naive iterations, the time and the peak memory.", run_closure},
      {"reach", {"FILE"}, "the vertices reachable from given sources (path length >= 1)",
       {{"sources", "ID[,ID...]", "the sources, file ids (required)"}, {"out", "FILE", "write 'source vertex' lines; - for stdout"}, backend,
        json_format},
       nullptr, run_reach},
      {"pointsto", {"FILE"}, "Andersen's points-to analysis of a constraint file or of LLVM IR",
       {{"out", "FILE", "write 'var: objects' lines; - for stdout"}, {"sizes", nullptr, "with --out: 'var: count' lines"},
        {"check", nullptr, "compare with the worklist solver"},
        {"constraints-out", "FILE", "write the constraints as 'p = &a' lines (indirect calls as the copies they resolve to)"},
        {"keep-calls", nullptr, "with --constraints-out: indirect calls as 'func' / 'call' lines instead"},
        {"no-solve", nullptr, "with --keep-calls: write the constraints and stop (turn IR into text for a build without LLVM)"},
        backend, json_format},
       "FILE: Galois numeric '<vars> <constraints>' format, 'p = &a', 'p = q', 'p = *q', '*p = q' lines (and "
       "'func f [p, -] -> r', 'r = call fp [a, -]' for indirect calls), or LLVM IR (.ll, .bc; names as the IR's, "
       "e.g. main:%p, @g(obj)).", run_pointsto},
      {"cfl", {"GRAPH", "GRAMMAR"}, "CFL-reachability of a labelled graph under a grammar (POCR .cfg)",
       {{"check", nullptr, "run the worklist solver too"}, backend, json_format},
       "GRAPH: 'src dst label [index]' lines. Prints the pairs of the grammar's Count: nonterminals.", run_cfl},
      {"cfa", {"FILE"}, "0-CFA of a CPS lambda-calculus program (s-expressions)",
       {{"out", "FILE", "write 'var@line: size: lambdas' lines; - for stdout"}, {"check", nullptr, "run the abstract interpreter too"},
        backend, json_format},
       nullptr, run_cfa},
  };
  return all;
}

std::string file_help(const std::string& name) {
  if (name == "GRAPH") return "the labelled graph";
  if (name == "GRAMMAR") return "the grammar";
  if (name == "ACTION") return "check";
  if (name == "DIR") return "the folder";
  return "the input file (graphs: Matrix Market or an edge list, .gz too; stream: - for standard input)";
}

// One command's options, filled by CLI11 while parsing; copied into `options` for the command.
struct parsed {
  std::vector<std::string> files;
  std::map<std::string, std::string> values;
  std::map<std::string, CLI::Option*> given;
  std::map<std::string, bool> flags;
};
}  // namespace

std::string version_line() {
  return fmt::format("fluxgraph {} ({} build)", fluxgraph::version(), fluxgraph::build_backend());
}

int run_command_line(int argc, char** argv, int (*run)(const options&)) {
  CLI::App app("fluxgraph: a dynamic graph analytics engine (DCSR store, semiring SpMV algorithms)", "fluxgraph");
  app.set_version_flag("--version", version_line());
  app.require_subcommand(1);
  int status = 0;
  std::vector<std::unique_ptr<parsed>> keep;
  for (const command_spec& c : commands()) {
    auto p = std::make_unique<parsed>();
    CLI::App* sub = app.add_subcommand(c.name, c.help);
    if (c.notes) sub->footer(c.notes);
    p->files.resize(c.files.size());
    for (std::size_t i = 0; i < c.files.size(); ++i) sub->add_option(c.files[i], p->files[i], file_help(c.files[i]))->required();
    std::vector<option_spec> opts = c.options;
    opts.push_back(max_line);
    opts.push_back(threads);
    for (const option_spec& o : opts) {
      const std::string flag = std::string("--") + o.name;
      if (o.value) p->given[o.name] = sub->add_option(flag, p->values[o.name], o.help)->type_name(o.value);
      else p->given[o.name] = sub->add_flag(flag, p->flags[o.name], o.help);
    }
    parsed* q = p.get();
    const std::string name = c.name;
    int (*run_command)(const options&) = c.run;
    sub->callback([q, name, run, run_command, &status] {
      options o;
      o.command = name;
      o.run = run_command;
      o.file = q->files.at(0);
      if (q->files.size() > 1) o.file2 = q->files[1];
      for (const auto& [n, opt] : q->given)
        if (opt->count() > 0) q->flags.count(n) ? o.flags.push_back(n) : void(o.values[n] = q->values[n]);
      try {
        status = run(o);
      } catch (const usage_error& e) {
        throw usage_error(fmt::format("{} (see fluxgraph {} --help)", e.what(), name));
      }
    });
    keep.push_back(std::move(p));
  }
  CLI::App* bench = app.add_subcommand("bench", "the benchmarks (timed on this machine's device)");
  bench->require_subcommand(1);
  fg::bench::add_benchmarks(*bench, app, status);
  app.footer("Run `fluxgraph COMMAND --help` for a command's options.");  // after the subcommands: not inherited
  // CLI11 would say "a subcommand is required" of a misspelt command: name it instead.
  const auto named = [&](CLI::App* s) { return argc >= 2 && s->check_name(argv[1]); };
  if (argc >= 2 && argv[1][0] != '-' && app.get_subcommands(named).empty())
    throw usage_error(fmt::format("unknown command '{}' (see fluxgraph --help)", argv[1]));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    fmt::print("{}", app.help());  // the help of the deepest subcommand named
    return 0;
  } catch (const CLI::CallForVersion&) {
    fmt::print("{}\n", version_line());
    return 0;
  } catch (const CLI::ParseError& e) {
    std::string where = "fluxgraph";
    for (const CLI::App* s = &app; !s->get_subcommands().empty();) {
      s = s->get_subcommands().front();
      where += " " + s->get_name();
    }
    std::string what = e.what();
    for (char& ch : what) if (ch == '\n') ch = ' ';
    // "A subcommand is required" of `bench foo` or `--verison`: name what was not understood.
    if (what.find("subcommand is required") != std::string::npos) {
      CLI::App* s = &app;
      int i = 1;
      where = "fluxgraph";
      for (; i < argc; ++i) {
        const auto sub = s->get_subcommands([&](CLI::App* c) { return c->check_name(argv[i]); });
        if (sub.empty()) break;
        s = sub.front(), where += " " + s->get_name();
      }
      if (i < argc)
        what = fmt::format("unknown {} '{}'", argv[i][0] == '-' ? "option" : s == &app ? "command" : "subcommand", argv[i]);
    }
    throw usage_error(fmt::format("{} (see {} --help)", what, where));
  }
  return status;
}

}  // namespace fg::cli
