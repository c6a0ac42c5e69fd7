//===- GpuIRDialect.cpp - GpuIR dialect, attributes and types -------------===//

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::rake::gpuir;

#include "Rake/Dialect/GpuIR/IR/Dialect.cpp.inc"
#include "Rake/Dialect/GpuIR/IR/Enums.cpp.inc"
#include "Rake/Dialect/GpuIR/IR/AttrInterfaces.cpp.inc"
#include "Rake/Dialect/GpuIR/IR/OpInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Rake/Dialect/GpuIR/IR/Attrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "Rake/Dialect/GpuIR/IR/Types.cpp.inc"

void GpuIRDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "Rake/Dialect/GpuIR/IR/Ops.cpp.inc"
      >();
}

void GpuIRDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Rake/Dialect/GpuIR/IR/Attrs.cpp.inc"
      >();
}

void GpuIRDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "Rake/Dialect/GpuIR/IR/Types.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// CollSize
//===----------------------------------------------------------------------===//

llvm::hash_code mlir::rake::gpuir::hash_value(const CollSize &s) {
  return llvm::hash_combine(s.num, s.den, s.blockDimPow, s.clusterDimPow,
                            s.agnostic);
}

std::optional<int64_t> CollSize::evaluate(int64_t blockDim,
                                          int64_t clusterDim) const {
  if (agnostic)
    return std::nullopt;
  int64_t n = num;
  for (unsigned i = 0; i < blockDimPow; ++i)
    n *= blockDim;
  for (unsigned i = 0; i < clusterDimPow; ++i)
    n *= clusterDim;
  if (n % den != 0)
    return std::nullopt;
  return n / den;
}

static CollSize normalized(CollSize s) {
  int64_t g = std::gcd(s.num, s.den);
  if (g > 1) {
    s.num /= g;
    s.den /= g;
  }
  return s;
}

CollSize CollSize::operator*(int64_t k) const {
  CollSize r = *this;
  r.num *= k;
  return normalized(r);
}

CollSize CollSize::divided(int64_t k) const {
  CollSize r = *this;
  r.den *= k;
  return normalized(r);
}

static void printCollSize(AsmPrinter &printer, const CollSize &s) {
  if (s.agnostic) {
    printer << "*";
    return;
  }
  SmallVector<std::string> factors;
  for (unsigned i = 0; i < s.clusterDimPow; ++i)
    factors.push_back("clusterDim");
  for (unsigned i = 0; i < s.blockDimPow; ++i)
    factors.push_back("blockDim");
  if (s.num != 1 || factors.empty())
    factors.push_back(std::to_string(s.num));
  printer << llvm::join(factors, " * ");
  if (s.den != 1)
    printer << " / " << s.den;
}

static FailureOr<CollSize> parseCollSize(AsmParser &parser) {
  if (succeeded(parser.parseOptionalStar()))
    return CollSize::any();
  CollSize s = CollSize::constant(1);
  do {
    int64_t k;
    OptionalParseResult intResult = parser.parseOptionalInteger(k);
    if (intResult.has_value()) {
      if (failed(*intResult))
        return failure();
      if (k <= 0)
        return parser.emitError(parser.getCurrentLocation(),
                                "collective sizes are positive"),
               failure();
      s.num *= k;
      continue;
    }
    StringRef name;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&name))
      return failure();
    if (name == "blockDim")
      ++s.blockDimPow;
    else if (name == "clusterDim")
      ++s.clusterDimPow;
    else
      return parser.emitError(loc, "unknown collective size '")
                 << name << "'; expected an integer, 'blockDim' or 'clusterDim'",
             failure();
  } while (succeeded(parser.parseOptionalStar()));
  if (succeeded(parser.parseOptionalSlash())) {
    int64_t d;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseInteger(d))
      return failure();
    if (d <= 0)
      return parser.emitError(loc, "collective size divisor must be positive"),
             failure();
    s.den = d;
  }
  return normalized(s);
}

//===----------------------------------------------------------------------===//
// CollTypeAttr
//===----------------------------------------------------------------------===//

static ParseResult parseCollSizeList(AsmParser &parser,
                                     SmallVectorImpl<CollSize> &sizes) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        FailureOr<CollSize> s = parseCollSize(parser);
        if (failed(s))
          return failure();
        sizes.push_back(*s);
        return success();
      });
}

