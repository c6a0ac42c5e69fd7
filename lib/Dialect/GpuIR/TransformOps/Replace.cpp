//===- Replace.cpp - a loop nest replaced by an instruction ---------------===//
//
// replace: a nest of constant-bound loops becomes one instruction whose
// operands are windows of the buffers the nest accesses. Accepted only when
// the two do the same thing: both are run symbolically, element by element,
// the nest as written and the instruction through its sequential behavior
// (InstrOpInterface::buildSequential, the code its sequential meaning is),
// each data value an expression over the operands' initial elements; every
// element either writes must end with the same expression. Expressions are
// compared as written (a * b is not b * a, a sum keeps its order), so an
// accepted replacement computes the same bits.
//
// The windows are inferred from the nest: each index of a buffer splits into
// a corner (the values from outside the nest, the same for every access)
// and an offset over the nest's loops; the dimensions whose offsets vary are
// the window's intervals, from the smallest offset on, as long as the
// instruction's parameter (or the largest offset) says.
//
//===----------------------------------------------------------------------===//

#include "Rake/Dialect/GpuIR/TransformOps/Rewrites.h"
#include "Dependence.h"
#include "RewriteUtils.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/MapVector.h"

#include <map>
#include <unordered_map>
#include <set>

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;
using namespace mlir::rake::gpuir::detail;

namespace {

/// Hash-consed expressions over the operands' initial elements. Nodes are
/// keyed by their kind, text (an op's name, attributes and type, interned),
/// and operands, as raw bytes.
class Exprs {
public:
  /// The initial value of element `flat` of operand `param`.
  int input(unsigned param, int64_t flat) {
    return intern(Kind::input, -1, param, flat, {});
  }
  int constant(Attribute attr) {
    auto it = constants.find(attr);
    if (it != constants.end())
      return it->second;
    std::string s;
    llvm::raw_string_ostream os(s);
    attr.print(os);
    int id = intern(Kind::constant, text(s), 0, 0, {});
    constants[attr] = id;
    return id;
  }
  int op(int textId, ArrayRef<int> args) {
    return intern(Kind::op, textId, 0, 0, args);
  }
  int text(StringRef t) {
    auto [it, inserted] = texts.try_emplace(t, textList.size());
    if (inserted)
      textList.push_back(t.str());
    return it->second;
  }

  /// An expression printed, the operands' elements named by `names` (and
  /// the coordinates of a flat index by `coords`), deep ones elided.
  std::string print(int id, ArrayRef<std::string> names,
                    function_ref<std::string(unsigned, int64_t)> coords,
                    unsigned depth = 0) const {
    const Node &n = nodes[id];
    switch (n.kind) {
    case Kind::input:
      return names[n.param] + coords(n.param, n.flat);
    case Kind::constant:
      return textList[n.text];
    case Kind::op: {
      if (depth > 4)
        return "...";
      std::string s = textList[n.text] + "(";
      for (auto [i, a] : llvm::enumerate(n.args))
        s += (i ? ", " : "") + print(a, names, coords, depth + 1);
      return s + ")";
    }
    }
    return "";
  }

