// CFL grammar (*.cfg) and labelled graph (*.peg, *.vfg) files of the POCR distribution; the format
// as read here is documented in algorithms/cfl.hpp. Errors: fg::input_error "file:line: what".
#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <string_view>

#include "algorithms/cfl.hpp"
#include "core/error.hpp"
#include "loaders/text_reader.hpp"

namespace fg {

int cfl_grammar::find(const std::string& name) const {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return int(i);
  return -1;
}

namespace {
bool ends_with(const std::string& s, const char* suffix) {
  const std::string t(suffix);
  return s.size() > t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

struct raw_production {
  std::vector<std::string> sym;  // LHS, then the RHS
  std::int64_t line;
};

// The supported indexed shapes (see cfl.hpp): N_i -> t_i X defines, Y -> N_i u_i uses.
void check_indexed(const cfl_grammar& g) {
  for (const auto& r : g.rules) {
    const bool li = g.indexed[std::size_t(r.lhs)];
    const bool ai = r.a >= 0 && g.indexed[std::size_t(r.a)], bi = r.b >= 0 && g.indexed[std::size_t(r.b)];
    const std::string text = g.names[std::size_t(r.lhs)] + " ->" + (r.a >= 0 ? " " + g.names[std::size_t(r.a)] : "") +
                             (r.b >= 0 ? " " + g.names[std::size_t(r.b)] : "");
    if (li) {
      if (r.b < 0 || !ai || !g.terminal[std::size_t(r.a)] || bi)
        throw input_error(g.path, r.line, "unsupported indexed production '" + text +
                                              "': an indexed nonterminal must be defined as N_i -> t_i X (t_i an indexed label, X unindexed)");
    } else if (ai || bi) {
      if (r.b < 0 || !ai || g.terminal[std::size_t(r.a)] || !bi || !g.terminal[std::size_t(r.b)])
        throw input_error(g.path, r.line, "unsupported indexed production '" + text +
                                              "': indexed symbols may only appear as Y -> N_i u_i (N_i an indexed nonterminal, u_i an indexed label)");
    }
  }
}
}  // namespace

std::vector<cfl_fused_rule> fused_rules(const cfl_grammar& g) {
  std::vector<cfl_fused_rule> out;
  for (const auto& use : g.rules) {
    if (g.indexed[std::size_t(use.lhs)] || use.a < 0 || !g.indexed[std::size_t(use.a)]) continue;
    for (const auto& def : g.rules)
      if (def.lhs == use.a) out.push_back({use.lhs, def.a, def.b, use.b});
  }
  return out;
}

cfl_grammar read_cfl_grammar(const std::string& path) {
  text_reader in(path);
  cfl_grammar g;
  g.path = path;
  std::vector<raw_production> prods;
  std::vector<std::pair<std::string, std::int64_t>> count_names;
  enum { productions, counts, hints } mode = productions;
  std::string_view line, tok[64];
  while (in.next(line)) {
    const std::size_t k = split_tokens(line, tok, 64, true);
    if (k == 0 || tok[0][0] == '#') continue;  // blank or a comment
    if (k > 64) throw input_error(path, in.line_number(), "production longer than 64 symbols");
    if (k == 1 && tok[0].back() == ':') {
      const std::string_view s = tok[0];
      if (s == "Count:") mode = counts;
      else if (s == "Production:") mode = productions;
      else if (s == "Insert:" || s == "Follow:") mode = hints;
      else throw input_error(path, in.line_number(), "unknown section " + quote_token(s) + " (Production:, Count:, Insert:, Follow:)");
      continue;
    }
    if (mode == hints) continue;
    if (mode == counts) {
      for (std::size_t i = 0; i < k; ++i) count_names.emplace_back(std::string(tok[i]), in.line_number());
      continue;
    }
    raw_production p{{}, in.line_number()};
    for (std::size_t i = 0; i < k; ++i) {
      if (tok[i].back() == ':') throw input_error(path, in.line_number(), "symbol " + quote_token(tok[i]) + " ends with ':'");
      p.sym.emplace_back(tok[i]);
    }
    prods.push_back(std::move(p));
  }
  if (prods.empty()) throw input_error(path, in.line_number(), "no productions");
  std::map<std::string, int> id;
  auto symbol = [&](const std::string& s) {
    auto [it, fresh] = id.emplace(s, int(g.names.size()));
    if (fresh) g.names.push_back(s), g.terminal.push_back(1), g.indexed.push_back(ends_with(s, "_i"));
    return it->second;
  };
  // Symbols numbered as they first appear; a symbol is a nonterminal when it is some LHS.
  for (const auto& p : prods)
    for (const auto& s : p.sym) symbol(s);
  for (const auto& p : prods) g.terminal[std::size_t(id[p.sym[0]])] = 0;
  for (const auto& p : prods) {
    int lhs = id[p.sym[0]];
    const std::size_t n = p.sym.size() - 1;
    if (n <= 2) {
      g.rules.push_back({lhs, n >= 1 ? id[p.sym[1]] : -1, n == 2 ? id[p.sym[2]] : -1, p.line});
      continue;
    }
    // L -> X1 X2 ... Xn  =>  L -> X1 L.1, L.1 -> X2 L.2, ..., L.(n-2) -> X(n-1) Xn
    for (std::size_t i = 1; i < n; ++i)
      if (g.indexed[std::size_t(id[p.sym[i]])] || g.indexed[std::size_t(id[p.sym[n]])])
        throw input_error(path, p.line, "indexed symbols are not supported in productions longer than 2");
    for (std::size_t i = 1; i + 1 < n; ++i) {
      const std::string fresh = p.sym[0] + "." + std::to_string(p.line) + "." + std::to_string(i);
      const int f = symbol(fresh);
      g.terminal[std::size_t(f)] = 0;
      g.indexed[std::size_t(f)] = 0;
      g.rules.push_back({lhs, id[p.sym[i]], f, p.line});
      lhs = f;
    }
    g.rules.push_back({lhs, id[p.sym[n - 1]], id[p.sym[n]], p.line});
  }
  for (const auto& [name, line_no] : count_names) {
    auto it = id.find(name);
    if (it == id.end() || g.terminal[std::size_t(it->second)])
      throw input_error(path, line_no, "Count: symbol " + quote_token(name) + " is not a nonterminal of the grammar");
    if (g.indexed[std::size_t(it->second)]) throw input_error(path, line_no, "Count: symbol " + quote_token(name) + " is indexed");
    g.count.push_back(it->second);
  }
  if (g.count.empty()) throw input_error(path, in.line_number(), "no 'Count:' section naming the nonterminal to count");
  check_indexed(g);
  return g;
}

cfl_graph read_cfl_graph(const std::string& path, const cfl_grammar& g) {
  text_reader in(path);
  cfl_graph out;
  out.path = path;
  out.src.resize(g.names.size());
  out.dst.resize(g.names.size());
  out.idx.resize(g.names.size());
  std::map<std::string, int, std::less<>> label;
  for (std::size_t s = 0; s < g.names.size(); ++s)
    if (g.terminal[s]) label.emplace(g.names[s], int(s));
  std::int64_t max_id = -1;
  std::string_view line, tok[5];
  auto num = [&](std::string_view t, const char* what) {
    std::int64_t v = 0;
    if (parse_int64(t, v) != parse_status::ok || v < 0 || v >= std::numeric_limits<vertex_t>::max())
      throw input_error(path, in.line_number(), std::string(what) + " " + quote_token(t) + " is not an integer in [0, 2^31 - 1)");
    return v;
  };
  while (in.next(line)) {
    const std::size_t k = split_tokens(line, tok, 5, false);
    if (k == 0 || tok[0][0] == '#') continue;
    if (k < 3 || k > 4) throw input_error(path, in.line_number(), "expected 'src dst label [index]', got " + std::to_string(k) + " fields");
    const std::int64_t s = num(tok[0], "node"), d = num(tok[1], "node");
    max_id = std::max({max_id, s, d});
    auto it = label.find(tok[2]);
    if (it == label.end()) {
      ++out.skipped;
      continue;
    }
    const auto t = std::size_t(it->second);
    if (g.indexed[t]) {
      if (k != 4) throw input_error(path, in.line_number(), "indexed label " + quote_token(tok[2]) + " needs an index in the 4th column");
      out.idx[t].push_back(vertex_t(num(tok[3], "index")));
    }
    out.src[t].push_back(vertex_t(s));
    out.dst[t].push_back(vertex_t(d));
    ++out.edges;
  }
  out.nodes = vertex_t(max_id + 1);
  return out;
}

}  // namespace fg
