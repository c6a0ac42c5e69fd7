//===- TensorCoreInputs.cpp - which parameters the tensor cores multiply --===//

#include "Rake/Analysis/TensorCoreInputs.h"
#include "Rake/Dialect/GpuIR/Instrs/Sm80.h"
#include "Rake/Dialect/GpuIR/Instrs/Sm90a.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

namespace {

/// The input format of a multiplicand of element type `t` ("" for none the
/// profiles name).
StringRef formatOf(Type t, bool isUnsigned) {
  if (t.isF32())
    return "tf32";
  if (t.isF16())
    return "f16";
  if (t.isBF16())
    return "bf16";
  if (isa<Float8E4M3FNType>(t))
    return "e4m3";
  if (isa<Float8E5M2Type>(t))
    return "e5m2";
  if (t.isInteger(8))
    return isUnsigned ? "u8" : "s8";
  return "";
}

/// Every buffer whose elements the computation of `v` reads.
void valueSources(Value v, llvm::SetVector<Value> &out,
                  llvm::DenseSet<Operation *> &seen) {
  Operation *def = v.getDefiningOp();
  if (!def || !seen.insert(def).second)
    return;
  if (auto read = dyn_cast<ReadOp>(def)) {
    out.insert(viewedBuffer(read.getMemref()));
    return;
  }
  for (Value operand : def->getOperands())
    valueSources(operand, out, seen);
}

} // namespace

llvm::DenseMap<unsigned, StringRef>
mlir::rake::tensorCoreInputFormats(ProcOp proc) {
  // Each buffer's sources: the buffers its written values come from.
  llvm::DenseMap<Value, llvm::SetVector<Value>> sources;
  // The multiplicands of the tensor-core instructions, with their formats.
  SmallVector<std::pair<Value, StringRef>> multiplicands;
  proc.walk([&](Operation *op) {
    if (auto write = dyn_cast<WriteOp>(op)) {
      llvm::DenseSet<Operation *> seen;
      valueSources(write.getValue(), sources[viewedBuffer(write.getMemref())], seen);
    } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
      llvm::DenseSet<Operation *> seen;
      valueSources(reduce.getValue(), sources[viewedBuffer(reduce.getMemref())],
                   seen);
    } else if (auto instr = dyn_cast<InstrOpInterface>(op)) {
      // Written parameters take data from every read one.
      SmallVector<Value> reads, writes;
      for (const InstrParam &p : instr.getParams()) {
        Value buffer = viewedBuffer(op->getOperand(p.operandIndex));
        if (p.access != AccessMode::write)
          reads.push_back(buffer);
        if (p.access != AccessMode::read)
          writes.push_back(buffer);
      }
      for (Value w : writes)
        for (Value r : reads)
          if (r != w)
            sources[w].insert(r);
    }
    if (auto mma = dyn_cast<MmaSyncOp>(op)) {
      Type t = cast<MemRefType>(mma.getA().getType()).getElementType();
      multiplicands.push_back({mma.getA(), formatOf(t, mma.getAUnsigned())});
      multiplicands.push_back({mma.getB(), formatOf(t, mma.getBUnsigned())});
    } else if (auto wgmma = dyn_cast<WgmmaOp>(op)) {
      multiplicands.push_back(
          {wgmma.getA(),
           formatOf(cast<MemRefType>(wgmma.getA().getType()).getElementType(),
                    wgmma.getAUnsigned())});
      multiplicands.push_back(
          {wgmma.getB(),
           formatOf(cast<MemRefType>(wgmma.getB().getType()).getElementType(),
                    wgmma.getBUnsigned())});
    }
  });
  llvm::DenseMap<unsigned, StringRef> out;
  Block &entry = proc.getBody().front();
  for (auto [operand, format] : multiplicands) {
    if (format.empty())
      continue;
    // Every buffer the multiplicand's values come from, transitively.
    llvm::SetVector<Value> reached;
    reached.insert(viewedBuffer(operand));
    for (size_t i = 0; i < reached.size(); ++i) {
      auto it = sources.find(reached[i]);
      if (it != sources.end())
        reached.insert(it->second.begin(), it->second.end());
    }
    for (Value v : reached)
      if (auto arg = dyn_cast<BlockArgument>(v))
        if (arg.getOwner() == &entry && isa<MemRefType>(arg.getType()))
          out.try_emplace(arg.getArgNumber(), format);
  }
  return out;
}