static void printCollSizeList(AsmPrinter &printer, ArrayRef<CollSize> sizes) {
  printer << "[";
  llvm::interleave(
      sizes, printer, [&](const CollSize &s) { printCollSize(printer, s); },
      ", ");
  printer << "]";
}

Attribute CollTypeAttr::parse(AsmParser &parser, Type) {
  SmallVector<CollSize> domain, box;
  if (parser.parseLess() || parser.parseKeyword("domain") ||
      parseCollSizeList(parser, domain) || parser.parseKeyword("box") ||
      parseCollSizeList(parser, box) || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), domain, box);
}

void CollTypeAttr::print(AsmPrinter &printer) const {
  printer << "<domain ";
  printCollSizeList(printer, getDomain());
  printer << " box ";
  printCollSizeList(printer, getBox());
  printer << ">";
}

LogicalResult CollTypeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ArrayRef<CollSize> domain,
                                   ArrayRef<CollSize> box) {
  if (domain.empty())
    return emitError() << "collective type needs at least one dimension";
  if (domain.size() != box.size())
    return emitError() << "collective type has a domain of " << domain.size()
                       << " dimensions but a box of " << box.size()
                       << "; they must have the same number";
  for (const CollSize &s : domain)
    if (s.agnostic)
      return emitError()
             << "'*' is allowed in a collective type's box, not its domain";
  return success();
}

//===----------------------------------------------------------------------===//
// CollUnitAttr
//===----------------------------------------------------------------------===//

static bool isStrided(CollUnitKind kind) {
  return kind == CollUnitKind::cta_in_cluster_strided ||
         kind == CollUnitKind::warp_in_cluster_strided;
}

Attribute CollUnitAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  int64_t scale = 1, stride = 0;
  OptionalParseResult scaled = parser.parseOptionalInteger(scale);
  if (scaled.has_value() && (failed(*scaled) || parser.parseKeyword("x")))
    return {};
  SMLoc kindLoc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseKeyword(&name))
    return {};
  // `cta` is the CTA of its cluster (of one CTA without clusters).
  std::optional<CollUnitKind> kind =
      name == "cta" ? CollUnitKind::cta_in_cluster : symbolizeCollUnitKind(name);
  if (!kind) {
    parser.emitError(kindLoc, "unknown collective unit '")
        << name
        << "'; expected thread, quadpair, warp, warpgroup, cta_in_cluster (or "
           "cta), "
           "cluster, warp_in_cluster, cta_in_cluster_strided(n) or "
           "warp_in_cluster_strided(n)";
    return {};
  }
  if (isStrided(*kind)) {
    if (parser.parseLParen() || parser.parseInteger(stride) ||
        parser.parseRParen())
      return {};
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(kindLoc); },
                    parser.getContext(), *kind, scale, stride);
}

void CollUnitAttr::print(AsmPrinter &printer) const {
  printer << "<";
  if (getScale() != 1)
    printer << getScale() << " x ";
  printer << stringifyCollUnitKind(getKind());
  if (isStrided(getKind()))
    printer << "(" << getStride() << ")";
  printer << ">";
}

LogicalResult CollUnitAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   CollUnitKind kind, int64_t scale,
                                   int64_t stride) {
  if (scale < 1)
    return emitError() << "collective unit scale must be positive, found "
                       << scale;
  if (kind == CollUnitKind::quadpair && scale != 1)
    return emitError() << "quadpair cannot be scaled";
  if (isStrided(kind) && stride < 1)
    return emitError() << stringifyCollUnitKind(kind)
                       << " needs a positive CTA stride, found " << stride;
  if (!isStrided(kind) && stride != 0)
    return emitError() << stringifyCollUnitKind(kind) << " takes no stride";
  return success();
}

