//===- Disassembly.cpp - nvdisasm -json, read for the verifier ------------===//

#include "Disassembly.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cctype>
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


bool rake::verifier::reaches(const Function &f, size_t from, size_t to,
                             llvm::function_ref<bool(size_t, size_t)> keep) {
  size_t n = f.code.size();
  std::unordered_map<int64_t, size_t> at;
  for (size_t k = 0; k < n; ++k)
    at[f.code[k].offset] = k;
  std::vector<bool> seen(n, false);
  std::vector<size_t> work = {from};
  seen[from] = true;
  auto visit = [&](size_t k, size_t next) {
    if (next < n && !seen[next] && keep(k, next)) {
      seen[next] = true;
      work.push_back(next);
    }
  };
  while (!work.empty()) {
    size_t k = work.back();
    work.pop_back();
    if (k == to)
      return true;
    const Instr &in = f.code[k];
    std::string b = in.base();
    std::vector<std::string> ops = in.operandList();
    if (b == "BRX" || b == "JMX") {
      for (size_t x = 0; x < n; ++x)
        visit(k, x);
      continue;
    }
    bool control = b == "BRA" || b == "JMP" || b == "BSSY" ||
                   b == "WARPSYNC" || b == "BREAK" || b == "BMOV";
    if (control)
      for (const std::string &o : ops) {
        int64_t t = 0;
        if (!llvm::StringRef(o).trim().getAsInteger(0, t))
          if (auto it = at.find(t); it != at.end())
            visit(k, it->second);
      }
    bool ends = in.unconditional() &&
                (((b == "BRA" || b == "JMP") && ops.size() <= 1) ||
                 b == "EXIT" || b == "RET" ||
                 (b == "BPT" && in.has("TRAP")));
    if (!ends)
      visit(k, k + 1);
  }
  return false;
}
