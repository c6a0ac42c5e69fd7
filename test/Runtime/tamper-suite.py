#!/usr/bin/env python3
"""The tamper suite: hundreds of altered copies of verified bundles, each
checked by rake-verify and by the C runtime (rake-runtime-test open).

  tamper-suite.py --verify RAKE_VERIFY --runtime RAKE_RUNTIME_TEST
                  --store DISASM_STORE --work DIR [--seed N] BUNDLE...

Each BUNDLE (a verified bundle) is signed with a key made for the run, then
altered, case by case:
  - the classes of the tamper report of issue 12 (changed machine code, a
    hidden branch in the disassembly, a dropped length, parameter roles
    swapped, launch shapes the code was not compiled for, a profile
    downgrade, a duplicated JSON key, program headers dropped, a cut PTX,
    unpinned tools, informational fields, signatures removed or foreign);
  - random bit flips in every ELF section, the ELF and program headers, the
    PTX, the disassembly and the manifest's text;
  - one change of every manifest field.
Most cases come twice: raw (the hashes and the seal left as they were) and
as a consistent rewrite (every hash re-bound and the manifest resealed, as an
attacker who can write the whole bundle but holds no signing key would).

It asserts, and prints in its summary:
  - no tool crashes (an exit status other than 0 or 1, or a signal);
  - rake-verify with the signer's public key accepts none;
  - the runtime with the signer's public key loads none;
  - rake-verify without a key accepts no raw case, and of the consistent
    rewrites only those of fields nothing but a signature binds (class
    "origin": the source's path, the compiler string, tool paths);
  - the runtime without a key loads no raw case, and of the consistent
    rewrites only "origin" ones, those that change bytes only the
    disassembly judges (class "code": the machine code, the disassembly)
    and those of fields only the GpuIR source determines (class "source":
    parameter roles, launch shapes, signatures, which rake-verify compiles
    source.mlir again to confirm), all of which rake-verify refuses;
  - where a case names the rule it must break, both tools refuse by it;
  - the unaltered, signed bundles verify and load.
The seed makes the cases the same on every run.
"""
import argparse
import hashlib
import json
import os
import random
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "Verifier", "Inputs"))
import tamper  # noqa: E402


class Case:
    def __init__(self, name, ops, consistent, cls="", rule=None,
                 runtime_rule=None):
        self.name = name
        self.ops = ops            # [(edit, [args])] for tamper.apply
        self.consistent = consistent
        self.cls = cls            # "", "origin" or "code"
        self.rule = rule          # the rule rake-verify must report
        self.runtime_rule = runtime_rule if runtime_rule is not None else rule


def section_table(data):
    """(name, offset, size, type) of each section with bytes in the file."""
    out = []
    for name, off, size, typ in tamper.sections(data):
        if typ != 8 and size > 0:  # not SHT_NOBITS
            out.append((name, off, size))
    return out


def rewrite(ops):
    return ops + [("rehash", []), ("reseal", [])]


def mutate_value(v, rng):
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + rng.choice([1, -1, 7, 1 << 20])
    if isinstance(v, str):
        if v and all(c in "0123456789abcdef" for c in v):
            i = rng.randrange(len(v))
            return v[:i] + ("0" if v[i] != "0" else "1") + v[i + 1:]
        return v + "x" if v else "x"
    if v is None:
        return 0
    if isinstance(v, list):
        return v[:-1] if v else [0]
    if isinstance(v, dict):
        w = dict(v)
        w["x"] = 1
        return w
    return v


def leaves(v, path=""):
    yield path, v
    if isinstance(v, dict):
        for k, x in v.items():
            yield from leaves(x, path + "." + k if path else k)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from leaves(x, path + "." + str(i))


# Manifest fields that nothing in the bundle can confirm: a consistent
# rewrite of them is caught only by the signature.
ORIGIN_FIELDS = ("source.path", "compiler",
                 "toolchain.ptxas.path", "toolchain.nvdisasm.path",
                 "disassembly.obtained", "verifier.version")


def is_origin(path, old, new):
    return path in ORIGIN_FIELDS


