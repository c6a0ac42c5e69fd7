//===- GpuIROps.cpp - GpuIR operations ------------------------------------===//

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

//===----------------------------------------------------------------------===//
// Control expressions
//
// Every control expression is an affine expression whose dims are SSA names:
// `%task * 256 + %t`. Several expressions of one op share one operand list
// and one affine map; each parsed expression's dims are numbered after the
// operands already collected.
//===----------------------------------------------------------------------===//

using UnresolvedOperand = OpAsmParser::UnresolvedOperand;

ParseResult mlir::rake::parseControlExpr(
    OpAsmParser &parser, SmallVectorImpl<UnresolvedOperand> &operands,
    AffineExpr &expr) {
  SmallVector<UnresolvedOperand> dims, syms;
  if (parser.parseAffineExprOfSSAIds(dims, syms, expr))
    return failure();
  // A name already used by an earlier expression of the op keeps its dim, so
  // that `%i * 64 : %i * 64 + 64` has the constant extent 64. Symbols
  // (`symbol(%x)`) are control values like any other and become dims.
  auto dimOf = [&](const UnresolvedOperand &v) {
    for (auto [i, o] : llvm::enumerate(operands))
      if (o.name == v.name && o.number == v.number)
        return getAffineDimExpr(i, parser.getContext());
    operands.push_back(v);
    return getAffineDimExpr(operands.size() - 1, parser.getContext());
  };
  SmallVector<AffineExpr> dimRepl, symRepl;
  for (const UnresolvedOperand &d : dims)
    dimRepl.push_back(dimOf(d));
  for (const UnresolvedOperand &d : syms)
    symRepl.push_back(dimOf(d));
  expr = expr.replaceDimsAndSymbols(dimRepl, symRepl);
  return success();
}

void mlir::rake::printControlExpr(OpAsmPrinter &p, AffineExpr expr,
                                  ValueRange operands) {
  p.printAffineExprOfSSAIds(expr, operands, {});
}

/// Parses `[c, lo : hi, ...]`: points and, where allowed, intervals.
ParseResult mlir::rake::parseWindowCoords(
    OpAsmParser &parser, SmallVectorImpl<UnresolvedOperand> &operands,
                                     SmallVectorImpl<AffineExpr> &exprs,
                                     SmallVectorImpl<bool> &intervals,
                                     bool allowIntervals, bool optional) {
  if (optional && failed(parser.parseOptionalLSquare()))
    return success();
  if (!optional && parser.parseLSquare())
    return failure();
  if (succeeded(parser.parseOptionalRSquare()))
    return success();
  do {
    SMLoc loc = parser.getCurrentLocation();
    AffineExpr lo;
    if (parseControlExpr(parser, operands, lo))
      return failure();
    exprs.push_back(lo);
    if (succeeded(parser.parseOptionalColon())) {
      if (!allowIntervals)
        return parser.emitError(loc, "an interval is not allowed here; this "
                                     "operation accesses single elements");
      AffineExpr hi;
      if (parseControlExpr(parser, operands, hi))
        return failure();
      exprs.push_back(hi);
      intervals.push_back(true);
    } else {
      intervals.push_back(false);
    }
  } while (succeeded(parser.parseOptionalComma()));
  return parser.parseRSquare();
}

void mlir::rake::printWindowCoords(OpAsmPrinter &p, AffineMap map,
                                   ValueRange operands,
                                   ArrayRef<bool> intervals) {
  p << "[";
  unsigned r = 0;
  for (auto [i, isInterval] : llvm::enumerate(intervals)) {
    if (i)
      p << ", ";
    printControlExpr(p, map.getResult(r++), operands);
    if (isInterval) {
      p << " : ";
      printControlExpr(p, map.getResult(r++), operands);
    }
  }
  p << "]";
}

ParseResult mlir::rake::parseTrailingBarrier(
    OpAsmParser &parser, UnresolvedOperand &barrier,
    SmallVectorImpl<UnresolvedOperand> &indices, AffineMapAttr &map,
    DenseBoolArrayAttr &intervals) {
  SmallVector<AffineExpr> exprs;
  SmallVector<bool> flags;
  if (parser.parseGreater() || parser.parseGreater() ||
      parser.parseOperand(barrier) ||
      parseWindowCoords(parser, indices, exprs, flags, /*allowIntervals=*/true,
                        /*optional=*/true))
    return failure();
  map = AffineMapAttr::get(
      AffineMap::get(indices.size(), 0, exprs, parser.getContext()));
  intervals = DenseBoolArrayAttr::get(parser.getContext(), flags);
  return success();
}

void mlir::rake::printTrailingBarrier(OpAsmPrinter &p, Operation *,
                                      Value barrier, OperandRange indices,
                                      AffineMapAttr map,
                                      DenseBoolArrayAttr intervals) {
  p << ">> " << barrier;
  if (!intervals.empty())
    printWindowCoords(p, map.getValue(), indices, intervals.asArrayRef());
}

static AffineMap makeMap(OpAsmParser &parser, unsigned numOperands,
                         ArrayRef<AffineExpr> exprs) {
  return AffineMap::get(numOperands, 0, exprs, parser.getContext());
}

//===----------------------------------------------------------------------===//
// Scope queries
//===----------------------------------------------------------------------===//

DeviceScope mlir::rake::gpuir::getDeviceScope(Operation *op) {
  return op->getParentOfType<DeviceFunctionOp>() ? DeviceScope::CUDA
                                                 : DeviceScope::CPU;
}

static MemoryTypeAttrInterface getMemoryType(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    return dyn_cast_or_null<MemoryTypeAttrInterface>(memref.getMemorySpace());
  return {};
}

