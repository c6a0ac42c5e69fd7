#!/usr/bin/env python3
"""Changes one thing in a bundle folder, for the tamper tests.

  tamper.py DIR cubin-byte OFFSET          flip the bits of one cubin byte
  tamper.py DIR cubin-bit OFFSET BIT       flip one bit of the cubin
  tamper.py DIR cubin-text KERNEL          flip a byte inside .text.KERNEL
  tamper.py DIR cubin-sm SM                set the SM in the cubin's ELF header
  tamper.py DIR strip-phdrs                drop the cubin's program headers
                                           (e_phnum = 0)
  tamper.py DIR nobits SECTION             make a cubin section SHT_NOBITS
                                           with its offset far past the file
                                           (SECTION: a name, or shstrtab)
  tamper.py DIR nop-store KERNEL           replace the kernel's first global
                                           store (STG) by a NOP of the same
                                           code (found through disasm.json)
  tamper.py DIR nvinfo-empty KERNEL ATTR   make the first record of attribute
                                           ATTR (a number) in .nv.info.KERNEL
                                           an empty EIFMT_SVAL (same 4 bytes)
  tamper.py DIR disasm-opcode KERNEL OLD NEW
                                           rename the first OLD instruction of
                                           KERNEL in disasm.json to NEW
  tamper.py DIR disasm-length KERNEL N     set the function's length
  tamper.py DIR ptx-truncate BYTES         cut kernel.ptx to its first BYTES
  tamper.py DIR set PATH JSON              set a manifest field (PATH: a.b.0.c)
  tamper.py DIR unset PATH                 remove a manifest field
  tamper.py DIR text FILE OLD NEW          replace OLD by NEW once in FILE's
                                           text (duplicated keys, ...)
  tamper.py DIR rehash                     re-bind every hash the manifest
                                           holds (cubin, its size, each
                                           kernel's code, PTX, disassembly,
                                           source)
  tamper.py DIR reseal                     recompute manifest.sha256

Each edit leaves the hashes and the seal as they are unless `rehash` and
`reseal` follow, so that a test can show both the seal and the check behind
it. `rehash` then `reseal` is what an attacker who rewrites the whole bundle
does; only a signature (manifest.sig) stops that, and only for what the
signature covers.
"""
import hashlib
import json
import struct
import sys


def sections(data):
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    n, strndx = struct.unpack_from("<HH", data, 0x3C)
    heads = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + 64 * i) for i in range(n)]
    stroff = heads[strndx][4]
    for h in heads:
        name = data[stroff + h[0]:data.index(b"\0", stroff + h[0])].decode()
        yield name, h[4], h[5], h[1]


def text_of(data, kernel):
    return [(o, s) for (n, o, s, t) in sections(data) if n == ".text." + kernel][0]


def sha(b):
    return hashlib.sha256(b).hexdigest()


def load_json(path):
    return json.load(open(path))


def save_json(path, v):
    open(path, "w").write(json.dumps(v, indent=2) + "\n")


def disasm_function(dis, kernel):
    return [f for f in dis[1] if f["function-name"] == kernel][0]


def main(argv):
    apply(argv[1], argv[2], argv[3:])


