//===- ReplaceEval.cpp - running a nest and a behavior symbolically -------===//

#include "ReplaceEval.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;
using namespace mlir::rake::gpuir::replace_detail;

/// An op's attributes as part of its expression (fastmath none left out:
/// the builders' default).
static std::string attrKey(Operation *op) {
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
static int opText(Operation *op, Exprs &exprs) {
  std::string type;
  llvm::raw_string_ostream ts(type);
  ts << ":" << op->getResult(0).getType();
  return exprs.text(op->getName().getStringRef().str() + attrKey(op) + type);
}

bool mlir::rake::gpuir::replace_detail::runScalar(
    Operation *op, Exprs &exprs, DenseMap<Value, Val> &env,
    DenseMap<Operation *, int> &texts) {
  auto get = [&](Value v) -> Val { return env.lookup(v); };
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    Val v;
    if (auto i = dyn_cast<IntegerAttr>(c.getValue());
        i && c.getType().isIntOrIndex()) {
      v.concrete = true;
      v.c = i.getValue().getSExtValue();
    }
    v.node = exprs.constant(c.getValue());
    env[c.getResult()] = v;
    return true;
  }
  if (op->getNumResults() != 1)
    return false;
  bool allConcrete =
      llvm::all_of(op->getOperands(), [&](Value v) { return get(v).concrete; });
  Type t = op->getResult(0).getType();
  if (allConcrete && t.isIntOrIndex() && !t.isInteger(1)) {
    auto x = [&](unsigned i) { return get(op->getOperand(i)).c; };
    // Results wrap to the type's width (index: 64 bits).
    unsigned width = t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
    auto wrap = [&](int64_t v) {
      return width >= 64 ? v : llvm::SignExtend64(v, width);
    };
    std::optional<int64_t> r;
    // Two's complement, wrapping (signed overflow is undefined in C++).
    auto u = [&](unsigned i) { return static_cast<uint64_t>(x(i)); };
    if (isa<arith::AddIOp>(op))
      r = static_cast<int64_t>(u(0) + u(1));
    else if (isa<arith::SubIOp>(op))
      r = static_cast<int64_t>(u(0) - u(1));
    else if (isa<arith::MulIOp>(op))
      r = static_cast<int64_t>(u(0) * u(1));
    // INT64_MIN / -1 traps in C++ (an adversarial review crashed rake-opt
    // with it); as a result it wraps, as GpuIR defines it: INT64_MIN, and
    // the remainder 0. A narrower type's minimum over -1 fits in 64 bits
    // and wraps below.
    else if (isa<arith::DivSIOp>(op) && x(1))
      r = x(1) == -1 ? static_cast<int64_t>(0 - static_cast<uint64_t>(x(0)))
                     : x(0) / x(1);
    else if (isa<arith::RemSIOp>(op) && x(1))
      r = x(1) == -1 ? 0 : x(0) % x(1);
    else if (isa<arith::IndexCastOp>(op))
      r = x(0);
    else if (isa<arith::XOrIOp>(op))
      r = x(0) ^ x(1);
    else if (isa<arith::AndIOp>(op))
      r = x(0) & x(1);
    else if (isa<arith::OrIOp>(op))
      r = x(0) | x(1);
    else if (isa<arith::ShLIOp>(op) && x(1) >= 0 && x(1) < width)
      r = static_cast<int64_t>(static_cast<uint64_t>(x(0)) << x(1));
    else if (isa<arith::ShRSIOp>(op) && x(1) >= 0 && x(1) < width)
      r = x(0) >> x(1);
    else if (auto sel = dyn_cast<arith::SelectOp>(op))
      r = x(0) ? x(1) : x(2);
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
    case arith::CmpIPredicate::eq:
      r = a == b;
      break;
    case arith::CmpIPredicate::ne:
      r = a != b;
      break;
    case arith::CmpIPredicate::slt:
      r = a < b;
      break;
    case arith::CmpIPredicate::sle:
      r = a <= b;
      break;
    case arith::CmpIPredicate::sgt:
      r = a > b;
      break;
    case arith::CmpIPredicate::sge:
      r = a >= b;
      break;
    case arith::CmpIPredicate::ult:
      r = ua < ub;
      break;
    case arith::CmpIPredicate::ule:
      r = ua <= ub;
      break;
    case arith::CmpIPredicate::ugt:
      r = ua > ub;
      break;
    case arith::CmpIPredicate::uge:
      r = ua >= ub;
      break;
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

int64_t mlir::rake::gpuir::replace_detail::flatten(ArrayRef<int64_t> idx,
                                                   ArrayRef<int64_t> shape) {
  int64_t f = 0;
  for (auto [i, s] : llvm::zip(idx, shape))
    f = f * s + i;
  return f;
}

LogicalResult BehaviorRun::run(Block &body) {
  for (Operation &op : body) {
    if (isa<func::ReturnOp, scf::YieldOp>(op))
      continue;
    if (failed(runOp(op)))
      return failure();
  }
  return success();
}

int BehaviorRun::paramOf(Value v) {
  auto it = llvm::find(args, v);
  return it == args.end() ? -1 : it - args.begin();
}

FailureOr<SmallVector<int64_t>> BehaviorRun::indexValues(Operation &op,
                                                         ValueRange indices) {
  SmallVector<int64_t> idx;
  for (Value i : indices) {
    if (!env.lookup(i).concrete)
      return why.refuse(op.getLoc(), "cannot run the instruction's "
                                     "behavior: an index that depends on "
                                     "data");
    idx.push_back(env.lookup(i).c);
  }
  return idx;
}

FailureOr<int64_t> BehaviorRun::localElement(Operation &op, Value memref,
                                             ValueRange indices) {
  FailureOr<SmallVector<int64_t>> idx = indexValues(op, indices);
  if (failed(idx))
    return failure();
  return flatten(*idx, locals[memref].shape);
}

FailureOr<std::pair<int, int64_t>> BehaviorRun::element(Operation &op,
                                                        Value memref,
                                                        ValueRange indices,
                                                        StringRef what) {
  int p = paramOf(memref);
  FailureOr<SmallVector<int64_t>> idx = indexValues(op, indices);
  if (failed(idx))
    return failure();
  if (p < 0)
    return why.refuse(op.getLoc(), "cannot run the instruction's behavior: " +
                                       what + " a local buffer");
  return std::make_pair(p, flatten(*idx, shapes[p]));
}

int BehaviorRun::storedNode(Value v) {
  Val stored = env.lookup(v);
  if (stored.node < 0)
    stored.node = exprs.constant(IntegerAttr::get(v.getType(), stored.c));
  return stored.node;
}

LogicalResult BehaviorRun::runLoad(memref::LoadOp load) {
  Operation &op = *load;
  Val v;
  if (locals.count(load.getMemRef())) {
    FailureOr<int64_t> f =
        localElement(op, load.getMemRef(), load.getIndices());
    if (failed(f))
      return failure();
    auto &elements = locals[load.getMemRef()].elements;
    auto it = elements.find(*f);
    if (it == elements.end())
      return why.refuse(op.getLoc(), "cannot run the instruction's "
                                     "behavior: it reads an element of a "
                                     "local buffer it never wrote");
    v.node = it->second;
  } else {
    FailureOr<std::pair<int, int64_t>> at =
        element(op, load.getMemRef(), load.getIndices(), "a load of");
    if (failed(at))
      return failure();
    auto [p, f] = *at;
    auto it = mem.elements[p].find(f);
    v.node = it != mem.elements[p].end() ? it->second : exprs.input(p, f);
  }
  env[load.getResult()] = v;
  return success();
}

LogicalResult BehaviorRun::runStore(memref::StoreOp store) {
  Operation &op = *store;
  if (locals.count(store.getMemRef())) {
    FailureOr<int64_t> f =
        localElement(op, store.getMemRef(), store.getIndices());
    if (failed(f))
      return failure();
    locals[store.getMemRef()].elements[*f] =
        storedNode(store.getValueToStore());
    return success();
  }
  FailureOr<std::pair<int, int64_t>> at =
      element(op, store.getMemRef(), store.getIndices(), "a store to");
  if (failed(at))
    return failure();
  mem.elements[at->first][at->second] = storedNode(store.getValueToStore());
  return success();
}

LogicalResult BehaviorRun::runFor(scf::ForOp loop) {
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
    if (failed(run(*loop.getBody())))
      return failure();
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [k, y] : llvm::enumerate(yield.getOperands()))
      carried[k] = env.lookup(y);
  }
  for (auto [r, v] : llvm::zip(loop.getResults(), carried))
    env[r] = v;
  return success();
}

