//===- FromSource.cpp - What a GpuIR source determines of a bundle --------===//
//
// See FromSource.h. rake-bundle and rake-verify both call deriveFromGpuIR, so
// what a bundle records and what its verification recomputes cannot drift.
//
//===----------------------------------------------------------------------===//

#include "Rake/Verifier/FromSource.h"
#include "Rake/Analysis/KernelABI.h"
#include "Rake/Analysis/TensorCoreInputs.h"
#include "Rake/Conversion/Passes.h"
#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "Rake/Init/InitRake.h"
#include "Rake/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir;

namespace rake {
namespace bundle {
namespace {

/// Each proc's kernel ABI (lib/Analysis/KernelABI): the role of each
/// parameter and the launch shape, as rake-bundle records them.
static void abiOf(ModuleOp module, ParamRoles &roles,
                  LaunchShapes &shapes) {
  for (mlir::rake::gpuir::ProcOp proc :
       module.getOps<mlir::rake::gpuir::ProcOp>()) {
    bool hasDevice = false;
    for (Operation &op : proc.getBody().front())
      hasDevice |= isa<mlir::rake::gpuir::DeviceFunctionOp>(&op);
    if (!hasDevice)
      continue;
    FailureOr<mlir::rake::KernelABI> abi = mlir::rake::kernelABI(proc);
    if (failed(abi))
      continue;
    std::string name = proc.getSymName().str();
    roles[name] = abi->roles;
    LaunchShape &s = shapes[name];
    s.block[0] = abi->block;
    s.blocksPerSm = abi->blocksPerSm;
    s.dynamicSharedBytes = abi->dynamicSharedBytes;
    s.cluster = abi->cluster;
  }
}

/// An extent as the manifest's signature writes it: over the index
/// parameters' names, every binary operation in parentheses.
static std::string extentText(AffineExpr e, ArrayRef<std::string> names) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return std::to_string(c.getValue());
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return names[d.getPosition()];
  auto b = cast<AffineBinaryOpExpr>(e);
  const char *op = "+";
  switch (e.getKind()) {
  case AffineExprKind::Mul: op = "*"; break;
  case AffineExprKind::Mod: op = "mod"; break;
  case AffineExprKind::FloorDiv: op = "floordiv"; break;
  case AffineExprKind::CeilDiv: op = "ceildiv"; break;
  default: break;
  }
  return "(" + extentText(b.getLHS(), names) + " " + op + " " +
         extentText(b.getRHS(), names) + ")";
}

/// Each kernel's source parameters, for the manifest's signature: the names
/// the source gives them (the procedure's arg_names), their kind, and for
/// buffers the element type, the memory and the declared extents.
static void signaturesOf(
    ModuleOp module,
    std::map<std::string, std::vector<artifact::SourceParam>> &out) {
  for (mlir::rake::gpuir::ProcOp proc :
       module.getOps<mlir::rake::gpuir::ProcOp>()) {
    Block &entry = proc.getBody().front();
    ArrayAttr given = proc.getArgNamesAttr();
    std::vector<std::string> names;
    for (BlockArgument arg : entry.getArguments()) {
      std::string name = "arg" + std::to_string(arg.getArgNumber());
      if (given && arg.getArgNumber() < given.size())
        if (auto s = dyn_cast<StringAttr>(given[arg.getArgNumber()]);
            s && !s.getValue().empty())
          name = s.getValue().str();
      names.push_back(name);
    }
    std::vector<std::string> controls;
    for (BlockArgument arg : entry.getArguments())
      if (isa<IndexType>(arg.getType()))
        controls.push_back(names[arg.getArgNumber()]);
    std::vector<artifact::SourceParam> params;
    llvm::DenseMap<unsigned, StringRef> multiplied =
        mlir::rake::tensorCoreInputFormats(proc);
    for (BlockArgument arg : entry.getArguments()) {
      artifact::SourceParam p;
      p.name = names[arg.getArgNumber()];
      if (auto it = multiplied.find(arg.getArgNumber()); it != multiplied.end())
        p.multipliedAs = it->second.str();
      if (isa<IndexType>(arg.getType())) {
        p.kind = "index";
      } else if (auto memref = dyn_cast<MemRefType>(arg.getType())) {
        p.kind = "buffer";
        llvm::raw_string_ostream(p.element) << memref.getElementType();
        if (mlir::Attribute space = memref.getMemorySpace()) {
          std::string text;
          llvm::raw_string_ostream(text) << space;
          StringRef t(text);
          t.consume_front("#gpuir.");
          p.memory = t.str();
        }
        auto extents = proc.getArgAttrOfType<AffineMapAttr>(
            arg.getArgNumber(), mlir::rake::gpuir::kExtentsAttrName);
        for (int64_t d = 0; d < memref.getRank(); ++d) {
          if (extents)
            p.extents.push_back(
                extentText(extents.getValue().getResult(d), controls));
          else if (!memref.isDynamicDim(d))
            p.extents.push_back(std::to_string(memref.getDimSize(d)));
          else
            p.extents.push_back("?");
        }
      } else {
        p.kind = "tensor_map";
      }
      params.push_back(std::move(p));
    }
    out[proc.getSymName().str()] = std::move(params);
  }
}

/// How deep a source may nest brackets ({, (, [): far above any kernel,
/// far below what exhausts the parser's stack.
constexpr int64_t kMaxNesting = 256;

/// The deepest nesting of brackets in MLIR text, outside comments and
/// string literals.
int64_t bracketDepth(StringRef text) {
  int64_t depth = 0, deepest = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == StringRef::npos)
        break;
    } else if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '{' || c == '(' || c == '[') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == '}' || c == ')' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

} // namespace

