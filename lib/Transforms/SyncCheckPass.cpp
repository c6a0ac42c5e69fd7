//===- SyncCheckPass.cpp - interpret the abstract machine -----------------===//

#include "Rake/Analysis/CollectiveAnalysis.h"
#include "Rake/Analysis/DistributedMemory.h"
#include "Rake/Analysis/SyncCheck.h"
#include "Rake/Conversion/GpuIRToAMIR/GpuIRToAMIR.h"
#include "Rake/Dialect/GpuIR/Instrs/Sm90a.h"
#include "Rake/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <sys/resource.h>
#include <deque>

namespace mlir::rake {
#define GEN_PASS_DEF_SYNCCHECKPASS
#include "Rake/Transforms/Passes.h.inc"
} // namespace mlir::rake

using namespace mlir;
using namespace mlir::rake;

namespace {

/// The check takes a kernel's buffer parameters as row-major arrays indexed
/// from their first element (the runtime refuses callers' buffers that are
/// not), while code generation addresses a parameter through its layout: a
/// device parameter with any other layout (a stride, a static offset) is
/// refused, since elements the check takes as distinct could be one
/// address or lie outside the buffer (an adversarial review: a stride of 0
/// made every thread's write one word's; an offset wrote past the end).
/// Whether a layout is row-major from the first element wherever it is
/// static (the identity; strides and an offset left dynamic are the
/// caller's, which the runtime checks).
bool rowMajorFromStart(MemRefType type) {
  if (type.getLayout().isIdentity())
    return true;
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  if (!ShapedType::isDynamic(offset) && offset != 0)
    return false;
  int64_t expect = 1;
  bool known = true;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (!ShapedType::isDynamic(strides[d]) && (!known || strides[d] != expect))
      return false;
    if (type.isDynamicDim(d))
      known = false;
    else
      expect *= type.getDimSize(d);
  }
  return true;
}

LogicalResult checkParameterLayouts(gpuir::ProcOp proc) {
  bool device = false;
  proc.walk([&](gpuir::DeviceFunctionOp) { device = true; });
  if (!device)
    return success();
  ArrayAttr names = proc.getArgNamesAttr();
  for (auto [i, t] : llvm::enumerate(proc.getArgumentTypes())) {
    auto memref = dyn_cast<MemRefType>(t);
    if (!memref || rowMajorFromStart(memref))
      continue;
    std::string name = "#" + std::to_string(i);
    if (names && i < names.size())
      if (auto n = dyn_cast<StringAttr>(names[i]))
        name = n.str();
    std::string layout;
    llvm::raw_string_ostream os(layout);
    os << memref.getLayout();
    return proc.emitError()
           << "buffer parameter " << name << " of a kernel has layout "
           << layout
           << "; the check takes a kernel's buffer parameters as row-major "
              "arrays from their first element (as the runtime requires of "
              "the caller's buffers), and code generation would address it "
              "through the layout: give the parameter the identity layout "
              "(windows of it may be strided)";
  }
  return success();
}

using SizeSet = llvm::StringMap<int64_t>;

/// Parses `M=960,N=800;M=64,N=64`.
FailureOr<SmallVector<SizeSet>> parseSizes(StringRef text, std::string &error) {
  SmallVector<SizeSet> sets;
  SmallVector<StringRef> setTexts;
  text.split(setTexts, ';', -1, /*KeepEmpty=*/false);
  for (StringRef setText : setTexts) {
    SizeSet set;
    SmallVector<StringRef> items;
    setText.split(items, ',', -1, /*KeepEmpty=*/false);
    for (StringRef item : items) {
      auto [name, value] = item.split('=');
      int64_t v;
      if (value.trim().getAsInteger(10, v)) {
        error = "expected name=integer in sizes, found '" + item.str() + "'";
        return failure();
      }
      set[name.trim()] = v;
    }
    sets.push_back(std::move(set));
  }
  return sets;
}

