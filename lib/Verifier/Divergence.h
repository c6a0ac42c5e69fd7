//===- Divergence.h - Warp collectives under lane-divergent control -------===//
//
// Part of the cubin verifier (lib/Verifier): which warp-synchronous
// instructions of a SASS function some lanes of a warp may not reach.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_VERIFIER_DIVERGENCE_H
#define RAKE_VERIFIER_DIVERGENCE_H

#include "Disassembly.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rake::verifier {

/// A warp collective that not every lane of a warp may reach: inside the
/// region of a branch (or early exit) whose condition differs between the
/// lanes, or guarded by such a predicate itself.
struct DivergentCollective {
  /// The collective's index in the function's code.
  size_t at;
  /// The instruction whose lane-varying condition decides it: a branch,
  /// an exit, or the collective itself (guarded by the predicate).
  size_t because;
};

/// Finds the collectives (SHFL, VOTE, MATCH, REDUX, WARPSYNC, mma.sync's
/// HMMA/IMMA/QMMA/OMMA, wgmma's HGMMA/IGMMA/QGMMA and WARPGROUP, LDSM,
/// STSM, USETMAXREG) that `code` reaches under lane-divergent control. Lane
/// uniformity is a forward dataflow over the function's control flow:
/// uniform registers (UR, UP) are uniform by construction; SR_TID.X and
/// SR_LANEID are a lane index (32 w + lane, w the same for the warp), which
/// stays uniform after a shift right by 5 or more, a division by a multiple
/// of 32 (a multiply-high by its magic number), or a comparison against a
/// multiple of 32; anything else computed from a lane-varying value, loaded
/// from a lane-varying address, or written under lane-divergent control
/// varies. A branch on a varying predicate diverges until its immediate
/// post-dominator. Conservative: what it cannot tell uniform is varying.
///
/// The same dataflow follows where values come from: what a load (LDG,
/// LDS, LD, LDL, LDSM, atomics, texture and surface reads), an mma, or code
/// in the region of a branch on such a value writes is data, and so is
/// everything computed from it (through registers, predicates, guards and
/// uniform registers). An address computed from data is a gather or a
/// scatter: GpuIR indexes memory by affine functions of control values
/// only, so compiled code has none.
struct DataAddress {
  /// The memory instruction's index in the function's code.
  size_t at;
  /// The instruction whose loaded (or data-dependent) value the address
  /// is computed from.
  size_t origin;
};

struct LaneFindings {
  std::vector<DivergentCollective> collectives;
  std::vector<DataAddress> dataAddresses;
};

/// `callees`: the code of the functions the code calls, by name. A call
/// passes the data origins of the registers the callee reads before writing
/// them to the registers it writes; one it may not write keeps its origin
/// too. A call to a function not given makes every register data.
/// `tidIsLane`: SR_TID.X is 32 w + lane with w the same in every lane of
/// a warp, as in a one-dimensional block or one whose width is a multiple
/// of 32; otherwise (a block of 48 x 2: warp 1 holds x = 32..47 of row 0
/// and x = 0..15 of row 1) it is any lane-varying value.
LaneFindings
analyzeLanes(const std::vector<Instr> &code, int64_t start,
             const std::map<std::string, const Function *> &callees,
             bool tidIsLane);

} // namespace rake::verifier

#endif // RAKE_VERIFIER_DIVERGENCE_H