bool deriveFromGpuIR(const std::string &text, const std::string &bufferName,
                     const profile::Profile &profile, SourceDerivation &out,
                     std::string &error, bool printErrors) {
  DialectRegistry registry;
  mlir::rake::registerRakeDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(text, bufferName),
                        SMLoc());
  // Diagnostics as the compiler prints them (file:line:col: error: ...),
  // kept for the caller and, for rake-bundle, printed.
  std::string captured;
  llvm::raw_string_ostream capturedOs(captured);
  SourceMgrDiagnosticHandler handler(sm, &context, capturedOs);
  auto finish = [&](bool ok) {
    capturedOs.flush();
    if (printErrors)
      llvm::errs() << captured;
    if (!ok)
      error = StringRef(captured).trim().str();
    return ok;
  };
  // The parser recurses on nesting: a few thousand nested regions would
  // exhaust the stack, so deeper text than any kernel needs is refused
  // before it is parsed.
  if (int64_t depth = bracketDepth(text); depth > kMaxNesting) {
    capturedOs << bufferName << ": error: the source nests " << depth
               << " levels of brackets; a GpuIR kernel nests at most "
               << kMaxNesting << "\n";
    return finish(false);
  }
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sm, &context);
  if (!module)
    return finish(false);
  // What is checked, lowered and described must be one set of procedures:
  // the module holds gpuir.proc ops and nothing else (a nested module, a
  // gpu.module of already lowered code, would be lowered or described
  // without being checked).
  for (Operation &op : module->getBody()->getOperations())
    if (!isa<mlir::rake::gpuir::ProcOp>(op)) {
      op.emitError() << "a bundle's source is a module of gpuir.proc "
                        "operations only; '"
                     << op.getName()
                     << "' here would not be checked: compile it separately";
      return finish(false);
    }
  Operation *nested = nullptr;
  module->walk([&](Operation *op) {
    if (op != module->getOperation() &&
        (isa<ModuleOp, gpu::GPUModuleOp>(op)) && !nested)
      nested = op;
  });
  if (nested) {
    nested->emitError() << "a bundle's source is a module of gpuir.proc "
                           "operations only; a nested '"
                        << nested->getName()
                        << "' would not be checked: compile it separately";
    return finish(false);
  }
  if (!(*module)->getAttrDictionary().empty()) {
    module->emitError() << "a bundle's source module carries no attributes; "
                           "remove them";
    return finish(false);
  }
  // The checks first (rake-check, on a copy: its analyses annotate the IR):
  // no bundle of a kernel they refuse, and none without its race-freedom
  // proven at the source's gpuir.check_sizes.
  {
    OwningOpRef<ModuleOp> checked = module->clone();
    PassManager check(&context);
    mlir::rake::buildRakeCheckPipeline(check, /*summary=*/false,
                                       /*budget=*/0, /*requireTasks=*/true);
    if (failed(check.run(*checked))) {
      out.failedCheck = true;
      return finish(false);
    }
  }
  abiOf(*module, out.roles, out.launch);
  signaturesOf(*module, out.signatures);
  PassManager pm(&context);
  mlir::rake::buildGpuIRToPtxPipeline(pm, profile.target, "isa");
  if (failed(pm.run(*module)))
    return finish(false);
  std::vector<std::string> objects;
  module->walk([&](gpu::BinaryOp binary) {
    for (mlir::Attribute a : binary.getObjects())
      objects.push_back(cast<gpu::ObjectAttr>(a).getObject().getValue().str());
  });
  if (objects.size() != 1) {
    capturedOs << "error: a bundle holds one kernel module; " << bufferName
               << " compiles to " << objects.size() << "\n";
    return finish(false);
  }
  out.ptx = objects[0];
  return finish(true);
}

} // namespace bundle
} // namespace rake
