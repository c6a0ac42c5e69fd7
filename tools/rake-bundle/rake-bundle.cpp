//===- rake-bundle.cpp - GpuIR to a verified artifact bundle --------------===//
//
//   rake-bundle KERNEL.mlir -o DIR [--profile=P] [--disasm-dir=D]...
//               [--nvdisasm=auto|never|PATH] [--ptxas=PATH] [--repin]
//               [--sign=KEY.key]         (sign the bundle when verified)
//   rake-bundle KERNEL.ptx  -o DIR ... [--dynamic-shared-bytes=N]
//               [--blocks-per-sm=K]      (start from PTX)
//
// Lowers the GpuIR to PTX for the profile's target (the rake-gpuir-to-ptx
// pipeline), assembles it with the pinned ptxas and the profile's flags,
// disassembles the cubin (nvdisasm where it exists, else a recorded
// <cubin-sha256>.json), verifies it and writes the bundle with its manifest.
// Exits 0 when the bundle is verified, 1 when it is written but not verified
// (the manifest then says "unverified" and the runtime refuses it), 2 when no
// bundle could be made.
//
//===----------------------------------------------------------------------===//

#include "Rake/Analysis/KernelABI.h"
#include "Rake/Analysis/TensorCoreInputs.h"
#include "Rake/Conversion/Passes.h"
#include "Rake/Dialect/AMIR/IR/AMIR.h"
#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "Rake/Init/InitRake.h"
#include "Rake/Profile/Profile.h"
#include "Rake/Verifier/Bundle.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#ifndef RAKE_REVISION
#define RAKE_REVISION "unknown"
#endif

using namespace llvm;
using namespace mlir;

/// The options --help shows (LLVM's own are hidden).
static cl::OptionCategory toolOptions("rake-bundle options");

static cl::opt<std::string> input(cl::Positional, cl::desc("<GpuIR .mlir | .ptx>"), cl::Required, cl::cat(toolOptions));
static cl::opt<std::string> outDir("o", cl::desc("The bundle folder to write"), cl::Required, cl::cat(toolOptions));
static cl::opt<std::string> profileName("profile", cl::init("nvidia-ptx-sm90a"),
                                        cl::desc("The profile (rake-verify --list-profiles)"), cl::cat(toolOptions));
static cl::list<std::string> disasmDirs("disasm-dir", cl::desc("A folder of recorded disassemblies named <cubin-sha256>.json"), cl::cat(toolOptions));
static cl::opt<std::string> nvdisasm("nvdisasm", cl::init("auto"),
                                     cl::desc("auto: nvdisasm where it exists, else recorded; never; or a path"), cl::cat(toolOptions));
static cl::opt<std::string> ptxas("ptxas", cl::desc("The ptxas to use (default: PATH, then /usr/local/cuda/bin)"), cl::cat(toolOptions));
static cl::opt<std::string> signKey("sign", cl::desc("Sign the bundle, when it verifies, with this Ed25519 private key (PEM; rake-verify --keygen makes one)"), cl::cat(toolOptions));
static cl::opt<bool> repin("repin", cl::desc("Use a ptxas the profile does not pin; the bundle records its hash"), cl::cat(toolOptions));
static cl::opt<int64_t> dynamicSharedBytes(
    "dynamic-shared-bytes", cl::init(-1),
    cl::desc("PTX input: the dynamic shared memory each kernel is launched "
             "with (required for a kernel that declares .extern .shared; "
             "GpuIR input: computed, not given)"),
    cl::cat(toolOptions));
static cl::opt<int64_t> blocksPerSm(
    "blocks-per-sm", cl::init(0),
    cl::desc("PTX input: CTAs per SM in the launch shape (default 1; GpuIR "
             "input: the device function's blocks_per_sm)"),
    cl::cat(toolOptions));