  /// The first place, in order of evaluation, where two expressions differ:
  /// the smallest differing subexpressions.
  std::pair<int, int> firstDifference(int a, int b) const {
    while (a != b) {
      const Node &x = nodes[a], &y = nodes[b];
      if (x.kind != Kind::op || y.kind != Kind::op || x.text != y.text ||
          x.args.size() != y.args.size())
        return {a, b};
      unsigned i = 0;
      while (i < x.args.size() && x.args[i] == y.args[i])
        ++i;
      a = x.args[i];
      b = y.args[i];
    }
    return {a, b};
  }

private:
  enum class Kind : char { input, constant, op };
  struct Node {
    Kind kind;
    int text;
    unsigned param;
    int64_t flat;
    SmallVector<int, 2> args;
  };
  int intern(Kind kind, int textId, unsigned param, int64_t flat,
             ArrayRef<int> args) {
    std::string key;
    key.reserve(17 + 4 * args.size());
    auto put = [&](const void *p, size_t n) {
      key.append(static_cast<const char *>(p), n);
    };
    put(&kind, 1);
    put(&textId, 4);
    put(&param, 4);
    put(&flat, 8);
    for (int a : args)
      put(&a, 4);
    auto [it, inserted] = ids.try_emplace(key, nodes.size());
    if (inserted)
      nodes.push_back({kind, textId, param, flat, SmallVector<int, 2>(args)});
    return it->second;
  }
  std::unordered_map<std::string, int> ids;
  std::vector<Node> nodes;
  llvm::StringMap<int> texts;
  std::vector<std::string> textList;
  llvm::DenseMap<Attribute, int> constants;
};

/// A value while running: a concrete integer (control and index values) or
/// an expression (data).
struct Val {
  bool concrete = false;
  int64_t c = 0;
  int node = -1;
};

/// The elements of the operands: what was written, and by which op.
struct Memory {
  std::vector<std::map<int64_t, int>> elements;
  std::vector<std::map<int64_t, Operation *>> writers;
  explicit Memory(unsigned n) : elements(n), writers(n) {}
};

/// An op's attributes as part of its expression (fastmath none left out:
/// the builders' default).
std::string attrKey(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  for (NamedAttribute a : op->getAttrDictionary()) {
    std::string v;
    llvm::raw_string_ostream vs(v);
    a.getValue().print(vs);
    if (v == "#arith.fastmath<none>")
      continue;
    os << "{" << a.getName().getValue() << "=" << v << "}";
  }
  return s;
}

/// The text of an op's expressions (name, attributes, result type), once
/// per op.
int opText(Operation *op, Exprs &exprs) {
  std::string type;
  llvm::raw_string_ostream ts(type);
  ts << ":" << op->getResult(0).getType();
  return exprs.text(op->getName().getStringRef().str() + attrKey(op) + type);
}

/// Runs arith/math ops: integer ops on concrete values are computed, the
/// rest become expressions. Returns false for an op it does not know.
bool runScalar(Operation *op, Exprs &exprs, DenseMap<Value, Val> &env,
               DenseMap<Operation *, int> &texts) {
  auto get = [&](Value v) -> Val { return env.lookup(v); };
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    Val v;
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()); i && c.getType().isIntOrIndex()) {
      v.concrete = true;
      v.c = i.getValue().getSExtValue();
    }
    v.node = exprs.constant(c.getValue());
    env[c.getResult()] = v;
    return true;
  }
  if (op->getNumResults() != 1)
    return false;
  bool allConcrete = llvm::all_of(op->getOperands(),
                                  [&](Value v) { return get(v).concrete; });
  Type t = op->getResult(0).getType();
  if (allConcrete && t.isIntOrIndex() && !t.isInteger(1)) {
    auto x = [&](unsigned i) { return get(op->getOperand(i)).c; };
    // Results wrap to the type's width (index: 64 bits).
    unsigned width = t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
    auto wrap = [&](int64_t v) {
      return width >= 64 ? v : llvm::SignExtend64(v, width);
    };
    std::optional<int64_t> r;
    if (isa<arith::AddIOp>(op)) r = x(0) + x(1);
    else if (isa<arith::SubIOp>(op)) r = x(0) - x(1);
    else if (isa<arith::MulIOp>(op)) r = x(0) * x(1);
    else if (isa<arith::DivSIOp>(op) && x(1)) r = x(0) / x(1);
    else if (isa<arith::RemSIOp>(op) && x(1)) r = x(0) % x(1);
    else if (isa<arith::IndexCastOp>(op)) r = x(0);
    else if (isa<arith::XOrIOp>(op)) r = x(0) ^ x(1);
    else if (isa<arith::AndIOp>(op)) r = x(0) & x(1);
    else if (isa<arith::OrIOp>(op)) r = x(0) | x(1);
    else if (isa<arith::ShLIOp>(op) && x(1) >= 0 && x(1) < width)
      r = static_cast<int64_t>(static_cast<uint64_t>(x(0)) << x(1));
    else if (isa<arith::ShRSIOp>(op) && x(1) >= 0 && x(1) < width)
      r = x(0) >> x(1);
    else if (auto sel = dyn_cast<arith::SelectOp>(op)) r = x(0) ? x(1) : x(2);
    if (r) {
      Val v;
      v.concrete = true;
      v.c = wrap(*r);
      v.node = exprs.constant(IntegerAttr::get(t, v.c));
      env[op->getResult(0)] = v;
      return true;
    }
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(op); cmp && allConcrete) {
    int64_t a = get(cmp.getLhs()).c, b = get(cmp.getRhs()).c;
    Type ot = cmp.getLhs().getType();
    unsigned width = ot.isIndex() ? 64 : ot.getIntOrFloatBitWidth();
    uint64_t mask = width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
    uint64_t ua = uint64_t(a) & mask, ub = uint64_t(b) & mask;
    bool r = false;
    switch (cmp.getPredicate()) {
    case arith::CmpIPredicate::eq: r = a == b; break;
    case arith::CmpIPredicate::ne: r = a != b; break;
    case arith::CmpIPredicate::slt: r = a < b; break;
    case arith::CmpIPredicate::sle: r = a <= b; break;
    case arith::CmpIPredicate::sgt: r = a > b; break;
    case arith::CmpIPredicate::sge: r = a >= b; break;
    case arith::CmpIPredicate::ult: r = ua < ub; break;
    case arith::CmpIPredicate::ule: r = ua <= ub; break;
    case arith::CmpIPredicate::ugt: r = ua > ub; break;
    case arith::CmpIPredicate::uge: r = ua >= ub; break;
    }
    Val v;
    v.concrete = true;
    v.c = r;
    v.node = exprs.constant(BoolAttr::get(op->getContext(), r));
    env[cmp.getResult()] = v;
    return true;
  }
  if (!isa_and_nonnull<arith::ArithDialect>(op->getDialect()) &&
      op->getDialect()->getNamespace() != "math")
    return false;
  SmallVector<int, 4> args;
  for (Value v : op->getOperands()) {
    Val a = get(v);
    if (a.node < 0 && a.concrete) // a concrete integer used as data
      a.node = exprs.constant(IntegerAttr::get(v.getType(), a.c));
    args.push_back(a.node);
  }
  auto [it, inserted] = texts.try_emplace(op, 0);
  if (inserted)
    it->second = opText(op, exprs);
  Val v;
  v.node = exprs.op(it->second, args);
  env[op->getResult(0)] = v;
  return true;
}

