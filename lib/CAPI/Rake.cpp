//===- Rake.cpp - the C API of Rake GPU -----------------------------------===//
//
// Each call installs a diagnostic handler that forwards to the caller's
// callback for its duration, so nothing is printed and nothing aborts.
//
//===----------------------------------------------------------------------===//

#include "Rake-c/Rake.h"

#include "Rake/Analysis/KernelABI.h"
#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "Rake/Init/InitRake.h"
#include "Rake/Transforms/Passes.h"

#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

using namespace mlir;

struct RakeContext {
  MLIRContext context;
  explicit RakeContext(DialectRegistry &registry)
      : context(registry, MLIRContext::Threading::DISABLED) {}
};

struct RakeModule {
  RakeContext *context;
  OwningOpRef<ModuleOp> module;
};

namespace {

/// Forwards the diagnostics emitted while it lives to the caller.
class Forward {
public:
  Forward(MLIRContext &context, RakeDiagnosticFn fn, void *user)
      : handler(&context, [fn, user](Diagnostic &d) {
          if (!fn)
            return success();
          emit(fn, user, d);
          for (Diagnostic &note : d.getNotes())
            emit(fn, user, note);
          return success();
        }) {}

private:
  static void emit(RakeDiagnosticFn fn, void *user, Diagnostic &d) {
    std::string where;
    if (auto file = dyn_cast<FileLineColLoc>(d.getLocation()))
      where = (file.getFilename().str() + ":" + std::to_string(file.getLine()) +
               ":" + std::to_string(file.getColumn()));
    else if (auto loc = d.getLocation()->findInstanceOf<FileLineColLoc>())
      where = (loc.getFilename().str() + ":" + std::to_string(loc.getLine()) +
               ":" + std::to_string(loc.getColumn()));
    RakeSeverity severity = RAKE_SEVERITY_ERROR;
    switch (d.getSeverity()) {
    case DiagnosticSeverity::Error: severity = RAKE_SEVERITY_ERROR; break;
    case DiagnosticSeverity::Warning: severity = RAKE_SEVERITY_WARNING; break;
    case DiagnosticSeverity::Note: severity = RAKE_SEVERITY_NOTE; break;
    case DiagnosticSeverity::Remark: severity = RAKE_SEVERITY_REMARK; break;
    }
    std::string message = d.str();
    fn(user, severity, where.c_str(), message.c_str());
  }

  ScopedDiagnosticHandler handler;
};

int runPipeline(ModuleOp module, StringRef pipeline, RakeDiagnosticFn fn,
                void *user) {
  MLIRContext *context = module.getContext();
  Forward forward(*context, fn, user);
  PassManager pm(context, ModuleOp::getOperationName());
  std::string error;
  llvm::raw_string_ostream errors(error);
  // The pass manager is anchored at the module: "builtin.module(P)" is P
  // on it (else P would run on modules nested inside); an unanchored P too.
  StringRef inner = pipeline.trim();
  if (inner.consume_front("builtin.module(") && inner.consume_back(")"))
    pipeline = inner;
  if (failed(parsePassPipeline(pipeline, pm, errors))) {
    std::string message = "bad pass pipeline: " + error;
    if (fn)
      fn(user, RAKE_SEVERITY_ERROR, "", message.c_str());
    return 1;
  }
  return failed(pm.run(module)) ? 1 : 0;
}

} // namespace

