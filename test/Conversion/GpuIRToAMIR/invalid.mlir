// RUN: rake-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect --convert-gpuir-to-amir

gpuir.proc @callee() {
}
gpuir.proc @calls() {
  // expected-error @+1 {{'gpuir.call' op calls 'callee'; the synchronization check needs calls inlined first}}
  gpuir.call @callee() : () -> ()
}

// -----

gpuir.proc @opaque(%x: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{'test.effects' op has effects that the synchronization check cannot see; use GpuIR accesses or an instruction (InstrOpInterface)}}
  "test.effects"() : () -> ()
}
