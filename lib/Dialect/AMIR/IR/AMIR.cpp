//===- AMIR.cpp - the abstract machine dialect ----------------------------===//

#include "Rake/Dialect/AMIR/IR/AMIR.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::amir;

#include "Rake/Dialect/AMIR/IR/Dialect.cpp.inc"
#include "Rake/Dialect/AMIR/IR/OpInterfaces.cpp.inc"
#include "Rake/Dialect/AMIR/IR/Enums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Rake/Dialect/AMIR/IR/Attrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "Rake/Dialect/AMIR/IR/Types.cpp.inc"

void AMIRDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Rake/Dialect/AMIR/IR/Attrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "Rake/Dialect/AMIR/IR/Types.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "Rake/Dialect/AMIR/IR/Ops.cpp.inc"
      >();
}

using UnresolvedOperand = OpAsmParser::UnresolvedOperand;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

static ParseResult parseWindow(OpAsmParser &parser,
                               SmallVectorImpl<UnresolvedOperand> &indices,
                               AffineMapAttr &map,
                               DenseBoolArrayAttr &intervals) {
  SmallVector<AffineExpr> exprs;
  SmallVector<bool> flags;
  if (parseWindowCoords(parser, indices, exprs, flags, /*allowIntervals=*/true,
                        /*optional=*/true))
    return failure();
  map = AffineMapAttr::get(
      AffineMap::get(indices.size(), 0, exprs, parser.getContext()));
  intervals = DenseBoolArrayAttr::get(parser.getContext(), flags);
  return success();
}

static void printWindow(OpAsmPrinter &p, Operation *, OperandRange indices,
                        AffineMapAttr map, DenseBoolArrayAttr intervals) {
  if (!intervals.empty())
    printWindowCoords(p, map.getValue(), indices, intervals.asArrayRef());
}

static ParseResult parseLevel(OpAsmParser &parser,
                              VisibilityLevelAttr &attr) {
  if (failed(parser.parseOptionalKeyword("at")))
    return success();
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseKeyword(&name))
    return failure();
  std::optional<VisibilityLevel> level = symbolizeVisibilityLevel(name);
  if (!level)
    return parser.emitError(loc, "unknown visibility level '")
           << name
           << "'; expected invisible, atomic_only, unordered, "
              "temporally_ordered or fully_ordered";
  attr = VisibilityLevelAttr::get(parser.getContext(), *level);
  return success();
}

static void printLevel(OpAsmPrinter &p, Operation *op,
                       VisibilityLevelAttr attr) {
  if (attr)
    p << " at " << stringifyVisibilityLevel(attr.getValue());
}

static LogicalResult verifyWindow(Operation *op, ValueRange indices,
                                  AffineMap map, ArrayRef<bool> intervals) {
  if (map.getNumDims() != indices.size())
    return op->emitOpError() << "window map and operands disagree";
  unsigned expected = intervals.size() + llvm::count(intervals, true);
  if (map.getNumResults() != expected)
    return op->emitOpError() << "window map has " << map.getNumResults()
                             << " expressions, expected " << expected;
  return success();
}

//===----------------------------------------------------------------------===//
// ProcOp
//===----------------------------------------------------------------------===//

ParseResult ProcOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseProcedure(parser, result, getFunctionTypeAttrName(result.name),
                        getArgAttrsAttrName(result.name),
                        getResAttrsAttrName(result.name),
                        getArgNamesAttrName(result.name));
}

void ProcOp::print(OpAsmPrinter &p) {
  printProcedure(p, *this,
                 {getFunctionTypeAttrName(), getArgAttrsAttrName(),
                  getResAttrsAttrName(), getArgNamesAttrName(),
                  getSymNameAttrName(), getSymVisibilityAttrName()});
}

void ProcOp::getAsmBlockArgumentNames(Region &region,
                                      OpAsmSetValueNameFn setName) {
  nameArguments(region.front(), getArgNamesAttr(), setName);
}

void LoopOp::getAsmBlockArgumentNames(Region &region,
                                      OpAsmSetValueNameFn setName) {
  if (auto name = getIvNameAttr())
    setName(region.front().getArgument(0), name.getValue());
}

