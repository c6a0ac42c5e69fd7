//===- FromSource.h - What a GpuIR source determines of a bundle -*- C++ -*-===//
//
// The one derivation of a bundle's source-determined content from GpuIR:
// the PTX (the rake-gpuir-to-ptx pipeline for the profile's target), each
// kernel's parameter roles and launch shape (the kernel ABI,
// lib/Analysis/KernelABI) and its source signature (parameter names, kinds,
// element types, memories, extents, tensor-core input formats).
// rake-bundle records it; rake-verify derives it again from the bundle's
// source.mlir and requires the manifest and kernel.ptx to be what it gives,
// so that every field the cubin cannot confirm is bound to the source.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_VERIFIER_FROMSOURCE_H
#define RAKE_VERIFIER_FROMSOURCE_H

#include "Rake/Verifier/Bundle.h"

#include <string>

namespace rake {
namespace bundle {

/// Compiles \p text (GpuIR; \p bufferName names it in diagnostics, as the
/// manifest's source.path does) for \p profile's target. On failure returns
/// false with the diagnostics in \p error (one per line); when \p printErrors
/// they also go to stderr as the compiler prints them (rake-bundle).
bool deriveFromGpuIR(const std::string &text, const std::string &bufferName,
                     const profile::Profile &profile, SourceDerivation &out,
                     std::string &error, bool printErrors = false);

} // namespace bundle
} // namespace rake

#endif // RAKE_VERIFIER_FROMSOURCE_H