/// Checks that a memref names a GpuIR memory type.
static LogicalResult verifyMemorySpace(Operation *op, Type type,
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
static LogicalResult verifyAccessScope(Operation *op, Type type) {
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
static LogicalResult verifyWritable(Operation *op, Type type, StringRef what) {
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

void ProcOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Type t : type.getInputs())
    block->addArgument(t, state.location);
}

ParseResult mlir::rake::parseProcedure(OpAsmParser &parser,
                                       OperationState &result,
                                       StringAttr typeAttrName,
                                       StringAttr argAttrsName,
                                       StringAttr resAttrsName,
                                       StringAttr argNamesName) {
  StringAttr name;
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  if (parser.parseSymbolName(name, SymbolTable::getSymbolAttrName(),
                             result.attributes) ||
      function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, args, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  Builder &b = parser.getBuilder();
  SmallVector<Type> argTypes;
  for (OpAsmParser::Argument &arg : args)
    argTypes.push_back(arg.type);
  result.addAttribute(typeAttrName,
                      TypeAttr::get(b.getFunctionType(argTypes, resultTypes)));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  call_interface_impl::addArgAndResultAttrs(b, result, args, resultAttrs,
                                            argAttrsName, resAttrsName);
  if (!result.attributes.get(argNamesName)) {
    SmallVector<Attribute> names;
    bool any = false;
    for (OpAsmParser::Argument &arg : args) {
      names.push_back(b.getStringAttr(ssaName(arg)));
      any |= !ssaName(arg).empty();
    }
    if (any)
      result.addAttribute(argNamesName, b.getArrayAttr(names));
  }
  // An empty body `{}` is a procedure that does nothing; it still has its
  // entry block, which holds the parameters.
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args, /*enableNameShadowing=*/false))
    return failure();
  if (body->empty()) {
    Block *block = &body->emplaceBlock();
    for (OpAsmParser::Argument &arg : args)
      block->addArgument(arg.type, arg.sourceLoc ? *arg.sourceLoc
                                                 : result.location);
  }
  return success();
}

StringRef mlir::rake::ssaName(const OpAsmParser::Argument &arg) {
  StringRef name = arg.ssaName.name;
  name.consume_front("%");
  // Numbered names (%0, %arg0) say nothing a reader wants kept.
  if (name.empty() || llvm::isDigit(name.front()) ||
      (name.starts_with("arg") && name.size() > 3 &&
       llvm::all_of(name.drop_front(3), llvm::isDigit)))
    return "";
  return name;
}

void mlir::rake::printProcedure(OpAsmPrinter &p, FunctionOpInterface op,
                                ArrayRef<StringRef> elided) {
  p << ' ';
  p.printSymbolName(SymbolTable::getSymbolName(op).getValue());
  function_interface_impl::printFunctionSignature(
      p, op, op.getArgumentTypes(), /*isVariadic=*/false,
      op.getResultTypes());
  function_interface_impl::printFunctionAttributes(p, op, elided);
  p << ' ';
  p.printRegion(op.getFunctionBody(), /*printEntryBlockArgs=*/false);
}

void mlir::rake::nameArguments(Block &block, ArrayAttr names,
                               OpAsmSetValueNameFn setName) {
  if (!names)
    return;
  for (auto [arg, name] : llvm::zip(block.getArguments(), names))
    if (auto s = dyn_cast<StringAttr>(name); s && !s.getValue().empty())
      setName(arg, s.getValue());
}

ParseResult ProcOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseProcedure(parser, result, getFunctionTypeAttrName(result.name),
                        getArgAttrsAttrName(result.name),
                        getResAttrsAttrName(result.name),
                        getArgNamesAttrName(result.name));
}

void ProcOp::getAsmBlockArgumentNames(Region &region,
                                      OpAsmSetValueNameFn setName) {
  nameArguments(region.front(), getArgNamesAttr(), setName);
}

void ProcOp::print(OpAsmPrinter &p) {
  printProcedure(p, *this,
                 {getFunctionTypeAttrName(), getArgAttrsAttrName(),
                  getResAttrsAttrName(), getArgNamesAttrName(),
                  getSymNameAttrName(), getSymVisibilityAttrName()});
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
      continue;
    }
    if (isa<TensorMapType>(t))
      continue;
    return emitOpError() << "parameter #" << i << " has type " << t
                         << "; a procedure parameter is a control value "
                            "(index), a buffer (memref) or a tensor map";
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

ParseResult ForOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument iv;
  SmallVector<UnresolvedOperand> lbOperands, ubOperands;
  AffineExpr lb, ub;
  if (parser.parseArgument(iv) || parser.parseEqual() ||
      parseControlExpr(parser, lbOperands, lb) || parser.parseKeyword("to") ||
      parseControlExpr(parser, ubOperands, ub) || parser.parseColon())
    return failure();

  SMLoc modeLoc = parser.getCurrentLocation();
  StringRef modeName;
  if (parser.parseKeyword(&modeName))
    return failure();
  std::optional<LoopMode> mode = symbolizeLoopMode(modeName);
  if (!mode)
    return parser.emitError(modeLoc, "unknown loop mode '")
           << modeName << "'; expected seq, cuda_tasks or cuda_threads<unit>";
  MLIRContext *ctx = parser.getContext();
  result.addAttribute("mode", LoopModeAttr::get(ctx, *mode));
  if (*mode == LoopMode::cuda_threads) {
    CollUnitAttr unit;
    if (parser.parseLess() || parser.parseAttribute(unit) ||
        parser.parseGreater())
      return failure();
    result.addAttribute("unit", unit);
  }

  Builder &b = parser.getBuilder();
  Type index = b.getIndexType();
  result.addAttribute("lowerMap",
                      AffineMapAttr::get(makeMap(parser, lbOperands.size(), lb)));
  result.addAttribute("upperMap",
                      AffineMapAttr::get(makeMap(parser, ubOperands.size(), ub)));
  if (parser.resolveOperands(lbOperands, index, result.operands) ||
      parser.resolveOperands(ubOperands, index, result.operands))
    return failure();
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      b.getDenseI32ArrayAttr({int32_t(lbOperands.size()),
                                              int32_t(ubOperands.size())}));
  iv.type = index;
  if (!ssaName(iv).empty())
    result.addAttribute("iv_name", b.getStringAttr(ssaName(iv)));
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {iv}) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return success();
}

