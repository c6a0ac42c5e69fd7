// RUN: rake-opt %s --allow-unregistered-dialect -verify-diagnostics --rake-sync-check

// A statement the abstract machine does not define is refused, not skipped:
// skipping it could hide an access.

amir.proc @unknown() {
  %x = amir.alloc "x" [4] : !amir.data
  // expected-error @+1 {{the synchronization check cannot interpret 'test.unknown'; an abstract-machine procedure holds only AMIR statements (docs/AMIR.md)}}
  "test.unknown"() : () -> ()
}
