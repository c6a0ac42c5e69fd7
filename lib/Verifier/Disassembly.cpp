//===- Disassembly.cpp - nvdisasm -json, read for the verifier ------------===//

#include "Disassembly.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cctype>
#include <map>
#include <optional>
#include <unordered_map>

using namespace rake::verifier;

std::string rake::verifier::regOf(const std::string &operand) {
  size_t i = operand.find('R');
  while (i != std::string::npos) {
    if (i > 0 && operand[i - 1] == 'U' &&
        (i == 1 || !std::isalnum((unsigned char)operand[i - 2])))
      --i; // a uniform register
    bool start = i == 0 || !std::isalnum((unsigned char)operand[i - 1]);
    if (operand[i] == 'U') {
      size_t j = i + 2;
      while (j < operand.size() && std::isdigit((unsigned char)operand[j]))
        ++j;
      if (start && j > i + 2)
        return operand.substr(i, j - i);
      i = operand.find('R', i + 2);
      continue;
    }
    size_t j = i + 1;
    while (j < operand.size() && std::isdigit((unsigned char)operand[j]))
      ++j;
    if (start && j > i + 1)
      return operand.substr(i, j - i);
    i = operand.find('R', i + 1);
  }
  return "";
}

bool rake::verifier::readDisassembly(const std::string &text, Disassembly &d,
                     std::string &error) {
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(text);
  if (!v) {
    error = "the disassembly is not JSON: " + llvm::toString(v.takeError());
    return false;
  }
  const llvm::json::Array *top = v->getAsArray();
  if (!top || top->size() != 2 || !(*top)[0].getAsObject() ||
      !(*top)[1].getAsArray()) {
    error = "the disassembly is not nvdisasm -json output (expected "
            "[header, [functions]])";
    return false;
  }
  const llvm::json::Object &head = *(*top)[0].getAsObject();
  if (const llvm::json::Object *sm = head.getObject("SM"))
    if (const llvm::json::Object *ver = sm->getObject("version"))
      d.sm = unsigned(ver->getInteger("major").value_or(0) * 10 +
                      ver->getInteger("minor").value_or(0));
  if (std::optional<llvm::StringRef> p = head.getString("Producer"))
    d.producer = p->str();
  for (const llvm::json::Value &fv : *(*top)[1].getAsArray()) {
    const llvm::json::Object *fo = fv.getAsObject();
    std::optional<llvm::StringRef> name =
        fo ? fo->getString("function-name") : std::nullopt;
    const llvm::json::Array *instrs = fo ? fo->getArray("sass-instructions") : nullptr;
    if (!name || !instrs || !fo->getInteger("start")) {
      error = "a function of the disassembly lacks function-name, start or "
              "sass-instructions";
      return false;
    }
    Function f;
    f.name = name->str();
    f.start = *fo->getInteger("start");
    f.length = fo->getInteger("length").value_or(0);
    int64_t at = f.start;
    for (const llvm::json::Value &iv : *instrs) {
      const llvm::json::Object *io = iv.getAsObject();
      std::optional<llvm::StringRef> op = io ? io->getString("opcode") : std::nullopt;
      if (!op) {
        error = "an instruction of " + f.name + " in the disassembly has no opcode";
        return false;
      }
      Instr in;
      in.opcode = op->str();
      in.operands = io->getString("operands").value_or("").str();
      in.predicate = io->getString("predicate").value_or("").str();
      in.offset = at;
      at += 16;
      f.code.push_back(std::move(in));
    }
    d.functions[f.name] = std::move(f);
  }
  return true;
}

std::string rake::verifier::internalName(const std::string &symbol) {
  llvm::StringRef s(symbol);
  if (!s.consume_front("$__internal_"))
    return "";
  size_t dollar = s.find('$');
  if (dollar == llvm::StringRef::npos)
    return "";
  return s.substr(dollar + 1).str();
}

