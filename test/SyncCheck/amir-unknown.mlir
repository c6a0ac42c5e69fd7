// RUN: rake-opt %s --allow-unregistered-dialect -split-input-file -verify-diagnostics --rake-sync-check="max-errors=10"

// A statement the abstract machine does not define is refused, not skipped:
// skipping it could hide an access. It is reported once, however often it
// runs.

amir.proc @unknown() {
  %x = amir.alloc "x" [4] : !amir.data
  // expected-error @+1 {{the synchronization check cannot interpret 'test.unknown'; an abstract-machine procedure holds only AMIR statements (docs/AMIR.md)}}
  "test.unknown"() : () -> ()
}

// -----

amir.proc @unknown_in_loop() {
  %x = amir.alloc "x" [4] : !amir.data
  amir.loop %i = 0 to 4 {
    // expected-error @+1 {{the synchronization check cannot interpret 'test.unknown'; an abstract-machine procedure holds only AMIR statements (docs/AMIR.md)}}
    "test.unknown"() : () -> ()
  }
}