LogicalResult ProcOp::verify() {
  FunctionType type = getFunctionType();
  if (type.getNumResults() != 0)
    return emitOpError() << "an abstract-machine procedure has no results";
  for (auto [i, t] : llvm::enumerate(type.getInputs()))
    if (!isa<IndexType>(t))
      return emitOpError() << "parameter #" << i << " has type " << t
                           << "; an abstract-machine procedure takes only "
                              "control parameters (index)";
  return success();
}

//===----------------------------------------------------------------------===//
// LoopOp, GuardOp
//===----------------------------------------------------------------------===//

static ParseResult parseThreads(OpAsmParser &parser, OperationState &result) {
  if (failed(parser.parseOptionalKeyword("threads")))
    return success();
  Attribute mapping;
  if (parser.parseLParen() || parser.parseAttribute(mapping) ||
      parser.parseRParen())
    return failure();
  result.addAttribute("threads", mapping);
  return success();
}

static void printThreads(OpAsmPrinter &p, std::optional<Attribute> threads) {
  if (threads && *threads) {
    p << " threads(";
    p.printAttribute(*threads);
    p << ")";
  }
}

ParseResult LoopOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument iv;
  SmallVector<UnresolvedOperand> lbOperands, ubOperands;
  AffineExpr lb, ub;
  if (parser.parseArgument(iv) || parser.parseEqual() ||
      parseControlExpr(parser, lbOperands, lb) || parser.parseKeyword("to") ||
      parseControlExpr(parser, ubOperands, ub) || parseThreads(parser, result))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("tasks")))
    result.addAttribute("tasks", parser.getBuilder().getUnitAttr());
  Builder &b = parser.getBuilder();
  MLIRContext *ctx = parser.getContext();
  result.addAttribute("lowerMap", AffineMapAttr::get(AffineMap::get(
                                      lbOperands.size(), 0, lb, ctx)));
  result.addAttribute("upperMap", AffineMapAttr::get(AffineMap::get(
                                      ubOperands.size(), 0, ub, ctx)));
  if (parser.resolveOperands(lbOperands, b.getIndexType(), result.operands) ||
      parser.resolveOperands(ubOperands, b.getIndexType(), result.operands))
    return failure();
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      b.getDenseI32ArrayAttr({int32_t(lbOperands.size()),
                                              int32_t(ubOperands.size())}));
  iv.type = b.getIndexType();
  if (!ssaName(iv).empty())
    result.addAttribute("iv_name", b.getStringAttr(ssaName(iv)));
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {iv}) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return success();
}

void LoopOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printOperand(getBody().getArgument(0));
  p << " = ";
  printControlExpr(p, getLowerMap().getResult(0), getLowerOperands());
  p << " to ";
  printControlExpr(p, getUpperMap().getResult(0), getUpperOperands());
  printThreads(p, getThreads());
  if (getTasks())
    p << " tasks";
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {"lowerMap", "upperMap", "threads", "tasks",
                            "iv_name", getOperandSegmentSizesAttrName()});
}

LogicalResult LoopOp::verify() {
  if (getLowerMap().getNumResults() != 1 || getUpperMap().getNumResults() != 1)
    return emitOpError() << "each bound is one affine expression";
  if (getLowerMap().getNumDims() != getLowerOperands().size() ||
      getUpperMap().getNumDims() != getUpperOperands().size())
    return emitOpError() << "bound maps and operands disagree";
  Block &body = getBody().front();
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return emitOpError() << "the body takes one index argument";
  if (auto threads = getThreads()) {
    auto tiles = dyn_cast<ArrayAttr>(*threads);
    bool ok = isa<TileAttr>(*threads) ||
              (tiles && llvm::all_of(tiles, [](Attribute a) {
                 return isa<TileAttr>(a);
               }));
    if (!ok)
      return emitOpError() << "a loop's thread mapping is a #amir.tile or a "
                              "list of them";
  }
  if (getTasks() && getThreads())
    return emitOpError() << "a loop over tasks has no thread mapping";
  return success();
}