std::vector<ControlFlow>
rake::verifier::controlFlow(const std::vector<Instr> &code) {
  size_t n = code.size();
  std::unordered_map<int64_t, size_t> at;
  for (size_t k = 0; k < n; ++k)
    at[code[k].offset] = k;
  auto instructionAt = [&](const std::string &o) -> std::optional<size_t> {
    int64_t t = 0;
    if (llvm::StringRef(o).trim().getAsInteger(0, t))
      return std::nullopt;
    auto it = at.find(t);
    return it == at.end() ? std::nullopt : std::optional<size_t>(it->second);
  };
  std::vector<ControlFlow> out(n);
  for (size_t k = 0; k < n; ++k) {
    const Instr &in = code[k];
    ControlFlow &c = out[k];
    std::string b = in.base();
    std::vector<std::string> ops = in.operandList();
    bool always = in.unconditional();
    if (b == "BRA" || b == "JMP") {
      c.kind = ControlFlow::Branch;
      if (!ops.empty())
        c.target = instructionAt(ops.back());
      c.fallsThrough = !(always && ops.size() <= 1);
      continue;
    }
    if (b == "BRX" || b == "JMX")
      c.kind = ControlFlow::Indirect;
    else if (b == "CALL")
      c.kind = ControlFlow::Call;
    else if (b == "RET")
      c.kind = ControlFlow::Return;
    else if (b == "EXIT" || (b == "BPT" && in.has("TRAP")))
      c.kind = ControlFlow::Exit;
    if (c.kind != ControlFlow::Straight && c.kind != ControlFlow::Call)
      c.fallsThrough = !always;
    // Address operands of other control instructions (a WARPSYNC's lone
    // immediate is its mask).
    if (b == "CALL" || b == "BSSY" || b == "BREAK" || b == "BMOV" ||
        (b == "WARPSYNC" && ops.size() > 1))
      for (const std::string &o : ops)
        if (std::optional<size_t> t = instructionAt(o))
          c.named.push_back(*t);
  }
  return out;
}

std::vector<std::vector<size_t>>
rake::verifier::successors(const Function &f) {
  size_t n = f.code.size();
  std::vector<ControlFlow> flow = controlFlow(f.code);
  std::vector<std::vector<size_t>> succ(n);
  for (size_t k = 0; k < n; ++k) {
    const ControlFlow &c = flow[k];
    // An indirect branch, a return (whose target is a register) and a
    // branch whose target is no instruction we can read may go anywhere.
    if (c.kind == ControlFlow::Indirect || c.kind == ControlFlow::Return ||
        (c.kind == ControlFlow::Branch && !c.target)) {
      for (size_t x = 0; x < n; ++x)
        succ[k].push_back(x);
      continue;
    }
    if (c.target)
      succ[k].push_back(*c.target);
    llvm::append_range(succ[k], c.named);
    if (c.fallsThrough && k + 1 < n)
      succ[k].push_back(k + 1);
  }
  return succ;
}

/// The instructions `from` reaches along `succ` without entering `avoid`.
static std::vector<bool> reachable(const std::vector<std::vector<size_t>> &succ,
                                   size_t from, size_t avoid) {
  std::vector<bool> seen(succ.size(), false);
  if (from == avoid)
    return seen;
  std::vector<size_t> work = {from};
  seen[from] = true;
  while (!work.empty()) {
    size_t k = work.back();
    work.pop_back();
    for (size_t x : succ[k])
      if (x != avoid && !seen[x]) {
        seen[x] = true;
        work.push_back(x);
      }
  }
  return seen;
}

