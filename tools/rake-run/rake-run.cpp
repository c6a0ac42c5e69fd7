//===- rake-run.cpp - run a GpuIR procedure --------------------------------===//
//
// Runs one procedure of a GpuIR file on the host, in its sequential meaning
// (`--seq`): the procedure is lowered with convert-gpuir-to-cpu, bounds
// checks are inserted (an out-of-bounds access stops the run with its source
// location), and the result is compiled by MLIR's JIT and called on buffers
// that are read from files or filled by a seeded generator. Each buffer is
// then summarized (checksum), and printed or written out on request. This is
// the reference GPU results are compared with.
//
//===----------------------------------------------------------------------===//

#include "Rake/Analysis/KernelABI.h"
#include "Rake/Conversion/Passes.h"
#include "Rake/Init/InitRake.h"
#include "Rake/Transforms/Passes.h"
#include "Rake/Dialect/AMIR/IR/AMIR.h"
#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "TestInstrs.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <random>
#include <unistd.h>

using namespace mlir;
namespace cl = llvm::cl;

/// The options --help shows (LLVM's own are hidden).
static cl::OptionCategory toolOptions("rake-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input file>"),
                                      cl::init("-"), cl::cat(toolOptions));
static cl::opt<bool> seq("seq",
                         cl::desc("Run the sequential meaning on the host"), cl::cat(toolOptions));
static cl::opt<std::string> procName(
    "proc", cl::desc("The procedure to run (default: the file's only one)"), cl::cat(toolOptions));
static cl::opt<std::string> sizesOpt(
    "sizes",
    cl::desc("Values of the index parameters, e.g. n=1024 (default: the "
             "first entry of the procedure's gpuir.check_sizes)"), cl::cat(toolOptions));
static cl::opt<std::string> shapesOpt(
    "shape", cl::desc("Extents of buffers' dynamic dimensions, e.g. "
                      "A=1024,C=128x64 (each ? of the type, in order)"), cl::cat(toolOptions));
static cl::list<std::string>
    inputs("input", cl::desc("name=file: fill a buffer from a raw binary file "
                             "(little-endian elements, row-major)"), cl::cat(toolOptions));
static cl::opt<unsigned> seed("seed", cl::init(1),
                              cl::desc("Seed of the generated inputs"), cl::cat(toolOptions));
static cl::opt<std::string> outputDir(
    "output-dir", cl::desc("Write each buffer after the run to DIR/name.bin"), cl::cat(toolOptions));
static cl::opt<std::string> saveInputs(
    "save-inputs",
    cl::desc("Write each buffer before the run to DIR/name.bin (the inputs "
             "to give a GPU run of the same procedure)"), cl::cat(toolOptions));
static cl::opt<std::string> launchArgs(
    "launch-args",
    cl::desc("Write the arguments of runtime/launch/rake-launch for a GPU "
             "run of the procedure on the saved inputs to FILE"), cl::cat(toolOptions));
static cl::list<std::string>
    printBuffers("print", cl::desc("Print a buffer's elements after the run"),
                 cl::CommaSeparated, cl::cat(toolOptions));

#if defined(__x86_64__)
/// float to bfloat16, rounding to nearest even (NaNs stay quiet NaNs). The
/// x86 backend copies bfloat16 values through float and calls this libgcc
/// helper where the processor has no bfloat16 instructions; libgcc before
/// GCC 13 lacks it, so the JIT gets this one. _Float16 returns the 16 bits
/// in xmm0, as the helper's ABI does.
static _Float16 truncFloatToBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  uint16_t r = (u & 0x7fffffffu) > 0x7f800000u
                   ? uint16_t((u >> 16) | 0x40u)
                   : uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
  _Float16 h;
  std::memcpy(&h, &r, sizeof h);
  return h;
}
#endif

