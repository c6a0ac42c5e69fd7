//===- GpuIRSyntax.cpp - GpuIR's custom assembly syntax -------------------===//
//
// The textual syntax of GpuIR: the shared pieces declared in Syntax.h
// (control expressions, window coordinates, trailing barriers, conditions,
// procedures, qualitative timeline sets; conditions are in Conditions.cpp),
// the sync timeline keyword of
// GpuIRInternal.h, and the ops' custom parse and print methods and value
// names (getAsmResultNames, getAsmBlockArgumentNames). The ops' verifiers
// are in GpuIRVerifiers.cpp; their builders and accessors in GpuIROps.cpp.
//
//===----------------------------------------------------------------------===//

#include "GpuIRInternal.h"
#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"

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

ParseResult mlir::rake::parseActiveLanes(
    OpAsmParser &parser, SmallVectorImpl<UnresolvedOperand> &operands,
    AffineMapAttr &map) {
  if (failed(parser.parseOptionalKeyword("active")))
    return success();
  AffineExpr e;
  if (parser.parseLParen() || parseControlExpr(parser, operands, e) ||
      parser.parseRParen())
    return failure();
  map = AffineMapAttr::get(
      AffineMap::get(operands.size(), 0, e, parser.getContext()));
  return success();
}

void mlir::rake::printActiveLanes(OpAsmPrinter &p, Operation *,
                                  OperandRange operands, AffineMapAttr map) {
  if (!map)
    return;
  p << "active(";
  printControlExpr(p, map.getValue().getResult(0), operands);
  p << ")";
}

static AffineMap makeMap(OpAsmParser &parser, unsigned numOperands,
                         ArrayRef<AffineExpr> exprs) {
  return AffineMap::get(numOperands, 0, exprs, parser.getContext());
}

//===----------------------------------------------------------------------===//
// ProcOp
//===----------------------------------------------------------------------===//

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
  // `slow`: the loop (and its body) may run matrix products on the CUDA
  // cores (the profile's tensor-core rule).
  if (succeeded(parser.parseOptionalKeyword("slow")))
    result.addAttribute("gpuir.slow", UnitAttr::get(ctx));

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
  if ((*this)->hasAttr("gpuir.slow"))
    p << " slow";
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {"mode", "unit", "lowerMap", "upperMap", "iv_name",
                            "gpuir.slow", getOperandSegmentSizesAttrName()});
}

//===----------------------------------------------------------------------===//
// Qualitative timeline sets and IfOp (its condition: Conditions.cpp)
//===----------------------------------------------------------------------===//

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
  if (parseConditionInto(parser, result))
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
  printCondition(p, getMap(), getOperands(), getPredicates(),
                 getAlternativeSizes());
  p << " ";
  p.printRegion(getThenRegion(), /*printEntryBlockArgs=*/false);
  if (hasElse()) {
    p << " else ";
    p.printRegion(getElseRegion(), /*printEntryBlockArgs=*/false);
  }
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {"map", "predicates", "clauses"});
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

//===----------------------------------------------------------------------===//
// Read, write, reduce
//===----------------------------------------------------------------------===//

/// `fragment(LAYOUT a, b, ...)` after an access's coordinates: adds the
/// row and column that register (a, b, ...) of a tensor-core fragment
/// layout holds to the last two coordinates. Parse-time notation: the op
/// keeps (and prints) the sum.
///   wgmma_d t, j, i      register 4 j + i of thread t (0..127) of a
///                        wgmma accumulator: row 16 (t / 32) + (t mod 32) / 4
///                        + 8 (i / 2), column 8 j + 2 (t mod 4) + i mod 2
///   mma_m16n8_c l, r     register r (0..3) of lane l of an mma.sync
///                        m16n8 accumulator: row l / 4 + 8 (r / 2), column
///                        2 (l mod 4) + r mod 2
static ParseResult parseFragment(OpAsmParser &parser,
                                 SmallVectorImpl<UnresolvedOperand> &operands,
                                 SmallVectorImpl<AffineExpr> &exprs) {
  SMLoc loc = parser.getCurrentLocation();
  if (failed(parser.parseOptionalKeyword("fragment")))
    return success();
  StringRef layout;
  if (parser.parseLParen() || parser.parseKeyword(&layout))
    return failure();
  SmallVector<AffineExpr> args;
  do {
    AffineExpr e;
    if (parseControlExpr(parser, operands, e))
      return failure();
    args.push_back(e);
  } while (succeeded(parser.parseOptionalComma()));
  if (parser.parseRParen())
    return failure();
  AffineExpr row, col;
  if (layout == "wgmma_d" && args.size() == 3) {
    AffineExpr t = args[0], j = args[1], i = args[2];
    row = t.floorDiv(32) * 16 + (t % 32).floorDiv(4) + i.floorDiv(2) * 8;
    col = j * 8 + (t % 4) * 2 + i % 2;
  } else if (layout == "mma_m16n8_c" && args.size() == 2) {
    AffineExpr l = args[0], r = args[1];
    row = l.floorDiv(4) + r.floorDiv(2) * 8;
    col = (l % 4) * 2 + r % 2;
  } else {
    return parser.emitError(loc)
           << "fragment(" << layout << " ...) with " << args.size()
           << " values: the layouts are wgmma_d (thread, j, i: register 4 j "
              "+ i of a wgmma accumulator) and mma_m16n8_c (lane, register "
              "0..3 of an mma.sync m16n8 accumulator)";
  }
  if (exprs.size() < 2)
    return parser.emitError(loc) << "fragment(...) adds a row and a column to "
                                    "the last two coordinates; the access has "
                                 << exprs.size();
  exprs[exprs.size() - 2] = exprs[exprs.size() - 2] + row;
  exprs[exprs.size() - 1] = exprs[exprs.size() - 1] + col;
  // Number the control values in the order they appear in the sums, as
  // parsing the sums written out would: the op is then the same op.
  SmallVector<unsigned> order;
  for (AffineExpr e : exprs)
    e.walk([&](AffineExpr sub) {
      if (auto d = dyn_cast<AffineDimExpr>(sub))
        if (!llvm::is_contained(order, d.getPosition()))
          order.push_back(d.getPosition());
    });
  for (unsigned i = 0; i < operands.size(); ++i)
    if (!llvm::is_contained(order, i))
      order.push_back(i);
  SmallVector<AffineExpr> renumber(operands.size());
  SmallVector<UnresolvedOperand> reordered;
  for (auto [to, from] : llvm::enumerate(order)) {
    renumber[from] = getAffineDimExpr(to, parser.getContext());
    reordered.push_back(operands[from]);
  }
  for (AffineExpr &e : exprs)
    e = e.replaceDims(renumber);
  operands.assign(reordered.begin(), reordered.end());
  return success();
}

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
      parseFragment(parser, indices, exprs) ||
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

