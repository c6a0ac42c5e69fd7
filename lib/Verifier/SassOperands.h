//===- SassOperands.h - Reading SASS instructions' operands ----*- C++ -*-===//
//
// Part of the cubin verifier (lib/Verifier): what an nvdisasm instruction
// reads and writes, for the dataflows over the machine code (Divergence.h):
// register and predicate slots, uniform registers, destination widths and
// the operand roles of the instruction shapes the verifier knows.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_VERIFIER_SASSOPERANDS_H
#define RAKE_VERIFIER_SASSOPERANDS_H

#include "Disassembly.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rake::verifier::sass {

using llvm::StringRef;

/// Registers R0..R255 then predicates P0..P7.
constexpr int kPreds = 256, kSlots = 264;

/// Uniform registers UR0..UR63 then uniform predicates UP0..UP7.
constexpr int kUniformPreds = 64, kUniformSlots = 72;

/// Which operands an instruction writes: registers (the first certainly),
/// predicates, and the operands it reads. None for the shapes it does not
/// know: then every register and predicate it names may be written.
struct Roles {
  std::vector<int> regs, preds;
  std::vector<std::string> sources;
};

/// The instruction's operands (Instr::operandList), each trimmed.
std::vector<std::string> operandsOf(const Instr &in);

/// The opcode without its modifiers: "IMAD" of "IMAD.WIDE.U32".
StringRef baseOf(StringRef opcode);

/// The operands with a load's destination apart from its address: nvdisasm
/// writes `LDS R15, [R7]` as the one operand "R15[R7]".
std::vector<std::string> splitOperands(const Instr &in);

/// The slot of a plain register or predicate operand ("R7", "R7.reuse",
/// "R2.64", "P0", "!P1"), or -1 (uniform registers, RZ, PT, immediates,
/// memory operands).
int slotOf(StringRef o);

/// Whether an operand is a predicate (P0..P7, PT, negated or not).
bool isPredicate(StringRef o);

/// Every register and predicate slot an operand mentions (its address
/// registers inside brackets too).
void slotsIn(StringRef o, llvm::SmallVectorImpl<int> &out);

/// Every uniform register and predicate slot an operand mentions (UR4,
/// UR4.64, UP1, !UP0, inside brackets too); URZ and UPT are constants.
void uniformSlotsIn(StringRef o, llvm::SmallVectorImpl<int> &out);

/// An immediate operand's value (hexadecimal, as nvdisasm writes it; RZ is
/// 0), if it is one.
std::optional<int64_t> immediate(StringRef o);

/// The opcodes (bases) that write no register: stores, branches,
/// barriers, fences, the TMA and bulk copies.
const llvm::StringSet<> &noDestination();

/// The warp-synchronous instructions: every lane of a warp must reach them
/// together.
bool isCollective(StringRef base);

/// The special registers that hold the same value in every lane of a warp.
bool isUniformSpecialRegister(StringRef sr);

/// The registers an instruction certainly writes from its first register
/// (a pair for .64, .WIDE, CS2R and double arithmetic, four for .128), and
/// how many it may write (an mma fragment, a wgmma accumulator).
std::pair<int, int> destinationWidth(StringRef opcode);

/// The registers an instruction writes for the data origins: exact where
/// destinationWidth is unsure of a conversion's or MUFU's width (F2I.U64
/// and F2I.S64, I2F and F2F to F64 and DMNMX write two; the others one),
/// and as destinationWidth says for the matrix instructions and LDSM, whose
/// results are data whatever their width.
std::pair<int, int> dataWidth(StringRef opcode);

/// The roles of an instruction's operands, for the shapes the verifier
/// knows (nothing for the others).
std::optional<Roles> rolesOf(StringRef opcode,
                             const std::vector<std::string> &ops);

/// Instructions whose results are loaded from memory, or computed from
/// what memory holds (mma's operands), or exchanged between lanes of what
/// they hold: their values are data, never an address the compiler
/// computed.
bool loadsData(StringRef base);

/// slotsIn (or uniformSlotsIn), with the second register of each pair an
/// operand reads as one 64-bit value ("R8.64": R8 and R9; "UR4.64": UR4
/// and UR5).
void pairSlotsIn(StringRef o, llvm::SmallVectorImpl<int> &out, bool uniform);

/// What an instruction reads and writes, for the data origins: exact where
/// it must be (a slot counted as certainly written loses its old origin),
/// generous elsewhere (every register an operand may read, widened by the
/// opcode's width; predicates in output positions whose role the shape
/// does not settle both read and possibly written). SASS names outputs
/// first: leading predicates (a comparison's results), the destination
/// register (R or UR), the predicates right after it (carries), then the
/// inputs.
struct DataRoles {
  std::vector<int> certain, may, reads;    ///< R and P slots
  std::vector<int> ucertain, umay, ureads; ///< UR and UP slots
};

DataRoles dataRoles(const Instr &in);

/// The register (R and P) and uniform (UR and UP) slots an operand of an
/// instruction with opcode base `base` reads: a register named with .64 is
/// a pair, every register `width` registers (the opcode's width), a
/// uniform register in brackets a tuple (a TMA or bulk copy's eight,
/// wgmma's gdesc four, a memory descriptor two); "PR" every predicate.
void widenedSlots(StringRef base, StringRef o, int width,
                  std::vector<int> &regs, std::vector<int> &uregs);

} // namespace rake::verifier::sass

#endif // RAKE_VERIFIER_SASSOPERANDS_H