void ForOp::getAsmBlockArgumentNames(Region &region,
                                     OpAsmSetValueNameFn setName) {
  if (auto name = getIvNameAttr())
    setName(region.front().getArgument(0), name.getValue());
}

void ForOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printOperand(getInductionVar());
  p << " = ";
  printControlExpr(p, getLowerMap().getResult(0), getLowerOperands());
  p << " to ";
  printControlExpr(p, getUpperMap().getResult(0), getUpperOperands());
  p << " : " << stringifyLoopMode(getLoopMode());
  if (getUnit()) {
    p << "<";
    p.printAttribute(*getUnit());
    p << ">";
  }
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {"mode", "unit", "lowerMap", "upperMap", "iv_name",
                            getOperandSegmentSizesAttrName()});
}

std::optional<int64_t> ForOp::getConstantLowerBound() {
  if (auto c = dyn_cast<AffineConstantExpr>(getLowerMap().getResult(0)))
    return c.getValue();
  return std::nullopt;
}

std::optional<int64_t> ForOp::getConstantUpperBound() {
  if (auto c = dyn_cast<AffineConstantExpr>(getUpperMap().getResult(0)))
    return c.getValue();
  return std::nullopt;
}

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

ParseResult mlir::rake::parseCondition(
    OpAsmParser &parser, SmallVectorImpl<UnresolvedOperand> &operands,
    SmallVectorImpl<AffineExpr> &exprs, SmallVectorImpl<int32_t> &preds) {
  do {
    AffineExpr lhs, rhs;
    if (parseControlExpr(parser, operands, lhs))
      return failure();
    SMLoc predLoc = parser.getCurrentLocation();
    CmpPredicate pred;
    if (succeeded(parser.parseOptionalLess()))
      pred = succeeded(parser.parseOptionalEqual()) ? CmpPredicate::le
                                                    : CmpPredicate::lt;
    else if (succeeded(parser.parseOptionalGreater()))
      pred = succeeded(parser.parseOptionalEqual()) ? CmpPredicate::ge
                                                    : CmpPredicate::gt;
    else if (succeeded(parser.parseOptionalEqual())) {
      if (parser.parseEqual())
        return failure();
      pred = CmpPredicate::eq;
    } else
      return parser.emitError(predLoc,
                              "expected a comparison: <, <=, >, >= or ==");
    if (parseControlExpr(parser, operands, rhs))
      return failure();
    exprs.push_back(lhs);
    exprs.push_back(rhs);
    preds.push_back(static_cast<int32_t>(pred));
  } while (succeeded(parser.parseOptionalKeyword("and")));
  return success();
}

static StringRef spellPredicate(CmpPredicate pred) {
  switch (pred) {
  case CmpPredicate::eq:
    return "==";
  case CmpPredicate::lt:
    return "<";
  case CmpPredicate::le:
    return "<=";
  case CmpPredicate::gt:
    return ">";
  case CmpPredicate::ge:
    return ">=";
  }
  llvm_unreachable("unknown predicate");
}

void mlir::rake::printCondition(OpAsmPrinter &p, AffineMap map,
                                ValueRange operands,
                                ArrayRef<int32_t> predicates) {
  for (auto [i, pred] : llvm::enumerate(predicates)) {
    if (i)
      p << " and ";
    printControlExpr(p, map.getResult(2 * i), operands);
    p << " " << spellPredicate(static_cast<CmpPredicate>(pred)) << " ";
    printControlExpr(p, map.getResult(2 * i + 1), operands);
  }
}

ParseResult mlir::rake::parseQualSet(OpAsmParser &parser,
                                     QualTimelineAttr &attr) {
  QualTimeline bits = QualTimeline::none;
  do {
    SMLoc loc = parser.getCurrentLocation();
    StringRef name;
    if (parser.parseKeyword(&name))
      return failure();
    std::optional<QualTimeline> q = symbolizeQualTimeline(name);
    if (!q)
      return parser.emitError(loc, "unknown qualitative timeline '")
             << name << "'";
    bits = bits | *q;
  } while (succeeded(parser.parseOptionalVerticalBar()));
  attr = QualTimelineAttr::get(parser.getContext(), bits);
  return success();
}

void mlir::rake::printQualSet(OpAsmPrinter &p, Operation *,
                              QualTimelineAttr attr) {
  p << stringifyQualTimeline(attr.getValue());
}

ParseResult IfOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<UnresolvedOperand> operands;
  SmallVector<AffineExpr> exprs;
  SmallVector<int32_t> preds;
  if (parseCondition(parser, operands, exprs, preds))
    return failure();
  Builder &b = parser.getBuilder();
  result.addAttribute("map",
                      AffineMapAttr::get(makeMap(parser, operands.size(), exprs)));
  result.addAttribute("predicates", b.getDenseI32ArrayAttr(preds));
  if (parser.resolveOperands(operands, b.getIndexType(), result.operands))
    return failure();
  Region *thenRegion = result.addRegion();
  Region *elseRegion = result.addRegion();
  if (parser.parseRegion(*thenRegion, {}))
    return failure();
  if (thenRegion->empty())
    thenRegion->emplaceBlock();
  if (succeeded(parser.parseOptionalKeyword("else"))) {
    if (parser.parseRegion(*elseRegion, {}))
      return failure();
    if (elseRegion->empty())
      elseRegion->emplaceBlock();
  }
  return parser.parseOptionalAttrDictWithKeyword(result.attributes);
}