/// Symbols the JIT-compiled sequential meaning may call that the process
/// need not have.
/// The sites of convert-gpuir-to-cpu's bounds reports: "kind|buffer|
/// file:line:col|loop names".
static std::vector<std::string> &boundsSites() {
  static std::vector<std::string> sites;
  return sites;
}

/// Called by the compiled procedure before an access outside its buffer,
/// with [site, rank, index..., extent..., loop value...]: prints where,
/// which element, which extent and the loop values, and stops the run.
extern "C" void rakeOutOfBounds(int64_t *, int64_t *aligned, int64_t offset,
                                int64_t, int64_t stride) {
  auto at = [&](int64_t k) { return aligned[offset + k * stride]; };
  const std::vector<std::string> &sites = boundsSites();
  int64_t id = at(0), rank = at(1);
  std::string site = id >= 0 && id < (int64_t)sites.size() ? sites[id] : "";
  SmallVector<StringRef> parts;
  StringRef(site).split(parts, '|');
  parts.resize(4);
  std::string index, loops;
  int64_t dim = 0;
  for (int64_t d = 0; d < rank; ++d) {
    index += (d ? ", " : "") + std::to_string(at(2 + d));
    if (at(2 + d) < 0 || at(2 + d) >= at(2 + rank + d))
      dim = dim ? dim : d + 1;
  }
  SmallVector<StringRef> names;
  parts[3].split(names, ',', -1, /*KeepEmpty=*/false);
  for (auto [k, n] : llvm::enumerate(names))
    loops += (k ? ", " : "") + n.str() + " = " +
             std::to_string(at(2 + 2 * rank + k));
  int64_t d = dim - 1;
  llvm::errs() << parts[2] << ": error: out-of-bounds " << parts[0] << " of "
               << parts[1] << "[" << index << "]: index " << at(2 + d)
               << " of dimension " << d << " is outside its extent "
               << at(2 + rank + d);
  if (!loops.empty())
    llvm::errs() << " (" << loops << ")";
  llvm::errs() << "\nrake-run: the procedure stopped before an access out "
                  "of bounds\n";
  llvm::errs().flush();
  fflush(stdout);
  _exit(2);
}

static void registerRuntimeHelpers(ExecutionEngine &engine) {
  engine.registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
#if defined(__x86_64__)
    map[interner("__truncsfbf2")] = {
        llvm::orc::ExecutorAddr::fromPtr(&truncFloatToBf16),
        llvm::JITSymbolFlags::Exported};
#endif
    map[interner("rake_out_of_bounds")] = {
        llvm::orc::ExecutorAddr::fromPtr(&rakeOutOfBounds),
        llvm::JITSymbolFlags::Exported};
    return map;
  });
}

