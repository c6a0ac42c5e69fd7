//===- LaunchChecks.cpp - The buffer arguments of a launch ---------------===//
//
// What rake_launch checks of each buffer argument against the kernel's
// source signature (the descriptor's offset, sizes and strides, the element
// size, overlap between buffers, each tensor map against its buffer), and
// rake_kernel_buffer_shape, the shapes a C caller builds descriptors with.
// Part of the C runtime: plain C++17, no LLVM.
//
//===----------------------------------------------------------------------===//

#include "RuntimeInternal.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

using namespace rake::runtime_detail;

namespace {

/// The bytes of a buffer's element type (the signature's names), or 0 for
/// one the runtime cannot size (a launch with it is refused). The 4-, 6-
/// and 8-bit floats take a byte each, as LLVM and rake-run store them.
uint64_t elementBytes(const std::string &element) {
  if (element == "i1" || element == "i8" || element.rfind("f8", 0) == 0 ||
      element.rfind("f6", 0) == 0 || element.rfind("f4", 0) == 0)
    return 1;
  if (element == "i16" || element == "f16" || element == "bf16")
    return 2;
  if (element == "i32" || element == "f32")
    return 4;
  if (element == "i64" || element == "f64" || element == "index")
    return 8;
  return 0;
}

/// Evaluates an extent as rake-bundle writes it: integers, index parameter
/// names, and fully parenthesized (a OP b) for + * mod floordiv ceildiv.
/// False (with `why`) on anything else, on overflow, on a division by a
/// non-positive number, or past 64 nested parentheses (the JSON reader's
/// nesting limit; rake-bundle writes far fewer).
bool evalExtent(const std::string &s, size_t &pos,
                const std::map<std::string, int64_t> &env, int64_t &out,
                std::string &why, int depth = 0) {
  auto skip = [&] {
    while (pos < s.size() && s[pos] == ' ')
      ++pos;
  };
  auto word = [&] {
    size_t b = pos;
    while (pos < s.size() && (std::isalnum((unsigned char)s[pos]) ||
                              s[pos] == '_' || s[pos] == '-'))
      ++pos;
    return s.substr(b, pos - b);
  };
  skip();
  if (pos < s.size() && s[pos] == '(') {
    if (depth >= 64) {
      why = "the extent '" + s.substr(0, 80) +
            "...' nests more than 64 parentheses";
      return false;
    }
    ++pos;
    int64_t a = 0, b = 0;
    if (!evalExtent(s, pos, env, a, why, depth + 1))
      return false;
    skip();
    std::string op = pos < s.size() && (s[pos] == '+' || s[pos] == '*')
                         ? std::string(1, s[pos++])
                         : word();
    if (!evalExtent(s, pos, env, b, why, depth + 1))
      return false;
    skip();
    if (pos >= s.size() || s[pos] != ')') {
      why = "cannot read the extent '" + s + "'";
      return false;
    }
    ++pos;
    bool ok = true;
    if (op == "+")
      ok = !__builtin_add_overflow(a, b, &out);
    else if (op == "*")
      ok = !__builtin_mul_overflow(a, b, &out);
    else if (op == "mod" || op == "floordiv" || op == "ceildiv") {
      if (b <= 0) {
        why = "the extent '" + s + "' divides by " + std::to_string(b);
        return false;
      }
      int64_t q = a / b, r = a % b;
      if (op == "mod")
        out = r < 0 ? r + b : r;
      else if (op == "floordiv")
        out = (r != 0 && a < 0) ? q - 1 : q;
      else
        out = (r != 0 && a > 0) ? q + 1 : q;
    } else {
      why = "cannot read the extent '" + s + "'";
      return false;
    }
    if (!ok)
      why = "the extent '" + s + "' overflows 64 bits at these index values";
    return ok;
  }
  std::string w = word();
  if (w.empty()) {
    why = "cannot read the extent '" + s + "'";
    return false;
  }
  if (std::isdigit((unsigned char)w[0]) || w[0] == '-') {
    char *end = nullptr;
    errno = 0;
    long long v = std::strtoll(w.c_str(), &end, 10);
    if (errno || !end || *end) {
      why = "cannot read the extent '" + s + "'";
      return false;
    }
    out = v;
    return true;
  }
  auto it = env.find(w);
  if (it == env.end()) {
    why = "the extent '" + s + "' names '" + w +
          "', which is not an index parameter of the kernel";
    return false;
  }
  out = it->second;
  return true;
}

/// A buffer argument's memref descriptor, from the parameters' roles.
struct Descriptor {
  int64_t arg = -1;
  bool haveAligned = false, haveOffset = false;
  uint64_t aligned = 0;
  int64_t offset = 0;
  std::map<int, int64_t> sizes, strides;
};

} // namespace