void IfOp::print(OpAsmPrinter &p) {
  p << " ";
  printCondition(p, getMap(), getOperands(), getPredicates());
  p << " ";
  p.printRegion(getThenRegion(), /*printEntryBlockArgs=*/false);
  if (hasElse()) {
    p << " else ";
    p.printRegion(getElseRegion(), /*printEntryBlockArgs=*/false);
  }
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {"map", "predicates"});
}

LogicalResult IfOp::verify() {
  if (getMap().getNumResults() != 2 * getPredicates().size())
    return emitOpError() << "needs two expressions for each comparison";
  if (getMap().getNumDims() != getOperands().size())
    return emitOpError() << "condition map and operands disagree";
  for (int32_t p : getPredicates())
    if (!symbolizeCmpPredicate(p))
      return emitOpError() << "unknown comparison " << p;
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

ParseResult DeviceFunctionOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  Builder &b = parser.getBuilder();
  auto parseIntClause = [&](StringRef keyword) -> ParseResult {
    int64_t v;
    if (parser.parseLParen() || parser.parseInteger(v) || parser.parseRParen())
      return failure();
    result.addAttribute(keyword == "blocks_per_sm" ? "blocks_per_sm" : keyword,
                        b.getI64IntegerAttr(v));
    return success();
  };
  while (true) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    if (failed(parser.parseOptionalKeyword(
            &keyword, {"cluster", "blocks_per_sm", "block", "warps"})))
      break;
    if (result.attributes.get(keyword == "warps" ? "warp_groups" : keyword))
      return parser.emitError(loc, "'") << keyword << "' given twice";
    if (keyword != "warps") {
      if (parseIntClause(keyword))
        return failure();
      continue;
    }
    SmallVector<Attribute> groups;
    if (parser.parseCommaSeparatedList(
            OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
              StringRef name;
              int64_t count = 0, regs = 0;
              RegisterChange change = RegisterChange::none;
              if (parser.parseKeyword(&name) || parser.parseEqual() ||
                  parser.parseInteger(count))
                return failure();
              if (succeeded(parser.parseOptionalKeyword("dec")))
                change = RegisterChange::dec;
              else if (succeeded(parser.parseOptionalKeyword("inc")))
                change = RegisterChange::inc;
              if (change != RegisterChange::none &&
                  (parser.parseLParen() || parser.parseInteger(regs) ||
                   parser.parseRParen()))
                return failure();
              groups.push_back(WarpGroupAttr::get(
                  parser.getContext(), b.getStringAttr(name), count, change,
                  regs));
              return success();
            }))
      return failure();
    result.addAttribute("warp_groups", b.getArrayAttr(groups));
  }
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {}) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  if (body->empty())
    body->emplaceBlock();
  return success();
}

void DeviceFunctionOp::print(OpAsmPrinter &p) {
  if (getCluster() != 1)
    p << " cluster(" << getCluster() << ")";
  if (getBlocksPerSm() != 1)
    p << " blocks_per_sm(" << getBlocksPerSm() << ")";
  if (getBlock())
    p << " block(" << *getBlock() << ")";
  if (auto groups = getWarpGroups()) {
    p << " warps(";
    llvm::interleaveComma(groups->getAsRange<WarpGroupAttr>(), p,
                          [&](WarpGroupAttr g) {
                            p << g.getName().getValue() << " = "
                              << g.getCount();
                            if (g.getChange() != RegisterChange::none)
                              p << " " << stringifyRegisterChange(g.getChange())
                                << "(" << g.getRegisters() << ")";
                          });
    p << ")";
  }
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {"cluster", "blocks_per_sm", "block", "warp_groups"});
}

int64_t DeviceFunctionOp::getBlockDim() {
  if (getBlock())
    return *getBlock();
  int64_t warps = 0;
  if (auto groups = getWarpGroups())
    for (auto g : groups->getAsRange<WarpGroupAttr>())
      warps += g.getCount();
  return 32 * warps;
}

std::optional<std::pair<WarpGroupAttr, int64_t>>
DeviceFunctionOp::lookupWarpGroup(StringRef name) {
  int64_t first = 0;
  if (auto groups = getWarpGroups())
    for (auto g : groups->getAsRange<WarpGroupAttr>()) {
      if (g.getName().getValue() == name)
        return std::make_pair(g, first);
      first += g.getCount();
    }
  return std::nullopt;
}

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
  }
  if ((*this)->getParentOfType<DeviceFunctionOp>())
    return emitOpError() << "device functions cannot nest; a device function "
                            "is launched from CPU code";
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
// AllocOp, FreeOp
//===----------------------------------------------------------------------===//

/// The SSA name the parser saw for the op's result (`%tile` -> "tile").
static StringRef resultName(OpAsmParser &parser) {
  StringRef name = parser.getResultName(0).first;
  if (name.empty() || llvm::isDigit(name.front()))
    return "";
  return name;
}

ParseResult AllocOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<UnresolvedOperand> sizes;
  Type type;
  if (succeeded(parser.parseOptionalLParen()) &&
      (parser.parseOperandList(sizes) || parser.parseRParen()))
    return failure();
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(type) ||
      parser.resolveOperands(sizes, parser.getBuilder().getIndexType(),
                             result.operands))
    return failure();
  StringRef name = resultName(parser);
  if (!name.empty() && !result.attributes.get("name"))
    result.addAttribute("name", parser.getBuilder().getStringAttr(name));
  result.addTypes(type);
  return success();
}

void AllocOp::print(OpAsmPrinter &p) {
  if (!getDynamicSizes().empty()) {
    p << "(";
    p.printOperands(getDynamicSizes());
    p << ")";
  }
  p.printOptionalAttrDict((*this)->getAttrs(), {"name"});
  p << " : " << getResult().getType();
}

void AllocOp::getAsmResultNames(OpAsmSetValueNameFn setName) {
  if (auto name = getNameAttr())
    setName(getResult(), name.getValue());
}