namespace {

struct Buffer {
  std::string name;
  Type elementType;
  unsigned elementBytes;
  SmallVector<int64_t> shape;
  std::vector<char> data;
  SmallVector<int64_t> strides;
  void *ptr;
  int64_t offset = 0;
  int64_t numElements() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
};

/// A failed runtime check (an out-of-bounds access) prints its message and
/// aborts inside the JIT-compiled code; report it as the program's error,
/// not as a crash of rake-run.
extern "C" void onAbort(int) {
  static const char msg[] =
      "rake-run: the procedure stopped at a failed runtime check (above)\n";
  fflush(stdout);
  ssize_t ignored = write(2, msg, sizeof(msg) - 1);
  (void)ignored;
  _exit(2);
}

int fail(const Twine &msg) {
  llvm::errs() << "rake-run: " << msg << "\n";
  return 1;
}

/// Parses "a=1,b=2" into a map; a value may be "128x64".
bool parseAssignments(StringRef text, StringRef what,
                      llvm::StringMap<SmallVector<int64_t>> &out) {
  SmallVector<StringRef> items;
  text.split(items, ',', -1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    auto [key, value] = item.split('=');
    key = key.trim();
    SmallVector<StringRef> parts;
    value.trim().split(parts, 'x');
    SmallVector<int64_t> values;
    for (StringRef p : parts) {
      int64_t v;
      if (p.getAsInteger(10, v)) {
        fail(what + ": expected name=integer[xinteger...], got '" + item + "'");
        return false;
      }
      values.push_back(v);
    }
    if (key.empty() || values.empty()) {
      fail(what + ": expected name=integer, got '" + item + "'");
      return false;
    }
    out[key] = values;
  }
  return true;
}

/// A generated element: floats uniform in [-1, 1), integers in [-8, 8].
void generate(Buffer &b, std::mt19937_64 &rng) {
  int64_t n = b.numElements();
  Type t = b.elementType;
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int64_t> integer(-8, 8);
  for (int64_t i = 0; i < n; ++i) {
    char *p = b.data.data() + i * b.elementBytes;
    if (auto ft = dyn_cast<FloatType>(t)) {
      llvm::APFloat v(real(rng));
      bool lost;
      v.convert(ft.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
                &lost);
      uint64_t bits = v.bitcastToAPInt().getZExtValue();
      std::memcpy(p, &bits, b.elementBytes);
    } else {
      int64_t v = integer(rng);
      if (t.isInteger(1))
        v &= 1;
      std::memcpy(p, &v, b.elementBytes);
    }
  }
}

std::string elementText(const Buffer &b, int64_t i) {
  const char *p = b.data.data() + i * b.elementBytes;
  uint64_t bits = 0;
  std::memcpy(&bits, p, b.elementBytes);
  if (auto ft = dyn_cast<FloatType>(b.elementType)) {
    llvm::APFloat v(ft.getFloatSemantics(),
                    llvm::APInt(64, bits).trunc(ft.getWidth()));
    bool lost;
    v.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    return llvm::formatv("{0:g}", v.convertToDouble()).str();
  }
  unsigned width = b.elementType.getIntOrFloatBitWidth();
  return std::to_string(llvm::APInt(64, bits).trunc(width).getSExtValue());
}

/// FNV-1a over the bytes: equal for equal results, whatever the order of
/// printing.
uint64_t checksum(const Buffer &b) {
  uint64_t h = 1469598103934665603ull;
  for (char c : b.data) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

/// A parameter of the procedure: an index value or a buffer, by position in
/// indexValues or buffers.
struct Param {
  bool isIndex;
  unsigned index;
};

/// Writes the GPU launcher's arguments (scripts/gpu-run.sh): the kernel's
/// launch shape from its ABI, each parameter, then its tensor maps.
int writeLaunchArgs(rake::gpuir::ProcOp proc, const std::string &name,
                    ArrayRef<Param> params, ArrayRef<Buffer> buffers,
                    ArrayRef<int64_t> indexValues) {
  rake::gpuir::DeviceFunctionOp device;
  proc.walk([&](rake::gpuir::DeviceFunctionOp d) { device = d; });
  if (!device)
    return fail("@" + name + " has no device function to launch");
  std::error_code ec;
  llvm::raw_fd_ostream os(launchArgs, ec);
  if (ec)
    return fail("cannot write '" + launchArgs + "': " + ec.message());
  FailureOr<mlir::rake::KernelABI> abi = mlir::rake::kernelABI(proc);
  if (failed(abi))
    return 1;
  os << name << " --block " << abi->block << " --blocks-per-sm "
     << abi->blocksPerSm << " --smem " << abi->dynamicSharedBytes;
  if (abi->cluster > 1)
    os << " --cluster " << abi->cluster;
  for (Param p : params) {
    if (p.isIndex) {
      os << " i:" << indexValues[p.index];
      continue;
    }
    const Buffer &b = buffers[p.index];
    os << " m:" << b.elementType << ":";
    llvm::interleave(b.shape, os, "x");
    os << ":in/" << b.name << ".bin:gpu/" << b.name << ".bin";
  }
  // The tensor maps of the kernel's TMA copies, after the parameters.
  for (const mlir::rake::TensorMapUse &m : abi->tensorMaps)
    os << " t:" << m.arg << ":" << m.rows << "x" << m.cols << ":"
       << m.swizzle;
  os << "\n";
  return 0;
}

/// Keeps only the procedure and those it calls: the others need not have a
/// sequential meaning yet.
void keepReachable(ModuleOp module, rake::gpuir::ProcOp proc,
                   const std::string &name) {
  llvm::StringSet<> reachable;
  SmallVector<rake::gpuir::ProcOp> work = {proc};
  reachable.insert(name);
  while (!work.empty()) {
    rake::gpuir::ProcOp p = work.pop_back_val();
    p.walk([&](rake::gpuir::CallOp call) {
      StringRef callee = call.getCallee();
      if (reachable.insert(callee).second)
        if (auto target = module.lookupSymbol<rake::gpuir::ProcOp>(callee))
          work.push_back(target);
    });
  }
  for (auto p : llvm::to_vector(module.getOps<rake::gpuir::ProcOp>()))
    if (!reachable.contains(p.getSymName()))
      p.erase();

}

/// Lowers the module to the LLVM dialect (the sequential meaning, with
/// bounds checks), compiles it and calls the procedure on the buffers.
int executeSequential(MLIRContext &context, ModuleOp module,
                      const std::string &name, ArrayRef<Param> params,
                      std::vector<Buffer> &buffers,
                      ArrayRef<int64_t> indexValues) {
  // Lower to the LLVM dialect: the sequential meaning, with bounds checks.
  PassManager pm(&context);
  rake::buildGpuIRToLLVMCpuPipeline(pm, /*boundsChecks=*/true,
                                    /*boundsReport=*/true);
  if (failed(pm.run(module)))
    return 1;
  if (auto sites = module->getAttrOfType<ArrayAttr>("rake.bounds_sites"))
    for (Attribute a : sites)
      boundsSites().push_back(cast<StringAttr>(a).str());

  ExecutionEngineOptions options;
  options.transformer = makeOptimizingTransformer(2, 0, nullptr);
  auto engine = ExecutionEngine::create(module, options);
  if (!engine)
    return fail("JIT compilation failed: " + llvm::toString(engine.takeError()));
  registerRuntimeHelpers(**engine);

  // The lowered function takes each memref as (allocated, aligned, offset,
  // sizes..., strides...) and each index as an i64.
  std::vector<std::unique_ptr<int64_t>> scalars;
  SmallVector<void *> args;
  auto scalar = [&](int64_t v) {
    scalars.push_back(std::make_unique<int64_t>(v));
    args.push_back(scalars.back().get());
  };
  for (Param p : params) {
    if (p.isIndex) {
      scalar(indexValues[p.index]);
      continue;
    }
    Buffer &b = buffers[p.index];
    b.ptr = b.data.data();
    args.push_back(&b.ptr);
    args.push_back(&b.ptr);
    scalar(0);
    for (int64_t d : b.shape)
      scalar(d);
    for (int64_t s : b.strides)
      scalar(s);
  }
  setvbuf(stdout, nullptr, _IONBF, 0);
  struct sigaction action = {};
  action.sa_handler = onAbort;
  sigaction(SIGABRT, &action, nullptr);
  llvm::Error err = (*engine)->invokePacked(name, args);
  action.sa_handler = SIG_DFL;
  sigaction(SIGABRT, &action, nullptr);
  if (err)
    return fail("cannot call @" + name + ": " + llvm::toString(std::move(err)));

  return 0;
}

/// The procedure's parameters: each index parameter's value (--sizes) and
/// each buffer's shape (--shape, or the extents the procedure declares),
/// checked against what the machine can hold.
int setUpParameters(rake::gpuir::ProcOp proc,
                    llvm::function_ref<std::string(unsigned)> nameOf,
                    llvm::StringMap<SmallVector<int64_t>> &sizes,
                    llvm::StringMap<SmallVector<int64_t>> &shapes,
                    std::vector<Buffer> &buffers,
                    SmallVector<int64_t> &indexValues,
                    SmallVector<Param> &params) {
  Block &body = proc.getBody().front();
  // The control values in order, for the extents a procedure declares.
  SmallVector<int64_t> controls;
  bool allControls = true;
  for (BlockArgument arg : body.getArguments())
    if (arg.getType().isIndex()) {
      auto it = sizes.find(nameOf(arg.getArgNumber()));
      if (it == sizes.end() || it->second.size() != 1)
        allControls = false;
      else
        controls.push_back(it->second[0]);
    }
  // What the buffers take together, against the machine's memory.
  uint64_t totalBytes = 0;
  uint64_t memoryBytes = uint64_t(sysconf(_SC_PHYS_PAGES)) *
                         uint64_t(sysconf(_SC_PAGESIZE));

  for (BlockArgument arg : body.getArguments()) {
    std::string argName = nameOf(arg.getArgNumber());
    if (arg.getType().isIndex() || arg.getType().isSignlessInteger()) {
      auto it = sizes.find(argName);
      if (it == sizes.end() || it->second.size() != 1)
        return fail("give the value of index parameter '" + argName +
                    "' with --sizes=" + argName + "=N");
      params.push_back({true, static_cast<unsigned>(indexValues.size())});
      indexValues.push_back(it->second[0]);
      continue;
    }
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type)
      return fail("parameter '" + argName + "' has a type rake-run cannot "
                  "supply yet (index, integers and memrefs only)");
    if (!type.getLayout().isIdentity())
      return fail("parameter '" + argName + "' has a strided layout; "
                  "rake-run supplies row-major buffers only");
    Type et = type.getElementType();
    // Whole bytes, or the 4- and 6-bit floats, one per byte in its low bits
    // (the upper bits zero), as LLVM stores them on both sides.
    bool narrowFloat =
        isa<Float4E2M1FNType, Float6E2M3FNType, Float6E3M2FNType>(et);
    if (!et.isIntOrFloat() ||
        (et.getIntOrFloatBitWidth() % 8 && !narrowFloat) ||
        et.getIntOrFloatBitWidth() > 64)
      return fail("parameter '" + argName +
                  "' has elements rake-run cannot "
                  "generate (8 to 64 bit integers and floats, and the 4- and "
                  "6-bit floats, only)");
    Buffer b;
    b.name = argName;
    b.elementType = et;
    b.elementBytes = (et.getIntOrFloatBitWidth() + 7) / 8;
    SmallVector<int64_t> given;
    bool explicitShape = false;
    if (auto it = shapes.find(argName); it != shapes.end()) {
      given = it->second;
      explicitShape = true;
    }
    // Extents the procedure declares (gpuir.extents), at these sizes: the
    // shape when --shape gives none, else what --shape must agree with.
    SmallVector<int64_t> declared;
    if (auto map = proc.getArgAttrOfType<AffineMapAttr>(arg.getArgNumber(),
                                                        rake::gpuir::kExtentsAttrName);
        map && allControls) {
      for (AffineExpr e : map.getValue().getResults()) {
        SmallVector<AffineExpr> dims;
        for (int64_t v : controls)
          dims.push_back(getAffineConstantExpr(v, proc.getContext()));
        auto c = dyn_cast<AffineConstantExpr>(e.replaceDims(dims));
        if (!c)
          return fail("cannot evaluate the extents of '" + argName + "'");
        declared.push_back(c.getValue());
      }
      SmallVector<int64_t> dynamic;
      for (auto [d, extent] : llvm::enumerate(declared))
        if (type.isDynamicDim(d))
          dynamic.push_back(extent);
      if (!explicitShape)
        given = dynamic;
      else if (given != dynamic) {
        std::string declaredText, givenText;
        llvm::raw_string_ostream d1(declaredText), d2(givenText);
        llvm::interleave(dynamic, d1, "x");
        llvm::interleave(given, d2, "x");
        return fail("--shape gives " + argName + "=" + givenText +
                    ", but the procedure declares its dynamic extents as " +
                    declaredText + " at these sizes (gpuir.extents)");
      }
    }
    unsigned next = 0;
    for (int64_t d : type.getShape()) {
      if (!ShapedType::isDynamic(d)) {
        b.shape.push_back(d);
        continue;
      }
      if (next >= given.size())
        return fail("give the extents of the dynamic dimensions of '" +
                    argName + "' (" + std::to_string(type.getNumDynamicDims()) +
                    ") with --shape=" + argName + "=...");
      b.shape.push_back(given[next++]);
    }
    if (next != given.size())
      return fail("--shape gives " + std::to_string(given.size()) +
                  " extents for '" + argName + "', which has " +
                  std::to_string(type.getNumDynamicDims()) +
                  " dynamic dimensions");
    uint64_t bytes = b.elementBytes;
    for (int64_t d : b.shape) {
      if (d < 0)
        return fail("'" + argName + "' would have extent " +
                    std::to_string(d) + "; extents are not negative");
      if (__builtin_mul_overflow(bytes, uint64_t(d), &bytes))
        bytes = UINT64_MAX;
    }
    if (bytes > memoryBytes || totalBytes + bytes > memoryBytes)
      return fail("'" + argName + "' needs " +
                  (bytes == UINT64_MAX ? std::string("more than 2^64")
                                       : std::to_string(bytes)) +
                  " bytes, and the buffers together more than this "
                  "machine's " +
                  std::to_string(memoryBytes) +
                  " bytes of memory: run at smaller sizes");
    totalBytes += bytes;
    b.data.assign(b.numElements() * b.elementBytes, 0);
    b.strides.assign(b.shape.size(), 1);
    for (int i = static_cast<int>(b.shape.size()) - 2; i >= 0; --i)
      b.strides[i] = b.strides[i + 1] * b.shape[i + 1];
    params.push_back({false, static_cast<unsigned>(buffers.size())});
    buffers.push_back(std::move(b));
  }

  return 0;
}

int run() {
  if (!seq)
    return fail("only --seq (the sequential meaning on the host) is "
                "available; running on the GPU comes with code generation");

  DialectRegistry registry;
  rake::registerRakeDialects(registry);
  rake::rtest::registerTestDialect(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Errors with their source line, without MLIR's generic dump of the
  // operation after them (as rake-opt and rake-translate).
  context.printOpOnDiagnostic(false);

  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file)
    return fail(error);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  // The procedure and its parameters.
  rake::gpuir::ProcOp proc;
  for (auto p : module->getOps<rake::gpuir::ProcOp>()) {
    if (!procName.empty() ? p.getSymName() == procName : !proc) {
      proc = p;
      continue;
    }
    if (procName.empty())
      return fail("the file holds several procedures; name one with --proc");
  }
  if (!proc)
    return fail(procName.empty() ? "the file holds no gpuir.proc"
                                 : "no procedure named '" + procName + "'");
  std::string name = proc.getSymName().str();

  llvm::StringMap<SmallVector<int64_t>> sizes, shapes;
  if (!sizesOpt.empty()) {
    if (!parseAssignments(sizesOpt, "--sizes", sizes))
      return 1;
  } else if (auto list = proc->getAttrOfType<ArrayAttr>("gpuir.check_sizes")) {
    if (auto first = list.empty() ? DictionaryAttr()
                                  : dyn_cast<DictionaryAttr>(list[0]))
      for (NamedAttribute a : first)
        if (auto i = dyn_cast<IntegerAttr>(a.getValue()))
          sizes[a.getName().strref()] = {i.getInt()};
  }
  if (!parseAssignments(shapesOpt, "--shape", shapes))
    return 1;

  auto argNames = proc.getArgNames();
  auto nameOf = [&](unsigned i) -> std::string {
    if (argNames && i < argNames->size())
      return cast<StringAttr>((*argNames)[i]).str();
    return "arg" + std::to_string(i);
  };

  std::vector<Buffer> buffers;
  SmallVector<int64_t> indexValues;
  SmallVector<Param> params;
  if (int rc = setUpParameters(proc, nameOf, sizes, shapes, buffers,
                               indexValues, params))
    return rc;

  // Inputs: files, else the seeded generator (in parameter order).
  llvm::StringMap<std::string> inputFiles;
  for (StringRef in : inputs) {
    auto [key, path] = in.split('=');
    if (path.empty())
      return fail("--input: expected name=file, got '" + in + "'");
    inputFiles[key] = path.str();
  }
  std::mt19937_64 rng(seed);
  for (Buffer &b : buffers) {
    auto it = inputFiles.find(b.name);
    if (it == inputFiles.end()) {
      generate(b, rng);
      continue;
    }
    auto content = llvm::MemoryBuffer::getFile(it->second);
    if (!content)
      return fail("cannot read '" + it->second + "': " +
                  content.getError().message());
    if ((*content)->getBufferSize() != b.data.size())
      return fail("'" + it->second + "' holds " +
                  std::to_string((*content)->getBufferSize()) +
                  " bytes; " + b.name + " needs " +
                  std::to_string(b.data.size()));
    std::memcpy(b.data.data(), (*content)->getBufferStart(), b.data.size());
    inputFiles.erase(it);
  }
  if (!inputFiles.empty())
    return fail("--input names '" + inputFiles.begin()->first() +
                "', which is not a buffer parameter of @" + name);
  for (StringRef p : printBuffers)
    if (llvm::none_of(buffers, [&](const Buffer &b) { return b.name == p; }))
      return fail("--print names '" + p + "', which is not a buffer "
                  "parameter of @" + name);

  auto writeBuffers = [&](StringRef dir) -> bool {
    if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
      fail("cannot create '" + dir + "': " + ec.message());
      return false;
    }
    for (const Buffer &b : buffers) {
      SmallString<128> path(dir);
      llvm::sys::path::append(path, b.name + ".bin");
      std::error_code ec;
      llvm::raw_fd_ostream os(path, ec);
      if (ec) {
        fail("cannot write '" + path + "': " + ec.message());
        return false;
      }
      os.write(b.data.data(), b.data.size());
    }
    return true;
  };
  if (!saveInputs.empty() && !writeBuffers(saveInputs))
    return 1;
  if (!launchArgs.empty())
    if (int rc = writeLaunchArgs(proc, name, params, buffers, indexValues))
      return rc;
  keepReachable(*module, proc, name);
  if (int rc = executeSequential(context, *module, name, params, buffers,
                                 indexValues))
    return rc;

  // Results.
  llvm::outs() << "@" << name << " ran (sequential meaning, seed " << seed
               << ")\n";
  for (Buffer &b : buffers) {
    llvm::outs() << b.name << ": ";
    llvm::interleave(b.shape, llvm::outs(), "x");
    llvm::outs() << "x" << b.elementType << " checksum "
                 << llvm::format_hex_no_prefix(checksum(b), 16) << "\n";
    if (llvm::is_contained(printBuffers, b.name)) {
      for (int64_t i = 0, n = b.numElements(); i < n; ++i)
        llvm::outs() << (i ? " " : "") << elementText(b, i);
      llvm::outs() << "\n";
    }
  }
  if (!outputDir.empty() && !writeBuffers(outputDir))
    return 1;
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  rake::registerRakePassesAndPipelines();
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(
      argc, argv,
      "rake-run: run a GpuIR procedure\n\n"
      "  rake-run --seq kernel.mlir --sizes=n=1024 --shape=A=1024,B=1024\n");
  return run();
}
