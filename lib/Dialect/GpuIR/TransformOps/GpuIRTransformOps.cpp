//===- GpuIRTransformOps.cpp - the transform.gpuir ops --------------------===//
//
// Thin wrappers: each op finds its payload, calls the rewrite of
// Rewrites.h, and turns a refusal into a silenceable failure located at the
// payload, with the rewrite's notes and one at the transform op.
//
//===----------------------------------------------------------------------===//

#include "Rake/Dialect/GpuIR/TransformOps/GpuIRTransformOps.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"
#include "Rake/Dialect/GpuIR/TransformOps/Rewrites.h"
#include "RewriteUtils.h"
#include "TransformOpUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;
using namespace mlir::transform;
using namespace mlir::rake::gpuir::detail;

DiagnosedSilenceableFailure
mlir::rake::gpuir::detail::refused(Operation *transformOp, const Refusal &why) {
  DiagnosedSilenceableFailure diag = emitSilenceableFailure(why.loc)
                                     << why.message;
  for (const auto &[loc, text] : why.notes)
    diag.attachNote(loc) << text;
  diag.attachNote(transformOp->getLoc()) << "refused by this transform";
  return diag;
}

DiagnosedSilenceableFailure
mlir::rake::gpuir::detail::notALoop(Operation *transformOp, Operation *target) {
  Refusal why(target->getLoc());
  (void)why.refuse(target->getLoc(),
                   "'" + transformOp->getName().getStringRef() +
                       "' applies to gpuir.for loops, not to '" +
                       target->getName().getStringRef() + "'");
  return refused(transformOp, why);
}

//===----------------------------------------------------------------------===//
// The loop mode keyword: seq, cuda_tasks, cuda_threads<unit>
//===----------------------------------------------------------------------===//

static ParseResult parseLoopModeKeyword(OpAsmParser &parser,
                                        LoopModeAttr &mode,
                                        CollUnitAttr &unit) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseKeyword(&name))
    return failure();
  std::optional<LoopMode> m = symbolizeLoopMode(name);
  if (!m)
    return parser.emitError(loc, "unknown loop mode '")
           << name << "'; expected seq, cuda_tasks or cuda_threads<unit>";
  mode = LoopModeAttr::get(parser.getContext(), *m);
  if (*m == LoopMode::cuda_threads)
    return failure(parser.parseLess() || parser.parseAttribute(unit) ||
                   parser.parseGreater());
  return success();
}

static void printLoopModeKeyword(OpAsmPrinter &p, Operation *,
                                 LoopModeAttr mode, CollUnitAttr unit) {
  p << stringifyLoopMode(mode.getValue());
  if (unit) {
    p << "<";
    p.printAttribute(unit);
    p << ">";
  }
}

/// A string attribute written as a bare keyword: `tail(guard)`.
static ParseResult parseKeyword(OpAsmParser &parser, StringAttr &attr) {
  StringRef word;
  if (parser.parseKeyword(&word))
    return failure();
  attr = parser.getBuilder().getStringAttr(word);
  return success();
}

static void printKeyword(OpAsmPrinter &p, Operation *, StringAttr attr) {
  p << attr.getValue();
}

/// A list of names: `names("io", "ii")`.
static ParseResult parseNameList(OpAsmParser &parser, ArrayAttr &attr) {
  SmallVector<Attribute> names;
  if (parser.parseCommaSeparatedList([&]() -> ParseResult {
        std::string name;
        if (parser.parseString(&name))
          return failure();
        names.push_back(parser.getBuilder().getStringAttr(name));
        return success();
      }))
    return failure();
  attr = parser.getBuilder().getArrayAttr(names);
  return success();
}

static void printNameList(OpAsmPrinter &p, Operation *, ArrayAttr attr) {
  llvm::interleaveComma(attr, p, [&](Attribute a) {
    p << '"' << cast<StringAttr>(a).getValue() << '"';
  });
}

/// `after` (default) or `before`.
static ParseResult parsePlacement(OpAsmParser &parser, UnitAttr &before) {
  if (succeeded(parser.parseOptionalKeyword("before"))) {
    before = parser.getBuilder().getUnitAttr();
    return success();
  }
  return parser.parseKeyword("after");
}