/// One buffer argument's descriptor against its signature entry (see
/// checkBuffers): on success `checked` says whether it is a buffer
/// descriptor, `shape` its element size and sizes, `bytesOut` its bytes.
static rake_status checkDescriptor(
    const rake_bundle::Kernel *k, const char *kernel, int64_t arg,
    const Descriptor &d, const std::map<std::string, int64_t> &env,
    std::pair<uint64_t, std::vector<int64_t>> &shape, bool &checked,
    uint64_t &bytesOut, rake_error *err) {
  checked = false;
  const rake::artifact::SourceParam &sp = k->signature[arg];
  if (sp.kind != "buffer" || !d.haveAligned)
    return RAKE_OK;
  const char *name = sp.name.c_str();
  uint64_t eb = elementBytes(sp.element);
  if (!eb)
    return fail(err, RAKE_ERR_BUFFER,
                "kernel '%s' buffer '%s': the runtime cannot size its "
                "elements (%s), so it cannot check the buffer; refusing to "
                "launch",
                kernel, name, sp.element.c_str());
  if (d.offset != 0)
    return fail(err, RAKE_ERR_BUFFER,
                "kernel '%s' buffer '%s': its descriptor's offset is %lld "
                "elements; the kernel indexes from the aligned pointer "
                "(offset 0): pass the address of the view's first element "
                "as the aligned pointer",
                kernel, name, (long long)d.offset);
  size_t rank = sp.extents.size();
  std::vector<int64_t> sizes(rank, 0);
  bool empty = false;
  for (size_t dim = 0; dim < rank; ++dim) {
    auto it = d.sizes.find(int(dim));
    // A static dimension has no size parameter: its extent is the type's.
    int64_t given = it != d.sizes.end() ? it->second : -1;
    int64_t want = -1;
    if (sp.extents[dim] != "?") {
      size_t pos = 0;
      std::string why;
      if (!evalExtent(sp.extents[dim], pos, env, want, why))
        return fail(err, RAKE_ERR_BUFFER, "kernel '%s' buffer '%s': %s",
                    kernel, name, why.c_str());
      // The check refuses a negative extent at the sizes it checks; at
      // others it must not pass for "none declared".
      if (want < 0)
        return fail(err, RAKE_ERR_BUFFER,
                    "kernel '%s' buffer '%s': dimension %zu's declared "
                    "extent %s is %lld at these index values: negative",
                    kernel, name, dim, sp.extents[dim].c_str(),
                    (long long)want);
    }
    if (it == d.sizes.end() && want < 0)
      return fail(err, RAKE_ERR_BUFFER,
                  "kernel '%s' buffer '%s': dimension %zu has neither a "
                  "size parameter nor a declared extent",
                  kernel, name, dim);
    if (it != d.sizes.end() && (given < 0 || (want >= 0 && given != want)))
      return fail(err, RAKE_ERR_BUFFER,
                  "kernel '%s' buffer '%s': dimension %zu has size %lld; "
                  "the kernel was checked for its extent %s, %lld at these "
                  "index values",
                  kernel, name, dim, (long long)given,
                  sp.extents[dim].c_str(), (long long)want);
    sizes[dim] = it != d.sizes.end() ? given : want;
    empty |= sizes[dim] == 0;
  }
  // Row-major: the last stride 1, each other the next one times its size.
  int64_t expect = 1;
  for (size_t dim = rank; dim-- > 0;) {
    auto it = d.strides.find(int(dim));
    if (!empty && it != d.strides.end() && it->second != expect)
      return fail(err, RAKE_ERR_BUFFER,
                  "kernel '%s' buffer '%s': dimension %zu has stride %lld; "
                  "the kernel takes row-major buffers, where it is %lld",
                  kernel, name, dim, (long long)it->second,
                  (long long)expect);
    if (__builtin_mul_overflow(expect, sizes[dim], &expect))
      return fail(err, RAKE_ERR_BUFFER,
                  "kernel '%s' buffer '%s': its size overflows 64 bits",
                  kernel, name);
  }
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(uint64_t(expect), eb, &bytes) ||
      d.aligned + bytes < d.aligned)
    return fail(err, RAKE_ERR_BUFFER,
                "kernel '%s' buffer '%s': its %lld elements of %llu bytes "
                "run past the end of the address space",
                kernel, name, (long long)expect, (unsigned long long)eb);
  shape = {eb, sizes};
  checked = true;
  bytesOut = bytes;
  return RAKE_OK;
}

