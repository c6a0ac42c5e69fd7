#!/usr/bin/env bash
# Builds rake-launch (runtime/launch/rake-launch.cpp) with the C runtime it
# launches through, on a machine with the CUDA toolkit and OpenSSL's
# libcrypto (no LLVM needed):
#   scripts/build-launcher.sh OUT
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: build-launcher.sh OUT}
cuda=${CUDA_HOME:-/usr/local/cuda}
g++ -O2 -std=c++17 -o "$out" -I"$root/include" -I"$cuda/include" \
  "$root/runtime/launch/rake-launch.cpp" "$root/lib/Runtime/Runtime.cpp" "$root/lib/Runtime/LaunchChecks.cpp" \
  "$root/lib/Artifact/Json.cpp" "$root/lib/Artifact/Crypto.cpp" \
  "$root/lib/Artifact/Manifest.cpp" "$root/lib/Artifact/BundleCheck.cpp" \
  "$root/lib/Artifact/ProfileJson.cpp" "$root/lib/Verifier/Cubin.cpp" \
  "$root/lib/Verifier/Ptx.cpp" "$root/lib/Profile/Profile.cpp" \
  -L"$cuda/lib64" -L"$cuda/lib64/stubs" -lcuda -lcrypto -ldl