CollTypeAttr CollUnitAttr::getCollType() const {
  CollSize bd = CollSize::blockDim(), cd = CollSize::clusterDim();
  CollSize one = CollSize::constant(1);
  auto cluster = CollSize{1, 1, 1, 1, false};
  SmallVector<CollSize> domain, box;
  int64_t k = getScale();
  switch (getKind()) {
  case CollUnitKind::thread:
    domain = {bd};
    box = {one * k};
    break;
  case CollUnitKind::quadpair:
    domain = {bd.divided(16), CollSize::constant(16)};
    box = {CollSize::constant(2), CollSize::constant(4)};
    break;
  case CollUnitKind::warp:
    domain = {bd};
    box = {CollSize::constant(32) * k};
    break;
  case CollUnitKind::warpgroup:
    domain = {bd};
    box = {CollSize::constant(128) * k};
    break;
  case CollUnitKind::cta_in_cluster:
    domain = {cluster};
    box = {bd * k};
    break;
  case CollUnitKind::cluster:
    domain = {cluster};
    box = {cluster * k};
    break;
  case CollUnitKind::warp_in_cluster:
    domain = {cd, bd};
    box = {one * k, CollSize::constant(32)};
    break;
  case CollUnitKind::cta_in_cluster_strided:
    domain = {cd.divided(getStride()), CollSize::constant(getStride()), bd};
    box = {one * k, one, bd};
    break;
  case CollUnitKind::warp_in_cluster_strided:
    domain = {cd.divided(getStride()), CollSize::constant(getStride()), bd};
    box = {one * k, one, CollSize::constant(32)};
    break;
  }
  return CollTypeAttr::get(getContext(), domain, box);
}

std::optional<int64_t> CollUnitAttr::getNumThreads(int64_t blockDim,
                                                   int64_t clusterDim) const {
  int64_t n = 1;
  for (const CollSize &s : getCollType().getBox()) {
    std::optional<int64_t> v = s.evaluate(blockDim, clusterDim);
    if (!v)
      return std::nullopt;
    n *= *v;
  }
  return n;
}

//===----------------------------------------------------------------------===//
// TileOpAttr
//===----------------------------------------------------------------------===//

