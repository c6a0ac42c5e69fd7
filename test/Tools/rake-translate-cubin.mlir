// A cubin through the CUDA toolkit's ptxas with the profile's flags (where one
// is installed; test/Verifier/examples.test verifies it): an
// NVIDIA ELF holding the kernel's code and its shared-memory section.
// REQUIRES: ptxas
// RUN: rake-translate --gpuir-to-cubin %examples/reverse_tiles.mlir -o %t.cubin
// RUN: od -A n -t x1 -N 4 %t.cubin | FileCheck %s --check-prefix=ELF
// ELF: 7f 45 4c 46
// RUN: strings %t.cubin | FileCheck %s --check-prefix=SECTIONS
// SECTIONS-DAG: .text.reverse_tiles
// SECTIONS-DAG: .nv.shared.reverse_tiles

// Pipeline options: another chip, and a bad format is refused when the
// pipeline is parsed (formats: isa, bin, fatbin).
// RUN: rake-opt %examples/reverse_tiles.mlir --pass-pipeline="builtin.module(rake-gpuir-to-ptx{chip=sm_80})" | FileCheck %s --check-prefix=SM80
// SM80: #nvvm.target<chip = "sm_80">
// SM80-SAME: .target sm_80
// RUN: not rake-opt %examples/reverse_tiles.mlir --pass-pipeline="builtin.module(rake-gpuir-to-ptx{format=nope})" 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: for the --format option: Cannot find option named {{.}}nope{{.}}!