static void printPlacement(OpAsmPrinter &p, Operation *, UnitAttr before) {
  p << (before ? "before" : "after");
}

/// A sync timeline written as its keyword: `cuda_in_order`.
static ParseResult parseSyncKeyword(OpAsmParser &parser,
                                    SyncTimelineAttr &attr) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef word;
  if (parser.parseKeyword(&word))
    return failure();
  std::optional<SyncTimeline> t = symbolizeSyncTimeline(word);
  if (!t)
    return parser.emitError(loc, "unknown sync timeline '") << word << "'";
  attr = SyncTimelineAttr::get(parser.getContext(), *t);
  return success();
}

static void printSyncKeyword(OpAsmPrinter &p, Operation *,
                             SyncTimelineAttr attr) {
  p << stringifySyncTimeline(attr.getValue());
}

//===----------------------------------------------------------------------===//
// loop
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
transform::GpuIRLoopOp::apply(TransformRewriter &rewriter,
                         TransformResults &results, TransformState &state) {
  SmallVector<Operation *> found;
  llvm::SetVector<StringRef> names;
  for (Operation *root : state.getPayloadOps(getTarget()))
    root->walk([&](ForOp loop) {
      if (std::optional<StringRef> n = loop.getIvName()) {
        names.insert(*n);
        if (*n == getName())
          found.push_back(loop);
      }
    });
  if (getOccurrence()) {
    int64_t k = *getOccurrence();
    if (k < 0 || k >= static_cast<int64_t>(found.size()))
      return emitSilenceableError()
             << "there are " << found.size() << " loops over %" << getName()
             << "; occurrence " << k << " does not exist";
    found = {found[k]};
  }
  if (found.empty()) {
    DiagnosedSilenceableFailure diag = emitSilenceableError()
                                       << "no loop over %" << getName();
    std::string list;
    for (StringRef n : names)
      list += (list.empty() ? "%" : ", %") + n.str();
    diag.attachNote() << "the loops are over " << (list.empty() ? "nothing" : list);
    return diag;
  }
  results.set(cast<OpResult>(getLoops()), found);
  return DiagnosedSilenceableFailure::success();
}

void transform::GpuIRLoopOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  onlyReadsPayload(effects);
}

//===----------------------------------------------------------------------===//
// divide_loop
//===----------------------------------------------------------------------===//

LogicalResult transform::GpuIRDivideLoopOp::verify() {
  if (!symbolizeTailStrategy(getTail()))
    return emitOpError() << "unknown tail strategy '" << getTail()
                         << "'; expected perfect, guard or cut";
  if (getNames() && getNames()->size() != 2)
    return emitOpError() << "names the outer and the inner loop: two names";
  return success();
}

DiagnosedSilenceableFailure transform::GpuIRDivideLoopOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  auto loop = dyn_cast<ForOp>(target);
  if (!loop)
    return notALoop(*this, target);
  StringRef outerName, innerName;
  if (ArrayAttr names = getNamesAttr()) {
    outerName = cast<StringAttr>(names[0]).getValue();
    innerName = cast<StringAttr>(names[1]).getValue();
  }
  Refusal why(loop.getLoc());
  FailureOr<std::pair<ForOp, ForOp>> loops =
      divideLoop(rewriter, loop, getFactor(), *symbolizeTailStrategy(getTail()),
                 outerName, innerName, why);
  if (failed(loops))
    return refused(*this, why);
  results.push_back(loops->first);
  results.push_back(loops->second);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// reorder_loops, reorder_stmts, fission, unroll
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure transform::GpuIRReorderLoopsOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  auto loop = dyn_cast<ForOp>(target);
  if (!loop)
    return notALoop(*this, target);
  Refusal why(loop.getLoc());
  FailureOr<std::pair<ForOp, ForOp>> loops = reorderLoops(rewriter, loop, why);
  if (failed(loops))
    return refused(*this, why);
  results.push_back(loops->first);
  results.push_back(loops->second);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure transform::GpuIRReorderStmtsOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  Refusal why(target->getLoc());
  if (failed(reorderStmts(rewriter, target, why)))
    return refused(*this, why);
  return DiagnosedSilenceableFailure::success();
}