Attribute TileOpAttr::parse(AsmParser &parser, Type) {
  int64_t level = 0, dim = 0, offset = 0, step = 0, box = 0, count = 0,
          div = 1, mod = 0;
  if (parser.parseLess())
    return {};
  if (succeeded(parser.parseOptionalKeyword("level"))) {
    // The keyword form.
    auto field = [&](StringRef name, int64_t &v) {
      return parser.parseKeyword(name) || parser.parseEqual() ||
             parser.parseInteger(v);
    };
    if (parser.parseEqual() || parser.parseInteger(level) ||
        parser.parseComma() || field("dim", dim) || parser.parseComma() ||
        field("offset", offset) || parser.parseComma() ||
        field("step", step) || parser.parseComma() || field("box", box) ||
        parser.parseComma() || field("count", count))
      return {};
    while (succeeded(parser.parseOptionalComma())) {
      StringRef name;
      if (parser.parseKeyword(&name) || parser.parseEqual())
        return {};
      if (name != "div" && name != "mod") {
        parser.emitError(parser.getCurrentLocation(), "expected div or mod");
        return {};
      }
      if (parser.parseInteger(name == "div" ? div : mod))
        return {};
    }
  } else {
    // The compact form: LEVEL: dDIM COUNT x BOX [step S] [offset O] ...
    StringRef dimWord;
    SMLoc at = parser.getCurrentLocation();
    if (parser.parseInteger(level) || parser.parseColon() ||
        parser.parseKeyword(&dimWord))
      return {};
    if (!dimWord.consume_front("d") || dimWord.getAsInteger(10, dim)) {
      parser.emitError(at, "expected the dimension as dN, e.g. d0");
      return {};
    }
    if (parser.parseInteger(count) || parser.parseKeyword("x") ||
        parser.parseInteger(box))
      return {};
    step = box;
    while (succeeded(parser.parseOptionalComma())) {
      StringRef name;
      at = parser.getCurrentLocation();
      if (parser.parseKeyword(&name))
        return {};
      int64_t *slot = name == "step"     ? &step
                      : name == "offset" ? &offset
                      : name == "div"    ? &div
                      : name == "mod"    ? &mod
                                         : nullptr;
      if (!slot) {
        parser.emitError(at, "expected step, offset, div or mod");
        return {};
      }
      if (parser.parseInteger(*slot))
        return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return get(parser.getContext(), level, dim, offset, step, box, count, div,
             mod);
}

void TileOpAttr::print(AsmPrinter &printer) const {
  printer << "<" << getLevel() << ": d" << getDim() << " " << getCount()
          << " x " << getBox();
  if (getStep() != getBox())
    printer << ", step " << getStep();
  if (getOffset() != 0)
    printer << ", offset " << getOffset();
  if (getDiv() != 1)
    printer << ", div " << getDiv();
  if (getMod() != 0)
    printer << ", mod " << getMod();
  printer << ">";
}

//===----------------------------------------------------------------------===//
// ShardingAttr
//===----------------------------------------------------------------------===//

/// `#gpuir.sharding<whole>`, or `#gpuir.sharding<owner = d0 * 256 + d1>`:
/// the copy at index (d0, d1, ...) of the distributed dimensions belongs to
/// the threads from natural thread index 256 d0 + d1 of copy 0's owner on.
/// (`<[256, 1]>`, the pitches alone, is read too.)
Attribute ShardingAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> pitches;
  if (parser.parseLess())
    return {};
  if (succeeded(parser.parseOptionalKeyword("whole")))
    return parser.parseGreater() ? Attribute()
                                 : get(parser.getContext(), pitches);
  if (succeeded(parser.parseOptionalLSquare())) {
    if (failed(parser.parseOptionalRSquare()) &&
        (parser.parseCommaSeparatedList([&]() -> ParseResult {
          return parser.parseInteger(pitches.emplace_back());
        }) ||
         parser.parseRSquare()))
      return {};
    if (parser.parseGreater())
      return {};
    return get(parser.getContext(), pitches);
  }
  if (failed(parser.parseOptionalKeyword("owner"))) {
    parser.emitError(parser.getCurrentLocation())
        << "expected 'whole', 'owner = d0 * PITCH + ...' or a list of "
           "pitches";
    return {};
  }
  if (parser.parseEqual())
    return {};
  do {
    SMLoc loc = parser.getCurrentLocation();
    StringRef dim;
    unsigned k = 0;
    if (failed(parser.parseOptionalKeyword(&dim)) || !dim.consume_front("d") ||
        dim.getAsInteger(10, k) || k != pitches.size() ||
        dim != std::to_string(k)) {
      parser.emitError(loc) << "expected d" << pitches.size()
                            << ": the owner is a sum over the distributed "
                               "dimensions d0, d1, ... in order, each times "
                               "its thread pitch";
      return {};
    }
    int64_t pitch = 1;
    if (succeeded(parser.parseOptionalStar()) && parser.parseInteger(pitch))
      return {};
    pitches.push_back(pitch);
  } while (succeeded(parser.parseOptionalPlus()));
  if (parser.parseGreater())
    return {};
  return get(parser.getContext(), pitches);
}

void ShardingAttr::print(AsmPrinter &printer) const {
  if (getPitches().empty()) {
    printer << "<whole>";
    return;
  }
  printer << "<owner = ";
  for (auto [k, pitch] : llvm::enumerate(getPitches())) {
    printer << (k ? " + " : "") << "d" << k;
    if (pitch != 1)
      printer << " * " << pitch;
  }
  printer << ">";
}

//===----------------------------------------------------------------------===//
// Memory types
//===----------------------------------------------------------------------===//

namespace {
struct MemoryTraits {
  StringRef name;
  std::optional<CollUnitKind> unit;
  bool onHost, deviceVisible, hostVisible, shared, exempt, dynamic;
};
} // namespace

#define RAKE_MEMORY_TYPE(CLASS, NAME, UNIT, ONHOST, DEV, HOST, SHARED, EXEMPT, \
                         DYN)                                                  \
  static const MemoryTraits &traitsOf(CLASS) {                                 \
    static const MemoryTraits t{NAME, UNIT, ONHOST, DEV, HOST, SHARED, EXEMPT, \
                                DYN};                                          \
    return t;                                                                  \
  }                                                                            \
  StringRef CLASS::getMemoryName() const { return traitsOf(*this).name; }      \
  Attribute CLASS::getNativeUnit() const {                                     \
    auto u = traitsOf(*this).unit;                                             \
    return u ? CollUnitAttr::get(getContext(), *u, 1, 0) : Attribute();        \
  }                                                                            \
  bool CLASS::isAllocatedOnHost() const { return traitsOf(*this).onHost; }     \
  bool CLASS::isDeviceVisible() const { return traitsOf(*this).deviceVisible; }\
  bool CLASS::isHostVisible() const { return traitsOf(*this).hostVisible; }    \
  bool CLASS::isSharedMemory() const { return traitsOf(*this).shared; }        \
  bool CLASS::isSyncExempt() const { return traitsOf(*this).exempt; }          \
  bool CLASS::allowsDynamicShape() const { return traitsOf(*this).dynamic; }

