// The constraint model of LLVM IR (the rules are listed in algorithms/llvm_ir.cpp).
#if defined(FG_WITH_LLVM)
#include "algorithms/llvm_ir_model.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalAlias.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Operator.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/ModuleSlotTracker.h>

#include <string>
#include <unordered_map>
#include <unordered_set>

namespace fg::detail {

namespace {
using llvm::dyn_cast;
using llvm::isa;

bool carries_type(const llvm::Type* t) {
  if (t->isPointerTy()) return true;
  if (const auto* s = dyn_cast<llvm::StructType>(t)) {
    for (const llvm::Type* e : s->elements())
      if (carries_type(e)) return true;
    return false;
  }
  if (const auto* a = dyn_cast<llvm::ArrayType>(t)) return carries_type(a->getElementType());
  if (const auto* v = dyn_cast<llvm::VectorType>(t)) return carries_type(v->getElementType());
  return false;
}

// libc functions by their effect on pointers
const std::unordered_set<std::string>& allocators() {
  static const std::unordered_set<std::string> s{"malloc", "calloc", "valloc", "aligned_alloc", "memalign", "pvalloc",
      "strdup", "strndup", "xmalloc", "xcalloc", "xstrdup", "xzalloc", "_Znwm", "_Znam", "_ZnwmRKSt9nothrow_t",
      "_ZnamRKSt9nothrow_t", "fopen", "fdopen", "freopen", "tmpfile", "opendir", "fdopendir", "popen", "getenv",
      "localtime", "gmtime", "strerror", "setlocale", "readdir"};
  return s;
}
const std::unordered_set<std::string>& returns_first_argument() {
  static const std::unordered_set<std::string> s{"strcpy", "strncpy", "strcat", "strncat", "stpcpy", "stpncpy",
      "memset", "memchr", "memrchr", "strchr", "strrchr", "strstr", "strpbrk", "strtok", "strtok_r", "fgets", "gets",
      "strchrnul", "rawmemchr", "index", "rindex", "memcpy", "memmove", "mempcpy"};
  return s;
}
const std::unordered_set<std::string>& stores_first_into_second() {  // *endptr = str
  static const std::unordered_set<std::string> s{"strtol", "strtoul", "strtoll", "strtoull", "strtod", "strtof",
      "strtold", "strtoimax", "strtoumax"};
  return s;
}

class module_model {
 public:
  explicit module_model(const llvm::Module& m) : m_(m), slots_(&m) {}

  pointsto_problem build() {
    for (const llvm::GlobalVariable& g : m_.globals()) object_of_global(g);
    for (const llvm::Function& f : m_.functions()) object_of_global(f);
    for (const llvm::GlobalAlias& a : m_.aliases()) val_[&a] = value(a.getAliasee());
    for (const llvm::GlobalVariable& g : m_.globals())
      if (g.hasInitializer()) initial(obj_[&g], g.getInitializer());
    for (const llvm::Function& f : m_.functions())
      if (!f.isDeclaration()) body(f);
    p().objects = p().nodes;
    return std::move(out_);
  }

 private:
  inclusion_problem& p() { return out_.constraints; }

  vertex_t node(std::string name) {  // names are unique: a repeat gets ".2", ".3", ...
    auto [it, fresh] = used_.emplace(name, 1);
    if (!fresh) {
      std::string other;
      do other = name + "." + std::to_string(++it->second);
      while (!used_.emplace(other, 1).second);
      name = std::move(other);
    }
    out_.names.push_back(std::move(name));
    return p().nodes++;
  }
  void addr(vertex_t d, vertex_t o) {
    if (d >= 0 && o >= 0) p().base_node.push_back(d), p().base_obj.push_back(o), ++out_.lines;
  }
  void copy(vertex_t d, vertex_t s) {
    if (d >= 0 && s >= 0) p().copy_dst.push_back(d), p().copy_src.push_back(s), ++out_.lines;
  }
  void load(vertex_t d, vertex_t ptr) {
    if (d >= 0 && ptr >= 0) p().load_dst.push_back(d), p().load_ptr.push_back(ptr), ++out_.lines;
  }
  void store(vertex_t ptr, vertex_t s) {
    if (ptr < 0 || s < 0) return;
    if (p().stores.empty()) p().stores.emplace_back();
    p().stores[0].ptr.push_back(ptr), p().stores[0].src.push_back(s), ++out_.lines;
  }

  // "main:%p", "main:%3", "@g": the operand as the IR prints it, locals qualified by their function
  std::string name_of(const llvm::Value& v) {
    const llvm::Function* f = nullptr;
    if (const auto* i = dyn_cast<llvm::Instruction>(&v)) f = i->getFunction();
    if (const auto* a = dyn_cast<llvm::Argument>(&v)) f = a->getParent();
    std::string s;
    if (v.getType()->isVoidTy()) {  // a call without a value (memcpy, posix_memalign): no IR name
      const auto* cb = dyn_cast<llvm::CallBase>(&v);
      const llvm::Function* callee = cb ? cb->getCalledFunction() : nullptr;
      s = "%call-" + (callee ? callee->getName().str() : std::string("indirect"));
    } else {
      llvm::raw_string_ostream os(s);
      v.printAsOperand(os, false, slots_);
      os.flush();
    }
    return f == nullptr ? s : f->getName().str() + ":" + s;
  }