LogicalResult BehaviorRun::runIf(scf::IfOp branch) {
  Val c = env.lookup(branch.getCondition());
  if (!c.concrete)
    return why.refuse(branch.getLoc(), "cannot run the instruction's "
                                       "behavior: a branch on data");
  Region &r = c.c ? branch.getThenRegion() : branch.getElseRegion();
  if (r.empty())
    return success();
  if (failed(run(r.front())))
    return failure();
  auto yield = cast<scf::YieldOp>(r.front().getTerminator());
  for (auto [res, y] : llvm::zip(branch.getResults(), yield.getOperands()))
    env[res] = env.lookup(y);
  return success();
}

LogicalResult BehaviorRun::runOp(Operation &op) {
  if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
    if (!alloca.getType().hasStaticShape())
      return why.refuse(op.getLoc(), "cannot run the instruction's "
                                     "behavior: a local buffer of dynamic "
                                     "shape");
    locals[alloca.getResult()] =
        LocalBuffer{SmallVector<int64_t>(alloca.getType().getShape()), {}};
    return success();
  }
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return runLoad(load);
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return runStore(store);
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
    SmallVector<int64_t> operands;
    for (Value v : apply.getMapOperands())
      operands.push_back(env.lookup(v).c);
    Val v;
    v.concrete = true;
    v.c = evaluateControlExpr(apply.getAffineMap().getResult(0), operands);
    env[apply.getResult()] = v;
    return success();
  }
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return runFor(loop);
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return runIf(branch);
  if (!runScalar(&op, exprs, env, texts))
    return why.refuse(op.getLoc(),
                      "cannot run '" + op.getName().getStringRef() +
                          "' of the instruction's sequential behavior");
  return success();
}
