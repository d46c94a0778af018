// Points-to constraint files (algorithms/pointsto.hpp): the Galois/Hardekopf numeric format and a
// readable text format. Every error is an fg::input_error "file:line: what".
#include <cctype>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>

#include <fstream>

#include "algorithms/detail/indirect_calls.hpp"
#include "algorithms/pointsto.hpp"
#include "core/error.hpp"
#include "algorithms/llvm_ir.hpp"
#include "loaders/text_reader.hpp"

namespace fg {

namespace {
constexpr std::int64_t max_vars = 2147483646;

std::string_view strip_comment(std::string_view line) {
  const std::size_t h = line.find('#');
  return h == std::string_view::npos ? line : line.substr(0, h);
}

std::int64_t number(const text_reader& in, std::string_view tok, const char* what, std::int64_t lo, std::int64_t hi) {
  std::int64_t v = 0;
  if (parse_int64(tok, v) != parse_status::ok || v < lo || v > hi)
    throw input_error(in.path(), in.line_number(), std::string(what) + " " + quote_token(tok) + " is not an integer in [" +
                                                       std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

// Appends constraint `type` (0 &, 1 copy, 2 load, 3 store) "dst <- src" to p.
void add(inclusion_problem& p, int type, vertex_t dst, vertex_t src) {
  switch (type) {
    case 0: p.base_node.push_back(dst), p.base_obj.push_back(src); break;
    case 1: p.copy_dst.push_back(dst), p.copy_src.push_back(src); break;
    case 2: p.load_dst.push_back(dst), p.load_ptr.push_back(src); break;
    default:  // *dst = src
      if (p.stores.empty()) p.stores.emplace_back();
      p.stores[0].ptr.push_back(dst), p.stores[0].src.push_back(src);
  }
}

// Identifiers: C-like names, and the IR front end's ("main:%p", "@g(obj)", "f:(ret)", "%x-y.1").
bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '@' || c == '%' || c == '(' || c == '$' || c == '.';
}
bool is_ident(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':' || c == '%' || c == '@' ||
         c == '(' || c == ')' || c == '$' || c == '-';
}
}  // namespace

pointsto_problem read_pointsto_numeric(const std::string& path) {
  text_reader in(path);
  pointsto_problem p;
  p.path = path;
  std::string_view line, tok[6];
  std::int64_t vars = -1, expected = 0;
  while (in.next(line)) {
    line = strip_comment(line);
    const std::size_t k = split_tokens(line, tok, 6, false);
    if (k == 0) continue;
    if (vars < 0) {  // header
      if (k != 2) throw input_error(path, in.line_number(), "expected the header '<vars> <constraints>', got " + std::to_string(k) + " fields");
      vars = number(in, tok[0], "variable count", 0, max_vars);
      expected = number(in, tok[1], "constraint count", 0, std::int64_t(1) << 40);
      continue;  // no name strings: a variable is its number (a short header may announce 2^31 of them)
    }
    if (k != 5) throw input_error(path, in.line_number(), "expected '<id> <src> <dst> <type> <offset>', got " + std::to_string(k) + " fields");
    number(in, tok[0], "constraint id", 0, std::numeric_limits<std::int64_t>::max());
    const auto src = vertex_t(number(in, tok[1], "source variable", 0, vars - 1));
    const auto dst = vertex_t(number(in, tok[2], "destination variable", 0, vars - 1));
    const int type = int(number(in, tok[3], "constraint type (0 &, 1 copy, 2 load, 3 store)", 0, 3));
    if (tok[4] != "0")
      throw input_error(path, in.line_number(), "offset " + quote_token(tok[4]) + ": field offsets are not supported (only 0)");
    add(p.constraints, type, dst, src);
    ++p.lines;
  }
  if (vars < 0) throw input_error(path, in.line_number(), "empty file: no '<vars> <constraints>' header");
  if (p.lines != expected)
    throw input_error(path, in.line_number(), "the header announces " + std::to_string(expected) + " constraints, the file has " +
                                                 std::to_string(p.lines));
  p.constraints.nodes = p.constraints.objects = vertex_t(vars);
  return p;
}

pointsto_problem read_pointsto_text(const std::string& path) {
  text_reader in(path);
  pointsto_problem p;
  p.path = path;
  std::unordered_map<std::string, vertex_t> id;
  std::string_view line;
  while (in.next(line)) {
    line = strip_comment(line);
    std::size_t i = 0;
    auto skip = [&] {
      while (i < line.size() && is_separator(line[i], false)) ++i;
    };
    auto fail = [&](const std::string& what) -> void { throw input_error(path, in.line_number(), what); };
    // An operand: ['*' | '&'] identifier; returns the sigil (0 when none) and the variable.
    auto operand = [&](char& sigil) -> vertex_t {
      skip();
      sigil = 0;
      if (i < line.size() && (line[i] == '*' || line[i] == '&')) sigil = line[i++], skip();
      if (i >= line.size() || !is_ident_start(line[i]))
        fail(i >= line.size() ? "expected an identifier at the end of the line"
                              : "expected an identifier, found " + quote_token(line.substr(i, 1)));
      const std::size_t b = i;
      while (i < line.size() && is_ident(line[i])) ++i;
      const std::string name(line.substr(b, i - b));
      auto [it, fresh] = id.emplace(name, vertex_t(p.names.size()));
      if (fresh) {
        if (std::int64_t(p.names.size()) >= max_vars) fail("too many variables");
        p.names.push_back(name);
      }
      return it->second;
    };
    // "[A, -, B]": variables, '-' for a value that carries no pointer (-1)
    auto list = [&](std::vector<vertex_t>& out) {
      skip();
      if (i >= line.size() || line[i] != '[') fail("expected '[' and the list of arguments or parameters");
      ++i, skip();
      for (bool first = true; i < line.size() && line[i] != ']'; first = false) {
        if (!first) {
          if (line[i] != ',') fail("expected ',' or ']' in the list, found " + quote_token(line.substr(i, 1)));
          ++i, skip();
        }
        char sig = 0;
        if (i < line.size() && line[i] == '-') out.push_back(-1), ++i;
        else if (out.push_back(operand(sig)); sig != 0) fail("a list holds variables, not '*' or '&'");
        skip();
      }
      if (i >= line.size()) fail("expected ']' at the end of the list");
      ++i;
    };
    // "call P [args]" after "R =" (result R) or alone (result -1): an indirect call through P
    auto call = [&](vertex_t result) {
      char sig = 0;
      const vertex_t callee = operand(sig);
      if (sig != 0) fail("call through a variable: 'call p [args]'");
      auto& c = p.constraints.icalls;
      if (c.arg_ptr.empty()) c.arg_ptr.push_back(0);
      c.callee.push_back(callee), c.result.push_back(result);
      list(c.args);
      c.arg_ptr.push_back(offset_t(c.args.size()));
    };
    auto keyword = [&](const char* k) {  // k, then an identifier (not '='): a func or call line
      const std::size_t n = std::char_traits<char>::length(k);
      if (line.compare(i, n, k) != 0 || i + n >= line.size() || !is_separator(line[i + n], false)) return false;
      std::size_t j = i + n;
      while (j < line.size() && is_separator(line[j], false)) ++j;
      if (j >= line.size() || !is_ident_start(line[j])) return false;
      i = j;
      return true;
    };
    auto line_end = [&](const char* what) {  // nothing may follow; the line counts
      skip();
      if (i != line.size()) fail("unexpected " + quote_token(line.substr(i)) + " after the " + what);
      ++p.lines;
    };
    auto function = [&] {  // after "func": "F [params] -> R", function object F, its formals and return
      char sig = 0;
      auto& f = p.constraints.functions;
      if (f.formal_ptr.empty()) f.formal_ptr.push_back(0);
      f.object.push_back(operand(sig));
      if (sig != 0) fail("a function is named by its object: 'func f [params] -> ret'");
      list(f.formals);
      f.formal_ptr.push_back(offset_t(f.formals.size()));
      skip();
      vertex_t ret = -1;
      if (i + 1 < line.size() && line[i] == '-' && line[i + 1] == '>') {
        i += 2;
        if (ret = operand(sig); sig != 0) fail("the return value is a variable");
      }
      f.ret.push_back(ret);
    };
    skip();
    if (i == line.size()) continue;
    if (keyword("func")) {
      function();
      line_end("function");
      continue;
    }
    if (keyword("call")) {
      call(-1);
      line_end("call");
      continue;
    }
    char ls = 0, rs = 0;
    const vertex_t lhs = operand(ls);
    skip();
    if (i >= line.size() || line[i] != '=') fail("expected '=' after the left-hand side");
    ++i;
    skip();
    if (keyword("call")) {
      if (ls != 0) fail("the result of a call is a variable");
      call(lhs);
      line_end("call");
      continue;
    }
    const vertex_t rhs = operand(rs);
    skip();
    if (i != line.size()) fail("unexpected " + quote_token(line.substr(i)) + " after the constraint");
    if (ls == '&') fail("'&' cannot appear on the left-hand side");
    if (ls == '*' && rs != 0) fail("'*p = *q' and '*p = &q' are not constraints: split them with a temporary");
    add(p.constraints, ls == '*' ? 3 : rs == '&' ? 0 : rs == '*' ? 2 : 1, lhs, rhs);
    ++p.lines;
  }
  p.constraints.nodes = p.constraints.objects = vertex_t(p.names.size());
  return p;
}

pointsto_problem read_pointsto(const std::string& path) {
  if (looks_like_llvm_ir(path)) return read_llvm_ir(path);
  // Sniff: the numeric format starts (after comments and blank lines) with an integer.
  text_reader in(path);
  std::string_view line, tok[3];
  while (in.next(line)) {
    const std::size_t k = split_tokens(strip_comment(line), tok, 3, false);
    if (k == 0) continue;
    std::int64_t v = 0;
    const bool numeric = parse_int64(tok[0], v) == parse_status::ok;  // no identifier starts with a digit
    return numeric ? read_pointsto_numeric(path) : read_pointsto_text(path);
  }
  return read_pointsto_text(path);  // empty: no variables, no constraints
}

void write_pointsto_text(const pointsto_problem& pr, const std::string& path, const inclusion_result* solution) {
  const inclusion_problem& p = pr.constraints;
  p.check();
  for (const auto& f : p.stores)
    FG_EXPECTS(f.field_node.empty(), "write_pointsto: stores through a field map have no text form");
  // names the text reader takes back: other characters become '_', a leading digit gets a 'v'
  std::vector<std::string> name(std::size_t(p.nodes));
  for (std::size_t v = 0; v < name.size(); ++v) {
    std::string n = v < pr.names.size() ? pr.names[v] : std::to_string(v);
    for (char& c : n)
      if (!is_ident(c)) c = '_';
    if (n.empty() || !is_ident_start(n[0])) n = "v" + n;
    name[v] = std::move(n);
  }
  std::ofstream out(path);
  if (!out) throw input_error(path, 0, "cannot open for writing");
  out << "# points-to constraints of " << (pr.path.empty() ? std::string("a problem") : pr.path) << ": " << p.nodes
      << " variables (written by fluxgraph)\n";
  for (std::size_t j = 0; j < p.base_node.size(); ++j) out << name[std::size_t(p.base_node[j])] << " = &" << name[std::size_t(p.base_obj[j])] << '\n';
  for (std::size_t j = 0; j < p.copy_dst.size(); ++j) out << name[std::size_t(p.copy_dst[j])] << " = " << name[std::size_t(p.copy_src[j])] << '\n';
  for (std::size_t j = 0; j < p.load_dst.size(); ++j) out << name[std::size_t(p.load_dst[j])] << " = *" << name[std::size_t(p.load_ptr[j])] << '\n';
  for (const auto& f : p.stores)
    for (std::size_t j = 0; j < f.ptr.size(); ++j) out << '*' << name[std::size_t(f.ptr[j])] << " = " << name[std::size_t(f.src[j])] << '\n';
  if (!p.icalls.callee.empty() && solution != nullptr) {
    out << "# indirect calls, as the copies they resolve to at the fixed point\n";
    detail::resolved_call_edges(p, *solution,
                                [&](vertex_t a, vertex_t b) { out << name[std::size_t(b)] << " = " << name[std::size_t(a)] << '\n'; });
  } else if (solution == nullptr && (!p.icalls.callee.empty() || !p.functions.object.empty())) {  // as calls: fluxgraph's own lines
    auto items = [&](const std::vector<vertex_t>& v, offset_t b, offset_t e) {
      out << " [";
      for (offset_t j = b; j < e; ++j) out << (j > b ? ", " : "") << (v[std::size_t(j)] < 0 ? std::string("-") : name[std::size_t(v[std::size_t(j)])]);
      out << ']';
    };
    const auto& f = p.functions;
    for (std::size_t k = 0; k < f.object.size(); ++k) {
      out << "func " << name[std::size_t(f.object[k])];
      items(f.formals, f.formal_ptr[k], f.formal_ptr[k + 1]);
      out << (f.ret[k] >= 0 ? " -> " + name[std::size_t(f.ret[k])] : std::string()) << '\n';
    }
    const auto& c = p.icalls;
    for (std::size_t j = 0; j < c.callee.size(); ++j) {
      out << (c.result[j] >= 0 ? name[std::size_t(c.result[j])] + " = " : std::string()) << "call " << name[std::size_t(c.callee[j])];
      items(c.args, c.arg_ptr[j], c.arg_ptr[j + 1]);
      out << '\n';
    }
  }
  if (!out.flush()) throw input_error(path, 0, "write failed");
}

bool write_pointsto_sets(std::FILE* out, const std::vector<std::string>& names, const std::vector<offset_t>& row_ptr,
                         const std::vector<vertex_t>& col, bool sizes) {
  std::vector<std::string> numbers;  // the numeric format's names, made once (not a string per fact)
  if (names.empty())
    for (std::size_t v = 0; v + 1 < row_ptr.size(); ++v) numbers.push_back(std::to_string(v));
  const std::vector<std::string>& name = names.empty() ? numbers : names;
  std::string line;
  for (std::size_t v = 0; v + 1 < row_ptr.size(); ++v) {
    if (row_ptr[v + 1] == row_ptr[v]) continue;
    line.assign(name[v]).push_back(':');
    if (sizes) {
      line.append(" ").append(std::to_string(row_ptr[v + 1] - row_ptr[v]));
    } else {
      for (offset_t j = row_ptr[v]; j < row_ptr[v + 1]; ++j) line.append(" ").append(name[std::size_t(col[std::size_t(j)])]);
    }
    line.push_back('\n');
    if (std::fwrite(line.data(), 1, line.size(), out) != line.size()) return false;
  }
  return true;
}

}  // namespace fg