void transform::GpuIRReorderStmtsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}

DiagnosedSilenceableFailure transform::GpuIRFissionOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  Refusal why(target->getLoc());
  FailureOr<std::pair<ForOp, ForOp>> loops =
      fissionAfter(rewriter, target, why);
  if (failed(loops))
    return refused(*this, why);
  results.push_back(loops->first);
  results.push_back(loops->second);
  return DiagnosedSilenceableFailure::success();
}

void transform::GpuIRFissionOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

DiagnosedSilenceableFailure transform::GpuIRUnrollOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  auto loop = dyn_cast<ForOp>(target);
  if (!loop)
    return notALoop(*this, target);
  Refusal why(loop.getLoc());
  if (failed(unrollLoop(rewriter, loop, why)))
    return refused(*this, why);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// set_loop_mode, simplify
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure transform::GpuIRSetLoopModeOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  auto loop = dyn_cast<ForOp>(target);
  if (!loop)
    return notALoop(*this, target);
  Refusal why(loop.getLoc());
  if (failed(setLoopMode(rewriter, loop, getMode(), getUnitAttr(), why)))
    return refused(*this, why);
  return DiagnosedSilenceableFailure::success();
}

void transform::GpuIRSetLoopModeOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}

DiagnosedSilenceableFailure transform::GpuIRSimplifyOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  simplifyControlExprs(rewriter, target);
  return DiagnosedSilenceableFailure::success();
}

void transform::GpuIRSimplifyOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}

//===----------------------------------------------------------------------===//
// lift_scope, wrap_device_function, set_memory, insert_fence, stage_mem
//===----------------------------------------------------------------------===//

/// A rewrite that keeps its target (and what is in it) and may return new
/// handles.
void mlir::rake::gpuir::detail::readsTargetModifiesPayload(
    Operation *op, MutableArrayRef<OpOperand> target,
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(target, effects);
  producesHandle(op->getOpResults(), effects);
  modifiesPayload(effects);
}

void transform::GpuIRDivideLoopOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  readsTargetModifiesPayload(*this, getTargetMutable(), effects);
}

void transform::GpuIRReorderLoopsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  readsTargetModifiesPayload(*this, getTargetMutable(), effects);
}

void transform::GpuIRLiftScopeOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  readsTargetModifiesPayload(*this, getTargetMutable(), effects);
}

void transform::GpuIRInsertFenceOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  readsTargetModifiesPayload(*this, getTargetMutable(), effects);
}

DiagnosedSilenceableFailure transform::GpuIRLiftScopeOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  Refusal why(target->getLoc());
  FailureOr<Operation *> outer = liftScope(rewriter, target, why);
  if (failed(outer))
    return refused(*this, why);
  results.push_back(*outer);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure transform::GpuIRWrapDeviceFunctionOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  Refusal why(target->getLoc());
  SmallVector<std::pair<std::string, int64_t>> groups;
  if (getGroups()) {
    ArrayRef<int64_t> counts = getWarps() ? *getWarps() : ArrayRef<int64_t>();
    if (counts.size() != getGroups()->size()) {
      (void)why.refuse(target->getLoc(), "wrap_device_function needs one warp "
                                         "count per group");
      return refused(*this, why);
    }
    for (auto [name, count] : llvm::zip(*getGroups(), counts))
      groups.push_back({cast<StringAttr>(name).str(), count});
  }
  if (getBlock().has_value() == !groups.empty()) {
    (void)why.refuse(target->getLoc(), "wrap_device_function takes block(n) "
                                       "or named warp groups, one of them");
    return refused(*this, why);
  }
  FailureOr<DeviceFunctionOp> fn =
      wrapDeviceFunction(rewriter, target, getBlock() ? *getBlock() : 0,
                         getBlocksPerSm(), getCluster(), why, groups,
                         getSetmaxnreg() ? *getSetmaxnreg()
                                         : ArrayRef<int64_t>());
  if (failed(fn))
    return refused(*this, why);
  results.push_back(*fn);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure transform::GpuIRWrapWarpsOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  Refusal why(target->getLoc());
  std::optional<std::pair<int64_t, int64_t>> range;
  if (getRange()) {
    if (getRange()->size() != 2) {
      (void)why.refuse(target->getLoc(), "a warp range is [lo, hi]");
      return refused(*this, why);
    }
    range = std::make_pair((*getRange())[0], (*getRange())[1]);
  }
  FailureOr<WarpsOp> warps = wrapWarps(rewriter, target, getGroup(), range, why);
  if (failed(warps))
    return refused(*this, why);
  results.push_back(*warps);
  return DiagnosedSilenceableFailure::success();
}

