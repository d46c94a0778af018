// The CPS λ-calculus reader of algorithms/cfa.hpp: s-expressions to variables, lambdas and calls.
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "algorithms/cfa.hpp"
#include "core/error.hpp"
#include "loaders/text_reader.hpp"

namespace fg {

std::string cfa_program::lambda_name(int l) const {
  const lambda& x = lambdas[std::size_t(l)];
  std::string s = "(";
  for (std::size_t i = 0; i < x.params.size(); ++i) s += (i ? " " : "") + vars[std::size_t(x.params[i])].name;
  return s + ")@" + std::to_string(x.line) + ":" + std::to_string(x.column);
}

namespace {
struct sexp {
  bool list = false;
  std::string atom;
  std::vector<sexp> items;
  std::int64_t line = 0, column = 0;
};

class parser {
 public:
  explicit parser(const std::string& path) : path_(path) {
    text_reader in(path);
    std::string_view l;
    while (in.next(l)) lines_.emplace_back(l);
  }
  std::vector<sexp> all() {
    std::vector<sexp> out;
    while (skip(), !at_end()) {
      if (peek() == ')') fail("unexpected ')'");
      out.push_back(read());
    }
    return out;
  }
  [[noreturn]] void fail(const std::string& what) const { throw input_error(path_, line_ + 1, what); }

 private:
  bool at_end() const { return line_ >= lines_.size(); }
  char peek() const { return lines_[line_][col_]; }
  void skip() {  // blanks, line ends, ';' comments
    while (!at_end()) {
      const std::string& l = lines_[line_];
      if (col_ >= l.size() || l[col_] == ';') {
        ++line_, col_ = 0;
      } else if (std::isspace(static_cast<unsigned char>(l[col_]))) {
        ++col_;
      } else {
        return;
      }
    }
  }
  sexp read() {
    sexp s;
    s.line = std::int64_t(line_) + 1;
    s.column = std::int64_t(col_) + 1;
    if (peek() == '(') {
      s.list = true;
      ++col_;
      for (;;) {
        skip();
        if (at_end()) throw input_error(path_, s.line, "'(' is never closed");
        if (peek() == ')') {
          ++col_;
          return s;
        }
        s.items.push_back(read());
      }
    }
    const std::string& l = lines_[line_];
    const std::size_t b = col_;
    while (col_ < l.size() && !std::isspace(static_cast<unsigned char>(l[col_])) && l[col_] != '(' && l[col_] != ')' &&
           l[col_] != ';')
      ++col_;
    s.atom = l.substr(b, col_ - b);
    return s;
  }
  std::string path_;
  std::vector<std::string> lines_;
  std::size_t line_ = 0, col_ = 0;
};

class builder {
 public:
  builder(cfa_program& p) : p_(p) {}
  // A term in a position that takes any term (a lambda body, top level).
  void term(const sexp& s) {
    if (!s.list || (!s.items.empty() && !s.items[0].list && s.items[0].atom == "lambda")) {
      (void)atom(s);
      return;
    }
    if (s.items.empty()) fail(s, "'()' is not a term");
    cfa_program::call c;
    c.line = s.line;
    c.fn = atom(s.items[0]);
    for (std::size_t i = 1; i < s.items.size(); ++i) c.args.push_back(atom(s.items[i]));
    p_.calls.push_back(std::move(c));
  }

 private:
  [[noreturn]] void fail(const sexp& s, const std::string& what) { throw input_error(p_.path, s.line, what); }
  cfa_program::atom atom(const sexp& s) {
    if (!s.list) {
      if (s.atom == "lambda") fail(s, "'lambda' is not a variable");
      auto it = scope_.find(s.atom);
      if (it == scope_.end() || it->second.empty()) fail(s, "unbound variable '" + s.atom + "'");
      return {false, it->second.back()};
    }
    if (s.items.empty() || s.items[0].list || s.items[0].atom != "lambda")
      fail(s, "a call's function and arguments must be variables or lambdas (CPS: no nested calls)");
    if (s.items.size() != 3 || !s.items[1].list) fail(s, "expected (lambda (params ...) body)");
    cfa_program::lambda l;
    l.line = s.line;
    l.column = s.column;
    for (const sexp& x : s.items[1].items) {
      if (x.list || x.atom == "lambda") fail(x, "a parameter must be a name");
      for (int q : l.params)
        if (p_.vars[std::size_t(q)].name == x.atom) fail(x, "parameter '" + x.atom + "' appears twice");
      l.params.push_back(int(p_.vars.size()));
      p_.vars.push_back({x.atom, x.line});
    }
    const int id = int(p_.lambdas.size());
    p_.lambdas.push_back(l);
    for (int q : l.params) scope_[p_.vars[std::size_t(q)].name].push_back(q);
    term(s.items[2]);
    for (int q : l.params) scope_[p_.vars[std::size_t(q)].name].pop_back();
    return {true, id};
  }
  cfa_program& p_;
  std::map<std::string, std::vector<int>> scope_;
};
}  // namespace

cfa_program read_cfa_program(const std::string& path) {
  cfa_program p;
  p.path = path;
  parser ps(path);
  const std::vector<sexp> top = ps.all();
  if (top.empty()) throw input_error(path, 1, "no term in the file");
  builder b(p);
  for (const sexp& s : top) b.term(s);
  return p;
}

}  // namespace fg