int64_t flatten(ArrayRef<int64_t> idx, ArrayRef<int64_t> shape) {
  int64_t f = 0;
  for (auto [i, s] : llvm::zip(idx, shape))
    f = f * s + i;
  return f;
}

/// The behavior's own buffers (memref.alloca: a temporary copy, so that
/// an instruction's dst may be its src): each element's expression, by its
/// flat index.
struct LocalBuffer {
  SmallVector<int64_t> shape;
  std::map<int64_t, int> elements;
};
using Locals = llvm::MapVector<Value, LocalBuffer>;

/// Runs the instruction's sequential behavior (func/scf/memref/arith code).
LogicalResult runBehavior(Block &body, ArrayRef<Value> args,
                          ArrayRef<SmallVector<int64_t>> shapes, Exprs &exprs,
                          Memory &mem, DenseMap<Value, Val> &env,
                          DenseMap<Operation *, int> &texts, Refusal &why,
                          Locals &locals) {
  auto paramOf = [&](Value v) -> int {
    auto it = llvm::find(args, v);
    return it == args.end() ? -1 : it - args.begin();
  };
  // The flat element of a local buffer a load or store reaches.
  auto localElement = [&](Operation &op, Value memref,
                          ValueRange indices) -> FailureOr<int64_t> {
    SmallVector<int64_t> idx;
    for (Value i : indices) {
      if (!env.lookup(i).concrete)
        return why.refuse(op.getLoc(), "cannot run the instruction's "
                                       "behavior: an index that depends on "
                                       "data");
      idx.push_back(env.lookup(i).c);
    }
    return flatten(idx, locals[memref].shape);
  };
  // The flat element a load or store reaches, or a refusal.
  auto element = [&](Operation &op, Value memref, ValueRange indices,
                     StringRef what) -> FailureOr<std::pair<int, int64_t>> {
    int p = paramOf(memref);
    SmallVector<int64_t> idx;
    for (Value i : indices) {
      if (!env.lookup(i).concrete)
        return why.refuse(op.getLoc(), "cannot run the instruction's "
                                       "behavior: an index that depends on "
                                       "data");
      idx.push_back(env.lookup(i).c);
    }
    if (p < 0)
      return why.refuse(op.getLoc(), "cannot run the instruction's behavior: " +
                                         what + " a local buffer");
    return std::make_pair(p, flatten(idx, shapes[p]));
  };
  for (Operation &op : body) {
    if (isa<func::ReturnOp, scf::YieldOp>(op))
      continue;
    if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
      if (!alloca.getType().hasStaticShape())
        return why.refuse(op.getLoc(), "cannot run the instruction's "
                                       "behavior: a local buffer of dynamic "
                                       "shape");
      locals[alloca.getResult()] =
          LocalBuffer{SmallVector<int64_t>(alloca.getType().getShape()), {}};
      continue;
    }
    if (auto load = dyn_cast<memref::LoadOp>(op);
        load && locals.count(load.getMemRef())) {
      FailureOr<int64_t> f = localElement(op, load.getMemRef(), load.getIndices());
      if (failed(f))
        return failure();
      auto &elements = locals[load.getMemRef()].elements;
      auto it = elements.find(*f);
      if (it == elements.end())
        return why.refuse(op.getLoc(), "cannot run the instruction's "
                                       "behavior: it reads an element of a "
                                       "local buffer it never wrote");
      Val v;
      v.node = it->second;
      env[load.getResult()] = v;
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op);
        store && locals.count(store.getMemRef())) {
      FailureOr<int64_t> f =
          localElement(op, store.getMemRef(), store.getIndices());
      if (failed(f))
        return failure();
      Val stored = env.lookup(store.getValueToStore());
      if (stored.node < 0)
        stored.node = exprs.constant(IntegerAttr::get(
            store.getValueToStore().getType(), stored.c));
      locals[store.getMemRef()].elements[*f] = stored.node;
      continue;
    }
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      FailureOr<std::pair<int, int64_t>> at =
          element(op, load.getMemRef(), load.getIndices(), "a load of");
      if (failed(at))
        return failure();
      auto [p, f] = *at;
      auto it = mem.elements[p].find(f);
      Val v;
      v.node = it != mem.elements[p].end() ? it->second : exprs.input(p, f);
      env[load.getResult()] = v;
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      FailureOr<std::pair<int, int64_t>> at =
          element(op, store.getMemRef(), store.getIndices(), "a store to");
      if (failed(at))
        return failure();
      Val stored = env.lookup(store.getValueToStore());
      if (stored.node < 0)
        stored.node = exprs.constant(IntegerAttr::get(
            store.getValueToStore().getType(), stored.c));
      mem.elements[at->first][at->second] = stored.node;
      continue;
    }
    if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
      SmallVector<int64_t> operands;
      for (Value v : apply.getMapOperands())
        operands.push_back(env.lookup(v).c);
      Val v;
      v.concrete = true;
      v.c = evaluateControlExpr(apply.getAffineMap().getResult(0), operands);
      env[apply.getResult()] = v;
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      int64_t lb = env.lookup(loop.getLowerBound()).c;
      int64_t ub = env.lookup(loop.getUpperBound()).c;
      int64_t step = env.lookup(loop.getStep()).c;
      SmallVector<Val> carried;
      for (Value init : loop.getInitArgs())
        carried.push_back(env.lookup(init));
      for (int64_t i = lb; step > 0 && i < ub; i += step) {
        Val iv;
        iv.concrete = true;
        iv.c = i;
        env[loop.getInductionVar()] = iv;
        for (auto [arg, v] : llvm::zip(loop.getRegionIterArgs(), carried))
          env[arg] = v;
        if (failed(runBehavior(*loop.getBody(), args, shapes, exprs, mem, env,
                               texts, why, locals)))
          return failure();
        auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
        for (auto [k, y] : llvm::enumerate(yield.getOperands()))
          carried[k] = env.lookup(y);
      }
      for (auto [r, v] : llvm::zip(loop.getResults(), carried))
        env[r] = v;
      continue;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      Val c = env.lookup(branch.getCondition());
      if (!c.concrete)
        return why.refuse(op.getLoc(), "cannot run the instruction's "
                                       "behavior: a branch on data");
      Region &r = c.c ? branch.getThenRegion() : branch.getElseRegion();
      if (!r.empty()) {
        if (failed(runBehavior(r.front(), args, shapes, exprs, mem, env, texts,
                               why, locals)))
          return failure();
        auto yield = cast<scf::YieldOp>(r.front().getTerminator());
        for (auto [res, y] : llvm::zip(branch.getResults(), yield.getOperands()))
          env[res] = env.lookup(y);
      }
      continue;
    }
    if (!runScalar(&op, exprs, env, texts))
      return why.refuse(op.getLoc(),
                        "cannot run '" + op.getName().getStringRef() +
                            "' of the instruction's sequential behavior");
  }
  return success();
}

