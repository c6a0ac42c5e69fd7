//===- GpuIRVerifiers.cpp - GpuIR operation verifiers ---------------------===//
//
// The verifiers of GpuIR's ops (verify, verifyRegions, verifySymbolUses),
// the InstrOpInterface check verifyInstrOp, and the memory-space, scope and
// coordinate checks they share. The ops' syntax is in GpuIRSyntax.cpp; their
// builders and accessors in GpuIROps.cpp.
//
//===----------------------------------------------------------------------===//

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"
#include "VerifierUtils.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;
using namespace mlir::rake::gpuir::detail;

//===----------------------------------------------------------------------===//
// Scope queries
//===----------------------------------------------------------------------===//

MemoryTypeAttrInterface mlir::rake::gpuir::detail::getMemoryType(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    return dyn_cast_or_null<MemoryTypeAttrInterface>(memref.getMemorySpace());
  return {};
}

/// Checks that a memref names a GpuIR memory type.
LogicalResult mlir::rake::gpuir::detail::verifyMemorySpace(Operation *op,
                                                           Type type,
                                                           StringRef what) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return success();
  if (!memref.getMemorySpace())
    return op->emitOpError() << what << " has no memory space; give it a "
                                "memory type such as #gpuir.gmem, "
                                "#gpuir.smem or #gpuir.rmem";
  if (!getMemoryType(memref))
    return op->emitOpError() << what << " has memory space "
                             << memref.getMemorySpace()
                             << ", which is not a memory type; use one of "
                                "#gpuir.host, #gpuir.gmem, #gpuir.smem, "
                                "#gpuir.rmem, ... (a MemoryTypeAttrInterface)";
  return success();
}

/// Checks that a memory type may be accessed from the op's scope.
LogicalResult mlir::rake::gpuir::detail::verifyAccessScope(Operation *op,
                                                           Type type) {
  MemoryTypeAttrInterface mem = getMemoryType(type);
  if (!mem)
    return success();
  DeviceScope scope = getDeviceScope(op);
  if (scope == DeviceScope::CUDA && !mem.isDeviceVisible())
    return op->emitOpError() << "accesses " << mem.getMemoryName()
                             << " memory inside a device function; device "
                                "code cannot see it";
  if (scope == DeviceScope::CPU && !mem.isHostVisible())
    return op->emitOpError() << "accesses " << mem.getMemoryName()
                             << " memory at CPU scope; only device code "
                                "(inside gpuir.device_function) can access it";
  return success();
}

/// Grid constants are kernel parameters (__grid_constant__): the launch
/// passes their value and the device only reads them. A device write would
/// go to the parameter space that every thread reads, unordered by the
/// check, which exempts grid constants because they never change.
LogicalResult mlir::rake::gpuir::detail::verifyWritable(Operation *op,
                                                        Type type,
                                                        StringRef what) {
  MemoryTypeAttrInterface mem = getMemoryType(type);
  if (!isa_and_nonnull<GridConstantAttr>(mem) ||
      getDeviceScope(op) != DeviceScope::CUDA)
    return success();
  return op->emitOpError()
         << "writes " << what
         << " in grid_constant memory inside a device function; grid "
            "constants are kernel parameters that the device only reads: "
            "write the value at CPU scope before the launch, or keep it in "
            "#gpuir.gmem";
}

//===----------------------------------------------------------------------===//
// ProcOp
//===----------------------------------------------------------------------===//

/// An affine expression's text, for a diagnostic.
static std::string exprText(AffineExpr e) {
  std::string text;
  llvm::raw_string_ostream os(text);
  e.print(os);
  return text;
}

/// A buffer parameter's declared extents: one per dimension, over the
/// control parameters, equal to the static ones.
LogicalResult ProcOp::verifyExtents(unsigned i, MemRefType type) {
  Attribute attr = getArgAttr(i, kExtentsAttrName);
  if (!attr)
    return success();
  auto map = dyn_cast<AffineMapAttr>(attr);
  unsigned controls = llvm::count_if(getArgumentTypes(), [](Type t) {
    return isa<IndexType>(t);
  });
  if (!map || map.getValue().getNumSymbols() != 0 ||
      map.getValue().getNumDims() != controls)
    return emitOpError() << "parameter #" << i << " has " << kExtentsAttrName
                         << " = " << attr
                         << "; expected an affine map over the procedure's "
                         << controls
                         << " control parameters, in order, for example "
                            "affine_map<(M, N) -> (M, N * 64)>";
  if (map.getValue().getNumResults() != type.getRank())
    return emitOpError() << "parameter #" << i << " has "
                         << map.getValue().getNumResults() << " extents for "
                         << type.getRank() << " dimensions";
  for (AffineExpr e : map.getValue().getResults())
    if (AffineExpr bad = nonPositiveDivisor(e))
      return emitOpError() << "parameter #" << i << " declares an extent "
                           << "that divides by " << exprText(bad)
                           << "; floordiv, ceildiv and mod take a positive "
                              "constant";
  for (auto [d, e] : llvm::enumerate(map.getValue().getResults())) {
    if (type.isDynamicDim(d))
      continue;
    auto c = dyn_cast<AffineConstantExpr>(e);
    if (!c || c.getValue() != type.getDimSize(d)) {
      std::string text;
      llvm::raw_string_ostream os(text);
      e.print(os);
      return emitOpError() << "parameter #" << i << " declares extent " << text
                           << " for dimension " << d
                           << ", whose static size is " << type.getDimSize(d);
    }
  }
  return success();
}

