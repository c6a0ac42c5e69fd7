//===- Disassembly.h - nvdisasm -json, read for the verifier --------------===//
//
// Part of the cubin verifier (lib/Verifier): the SASS of a cubin as
// nvdisasm -json lists it, and the small readers of its operands that the
// rules share.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_VERIFIER_DISASSEMBLY_H
#define RAKE_VERIFIER_DISASSEMBLY_H

#include "Rake/Profile/Profile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rake::verifier {

/// Whether one of an opcode's dot-separated parts is `part` ("64" of
/// "LDG.E.64").
inline bool opcodeHas(llvm::StringRef opcode, llvm::StringRef part) {
  llvm::SmallVector<llvm::StringRef> parts;
  opcode.split(parts, '.');
  return llvm::is_contained(parts, part);
}

/// One SASS instruction.
struct Instr {
  std::string predicate, opcode, operands;
  int64_t offset = 0;
  std::string text() const {
    std::string t = predicate.empty() ? "" : predicate + " ";
    t += opcode;
    if (!operands.empty())
      t += " " + operands;
    return t;
  }
  bool unconditional() const { return predicate.empty() || predicate == "@PT"; }
  std::string base() const { return profile::baseOpcode(opcode); }
  bool has(llvm::StringRef part) const { return opcodeHas(opcode, part); }
  std::vector<std::string> operandList() const {
    std::vector<std::string> out;
    int depth = 0;
    std::string cur;
    for (char c : operands) {
      if (c == '[')
        ++depth;
      if (c == ']')
        --depth;
      if (c == ',' && depth == 0) {
        out.push_back(cur);
        cur.clear();
      } else {
        cur.push_back(c);
      }
    }
    if (!cur.empty())
      out.push_back(cur);
    return out;
  }
};

/// The register an operand names ("R7" from "-|R7.reuse|", "UR6"), or "".
std::string regOf(const std::string &operand);

struct Function {
  std::string name;
  int64_t start = 0, length = 0;
  std::vector<Instr> code;
};

struct Disassembly {
  unsigned sm = 0;
  std::string producer;
  std::map<std::string, Function> functions;
};

/// What one instruction does to control flow. Every rule's control-flow
/// graph (reachability and loops, the fused-region loops, reaching writes,
/// the lanes' dataflow) is built from this one reading of SASS, so that no
/// two rules disagree on which instructions branch, where to, and whether
/// they may fall through.
struct ControlFlow {
  enum Kind : uint8_t {
    Straight, ///< on to the next instruction
    Branch,   ///< BRA, JMP: to the address of its last operand
    Indirect, ///< BRX, JMX: to an address computed at run time
    Call,     ///< CALL: into a function, and back
    Return,   ///< RET: to the caller (or, as ptxas may use it, anywhere)
    Exit,     ///< EXIT, BPT.TRAP: the thread ends
  };
  Kind kind = Straight;
  /// A branch's target, as an index into the code; none where its last
  /// operand names no instruction of the code (a register, a label,
  /// another function's address): such a branch may go anywhere.
  std::optional<size_t> target;
  /// The instructions that a control instruction's other address operands
  /// name: a BSSY's, BREAK's, BMOV's or WARPSYNC's convergence point, a
  /// CALL's target inside the code.
  llvm::SmallVector<size_t, 1> named;
  /// Whether control may go on to the next instruction: always, but after
  /// an unconditional exit, trap, return, indirect branch, or branch with
  /// no operand besides its target (BRA.DIV's uniform register and BRA.U's
  /// predicate operand make a branch conditional).
  bool fallsThrough = true;
};

/// The control flow of each instruction of `code`.
std::vector<ControlFlow> controlFlow(const std::vector<Instr> &code);

/// The instructions whose write of `reg` (their first operand) reaches
/// instruction i of `f` along its control flow (controlFlow), or nothing
/// when some path reaches the function's entry or a call without writing
/// it, or the function has a branch that may go anywhere.
std::optional<std::vector<size_t>>
reachingWrites(const Function &f, size_t i, const std::string &reg);

/// The successors of each instruction of `f` (indices into f.code), an
/// over-approximation of the machine's control flow: the next instruction
/// unless an unconditional branch, exit, return or trap ends the path;
/// every instruction of `f` that an operand of a control instruction names
/// (a branch's target, a BSSY's or WARPSYNC's convergence point); and, for
/// an indirect branch, every instruction.
std::vector<std::vector<size_t>> successors(const Function &f);

/// The loops of `f` through a region's instructions (`inRegion`) other
/// than the loops around the whole region, as their backward edges
/// (source, target; indices into f.code): the cycles left once the back
/// edges of the loops that enclose every instruction of the region, and
/// whose branch lies outside it (the source's own loops around a fused
/// region), are taken away, where the source has a loop around the region
/// (`sourceLoopAround`; else none is). Of each such cycle, the backward edges whose
/// branch is in the region, or all of its backward edges where none is.
std::vector<std::pair<size_t, size_t>>
loopsThroughRegion(const Function &f, llvm::function_ref<bool(size_t)> inRegion,
                   bool sourceLoopAround);

/// Reads nvdisasm -json output.
bool readDisassembly(const std::string &text, Disassembly &d,
                     std::string &error);

/// "__cuda_sm20_rem_u64" from "$__internal_0_$__cuda_sm20_rem_u64".
std::string internalName(const std::string &symbol);

} // namespace rake::verifier

#endif // RAKE_VERIFIER_DISASSEMBLY_H
