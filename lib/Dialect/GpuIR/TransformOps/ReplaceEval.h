//===- ReplaceEval.h - running a nest and a behavior symbolically -*- C++
//-*-===//
//
// What replace (Replace.cpp) runs both the loop nest and the instruction's
// sequential behavior with: hash-consed expressions over the operands'
// initial elements, values that are concrete integers (control) or
// expressions (data), and the elements each run writes
// (ReplaceEval.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_LIB_DIALECT_GPUIR_TRANSFORMOPS_REPLACEEVAL_H
#define RAKE_LIB_DIALECT_GPUIR_TRANSFORMOPS_REPLACEEVAL_H

#include "Rake/Dialect/GpuIR/TransformOps/Rewrites.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <unordered_map>

namespace mlir::rake::gpuir::replace_detail {

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

/// Runs arith/math ops: integer ops on concrete values are computed, the
/// rest become expressions. Returns false for an op it does not know.
bool runScalar(Operation *op, Exprs &exprs, DenseMap<Value, Val> &env,
               DenseMap<Operation *, int> &texts);

/// The row-major flat index of `idx` in `shape`.
int64_t flatten(ArrayRef<int64_t> idx, ArrayRef<int64_t> shape);

/// The behavior's own buffers (memref.alloca: a temporary copy, so that
/// an instruction's dst may be its src): each element's expression, by its
/// flat index.
struct LocalBuffer {
  SmallVector<int64_t> shape;
  std::map<int64_t, int> elements;
};
using Locals = llvm::MapVector<Value, LocalBuffer>;

/// Runs the instruction's sequential behavior (func/scf/memref/arith code)
/// on symbolic elements: what each element of each operand becomes.
struct BehaviorRun {
  ArrayRef<Value> args;
  ArrayRef<SmallVector<int64_t>> shapes;
  Exprs &exprs;
  Memory &mem;
  DenseMap<Value, Val> &env;
  DenseMap<Operation *, int> &texts;
  Refusal &why;
  Locals &locals;

  LogicalResult run(Block &body);

private:
  int paramOf(Value v);

  /// The concrete values of indices, or a refusal.
  FailureOr<SmallVector<int64_t>> indexValues(Operation &op,
                                              ValueRange indices);

  /// The flat element of a local buffer a load or store reaches.
  FailureOr<int64_t> localElement(Operation &op, Value memref,
                                  ValueRange indices);

  /// The operand and flat element a load or store reaches, or a refusal.
  FailureOr<std::pair<int, int64_t>>
  element(Operation &op, Value memref, ValueRange indices, StringRef what);

  /// The expression node of a stored value (a constant's, for a concrete
  /// one).
  int storedNode(Value v);

  LogicalResult runLoad(memref::LoadOp load);

  LogicalResult runStore(memref::StoreOp store);

  LogicalResult runFor(scf::ForOp loop);

  LogicalResult runIf(scf::IfOp branch);

  LogicalResult runOp(Operation &op);
};

} // namespace mlir::rake::gpuir::replace_detail

#endif // RAKE_LIB_DIALECT_GPUIR_TRANSFORMOPS_REPLACEEVAL_H
