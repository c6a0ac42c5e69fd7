//===- Conditions.cpp - the conditions of gpuir.if and amir.guard ---------===//
//
// Conditions (Syntax.h): comparisons of control expressions combined with
// `and`, `or`, `not` and parentheses, kept as an `or` of `and`s; their
// parser, printer, evaluator and verifier, which GpuIR's and AMIR's ops
// with a condition share.
//
//===----------------------------------------------------------------------===//

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

using UnresolvedOperand = OpAsmParser::UnresolvedOperand;

namespace {

struct Comparison {
  AffineExpr lhs, rhs;
  CmpPredicate pred;
};
/// A condition as an `or` of `and`s of comparisons.
using Alternatives = SmallVector<SmallVector<Comparison, 2>, 2>;
/// The most alternatives a condition may have once written as an `or` of
/// `and`s (`not` and `and` over `or`s multiply them).
constexpr size_t kMaxAlternatives = 64;

/// Conditions: `or` of `and` of factors, a factor being `not` factor, a
/// parenthesized condition, or a comparison of two control expressions.
/// A `(` may open a condition or an expression (`(%t floordiv 32) * 16 <
/// %n`); which one is known after what it holds, so expressions are parsed
/// here too, with the precedence of affine expressions.
class ConditionParser {
public:
  ConditionParser(OpAsmParser &parser,
                  SmallVectorImpl<UnresolvedOperand> &operands)
      : parser(parser), operands(operands) {}

  ParseResult parseCondition(Alternatives &out) {
    if (parseConjunction(out))
      return failure();
    return parseOrRest(out);
  }

private:
  InFlightDiagnostic error(SMLoc loc, const Twine &message) {
    return parser.emitError(loc, message);
  }

  ParseResult tooMany(SMLoc loc) {
    return error(loc, "this condition has more than " +
                          Twine(kMaxAlternatives) +
                          " alternatives once written as an 'or' of 'and's; "
                          "split it into nested gpuir.if");
  }

  ParseResult both(Alternatives &a, const Alternatives &b, SMLoc loc) {
    Alternatives out;
    for (auto &x : a)
      for (auto &y : b) {
        out.push_back(x);
        out.back().append(y.begin(), y.end());
      }
    if (out.size() > kMaxAlternatives)
      return tooMany(loc);
    a = std::move(out);
    return success();
  }

  ParseResult either(Alternatives &a, const Alternatives &b, SMLoc loc) {
    a.append(b.begin(), b.end());
    if (a.size() > kMaxAlternatives)
      return tooMany(loc);
    return success();
  }

  /// not (A or B) = not A and not B; not (a and b) = not a or not b.
  ParseResult negate(Alternatives &a, SMLoc loc) {
    Alternatives out{{}};
    for (auto &alt : a) {
      Alternatives any;
      for (const Comparison &c : alt) {
        auto opposite = [&](CmpPredicate p) {
          any.push_back({{c.lhs, c.rhs, p}});
        };
        switch (c.pred) {
        case CmpPredicate::eq:
          opposite(CmpPredicate::lt);
          opposite(CmpPredicate::gt);
          break;
        case CmpPredicate::lt:
          opposite(CmpPredicate::ge);
          break;
        case CmpPredicate::le:
          opposite(CmpPredicate::gt);
          break;
        case CmpPredicate::gt:
          opposite(CmpPredicate::le);
          break;
        case CmpPredicate::ge:
          opposite(CmpPredicate::lt);
          break;
        }
      }
      if (both(out, any, loc))
        return failure();
    }
    a = std::move(out);
    return success();
  }

  ParseResult parseOrRest(Alternatives &out) {
    while (true) {
      SMLoc loc = parser.getCurrentLocation();
      if (failed(parser.parseOptionalKeyword("or")))
        return success();
      Alternatives next;
      if (parseConjunction(next) || either(out, next, loc))
        return failure();
    }
  }