ParseResult ReadOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseAccess(parser, result, /*hasValue=*/false, /*hasResult=*/true);
}
void ReadOp::print(OpAsmPrinter &p) {
  printAccess(p, *this, nullptr, getMemref(), getIndices(), getMap());
}

ParseResult WriteOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseAccess(parser, result, /*hasValue=*/true, /*hasResult=*/false);
}
void WriteOp::print(OpAsmPrinter &p) {
  printAccess(p, *this, getValue(), getMemref(), getIndices(), getMap());
}

ParseResult ReduceOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseAccess(parser, result, /*hasValue=*/true, /*hasResult=*/false);
}
void ReduceOp::print(OpAsmPrinter &p) {
  printAccess(p, *this, getValue(), getMemref(), getIndices(), getMap());
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
  SMLoc start = parser.getCurrentLocation();
  if (parser.parseOperand(source) ||
      parseWindowCoords(parser, indices, exprs, intervals,
                        /*allowIntervals=*/true, /*optional=*/false) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(sourceType))
    return failure();
  Builder &b = parser.getBuilder();
  if (succeeded(parser.parseOptionalArrow())) {
    if (parser.parseType(resultType))
      return failure();
  } else if (result.name.getStringRef() == "gpuir.window") {
    // Without `-> type`, the window's type follows from its source and its
    // coordinates: the intervals' extents (static where hi - lo is a
    // constant), the source's strides of those dimensions, a dynamic
    // offset, the same element and memory type.
    if (intervals.size() != static_cast<size_t>(sourceType.getRank()))
      return parser.emitError(start)
             << "the window has " << intervals.size()
             << " coordinates, but its source has rank "
             << sourceType.getRank();
    SmallVector<int64_t> sourceStrides;
    int64_t sourceOffset;
    if (failed(sourceType.getStridesAndOffset(sourceStrides, sourceOffset)))
      return parser.emitError(start,
                              "the window's type cannot be inferred from a "
                              "source without strides; write it after '->'");
    SmallVector<int64_t> shape, strides;
    unsigned r = 0;
    for (auto [d, isInterval] : llvm::enumerate(intervals)) {
      if (isInterval) {
        // Simplified, so that `%n * 512 + 128 : %n * 512 + 256` has the
        // constant extent 128 (the sum's constants are not always folded).
        AffineExpr extent = simplifyAffineExpr(exprs[r + 1] - exprs[r],
                                               indices.size(), 0);
        auto c = dyn_cast<AffineConstantExpr>(extent);
        shape.push_back(c ? c.getValue() : ShapedType::kDynamic);
        strides.push_back(sourceStrides[d]);
      }
      r += isInterval ? 2 : 1;
    }
    resultType = MemRefType::get(
        shape, sourceType.getElementType(),
        StridedLayoutAttr::get(parser.getContext(), ShapedType::kDynamic,
                               strides),
        sourceType.getMemorySpace());
  } else {
    return parser.emitError(start, "expected '->' and the result type");
  }
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

ParseResult WindowOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseWindowLike(parser, result);
}
void WindowOp::print(OpAsmPrinter &p) {
  printWindowLike(p, *this, getSource(), getIndices(), getMap(),
                  getIntervals(), getResult().getType());
}

//===----------------------------------------------------------------------===//
// Synchronization
//===----------------------------------------------------------------------===//

ParseResult mlir::rake::gpuir::parseSyncTimeline(OpAsmParser &parser,
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

void mlir::rake::gpuir::printSyncTimeline(OpAsmPrinter &p, Operation *,
                                          SyncTimelineAttr attr) {
  p << stringifySyncTimeline(attr.getValue());
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
    if (keyword == "read" || keyword == "skip") {
      result.addAttribute(keyword, b.getUnitAttr());
      continue;
    }
    if (keyword != "lag" && keyword != "outstanding")
      return parser.emitError(
                 loc, "expected lag(n), outstanding(n), read or skip, found '")
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
  if (getRead())
    p << ", read";
  if (getSkip())
    p << ", skip";
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {"post", "map", "lag", "outstanding", "read",
                           "skip"});
  p << " : " << getBarrier().getType();
}