void WindowOp::getAsmResultNames(OpAsmSetValueNameFn setName) {
  if (auto name = getNameAttr())
    setName(getResult(), name.getValue());
}

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
    for (int64_t d : memref.getShape())
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

static ParseResult parseAccess(OpAsmParser &parser, OperationState &result,
                               bool hasValue, bool hasResult) {
  UnresolvedOperand value, memref;
  SmallVector<UnresolvedOperand> indices;
  SmallVector<AffineExpr> exprs;
  SmallVector<bool> intervals;
  MemRefType type;
  if (hasValue && (parser.parseOperand(value) || parser.parseComma()))
    return failure();
  if (parser.parseOperand(memref) ||
      parseWindowCoords(parser, indices, exprs, intervals,
                        /*allowIntervals=*/false, /*optional=*/false) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(type))
    return failure();
  Builder &b = parser.getBuilder();
  if (hasValue &&
      parser.resolveOperand(value, type.getElementType(), result.operands))
    return failure();
  if (parser.resolveOperand(memref, type, result.operands) ||
      parser.resolveOperands(indices, b.getIndexType(), result.operands))
    return failure();
  result.addAttribute("map",
                      AffineMapAttr::get(makeMap(parser, indices.size(), exprs)));
  if (hasResult)
    result.addTypes(type.getElementType());
  return success();
}

static void printAccess(OpAsmPrinter &p, Operation *op, Value value,
                        Value memref, ValueRange indices, AffineMap map) {
  p << " ";
  if (value)
    p << value << ", ";
  p << memref;
  SmallVector<bool> points(map.getNumResults(), false);
  printWindowCoords(p, map, indices, points);
  p.printOptionalAttrDict(op->getAttrs(), {"map"});
  p << " : " << memref.getType();
}

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

ParseResult ReadOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseAccess(parser, result, /*hasValue=*/false, /*hasResult=*/true);
}
void ReadOp::print(OpAsmPrinter &p) {
  printAccess(p, *this, nullptr, getMemref(), getIndices(), getMap());
}
LogicalResult ReadOp::verify() {
  if (getValue().getType() !=
      cast<MemRefType>(getMemref().getType()).getElementType())
    return emitOpError() << "result type does not match the element type";
  return verifyAccess(*this, nullptr, getMemref(), getIndices(), getMap());
}

ParseResult WriteOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseAccess(parser, result, /*hasValue=*/true, /*hasResult=*/false);
}
void WriteOp::print(OpAsmPrinter &p) {
  printAccess(p, *this, getValue(), getMemref(), getIndices(), getMap());
}
LogicalResult WriteOp::verify() {
  if (failed(verifyWritable(*this, getMemref().getType(), "its buffer")))
    return failure();
  return verifyAccess(*this, getValue(), getMemref(), getIndices(), getMap());
}

ParseResult ReduceOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseAccess(parser, result, /*hasValue=*/true, /*hasResult=*/false);
}
void ReduceOp::print(OpAsmPrinter &p) {
  printAccess(p, *this, getValue(), getMemref(), getIndices(), getMap());
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
// Window, tensor map
//===----------------------------------------------------------------------===//

static ParseResult parseWindowLike(OpAsmParser &parser,
                                   OperationState &result) {
  UnresolvedOperand source;
  SmallVector<UnresolvedOperand> indices;
  SmallVector<AffineExpr> exprs;
  SmallVector<bool> intervals;
  MemRefType sourceType;
  Type resultType;
  if (parser.parseOperand(source) ||
      parseWindowCoords(parser, indices, exprs, intervals,
                        /*allowIntervals=*/true, /*optional=*/false) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(sourceType) || parser.parseArrow() ||
      parser.parseType(resultType))
    return failure();
  Builder &b = parser.getBuilder();
  if (parser.resolveOperand(source, sourceType, result.operands) ||
      parser.resolveOperands(indices, b.getIndexType(), result.operands))
    return failure();
  result.addAttribute("map",
                      AffineMapAttr::get(makeMap(parser, indices.size(), exprs)));
  result.addAttribute("intervals", b.getDenseBoolArrayAttr(intervals));
  StringRef name = resultName(parser);
  if (!name.empty() && result.name.getStringRef() == "gpuir.window" &&
      !result.attributes.get("name"))
    result.addAttribute("name", b.getStringAttr(name));
  result.addTypes(resultType);
  return success();
}

static void printWindowLike(OpAsmPrinter &p, Operation *op, Value source,
                            ValueRange indices, AffineMap map,
                            ArrayRef<bool> intervals, Type resultType) {
  p << " " << source;
  printWindowCoords(p, map, indices, intervals);
  p.printOptionalAttrDict(op->getAttrs(), {"map", "intervals", "name"});
  p << " : " << source.getType() << " -> " << resultType;
}

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

ParseResult WindowOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseWindowLike(parser, result);
}
void WindowOp::print(OpAsmPrinter &p) {
  printWindowLike(p, *this, getSource(), getIndices(), getMap(),
                  getIntervals(), getResult().getType());
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
  }
  return success();
}

SmallVector<AffineExpr> WindowOp::getStarts() {
  AffineMap m = getMap();
  SmallVector<AffineExpr> starts;
  unsigned r = 0;
  for (bool isInterval : getIntervals()) {
    starts.push_back(m.getResult(r++));
    if (isInterval)
      ++r; // the interval's hi
  }
  return starts;
}