/// Every buffer argument must be the buffer the kernel's checks assumed:
/// its descriptor's offset 0 (code generation indexes from the aligned
/// pointer; a memref of the identity layout has offset 0), each size the
/// extent the signature declares at the launch's index values (the bounds
/// proofs are for those), row-major strides (the kernel's address
/// arithmetic assumes them), an element type of known size; then the
/// buffers, each the bytes its shape spans, must be distinct (the check,
/// the sequential meaning and the schedules take procedure parameters as
/// distinct, docs/Scheduling.md), and each tensor map must describe its
/// buffer exactly. Before 2026-12-07 the overlap was measured from fields
/// the kernels ignore (offsets, sizes, strides a caller could set to
/// anything), and tensor maps were not tied to their buffers (an
/// adversarial review).
rake_status rake::runtime_detail::checkBuffers(
    const rake_module *m, const rake_bundle::Kernel *k, const char *kernel,
    const std::vector<void *> &args, rake_error *err) {
  if (k->signature.empty())
    return RAKE_OK; // PTX input: no roles, no signature (docs/Artifacts.md)
  std::map<std::string, int64_t> env;
  std::map<int64_t, Descriptor> bufs;
  for (size_t i = 0; i < k->params.size(); ++i) {
    const std::string &role = k->params[i].role;
    size_t dot = role.find('.');
    if (role.rfind("arg", 0) != 0 || dot == std::string::npos ||
        k->params[i].size != 8)
      continue;
    int64_t arg = std::strtoll(role.c_str() + 3, nullptr, 10);
    if (arg < 0 || size_t(arg) >= k->signature.size())
      continue;
    int64_t v = 0;
    std::memcpy(&v, args[i], 8);
    std::string field = role.substr(dot + 1);
    if (field == "index") {
      env[k->signature[arg].name] = v;
      continue;
    }
    Descriptor &d = bufs[arg];
    d.arg = arg;
    if (field.rfind("aligned", 0) == 0) {
      d.haveAligned = true;
      d.aligned = uint64_t(v);
    } else if (field == "offset") {
      d.haveOffset = true;
      d.offset = v;
    } else if (field.rfind("size", 0) == 0) {
      d.sizes[std::atoi(field.c_str() + 4)] = v;
    } else if (field.rfind("stride", 0) == 0) {
      d.strides[std::atoi(field.c_str() + 6)] = v;
    }
  }
  struct Range {
    int64_t arg;
    uint64_t lo, hi;
  };
  std::vector<Range> ranges;
  std::map<int64_t, std::pair<uint64_t, std::vector<int64_t>>> shapes;
  for (auto &[arg, d] : bufs) {
    std::pair<uint64_t, std::vector<int64_t>> shape;
    bool checked = false;
    uint64_t bytes = 0;
    if (rake_status st = checkDescriptor(k, kernel, arg, d, env, shape,
                                         checked, bytes, err))
      return st;
    if (!checked)
      continue;
    shapes[arg] = shape;
    if (bytes)
      ranges.push_back({arg, d.aligned, d.aligned + bytes});
  }
  for (size_t a = 0; a < ranges.size(); ++a)
    for (size_t b = a + 1; b < ranges.size(); ++b)
      if (ranges[a].lo < ranges[b].hi && ranges[b].lo < ranges[a].hi) {
        auto name = [&](int64_t arg) { return k->signature[arg].name.c_str(); };
        return fail(err, RAKE_ERR_ARGUMENT,
                    "kernel '%s': buffers '%s' (0x%llx..0x%llx) and '%s' "
                    "(0x%llx..0x%llx) overlap in memory; the kernel's checks "
                    "take different buffer parameters as distinct",
                    kernel, name(ranges[a].arg),
                    (unsigned long long)ranges[a].lo,
                    (unsigned long long)ranges[a].hi, name(ranges[b].arg),
                    (unsigned long long)ranges[b].lo,
                    (unsigned long long)ranges[b].hi);
      }
  // A tensor map must describe its buffer: the same address, its rows (the
  // leading dimensions together) and columns, and its row pitch.
  for (size_t i = 0; i < k->params.size(); ++i) {
    unsigned arg = 0, swizzle = 0;
    uint32_t boxRows = 0, boxCols = 0;
    if (!parseTensorMapRole(k->params[i].role, arg, boxRows, boxCols, swizzle))
      continue;
    uint64_t map = 0;
    std::memcpy(&map, args[i], k->params[i].size < 8 ? k->params[i].size : 8);
    auto it = m->tensorMaps.find(map);
    auto shape = shapes.find(arg);
    if (it == m->tensorMaps.end() || it->second.kernel != k->name ||
        it->second.param != i || shape == shapes.end() || !bufs.count(arg))
      continue; // the check below refuses a map not made for this slot
    const auto &[eb, sizes] = shape->second;
    uint64_t rows = 1, cols = sizes.empty() ? 1 : uint64_t(sizes.back());
    for (size_t dim = 0; dim + 1 < sizes.size(); ++dim)
      rows *= uint64_t(sizes[dim]);
    const rake_module::TensorMap &t = it->second;
    if (t.address != bufs[arg].aligned || t.rows != rows || t.cols != cols ||
        t.rowStrideBytes != cols * eb)
      return fail(err, RAKE_ERR_BUFFER,
                  "kernel '%s' parameter %zu (%s): the tensor map is over "
                  "0x%llx, %llu x %llu, rows of %llu bytes; its buffer '%s' "
                  "is at 0x%llx, %llu x %llu, rows of %llu bytes: make the "
                  "map over the buffer passed",
                  kernel, i, k->params[i].role.c_str(),
                  (unsigned long long)t.address, (unsigned long long)t.rows,
                  (unsigned long long)t.cols,
                  (unsigned long long)t.rowStrideBytes,
                  k->signature[arg].name.c_str(),
                  (unsigned long long)bufs[arg].aligned,
                  (unsigned long long)rows, (unsigned long long)cols,
                  (unsigned long long)(cols * eb));
  }
  return RAKE_OK;
}

