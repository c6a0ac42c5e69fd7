// RUN: rake-opt %s -split-input-file -verify-diagnostics

gpuir.proc @product(%n: index, %A: memref<64xf32, #gpuir.gmem>) {
  gpuir.for %i = 0 to 64 : seq {
    // expected-error @+1 {{a product in a condition needs a constant factor: control expressions are affine}}
    gpuir.if %i * %n < 3 {
    }
  }
}

// -----

gpuir.proc @divisor(%n: index) {
  gpuir.for %i = 0 to 64 : seq {
    // expected-error @+1 {{expected a positive constant after floordiv, ceildiv or mod}}
    gpuir.if %i mod %n == 0 {
    }
  }
}

// -----

gpuir.proc @no_comparison(%n: index) {
  gpuir.for %i = 0 to 64 : seq {
    // expected-error @+1 {{expected a comparison: <, <=, >, >= or ==}}
    gpuir.if (%i) {
    }
  }
}

// -----

gpuir.proc @no_expression(%n: index) {
  gpuir.for %i = 0 to 64 : seq {
    // expected-error @+1 {{expected a control expression: an integer, a control value (%name) or a parenthesized expression}}
    gpuir.if %i < or {
    }
  }
}

// -----

// Each `not` of an `and` doubles the alternatives: past 64 the condition is
// refused with what to do instead.
gpuir.proc @too_many(%a: index, %b: index) {
  // expected-error @+1 {{this condition has more than 64 alternatives once written as an 'or' of 'and's; split it into nested gpuir.if}}
  gpuir.if not (%a == 0 and %b == 0) and not (%a == 1 and %b == 1) and not (%a == 2 and %b == 2) and not (%a == 3 and %b == 3) and not (%a == 4 and %b == 4) {
  }
}

// -----

// The alternatives of a condition, in the generic form, must add up to its
// comparisons and each hold one.
gpuir.proc @clauses(%a: index) {
  // expected-error @+1 {{'gpuir.if' op the alternatives of the condition hold 2 comparisons, not 1}}
  "gpuir.if"(%a) <{map = affine_map<(d0) -> (d0, 0)>, predicates = array<i32: 0>, clauses = array<i32: 2>}> ({
  ^bb0:
  }, {
  }) : (index) -> ()
}

// -----

gpuir.proc @empty_alternative(%a: index) {
  // expected-error @+1 {{'gpuir.if' op each alternative of a condition has a comparison}}
  "gpuir.if"(%a) <{map = affine_map<(d0) -> (d0, 0)>, predicates = array<i32: 0>, clauses = array<i32: 1, 0>}> ({
  ^bb0:
  }, {
  }) : (index) -> ()
}
