//===- TestInstrs.h - instructions for tests --------------------*- C++ -*-===//

#ifndef RAKE_TEST_TESTINSTRS_H
#define RAKE_TEST_TESTINSTRS_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

#include "TestInstrsDialect.h.inc"

#define GET_OP_CLASSES
#include "TestInstrs.h.inc"

namespace mlir::rake::rtest {
void registerTestDialect(DialectRegistry &registry);
} // namespace mlir::rake::rtest

#endif // RAKE_TEST_TESTINSTRS_H