void transform::GpuIRWrapWarpsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  readsTargetModifiesPayload(*this, getTargetMutable(), effects);
}

void transform::GpuIRWrapDeviceFunctionOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

DiagnosedSilenceableFailure transform::GpuIRSetMemoryOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  Refusal why(target->getLoc());
  Value buffer;
  if (std::optional<StringRef> name = getName()) {
    Operation *at = target;
    if (auto proc = dyn_cast<ProcOp>(target))
      at = proc.getBody().front().empty() ? target
                                          : &proc.getBody().front().front();
    buffer = lookupBuffer(at, *name);
    if (!buffer && isa<ProcOp>(target))
      for (BlockArgument arg : cast<ProcOp>(target).getBody().getArguments())
        if (controlName(arg) == *name && isa<MemRefType>(arg.getType()))
          buffer = arg;
    if (!buffer) {
      (void)why.refuse(target->getLoc(),
                       "no buffer named '" + *name + "' here");
      return refused(*this, why);
    }
  } else if (auto alloc = dyn_cast<AllocOp>(target)) {
    buffer = alloc.getResult();
  } else {
    (void)why.refuse(target->getLoc(),
                     "set_memory needs the name of a buffer, or a "
                     "gpuir.alloc as its target");
    return refused(*this, why);
  }
  if (failed(setMemory(rewriter, buffer, getMemory(), why)))
    return refused(*this, why);
  return DiagnosedSilenceableFailure::success();
}

void transform::GpuIRSetMemoryOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}

DiagnosedSilenceableFailure transform::GpuIRInsertFenceOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  Refusal why(target->getLoc());
  FailureOr<FenceOp> fence =
      insertFence(rewriter, target, !getBefore(), getPre(), getPost(), why);
  if (failed(fence))
    return refused(*this, why);
  results.push_back(*fence);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure
transform::GpuIRStageMemOp::apply(TransformRewriter &rewriter,
                                  TransformResults &results,
                                  TransformState &state) {
  SmallVector<Operation *> allocs, copies;
  auto targets = llvm::to_vector(state.getPayloadOps(getTarget()));
  SmallVector<Operation *> lasts;
  if (getLast()) {
    lasts = llvm::to_vector(state.getPayloadOps(getLast()));
    if (lasts.size() != targets.size())
      return emitSilenceableError()
             << "stage_mem's target and `through` handles must name as many "
                "statements";
  }
  for (auto [k, target] : llvm::enumerate(targets)) {
    Refusal why(target->getLoc());
    Value buffer = lookupBuffer(target, getName());
    if (!buffer) {
      (void)why.refuse(target->getLoc(), "no buffer named '" + getName() +
                                             "' is visible at this statement");
      return refused(*this, why);
    }
    ArrayRef<int64_t> padding;
    if (getPadding())
      padding = *getPadding();
    FailureOr<StagedBuffer> staged =
        stageMem(rewriter, target, lasts.empty() ? target : lasts[k], buffer,
                 getShape(), padding, getMemory(), getStaged(), why);
    if (failed(staged))
      return refused(*this, why);
    allocs.push_back(staged->alloc);
    if (staged->copyIn)
      copies.push_back(staged->copyIn);
  }
  results.set(cast<OpResult>(getAlloc()), allocs);
  results.set(cast<OpResult>(getCopyIn()), copies);
  return DiagnosedSilenceableFailure::success();
}