ParseResult TensorMapOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseWindowLike(parser, result);
}
void TensorMapOp::print(OpAsmPrinter &p) {
  printWindowLike(p, *this, getSource(), getIndices(), getMap(),
                  getIntervals(), getResult().getType());
}
LogicalResult TensorMapOp::verify() {
  auto source = cast<MemRefType>(getSource().getType());
  auto tm = cast<TensorMapType>(getResult().getType());
  if (failed(verifyMemorySpace(*this, source, "the source")))
    return failure();
  MemoryTypeAttrInterface mem = getMemoryType(source);
  if (!isa<GmemAttr>(mem))
    return emitOpError() << "a tensor map windows global memory "
                            "(#gpuir.gmem), not "
                         << mem.getMemoryName();
  if (getDeviceScope(*this) == DeviceScope::CUDA)
    return emitOpError() << "tensor maps are made at CPU scope and passed "
                            "to the kernel";
  SmallVector<int64_t> extents;
  if (failed(verifyWindowCoords(*this, source, getIndices(), getMap(),
                                getIntervals(), extents)))
    return failure();
  if (tm.getElementType() != source.getElementType())
    return emitOpError() << "the tensor map's element type "
                         << tm.getElementType()
                         << " differs from the buffer's "
                         << source.getElementType();
  if (extents.size() != tm.getBox().size())
    return emitOpError() << "the window has " << extents.size()
                         << " intervals but the box has " << tm.getBox().size()
                         << " dimensions";
  for (auto [i, e] : llvm::enumerate(extents))
    if (!ShapedType::isDynamic(e) && tm.getBox()[i] > e)
      return emitOpError() << "box dimension " << i << " (" << tm.getBox()[i]
                           << ") is larger than the window (" << e << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// Synchronization
//===----------------------------------------------------------------------===//

static ParseResult parseSyncTimeline(OpAsmParser &parser,
                                     SyncTimelineAttr &attr) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseKeyword(&name))
    return failure();
  std::optional<SyncTimeline> tl = symbolizeSyncTimeline(name);
  if (!tl) {
    InFlightDiagnostic diag = parser.emitError(loc)
                              << "unknown sync timeline '" << name
                              << "'; expected one of ";
    for (uint32_t i = 0; i <= getMaxEnumValForSyncTimeline(); ++i)
      diag << (i ? ", " : "") << stringifySyncTimeline(SyncTimeline(i));
    return diag;
  }
  attr = SyncTimelineAttr::get(parser.getContext(), *tl);
  return success();
}

static void printSyncTimeline(OpAsmPrinter &p, Operation *,
                              SyncTimelineAttr attr) {
  p << stringifySyncTimeline(attr.getValue());
}

/// The timelines a device-side synchronization statement may name.
static LogicalResult verifyDeviceTimeline(Operation *op, SyncTimeline tl,
                                          StringRef which) {
  if (tl == SyncTimeline::cpu_in_order || tl == SyncTimeline::cuda_stream_sync)
    return op->emitOpError()
           << "uses " << stringifySyncTimeline(tl) << " as its " << which
           << " timeline inside a device function; it names CPU-side "
              "accesses, use a CUDA timeline such as cuda_in_order";
  return success();
}

LogicalResult FenceOp::verify() {
  SyncTimeline pre = getPre(), post = getPost();
  if (pre == SyncTimeline::empty || post == SyncTimeline::empty)
    return emitOpError() << "a fence with an empty timeline orders nothing; "
                            "name the accesses it orders on both sides";
  if (getDeviceScope(*this) == DeviceScope::CPU) {
    bool ok = (pre == SyncTimeline::cuda_stream_sync ||
               pre == SyncTimeline::cpu_in_order) &&
              post == SyncTimeline::cpu_in_order;
    if (!ok)
      return emitOpError()
             << "at CPU scope a fence is cuda_stream_sync -> cpu_in_order "
                "(wait for the device) or cpu_in_order -> cpu_in_order; found "
             << stringifySyncTimeline(pre) << " -> "
             << stringifySyncTimeline(post);
    return success();
  }
  if (failed(verifyDeviceTimeline(*this, pre, "first")) ||
      failed(verifyDeviceTimeline(*this, post, "second")))
    return failure();
  return success();
}

/// Parses `%bar[coords]`, returning the barrier operand, its index operands
/// and the map of its coordinates.
static ParseResult
parseBarrierExpr(OpAsmParser &parser, UnresolvedOperand &barrier,
                 SmallVectorImpl<UnresolvedOperand> &indices, AffineMap &map,
                 SmallVectorImpl<bool> &intervals, bool allowIntervals) {
  SmallVector<AffineExpr> exprs;
  if (parser.parseOperand(barrier) ||
      parseWindowCoords(parser, indices, exprs, intervals, allowIntervals,
                        /*optional=*/true))
    return failure();
  map = makeMap(parser, indices.size(), exprs);
  return success();
}

static void printBarrierExpr(OpAsmPrinter &p, Value barrier,
                             ValueRange indices, AffineMap map,
                             ArrayRef<bool> intervals) {
  p << barrier;
  if (!intervals.empty())
    printWindowCoords(p, map, indices, intervals);
}

ParseResult ArriveOp::parse(OpAsmParser &parser, OperationState &result) {
  SyncTimelineAttr pre;
  if (parseSyncTimeline(parser, pre) || parser.parseGreater() ||
      parser.parseGreater())
    return failure();
  result.addAttribute("pre", pre);
  SmallVector<UnresolvedOperand> barriers, allIndices;
  SmallVector<Attribute> maps, intervalAttrs;
  Builder &b = parser.getBuilder();
  do {
    UnresolvedOperand barrier;
    SmallVector<UnresolvedOperand> indices;
    SmallVector<bool> intervals;
    AffineMap map;
    if (parseBarrierExpr(parser, barrier, indices, map, intervals,
                         /*allowIntervals=*/true))
      return failure();
    barriers.push_back(barrier);
    allIndices.append(indices);
    maps.push_back(AffineMapAttr::get(map));
    intervalAttrs.push_back(b.getDenseBoolArrayAttr(intervals));
  } while (succeeded(parser.parseOptionalComma()));
  SmallVector<Type> types;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  SMLoc typesLoc = parser.getCurrentLocation();
  if (parser.parseTypeList(types))
    return failure();
  if (types.size() != barriers.size())
    return parser.emitError(typesLoc)
           << "expected one type for each of the " << barriers.size()
           << " barriers";
  if (parser.resolveOperands(barriers, types, parser.getNameLoc(),
                             result.operands) ||
      parser.resolveOperands(allIndices, b.getIndexType(), result.operands))
    return failure();
  result.addAttribute("maps", b.getArrayAttr(maps));
  result.addAttribute("intervals", b.getArrayAttr(intervalAttrs));
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      b.getDenseI32ArrayAttr({int32_t(barriers.size()),
                                              int32_t(allIndices.size())}));
  return success();
}

