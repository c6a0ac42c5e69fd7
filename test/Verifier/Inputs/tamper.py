#!/usr/bin/env python3
"""Changes one thing in a bundle folder, for the tamper tests.

  tamper.py DIR cubin-byte OFFSET          flip the bits of one cubin byte
  tamper.py DIR cubin-text KERNEL          flip a byte inside .text.KERNEL
  tamper.py DIR cubin-sm SM                set the SM in the cubin's ELF header
  tamper.py DIR set PATH JSON              set a manifest field (PATH: a.b.0.c)
  tamper.py DIR unset PATH                 remove a manifest field
  tamper.py DIR ptx-extern-shared          declare dynamic shared memory
                                           (.extern .shared) in kernel.ptx and
                                           re-bind its sha256
  tamper.py DIR rehash                     re-bind the cubin's sha256
  tamper.py DIR reseal                     recompute manifest.sha256

Each edit leaves the seal as it is unless `reseal` follows, so that a test
can show both the seal and the check behind it.
"""
import hashlib
import json
import struct
import sys

d, what = sys.argv[1], sys.argv[2]
cubin = d + "/kernel.cubin"
manifest = d + "/manifest.json"


def sections(data):
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    n, strndx = struct.unpack_from("<HH", data, 0x3C)
    heads = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + 64 * i) for i in range(n)]
    stroff = heads[strndx][4]
    for h in heads:
        name = data[stroff + h[0]:data.index(b"\0", stroff + h[0])].decode()
        yield name, h[4], h[5]


if what in ("cubin-byte", "cubin-text", "cubin-sm"):
    data = bytearray(open(cubin, "rb").read())
    if what == "cubin-byte":
        data[int(sys.argv[3], 0)] ^= 0xFF
    elif what == "cubin-text":
        off = [o for (n, o, s) in sections(data) if n == ".text." + sys.argv[3]][0]
        data[off + 0x20] ^= 0x01
    else:
        data[0x31] = int(sys.argv[3])  # e_flags bits 8..15
    open(cubin, "wb").write(data)
elif what in ("set", "unset"):
    m = json.load(open(manifest))
    keys = sys.argv[3].split(".")
    obj = m
    for k in keys[:-1]:
        obj = obj[int(k)] if isinstance(obj, list) else obj[k]
    last = keys[-1]
    key = int(last) if isinstance(obj, list) else last
    if what == "unset":
        del obj[key]
    else:
        obj[key] = json.loads(sys.argv[4])
    open(manifest, "w").write(json.dumps(m, indent=2) + "\n")
elif what == "ptx-extern-shared":
    m = json.load(open(manifest))
    ptx = d + "/" + m["ptx"]["file"]
    text = open(ptx).read().replace(
        ".address_size 64\n",
        ".address_size 64\n\n.extern .shared .align 128 .b8 __dynamic_shmem__0[];\n", 1)
    open(ptx, "w").write(text)
    m["ptx"]["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    open(manifest, "w").write(json.dumps(m, indent=2) + "\n")
elif what == "rehash":
    m = json.load(open(manifest))
    m["cubin"]["sha256"] = hashlib.sha256(open(cubin, "rb").read()).hexdigest()
    open(manifest, "w").write(json.dumps(m, indent=2) + "\n")
elif what == "reseal":
    h = hashlib.sha256(open(manifest, "rb").read()).hexdigest()
    open(d + "/manifest.sha256", "w").write(h + "  manifest.json\n")
else:
    sys.exit("unknown edit " + what)
