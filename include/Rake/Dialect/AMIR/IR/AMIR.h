//===- AMIR.h - the abstract machine dialect --------------------*- C++ -*-===//

#ifndef RAKE_DIALECT_AMIR_IR_AMIR_H
#define RAKE_DIALECT_AMIR_IR_AMIR_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

#include "Rake/Dialect/AMIR/IR/Dialect.h.inc"
#include "Rake/Dialect/AMIR/IR/Enums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Rake/Dialect/AMIR/IR/Attrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "Rake/Dialect/AMIR/IR/Types.h.inc"

#include "Rake/Dialect/AMIR/IR/OpInterfaces.h.inc"

#define GET_OP_CLASSES
#include "Rake/Dialect/AMIR/IR/Ops.h.inc"

#endif // RAKE_DIALECT_AMIR_IR_AMIR_H