OperandRange ArriveOp::getBarrierIndices(unsigned i) {
  unsigned start = 0;
  for (unsigned j = 0; j < i; ++j)
    start += cast<AffineMapAttr>(getMaps()[j]).getValue().getNumDims();
  unsigned n = cast<AffineMapAttr>(getMaps()[i]).getValue().getNumDims();
  return getIndices().slice(start, n);
}

void ArriveOp::print(OpAsmPrinter &p) {
  p << " " << stringifySyncTimeline(getPre()) << " >> ";
  for (unsigned i = 0, e = getBarriers().size(); i < e; ++i) {
    if (i)
      p << ", ";
    printBarrierExpr(p, getBarriers()[i], getBarrierIndices(i),
                     cast<AffineMapAttr>(getMaps()[i]).getValue(),
                     cast<DenseBoolArrayAttr>(getIntervals()[i]).asArrayRef());
  }
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {"pre", "maps", "intervals",
                           getOperandSegmentSizesAttrName()});
  p << " : ";
  llvm::interleaveComma(getBarriers().getTypes(), p);
}

/// Checks a barrier expression's coordinates against the barrier's shape.
static LogicalResult verifyBarrierCoords(Operation *op, BarrierType type,
                                         AffineMap map,
                                         ArrayRef<bool> intervals) {
  if (intervals.size() != static_cast<size_t>(type.getRank()))
    return op->emitOpError() << "gives " << intervals.size()
                             << " coordinates for a barrier array of rank "
                             << type.getRank();
  unsigned r = 0;
  for (auto [dim, isInterval] : llvm::enumerate(intervals)) {
    for (unsigned k = 0; k < (isInterval ? 2u : 1u); ++k) {
      auto c = dyn_cast<AffineConstantExpr>(map.getResult(r++));
      int64_t limit = type.getShape()[dim] + (k == 1 ? 1 : 0);
      if (c && (c.getValue() < 0 || c.getValue() >= limit))
        return op->emitOpError()
               << "barrier coordinate " << c.getValue() << " of dimension "
               << dim << " is out of bounds [0, " << type.getShape()[dim]
               << ")";
    }
  }
  return success();
}

LogicalResult ArriveOp::verify() {
  if (getDeviceScope(*this) == DeviceScope::CPU)
    return emitOpError() << "arrive is a device statement; at CPU scope use "
                            "gpuir.fence cuda_stream_sync -> cpu_in_order";
  SyncTimeline pre = getPre();
  if (failed(verifyDeviceTimeline(*this, pre, "first")))
    return failure();
  if (getMaps().size() != getBarriers().size() ||
      getIntervals().size() != getBarriers().size())
    return emitOpError() << "needs one index map and interval list per "
                            "barrier";
  unsigned totalDims = 0;
  for (Attribute m : getMaps())
    totalDims += cast<AffineMapAttr>(m).getValue().getNumDims();
  if (totalDims != getIndices().size())
    return emitOpError() << "index maps and operands disagree";
  for (unsigned i = 0, e = getBarriers().size(); i < e; ++i) {
    auto type = cast<BarrierType>(getBarriers()[i].getType());
    ArrayRef<bool> intervals =
        cast<DenseBoolArrayAttr>(getIntervals()[i]).asArrayRef();
    if (failed(verifyBarrierCoords(
            *this, type, cast<AffineMapAttr>(getMaps()[i]).getValue(),
            intervals)))
      return failure();
    if (!type.isMbarrier() &&
        (e > 1 || llvm::is_contained(intervals, true)))
      return emitOpError() << "arrives on several barriers at once; only "
                              "mbarriers take multicast arrives, this one is "
                           << stringifyBarrierMechanism(type.getMechanism());
    if (std::optional<SyncTimeline> needed =
            getCommitGroupTimeline(type.getMechanism());
        needed && *needed != pre)
      return emitOpError() << "commits a " << stringifyBarrierMechanism(
                                                 type.getMechanism())
                           << " group, whose arrive timeline is "
                           << stringifySyncTimeline(*needed) << ", not "
                           << stringifySyncTimeline(pre);
    if (type.getMechanism() == BarrierMechanism::cluster_sync &&
        pre == SyncTimeline::empty)
      return emitOpError() << "a cluster sync arrive orders the accesses "
                              "before it; give a timeline such as "
                              "cuda_in_order";
  }
  return success();
}

ParseResult AwaitOp::parse(OpAsmParser &parser, OperationState &result) {
  UnresolvedOperand barrier;
  SmallVector<UnresolvedOperand> indices;
  SmallVector<bool> intervals;
  AffineMap map;
  SyncTimelineAttr post;
  if (parseBarrierExpr(parser, barrier, indices, map, intervals,
                       /*allowIntervals=*/false) ||
      parser.parseComma() || parseSyncTimeline(parser, post))
    return failure();
  Builder &b = parser.getBuilder();
  result.addAttribute("post", post);
  result.addAttribute("map", AffineMapAttr::get(map));
  while (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    int64_t v;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return failure();
    if (keyword != "lag" && keyword != "outstanding")
      return parser.emitError(loc, "expected lag(n) or outstanding(n), found '")
             << keyword << "'";
    if (parser.parseLParen() || parser.parseInteger(v) || parser.parseRParen())
      return failure();
    result.addAttribute(keyword, b.getI64IntegerAttr(v));
  }
  Type type;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(type) ||
      parser.resolveOperand(barrier, type, result.operands) ||
      parser.resolveOperands(indices, b.getIndexType(), result.operands))
    return failure();
  return success();
}