  ParseResult parseAndRest(Alternatives &out) {
    while (true) {
      SMLoc loc = parser.getCurrentLocation();
      if (failed(parser.parseOptionalKeyword("and")))
        return success();
      Alternatives next;
      if (parseFactor(next) || both(out, next, loc))
        return failure();
    }
  }

  ParseResult parseConjunction(Alternatives &out) {
    return failure(parseFactor(out) || parseAndRest(out));
  }

  ParseResult parseFactor(Alternatives &out) {
    SMLoc loc = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalKeyword("not")))
      return failure(parseFactor(out) || negate(out, loc));
    AffineExpr e;
    if (succeeded(parser.parseOptionalLParen())) {
      bool isCondition;
      if (parseGroup(isCondition, out, e))
        return failure();
      if (isCondition)
        return success();
      if (parseMulRest(e) || parseAddRest(e))
        return failure();
    } else if (parseExpr(e)) {
      return failure();
    }
    return parseComparison(e, out);
  }

  /// After `(`, up to and including `)`: a condition or an expression.
  ParseResult parseGroup(bool &isCondition, Alternatives &cond,
                         AffineExpr &expr) {
    isCondition = true;
    SMLoc loc = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalKeyword("not"))) {
      if (parseFactor(cond) || negate(cond, loc) || parseAndRest(cond) ||
          parseOrRest(cond))
        return failure();
      return parser.parseRParen();
    }
    AffineExpr e;
    if (succeeded(parser.parseOptionalLParen())) {
      bool inner;
      if (parseGroup(inner, cond, e))
        return failure();
      if (inner) {
        if (parseAndRest(cond) || parseOrRest(cond))
          return failure();
        return parser.parseRParen();
      }
      if (parseMulRest(e) || parseAddRest(e))
        return failure();
    } else if (parseExpr(e)) {
      return failure();
    }
    if (succeeded(parser.parseOptionalRParen())) {
      isCondition = false;
      expr = e;
      return success();
    }
    if (parseComparison(e, cond) || parseAndRest(cond) || parseOrRest(cond))
      return failure();
    return parser.parseRParen();
  }

  ParseResult parseComparison(AffineExpr lhs, Alternatives &out) {
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
      return error(predLoc, "expected a comparison: <, <=, >, >= or ==");
    AffineExpr rhs;
    if (parseExpr(rhs))
      return failure();
    out = {{{lhs, rhs, pred}}};
    return success();
  }

  ParseResult parseExpr(AffineExpr &e) {
    return failure(parseTerm(e) || parseAddRest(e));
  }

  ParseResult parseAddRest(AffineExpr &e) {
    while (true) {
      bool plus = succeeded(parser.parseOptionalPlus());
      if (!plus && failed(parser.parseOptionalMinus()))
        return success();
      AffineExpr t;
      if (parseTerm(t))
        return failure();
      e = plus ? e + t : e - t;
    }
  }

  ParseResult parseTerm(AffineExpr &e) {
    return failure(parseUnary(e) || parseMulRest(e));
  }

  ParseResult parseMulRest(AffineExpr &e) {
    while (true) {
      SMLoc loc = parser.getCurrentLocation();
      enum { Mul, FloorDiv, CeilDiv, Mod } op;
      if (succeeded(parser.parseOptionalStar()))
        op = Mul;
      else if (succeeded(parser.parseOptionalKeyword("floordiv")))
        op = FloorDiv;
      else if (succeeded(parser.parseOptionalKeyword("ceildiv")))
        op = CeilDiv;
      else if (succeeded(parser.parseOptionalKeyword("mod")))
        op = Mod;
      else
        return success();
      AffineExpr r;
      if (parseUnary(r))
        return failure();
      auto c = dyn_cast<AffineConstantExpr>(r);
      if (op == Mul) {
        if (!c && !isa<AffineConstantExpr>(e))
          return error(loc, "a product in a condition needs a constant "
                            "factor: control expressions are affine");
        e = e * r;
        continue;
      }
      if (!c || c.getValue() <= 0)
        return error(loc, "expected a positive constant after floordiv, "
                          "ceildiv or mod");
      e = op == FloorDiv ? e.floorDiv(r) : op == CeilDiv ? e.ceilDiv(r)
                                                         : e % r;
    }
  }

  ParseResult parseUnary(AffineExpr &e) {
    if (succeeded(parser.parseOptionalMinus())) {
      if (parseUnary(e))
        return failure();
      e = -e;
      return success();
    }
    return parsePrimary(e);
  }

  ParseResult parsePrimary(AffineExpr &e) {
    MLIRContext *ctx = parser.getContext();
    if (succeeded(parser.parseOptionalLParen()))
      return failure(parseExpr(e) || parser.parseRParen());
    int64_t value;
    OptionalParseResult integer = parser.parseOptionalInteger(value);
    if (integer.has_value()) {
      if (failed(*integer))
        return failure();
      e = getAffineConstantExpr(value, ctx);
      return success();
    }
    UnresolvedOperand v;
    OptionalParseResult operand = parser.parseOptionalOperand(v);
    if (!operand.has_value())
      return error(parser.getCurrentLocation(),
                   "expected a control expression: an integer, a control "
                   "value (%name) or a parenthesized expression");
    if (failed(*operand))
      return failure();
    // A name already used keeps its dim (as in parseControlExpr).
    for (auto [i, o] : llvm::enumerate(operands))
      if (o.name == v.name && o.number == v.number) {
        e = getAffineDimExpr(i, ctx);
        return success();
      }
    operands.push_back(v);
    e = getAffineDimExpr(operands.size() - 1, ctx);
    return success();
  }

  OpAsmParser &parser;
  SmallVectorImpl<UnresolvedOperand> &operands;
};

} // namespace