LogicalResult ProcOp::verify() {
  FunctionType type = getFunctionType();
  if (type.getNumResults() != 0)
    return emitOpError() << "has " << type.getNumResults()
                         << " results; procedures return data through their "
                            "buffer parameters";
  for (auto [i, t] : llvm::enumerate(type.getInputs())) {
    if (isa<IndexType>(t))
      continue;
    if (auto memref = dyn_cast<MemRefType>(t)) {
      if (failed(verifyMemorySpace(*this, t,
                                   "parameter #" + std::to_string(i))) ||
          failed(verifyExtents(i, memref)))
        return failure();
      if (Attribute align = getArgAttr(i, kAlignAttrName)) {
        auto value = dyn_cast<IntegerAttr>(align);
        int64_t elementBytes =
            memref.getElementType().isIntOrFloat()
                ? std::max<int64_t>(1, memref.getElementTypeBitWidth() / 8)
                : 1;
        if (!value || value.getInt() < elementBytes || value.getInt() > 256 ||
            !llvm::isPowerOf2_64(value.getInt()))
          return emitOpError()
                 << "parameter #" << i << " has " << kAlignAttrName << " = "
                 << align << "; expected the alignment of its first element "
                 << "in bytes, a power of two from " << elementBytes
                 << " (its element's size) to 256, e.g. {" << kAlignAttrName
                 << " = 16}";
        if (!isa_and_nonnull<GmemAttr>(memref.getMemorySpace()))
          return emitOpError()
                 << "parameter #" << i << " has " << kAlignAttrName
                 << ", which only a buffer in global memory (#gpuir.gmem) "
                    "takes";
      }
      continue;
    }
    return emitOpError() << "parameter #" << i << " has type " << t
                         << "; a procedure parameter is a control value "
                            "(index) or a buffer (memref)";
  }
  return success();
}