struct SyncCheckPass : rake::impl::SyncCheckPassBase<SyncCheckPass> {
  using SyncCheckPassBase::SyncCheckPassBase;

  /// The control values of `proc` for each size set, in parameter order.
  FailureOr<SmallVector<SmallVector<int64_t>>>
  controlValues(Operation *proc, ArrayRef<StringRef> names) {
    SmallVector<SizeSet> sets;
    if (!sizes.empty()) {
      std::string error;
      auto parsed = parseSizes(sizes, error);
      if (failed(parsed))
        return proc->emitError() << error, failure();
      sets = *parsed;
    } else if (auto attr = proc->getAttrOfType<ArrayAttr>("gpuir.check_sizes")) {
      for (Attribute a : attr) {
        auto dict = dyn_cast<DictionaryAttr>(a);
        if (!dict)
          return proc->emitError()
                     << "gpuir.check_sizes is a list of dictionaries of "
                        "control parameter values",
                 failure();
        SizeSet set;
        for (NamedAttribute entry : dict) {
          auto v = dyn_cast<IntegerAttr>(entry.getValue());
          if (!v)
            return proc->emitError() << "gpuir.check_sizes: the value of '"
                                     << entry.getName().getValue()
                                     << "' is not an integer",
                   failure();
          set[entry.getName().getValue()] = v.getInt();
        }
        sets.push_back(std::move(set));
      }
    }
    if (sets.empty())
      sets.push_back({});
    SmallVector<SmallVector<int64_t>> result;
    for (SizeSet &set : sets) {
      SmallVector<int64_t> values;
      for (StringRef name : names) {
        auto it = set.find(name);
        // In the all-sizes mode the grid's sizes need no value (and the
        // rest, checked at 1 when not given, are named in the remark).
        if (it == set.end() && allSizes) {
          values.push_back(1);
          continue;
        }
        if (it == set.end())
          return proc->emitError()
                     << "the synchronization check needs a value for the "
                        "control parameter '"
                     << name
                     << "'; give it with --rake-sync-check=\"sizes=" << name
                     << "=...\" or the procedure's gpuir.check_sizes",
                 failure();
        if (it->second < 0)
          return proc->emitError()
                     << "the synchronization check got " << name << " = "
                     << it->second
                     << "; control parameters are sizes and indices, which "
                        "are not negative",
                 failure();
        values.push_back(it->second);
      }
      result.push_back(std::move(values));
    }
    return result;
  }

  SmallVector<StringRef> controlNames(amir::ProcOp proc) {
    SmallVector<StringRef> names;
    ArrayAttr attr = proc.getArgNamesAttr();
    for (unsigned i = 0; i < proc.getNumArguments(); ++i) {
      StringRef name;
      if (attr && i < attr.size())
        name = cast<StringAttr>(attr[i]).getValue();
      names.push_back(name.empty() ? StringRef(storage.emplace_back(
                                         "arg" + std::to_string(i)))
                                   : name);
    }
    return names;
  }