  void object_of_global(const llvm::GlobalObject& g) {
    const vertex_t v = node(name_of(g)), o = node(name_of(g) + "(obj)");
    val_[&g] = v, obj_[&g] = o;
    addr(v, o);
    if (const auto* f = dyn_cast<llvm::Function>(&g); f != nullptr && !f->isDeclaration()) {
      slots_.incorporateFunction(*f);  // unnamed formals are named by their slot
      auto& t = p().functions;
      if (t.formal_ptr.empty()) t.formal_ptr.push_back(0);
      t.object.push_back(o);
      t.ret.push_back(carries_type(f->getReturnType()) ? ret_of(*f) : -1);
      for (const llvm::Argument& a : f->args()) t.formals.push_back(value(&a));
      t.formal_ptr.push_back(offset_t(t.formals.size()));
    }
  }

  vertex_t ret_of(const llvm::Function& f) {
    auto it = ret_.find(&f);
    if (it != ret_.end()) return it->second;
    return ret_[&f] = node(f.getName().str() + ":(ret)");
  }

  // The pointers inside a global's initializer: obj ∋ each global's object.
  void initial(vertex_t obj, const llvm::Constant* c) {
    if (const auto* g = dyn_cast<llvm::GlobalValue>(c)) {
      copy(obj, value(g));  // @g(obj) ⊇ pts(@h) = {@h(obj)}
      return;
    }
    if (isa<llvm::ConstantExpr>(c) || isa<llvm::ConstantAggregate>(c))
      for (const llvm::Use& u : c->operands()) initial(obj, llvm::cast<llvm::Constant>(u.get()));
  }

  bool carries(const llvm::Value* v) { return carries_type(v->getType()) || carried_ints_.count(v) != 0; }

  // The node of an operand: -1 for what carries no pointer (null, integers, undef).
  vertex_t value(const llvm::Value* v) {
    if (const auto it = val_.find(v); it != val_.end()) return it->second;
    if (const auto* ce = dyn_cast<llvm::ConstantExpr>(v)) {
      if (ce->isCast() || ce->getOpcode() == llvm::Instruction::GetElementPtr) return val_[v] = value(ce->getOperand(0));
      return aggregate_constant(ce);
    }
    if (isa<llvm::ConstantAggregate>(v)) return aggregate_constant(llvm::cast<llvm::Constant>(v));
    if (isa<llvm::Constant>(v) || isa<llvm::InlineAsm>(v) || isa<llvm::MetadataAsValue>(v) || isa<llvm::BasicBlock>(v) || !carries(v))
      return -1;
    return val_[v] = node(name_of(*v));
  }
  vertex_t aggregate_constant(const llvm::Constant* c) {  // one node for every pointer inside
    const vertex_t n = node("(const:" + std::to_string(p().nodes) + ")");
    val_[c] = n;
    for (const llvm::Use& u : c->operands()) copy(n, value(u.get()));
    return n;
  }

  // Integers that hold pointers: ptrtoint results and arithmetic, casts, phis and selects over them.
  void find_carried_ints(const llvm::Function& f) {
    for (bool more = true; more;) {
      more = false;
      for (const llvm::Instruction& i : llvm::instructions(f)) {
        if (!i.getType()->isIntegerTy() || carried_ints_.count(&i) != 0) continue;
        bool carried = isa<llvm::PtrToIntInst>(i);
        if (!carried && (isa<llvm::BinaryOperator>(i) || isa<llvm::CastInst>(i) || isa<llvm::PHINode>(i) || isa<llvm::SelectInst>(i)))
          for (const llvm::Use& u : i.operands()) carried = carried || carried_ints_.count(u.get()) != 0 || isa<llvm::PtrToIntOperator>(u.get());
        if (carried) carried_ints_.insert(&i), more = true;
      }
    }
  }

  void body(const llvm::Function& f) {
    slots_.incorporateFunction(f);
    find_carried_ints(f);
    for (const llvm::Instruction& i : llvm::instructions(f)) instruction(f, i);
  }