extern "C" rake_status rake_kernel_buffer_shape(
    const rake_bundle *b, const char *kernel, uint32_t arg,
    const int64_t *indexValues, uint32_t indexCount, int64_t *sizes,
    uint32_t maxRank, uint32_t *rank, rake_error *err) {
  if (!b || !kernel || !rank || (!indexValues && indexCount) ||
      (!sizes && maxRank))
    return fail(err, RAKE_ERR_ARGUMENT,
                "rake_kernel_buffer_shape: a NULL argument");
  const rake_bundle::Kernel *k = nullptr;
  if (rake_status st = findKernel(b, kernel, k, err))
    return st;
  if (arg >= k->signature.size() || k->signature[arg].kind != "buffer")
    return fail(err, RAKE_ERR_ABI,
                "kernel '%s' has no buffer parameter %u in its signature (a "
                "bundle made from PTX has none)",
                kernel, arg);
  std::map<std::string, int64_t> env;
  uint32_t next = 0;
  for (const rake::artifact::SourceParam &p : k->signature)
    if (p.kind == "index") {
      if (next >= indexCount)
        return fail(err, RAKE_ERR_ARGUMENT,
                    "kernel '%s' has more index parameters than the %u "
                    "values given",
                    kernel, indexCount);
      env[p.name] = indexValues[next++];
    }
  bool negativeIndex = false;
  for (uint32_t i = 0; i < indexCount; ++i)
    negativeIndex |= indexValues[i] < 0;
  const rake::artifact::SourceParam &sp = k->signature[arg];
  *rank = uint32_t(sp.extents.size());
  for (uint32_t d = 0; d < *rank && d < maxRank; ++d) {
    int64_t v = -1;
    if (sp.extents[d] != "?") {
      size_t pos = 0;
      std::string why;
      if (!evalExtent(sp.extents[d], pos, env, v, why))
        return fail(err, RAKE_ERR_BUFFER, "kernel '%s' buffer '%s': %s",
                    kernel, sp.name.c_str(), why.c_str());
      // (A negative index value is the launch's to refuse, by name.)
      if (v < 0 && !negativeIndex)
        return fail(err, RAKE_ERR_BUFFER,
                    "kernel '%s' buffer '%s': dimension %u's declared "
                    "extent %s is %lld at these index values: negative",
                    kernel, sp.name.c_str(), d, sp.extents[d].c_str(),
                    (long long)v);
    }
    sizes[d] = v;
  }
  return RAKE_OK;
}