  LogicalResult check(amir::ProcOp proc, Operation *source) {
    auto values = controlValues(source, controlNames(proc));
    if (failed(values))
      return failure();
    SyncCheckOptions options;
    options.maxErrors = maxErrors;
    options.symmetry = symmetry;
    options.budgetSeconds = budget;
    options.allSizes = allSizes;
    // Progress on stderr: asked for, or a person watching a terminal.
    bool showProgress = progress || llvm::errs().is_displayed();
    auto name = source->getAttrOfType<StringAttr>(
        SymbolTable::getSymbolAttrName());
    std::string label = name ? name.str() : proc.getSymName().str();
    auto lastShown = std::chrono::steady_clock::now();
    bool shownAny = false;
    if (showProgress)
      options.progress = [&](int64_t done, int64_t total) {
        auto now = std::chrono::steady_clock::now();
        if (!progress && now - lastShown < std::chrono::milliseconds(250))
          return;
        lastShown = now;
        shownAny = true;
        llvm::errs() << "\rrake-sync-check @" << label << ": " << done;
        if (total >= 0)
          llvm::errs() << " of " << total;
        llvm::errs() << " tasks interpreted" << (progress ? "\n" : "");
      };
    unsigned hazards = 0;
    bool launches = false;
    proc.walk([&](amir::GuardOp guard) {
      launches |= guard.getThreads() &&
                  isa<amir::DomainAttr>(*guard.getThreads());
    });
    for (ArrayRef<int64_t> set : *values) {
      SyncCheckStats stats;
      std::string shown;
      llvm::raw_string_ostream os(shown);
      SmallVector<StringRef> names = controlNames(proc);
      for (auto [i, v] : llvm::enumerate(set))
        os << (i ? ", " : "") << names[i] << " = " << v;
      // Every report names the size set it was found at.
      options.sizes = shown;
      auto start = std::chrono::steady_clock::now();
      unsigned found = compareReduction
                           ? checkBothWays(proc, set, options, stats)
                           : checkSynchronization(proc, set, options, &stats);
      hazards += found;
      if (shownAny && !progress)
        llvm::errs() << "\n";
      shownAny = false;
      if (!stats.allSizes.empty() && found == 0) {
        // TMA copies take their coordinates as 32-bit signed integers: the
        // proof holds for buffers whose TMA-copied dimensions stay below
        // 2^31 (a larger grid would wrap a box start negative, which TMA
        // clips to zeros).
        bool tma = false;
        source->walk([&](Operation *op) {
          tma |= isa<gpuir::TmaLoadOp, gpuir::TmaStoreOp>(op);
        });
        mlir::emitRemark(source->getLoc())
            << "synchronization check for " << stats.allSizes
            << ": no hazard; task 0 interpreted at grid size 1, every "
               "task of every grid proven by translation to stay inside "
               "the extents and apart from the others (code generation "
               "runs fewer than 2^32 tasks"
            << (tma ? "; TMA coordinates are 32-bit: every dimension a TMA "
                      "copy indexes below 2^31"
                    : "")
            << ")";
      }
      else if (summary)
        remarkSummary(source, shown, found, stats,
                      std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count());
      // A size at which no task runs proves nothing about the kernel.
      if (launches && stats.tasks == 0 && found == 0) {
        InFlightDiagnostic d = requireTasks ? source->emitError()
                                            : source->emitWarning();
        d << "the synchronization check at " << shown
          << " runs no device task, so it proves nothing about the "
             "kernel; check at sizes that launch at least one task";
        if (requireTasks)
          ++hazards;
      }
    }
    return failure(hazards != 0);
  }

