#!/usr/bin/env bash
# Builds the C runtime as a shared library (librake_runtime.so: what the
# Python package's rake.load opens) from its sources on a machine without
# LLVM or MLIR, e.g. the GPU machine a bundle was compiled for. Needs a C++17
# compiler and OpenSSL's libcrypto; no CUDA toolkit (libcuda is opened at run
# time).
#   scripts/build-runtime.sh OUT.so
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: build-runtime.sh OUT.so}
g++ -O2 -std=c++17 -shared -fPIC -o "$out" -I"$root/include" \
  "$root/lib/Runtime/Runtime.cpp" "$root/lib/Runtime/LaunchChecks.cpp" \
  "$root/lib/Artifact/Json.cpp" "$root/lib/Artifact/Crypto.cpp" \
  "$root/lib/Artifact/Manifest.cpp" "$root/lib/Artifact/BundleCheck.cpp" \
  "$root/lib/Artifact/ProfileJson.cpp" "$root/lib/Verifier/Cubin.cpp" \
  "$root/lib/Verifier/Ptx.cpp" "$root/lib/Profile/Profile.cpp" \
  -Wl,--version-script="$root/runtime/rake_runtime.map" -Wl,--no-undefined \
  -lcrypto -ldl