  void instruction(const llvm::Function& f, const llvm::Instruction& i) {
    using I = llvm::Instruction;
    if (const auto* cb = dyn_cast<llvm::CallBase>(&i)) return call(*cb);
    switch (i.getOpcode()) {
      case I::Alloca: return addr(value(&i), node(name_of(i) + "(obj)"));
      case I::Load:
        if (carries(&i)) load(value(&i), value(i.getOperand(0)));
        return;
      case I::Store: return store(value(i.getOperand(1)), value(i.getOperand(0)));
      case I::AtomicCmpXchg: {  // *p = new; the result's first field is the old *p
        const vertex_t ptr = value(i.getOperand(0));
        store(ptr, value(i.getOperand(2)));
        if (carries(&i)) load(value(&i), ptr);
        return;
      }
      case I::AtomicRMW:
        if (!carries(&i)) return;
        load(value(&i), value(i.getOperand(0)));
        return store(value(i.getOperand(0)), value(i.getOperand(1)));
      case I::Ret:
        if (i.getNumOperands() > 0 && carries_type(f.getReturnType())) copy(ret_of(f), value(i.getOperand(0)));
        return;
      case I::GetElementPtr: return copy(value(&i), value(i.getOperand(0)));
      case I::ExtractValue: case I::ExtractElement: case I::Freeze: return copy(value(&i), value(i.getOperand(0)));
      case I::InsertValue: case I::InsertElement: case I::ShuffleVector: case I::PHI: case I::Select:
        for (const llvm::Use& u : i.operands())
          if (!isa<llvm::BasicBlock>(u.get())) copy(value(&i), value(u.get()));
        return;
      default:
        if (isa<llvm::CastInst>(i) || isa<llvm::BinaryOperator>(i))
          for (const llvm::Use& u : i.operands()) copy(value(&i), value(u.get()));
        return;
    }
  }

  // t = *src; *dst = t (a fresh node per copy site)
  void copy_contents(const llvm::Value& at, vertex_t dst, vertex_t src) {
    if (dst < 0 || src < 0) return;
    const vertex_t t = node(name_of(at) + "(contents)");
    load(t, src);
    store(dst, t);
  }

  void call(const llvm::CallBase& cb) {
    const llvm::Value* target = cb.getCalledOperand()->stripPointerCasts();
    const vertex_t result = carries(&cb) ? value(&cb) : -1;
    auto arg = [&](unsigned k) { return k < cb.arg_size() ? value(cb.getArgOperand(k)) : vertex_t(-1); };
    const auto* f = dyn_cast<llvm::Function>(target);
    if (f == nullptr) {
      if (isa<llvm::InlineAsm>(target)) return;
      auto& c = p().icalls;
      if (c.arg_ptr.empty()) c.arg_ptr.push_back(0);
      const vertex_t callee = value(target);
      if (callee < 0) return;
      c.callee.push_back(callee), c.result.push_back(result);
      for (unsigned k = 0; k < cb.arg_size(); ++k) c.args.push_back(arg(k));
      c.arg_ptr.push_back(offset_t(c.args.size()));
      ++out_.lines;
      return;
    }
    const llvm::Intrinsic::ID id = f->getIntrinsicID();
    if (id == llvm::Intrinsic::memcpy || id == llvm::Intrinsic::memmove || id == llvm::Intrinsic::memcpy_inline)
      return copy_contents(cb, arg(0), arg(1));
    if (f->isIntrinsic()) return;
    if (!f->isDeclaration()) {  // a direct call: formals = actuals, result = return
      unsigned k = 0;
      for (const llvm::Argument& a : f->args()) {
        if (k >= cb.arg_size()) break;
        copy(value(&a), arg(k++));
      }
      if (result >= 0 && carries_type(f->getReturnType())) copy(result, ret_of(*f));
      return;
    }
    const std::string name = f->getName().str();
    if (allocators().count(name) != 0) return addr(result, node(name_of(cb) + "(heap)"));
    if (name == "realloc" || name == "reallocarray" || name == "xrealloc") {
      addr(result, node(name_of(cb) + "(heap)"));
      return copy_contents(cb, result, arg(0));
    }
    if (name == "posix_memalign") {
      const vertex_t t = node(name_of(cb) + "(new)");
      addr(t, node(name_of(cb) + "(heap)"));
      return store(arg(0), t);
    }
    if (name == "memcpy" || name == "memmove" || name == "mempcpy") copy_contents(cb, arg(0), arg(1));
    if (name == "bcopy") return copy_contents(cb, arg(1), arg(0));
    if (returns_first_argument().count(name) != 0) return copy(result, arg(0));
    if (stores_first_into_second().count(name) != 0) return store(arg(1), arg(0));
  }

  const llvm::Module& m_;
  llvm::ModuleSlotTracker slots_;
  pointsto_problem out_;
  std::unordered_map<const llvm::Value*, vertex_t> val_, obj_;
  std::unordered_map<const llvm::Function*, vertex_t> ret_;
  std::unordered_set<const llvm::Value*> carried_ints_;
  std::unordered_map<std::string, int> used_;  // names given, and how many nodes asked for each
};
}  // namespace

pointsto_problem model_module(const llvm::Module& m) { return module_model(m).build(); }

}  // namespace fg::detail
#endif
