//===- rake-translate.cpp - Rake GPU's translation driver -----------------===//
//
// Translations out of MLIR: the upstream ones (MLIR's LLVM and NVVM dialects
// to LLVM IR, and the rest), and GpuIR to PTX text (--gpuir-to-ptx, by the
// rake-gpuir-to-ptx pipeline) or a cubin (--gpuir-to-cubin: that PTX
// through the CUDA toolkit's ptxas with exactly the ptxas flags of profile
// nvidia-ptx-sm90a, as rake-bundle assembles it).
//
//===----------------------------------------------------------------------===//

#include "Rake/Init/InitRake.h"
#include "Rake/Profile/Profile.h"
#include "Rake/Verifier/Bundle.h"
#include "TestInstrs.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

using namespace mlir;


static void registerGpuIRDialects(DialectRegistry &registry) {
  mlir::rake::registerRakeDialects(registry);
  mlir::rake::rtest::registerTestDialect(registry);
}

/// The PTX of the GpuIR procedures, for sm_90a.
static FailureOr<std::string> compileToPtx(Operation *op) {
  // Errors with their source line, without MLIR's generic dump of the
  // operation after them (mlir-translate turns that on for its context).
  op->getContext()->printOpOnDiagnostic(false);
  return mlir::rake::compileGpuIRToPtx(op, "sm_90a");
}

/// PTX to a cubin with the pinned toolkit's ptxas and exactly the ptxas
/// flags of the executable profile (nvidia-ptx-sm90a), as rake-bundle
/// assembles it: the same bytes, which rake-verify accepts.
static LogicalResult assemble(Operation *op, StringRef ptx, raw_ostream &os) {
  const ::rake::profile::Profile *p =
      ::rake::profile::findProfile("nvidia-ptx-sm90a");
  std::string ptxas = ::rake::bundle::findTool("ptxas");
  if (!p || ptxas.empty())
    return op->emitError() << "no ptxas found (PATH, /usr/local/cuda/bin): "
                              "install the CUDA toolkit to make cubins";
  llvm::SmallString<128> in, out;
  if (llvm::sys::fs::createTemporaryFile("rake", "ptx", in) ||
      llvm::sys::fs::createTemporaryFile("rake", "cubin", out))
    return op->emitError() << "cannot create temporary files";
  llvm::FileRemover removeIn(in), removeOut(out);
  {
    std::error_code ec;
    llvm::raw_fd_ostream f(in, ec);
    if (ec)
      return op->emitError() << "cannot write " << in << ": " << ec.message();
    f << ptx;
  }
  SmallVector<StringRef> args{ptxas};
  for (const std::string &flag : p->ptxasFlags)
    args.push_back(flag);
  args.append({in.str(), "-o", out.str()});
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, {}, 0, 0, &error);
  if (rc != 0)
    return op->emitError() << "ptxas failed (exit " << rc << ")"
                           << (error.empty() ? "" : ": " + error);
  auto cubin = llvm::MemoryBuffer::getFile(out, /*IsText=*/false);
  if (!cubin)
    return op->emitError() << "ptxas wrote no cubin";
  os << (*cubin)->getBuffer();
  return success();
}

int main(int argc, char **argv) {
  registerAllTranslations();
  TranslateFromMLIRRegistration toPtx(
      "gpuir-to-ptx", "Compile GpuIR procedures to PTX for sm_90a",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        FailureOr<std::string> ptx = compileToPtx(op);
        if (failed(ptx))
          return failure();
        os << *ptx;
        return success();
      },
      registerGpuIRDialects);
  TranslateFromMLIRRegistration toCubin(
      "gpuir-to-cubin",
      "Compile GpuIR procedures to a cubin for sm_90a with the ptxas flags "
      "of profile nvidia-ptx-sm90a (needs ptxas)",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        FailureOr<std::string> ptx = compileToPtx(op);
        if (failed(ptx))
          return failure();
        return assemble(op, *ptx, os);
      },
      registerGpuIRDialects);
  return failed(mlirTranslateMain(argc, argv, "Rake GPU translation driver\n"));
}