void transform::GpuIRStageMemOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  onlyReadsHandle(getLastMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

DiagnosedSilenceableFailure transform::GpuIRReplaceOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  Refusal why(target->getLoc());
  auto nest = dyn_cast<ForOp>(target);
  if (!nest)
    return notALoop(*this, target);
  SmallVector<Value> buffers;
  for (Attribute a : getBuffers()) {
    StringRef name = cast<StringAttr>(a).getValue();
    Value b = lookupBuffer(target, name);
    if (!b) {
      (void)why.refuse(target->getLoc(), "no buffer named '" + name +
                                             "' is visible at this nest");
      return refused(*this, why);
    }
    buffers.push_back(b);
  }
  Value barrier;
  SmallVector<Value> barrierOps;
  AffineMap coords;
  if (getBarrier()) {
    if (failed(syncOperands(target, *getBarrier(), getCoords(), getLoops(),
                            barrier, barrierOps, why)))
      return refused(*this, why);
    coords = getCoords() ? *getCoords() : AffineMap::get(0, 0, {}, getContext());
  }
  FailureOr<Operation *> instr = replaceWithInstruction(
      rewriter, nest, getInstr(), buffers,
      getAttrs() ? *getAttrs() : DictionaryAttr(), why, barrier, barrierOps,
      coords);
  if (failed(instr))
    return refused(*this, why);
  results.push_back(*instr);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// Buffers' layouts
//===----------------------------------------------------------------------===//

/// The buffer an alloc handle's payload op allocates.
static FailureOr<AllocOp> allocOf(Operation *transformOp, Operation *target,
                                  DiagnosedSilenceableFailure &diag) {
  auto alloc = dyn_cast<AllocOp>(target);
  if (!alloc) {
    Refusal why(target->getLoc());
    (void)why.refuse(target->getLoc(),
                     "'" + transformOp->getName().getStringRef() +
                         "' applies to gpuir.alloc, not to '" +
                         target->getName().getStringRef() + "'");
    diag = refused(transformOp, why);
    return failure();
  }
  return alloc;
}

/// Runs a rewrite of the buffer a gpuir.alloc target allocates; a refusal
/// becomes the transform's silenceable failure.
static DiagnosedSilenceableFailure
onAlloc(Operation *transformOp, Operation *target,
        function_ref<LogicalResult(AllocOp, Refusal &)> rewrite) {
  DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
  FailureOr<AllocOp> alloc = allocOf(transformOp, target, diag);
  if (failed(alloc))
    return diag;
  Refusal why(target->getLoc());
  if (failed(rewrite(*alloc, why)))
    return refused(transformOp, why);
  return DiagnosedSilenceableFailure::success();
}

#define RAKE_IN_PLACE_EFFECTS(OP)                                              \
  void transform::OP::getEffects(                                              \
      SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {               \
    readsTargetModifiesPayload(*this, getTargetMutable(), effects);            \
  }
RAKE_IN_PLACE_EFFECTS(GpuIRDivideDimOp)
RAKE_IN_PLACE_EFFECTS(GpuIRMultDimOp)
RAKE_IN_PLACE_EFFECTS(GpuIRRearrangeDimOp)
RAKE_IN_PLACE_EFFECTS(GpuIRExpandDimOp)
RAKE_IN_PLACE_EFFECTS(GpuIRLiftAllocOp)
RAKE_IN_PLACE_EFFECTS(GpuIRCutLoopOp)
RAKE_IN_PLACE_EFFECTS(GpuIRFuseOp)
RAKE_IN_PLACE_EFFECTS(GpuIRMultLoopsOp)
RAKE_IN_PLACE_EFFECTS(GpuIRAddLoopOp)
RAKE_IN_PLACE_EFFECTS(GpuIRAddIfOp)
RAKE_IN_PLACE_EFFECTS(GpuIRBindExprOp)
RAKE_IN_PLACE_EFFECTS(GpuIRRingOp)
#undef RAKE_IN_PLACE_EFFECTS

DiagnosedSilenceableFailure transform::GpuIRDivideDimOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  return onAlloc(*this, target, [&](AllocOp alloc, Refusal &why) {
    return divideDim(rewriter, alloc.getResult(), getDim(), getFactor(), why);
  });
}

DiagnosedSilenceableFailure transform::GpuIRMultDimOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  return onAlloc(*this, target, [&](AllocOp alloc, Refusal &why) {
    return multDims(rewriter, alloc.getResult(), getDim(), why);
  });
}

