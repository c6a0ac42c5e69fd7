// rake-opt --help starts with Rake's pipelines and passes and their
// options, before MLIR's options and some three hundred upstream passes.
// RUN: rake-opt --help > %t && head -n 40 %t | FileCheck %s
// CHECK: Rake GPU pipelines:
// CHECK-NEXT: --rake-check
// CHECK: --summary
// CHECK: --rake-gpuir-to-llvm-cpu
// CHECK: --rake-gpuir-to-ptx
// CHECK: Rake GPU passes:
// CHECK-NEXT: --rake-sync-check
// CHECK: --all-sizes
// CHECK: --convert-gpuir-to-cpu
// CHECK: (MLIR's options and upstream passes follow.)

// rake-bundle and rake-verify list every option they accept (LLVM's own are
// hidden): a user finds --nvdisasm, --repin and the PTX-input options there.
// RUN: rake-bundle --help | FileCheck %s --check-prefix=BUNDLE
// BUNDLE: rake-bundle options:
// BUNDLE-DAG: --blocks-per-sm=<long>
// BUNDLE-DAG: --disasm-dir=<string>
// BUNDLE-DAG: --dynamic-shared-bytes=<long>
// BUNDLE-DAG: --nvdisasm=<string>
// BUNDLE-DAG: -o <string>
// BUNDLE-DAG: --profile=<string>
// BUNDLE-DAG: --ptxas=<string>
// BUNDLE-DAG: --repin
// BUNDLE-DAG: --sign=<string>
// RUN: rake-verify --help | FileCheck %s --check-prefix=VERIFY
// VERIFY-DAG: --allow-relaxed
// VERIFY-DAG: --allow-repinned
// VERIFY-DAG: --disasm=<string>
// VERIFY-DAG: --disasm-dir=<string>
// VERIFY-DAG: --keygen=<string>
// VERIFY-DAG: --list-profiles
// VERIFY-DAG: --nvdisasm=<string>
// VERIFY-DAG: --print-profile=<string>
// VERIFY-DAG: --profile=<string>
// VERIFY-DAG: --profile-file=<string>
// VERIFY-DAG: --ptx=<string>
// VERIFY-DAG: --ptxas=<string>
// VERIFY-DAG: --public-key=<string>
// VERIFY-DAG: --sign=<string>
// VERIFY-DAG: --source-loops=<int>
