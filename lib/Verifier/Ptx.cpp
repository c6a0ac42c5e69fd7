//===- Ptx.cpp - What the verifier reads from PTX -------------------------===//
//
// The PTX header (.version, .target, .address_size), each .entry's parameter
// list laid out as the PTX ISA lays out kernel parameters (each at the next
// multiple of its alignment), each function's backward branches (its loops),
// and the floating-point modifiers the profiles forbid.
//
//===----------------------------------------------------------------------===//

#include "Rake/Verifier/Verifier.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>

using namespace rake::verifier;

const char *const rake::verifier::kFusedRegionFile = "rake-fused-regions";

namespace {

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> words(const std::string &s) {
  std::vector<std::string> out;
  std::string w;
  for (char c : s + " ") {
    if (std::isspace((unsigned char)c) || c == ',' || c == '(' || c == ')') {
      if (!w.empty())
        out.push_back(w);
      w.clear();
    } else {
      w.push_back(c);
    }
  }
  return out;
}

unsigned typeSize(const std::string &t) {
  static const std::map<std::string, unsigned> sizes = {
      {".b8", 1},  {".u8", 1},  {".s8", 1},  {".b16", 2}, {".u16", 2},
      {".s16", 2}, {".f16", 2}, {".bf16", 2}, {".b32", 4}, {".u32", 4},
      {".s32", 4}, {".f32", 4}, {".b64", 8}, {".u64", 8}, {".s64", 8},
      {".f64", 8}, {".pred", 1}};
  auto it = sizes.find(t);
  return it == sizes.end() ? 0 : it->second;
}

/// A decimal number, or 0 when \p s does not start with one (no exceptions:
/// the project builds with -fno-exceptions).
unsigned number(const std::string &s) {
  unsigned long v = 0;
  size_t i = 0;
  while (i < s.size() && std::isdigit((unsigned char)s[i]) && v < 1000000000)
    v = v * 10 + unsigned(s[i++] - '0');
  return unsigned(v);
}

bool hasPart(const std::string &opcode, const std::string &part) {
  std::string dotted = opcode + ".";
  return dotted.find(part + ".") != std::string::npos;
}

} // namespace

const PtxEntry *PtxInfo::findEntry(const std::string &name) const {
  for (const PtxEntry &e : entries)
    if (e.name == name)
      return &e;
  return nullptr;
}

namespace {

/// Reads the PTX text line by line and returns its lines with the `//` and
/// `/* */` comments removed, one string per source line (so that index + 1 is
/// the line number).
std::vector<std::string> stripComments(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  bool block = false;
  while (std::getline(in, line)) {
    std::string kept;
    for (size_t i = 0; i < line.size(); ++i) {
      if (block) {
        if (line.compare(i, 2, "*/") == 0) {
          block = false;
          ++i;
        }
        continue;
      }
      // A string literal (a .file name) is kept whole: comment markers
      // inside it are not comments, as ptxas reads them.
      if (line[i] == '"') {
        size_t j = i + 1;
        while (j < line.size() && line[j] != '"')
          j += line[j] == '\\' ? 2 : 1;
        kept.append(line, i, std::min(j + 1, line.size()) - i);
        i = std::min(j, line.size());
        continue;
      }
      if (line.compare(i, 2, "//") == 0)
        break;
      if (line.compare(i, 2, "/*") == 0) {
        block = true;
        ++i;
        continue;
      }
      kept.push_back(line[i]);
    }
    lines.push_back(kept);
  }
  return lines;
}

/// What a phase of the line loop tells the loop to do next.
enum class Step {
  NextLine, ///< the line is done: go on with the next one
  Go,       ///< go on with the rest of the line in the next state
  Fail,     ///< stop: the error is set
};

/// The state of parsePtx while it walks the lines of the module.
struct PtxParser {
  PtxInfo &out;
  std::string &error;
  // A module-scope `.extern .shared` is dynamic shared memory any kernel may
  // address (ptxas reserves it in every kernel of the module).
  bool moduleExternShared = false;
  enum { Top, Params, Body } state = Top;
  PtxEntry *entry = nullptr;
  std::string function; // the .entry or .func whose body we are in
  int depth = 0;
  std::map<std::string, size_t> labels; // label -> statement index
  std::vector<std::pair<std::string, size_t>> branches;
  size_t statement = 0;
  // Text order of the body's directives, labels and instructions, and
  // where each `.loc` (file, line), label and backward branch falls in it:
  // which loops enclose a fused region (PtxEntry::regionsInLoops).
  size_t position = 0;
  std::vector<std::pair<std::pair<unsigned, unsigned>, size_t>> locAt;
  std::map<std::string, size_t> labelAt;
  std::vector<std::pair<std::string, size_t>> branchAt;
  // By entry name (the entries' vector may move them).
  std::map<std::string, std::set<std::pair<unsigned, unsigned>>> enclosed;
  int operandBraces = 0; // open vector-operand braces of the statement
  // An instruction read so far: instructions end at ';' and may span lines
  // (the block-scaled mma's operands follow on lines of their own).
  std::string pending;
  size_t pendingLine = 0;
  std::map<unsigned, std::string> files; // .file number -> name

