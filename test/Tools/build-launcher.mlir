// The GPU launcher (runtime/launch/rake-launch.cpp with the C runtime and
// the bundle checker it verifies through) builds from the sources the
// scripts name: bench/gemm/run.sh and scripts/gpu-run.sh build it on the
// GPU machine, where there is no CMake build to catch a missing file.
// REQUIRES: cuda-toolkit
// RUN: %rake_src/scripts/build-launcher.sh %t.launch
// RUN: test -x %t.launch