/// The rules of GpuIR that a procedure as a whole enforces: control values
/// are parameters or loop variables, and scalar data values stay in the block
/// that makes them.
LogicalResult ProcOp::verifyRegions() {
  WalkResult result = walk([&](Operation *op) -> WalkResult {
    if (op == getOperation())
      return WalkResult::advance();
    bool isGpuIR = isa_and_nonnull<GpuIRDialect>(op->getDialect());
    for (OpOperand &use : op->getOpOperands()) {
      Value v = use.get();
      if (!isGpuIR || !isa<IndexType>(v.getType()))
        continue;
      auto arg = dyn_cast<BlockArgument>(v);
      Operation *owner = arg ? arg.getOwner()->getParentOp() : nullptr;
      if (!owner || !isa<ProcOp, ForOp>(owner)) {
        InFlightDiagnostic diag =
            op->emitOpError()
            << "operand #" << use.getOperandNumber()
            << " is a control value computed by an operation; control values "
               "are procedure parameters and loop variables, and arithmetic "
               "on them is written as an affine expression in the operation "
               "that uses them";
        if (Operation *def = v.getDefiningOp())
          diag.attachNote(def->getLoc()) << "computed here";
        return WalkResult::interrupt();
      }
    }
    // Control expressions are quasi-affine: a division or mod by a positive
    // constant (what the interpreter, the analyses and Presburger assume).
    if (isGpuIR)
      for (NamedAttribute attr : op->getAttrs()) {
        auto map = dyn_cast<AffineMapAttr>(attr.getValue());
        if (!map)
          continue;
        AffineExpr bad;
        for (AffineExpr e : map.getValue().getResults())
          if (!bad)
            bad = nonPositiveDivisor(e);
        if (bad) {
          op->emitOpError()
              << "divides by " << exprText(bad)
              << " in a control expression; floordiv, ceildiv and mod take "
                 "a positive constant";
          return WalkResult::interrupt();
        }
      }
    for (Value res : op->getResults()) {
      Type t = res.getType();
      if (!t.isIntOrFloat() || isa<IndexType>(t))
        continue;
      for (OpOperand &use : res.getUses()) {
        if (use.getOwner()->getBlock() == op->getBlock())
          continue;
        InFlightDiagnostic diag =
            use.getOwner()->emitOpError()
            << "uses a scalar data value made in another block; a data value "
               "that outlives its statement must be stored in a buffer (for "
               "example a register buffer indexed by thread)";
        diag.attachNote(op->getLoc()) << "value made here";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// CallOp
//===----------------------------------------------------------------------===//

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<ProcOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "'" << getCallee()
                         << "' does not name a gpuir.proc";
  FunctionType type = callee.getFunctionType();
  if (type.getNumInputs() != getArgs().size())
    return emitOpError() << "passes " << getArgs().size() << " arguments to '"
                         << getCallee() << "', which takes "
                         << type.getNumInputs();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(type.getInputs(), getArgs())))
    if (std::get<0>(pair) != std::get<1>(pair).getType())
      return emitOpError() << "argument #" << i << " has type "
                           << std::get<1>(pair).getType() << " but '"
                           << getCallee() << "' expects "
                           << std::get<0>(pair);
  // A procedure's buffer parameters are distinct buffers: its check, its
  // sequential meaning and the rewrites of its body take them as such (an
  // adversarial review reordered two writes of a callee that a caller passed
  // one buffer twice, which changed the caller's result). Windows of one
  // buffer are distinct when their constant coordinates keep them apart in
  // some dimension.
  auto rootOf = [](Value v) {
    SmallVector<WindowOp> chain;
    while (auto w = v.getDefiningOp<WindowOp>()) {
      chain.push_back(w);
      v = w.getSource();
    }
    return std::make_pair(v, chain);
  };
  auto apart = [](WindowOp a, WindowOp b) {
    // Only windows taken directly of the same source, with constant
    // coordinates, are compared.
    if (!a || !b || a.getSource() != b.getSource())
      return false;
    auto bounds = [](WindowOp w) {
      SmallVector<std::pair<int64_t, int64_t>> r;
      AffineMap m = w.getMap();
      unsigned k = 0;
      for (bool interval : w.getIntervals()) {
        auto lo = dyn_cast<AffineConstantExpr>(m.getResult(k));
        auto hi = interval ? dyn_cast<AffineConstantExpr>(m.getResult(k + 1))
                           : lo;
        if (!lo || !hi)
          r.push_back({0, -1});
        else
          r.push_back({lo.getValue(),
                       interval ? hi.getValue() : lo.getValue() + 1});
        k += interval ? 2 : 1;
      }
      return r;
    };
    auto ra = bounds(a), rb = bounds(b);
    for (auto [x, y] : llvm::zip(ra, rb))
      if (x.second >= x.first && y.second >= y.first &&
          (x.second <= y.first || y.second <= x.first))
        return true;
    return false;
  };
  for (unsigned i = 0; i < getArgs().size(); ++i) {
    if (!isa<MemRefType>(getArgs()[i].getType()))
      continue;
    auto [ri, ci] = rootOf(getArgs()[i]);
    for (unsigned j = i + 1; j < getArgs().size(); ++j) {
      if (!isa<MemRefType>(getArgs()[j].getType()))
        continue;
      auto [rj, cj] = rootOf(getArgs()[j]);
      if (ri != rj)
        continue;
      WindowOp wi = ci.empty() ? WindowOp() : ci.front();
      WindowOp wj = cj.empty() ? WindowOp() : cj.front();
      if (apart(wi, wj))
        continue;
      return emitOpError()
             << "passes one buffer (or overlapping windows of it) as "
                "arguments #"
             << i << " and #" << j << " of '" << getCallee()
             << "'; a procedure's buffer parameters are distinct buffers "
                "(its check, its sequential meaning and the rewrites of its "
                "body take them so): pass a copy, or windows that are apart";
    }
  }
  return success();
}

LogicalResult CallOp::verify() {
  if (getDeviceScope(*this) == DeviceScope::CUDA)
    return emitOpError() << "calls procedure '" << getCallee()
                         << "' inside a device function; procedures are "
                            "called only at CPU scope (outside "
                            "gpuir.device_function)";
  return success();
}

//===----------------------------------------------------------------------===//
// ForOp
//===----------------------------------------------------------------------===//

LogicalResult ForOp::verify() {
  if (getLowerMap().getNumResults() != 1 || getUpperMap().getNumResults() != 1)
    return emitOpError() << "each bound is one affine expression";
  if (getLowerMap().getNumDims() != getLowerOperands().size() ||
      getUpperMap().getNumDims() != getUpperOperands().size())
    return emitOpError() << "bound maps and operands disagree";
  Block &body = getBody().front();
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return emitOpError() << "the body takes one index argument, the loop "
                            "variable";

  LoopMode mode = getLoopMode();
  if (mode == LoopMode::cuda_threads && !getUnit())
    return emitOpError() << "a cuda_threads loop needs a collective unit: "
                            "cuda_threads<#gpuir.unit<...>>";
  if (mode != LoopMode::cuda_threads && getUnit())
    return emitOpError() << "only cuda_threads loops take a collective unit";

  Operation *parent = (*this)->getParentOp();
  if (mode == LoopMode::cuda_tasks) {
    auto parentFor = dyn_cast<ForOp>(parent);
    bool inNest = isa<DeviceFunctionOp>(parent) ||
                  (parentFor && parentFor.getLoopMode() == LoopMode::cuda_tasks);
    if (!inNest)
      return emitOpError()
             << "cuda_tasks loops appear only as the nest that forms the body "
                "of a gpuir.device_function; found one inside '"
             << parent->getName() << "'";
    if (parentFor && !llvm::hasSingleElement(parentFor.getBodyBlock()->getOperations()))
      return emitOpError()
             << "a cuda_tasks loop nested in another must be its only "
                "statement; the device tasks are the iterations of a perfect "
                "nest";
  }
  if (mode == LoopMode::cuda_threads) {
    if (getDeviceScope(*this) == DeviceScope::CPU)
      return emitOpError() << "cuda_threads loops run inside a device "
                              "function; at CPU scope only seq loops are "
                              "allowed";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// IfOp
//===----------------------------------------------------------------------===//

LogicalResult IfOp::verify() {
  if (failed(rake::verifyCondition(*this, getMap(), getOperands().size(),
                             getPredicates(),
                             getAlternativeSizes())))
    return failure();
  if (getPredicates().empty())
    return emitOpError() << "needs a condition";
  if (hasElse() && !llvm::hasSingleElement(getElseRegion()))
    return emitOpError() << "the else region is one block";
  for (Region *r : {&getThenRegion(), &getElseRegion()})
    if (!r->empty() && r->front().getNumArguments() != 0)
      return emitOpError() << "branches take no arguments";
  return success();
}

//===----------------------------------------------------------------------===//
// DeviceFunctionOp
//===----------------------------------------------------------------------===//

LogicalResult DeviceFunctionOp::verify() {
  int64_t cluster = getCluster();
  if (cluster < 1 || cluster > 16 || !llvm::isPowerOf2_64(cluster))
    return emitOpError() << "cluster size must be a power of two from 1 to "
                            "16, found "
                         << cluster;
  if (getBlocksPerSm() < 1)
    return emitOpError() << "blocks_per_sm must be positive, found "
                         << getBlocksPerSm();
  if (getBlock().has_value() == getWarpGroups().has_value())
    return emitOpError() << "give the CTA size either as block(n) or as named "
                            "warp groups warps(name = count, ...), not "
                         << (getBlock() ? "both" : "neither");
  if (getBlock()) {
    int64_t n = *getBlock();
    if (n < 32 || n > 1024 || n % 32 != 0)
      return emitOpError() << "block size must be a multiple of 32 from 32 "
                              "to 1024, found "
                           << n;
  } else {
    llvm::StringSet<> names;
    for (auto g : getWarpGroups()->getAsRange<WarpGroupAttr>()) {
      StringRef name = g.getName().getValue();
      if (!names.insert(name).second)
        return emitOpError() << "warp group '" << name << "' named twice";
      if (g.getCount() < 1)
        return emitOpError() << "warp group '" << name
                             << "' needs at least one warp, found "
                             << g.getCount();
      if (g.getChange() != RegisterChange::none &&
          (g.getRegisters() < 24 || g.getRegisters() > 256 ||
           g.getRegisters() % 8 != 0))
        return emitOpError() << "warp group '" << name
                             << "' sets its register count to "
                             << g.getRegisters()
                             << "; setmaxnreg takes a multiple of 8 from 24 "
                                "to 256";
    }
    if (getBlockDim() > 1024)
      return emitOpError() << "the warp groups add up to " << getBlockDim()
                           << " threads; a CTA has at most 1024 (32 warps)";
    if (failed(verifyRegisterCounts()))
      return failure();
  }
  if ((*this)->getParentOfType<DeviceFunctionOp>())
    return emitOpError() << "device functions cannot nest; a device function "
                            "is launched from CPU code";
  return success();
}

int64_t DeviceFunctionOp::getEntryRegisters() {
  // What the launch bounds allow (maxntid x minnctapersm CTAs share an
  // SM's 65536 registers), at most 248 of the 255 in steps of 8; where
  // warp groups set their counts, ptxas starts every thread at the largest
  // count they set, if that is less ("Used N registers"; it refuses a
  // setmaxnreg.dec above it, error C7406).
  int64_t cap = std::min<int64_t>(
      248, (65536 / (getBlockDim() * getBlocksPerSm())) / 8 * 8);
  int64_t largest = 0;
  if (auto groups = getWarpGroups())
    for (auto g : groups->getAsRange<WarpGroupAttr>())
      if (g.getChange() != RegisterChange::none)
        largest = std::max(largest, g.getRegisters());
  return largest ? std::min(cap, largest) : cap;
}

/// setmaxnreg moves registers between the warps of a CTA: each group's new
/// count must move the way it says from the count every thread starts with
/// (the PTX ISA leaves a .dec that raises it, or an .inc that lowers it,
/// undefined), and the groups' counts must fit in what the CTA holds, or an
/// increase waits forever. Checked here, so that rake-check refuses what
/// code generation cannot lower.
LogicalResult DeviceFunctionOp::verifyRegisterCounts() {
  int64_t entry = getEntryRegisters();
  int64_t needed = 0;
  for (auto g : getWarpGroups()->getAsRange<WarpGroupAttr>()) {
    RegisterChange change = g.getChange();
    int64_t r = g.getRegisters();
    if ((change == RegisterChange::dec && r > entry) ||
        (change == RegisterChange::inc && r < entry))
      return emitOpError()
             << "warp group '" << g.getName().getValue() << "' "
             << (change == RegisterChange::dec ? "lowers" : "raises")
             << " its register count to " << r << ", but each thread starts "
             << "with " << entry << " (the largest count a group sets, at "
             << "most what a CTA of " << getBlockDim() << " threads at "
             << getBlocksPerSm() << " per SM may hold); setmaxnreg."
             << (change == RegisterChange::dec ? "dec" : "inc")
             << " cannot " << (change == RegisterChange::dec ? "raise" : "lower")
             << " it: give " << (change == RegisterChange::dec ? "dec" : "inc")
             << "(n) with n " << (change == RegisterChange::dec ? "<=" : ">=")
             << " " << entry;
    needed += g.getCount() * 32 * (change == RegisterChange::none ? entry : r);
  }
  if (needed > getBlockDim() * entry)
    return emitOpError()
           << "the warp groups' register counts need " << needed
           << " registers, but a CTA of " << getBlockDim() << " threads at "
           << getBlocksPerSm() << " per SM holds " << getBlockDim() * entry
           << " (" << entry << " a thread); setmaxnreg.inc would wait "
              "forever";
  return success();
}

// The body is checked once its ops have been verified themselves.
LogicalResult DeviceFunctionOp::verifyRegions() {
  Block &body = getBody().front();
  auto loop = dyn_cast_or_null<ForOp>(body.empty() ? nullptr : &body.front());
  bool startsWithTasks = loop && loop.getLoopMode() == LoopMode::cuda_tasks;
  if (!llvm::hasSingleElement(body) || !startsWithTasks)
    return emitOpError() << "the body of a device function is one nest of "
                            "cuda_tasks loops; found "
                         << body.getOperations().size() << " statement(s)"
                         << (body.empty() || startsWithTasks
                                 ? ""
                                 : ", the first of which is not a cuda_tasks "
                                   "loop");
  return success();
}

//===----------------------------------------------------------------------===//
// WarpsOp
//===----------------------------------------------------------------------===//

LogicalResult WarpsOp::verify() {
  auto device = (*this)->getParentOfType<DeviceFunctionOp>();
  if (!device)
    return emitOpError() << "selects warps of a device function and must be "
                            "inside one";
  auto found = device.lookupWarpGroup(getGroup());
  if (!found) {
    InFlightDiagnostic diag = emitOpError()
                              << "names warp group '" << getGroup()
                              << "', which the device function does not have";
    if (!device.getWarpGroups())
      diag << " (it declares block(n), no named warp groups)";
    else {
      diag << "; it has ";
      llvm::interleaveComma(
          device.getWarpGroups()->getAsRange<WarpGroupAttr>(), diag,
          [&](WarpGroupAttr g) { diag << "'" << g.getName().getValue() << "'"; });
    }
    return diag;
  }
  int64_t count = found->first.getCount();
  if (getLo().has_value() != getHi().has_value())
    return emitOpError() << "a warp range needs both bounds";
  if (getLo()) {
    int64_t lo = *getLo(), hi = *getHi();
    if (lo < 0 || hi > count || lo >= hi)
      return emitOpError() << "selects warps [" << lo << ", " << hi
                           << ") of group '" << getGroup() << "', which has "
                           << count << " warps; the range must be non-empty "
                           << "and within [0, " << count << ")";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// FusedOp
//===----------------------------------------------------------------------===//

/// Whether \p v is device memory (a buffer of the CPU's allocation that
/// kernels read or write: gmem).
static bool isDeviceMemory(Value v) {
  MemoryTypeAttrInterface mem = getMemoryType(v.getType());
  return mem && mem.isAllocatedOnHost() && mem.isDeviceVisible() &&
         !mem.isSyncExempt();
}

LogicalResult FusedOp::verify() {
  Operation *self = getOperation();
  auto refuse = [&](Operation *op) -> InFlightDiagnostic {
    InFlightDiagnostic d = op->emitOpError();
    d.attachNote(self->getLoc()) << "in this fused region";
    return d;
  };
  if (!self->getParentOfType<DeviceFunctionOp>())
    return emitOpError() << "marks code that a kernel runs and must be inside "
                            "a gpuir.device_function";
  WalkResult walk = getBody().walk([&](Operation *op) -> WalkResult {
    if (isa<FusedOp>(op))
      return refuse(op) << "is a fused region inside another fused region; "
                           "remove the inner gpuir.fused";
    if (isa<CallOp>(op))
      return refuse(op) << "calls a procedure inside a fused region, which "
                           "forbids calls; inline it (transform.gpuir.inline) first";
    if (isa<ArriveOp, AwaitOp>(op))
      return refuse(op)
             << "waits or signals a barrier inside a fused region (an await "
                "is a loop in the machine code, which a fused region "
                "forbids); move it before or after the gpuir.fused";
    if (auto loop = dyn_cast<ForOp>(op)) {
      if (loop.getLoopMode() == LoopMode::cuda_tasks)
        return refuse(op) << "is a cuda_tasks loop inside a fused region; "
                             "a fused region is part of one task";
      if (!loop.getConstantLowerBound() || !loop.getConstantUpperBound())
        return refuse(op)
               << "has a bound that is not a constant inside a fused region "
                  "(code generation unrolls a fused region's loops, so that "
                  "its machine code has none); give the loop constant "
                  "bounds or move it out of the gpuir.fused";
    }
    if (isa<WindowOp>(op))
      return WalkResult::advance();
    for (Value v : op->getOperands())
      if (isDeviceMemory(v))
        return refuse(op)
               << "accesses device memory inside a fused region, whose "
                  "values stay in registers and shared memory; read the "
                  "region's inputs before the gpuir.fused and write its "
                  "outputs after it";
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// AllocOp, FreeOp
//===----------------------------------------------------------------------===//

LogicalResult AllocOp::verify() {
  Type type = getResult().getType();
  DeviceScope scope = getDeviceScope(*this);
  if (auto barrier = dyn_cast<BarrierType>(type)) {
    if (!getDynamicSizes().empty())
      return emitOpError() << "barrier arrays have static shapes";
    if (scope == DeviceScope::CPU)
      return emitOpError() << "allocates a barrier at CPU scope; barriers are "
                              "allocated inside a device function";
    return success();
  }
  auto memref = cast<MemRefType>(type);
  if (failed(verifyMemorySpace(*this, memref, "the buffer")))
    return failure();
  MemoryTypeAttrInterface mem = getMemoryType(memref);
  if (!memref.getLayout().isIdentity())
    return emitOpError() << "allocates a buffer with a non-identity layout; "
                            "the memory type decides the layout, so allocate "
                            "it row-major and take windows of it";
  if (memref.getNumDynamicDims() != getDynamicSizes().size())
    return emitOpError() << "the type has " << memref.getNumDynamicDims()
                         << " dynamic sizes but " << getDynamicSizes().size()
                         << " size operands are given";
  if (memref.getNumDynamicDims() && !mem.allowsDynamicShape())
    return emitOpError() << mem.getMemoryName()
                         << " buffers need static sizes; only host and "
                            "global memory have sizes known at run time";
  if (scope == DeviceScope::CPU && !mem.isAllocatedOnHost())
    return emitOpError() << "allocates " << mem.getMemoryName()
                         << " memory at CPU scope; it is allocated inside a "
                            "device function";
  if (scope == DeviceScope::CUDA && mem.isAllocatedOnHost())
    return emitOpError() << "allocates " << mem.getMemoryName()
                         << " memory inside a device function; allocate it "
                            "on the CPU and pass it in";
  if (mem.isSharedMemory()) {
    // The static size in bytes, or overflow.
    Type elt = memref.getElementType();
    int64_t bits = 8;
    if (auto vec = dyn_cast<VectorType>(elt);
        vec && vec.getElementType().isIntOrFloat())
      bits = vec.getNumElements() * vec.getElementType().getIntOrFloatBitWidth();
    else if (elt.isIntOrFloat())
      bits = elt.getIntOrFloatBitWidth();
    int64_t bytes = std::max<int64_t>(1, bits / 8);
    bool overflow = false;
    ArrayRef<int64_t> shape = memref.getShape();
    // A buffer of a cluster's device function whose leading dimension is
    // the cluster's size may be shared out over its CTAs (one part each):
    // the part must fit a CTA (code generation checks the layout of what
    // each CTA holds).
    auto device = getOperation()->getParentOfType<DeviceFunctionOp>();
    int64_t cluster = device ? device.getCluster() : 1;
    if (cluster > 1 && !shape.empty() && shape.front() == cluster)
      shape = shape.drop_front();
    for (int64_t d : shape)
      overflow |= llvm::MulOverflow(bytes, d, bytes);
    if (overflow || bytes > kMaxSharedBytesPerCta)
      return emitOpError()
             << "allocates "
             << (overflow ? std::string("more than 2^63")
                          : std::to_string(bytes))
             << " bytes of shared memory; a CTA has at most "
             << kMaxSharedBytesPerCta
             << " (227 KiB on sm_90a): tile the buffer or keep it in "
                "#gpuir.gmem";
  }
  return success();
}

LogicalResult FreeOp::verify() {
  if (!getBuffer().getDefiningOp<AllocOp>())
    return emitOpError() << "frees a value that no gpuir.alloc made; only "
                            "allocated buffers and barriers are freed";
  return success();
}

//===----------------------------------------------------------------------===//
// Read, write, reduce
//===----------------------------------------------------------------------===//

static LogicalResult verifyAccess(Operation *op, Value value, Value memref,
                                  ValueRange indices, AffineMap map) {
  auto type = cast<MemRefType>(memref.getType());
  if (failed(verifyMemorySpace(op, type, "the buffer")))
    return failure();
  if (map.getNumDims() != indices.size())
    return op->emitOpError() << "index map and operands disagree";
  if (map.getNumResults() != static_cast<unsigned>(type.getRank()))
    return op->emitOpError() << "gives " << map.getNumResults()
                             << " indices for a buffer of rank "
                             << type.getRank();
  if (value && value.getType() != type.getElementType())
    return op->emitOpError() << "value of type " << value.getType()
                             << " does not match the element type "
                             << type.getElementType();
  for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
    auto c = dyn_cast<AffineConstantExpr>(expr);
    if (c && !type.isDynamicDim(dim) &&
        (c.getValue() < 0 || c.getValue() >= type.getDimSize(dim)))
      return op->emitOpError() << "index " << c.getValue() << " of dimension "
                               << dim << " is out of bounds [0, "
                               << type.getDimSize(dim) << ")";
  }
  return verifyAccessScope(op, type);
}

LogicalResult ReadOp::verify() {
  if (getValue().getType() !=
      cast<MemRefType>(getMemref().getType()).getElementType())
    return emitOpError() << "result type does not match the element type";
  return verifyAccess(*this, nullptr, getMemref(), getIndices(), getMap());
}

LogicalResult WriteOp::verify() {
  if (failed(verifyWritable(*this, getMemref().getType(), "its buffer")))
    return failure();
  return verifyAccess(*this, getValue(), getMemref(), getIndices(), getMap());
}

LogicalResult ReduceOp::verify() {
  if (!getValue().getType().isIntOrFloat())
    return emitOpError() << "reduces values of type " << getValue().getType()
                         << "; only integer and float values are added";
  if (failed(verifyWritable(*this, getMemref().getType(), "its buffer")))
    return failure();
  return verifyAccess(*this, getValue(), getMemref(), getIndices(), getMap());
}

//===----------------------------------------------------------------------===//
// Window
//===----------------------------------------------------------------------===//

/// Checks the coordinates of a window: one per source dimension, each
/// interval's extent, and returns the extents of the kept dimensions
/// (ShapedType::kDynamic where not constant).
static LogicalResult verifyWindowCoords(Operation *op, MemRefType source,
                                        ValueRange indices, AffineMap map,
                                        ArrayRef<bool> intervals,
                                        SmallVectorImpl<int64_t> &extents) {
  if (map.getNumDims() != indices.size())
    return op->emitOpError() << "window map and operands disagree";
  unsigned expected = intervals.size() + llvm::count(intervals, true);
  if (map.getNumResults() != expected)
    return op->emitOpError() << "window map has " << map.getNumResults()
                             << " expressions, expected " << expected;
  if (intervals.size() != static_cast<size_t>(source.getRank()))
    return op->emitOpError() << "gives " << intervals.size()
                             << " coordinates for a buffer of rank "
                             << source.getRank();
  unsigned r = 0;
  for (auto [dim, isInterval] : llvm::enumerate(intervals)) {
    AffineExpr lo = map.getResult(r++);
    if (!isInterval)
      continue;
    AffineExpr hi = map.getResult(r++);
    AffineExpr extent =
        simplifyAffineExpr(hi - lo, map.getNumDims(), map.getNumSymbols());
    auto c = dyn_cast<AffineConstantExpr>(extent);
    if (!c) {
      extents.push_back(ShapedType::kDynamic);
      continue;
    }
    if (c.getValue() <= 0)
      return op->emitOpError() << "interval of dimension " << dim
                               << " has extent " << c.getValue()
                               << "; intervals are lo : hi with hi > lo";
    if (!source.isDynamicDim(dim) && c.getValue() > source.getDimSize(dim))
      return op->emitOpError() << "interval of dimension " << dim
                               << " has extent " << c.getValue()
                               << ", larger than the dimension's size "
                               << source.getDimSize(dim);
    extents.push_back(c.getValue());
  }
  return success();
}

LogicalResult WindowOp::verify() {
  auto source = cast<MemRefType>(getSource().getType());
  auto result = cast<MemRefType>(getResult().getType());
  if (failed(verifyMemorySpace(*this, source, "the source")))
    return failure();
  SmallVector<int64_t> extents;
  if (failed(verifyWindowCoords(*this, source, getIndices(), getMap(),
                                getIntervals(), extents)))
    return failure();
  if (result.getElementType() != source.getElementType() ||
      result.getMemorySpace() != source.getMemorySpace())
    return emitOpError() << "a window keeps its source's element type and "
                            "memory type; expected a memref of "
                         << source.getElementType() << " in "
                         << source.getMemorySpace();
  if (extents.size() != static_cast<size_t>(result.getRank()))
    return emitOpError() << "the window has " << extents.size()
                         << " intervals, so its type must have rank "
                         << extents.size() << ", not " << result.getRank();
  for (auto [i, e] : llvm::enumerate(extents))
    if (result.getDimSize(i) != e)
      return emitOpError() << "dimension " << i << " of the window has "
                           << (ShapedType::isDynamic(e)
                                   ? std::string("a size known at run time")
                                   : "size " + std::to_string(e))
                           << " but the result type says "
                           << (result.isDynamicDim(i)
                                   ? std::string("?")
                                   : std::to_string(result.getDimSize(i)));
  // The result's strides are those of the source's interval dimensions.
  SmallVector<int64_t> sourceStrides, resultStrides;
  int64_t sourceOffset, resultOffset;
  if (succeeded(source.getStridesAndOffset(sourceStrides, sourceOffset)) &&
      succeeded(result.getStridesAndOffset(resultStrides, resultOffset))) {
    SmallVector<int64_t> expected;
    for (auto [d, isInterval] : llvm::enumerate(getIntervals()))
      if (isInterval)
        expected.push_back(sourceStrides[d]);
    auto show = [](ArrayRef<int64_t> strides) {
      std::string text = "[";
      for (auto [i, st] : llvm::enumerate(strides))
        text += (i ? ", " : "") + (ShapedType::isDynamic(st)
                                       ? std::string("?")
                                       : std::to_string(st));
      return text + "]";
    };
    for (auto [e, r] : llvm::zip(expected, resultStrides))
      if (!ShapedType::isDynamic(e) && !ShapedType::isDynamic(r) && e != r)
        return emitOpError() << "the window's strides are " << show(expected)
                             << " but the result type says "
                             << show(resultStrides);
    // A static offset in the result type is what the lowering addresses
    // through: it must be the window's own (the source's offset plus the
    // starts times the strides), known at compile time.
    if (!ShapedType::isDynamic(resultOffset)) {
      std::optional<int64_t> own;
      if (!ShapedType::isDynamic(sourceOffset)) {
        own = sourceOffset;
        AffineMap m = getMap();
        unsigned r = 0;
        for (auto [d, isInterval] : llvm::enumerate(getIntervals())) {
          auto lo = dyn_cast<AffineConstantExpr>(m.getResult(r++));
          if (isInterval)
            ++r;
          if (!lo || ShapedType::isDynamic(sourceStrides[d])) {
            own.reset();
            break;
          }
          *own += lo.getValue() * sourceStrides[d];
        }
      }
      if (!own || *own != resultOffset)
        return emitOpError()
               << "the window starts at element offset "
               << (own ? std::to_string(*own)
                       : std::string("known only at run time"))
               << " of its buffer but the result type says offset: "
               << resultOffset << "; write offset: ? (or the window's own)";
    }
  }
  return success();
}
