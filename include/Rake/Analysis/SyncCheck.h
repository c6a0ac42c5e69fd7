//===- SyncCheck.h - the abstract machine interpreter -----------*- C++ -*-===//
//
// The synchronization check (section 5 of the Exo-GPU paper): interpret an
// AMIR procedure for concrete values of its control parameters. Variables
// hold the history of accesses to them; each recorded access is visible to
// some threads on some qualitative timelines at some level, and fences,
// arrives and awaits widen that visibility. A check fails (a hazard) when
// an earlier access is not visible enough to the threads that access the
// same elements later.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_ANALYSIS_SYNCCHECK_H
#define RAKE_ANALYSIS_SYNCCHECK_H

#include "Rake/Dialect/AMIR/IR/AMIR.h"

#include <functional>

namespace mlir::rake {

/// The kinds of data hazard: a later access of elements an earlier one
/// touched, without synchronization that orders the earlier before it.
enum class HazardKind {
  ReadAfterWrite,  ///< RAW: a read of written elements
  WriteAfterRead,  ///< WAR: a write of read elements
  WriteAfterWrite, ///< WAW: a write of written elements
};
/// "RAW", "WAR", "WAW", as the reports name them.
inline const char *hazardName(HazardKind k) {
  switch (k) {
  case HazardKind::ReadAfterWrite: return "RAW";
  case HazardKind::WriteAfterRead: return "WAR";
  case HazardKind::WriteAfterWrite: return "WAW";
  }
  return "?";
}
/// The kind of a later access (mutating or not) after an earlier one.
inline HazardKind hazardKind(bool laterWrites, bool earlierWrote) {
  if (!laterWrites)
    return HazardKind::ReadAfterWrite;
  return earlierWrote ? HazardKind::WriteAfterWrite : HazardKind::WriteAfterRead;
}

struct SyncCheckOptions {
  /// Stop after this many hazards (0: no limit).
  unsigned maxErrors = 1;
  /// Check one representative of each class of equivalent device tasks
  /// (tasks whose accesses are translates of each other) and prove the
  /// rest by translation (docs/SyncCheck.md, "Symmetry"); off: interpret
  /// every task. The verdict and the reports are the same either way.
  bool symmetry = true;
  /// Stop, with the check unproven and an error that says so, once it has
  /// run this many seconds (0: no limit).
  double budgetSeconds = 0;
  /// Called after each interpreted task, one call at a time, with the tasks
  /// interpreted so far and how many will be (-1 when not known).
  std::function<void(int64_t done, int64_t total)> progress;
  /// Prove the procedure for every size of its task grid (the parameters
  /// the task loops run to), the other parameters at the values given
  /// (docs/SyncCheck.md, "Every size of the task grid"); a procedure the
  /// argument does not fit is refused with an error saying why.
  bool allSizes = false;
  /// The size set, as "M = 64, N = 32", named at the end of every report
  /// (empty: a procedure without control parameters).
  std::string sizes;
};

/// What one check covered.
struct SyncCheckStats {
  /// The device tasks the procedure runs at these sizes.
  int64_t tasks = 0;
  /// The classes of equivalent tasks (0: the symmetry reduction was not
  /// used) and the tasks interpreted.
  int64_t classes = 0;
  int64_t interpreted = 0;
  /// Why the reduction was not used or did not suffice (empty when it
  /// proved the check alone).
  std::string reduction;
  /// The check ran out of its budget (an error says so).
  bool outOfBudget = false;
  /// In the all-sizes mode, what was proven ("every Mt >= 1, Nt >= 1 at
  /// Kt = 7"); empty when nothing was.
  std::string allSizes;
};

/// Interprets `proc` for the given control values (one per parameter) and
/// reports each hazard as an error at the later access, with notes at the
/// earlier access and at the synchronization that was too weak. Returns the
/// number of hazards found.
unsigned checkSynchronization(amir::ProcOp proc, ArrayRef<int64_t> controls,
                              const SyncCheckOptions &options,
                              SyncCheckStats *stats = nullptr);

} // namespace mlir::rake

#endif // RAKE_ANALYSIS_SYNCCHECK_H