/// One buffer the nest accesses, as one operand of the instruction.
struct Operand {
  Value buffer;
  SmallVector<Value> cornerOps;
  SmallVector<AffineExpr> corner;      // per buffer dimension
  SmallVector<std::set<int64_t>> offs; // offsets seen per dimension
  SmallVector<bool> interval;
  SmallVector<int64_t> lo, shape;      // per interval dimension
};

/// A control value of the nest: its loops' variables are concrete.
struct NestRun {
  Operation *nest;
  ArrayRef<Operand> operands;
  Exprs &exprs;
  Memory &mem;
  DenseMap<Value, Val> env;
  Refusal &why;
  bool collectOnly; // first pass: find the offsets only
  DenseMap<Operation *, int> texts;
  DenseMap<Operation *, SmallVector<AffineExpr>> offsets;

  int operandOf(Value buffer) {
    for (auto [k, o] : llvm::enumerate(operands))
      if (o.buffer == buffer)
        return k;
    return -1;
  }

  /// The concrete value of an expression over the nest's variables.
  std::optional<int64_t> eval(AffineExpr e, ValueRange ops) {
    SmallVector<int64_t> vals;
    for (auto [i, v] : llvm::enumerate(ops)) {
      auto it = env.find(v);
      if (it == env.end() || !it->second.concrete) {
        if (e.isFunctionOfDim(i))
          return std::nullopt;
        vals.push_back(0);
        continue;
      }
      vals.push_back(it->second.c);
    }
    return evaluateControlExpr(e, vals);
  }

  LogicalResult run(Block &block) {
    for (Operation &op : block)
      if (failed(runOp(op)))
        return failure();
    return success();
  }
  LogicalResult runOp(Operation &op);
  LogicalResult access(Operation *op, Value buffer, AffineMap map,
                       ValueRange indices, std::optional<int> value,
                       bool reduce);
};