DiagnosedSilenceableFailure transform::GpuIRRearrangeDimOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  return onAlloc(*this, target, [&](AllocOp alloc, Refusal &why) {
    return rearrangeDims(rewriter, alloc.getResult(), getPerm(), why);
  });
}

DiagnosedSilenceableFailure transform::GpuIRExpandDimOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
  FailureOr<AllocOp> alloc = allocOf(*this, target, diag);
  if (failed(alloc))
    return diag;
  Refusal why(target->getLoc());
  AffineMap index = getIndex();
  if (index.getNumResults() != 1 || index.getNumSymbols() ||
      index.getNumDims() != getLoops().size()) {
    (void)why.refuse(target->getLoc(),
                     "expand_dim's index is one expression over the named "
                     "loops' variables");
    return refused(*this, why);
  }
  if (nonPositiveDivisor(index.getResult(0))) {
    (void)why.refuse(target->getLoc(),
                     "expand_dim's index is a control expression: floordiv, "
                     "ceildiv and mod take a positive constant");
    return refused(*this, why);
  }
  // The named loops: around the buffer's uses (the first found).
  SmallVector<Value> operands;
  for (Attribute a : getLoops()) {
    StringRef name = cast<StringAttr>(a).getValue();
    Value iv;
    for (Operation *use : alloc->getResult().getUsers())
      for (Operation *p = use->getParentOp(); p && !iv; p = p->getParentOp())
        if (auto loop = dyn_cast<ForOp>(p))
          if (loop.getIvName() && *loop.getIvName() == name)
            iv = loop.getInductionVar();
    if (!iv) {
      (void)why.refuse(target->getLoc(), "no loop over %" + name +
                                             " around the buffer's uses");
      return refused(*this, why);
    }
    operands.push_back(iv);
  }
  if (failed(expandDim(rewriter, alloc->getResult(), getSize(),
                       index.getResult(0), operands, why)))
    return refused(*this, why);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure transform::GpuIRLiftAllocOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  return onAlloc(*this, target, [&](AllocOp alloc, Refusal &why) {
    return liftAlloc(rewriter, alloc, why);
  });
}

DiagnosedSilenceableFailure transform::GpuIRInlineWindowOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  Refusal why(target->getLoc());
  auto window = dyn_cast<WindowOp>(target);
  if (!window) {
    (void)why.refuse(target->getLoc(), "inline_window applies to gpuir.window");
    return refused(*this, why);
  }
  if (failed(inlineWindow(rewriter, window, why)))
    return refused(*this, why);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure transform::GpuIRInlineOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  Refusal why(target->getLoc());
  auto call = dyn_cast<CallOp>(target);
  if (!call) {
    (void)why.refuse(target->getLoc(), "inline applies to gpuir.call, not to '" +
                                           target->getName().getStringRef() +
                                           "'");
    return refused(*this, why);
  }
  if (failed(inlineCall(rewriter, call, why)))
    return refused(*this, why);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure transform::GpuIRCutLoopOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  auto loop = dyn_cast<ForOp>(target);
  if (!loop)
    return notALoop(*this, target);
  Refusal why(target->getLoc());
  FailureOr<std::pair<ForOp, ForOp>> loops = cutLoop(rewriter, loop, getAt(), why);
  if (failed(loops))
    return refused(*this, why);
  results.push_back(loops->first);
  results.push_back(loops->second);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure transform::GpuIRFuseOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  auto loop = dyn_cast<ForOp>(target);
  if (!loop)
    return notALoop(*this, target);
  Refusal why(target->getLoc());
  FailureOr<ForOp> fused = fuseLoops(rewriter, loop, why);
  if (failed(fused))
    return refused(*this, why);
  results.push_back(*fused);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure transform::GpuIRMultLoopsOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  auto loop = dyn_cast<ForOp>(target);
  if (!loop)
    return notALoop(*this, target);
  Refusal why(target->getLoc());
  FailureOr<ForOp> merged =
      multLoops(rewriter, loop, getName() ? *getName() : StringRef(), why);
  if (failed(merged))
    return refused(*this, why);
  results.push_back(*merged);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure transform::GpuIRAddLoopOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  Refusal why(target->getLoc());
  FailureOr<ForOp> loop = addLoop(rewriter, target, getSize(), getName(), why);
  if (failed(loop))
    return refused(*this, why);
  results.push_back(*loop);
  return DiagnosedSilenceableFailure::success();
}