  PtxParser(PtxInfo &out, std::string &error) : out(out), error(error) {}

  /// Reads a module-scope line (line \p ln, 0-based): the .version, .target
  /// and .address_size directives, a module `.extern .shared`, and the start
  /// of an .entry or a .func, in which case \p line becomes what follows the
  /// opening '(' of its parameter list.
  Step topLevel(size_t ln, std::string &line) {
    std::vector<std::string> w = words(line);
    if (w.empty())
      return Step::NextLine;
    if (w[0] == ".file" && w.size() > 2) {
      // .file N "name" [, timestamp, size]
      size_t q = line.find('"'), e = line.find('"', q + 1);
      if (q != std::string::npos && e != std::string::npos)
        files[number(w[1])] = line.substr(q + 1, e - q - 1);
      return Step::NextLine;
    }
    if (w[0] == ".version" && w.size() > 1)
      out.version = w[1];
    else if (w[0] == ".target" && w.size() > 1)
      out.target = w[1];
    else if (w[0] == ".address_size" && w.size() > 1)
      out.addressSize = number(w[1]);
    if (std::find(w.begin(), w.end(), ".extern") != w.end() &&
        std::find(w.begin(), w.end(), ".shared") != w.end())
      moduleExternShared = true;
    bool isEntry = false, isFunc = false;
    size_t nameAt = 0;
    for (size_t i = 0; i < w.size(); ++i) {
      if (w[i] == ".entry") {
        isEntry = true;
        nameAt = i + 1;
        break;
      }
      if (w[i] == ".func") {
        isFunc = true;
        // .func (.param ...) name(...): the name follows the return list.
        size_t close = line.find(')');
        size_t open = line.find('(');
        std::string rest =
            (open != std::string::npos && open < line.find(".func") + 6 + 2 &&
             close != std::string::npos)
                ? line.substr(close + 1)
                : line.substr(line.find(".func") + 5);
        std::vector<std::string> rw = words(rest);
        function = rw.empty() ? "?" : rw[0];
        break;
      }
    }
    if (isEntry) {
      if (nameAt >= w.size()) {
        error = "PTX line " + std::to_string(ln + 1) + ": .entry without a name";
        return Step::Fail;
      }
      out.entries.push_back(PtxEntry());
      entry = &out.entries.back();
      entry->name = w[nameAt];
      function = entry->name;
      state = Params;
      // Parameters may start on this line.
      size_t open = line.find('(');
      line = open == std::string::npos ? "" : line.substr(open + 1);
    } else if (isFunc) {
      out.functions.insert(function);
      state = Params;
      entry = nullptr;
      // The parameter list opens after the name.
      size_t at = line.find(function, line.find(".func") + 5);
      size_t open = at == std::string::npos ? std::string::npos
                                            : line.find('(', at);
      line = open == std::string::npos ? "" : line.substr(open + 1);
    } else {
      return Step::NextLine;
    }
    return Step::Go;
  }