/// The split of an access's index into corner and offset (over the nest's
/// loop variables), evaluated.
LogicalResult NestRun::access(Operation *op, Value buffer, AffineMap map,
                              ValueRange indices, std::optional<int> value,
                              bool reduce) {
  int k = operandOf(buffer);
  if (k < 0)
    return why.refuse(op->getLoc(),
                      "the nest accesses " + controlName(buffer) +
                          ", which is not an operand of the replacement");
  const Operand &o = operands[k];
  // The split of each index into corner and offset, once per op: the
  // corner checked against the operand's, the offsets kept.
  auto cached = offsets.find(op);
  if (cached == offsets.end()) {
  llvm::SmallBitVector outer(indices.size());
  for (auto [i, v] : llvm::enumerate(indices)) {
    auto it = env.find(v);
    outer[i] = it == env.end();
  }
  SmallVector<AffineExpr> offs;
  for (auto [d, e] : llvm::enumerate(map.getResults())) {
    // Corner: the terms over outer values; offset: the rest, concrete.
    FailureOr<SplitIndex> split = splitIndex(e, outer);
    if (failed(split))
      return why.refuse(op->getLoc(),
                        "index " + Twine(d) + " of this access mixes the "
                                              "nest's loops with values "
                                              "from outside in one term");
    AffineExpr corner = split->corner, offset = split->offset;
    // The corner over the operand's outer values must be the operand's.
    SmallVector<AffineExpr> dims;
    for (auto [i, v] : llvm::enumerate(indices)) {
      if (!outer[i]) {
        dims.push_back(getAffineConstantExpr(0, op->getContext()));
        continue;
      }
      auto it = llvm::find(o.cornerOps, v);
      if (it == o.cornerOps.end())
        return why.refuse(op->getLoc(),
                          "this access indexes " + controlName(buffer) +
                              " from another corner than the nest's first "
                              "access of it");
      dims.push_back(getAffineDimExpr(it - o.cornerOps.begin(), op->getContext()));
    }
    AffineExpr c =
        simplifyAffineExpr(corner.replaceDims(dims), o.cornerOps.size(), 0);
    if (c != o.corner[d])
      return why.refuse(op->getLoc(),
                        "this access indexes " + controlName(buffer) +
                            " from another corner than the nest's first "
                            "access of it");
    offs.push_back(offset);
  }
    cached = offsets.try_emplace(op, std::move(offs)).first;
  }
  SmallVector<int64_t> idx;
  for (AffineExpr offset : cached->second) {
    std::optional<int64_t> off = eval(offset, indices);
    if (!off)
      return why.refuse(op->getLoc(), "cannot evaluate this access's index");
    idx.push_back(*off);
  }
  if (collectOnly) {
    auto &offs = const_cast<Operand &>(o).offs;
    for (auto [d, v] : llvm::enumerate(idx))
      offs[d].insert(v);
    return success();
  }
  SmallVector<int64_t> local;
  unsigned r = 0;
  for (auto [d, v] : llvm::enumerate(idx)) {
    if (!o.interval[d])
      continue;
    local.push_back(v - o.lo[r++]);
  }
  int64_t f = flatten(local, o.shape);
  auto it = mem.elements[k].find(f);
  int old = it != mem.elements[k].end() ? it->second : exprs.input(k, f);
  if (!value) {
    Val v;
    v.node = old;
    env[op->getResult(0)] = v;
    return success();
  }
  int stored = *value;
  if (reduce) {
    Type t = cast<MemRefType>(buffer.getType()).getElementType();
    std::string type;
    llvm::raw_string_ostream ts(type);
    ts << ":" << t;
    stored = exprs.op(
        exprs.text((isa<FloatType>(t) ? "arith.addf" : "arith.addi") + type),
        {old, *value});
  }
  mem.elements[k][f] = stored;
  mem.writers[k][f] = op;
  return success();
}

LogicalResult NestRun::runOp(Operation &op) {
  {
    if (auto loop = dyn_cast<ForOp>(op)) {
      std::optional<int64_t> lo =
          eval(loop.getLowerMap().getResult(0), loop.getLowerOperands());
      std::optional<int64_t> hi =
          eval(loop.getUpperMap().getResult(0), loop.getUpperOperands());
      if (!lo || !hi)
        return why.refuse(loop.getLoc(),
                          "the nest's loops need bounds that do not depend "
                          "on values from outside it");
      for (int64_t i = *lo; i < *hi; ++i) {
        Val v;
        v.concrete = true;
        v.c = i;
        env[loop.getInductionVar()] = v;
        if (failed(run(*loop.getBodyBlock())))
          return failure();
      }
      env.erase(loop.getInductionVar());
      return success();
    }
    if (auto cond = dyn_cast<IfOp>(op)) {
      SmallVector<int64_t> vals;
      for (AffineExpr e : cond.getMap().getResults()) {
        std::optional<int64_t> v = eval(e, cond.getOperands());
        if (!v)
          return why.refuse(cond.getLoc(),
                            "the nest's conditions must not depend on values "
                            "from outside it");
        vals.push_back(*v);
      }
      bool holds = conditionHolds(cond.getPredicates(),
                                  cond.getAlternativeSizes(), vals);
      Region &r = holds ? cond.getThenRegion() : cond.getElseRegion();
      if (!r.empty() && failed(run(r.front())))
        return failure();
      return success();
    }
    if (auto a = dyn_cast<AccessOpInterface>(op); a && a.isElementAccess()) {
      std::optional<int> stored;
      if (Value v = a.getStoredValue())
        stored = env.lookup(v).node;
      return access(a, a.getBuffer(), a.getMap(), a.getIndices(), stored,
                    a.getAccessKind() == AccessKind::Reduce);
    }
    if (isa<FenceOp, ArriveOp, AwaitOp>(op))
      return why.refuse(op.getLoc(), "the nest to replace must not "
                                     "synchronize");
    if (!runScalar(&op, exprs, env, texts))
      return why.refuse(op.getLoc(), "a nest to replace holds loops, "
                                     "conditions, accesses and arithmetic; "
                                     "not '" + op.getName().getStringRef() +
                                         "'");
  }
  return success();
}

} // namespace

