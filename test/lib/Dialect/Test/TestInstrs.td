//===- TestInstrs.td - instructions for tests --------------*- tablegen -*-===//
//
// A small dialect outside GpuIR whose ops implement the instruction
// interface: the seed's placeholder instructions (example_wgmma,
// example_tma_multicast, some_in_order_op). It shows that another dialect can
// add instructions, and gives tests instructions without a hardware target.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_TEST_INSTRS
#define RAKE_TEST_INSTRS

include "mlir/IR/OpBase.td"
include "Rake/Dialect/GpuIR/IR/Attrs.td"
include "Rake/Dialect/GpuIR/IR/Types.td"

def RTest_Dialect : Dialect {
  let name = "rtest";
  let cppNamespace = "::mlir::rake::rtest";
  let dependentDialects = ["::mlir::rake::gpuir::GpuIRDialect"];
}

class RTest_Instr<string mnemonic>
    : Op<RTest_Dialect, mnemonic,
         [DeclareOpInterfaceMethods<GpuIR_InstrOpInterface,
                                    ["getBarrierMechanism", "getTrailingBarrier",
                                     "getTrailingBarrierCoords"]>]>;

def RTest_InOrderOp : RTest_Instr<"in_order_op"> {
  let summary = "an ordinary in-order access of a buffer by a collective of a given unit";
  let description = [{
    Reads and writes `buf` (only reads it with `read_only`), run by one
    collective of `unit`. With `over`, the buffer's leading dimension is
    distributed over the given sub-units of the collective (a register
    fragment with one row per thread).
  }];
  let arguments = (ins AnyMemRef:$buf, GpuIR_CollUnitAttr:$unit,
                       OptionalAttr<GpuIR_CollUnitAttr>:$over,
                       UnitAttr:$read_only);
  let assemblyFormat = [{
    $buf `unit` $unit (`over` $over^)? (`read_only` $read_only^)? attr-dict `:` type($buf)
  }];
}

def RTest_HostOp : RTest_Instr<"host_op"> {
  let summary = "a CPU instruction that reads a host buffer";
  let arguments = (ins AnyMemRef:$buf);
  let assemblyFormat = "$buf attr-dict `:` type($buf)";
}

def RTest_ExampleWgmmaOp : RTest_Instr<"example_wgmma"> {
  let summary = "D += A * B by a warpgroup, asynchronously (wgmma)";
  let arguments = (ins AnyMemRef:$d, AnyMemRef:$a, AnyMemRef:$b);
  let assemblyFormat = "$d `,` $a `,` $b attr-dict `:` type($d) `,` type($a) `,` type($b)";
}

def RTest_ExampleTmaMulticastOp : Op<RTest_Dialect, "example_tma_multicast",
    [DeclareOpInterfaceMethods<GpuIR_InstrOpInterface,
                               ["getBarrierMechanism", "getTrailingBarrier",
                                "getTrailingBarrierCoords",
                                "buildDeviceInKernel"]>]> {
  let summary = "copy a global tile into the shared memory of several CTAs (TMA multicast)";
  let description = [{
    Its device code asks the kernel (DeviceKernel) for the completion on its
    trailing mbarrier, then for a tensor map, which the kernel has only for
    gpuir.sm90a.tma_load: an instruction from outside GpuIR using the
    kernel's state, and the refusal when it asks for what the kernel lacks.
  }];
  let arguments = (ins AnyMemRef:$src, AnyMemRef:$dst, GpuIR_AnyBarrier:$barrier,
                       Variadic<Index>:$indices, AffineMapAttr:$map,
                       DenseBoolArrayAttr:$intervals);
  let assemblyFormat = [{
    $src `,` $dst custom<TrailingBarrier>($barrier, $indices, $map, $intervals)
    attr-dict `:` type($src) `,` type($dst) `,` type($barrier)
  }];
}

#endif // RAKE_TEST_INSTRS