def from_source(path):
    """Fields the GpuIR source determines and only rake-verify (which
    compiles source.mlir again) can confirm: the runtime has no compiler."""
    parts = path.split(".")
    return (len(parts) >= 3 and parts[0] == "kernels" and
            (parts[2] in ("signature", "launch") or
             (parts[2] == "abi" and parts[-1] == "role")))


def named_cases(base, m, other_sig):
    k = m["kernels"][0]["name"]
    rp = hashlib.sha256(subprocess.run(
        [ARGS.verify, "--print-profile=nvidia-ptx-sm90a-relaxed"],
        capture_output=True).stdout).hexdigest()
    params = m["kernels"][0]["abi"]["params"]
    args = sorted({p["role"].split(".")[0] for p in params if p.get("role", "").startswith("arg")})
    memrefs = [a for a in args if any(p.get("role") == a + ".allocated" for p in params)]
    c = []
    c.append(Case("the kernel's global store replaced by a NOP",
                  rewrite([("nop-store", [k])]), True, "code", "evidence", "code"))
    c.append(Case("a branch hidden as a NOP in disasm.json",
                  rewrite([("disasm-opcode", [k, "BRA", "NOP"])]), True, "code", "evidence", "code"))
    c.append(Case("a function's length in disasm.json",
                  rewrite([("disasm-length", [k, "16"])]), True, "code", "evidence", "code"))
    c.append(Case("program headers dropped", rewrite([("strip-phdrs", [])]), True, "", "elf"))
    # Found by an adversarial review: a record shorter than its fields
    # crashed both checkers; unbound bytes must not be parsed at all.
    c.append(Case("an empty .nv.info record (CBANK_PARAM_SIZE)",
                  [("nvinfo-empty", [k, "0x19"])], False, "", "integrity"))
    c.append(Case("an empty .nv.info record (CBANK_PARAM_SIZE), re-bound",
                  rewrite([("nvinfo-empty", [k, "0x19"])]), True, "", "elf"))
    c.append(Case("verified with no disassembly",
                  [("set", ["disassembly", "null"]), ("reseal", [])], True, "", "manifest"))
    c.append(Case("the PTX cut short", rewrite([("ptx-truncate", ["1500"])]), True, "", "ptx"))
    c.append(Case("a duplicated JSON key",
                  [("text", ["manifest.json", '"status": "verified"',
                             '"status": "unverified", "status": "verified"']), ("reseal", [])],
                  True, "", "manifest"))
    c.append(Case("an unknown profile", [("set", ["profile", '"nope"']), ("reseal", [])], True, "", "profile"))
    c.append(Case("a downgrade to the relaxed profile",
                  [("set", ["profile", '"nvidia-ptx-sm90a-relaxed"']),
                   ("set", ["profile_sha256", json.dumps(rp)]), ("reseal", [])], True, "", "profile"))
    c.append(Case("launch block halved", [("set", ["kernels.0.launch.block",
                  json.dumps([k0 // 2 if i == 0 else k0 for i, k0 in enumerate(m["kernels"][0]["launch"]["block"])])]),
                  ("reseal", [])], True, "", "abi"))
    c.append(Case("cluster 1000", [("set", ["kernels.0.launch.cluster", "1000"]), ("reseal", [])], True, "", "abi"))
    c.append(Case("blocks_per_sm 1000", [("set", ["kernels.0.launch.blocks_per_sm", "1000"]), ("reseal", [])], True, "", "abi"))
    c.append(Case("232448 bytes of dynamic shared memory",
                  [("set", ["kernels.0.launch.dynamic_shared_bytes", "232448"]), ("reseal", [])], True, "", "abi"))
    c.append(Case("no launch shape although the code needs dynamic shared memory"
                  if m["kernels"][0]["launch"]["dynamic_shared_bytes"] else "launch shape removed",
                  [("unset", ["kernels.0.launch"]), ("reseal", [])], True,
                  "" if m["kernels"][0]["launch"]["dynamic_shared_bytes"] else "origin",
                  "abi" if m["kernels"][0]["launch"]["dynamic_shared_bytes"] else None))
    if len(memrefs) >= 2:
        a, b = memrefs[0], memrefs[1]
        ops = []
        for i, p in enumerate(params):
            r = p.get("role", "")
            if r.startswith(a + "."):
                ops.append(("set", ["kernels.0.abi.params.%d.role" % i, json.dumps(b + r[len(a):])]))
            elif r.startswith(b + "."):
                ops.append(("set", ["kernels.0.abi.params.%d.role" % i, json.dumps(a + r[len(b):])]))
        c.append(Case("two buffers' roles swapped", ops + [("reseal", [])], True, "", "abi"))
    # What the GpuIR source determines, rewritten consistently: the runtime
    # cannot compile the source; rake-verify does and refuses by rule source.
    sig = m["kernels"][0].get("signature", [])
    for i, sp in enumerate(sig):
        if sp.get("kind") == "buffer" and sp.get("extents"):
            ext = list(sp["extents"])
            ext[0] = "1"
            c.append(Case("a buffer's extents made smaller in the signature",
                          [("set", ["kernels.0.signature.%d.extents" % i, json.dumps(ext)]), ("reseal", [])],
                          True, "source", "source", "code"))
            c.append(Case("a buffer's element type changed in the signature",
                          [("set", ["kernels.0.signature.%d.element" % i, '"f16"']), ("reseal", [])],
                          True, "source", "source", "code"))
            break
    for i, p in enumerate(params):
        r = p.get("role", "")
        if r.startswith("tensormap."):
            parts = r.split(".")
            rows, cols = parts[2].split("x")
            parts[2] = "%dx%s" % (max(1, int(rows) // 2), cols)
            c.append(Case("a tensor map's box made smaller", [("set", ["kernels.0.abi.params.%d.role" % i,
                          json.dumps(".".join(parts))]), ("reseal", [])], True, "source", "source", "code"))
            break
    for i, p in enumerate(params):
        r = p.get("role", "")
        if ".aligned" in r and r != r.split(".aligned")[0] + ".aligned":
            c.append(Case("an alignedN role weakened to aligned", [("set", ["kernels.0.abi.params.%d.role" % i,
                          json.dumps(r.split(".aligned")[0] + ".aligned")]), ("reseal", [])], True, "source", "source", "code"))
            break
    launch = m["kernels"][0]["launch"]
    if launch["dynamic_shared_bytes"]:
        c.append(Case("less dynamic shared memory than the code needs",
                      [("set", ["kernels.0.launch.dynamic_shared_bytes", str(launch["dynamic_shared_bytes"] // 2)]),
                       ("reseal", [])], True, "source", "source", "code"))
    c.append(Case("more CTAs per SM than the source asks for",
                  [("set", ["kernels.0.launch.blocks_per_sm", str(launch["blocks_per_sm"] + 1)]), ("reseal", [])],
                  True, "source", None, "code"))
    c.append(Case("source.mlir changed, not rehashed",
                  [("text", ["source.mlir", "gpuir.proc", "gpuir.proc "])], True, "", "integrity"))
    c.append(Case("source.mlir changed, rehashed and resealed (a rebuilt comment)",
                  rewrite([("text", ["source.mlir", "gpuir.proc", "// a comment\ngpuir.proc"])]),
                  True, "origin"))
    c.append(Case("the PTX and source.mlir of another kernel, rehashed",
                  rewrite([("text", ["kernel.ptx", "// .globl", "// .globl "])]), True, "code", "source", "code"))
    c.append(Case("ptxas not pinned", [("set", ["toolchain.ptxas.sha256", json.dumps("ab" * 32)]), ("reseal", [])], True, "", "toolchain"))
    c.append(Case("ptxas another version", [("set", ["toolchain.ptxas.version", '"V13.0.99"']), ("reseal", [])], True, "", "toolchain"))
    c.append(Case("an unpinned nvdisasm", [("set", ["toolchain.nvdisasm", json.dumps(
        {"path": "/x/nvdisasm", "version": "V12.0.0", "sha256": "cd" * 32})]), ("reseal", [])], True, "", "toolchain"))
    c.append(Case("status unverified", [("set", ["status", '"unverified"']), ("reseal", [])], True, "", "status"))
    c.append(Case("verifier errors under a verified status",
                  [("set", ["verifier.errors", '["x"]']), ("reseal", [])], True, "", "manifest"))
    c.append(Case("a duplicated kernels[] entry",
                  [("set", ["kernels.1", json.dumps(m["kernels"][0])]), ("reseal", [])], True, "", "manifest"))
    for field, value, rule in [
            ("ptx.version", '"8.7"', "manifest"), ("ptx.target", '"sm_80"', "manifest"),
            ("cubin.bytes", "1", "manifest"), ("cubin.elf_flags", '"0x0"', "manifest"),
            ("kernels.0.barriers", "3", "manifest"), ("kernels.0.tensor_core", '{"HMMA.16816.F32": 4}', "manifest"),
            ("kernels.0.subroutines", '["__cuda_sm20_div_u64"]', "manifest"),
            ("kernels.0.source_loops", "9", "manifest"), ("source.kind", '"ptx"', "manifest")]:
        code = field in ("kernels.0.tensor_core", "kernels.0.subroutines")
        c.append(Case("informational field " + field, [("set", [field, value]), ("reseal", [])], True,
                      "code" if code else "", rule, "" if code else rule))
    c.append(Case("manifest.sig removed", [("unsign", [])], False, "", None, "signature"))
    c.append(Case("manifest.sig by another key", [("sig", [other_sig])], False, "", None, "signature"))
    c.append(Case("manifest.sig garbage", [("sig", ["garbage\n"])], False, "", None, "signature"))
    c.append(Case("the seal removed", [("rm", ["manifest.sha256"])], False, "", "manifest"))
    return c


def random_cases(base, m, rng):
    c = []
    data = open(base + "/kernel.cubin", "rb").read()
    for name, off, size in section_table(data):
        for _ in range(4):
            byte = off + rng.randrange(size)
            bit = rng.randrange(8)
            ops = [("cubin-bit", [str(byte), str(bit)])]
            c.append(Case("bit %d of byte %#x (%s), raw" % (bit, byte, name), ops, False, "", "integrity"))
            c.append(Case("bit %d of byte %#x (%s), rehashed" % (bit, byte, name), rewrite(ops), True, "code"))
    phoff = struct.unpack_from("<Q", data, 0x20)[0]
    phnum = struct.unpack_from("<H", data, 0x38)[0]
    for region, lo, hi in [("the ELF header", 0, 64), ("the program headers", phoff, phoff + 56 * phnum)]:
        for _ in range(8):
            byte, bit = rng.randrange(lo, hi), rng.randrange(8)
            ops = [("cubin-bit", [str(byte), str(bit)])]
            c.append(Case("bit %d of byte %#x (%s), raw" % (bit, byte, region), ops, False, "", "integrity"))
            c.append(Case("bit %d of byte %#x (%s), rehashed" % (bit, byte, region), rewrite(ops), True, "code"))
    for fname, count in [("kernel.ptx", 8), ("disasm.json", 8)]:
        size = os.path.getsize(base + "/" + fname)
        for _ in range(count):
            c.append(Case("a bit of %s, raw" % fname, [("file-bit", [fname, str(rng.randrange(size)), str(rng.randrange(7))])],
                          False, "", "integrity"))
            c.append(Case("a bit of %s, rehashed" % fname,
                          rewrite([("file-bit", [fname, str(rng.randrange(size)), str(rng.randrange(7))])]),
                          True, "code" if fname == "disasm.json" else "code"))
    size = os.path.getsize(base + "/manifest.json")
    for _ in range(12):
        ops = [("file-bit", ["manifest.json", str(rng.randrange(size)), str(rng.randrange(7))])]
        c.append(Case("a bit of manifest.json, raw", ops, False, "", "manifest"))
        c.append(Case("a bit of manifest.json, resealed", ops + [("reseal", [])], True, "origin-or-refused"))
    # One change of every manifest field (parameters: a sample).
    all_leaves = [(p, v) for p, v in leaves(m) if p]
    params = [x for x in all_leaves if ".abi.params." in x[0]]
    others = [x for x in all_leaves if ".abi.params." not in x[0]]
    for path, v in others + rng.sample(params, min(24, len(params))):
        new = mutate_value(v, rng)
        ops = [("set", [path, json.dumps(new)]), ("reseal", [])]
        cls = "origin" if is_origin(path, v, new) else ("source" if from_source(path) else "")
        if path.startswith("disassembly") and not path.endswith("obtained"):
            cls = "code"  # the evidence: rake-verify judges it
        if path.endswith(("tensor_core", "subroutines", "backward_branches")) or ".tensor_core." in path:
            cls = "code"  # what the disassembly shows
        c.append(Case("manifest field %s: %s -> %s" % (path, json.dumps(v)[:40], json.dumps(new)[:40]),
                      ops, True, cls))
    return c


def apply(d, ops):
    for what, args in ops:
        if what == "unsign":
            os.remove(d + "/manifest.sig")
        elif what == "sig":
            open(d + "/manifest.sig", "w").write(args[0])
        elif what == "rm":
            os.remove(d + "/" + args[0])
        elif what == "file-bit":
            path = d + "/" + args[0]
            b = bytearray(open(path, "rb").read())
            b[int(args[1])] ^= 1 << int(args[2])
            open(path, "wb").write(b)
        else:
            tamper.apply(d, what, args)


def run(cmd, env=None):
    e = dict(os.environ)
    e.pop("RAKE_PUBLIC_KEY", None)
    if env:
        e.update(env)
    p = subprocess.run(cmd, capture_output=True, text=True, env=e)
    return p.returncode, p.stdout + p.stderr


def check(d, key_pub):
    verify = [ARGS.verify, d, "--nvdisasm=never", "--disasm-dir=" + ARGS.store]
    v0 = run(verify)
    vk = run(verify + ["--public-key=" + key_pub])
    rk = run([ARGS.runtime, "open", d], {"RAKE_PUBLIC_KEY": key_pub})
    r0 = run([ARGS.runtime, "open", d])
    return v0, vk, rk, r0


def crashed(r):
    return r[0] not in (0, 1)


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--verify", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--store", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("bundles", nargs="+")
    ARGS = ap.parse_args()
    rng = random.Random(ARGS.seed)
    shutil.rmtree(ARGS.work, ignore_errors=True)
    os.makedirs(ARGS.work)
    key, other = ARGS.work + "/key", ARGS.work + "/other"
    for k in (key, other):
        rc, out = run([ARGS.verify, "--keygen=" + k])
        assert rc == 0, out
    origin_accepted = []
    problems, stats = [], {"cases": 0, "raw": 0, "consistent": 0, "crash": 0,
                           "v0": 0, "vk": 0, "rk": 0, "r0": 0, "r0_code": 0,
                           "r0_origin": 0, "v0_origin": 0, "v0_sig": 0, "r0_sig": 0,
                           "rule": 0}
    for src in ARGS.bundles:
        base = ARGS.work + "/" + os.path.basename(src.rstrip("/")) + ".signed"
        shutil.copytree(src, base)
        rc, out = run([ARGS.verify, base, "--nvdisasm=never", "--disasm-dir=" + ARGS.store, "--sign=" + key + ".key"])
        if rc != 0:
            problems.append("%s: the unaltered bundle does not verify:\n%s" % (src, out))
            continue
        other_dir = base + ".other"
        shutil.copytree(src, other_dir)
        run([ARGS.verify, other_dir, "--nvdisasm=never", "--disasm-dir=" + ARGS.store, "--sign=" + other + ".key"])
        other_sig = open(other_dir + "/manifest.sig").read()
        v0, vk, rk, r0 = check(base, key + ".pub")
        for label, r in [("rake-verify", v0), ("rake-verify --public-key", vk),
                         ("the runtime with the key", rk), ("the runtime", r0)]:
            if r[0] != 0:
                problems.append("%s: the unaltered, signed bundle is refused by %s:\n%s" % (src, label, r[1]))
        if "trust: signed by ed25519 key" not in rk[1]:
            problems.append("%s: the runtime with the key does not say it checked the signature" % src)
        m = json.load(open(base + "/manifest.json"))
        cases = named_cases(base, m, other_sig) + random_cases(base, m, rng)
        for i, case in enumerate(cases):
            d = "%s/case%03d" % (ARGS.work, i)
            shutil.rmtree(d, ignore_errors=True)
            shutil.copytree(base, d)
            try:
                apply(d, case.ops)
            except (SystemExit, Exception) as e:  # an edit that does not apply
                problems.append("%s: %s: cannot make the case: %s" % (src, case.name, e))
                continue
            v0, vk, rk, r0 = check(d, key + ".pub")
            stats["cases"] += 1
            stats["consistent" if case.consistent else "raw"] += 1
            where = "%s: %s" % (os.path.basename(src), case.name)
            for label, r in [("rake-verify", v0), ("rake-verify --public-key", vk),
                             ("runtime (key)", rk), ("runtime", r0)]:
                if crashed(r):
                    stats["crash"] += 1
                    problems.append("%s: %s crashed (status %d):\n%s" % (where, label, r[0], r[1][-2000:]))
            if vk[0] == 0:
                stats["vk"] += 1
                problems.append("%s: rake-verify with the key accepted it" % where)
            if rk[0] == 0:
                stats["rk"] += 1
                problems.append("%s: the runtime with the key loaded it" % where)
            if v0[0] == 0:
                stats["v0"] += 1
                if case.cls in ("origin", "origin-or-refused"):
                    stats["v0_origin"] += 1
                    origin_accepted.append(where)
                elif case.runtime_rule == "signature":
                    stats["v0_sig"] += 1  # no key asked for: integrity only
                else:
                    problems.append("%s: rake-verify accepted it" % where)
            if r0[0] == 0:
                stats["r0"] += 1
                if not case.consistent and case.runtime_rule != "signature":
                    problems.append("%s: the runtime loaded a bundle that was not rewritten consistently" % where)
                elif case.cls in ("origin", "origin-or-refused"):
                    stats["r0_origin"] += 1
                elif case.cls in ("code", "source"):
                    stats["r0_code"] += 1
                elif case.runtime_rule == "signature":
                    stats["r0_sig"] += 1
                else:
                    problems.append("%s: the runtime without a key loaded it" % where)
            if case.rule and v0[0] != 0 and "[rule %s]" % case.rule not in v0[1]:
                problems.append("%s: rake-verify refused it, but not by rule %s:\n%s" % (where, case.rule, v0[1][-1500:]))
            elif case.rule and v0[0] != 0:
                stats["rule"] += 1
            rr = case.runtime_rule
            if rr and rr not in ("code", "signature") and r0[0] != 0 and "[rule %s]" % rr not in r0[1]:
                problems.append("%s: the runtime refused it, but not by rule %s:\n%s" % (where, rr, r0[1]))
            if rr == "signature" and "[rule signature]" not in rk[1]:
                problems.append("%s: the runtime with the key refused it, but not by its signature:\n%s" % (where, rk[1]))
            shutil.rmtree(d, ignore_errors=True)
    print("tamper suite: %d cases (%d raw, %d consistent rewrites) of %d bundles, seed %d"
          % (stats["cases"], stats["raw"], stats["consistent"], len(ARGS.bundles), ARGS.seed))
    print("crashes: %d" % stats["crash"])
    print("rake-verify with the signer's key: accepted %d" % stats["vk"])
    print("runtime with the signer's key: loaded %d" % stats["rk"])
    print("rake-verify without a key: accepted %d (%d rewrites of what only a signature binds, "
          "%d with only the signature changed)" % (stats["v0"], stats["v0_origin"], stats["v0_sig"]))
    print("runtime without a key: loaded %d (%d rewrites of what only a signature binds, %d of code or "
          "evidence or of what only the source determines, which rake-verify refuses, %d with only the signature changed)"
          % (stats["r0"], stats["r0_origin"], stats["r0_code"], stats["r0_sig"]))
    print("refused by the named rule: %d" % stats["rule"])
    for w in origin_accepted:
        print("accepted without a key (only a signature binds it): " + w)
    for p in problems:
        print("PROBLEM: " + p)
    print("problems: %d" % len(problems))
    return 1 if problems else 0


ARGS = None
if __name__ == "__main__":
    sys.exit(main())