ParseResult mlir::rake::parseCondition(
    OpAsmParser &parser, SmallVectorImpl<UnresolvedOperand> &operands,
    SmallVectorImpl<AffineExpr> &exprs, SmallVectorImpl<int32_t> &preds,
    SmallVectorImpl<int32_t> &clauses) {
  Alternatives alternatives;
  if (ConditionParser(parser, operands).parseCondition(alternatives))
    return failure();
  for (auto &alt : alternatives) {
    for (const Comparison &c : alt) {
      exprs.push_back(c.lhs);
      exprs.push_back(c.rhs);
      preds.push_back(static_cast<int32_t>(c.pred));
    }
    clauses.push_back(alt.size());
  }
  // One alternative is a plain conjunction: no clauses kept.
  if (clauses.size() == 1)
    clauses.clear();
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

SmallVector<std::pair<unsigned, unsigned>>
mlir::rake::conditionAlternatives(ArrayRef<int32_t> predicates,
                                  ArrayRef<int32_t> clauses) {
  SmallVector<std::pair<unsigned, unsigned>> out;
  if (clauses.empty()) {
    out.push_back({0, static_cast<unsigned>(predicates.size())});
    return out;
  }
  unsigned begin = 0;
  for (int32_t n : clauses) {
    out.push_back({begin, begin + n});
    begin += n;
  }
  return out;
}

AffineExpr mlir::rake::nonPositiveDivisor(AffineExpr e) {
  AffineExpr bad;
  e.walk([&](AffineExpr sub) {
    if (bad || (sub.getKind() != AffineExprKind::FloorDiv &&
                sub.getKind() != AffineExprKind::CeilDiv &&
                sub.getKind() != AffineExprKind::Mod))
      return;
    AffineExpr rhs = cast<AffineBinaryOpExpr>(sub).getRHS();
    auto c = dyn_cast<AffineConstantExpr>(rhs);
    if (!c || c.getValue() <= 0)
      bad = rhs;
  });
  return bad;
}

int64_t mlir::rake::evaluateControlExpr(AffineExpr e, ArrayRef<int64_t> dims) {
  switch (e.getKind()) {
  case AffineExprKind::Constant:
    return cast<AffineConstantExpr>(e).getValue();
  case AffineExprKind::DimId:
    return dims[cast<AffineDimExpr>(e).getPosition()];
  case AffineExprKind::SymbolId:
    return 0;
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(e);
  int64_t l = evaluateControlExpr(bin.getLHS(), dims), r = evaluateControlExpr(bin.getRHS(), dims);
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return l + r;
  case AffineExprKind::Mul:
    return l * r;
  case AffineExprKind::Mod:
    return r ? ((l % r) + r) % r : 0;
  case AffineExprKind::FloorDiv:
    return r ? llvm::divideFloorSigned(l, r) : 0;
  case AffineExprKind::CeilDiv:
    return r ? llvm::divideCeilSigned(l, r) : 0;
  default:
    llvm_unreachable("every affine expression kind is handled");
  }
}

bool mlir::rake::comparisonHolds(int32_t predicate, int64_t l, int64_t r) {
  switch (static_cast<CmpPredicate>(predicate)) {
  case CmpPredicate::eq:
    return l == r;
  case CmpPredicate::lt:
    return l < r;
  case CmpPredicate::le:
    return l <= r;
  case CmpPredicate::gt:
    return l > r;
  case CmpPredicate::ge:
    return l >= r;
  }
  return false;
}

bool mlir::rake::conditionHolds(ArrayRef<int32_t> predicates,
                                ArrayRef<int32_t> clauses,
                                ArrayRef<int64_t> values) {
  for (auto [begin, end] : conditionAlternatives(predicates, clauses)) {
    bool all = true;
    for (unsigned i = begin; i < end && all; ++i)
      all = comparisonHolds(predicates[i], values[2 * i], values[2 * i + 1]);
    if (all)
      return true;
  }
  return false;
}

LogicalResult mlir::rake::verifyCondition(Operation *op, AffineMap map,
                                          unsigned numOperands,
                                          ArrayRef<int32_t> predicates,
                                          ArrayRef<int32_t> clauses) {
  if (map.getNumResults() != 2 * predicates.size())
    return op->emitOpError() << "needs two expressions for each comparison";
  if (map.getNumDims() != numOperands)
    return op->emitOpError() << "condition map and operands disagree";
  for (int32_t p : predicates)
    if (!symbolizeCmpPredicate(p))
      return op->emitOpError() << "unknown comparison " << p;
  int64_t sum = 0;
  for (int32_t n : clauses) {
    if (n <= 0)
      return op->emitOpError() << "each alternative of a condition has a "
                                  "comparison";
    sum += n;
  }
  if (!clauses.empty() && sum != static_cast<int64_t>(predicates.size()))
    return op->emitOpError() << "the alternatives of the condition hold "
                             << sum << " comparisons, not "
                             << predicates.size();
  return success();
}

void mlir::rake::printCondition(OpAsmPrinter &p, AffineMap map,
                                ValueRange operands,
                                ArrayRef<int32_t> predicates,
                                ArrayRef<int32_t> clauses) {
  for (auto [k, range] :
       llvm::enumerate(conditionAlternatives(predicates, clauses))) {
    if (k)
      p << " or ";
    for (unsigned i = range.first; i < range.second; ++i) {
      if (i != range.first)
        p << " and ";
      printControlExpr(p, map.getResult(2 * i), operands);
      p << " " << spellPredicate(static_cast<CmpPredicate>(predicates[i]))
        << " ";
      printControlExpr(p, map.getResult(2 * i + 1), operands);
    }
  }
}

ParseResult mlir::rake::parseConditionInto(OpAsmParser &parser,
                                           OperationState &result) {
  SmallVector<UnresolvedOperand> operands;
  SmallVector<AffineExpr> exprs;
  SmallVector<int32_t> preds, clauses;
  if (parseCondition(parser, operands, exprs, preds, clauses))
    return failure();
  Builder &b = parser.getBuilder();
  result.addAttribute("map", AffineMapAttr::get(AffineMap::get(
                                 operands.size(), 0, exprs, b.getContext())));
  result.addAttribute("predicates", b.getDenseI32ArrayAttr(preds));
  if (!clauses.empty())
    result.addAttribute("clauses", b.getDenseI32ArrayAttr(clauses));
  return parser.resolveOperands(operands, b.getIndexType(), result.operands);
}
