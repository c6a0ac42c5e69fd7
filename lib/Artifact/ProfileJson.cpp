//===- ProfileJson.cpp - A profile read from its JSON ---------------------===//
//
// The inverse of Profile::toJson, with the strict reader: every field
// present, none unknown, each of its type. A user's own profile (say, the
// sm90a one with one rule relaxed) for rake-verify --profile-file.
//
//===----------------------------------------------------------------------===//

#include "Rake/Artifact/Manifest.h"
#include "Rake/Artifact/Json.h"

#include <set>

using namespace rake;
using json::Value;

namespace {

struct Reader {
  std::string error;
  bool fail(const std::string &msg) {
    if (error.empty())
      error = msg;
    return false;
  }
  const Value *field(const Value &o, const std::string &path,
                     const std::string &name, Value::Kind kind,
                     std::set<std::string> &seen) {
    seen.insert(name);
    const Value *v = o.get(name);
    if (!v) {
      fail("the profile has no field " + path + name);
      return nullptr;
    }
    if (v->kind != kind) {
      fail("the profile's " + path + name + " is " + json::kindName(v->kind) +
           ", not " + json::kindName(kind));
      return nullptr;
    }
    return v;
  }
  void unknown(const Value &o, const std::string &path,
               const std::set<std::string> &seen) {
    for (const auto &f : o.fields)
      if (!seen.count(f.first))
        fail("the profile's " + path + f.first + " is not a profile field");
  }
  std::vector<std::string> strings(const Value *v, const std::string &what) {
    std::vector<std::string> out;
    if (!v)
      return out;
    for (const Value &e : v->items) {
      if (!e.isString())
        fail("the profile's " + what + " holds something other than strings");
      else
        out.push_back(e.string);
    }
    return out;
  }
};

} // namespace

bool rake::artifact::readProfile(const std::string &text,
                                 profile::Profile &p, std::string &error) {
  Value root;
  if (!json::parse(text, root, error)) {
    error = "the profile is not strict JSON: " + error;
    return false;
  }
  if (!root.isObject()) {
    error = "the profile is not a JSON object";
    return false;
  }
  Reader r;
  std::set<std::string> seen;
  auto str = [&](const Value &o, const std::string &path,
                 const std::string &name, std::set<std::string> &s) {
    const Value *v = r.field(o, path, name, Value::String, s);
    return v ? v->string : std::string();
  };
  auto num = [&](const Value &o, const std::string &path,
                 const std::string &name, std::set<std::string> &s) {
    const Value *v = r.field(o, path, name, Value::Integer, s);
    if (v && (v->integer < 0 || v->integer > int64_t(UINT32_MAX)))
      r.fail("the profile's " + path + name + " is out of range");
    return v ? unsigned(v->integer) : 0u;
  };
  auto flag = [&](const Value &o, const std::string &path,
                  const std::string &name, std::set<std::string> &s) {
    const Value *v = r.field(o, path, name, Value::Bool, s);
    return v && v->boolean;
  };
  p = profile::Profile();
  p.name = str(root, "", "name", seen);
  p.description = str(root, "", "description", seen);
  p.executable = flag(root, "", "executable", seen);
  p.target = str(root, "", "target", seen);
  p.ptxVersion = str(root, "", "ptx_version", seen);
  p.addressBits = num(root, "", "address_bits", seen);
  p.warpSize = num(root, "", "warp_size", seen);
  p.ptxasFlags = r.strings(r.field(root, "", "ptxas_flags", Value::Array, seen),
                           "ptxas_flags");
  if (const Value *pins = r.field(root, "", "toolchain_pins", Value::Array, seen))
    for (const Value &pv : pins->items) {
      std::set<std::string> s;
      if (!pv.isObject()) {
        r.fail("the profile's toolchain_pins holds something other than objects");
        break;
      }
      profile::ToolPin pin;
      pin.tool = str(pv, "toolchain_pins[].", "tool", s);
      pin.version = str(pv, "toolchain_pins[].", "version", s);
      pin.sha256 = str(pv, "toolchain_pins[].", "sha256", s);
      pin.origin = str(pv, "toolchain_pins[].", "origin", s);
      r.unknown(pv, "toolchain_pins[].", s);
      p.pins.push_back(pin);
    }
  if (const Value *fp = r.field(root, "", "floating_point", Value::Object, seen)) {
    std::set<std::string> s;
    p.forbidFtz = flag(*fp, "floating_point.", "no_ftz", s);
    p.forbidApprox = flag(*fp, "floating_point.", "no_approx", s);
    p.roundToNearest = flag(*fp, "floating_point.", "round_to_nearest_even", s);
    p.forbidContraction = flag(*fp, "floating_point.", "no_implicit_contraction", s);
    r.unknown(*fp, "floating_point.", s);
  }
  std::string res = str(root, "", "resources", seen);
  if (res != "strict" && res != "relaxed")
    r.fail("the profile's resources is '" + res + "', not 'strict' or 'relaxed'");
  p.resources = res == "relaxed" ? profile::ResourcePolicy::Relaxed
                                 : profile::ResourcePolicy::Strict;
  if (const Value *cta = r.field(root, "", "cta_limits", Value::Object, seen)) {
    std::set<std::string> s;
    p.maxThreadsPerCta = num(*cta, "cta_limits.", "max_threads", s);
    p.maxSharedBytesPerCta = num(*cta, "cta_limits.", "max_shared_bytes", s);
    r.unknown(*cta, "cta_limits.", s);
  }
  if (const Value *sm = r.field(root, "", "sm_limits", Value::Object, seen)) {
    std::set<std::string> s;
    p.maxBlocksPerSm = num(*sm, "sm_limits.", "max_blocks", s);
    p.maxThreadsPerSm = num(*sm, "sm_limits.", "max_threads", s);
    p.maxSharedBytesPerSm = num(*sm, "sm_limits.", "max_shared_bytes", s);
    p.registersPerSm = num(*sm, "sm_limits.", "registers", s);
    p.maxClusterSize = num(*sm, "sm_limits.", "max_cluster_ctas", s);
    r.unknown(*sm, "sm_limits.", s);
  }
  std::string calls = str(root, "", "calls", seen);
  if (calls != "forbidden" && calls != "allowed")
    r.fail("the profile's calls is '" + calls + "', not 'forbidden' or 'allowed'");
  p.forbidCalls = calls != "allowed";
  p.arithmeticSubroutines = r.strings(
      r.field(root, "", "arithmetic_subroutines", Value::Array, seen),
      "arithmetic_subroutines");
  if (const Value *cl = r.field(root, "", "instruction_classes", Value::Object, seen))
    for (const auto &f : cl->fields) {
      if (!f.second.isArray()) {
        r.fail("the profile's instruction class " + f.first + " is not an array");
        continue;
      }
      p.classes.push_back({f.first, r.strings(&f.second, "instruction class " + f.first)});
    }
  r.unknown(root, "", seen);
  // The SM number and the a-suffix come from the target's name.
  if (p.target.rfind("sm_", 0) == 0) {
    std::string digits = p.target.substr(3);
    p.archSpecific = !digits.empty() && digits.back() == 'a';
    if (p.archSpecific)
      digits.pop_back();
    if (digits.empty() || digits.size() > 4 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      r.fail("the profile's target '" + p.target + "' is not sm_<N>[a]");
    else
      p.sm = unsigned(std::stoul(digits));
  } else {
    r.fail("the profile's target '" + p.target + "' is not sm_<N>[a]");
  }
  error = r.error;
  return error.empty();
}