  /// Reads the `.param` declarations in \p inside (part of line \p ln, within
  /// the current .entry's parameter list) and lays each out in the parameter
  /// bank at the next multiple of its alignment.
  bool entryParams(size_t ln, const std::string &inside) {
    std::vector<std::string> w = words(inside);
    for (size_t i = 0; i < w.size(); ++i) {
      if (w[i] != ".param")
        continue;
      PtxParam p;
      unsigned align = 0;
      bool pointer = false;
      size_t j = i + 1;
      for (; j < w.size() && w[j][0] == '.'; ++j) {
        if (w[j] == ".ptr")
          pointer = true;
        else if (w[j] == ".align" && j + 1 < w.size()) {
          if (!pointer && p.type.empty())
            align = number(w[j + 1]);
          ++j;
        } else if (typeSize(w[j]))
          p.type = w[j];
        // Anything else (.global, .shared: the pointee's state space)
        // says nothing about the layout.
      }
      if (j >= w.size() || p.type.empty()) {
        error = "PTX line " + std::to_string(ln + 1) +
                ": cannot read a parameter of " + entry->name;
        return false;
      }
      std::string name = w[j];
      unsigned count = 1;
      size_t br = name.find('[');
      if (br != std::string::npos) {
        count = number(name.substr(br + 1));
        name = name.substr(0, br);
      }
      p.name = name;
      p.size = typeSize(p.type) * count;
      p.align = align ? align : typeSize(p.type);
      unsigned at = entry->paramBytes;
      at = (at + p.align - 1) / p.align * p.align;
      p.offset = at;
      entry->paramBytes = at + p.size;
      entry->params.push_back(p);
      i = j;
    }
    return true;
  }

  /// Reads \p line (line \p ln) inside a parameter list: the parameters up to
  /// ')', after which \p line becomes the rest of the line and the body
  /// begins.
  Step paramList(size_t ln, std::string &line) {
    // Parameters until ')', then the body from '{'.
    std::string params = line;
    size_t close = params.find(')');
    std::string inside =
        close == std::string::npos ? params : params.substr(0, close);
    if (entry && !entryParams(ln, inside))
      return Step::Fail;
    if (close == std::string::npos)
      return Step::NextLine;
    line = params.substr(close + 1);
    state = Body;
    depth = 0;
    statement = 0;
    return Step::Go;
  }

  /// Reads the opcode \p opcode of a matrix product (mma.*,
  /// wgmma.mma_async*) and records its input format in the current .entry.
  void matrixFormat(const std::string &opcode) {
    // A matrix product's input formats: the types after the accumulator's
    // (mma.sync...f32.bf16.bf16.f32, wgmma.mma_async...f32.bf16.bf16,
    // mma.sync...block_scale...f32.e2m1.e3m2.f32.ue8m0).
    static const std::set<std::string> formats = {
        "f16", "bf16", "tf32", "f32", "f64", "s8", "u8", "s4", "u4",
        "b1", "e4m3", "e5m2", "e2m1", "e3m2", "e2m3", "s32", "f16x2"};
    std::vector<std::string> types;
    size_t at = 0;
    while (at != std::string::npos) {
      size_t next = opcode.find('.', at + 1);
      std::string part = opcode.substr(at + 1, next == std::string::npos
                                                   ? std::string::npos
                                                   : next - at - 1);
      if (formats.count(part))
        types.push_back(part);
      at = next;
    }
    // A's format and B's (they differ in kind::mxf8f6f4's mixed pairs).
    for (size_t i = 1; i < types.size() && i <= 2; ++i)
      entry->matrixFormats.insert(types[i]);
  }

