//===- Syntax.h - the textual syntax shared by Rake's dialects --*- C++ -*-===//
//
// Control expressions are quasi-affine expressions written with SSA names
// (`%task * 256 + %t`). GpuIR and AMIR ops store several of them as one
// affine map over one list of index operands; these helpers read and write
// them, and the other pieces of syntax the dialects share, so every op spells
// them the same way.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_DIALECT_GPUIR_IR_SYNTAX_H
#define RAKE_DIALECT_GPUIR_IR_SYNTAX_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

namespace mlir::rake {

/// Parses one control expression, appending its SSA names to `operands` and
/// numbering its dims after the operands already there.
ParseResult parseControlExpr(OpAsmParser &parser,
                             SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
                             AffineExpr &expr);
void printControlExpr(OpAsmPrinter &p, AffineExpr expr, ValueRange operands);

/// `[c, lo : hi, ...]`: a window's coordinates as one map whose results are,
/// per coordinate, lo (and hi for an interval).
ParseResult parseWindowCoords(OpAsmParser &parser,
                              SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
                              SmallVectorImpl<AffineExpr> &exprs,
                              SmallVectorImpl<bool> &intervals,
                              bool allowIntervals, bool optional);
void printWindowCoords(OpAsmPrinter &p, AffineMap map, ValueRange operands,
                       ArrayRef<bool> intervals);

/// ` active(expr)`, optional: a warp collective's data lanes 0 .. expr - 1
/// (`custom<ActiveLanes>($operands, $map)`; the map has one result).
ParseResult parseActiveLanes(OpAsmParser &parser,
                             SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
                             AffineMapAttr &map);
void printActiveLanes(OpAsmPrinter &p, Operation *op, OperandRange operands,
                      AffineMapAttr map);

/// ` >> %bar[coords]`: an instruction's trailing barrier, for use as
/// `custom<TrailingBarrier>($barrier, $indices, $map, $intervals)`.
ParseResult parseTrailingBarrier(
    OpAsmParser &parser, OpAsmParser::UnresolvedOperand &barrier,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &indices,
    AffineMapAttr &map, DenseBoolArrayAttr &intervals);
void printTrailingBarrier(OpAsmPrinter &p, Operation *op, Value barrier,
                          OperandRange indices, AffineMapAttr map,
                          DenseBoolArrayAttr intervals);

/// A condition: comparisons of control expressions combined with `and`,
/// `or`, `not` and parentheses, kept as an `or` of `and`s. Each comparison
/// is a (lhs, rhs) pair of results of one map and a predicate; `clauses`
/// gives the number of comparisons in each alternative, in order (empty:
/// one alternative, a plain conjunction). `a < b and c == d or e >= f` has
/// clauses [2, 1]; `not` is pushed into the comparisons (`not (a == b)` is
/// `a < b or a > b`).
ParseResult parseCondition(OpAsmParser &parser,
                           SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
                           SmallVectorImpl<AffineExpr> &exprs,
                           SmallVectorImpl<int32_t> &predicates,
                           SmallVectorImpl<int32_t> &clauses);
void printCondition(OpAsmPrinter &p, AffineMap map, ValueRange operands,
                    ArrayRef<int32_t> predicates, ArrayRef<int32_t> clauses);
/// Parses a condition into an op being parsed: its `map`, `predicates` and
/// (with more than one alternative) `clauses` attributes and its index
/// operands, as gpuir.if and amir.guard hold them.
ParseResult parseConditionInto(OpAsmParser &parser, OperationState &result);
/// The [begin, end) comparisons of each alternative of a condition.
SmallVector<std::pair<unsigned, unsigned>>
conditionAlternatives(ArrayRef<int32_t> predicates, ArrayRef<int32_t> clauses);
/// A control expression's value at integer dims, without building
/// expressions (AffineMap::compose uniques every intermediate): floordiv,
/// ceildiv and mod round as affine maps do (a zero divisor gives 0).
int64_t evaluateControlExpr(AffineExpr e, ArrayRef<int64_t> dims);
/// The first divisor of a floordiv, ceildiv or mod in `e` that is not a
/// positive constant (control expressions are quasi-affine), or null.
AffineExpr nonPositiveDivisor(AffineExpr e);
/// Whether `l pred r`, and whether a condition holds for its map's values
/// (two per comparison).
bool comparisonHolds(int32_t predicate, int64_t l, int64_t r);
bool conditionHolds(ArrayRef<int32_t> predicates, ArrayRef<int32_t> clauses,
                    ArrayRef<int64_t> values);
/// The checks the ops with a condition share: two map results per
/// comparison, known predicates, clauses that add up.
LogicalResult verifyCondition(Operation *op, AffineMap map,
                              unsigned numOperands,
                              ArrayRef<int32_t> predicates,
                              ArrayRef<int32_t> clauses);

/// `@name(%n: index, ...) attributes {...} { body }`: a procedure whose body
/// may be empty (`{}` still has the entry block holding the parameters).
/// The parameters' SSA names are kept in `argNamesName` so that printing
/// (and diagnostics) use them again.
ParseResult parseProcedure(OpAsmParser &parser, OperationState &result,
                           StringAttr typeAttrName, StringAttr argAttrsName,
                           StringAttr resAttrsName, StringAttr argNamesName);
void printProcedure(OpAsmPrinter &p, FunctionOpInterface op,
                    ArrayRef<StringRef> elided);
/// Names a block's arguments from a list of strings (empty: no name).
void nameArguments(Block &block, ArrayAttr names, OpAsmSetValueNameFn setName);
/// The name a parsed SSA value had (`%task` -> "task"), or an empty string.
StringRef ssaName(const OpAsmParser::Argument &arg);

/// `a | b | c`: a set of qualitative timelines, or `none`.
ParseResult parseQualSet(OpAsmParser &parser, gpuir::QualTimelineAttr &attr);
void printQualSet(OpAsmPrinter &p, Operation *, gpuir::QualTimelineAttr attr);

} // namespace mlir::rake

#endif // RAKE_DIALECT_GPUIR_IR_SYNTAX_H