extern "C" {

const char *rakeCompilerRevision(void) {
#ifdef RAKE_REVISION
  return RAKE_REVISION;
#else
  return "unknown";
#endif
}

int rakeApiVersion(void) { return RAKE_C_API_VERSION; }

RakeContext *rakeContextCreate(void) {
  rake::registerRakePassesAndPipelines();
  DialectRegistry registry;
  rake::registerRakeDialects(registry);
  auto *context = new RakeContext(registry);
  context->context.loadAllAvailableDialects();
  return context;
}

void rakeContextDestroy(RakeContext *context) { delete context; }

RakeModule *rakeModuleParse(RakeContext *context, const char *text,
                            size_t length, const char *name,
                            RakeDiagnosticFn fn, void *user) {
  if (!context || !text)
    return nullptr;
  Forward forward(context->context, fn, user);
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(StringRef(text, length),
                                           name ? name : "<string>"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sources, &context->context);
  if (!module)
    return nullptr;
  return new RakeModule{context, std::move(module)};
}

void rakeModuleDestroy(RakeModule *module) { delete module; }

void rakeModulePrint(RakeModule *module, int generic, RakeStringFn out,
                     void *user) {
  if (!module || !out)
    return;
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  if (generic == 1)
    flags.printGenericOpForm();
  else if (generic == 2)
    flags.assumeVerified();
  module->module->print(os, flags);
  out(user, text.data(), text.size());
}

int rakeModuleRunPipeline(RakeModule *module, const char *pipeline,
                          RakeDiagnosticFn fn, void *user) {
  if (!module || !pipeline)
    return 1;
  return runPipeline(*module->module, pipeline, fn, user);
}

int rakeModuleApplySchedule(RakeModule *module, const char *script,
                            size_t length, int steps, RakeStringFn step,
                            void *stepUser, RakeDiagnosticFn fn, void *user) {
  if (!module || !script)
    return 1;
  ModuleOp m = *module->module;
  MLIRContext *ctx = m.getContext();
  Forward forward(*ctx, fn, user);
  ParserConfig config(ctx);
  OwningOpRef<ModuleOp> lib = parseSourceString<ModuleOp>(
      StringRef(script, length), config, "schedule");
  if (!lib)
    return 1;
  auto entry =
      lib->lookupSymbol<transform::NamedSequenceOp>("__transform_main");
  if (!entry) {
    emitError(lib->getLoc())
        << "the schedule has no transform.named_sequence @__transform_main";
    return 1;
  }
  Block &body = entry.getBody().front();
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  if (steps >= 0)
    for (Operation *op : llvm::reverse(ArrayRef(ops).drop_front(
             std::min<size_t>(steps, ops.size()))))
      op->erase();
  if (step)
    for (Operation &op : body.without_terminator()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      op.print(os, OpPrintingFlags().useLocalScope());
      step(stepUser, text.data(), text.size());
    }
  transform::TransformOptions options;
  return failed(transform::applyTransformNamedSequence(m, entry, *lib,
                                                       options));
}

int rakeModuleCheck(RakeModule *module, RakeDiagnosticFn fn, void *user) {
  if (!module)
    return 1;
  // The check annotates (collective tilings); it runs on a copy so the
  // caller's module stays as written.
  OwningOpRef<ModuleOp> copy(cast<ModuleOp>(module->module->clone()));
  return runPipeline(*copy, "builtin.module(rake-check)", fn, user);
}

int rakeModuleToPtx(RakeModule *module, const char *chip, RakeStringFn out,
                    void *outUser, RakeDiagnosticFn fn, void *user) {
  if (!module)
    return 1;
  OwningOpRef<ModuleOp> copy(cast<ModuleOp>(module->module->clone()));
  Forward forward(*copy->getContext(), fn, user);
  FailureOr<std::string> ptx =
      rake::compileGpuIRToPtx(*copy, chip ? chip : "sm_90a");
  if (failed(ptx))
    return 1;
  if (out)
    out(outUser, ptx->data(), ptx->size());
  return 0;
}

int rakeModuleKernelABI(RakeModule *module, const char *procName,
                        RakeStringFn out, void *outUser, RakeDiagnosticFn fn,
                        void *user) {
  if (!module || !procName)
    return 1;
  ModuleOp m = *module->module;
  Forward forward(*m.getContext(), fn, user);
  auto proc = m.lookupSymbol<rake::gpuir::ProcOp>(procName);
  if (!proc) {
    emitError(m.getLoc()) << "no procedure @" << procName << " in the module";
    return 1;
  }
  FailureOr<rake::KernelABI> abi = rake::kernelABI(proc);
  if (failed(abi))
    return 1;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "{\"block\": " << abi->block << ", \"blocks_per_sm\": "
     << abi->blocksPerSm << ", \"cluster\": " << abi->cluster
     << ", \"dynamic_shared_bytes\": " << abi->dynamicSharedBytes
     << ", \"shared_alignment\": " << abi->sharedAlignment << ", \"roles\": [";
  llvm::interleaveComma(abi->roles, os,
                        [&](const std::string &r) { os << '"' << r << '"'; });
  os << "], \"tensor_maps\": [";
  llvm::interleaveComma(abi->tensorMaps, os, [&](const rake::TensorMapUse &t) {
    os << "{\"arg\": " << t.arg << ", \"rows\": " << t.rows
       << ", \"cols\": " << t.cols << ", \"swizzle\": " << t.swizzle << "}";
  });
  os << "]}";
  if (out)
    out(outUser, text.data(), text.size());
  return 0;
}

} // extern "C"