  /// Reads the opcode \p opcode of statement \p s (line \p ln) for the
  /// floating-point modifiers the profiles forbid: .ftz, .approx (and
  /// div.full), and directed rounding of arithmetic.
  void fpModifiers(size_t ln, const std::string &s, const std::string &opcode) {
    auto addFp = [&](const std::string &rule, const std::string &why) {
      Finding f;
      f.kernel = function;
      f.instruction = s;
      f.rule = rule;
      f.message = "PTX line " + std::to_string(ln + 1) + ": " + why;
      out.fpFindings.push_back(f);
    };
    bool floating = hasPart(opcode, ".f32") || hasPart(opcode, ".f64") ||
                    hasPart(opcode, ".f16") || hasPart(opcode, ".f16x2");
    if (hasPart(opcode, ".ftz"))
      addFp("fp-ftz", opcode + " flushes subnormals to zero (.ftz)");
    if (hasPart(opcode, ".approx") || opcode.rfind("div.full", 0) == 0)
      addFp("fp-approx", opcode + " is an approximation, not correctly rounded");
    std::string base = opcode.substr(0, opcode.find('.'));
    if (floating &&
        (base == "add" || base == "sub" || base == "mul" || base == "fma" ||
         base == "mad" || base == "div" || base == "sqrt" || base == "rcp") &&
        (hasPart(opcode, ".rz") || hasPart(opcode, ".rm") || hasPart(opcode, ".rp")))
      addFp("fp-rounding", opcode + " rounds other than to nearest even");
  }

  /// Reads one trimmed statement \p s of a body (line \p ln): a directive
  /// (`.extern .shared`), or an instruction: its branch target, its matrix
  /// format and its floating-point modifiers.
  void bodyStatement(size_t ln, const std::string &s) {
    if (entry && !s.empty() && s[0] == '.') {
      std::vector<std::string> dw = words(s);
      if (dw.size() >= 3 && dw[0] == ".loc") {
        std::pair<unsigned, unsigned> loc = {number(dw[1]), number(dw[2])};
        entry->locs.insert(loc);
        locAt.push_back({loc, ++position});
      }
      if (std::find(dw.begin(), dw.end(), ".extern") != dw.end() &&
          std::find(dw.begin(), dw.end(), ".shared") != dw.end())
        entry->externShared = true;
    }
    if (s.empty() || s[0] == '.')
      return;
    ++statement;
    std::vector<std::string> w = words(s);
    // A guard (`@%p`, `@!%p`, or `@ %p` with a space), then the opcode,
    // whose modifiers ptxas also takes apart from it (`rsqrt .approx.f32`
    // is rsqrt.approx.f32: an adversarial review hid .approx so).
    size_t op = 0;
    if (!w.empty() && w[0][0] == '@')
      op = (w[0] == "@" || w[0] == "@!") ? 2 : 1;
    if (op >= w.size())
      return;
    std::string opcode = w[op];
    while (op + 1 < w.size() && w[op + 1][0] == '.')
      opcode += w[++op];
    ++position;
    if ((opcode == "bra" || opcode == "bra.uni") && op + 1 < w.size()) {
      branches.emplace_back(w[op + 1], statement);
      branchAt.emplace_back(w[op + 1], position);
    }
    if (entry && (opcode.rfind("mma.", 0) == 0 ||
                  opcode.rfind("wgmma.mma_async", 0) == 0))
      matrixFormat(opcode);
    fpModifiers(ln, s, opcode);
  }

  /// Ends the body of the current function: counts the current .entry's
  /// backward branches (a branch to a label at or before it) from the labels
  /// and branches the body recorded.
  void finishBody() {
    if (entry)
      for (auto &[label, at] : branches) {
        auto it = labels.find(label);
        if (it != labels.end() && it->second <= at)
          ++entry->backwardBranches;
      }
    if (entry)
      for (size_t i = 0; i < locAt.size(); ++i) {
        // Where (file, line) first starts, and where the code after its
        // last `.loc` ends: at the next `.loc` of another line.
        auto [loc, first] = locAt[i];
        if (std::any_of(locAt.begin(), locAt.begin() + i,
                        [&](const auto &l) { return l.first == loc; }))
          continue;
        size_t end = SIZE_MAX;
        for (size_t j = i + 1; j < locAt.size(); ++j)
          if (locAt[j].first == loc)
            end = SIZE_MAX;
          else if (end == SIZE_MAX)
            end = locAt[j].second;
        for (auto &[label, at] : branchAt) {
          auto it = labelAt.find(label);
          if (it != labelAt.end() && it->second < first && at > end &&
              end != SIZE_MAX)
            enclosed[entry->name].insert(loc);
        }
      }
    locAt.clear();
    labelAt.clear();
    branchAt.clear();
    position = 0;
    labels.clear();
    branches.clear();
    entry = nullptr;
    function.clear();
  }