def apply(d, what, args):
    cubin, manifest = d + "/kernel.cubin", d + "/manifest.json"
    if what in ("cubin-byte", "cubin-bit", "cubin-text", "cubin-sm",
                "strip-phdrs", "nop-store", "nobits", "nvinfo-empty"):
        data = bytearray(open(cubin, "rb").read())
        if what == "cubin-byte":
            data[int(args[0], 0)] ^= 0xFF
        elif what == "cubin-bit":
            data[int(args[0], 0)] ^= 1 << int(args[1])
        elif what == "cubin-text":
            data[text_of(data, args[0])[0] + 0x20] ^= 0x01
        elif what == "cubin-sm":
            data[0x31] = int(args[0])  # e_flags bits 8..15
        elif what == "strip-phdrs":
            struct.pack_into("<H", data, 0x38, 0)
        elif what == "nvinfo-empty":
            off, size = [(o, s) for (n, o, s, t) in sections(data)
                         if n == ".nv.info." + args[0]][0]
            p, attr = off, int(args[1], 0)
            while p < off + size:
                fmt, a = data[p], data[p + 1]
                if a == attr and fmt in (1, 2, 3):
                    data[p:p + 4] = bytes([4, attr, 0, 0])
                    break
                p += 4 + (struct.unpack_from("<H", data, p + 2)[0] if fmt == 4 else 0)
            else:
                raise SystemExit("tamper.py: no record %s" % args[1])
        elif what == "nobits":
            shoff = struct.unpack_from("<Q", data, 0x28)[0]
            strndx = struct.unpack_from("<H", data, 0x3E)[0]
            names = [n for n, _, _, _ in sections(data)]
            i = strndx if args[0] == "shstrtab" else names.index(args[0])
            struct.pack_into("<I", data, shoff + 64 * i + 4, 8)
            struct.pack_into("<Q", data, shoff + 64 * i + 24, 0x100000000000)
        else:
            f = disasm_function(load_json(d + "/disasm.json"), args[0])
            ops = [i["opcode"] for i in f["sass-instructions"]]
            store = [i for i, o in enumerate(ops) if o.startswith("STG")][0]
            nop = ops.index("NOP")
            base = text_of(data, args[0])[0] + f["start"]
            data[base + 16 * store:base + 16 * store + 16] = \
                data[base + 16 * nop:base + 16 * nop + 16]
        open(cubin, "wb").write(data)
    elif what in ("disasm-opcode", "disasm-length"):
        dis = load_json(d + "/disasm.json")
        f = disasm_function(dis, args[0])
        if what == "disasm-length":
            f["length"] = int(args[1])
        else:
            [i for i in f["sass-instructions"] if i["opcode"] == args[1]][0]["opcode"] = args[2]
        open(d + "/disasm.json", "w").write(json.dumps(dis))
    elif what == "ptx-truncate":
        text = open(d + "/kernel.ptx", "rb").read()
        open(d + "/kernel.ptx", "wb").write(text[:int(args[0])])
    elif what in ("set", "unset"):
        m = load_json(manifest)
        keys = args[0].split(".")
        obj = m
        for k in keys[:-1]:
            obj = obj[int(k)] if isinstance(obj, list) else obj[k]
        last = keys[-1]
        key = int(last) if isinstance(obj, list) else last
        if what == "unset":
            del obj[key]
        elif isinstance(obj, list) and key == len(obj):
            obj.append(json.loads(args[1]))  # a new last element
        else:
            obj[key] = json.loads(args[1])
        save_json(manifest, m)
    elif what == "text":
        path = d + "/" + args[0]
        text = open(path).read()
        if args[1] not in text:
            raise SystemExit("tamper.py: '%s' is not in %s" % (args[1], path))
        open(path, "w").write(text.replace(args[1], args[2], 1))
    elif what == "rehash":
        m = load_json(manifest)
        data = open(cubin, "rb").read()
        m["cubin"]["sha256"] = sha(data)
        m["cubin"]["bytes"] = len(data)
        try:
            for k in m["kernels"]:
                off, size = text_of(data, k["name"])
                k["sha256"] = sha(data[off:off + size])
        except Exception:
            pass  # a cubin too broken to find its sections keeps the old ones
        m["ptx"]["sha256"] = sha(open(d + "/kernel.ptx", "rb").read())
        if m.get("disassembly"):
            m["disassembly"]["sha256"] = sha(open(d + "/disasm.json", "rb").read())
        src = m.get("source", {}).get("file")
        if src:
            try:
                m["source"]["sha256"] = sha(open(d + "/" + src, "rb").read())
            except OSError:
                pass  # a missing source keeps its hash
        save_json(manifest, m)
    elif what == "reseal":
        open(d + "/manifest.sha256", "w").write(
            sha(open(manifest, "rb").read()) + "  manifest.json\n")
    else:
        raise SystemExit("unknown edit " + what)


if __name__ == "__main__":
    main(sys.argv)
