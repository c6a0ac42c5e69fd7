//===- Interfaces.td - GpuIR interfaces --------------------*- tablegen -*-===//

#ifndef RAKE_GPUIR_INTERFACES
#define RAKE_GPUIR_INTERFACES

include "mlir/IR/OpBase.td"

def GpuIR_MemoryTypeAttrInterface : AttrInterface<"MemoryTypeAttrInterface"> {
  let cppNamespace = "::mlir::rake::gpuir";
  let description = [{
    A memory type: where a buffer lives, at which level of the thread
    hierarchy one copy of it is allocated, and where it may be allocated.
    Another dialect adds a memory type by implementing this interface on an
    attribute used as a memref memory space.
  }];
  let methods = [
    InterfaceMethod<"The memory type's name as users write it (`smem`).",
      "::llvm::StringRef", "getMemoryName">,
    InterfaceMethod<[{The collective unit that owns one copy of a buffer of
      this memory type (a CollUnitAttr: thread for registers, CTA for shared
      memory); null for memory that every thread of the device sees.}],
      "::mlir::Attribute", "getNativeUnit">,
    InterfaceMethod<"Whether buffers of this type are allocated on the CPU "
      "(outside device functions) rather than inside a device function.",
      "bool", "isAllocatedOnHost">,
    InterfaceMethod<"Whether device code may access this memory.",
      "bool", "isDeviceVisible">,
    InterfaceMethod<"Whether CPU code may access this memory.",
      "bool", "isHostVisible">,
    InterfaceMethod<"Whether the memory is CTA shared memory.",
      "bool", "isSharedMemory">,
    InterfaceMethod<[{Whether accesses are exempt from synchronization
      checking because they cannot race (grid constants are read-only).}],
      "bool", "isSyncExempt">,
    InterfaceMethod<"Whether buffers may have sizes known only at run time.",
      "bool", "allowsDynamicShape">,
  ];
}

def GpuIR_InstrOpInterface : OpInterface<"InstrOpInterface"> {
  let cppNamespace = "::mlir::rake::gpuir";
  let description = [{
    An instruction: an op whose sequential meaning is its behavior and whose
    parallel meaning is given by this interface. The analyses, the
    synchronization check and code generation read instructions only through
    it, so another dialect can add instructions.

    An instruction runs as one collective of `getCollUnit()` threads and
    belongs to the instruction timeline `getInstrTimeline()`. Each data
    parameter (`getParams()`) names its operand, its access mode, the
    qualitative timeline of its accesses, the memory types and element type
    it accepts, whether the hardware may complete it out of order, and the
    units its dimensions are distributed over (registers of a warp's mma
    fragments, for example). An instruction that completes through a barrier
    takes it as its trailing barrier operand.
  }];
  let methods = [
    InterfaceMethod<"The collective unit that executes one instance.",
      "::mlir::rake::gpuir::CollUnitAttr", "getCollUnit">,
    InterfaceMethod<"The instruction timeline.",
      "::mlir::rake::gpuir::InstrTimeline", "getInstrTimeline">,
    InterfaceMethod<"The data parameters, in operand order.",
      "::llvm::SmallVector<::mlir::rake::gpuir::InstrParam>", "getParams">,
    InterfaceMethod<"The barrier mechanism of the trailing barrier, if any.",
      "std::optional<::mlir::rake::gpuir::BarrierMechanism>",
      "getBarrierMechanism", (ins), [{}], [{ return std::nullopt; }]>,
    InterfaceMethod<"The trailing barrier operand, if any.",
      "::mlir::Value", "getTrailingBarrier", (ins), [{}],
      [{ return nullptr; }]>,
    InterfaceMethod<[{The coordinates of the trailing barrier expression:
      its index operands, a map whose results are each coordinate's lo (and
      hi for an interval), and which coordinates are intervals.}],
      "void", "getTrailingBarrierCoords",
      (ins "::llvm::SmallVectorImpl<::mlir::Value> &":$indices,
           "::mlir::AffineMap &":$map,
           "::llvm::SmallVectorImpl<bool> &":$intervals), [{}],
      [{ map = ::mlir::AffineMap::get($_op->getContext()); }]>,
    InterfaceMethod<[{The sequential behavior: builds, at the builder's
      insertion point, func/scf/memref/arith code that does what one
      instance does. `operands` are the op's operands as the sequential
      lowering maps them (buffers as memrefs without GpuIR memory spaces,
      whole: a distributed parameter includes its distributed dimensions;
      barriers as null values).}],
      "::llvm::LogicalResult", "buildSequential",
      (ins "::mlir::OpBuilder &":$b, "::mlir::ValueRange":$operands), [{}],
      [{ return $_op->emitOpError()
             << "has no sequential behavior yet; instructions' behaviors "
                "come with their instruction sets"; }]>,
    InterfaceMethod<[{The device code one thread runs for its part of one
      instance, built at the builder's insertion point in a gpu.func.
      `operands` are the op's operands as the device lowering maps them: a
      parameter distributed over threads arrives as this thread's part (its
      distributed dimensions dropped); `threadId` is the thread's index in
      its CTA (threadIdx.x), from which a warp instruction finds its lane.}],
      "::llvm::LogicalResult", "buildDevice",
      (ins "::mlir::OpBuilder &":$b, "::mlir::ValueRange":$operands,
           "::mlir::Value":$threadId), [{}],
      [{ return $_op->emitOpError()
             << "is an instruction with no device lowering yet"; }]>,
    InterfaceMethod<[{The device code as the device lowering asks for it:
      with the kernel's state (`kernel`: the completion of an asynchronous
      copy on its trailing mbarrier, tensor maps). By default buildDevice,
      which an instruction that needs only its operands implements; one
      that needs the kernel's state (a TMA copy) implements this.}],
      "::llvm::LogicalResult", "buildDeviceInKernel",
      (ins "::mlir::OpBuilder &":$b, "::mlir::ValueRange":$operands,
           "::mlir::rake::gpuir::DeviceKernel &":$kernel), [{}],
      [{ return $_op.buildDevice(b, operands, kernel.getThreadId()); }]>,
  ];
  let verify = [{ return ::mlir::rake::gpuir::verifyInstrOp($_op); }];
}