  /// Reads \p line (line \p ln) inside a function body: splits it into
  /// statements at ';' (an instruction may continue on the next lines; a
  /// directive ends with its line), records labels (ending in ':'), follows
  /// the nesting of braces and ends the body at the closing '}'.
  void bodyLine(size_t ln, const std::string &line) {
    // Statements split at ';', labels end with ':', braces nest.
    std::string &cur = pending;
    for (size_t i = 0; i <= line.size(); ++i) {
      if (trim(cur).empty())
        pendingLine = ln;
      char c = i < line.size() ? line[i] : '\n';
      if (c == '\n') {
        // The line's end ends a directive (.loc has no ';'); an
        // instruction goes on.
        if (trim(cur).empty() || trim(cur)[0] != '.')
          break;
        c = ';';
      }
      // Braces inside a statement are a vector operand ({%f1, %f2}), not
      // a block.
      if (c == '{' && !trim(cur).empty())
        ++operandBraces;
      if (operandBraces > 0 && (c == '{' || c == '}')) {
        if (c == '}')
          --operandBraces;
        cur.push_back(c);
        continue;
      }
      if (c == '{' || c == '}') {
        depth += c == '{' ? 1 : -1;
        cur.clear();
        if (depth == 0 && c == '}') {
          finishBody();
          state = Top;
          break;
        }
        continue;
      }
      // A label ends with one ':' ("kind::f8f6f4" is part of an opcode).
      bool doubleColon = (i + 1 < line.size() && line[i + 1] == ':') ||
                         (i > 0 && line[i - 1] == ':');
      // (`L1 :` is a label too: a space before the colon hid the
      // instruction after it from the rules.)
      if (c == ':' && !doubleColon &&
          trim(cur).find_first_of(" \t[") == std::string::npos &&
          !trim(cur).empty()) {
        labels[trim(cur)] = statement;
        labelAt[trim(cur)] = ++position;
        cur.clear();
        continue;
      }
      if (c != ';') {
        cur.push_back(c);
        continue;
      }
      std::string s = trim(cur);
      cur.clear();
      bodyStatement(pendingLine, s);
    }
  }

  /// Reads the state the lines left: a module cut short inside a function,
  /// the module `.extern .shared`, and the .version and .target directives.
  bool finish() {
    if (state != Top) {
      error = "the PTX ends inside " + std::string(state == Params ? "the parameters" : "the body") +
              " of '" + function + "': it is cut short";
      return false;
    }
    if (moduleExternShared)
      for (PtxEntry &e : out.entries)
        e.externShared = true;
    for (PtxEntry &e : out.entries)
      for (auto [file, line] : e.locs) {
        auto it = files.find(file);
        if (it != files.end() && it->second == kFusedRegionFile && line >= 2) {
          e.fusedRegions.insert(line - 2);
          if (enclosed[e.name].count({file, line}))
            e.regionsInLoops.insert(line - 2);
        }
      }
    if (out.version.empty() || out.target.empty()) {
      error = "not PTX: no .version or .target directive";
      return false;
    }
    return true;
  }
};

} // namespace

bool rake::verifier::parsePtx(const std::string &text, PtxInfo &out,
                              std::string &error) {
  // Strip comments, keep line numbers.
  std::vector<std::string> lines = stripComments(text);
  PtxParser p(out, error);
  for (size_t ln = 0; ln < lines.size(); ++ln) {
    std::string line = trim(lines[ln]);
    if (line.empty())
      continue;
    if (p.state == PtxParser::Top) {
      Step step = p.topLevel(ln, line);
      if (step == Step::Fail)
        return false;
      if (step == Step::NextLine)
        continue;
    }
    if (p.state == PtxParser::Params) {
      Step step = p.paramList(ln, line);
      if (step == Step::Fail)
        return false;
      if (step == Step::NextLine)
        continue;
    }
    if (p.state == PtxParser::Body)
      p.bodyLine(ln, line);
  }
  return p.finish();
}