  /// The testing aid RAKE_SYNC_CHECK_COMPARE=1 (docs/SyncCheck.md): every
  /// check runs with and without the symmetry reduction, and a difference
  /// in the number of hazards or in any report is an error. The reports of
  /// the run the options ask for are the ones shown; a difference aborts.
  static unsigned checkBothWays(amir::ProcOp proc, ArrayRef<int64_t> set,
                                SyncCheckOptions options,
                                SyncCheckStats &stats) {
    auto render = [](Diagnostic &d) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << d.getLocation() << ": " << d;
      for (Diagnostic &note : d.getNotes())
        os << "\n  " << note.getLocation() << ": " << note;
      return s;
    };
    MLIRContext *ctx = proc->getContext();
    // The run the options ask for is shown; the other is compared with it.
    bool shown = options.symmetry;
    std::vector<std::string> otherReports, shownReports;
    SyncCheckStats otherStats;
    options.symmetry = !shown;
    unsigned other;
    {
      ScopedDiagnosticHandler h(ctx, [&](Diagnostic &d) {
        otherReports.push_back(render(d));
        return success();
      });
      other = checkSynchronization(proc, set, options, &otherStats);
    }
    options.symmetry = shown;
    unsigned found;
    {
      ScopedDiagnosticHandler h(ctx, [&](Diagnostic &d) {
        shownReports.push_back(render(d));
        return failure(); // shown as usual
      });
      found = checkSynchronization(proc, set, options, &stats);
    }
    unsigned full = shown ? other : found, reduced = shown ? found : other;
    std::vector<std::string> &fullReports = shown ? otherReports : shownReports;
    std::vector<std::string> &reducedReports =
        shown ? shownReports : otherReports;
    // A run stopped by its budget proves nothing either way.
    bool comparable = !stats.outOfBudget && !otherStats.outOfBudget;
    if (comparable && (full != reduced || fullReports != reducedReports)) {
      InFlightDiagnostic d = mlir::emitError(proc.getLoc())
                             << "the symmetry reduction changed the check: "
                             << full << " hazards without it, " << reduced
                             << " with it";
      for (const std::string &r : fullReports)
        d.attachNote() << "without: " << r;
      for (const std::string &r : reducedReports)
        d.attachNote() << "with: " << r;
      d.report();
      // A crash, so that `not rake-opt ...` in a lit test fails too.
      llvm::report_fatal_error("RAKE_SYNC_CHECK_COMPARE: the symmetry "
                               "reduction changed a check",
                               /*gen_crash_diag=*/true);
    }
    return found;
  }

  /// What one check covered, for the `summary` option.
  static void remarkSummary(Operation *source, StringRef sizes, unsigned found,
                            const SyncCheckStats &stats, double seconds) {
    InFlightDiagnostic d = mlir::emitRemark(source->getLoc());
    d << "synchronization check";
    if (!sizes.empty())
      d << " at " << sizes;
    d << ": " << (found ? std::to_string(found) + " hazard" +
                              (found == 1 ? "" : "s")
                        : std::string("no hazard"))
      << " in " << stats.tasks << " task" << (stats.tasks == 1 ? "" : "s");
    if (stats.classes)
      d << "; " << stats.classes << " class" << (stats.classes == 1 ? "" : "es")
        << " of equivalent tasks, " << stats.interpreted
        << " interpreted, the rest proven by translation";
    else
      d << ", each interpreted";
    if (!stats.reduction.empty())
      d << " (" << stats.reduction << ")";
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    d << "; " << llvm::formatv("{0:f2}", seconds) << " s, peak memory "
      << usage.ru_maxrss / 1024 << " MB";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    compareReduction = StringRef(getenv("RAKE_SYNC_CHECK_COMPARE") ?: "") == "1";
    auto &coll = getAnalysis<CollectiveAnalysis>();
    if (failed(coll.emitErrors()))
      return signalPassFailure();
    // The check relies on each thread accessing only its own part of a
    // register buffer (it does not record in-order register accesses).
    DistributedMemoryAnalysis dist(module, coll);
    if (failed(dist.emitErrors()))
      return signalPassFailure();
    bool failedAny = false;
    // GpuIR procedures are translated into a scratch module, which is
    // dropped afterwards: checking changes nothing.
    OwningOpRef<ModuleOp> scratch = ModuleOp::create(module.getLoc());
    OpBuilder b(module.getContext());
    b.setInsertionPointToEnd(scratch->getBody());
    for (gpuir::ProcOp proc : module.getOps<gpuir::ProcOp>()) {
      if (failed(checkParameterLayouts(proc))) {
        failedAny = true;
        continue;
      }
      FailureOr<amir::ProcOp> amirProc = convertProcToAMIR(proc, coll, b);
      if (failed(amirProc) || failed(check(*amirProc, proc)))
        failedAny = true;
    }
    for (amir::ProcOp proc : module.getOps<amir::ProcOp>())
      if (failed(check(proc, proc)))
        failedAny = true;
    if (failedAny)
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

  std::deque<std::string> storage;
  bool compareReduction = false;
};

} // namespace