def GpuIR_AccessOpInterface : OpInterface<"AccessOpInterface"> {
  let cppNamespace = "::mlir::rake::gpuir";
  let description = [{
    An access of part of a buffer written as a coordinate expression: a read,
    write or reduction of one element, or a window (a view that instructions
    take as arguments). Every analysis and conversion takes an access apart
    through this interface: the buffer, the index operands, the map from
    them to each coordinate (a point's index; an interval's lo and hi), and
    which coordinates are intervals.
  }];
  let methods = [
    InterfaceMethod<"The buffer accessed (a window's source).",
      "::mlir::Value", "getBuffer", (ins), [{}],
      [{ return $_op.getBufferOperand().get(); }]>,
    InterfaceMethod<"The operand that holds the buffer.",
      "::mlir::OpOperand &", "getBufferOperand">,
    InterfaceMethod<"The index operands of the coordinate expression.",
      "::mlir::OperandRange", "getIndices">,
    InterfaceMethod<[{The map from the indices to the coordinates: one result
      per point coordinate, two (lo, hi) per interval.}],
      "::mlir::AffineMap", "getMap">,
    InterfaceMethod<"Which coordinates are intervals (none for an element).",
      "::llvm::SmallVector<bool>", "getIntervalFlags", (ins), [{}],
      [{ return ::llvm::SmallVector<bool>($_op.getMap().getNumResults(),
                                          false); }]>,
    InterfaceMethod<"What the access does to its element (or that it is a view).",
      "::mlir::rake::gpuir::AccessKind", "getAccessKind">,
    InterfaceMethod<"The value written or added; null for a read or a window.",
      "::mlir::Value", "getStoredValue", (ins), [{}], [{ return nullptr; }]>,
  ];
  let extraSharedClassDeclaration = [{
    /// Whether it accesses one element (a read, write or reduction), not a
    /// window.
    bool isElementAccess() {
      return $_op.getAccessKind() != ::mlir::rake::gpuir::AccessKind::Window;
    }
    /// Whether the access reads its element (a read or a reduction).
    bool readsElement() {
      auto k = $_op.getAccessKind();
      return k == ::mlir::rake::gpuir::AccessKind::Read ||
             k == ::mlir::rake::gpuir::AccessKind::Reduce;
    }
    /// Whether the access changes its element (a write or a reduction).
    bool mutatesElement() {
      auto k = $_op.getAccessKind();
      return k == ::mlir::rake::gpuir::AccessKind::Write ||
             k == ::mlir::rake::gpuir::AccessKind::Reduce;
    }
  }];
}

#endif // RAKE_GPUIR_INTERFACES