ParseResult GuardOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  if (succeeded(parser.parseOptionalLParen())) {
    if (parseConditionInto(parser, result) || parser.parseRParen())
      return failure();
  } else {
    // No condition: always.
    result.addAttribute("map",
                        AffineMapAttr::get(AffineMap::get(b.getContext())));
    result.addAttribute("predicates", b.getDenseI32ArrayAttr({}));
  }
  if (parseThreads(parser, result))
    return failure();
  Region *body = result.addRegion();
  Region *elseBody = result.addRegion();
  if (parser.parseRegion(*body, {}))
    return failure();
  if (body->empty())
    body->emplaceBlock();
  if (succeeded(parser.parseOptionalKeyword("else"))) {
    if (parser.parseRegion(*elseBody, {}))
      return failure();
    if (elseBody->empty())
      elseBody->emplaceBlock();
  }
  return parser.parseOptionalAttrDictWithKeyword(result.attributes);
}

void GuardOp::print(OpAsmPrinter &p) {
  if (!getPredicates().empty()) {
    p << " (";
    printCondition(p, getMap(), getOperands(), getPredicates(),
                   getAlternativeSizes());
    p << ")";
  }
  printThreads(p, getThreads());
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
  if (!getElseBody().empty()) {
    p << " else ";
    p.printRegion(getElseBody(), /*printEntryBlockArgs=*/false);
  }
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {"map", "predicates", "threads", "clauses"});
}

LogicalResult GuardOp::verify() {
  if (failed(rake::verifyCondition(*this, getMap(), getOperands().size(),
                             getPredicates(),
                             getAlternativeSizes())))
    return failure();
  if (auto threads = getThreads()) {
    auto slices = dyn_cast<ArrayAttr>(*threads);
    bool ok = isa<DomainAttr, SliceAttr>(*threads) ||
              (slices && llvm::all_of(slices, [](Attribute a) {
                 return isa<SliceAttr>(a);
               }));
    if (!ok)
      return emitOpError() << "a guard's thread mapping is a #amir.domain or "
                              "#amir.slice";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Accesses, checks, synchronization
//===----------------------------------------------------------------------===//

LogicalResult AllocOp::verify() {
  std::optional<AffineMap> extents = getExtents();
  if (!extents)
    return success();
  if (extents->getNumResults() != getShape().size())
    return emitOpError() << "has " << extents->getNumResults()
                         << " extents for a variable of rank "
                         << getShape().size();
  if (extents->getNumDims() != getExtentOperands().size() ||
      extents->getNumSymbols() != 0)
    return emitOpError() << "has an extents map over "
                         << extents->getNumDims() << " values, but "
                         << getExtentOperands().size() << " operands";
  return success();
}

LogicalResult RecordReadOp::verify() {
  return verifyWindow(*this, getIndices(), getMap(), getIntervals());
}
LogicalResult RecordMutateOp::verify() {
  return verifyWindow(*this, getIndices(), getMap(), getIntervals());
}
LogicalResult CheckReadsOp::verify() {
  return verifyWindow(*this, getIndices(), getMap(), getIntervals());
}
LogicalResult CheckMutatesOp::verify() {
  return verifyWindow(*this, getIndices(), getMap(), getIntervals());
}
LogicalResult ArriveOp::verify() {
  return verifyWindow(*this, getIndices(), getMap(), getIntervals());
}
LogicalResult AwaitOp::verify() {
  if (llvm::is_contained(getIntervals(), true))
    return emitOpError() << "awaits one barrier; intervals are for arrives";
  if (getLag() && getOutstanding())
    return emitOpError() << "takes lag(n) or outstanding(n), not both";
  if (getRead() && cast<BarrierType>(getBarrier().getType()).getMechanism() !=
                       gpuir::BarrierMechanism::tma_store_group)
    return emitOpError() << "read waits for the source reads of bulk copies; "
                            "only a tma_store_group has them";
  return verifyWindow(*this, getIndices(), getMap(), getIntervals());
}

#define GET_OP_CLASSES
#include "Rake/Dialect/AMIR/IR/Ops.cpp.inc"