void AwaitOp::print(OpAsmPrinter &p) {
  p << " ";
  SmallVector<bool> points(getMap().getNumResults(), false);
  printBarrierExpr(p, getBarrier(), getIndices(), getMap(), points);
  p << ", " << stringifySyncTimeline(getPost());
  if (getLag())
    p << ", lag(" << *getLag() << ")";
  if (getOutstanding())
    p << ", outstanding(" << *getOutstanding() << ")";
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {"post", "map", "lag", "outstanding"});
  p << " : " << getBarrier().getType();
}

LogicalResult AwaitOp::verify() {
  if (getDeviceScope(*this) == DeviceScope::CPU)
    return emitOpError() << "await is a device statement; at CPU scope use "
                            "gpuir.fence cuda_stream_sync -> cpu_in_order";
  SyncTimeline post = getPost();
  if (failed(verifyDeviceTimeline(*this, post, "second")))
    return failure();
  auto type = cast<BarrierType>(getBarrier().getType());
  if (getMap().getNumDims() != getIndices().size())
    return emitOpError() << "index map and operands disagree";
  SmallVector<bool> points(getMap().getNumResults(), false);
  if (failed(verifyBarrierCoords(*this, type, getMap(), points)))
    return failure();
  if (getLag() && !type.isMbarrier())
    return emitOpError() << "lag(n) counts phases of an mbarrier ring; this "
                            "barrier is "
                         << stringifyBarrierMechanism(type.getMechanism());
  if (getLag() && *getLag() < 0)
    return emitOpError() << "lag must not be negative, found " << *getLag();
  if (getOutstanding() && !type.isCommitGroup())
    return emitOpError() << "outstanding(n) counts unfinished commit groups; "
                            "this barrier is "
                         << stringifyBarrierMechanism(type.getMechanism());
  if (getOutstanding() && *getOutstanding() < 0)
    return emitOpError() << "outstanding must not be negative, found "
                         << *getOutstanding();
  if (post == SyncTimeline::empty)
    return emitOpError() << "an await with an empty timeline orders nothing "
                            "after it";
  return success();
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

LogicalResult mlir::rake::gpuir::verifyInstrOp(Operation *op) {
  auto instr = cast<InstrOpInterface>(op);
  bool onDevice = getDeviceScope(op) == DeviceScope::CUDA;
  InstrTimeline itl = instr.getInstrTimeline();
  bool cpuInstr =
      itl == InstrTimeline::cpu_in_order || itl == InstrTimeline::cpu_cuda_stream;
  if (onDevice == cpuInstr)
    return op->emitOpError()
           << "is a " << (cpuInstr ? "CPU" : "CUDA") << " instruction ("
           << stringifyInstrTimeline(itl) << ") used "
           << (onDevice ? "inside a device function" : "at CPU scope");
  for (const InstrParam &param : instr.getParams()) {
    if (param.operandIndex >= op->getNumOperands())
      return op->emitOpError() << "parameter '" << param.name
                               << "' names a missing operand";
    Type type = op->getOperand(param.operandIndex).getType();
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref)
      return op->emitOpError() << "parameter '" << param.name
                               << "' takes a buffer (memref), found " << type;
    if (param.elementType && memref.getElementType() != param.elementType)
      return op->emitOpError() << "parameter '" << param.name << "' takes "
                               << param.elementType << " elements, found "
                               << memref.getElementType();
    if (!param.shape.empty()) {
      bool ok = static_cast<size_t>(memref.getRank()) == param.shape.size();
      for (size_t i = 0; ok && i < param.shape.size(); ++i)
        ok = ShapedType::isDynamic(param.shape[i]) ||
             memref.getDimSize(i) == param.shape[i];
      if (!ok) {
        auto show = [](ArrayRef<int64_t> shape) {
          std::string s = "[";
          for (auto [i, d] : llvm::enumerate(shape))
            s += (i ? ", " : "") +
                 (ShapedType::isDynamic(d) ? std::string("?")
                                           : std::to_string(d));
          return s + "]";
        };
        return op->emitOpError()
               << "parameter '" << param.name << "' takes a window of shape "
               << show(param.shape) << ", found " << show(memref.getShape());
      }
    }
    MemoryTypeAttrInterface mem = getMemoryType(memref);
    if (!mem)
      return verifyMemorySpace(op, memref, "parameter '" + param.name.str() + "'");
    if (!param.memoryTypes.empty() &&
        !llvm::is_contained(param.memoryTypes, mem.getTypeID()))
      return op->emitOpError() << "parameter '" << param.name
                               << "' cannot take a buffer in "
                               << mem.getMemoryName() << " memory";
    if (param.access != AccessMode::read &&
        failed(verifyWritable(op, memref,
                              "parameter '" + param.name.str() + "'")))
      return failure();
  }
  std::optional<BarrierMechanism> mech = instr.getBarrierMechanism();
  Value barrier = instr.getTrailingBarrier();
  if (mech && !barrier)
    return op->emitOpError() << "needs a trailing barrier of mechanism "
                             << stringifyBarrierMechanism(*mech);
  if (barrier) {
    auto type = dyn_cast<BarrierType>(barrier.getType());
    if (!type)
      return op->emitOpError() << "trailing barrier is not a barrier";
    if (mech && type.getMechanism() != *mech)
      return op->emitOpError() << "completes through a "
                               << stringifyBarrierMechanism(*mech)
                               << " barrier, but the trailing barrier is "
                               << stringifyBarrierMechanism(type.getMechanism());
  }
  return success();
}

#define GET_OP_CLASSES
#include "Rake/Dialect/GpuIR/IR/Ops.cpp.inc"