/// The control value named `name` at `stmt`: the variable of a loop around
/// it, or an index parameter of its procedure.
static Value namedControlValue(Operation *stmt, StringRef name) {
  for (Operation *p = stmt->getParentOp(); p; p = p->getParentOp()) {
    if (auto loop = dyn_cast<ForOp>(p))
      if (loop.getIvName() && *loop.getIvName() == name)
        return loop.getInductionVar();
    if (auto proc = dyn_cast<ProcOp>(p)) {
      for (BlockArgument arg : proc.getBody().getArguments())
        if (arg.getType().isIndex() && controlName(arg) == name)
          return arg;
      return nullptr;
    }
  }
  return nullptr;
}

DiagnosedSilenceableFailure transform::GpuIRAddIfOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  Refusal why(target->getLoc());
  SmallVector<Value> operands;
  for (Attribute a : getNames()) {
    StringRef name = cast<StringAttr>(a).getValue();
    Value v = namedControlValue(target, name);
    if (!v) {
      (void)why.refuse(target->getLoc(),
                       "no loop over %" + name + " around this statement "
                       "and no index parameter %" + name);
      return refused(*this, why);
    }
    operands.push_back(v);
  }
  FailureOr<IfOp> cond = addIf(rewriter, target, getCondition(), operands,
                               getSpecialize(), why);
  if (failed(cond))
    return refused(*this, why);
  results.push_back(*cond);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure transform::GpuIRBindExprOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  Refusal why(target->getLoc());
  FailureOr<AllocOp> alloc = bindExpr(rewriter, target, getName(),
                                      getMemory() ? *getMemory() : Attribute(),
                                      why);
  if (failed(alloc))
    return refused(*this, why);
  results.push_back(*alloc);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure transform::GpuIRRingOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
  FailureOr<AllocOp> alloc = allocOf(*this, target, diag);
  if (failed(alloc))
    return diag;
  Refusal why(target->getLoc());
  FailureOr<AllocOp> bar = ringStages(rewriter, *alloc, getStages(),
                                      getLoop(), getBarrier(), why);
  if (failed(bar))
    return refused(*this, why);
  results.push_back(*bar);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// The extension
//===----------------------------------------------------------------------===//

#define GET_OP_CLASSES
#include "Rake/Dialect/GpuIR/TransformOps/GpuIRTransformOps.cpp.inc"

namespace {
class GpuIRTransformDialectExtension
    : public TransformDialectExtension<GpuIRTransformDialectExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GpuIRTransformDialectExtension)
  using Base::Base;

  void init() {
    declareDependentDialect<GpuIRDialect>();
    // What replace builds an instruction's sequential behavior with.
    declareGeneratedDialect<func::FuncDialect>();
    declareGeneratedDialect<scf::SCFDialect>();
    declareGeneratedDialect<memref::MemRefDialect>();
    declareGeneratedDialect<arith::ArithDialect>();
    declareGeneratedDialect<affine::AffineDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "Rake/Dialect/GpuIR/TransformOps/GpuIRTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void mlir::rake::gpuir::registerTransformDialectExtension(
    DialectRegistry &registry) {
  registry.addExtensions<GpuIRTransformDialectExtension>();
}