FailureOr<Operation *> mlir::rake::gpuir::replaceWithInstruction(
    RewriterBase &rewriter, ForOp nest, StringRef instrName,
    ArrayRef<Value> buffers, DictionaryAttr attrs, Refusal &why,
    Value barrier, ArrayRef<Value> barrierOperands, AffineMap barrierCoords) {
  MLIRContext *ctx = nest.getContext();
  Location loc = nest.getLoc();
  std::optional<RegisteredOperationName> name =
      RegisteredOperationName::lookup(instrName, ctx);
  if (!name || !name->hasInterface<InstrOpInterface>())
    return why.refuse(loc, "'" + instrName + "' is not an instruction");

  // The operands: each buffer's corner, from its first access in the nest.
  SmallVector<Operand, 4> operands;
  llvm::SmallPtrSet<Value, 8> inner;
  nest->walk([&](ForOp l) { inner.insert(l.getInductionVar()); });
  for (Value b : buffers) {
    Operand o;
    o.buffer = b;
    unsigned rank = cast<MemRefType>(b.getType()).getRank();
    o.offs.resize(rank);
    Operation *first = nullptr;
    nest->walk([&](Operation *op) {
      if (first)
        return;
      if (auto a = dyn_cast<AccessOpInterface>(op);
          a && a.isElementAccess() && a.getBuffer() == b)
        first = op;
    });
    if (!first)
      return why.refuse(loc, "the nest does not access " + controlName(b) +
                                 "; each operand of the replacement is a "
                                 "buffer the nest accesses");
    AffineMap map = first->getAttrOfType<AffineMapAttr>("map").getValue();
    ValueRange indices = first->getOperands().take_back(map.getNumDims());
    SmallVector<AffineExpr> dims;
    for (Value v : indices) {
      if (inner.contains(v)) {
        dims.push_back(getAffineConstantExpr(0, ctx));
        continue;
      }
      if (!llvm::is_contained(o.cornerOps, v))
        o.cornerOps.push_back(v);
      dims.push_back(getAffineDimExpr(
          llvm::find(o.cornerOps, v) - o.cornerOps.begin(), ctx));
    }
    llvm::SmallBitVector outerDims(indices.size());
    for (auto [i, v] : llvm::enumerate(indices))
      outerDims[i] = !inner.contains(v);
    for (AffineExpr e : map.getResults()) {
      // A term that mixes the nest's loops with outer values is refused
      // when the nest runs; its corner here does not matter.
      FailureOr<SplitIndex> split = splitIndex(e, outerDims);
      AffineExpr corner =
          succeeded(split) ? split->corner : getAffineConstantExpr(0, ctx);
      o.corner.push_back(simplifyAffineExpr(corner.replaceDims(dims),
                                            o.cornerOps.size(), 0));
    }
    operands.push_back(std::move(o));
  }

  // First pass: the offsets each operand's accesses reach.
  Exprs exprs;
  {
    Memory scratch(operands.size());
    NestRun collect{nest, operands, exprs, scratch, DenseMap<Value, Val>(), why, true};
    if (failed(collect.runOp(*nest)))
      return failure();
  }

  // The windows: the dimensions whose offsets vary are intervals, from the
  // smallest offset to the largest; for a warp's fragment (a parameter
  // distributed over the warp's lanes), its first interval is all 32 lanes,
  // whichever the nest reaches (a shfl_down's source reads lane l + 8 only
  // below lane 24, yet is the warp's 32 registers).
  SmallVector<Value> windows;
  Operation *instr = nullptr;
  auto build = [&](const llvm::SmallBitVector &lanes) -> LogicalResult {
    rewriter.setInsertionPoint(nest);
    windows.clear();
    for (auto [k, o] : llvm::enumerate(operands)) {
      auto type = cast<MemRefType>(o.buffer.getType());
      unsigned rank = type.getRank();
      for (unsigned d = 0; d < rank; ++d)
        if (o.offs[d].empty())
          return why.refuse(loc, "the nest never reaches " +
                                     controlName(o.buffer) +
                                     " when it runs (or names it twice); each "
                                     "operand is a buffer the nest accesses");
      o.interval.assign(rank, false);
      o.lo.clear();
      o.shape.clear();
      bool any = false;
      for (unsigned d = 0; d < rank; ++d)
        any |= (o.interval[d] = o.offs[d].size() > 1);
      if (!any && rank)
        o.interval[rank - 1] = true;
      SmallVector<AffineExpr> coords;
      SmallVector<bool> intervals;
      SmallVector<int64_t> shape, strides;
      SmallVector<int64_t> srcStrides;
      int64_t srcOffset;
      if (failed(type.getStridesAndOffset(srcStrides, srcOffset)))
        return why.refuse(loc, "cannot make a window of " +
                                   controlName(o.buffer) +
                                   ": it has no strides");
      bool laneDim = k < lanes.size() && lanes[k];
      for (unsigned d = 0; d < rank; ++d) {
        int64_t lo = *o.offs[d].begin(), hi = *o.offs[d].rbegin();
        if (!o.interval[d]) {
          coords.push_back(o.corner[d] + lo);
          intervals.push_back(false);
          continue;
        }
        if (laneDim) {
          laneDim = false;
          if (lo < 0 || hi > 31)
            return why.refuse(loc, "the nest reaches lanes " + Twine(lo) +
                                       " to " + Twine(hi) + " of " +
                                       controlName(o.buffer) +
                                       ", a warp's fragment has lanes 0 to 31");
          lo = 0;
          hi = 31;
        }
        o.lo.push_back(lo);
        o.shape.push_back(hi - lo + 1);
        coords.push_back(o.corner[d] + lo);
        coords.push_back(o.corner[d] + hi + 1);
        intervals.push_back(true);
        shape.push_back(hi - lo + 1);
        strides.push_back(srcStrides[d]);
      }
      auto resultType = MemRefType::get(
          shape, type.getElementType(),
          StridedLayoutAttr::get(ctx, ShapedType::kDynamic, strides),
          type.getMemorySpace());
      ControlGroup g = simplifyGroup(
          {o.cornerOps, AffineMap::get(o.cornerOps.size(), 0, coords, ctx)});
      auto window = WindowOp::create(
          rewriter, loc, resultType, o.buffer, g.operands,
          AffineMapAttr::get(g.map), rewriter.getDenseBoolArrayAttr(intervals),
          StringAttr());
      windows.push_back(window.getResult());
    }

    // The instruction, as GpuIR's verifier accepts it.
    OperationState state(loc, *name);
    state.addOperands(windows);
    if (barrier) {
      // The trailing barrier: the barrier, its coordinates' operands, their
      // map and (all points) intervals, as custom<TrailingBarrier> holds
      // them.
      state.addOperands(barrier);
      state.addOperands(barrierOperands);
      state.addAttribute("map", AffineMapAttr::get(barrierCoords));
      state.addAttribute("intervals",
                         rewriter.getDenseBoolArrayAttr(SmallVector<bool>(
                             barrierCoords.getNumResults(), false)));
    }
    if (attrs)
      state.addAttributes(attrs.getValue());
    instr = rewriter.create(state);
    return success();
  };
  // A refusal while building leaves nothing behind.
  auto eraseWindows = [&] {
    for (Value w : llvm::reverse(windows))
      rewriter.eraseOp(w.getDefiningOp());
    windows.clear();
  };
  if (failed(build(llvm::SmallBitVector()))) {
    eraseWindows();
    return failure();
  }
  // The warp fragments among the operands: then the windows again. The
  // interface is asked only of an op with the operands its definition
  // requires (its verifier, below, says what else is wrong).
  auto hasOperands = [](Operation *op) {
    // The operand count its definition declares (NOperands or
    // AtLeastNOperands, as ODS writes them).
#define RAKE_TRY(N)                                                            \
  if (op->hasTrait<OpTrait::NOperands<N>::Impl>() ||                           \
      op->hasTrait<OpTrait::AtLeastNOperands<N>::Impl>())                      \
    return op->getNumOperands() >= N;
    if (op->hasTrait<OpTrait::OneOperand>() ||
        op->hasTrait<OpTrait::AtLeastNOperands<1>::Impl>())
      return op->getNumOperands() >= 1;
    RAKE_TRY(2) RAKE_TRY(3) RAKE_TRY(4) RAKE_TRY(5) RAKE_TRY(6) RAKE_TRY(7)
    RAKE_TRY(8)
#undef RAKE_TRY
    return false;
  };
  if (hasOperands(instr)) {
    auto iface = cast<InstrOpInterface>(instr);
    llvm::SmallBitVector lanes(operands.size());
    if (CollUnitAttr unit = iface.getCollUnit();
        unit && unit == CollUnitAttr::get(ctx, CollUnitKind::warp, 1, 0))
      for (const InstrParam &p : iface.getParams())
        if (p.operandIndex < operands.size() &&
            p.distributedUnits.size() == 1 &&
            p.distributedUnits[0] ==
                CollUnitAttr::get(ctx, CollUnitKind::thread, 1, 0))
          lanes.set(p.operandIndex);
    if (lanes.any()) {
      rewriter.eraseOp(instr);
      eraseWindows();
      if (failed(build(lanes))) {
        eraseWindows();
        return failure();
      }
    }
  }
  auto undo = [&] {
    rewriter.eraseOp(instr);
    for (Value w : llvm::reverse(windows))
      rewriter.eraseOp(w.getDefiningOp());
  };
  {
    std::string message;
    auto valid = [&]() -> LogicalResult {
      for (Value w : windows)
        if (failed(mlir::verify(w.getDefiningOp())))
          return failure();
      return mlir::verify(instr);
    };
    if (failed(checkQuietly(ctx, valid, message))) {
      undo();
      return why.refuse(loc, "the nest cannot become '" + instrName +
                                 "' on windows of its buffers: " + message);
    }
  }

  // The instruction's behavior, run on its operands' elements.
  auto iface = cast<InstrOpInterface>(instr);
  SmallVector<SmallVector<int64_t>> shapes;
  SmallVector<Type> argTypes;
  for (Value w : windows) {
    auto t = cast<MemRefType>(w.getType());
    shapes.push_back(SmallVector<int64_t>(t.getShape()));
    argTypes.push_back(MemRefType::get(t.getShape(), t.getElementType()));
  }
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(loc);
  OpBuilder b(ctx);
  b.setInsertionPointToStart(scratch->getBody());
  auto fn = func::FuncOp::create(b, loc, "behavior",
                                 FunctionType::get(ctx, argTypes, {}));
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  SmallVector<Value> args(entry->getArguments());
  // The behavior takes every operand: barriers and their coordinates as
  // null values.
  SmallVector<Value> behaviorOperands(args);
  behaviorOperands.resize(instr->getNumOperands(), Value());
  if (failed(iface.buildSequential(b, behaviorOperands))) {
    undo();
    return why.refuse(loc, "'" + instrName + "' has no sequential behavior");
  }
  func::ReturnOp::create(b, loc);
  Memory instrMem(operands.size());
  {
    DenseMap<Value, Val> env;
    DenseMap<Operation *, int> texts;
    Locals locals;
    if (failed(runBehavior(*entry, args, shapes, exprs, instrMem, env, texts,
                           why, locals))) {
      undo();
      return failure();
    }
  }
  Memory nestMem(operands.size());
  {
    NestRun run{nest, operands, exprs, nestMem, DenseMap<Value, Val>(), why, false};
    if (failed(run.runOp(*nest))) {
      undo();
      return failure();
    }
  }

  // Every element either writes, the same expression.
  SmallVector<std::string> names;
  SmallVector<InstrParam> params = iface.getParams();
  for (unsigned k = 0; k < operands.size(); ++k) {
    std::string n = controlName(operands[k].buffer);
    for (const InstrParam &p : params)
      if (p.operandIndex == k)
        n = p.name.str();
    names.push_back(n);
  }
  auto coords = [&](unsigned k, int64_t f) {
    SmallVector<int64_t> idx(shapes[k].size());
    for (int d = shapes[k].size() - 1; d >= 0; --d) {
      idx[d] = f % shapes[k][d];
      f /= shapes[k][d];
    }
    std::string s = "[";
    for (auto [i, v] : llvm::enumerate(idx))
      s += (i ? ", " : "") + std::to_string(v);
    return s + "]";
  };
  for (unsigned k = 0; k < operands.size(); ++k) {
    std::set<int64_t> keys;
    for (auto &[f, n] : nestMem.elements[k])
      keys.insert(f);
    for (auto &[f, n] : instrMem.elements[k])
      keys.insert(f);
    for (int64_t f : keys) {
      auto ni = nestMem.elements[k].find(f), ii = instrMem.elements[k].find(f);
      bool inNest = ni != nestMem.elements[k].end();
      bool inInstr = ii != instrMem.elements[k].end();
      if (inNest && inInstr && ni->second == ii->second)
        continue;
      std::string where = names[k] + coords(k, f);
      std::string instrSays, nestSays;
      if (inNest && inInstr) {
        auto [x, y] = exprs.firstDifference(ii->second, ni->second);
        instrSays = "computes with " + exprs.print(x, names, coords);
        nestSays = "with " + exprs.print(y, names, coords);
      } else {
        instrSays = inInstr ? "writes " + exprs.print(ii->second, names, coords)
                            : "leaves it unchanged";
        nestSays = inNest ? "writes " + exprs.print(ni->second, names, coords)
                          : "leaves it unchanged";
      }
      Operation *writer = inNest ? nestMem.writers[k][f] : nullptr;
      undo();
      (void)why.refuse(loc, "cannot replace the nest by '" + instrName +
                                "': for " + where + " the instruction " +
                                instrSays + ", the nest " + nestSays);
      if (writer)
        why.note(writer->getLoc(), "the nest's write of " + where);
      return failure();
    }
  }
  rewriter.eraseOp(nest);
  return instr;
}