// clang-format off
//               class               name             native unit                          host   dev    hostvis shared exempt dynamic
RAKE_MEMORY_TYPE(HostAttr,           "host",          std::nullopt,                        true,  false, true,   false, false, true)
RAKE_MEMORY_TYPE(GmemAttr,           "gmem",          std::nullopt,                        true,  true,  false,  false, false, true)
RAKE_MEMORY_TYPE(GmemAtomic16Attr,   "gmem_atomic16", std::nullopt,                        true,  true,  false,  false, false, true)
RAKE_MEMORY_TYPE(SmemAttr,           "smem",          CollUnitKind::cta_in_cluster,        false, true,  false,  true,  false, false)
RAKE_MEMORY_TYPE(SmemAtomic16Attr,   "smem_atomic16", CollUnitKind::cta_in_cluster,        false, true,  false,  true,  false, false)
RAKE_MEMORY_TYPE(SmemSwizzledAttr,   "smem_swizzled", CollUnitKind::cta_in_cluster,        false, true,  false,  true,  false, false)
RAKE_MEMORY_TYPE(RmemAttr,           "rmem",          CollUnitKind::thread,                false, true,  false,  false, false, false)
RAKE_MEMORY_TYPE(UniformRmemAttr,    "urmem",         CollUnitKind::warp,                  false, true,  false,  false, false, false)
RAKE_MEMORY_TYPE(GridConstantAttr,   "grid_constant", std::nullopt,                        true,  true,  true,   false, true,  false)
// clang-format on
#undef RAKE_MEMORY_TYPE

LogicalResult
SmemSwizzledAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         int64_t bytes) {
  if (bytes != 32 && bytes != 64 && bytes != 128)
    return emitError() << "shared-memory swizzle must be 32, 64 or 128 bytes, "
                          "found "
                       << bytes;
  return success();
}

//===----------------------------------------------------------------------===//
// WarpGroupAttr
//===----------------------------------------------------------------------===//

Attribute WarpGroupAttr::parse(AsmParser &parser, Type) {
  std::string name;
  int64_t count = 0, regs = 0;
  RegisterChange change = RegisterChange::none;
  if (parser.parseLess() || parser.parseString(&name) || parser.parseEqual() ||
      parser.parseInteger(count))
    return {};
  if (succeeded(parser.parseOptionalKeyword("dec")))
    change = RegisterChange::dec;
  else if (succeeded(parser.parseOptionalKeyword("inc")))
    change = RegisterChange::inc;
  if (change != RegisterChange::none &&
      (parser.parseLParen() || parser.parseInteger(regs) ||
       parser.parseRParen()))
    return {};
  if (parser.parseGreater())
    return {};
  return get(parser.getContext(), StringAttr::get(parser.getContext(), name),
             count, change, regs);
}

void WarpGroupAttr::print(AsmPrinter &printer) const {
  printer << "<\"" << getName().getValue() << "\" = " << getCount();
  if (getChange() != RegisterChange::none)
    printer << " " << stringifyRegisterChange(getChange()) << "("
            << getRegisters() << ")";
  printer << ">";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

bool mlir::rake::gpuir::isCommitGroup(BarrierMechanism m) {
  return m == BarrierMechanism::cp_async_group ||
         m == BarrierMechanism::tma_store_group ||
         m == BarrierMechanism::wgmma_group;
}

std::optional<SyncTimeline>
mlir::rake::gpuir::getCommitGroupTimeline(BarrierMechanism m) {
  switch (m) {
  case BarrierMechanism::cp_async_group:
    return SyncTimeline::Sm80_cp_async;
  case BarrierMechanism::tma_store_group:
    return SyncTimeline::tma_to_gmem_async;
  case BarrierMechanism::wgmma_group:
    return SyncTimeline::wgmma_async;
  default:
    return std::nullopt;
  }
}

bool BarrierType::isCommitGroup() const {
  return gpuir::isCommitGroup(getMechanism());
}

bool BarrierType::isMbarrier() const {
  return getMechanism() == BarrierMechanism::mbarrier ||
         getMechanism() == BarrierMechanism::mbarrier_prearrive;
}

LogicalResult BarrierType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  BarrierMechanism mechanism,
                                  ArrayRef<int64_t> shape) {
  for (int64_t d : shape)
    if (d < 1)
      return emitError() << "barrier array dimensions must be positive, found "
                         << d;
  return success();
}