std::vector<std::pair<size_t, size_t>> rake::verifier::loopsThroughRegion(
    const Function &f, llvm::function_ref<bool(size_t)> inRegion,
    bool sourceLoopAround) {
  size_t n = f.code.size();
  const std::vector<std::vector<size_t>> all = successors(f);
  std::vector<std::vector<size_t>> succ = all, pred(n);
  for (size_t k = 0; k < n; ++k)
    for (size_t x : all[k])
      pred[x].push_back(k);
  auto backward = [&](size_t x, size_t y) {
    return f.code[y].offset <= f.code[x].offset;
  };
  // Back edges x -> y of loops around the whole region, their branch x
  // outside it: y dominates x (x is unreachable from the entry without
  // y), and the loop's body (y and what reaches x without passing y)
  // holds every instruction of the region.
  for (size_t x = 0; x < n && sourceLoopAround; ++x) {
    if (inRegion(x))
      continue;
    llvm::erase_if(succ[x], [&](size_t y) {
      if (!backward(x, y) || (y != 0 && reachable(all, 0, y)[x]))
        return false;
      std::vector<bool> body = reachable(pred, x, y);
      body[y] = true;
      for (size_t k = 0; k < n; ++k)
        if (inRegion(k) && !body[k])
          return false;
      return true;
    });
  }
  // What is left: a backward edge x -> y closes the cycles through the
  // instructions y reaches and that reach x, its strongly connected
  // component (named here by its first instruction). Of each component
  // that holds an instruction of the region, its backward edges inside
  // the region, or all of them where none is.
  std::vector<std::vector<size_t>> rev(n);
  for (size_t k = 0; k < n; ++k)
    for (size_t x : succ[k])
      rev[x].push_back(k);
  std::map<size_t, std::pair<std::vector<std::pair<size_t, size_t>>,
                             std::vector<std::pair<size_t, size_t>>>>
      components; // first instruction -> (inside, other)
  for (size_t x = 0; x < n; ++x)
    for (size_t y : succ[x]) {
      if (!backward(x, y))
        continue;
      std::vector<bool> from = reachable(succ, y, n), to = reachable(rev, x, n);
      std::optional<size_t> first;
      bool touches = false;
      for (size_t k = 0; k < n; ++k)
        if (from[k] && to[k]) {
          first = first ? first : k;
          touches |= inRegion(k);
        }
      if (first && touches) {
        auto &[inside, other] = components[*first];
        (inRegion(x) ? inside : other).push_back({x, y});
      }
    }
  std::vector<std::pair<size_t, size_t>> out;
  for (auto &[first, edges] : components)
    llvm::append_range(out, edges.first.empty() ? edges.second : edges.first);
  llvm::sort(out);
  return out;
}

/// Code order alone is not enough: ptxas may lay out another branch's
/// writes (a slow path's arguments) between the write and the use.
std::optional<std::vector<size_t>>
rake::verifier::reachingWrites(const Function &f, size_t i,
                               const std::string &reg) {
  size_t n = f.code.size();
  std::vector<ControlFlow> flow = controlFlow(f.code);
  std::vector<std::vector<size_t>> preds(n);
  for (size_t k = 0; k < n; ++k) {
    const ControlFlow &c = flow[k];
    if (c.fallsThrough && k + 1 < n)
      preds[k + 1].push_back(k);
    if (c.kind == ControlFlow::Indirect ||
        (c.kind == ControlFlow::Branch && !c.target))
      return std::nullopt;
    if (c.target)
      preds[*c.target].push_back(k);
  }
  std::vector<size_t> writes;
  std::vector<bool> seen(n, false);
  std::vector<size_t> work = {i};
  while (!work.empty()) {
    size_t j = work.back();
    work.pop_back();
    if (preds[j].empty())
      return std::nullopt; // the entry, or code nothing reaches
    for (size_t k : preds[j]) {
      if (seen[k])
        continue;
      seen[k] = true;
      const Instr &in = f.code[k];
      if (in.base() == "CALL")
        return std::nullopt;
      std::vector<std::string> ops = in.operandList();
      if (!ops.empty() && regOf(ops[0]) == reg) {
        writes.push_back(k);
        // A predicated write may not happen: look further back too.
        if (in.unconditional())
          continue;
      }
      work.push_back(k);
    }
  }
  return writes;
}