/// Each proc's kernel ABI (lib/Analysis/KernelABI): the role of each
/// parameter and the launch shape, as rake-bundle records them.
static void abiOf(ModuleOp module, ::rake::bundle::ParamRoles &roles,
                  ::rake::bundle::LaunchShapes &shapes) {
  module.walk([&](mlir::rake::gpuir::ProcOp proc) {
    bool hasDevice = false;
    for (Operation &op : proc.getBody().front())
      hasDevice |= isa<mlir::rake::gpuir::DeviceFunctionOp>(&op);
    if (!hasDevice)
      return;
    FailureOr<mlir::rake::KernelABI> abi = mlir::rake::kernelABI(proc);
    if (failed(abi))
      return;
    std::string name = proc.getSymName().str();
    roles[name] = abi->roles;
    ::rake::bundle::LaunchShape &s = shapes[name];
    s.block[0] = abi->block;
    s.blocksPerSm = abi->blocksPerSm;
    s.dynamicSharedBytes = abi->dynamicSharedBytes;
    s.cluster = abi->cluster;
  });
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
    std::map<std::string, std::vector<::rake::artifact::SourceParam>> &out) {
  module.walk([&](mlir::rake::gpuir::ProcOp proc) {
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
    std::vector<::rake::artifact::SourceParam> params;
    llvm::DenseMap<unsigned, StringRef> multiplied =
        mlir::rake::tensorCoreInputFormats(proc);
    for (BlockArgument arg : entry.getArguments()) {
      ::rake::artifact::SourceParam p;
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
  });
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(argc, argv, "Rake GPU: GpuIR to a verified artifact bundle\n");
  const ::rake::profile::Profile *p = ::rake::profile::findProfile(profileName);
  if (!p) {
    errs() << "rake-bundle: error: unknown profile '" << profileName << "'\n";
    return 2;
  }
  ::rake::bundle::MakeOptions o;
  o.profile = p;
  o.outDir = outDir;
  o.sourcePath = input;
  o.ptxas = ptxas;
  o.repin = repin;
  o.nvdisasm = nvdisasm;
  o.disasmDirs = disasmDirs;
  o.compiler = std::string("rake-bundle ") + RAKE_REVISION;
  if (!signKey.empty() && !::rake::bundle::readFile(signKey, o.signKeyPem)) {
    errs() << "rake-bundle: error: cannot read the private key " << signKey
           << "\n";
    return 2;
  }
  if (!::rake::bundle::readFile(input, o.sourceText)) {
    errs() << "rake-bundle: error: cannot read " << input << "\n";
    return 2;
  }
  if (StringRef(input).ends_with(".ptx")) {
    o.sourceKind = "ptx";
    o.ptx = o.sourceText;
    if (dynamicSharedBytes.getNumOccurrences() &&
        (dynamicSharedBytes < 0 || dynamicSharedBytes > UINT32_MAX)) {
      errs() << "rake-bundle: error: --dynamic-shared-bytes="
             << dynamicSharedBytes << " is not a byte count\n";
      return 2;
    }
    if (blocksPerSm.getNumOccurrences() &&
        (blocksPerSm < 1 || blocksPerSm > UINT32_MAX)) {
      errs() << "rake-bundle: error: --blocks-per-sm=" << blocksPerSm
             << " is not a positive count\n";
      return 2;
    }
    o.ptxDynamicSharedBytes = dynamicSharedBytes;
    o.ptxBlocksPerSm = blocksPerSm.getNumOccurrences() ? blocksPerSm : 1;
    return ::rake::bundle::make(o);
  }
  if (dynamicSharedBytes.getNumOccurrences() || blocksPerSm.getNumOccurrences()) {
    errs() << "rake-bundle: error: --dynamic-shared-bytes and --blocks-per-sm "
              "are for PTX input; from GpuIR the launch shape comes from the "
              "device function and its shared-memory layout\n";
    return 2;
  }

  o.sourceKind = "gpuir";
  DialectRegistry registry;
  mlir::rake::registerRakeDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(o.sourceText, input), SMLoc());
  SourceMgrDiagnosticHandler handler(sm, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sm, &context);
  if (!module)
    return 2;
  abiOf(*module, o.roles, o.launch);
  signaturesOf(*module, o.signatures);
  PassManager pm(&context);
  mlir::rake::buildGpuIRToPtxPipeline(pm, p->target, "isa");
  if (failed(pm.run(*module)))
    return 2;
  std::vector<std::string> objects;
  module->walk([&](gpu::BinaryOp binary) {
    for (mlir::Attribute a : binary.getObjects())
      objects.push_back(cast<gpu::ObjectAttr>(a).getObject().getValue().str());
  });
  if (objects.size() != 1) {
    errs() << "rake-bundle: error: a bundle holds one kernel module; " << input
           << " compiles to " << objects.size() << "\n";
    return 2;
  }
  o.ptx = objects[0];
  return ::rake::bundle::make(o);
}
