//===- KernelABI.cpp - A kernel's ABI, computed once ----------------------===//

#include "Rake/Analysis/KernelABI.h"
#include "Rake/Analysis/CollectiveAnalysis.h"
#include "Rake/Dialect/GpuIR/Instrs/Sm90a.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

bool mlir::rake::isSharedBuffer(Type t) {
  auto memref = dyn_cast<MemRefType>(t);
  return memref && isa_and_nonnull<SmemAttr, SmemAtomic16Attr, SmemSwizzledAttr>(
                       memref.getMemorySpace());
}

bool mlir::rake::isSwizzledBuffer(Type t) {
  auto memref = dyn_cast<MemRefType>(t);
  return memref && isa_and_nonnull<SmemSwizzledAttr>(memref.getMemorySpace());
}

/// The number of leading dimensions of a buffer distributed over its
/// owners (a cluster's CTAs for shared memory): each owner holds the rest.
unsigned mlir::rake::distributedDims(const DistributedMemoryAnalysis &dist,
                                     Value buffer) {
  const Sharding *sharding = dist.getSharding(buffer);
  return sharding ? sharding->pitches.size() : 0;
}

static void layOutBlock(Block &block, int64_t top,
                        const DistributedMemoryAnalysis &dist,
                        SharedMemoryLayout &layout) {
  for (Operation &op : block) {
    if (auto alloc = dyn_cast<AllocOp>(&op);
        alloc && isSharedBuffer(alloc.getResult().getType())) {
      auto type = cast<MemRefType>(alloc.getResult().getType());
      Type elt = type.getElementType();
      int64_t eltBytes =
          elt.isIntOrFloat() ? (elt.getIntOrFloatBitWidth() + 7) / 8 : 8;
      int64_t elems = 1;
      for (int64_t d : type.getShape().drop_front(
               distributedDims(dist, alloc.getResult())))
        elems *= d;
      int64_t align = isSwizzledBuffer(type) ? SharedMemoryLayout::kSwizzledAlignment
                                       : SharedMemoryLayout::kAlignment;
      layout.alignment = std::max(layout.alignment, align);
      top = llvm::alignTo(top, align);
      layout.offsets[alloc] = top;
      layout.sizes[alloc] = elems * eltBytes;
      top += elems * eltBytes;
      layout.bytes = std::max(layout.bytes, top);
    }
    // Buffers of nested blocks live while the block runs; siblings reuse.
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        layOutBlock(inner, top, dist, layout);
  }
}

SharedMemoryLayout
mlir::rake::layOutSharedMemory(DeviceFunctionOp device,
                               const DistributedMemoryAnalysis &dist) {
  SharedMemoryLayout layout;
  layOutBlock(device.getBody().front(), 0, dist, layout);
  return layout;
}

SharedMemoryLayout mlir::rake::layOutSharedMemory(DeviceFunctionOp device) {
  // A CTA holds its own part of a buffer shared out over a cluster's CTAs.
  Operation *proc = device->getParentOfType<ProcOp>();
  CollectiveAnalysis coll(proc ? proc : device.getOperation());
  DistributedMemoryAnalysis dist(proc ? proc : device.getOperation(), coll);
  return layOutSharedMemory(device, dist);
}

FailureOr<KernelTensorMaps>
mlir::rake::collectTensorMaps(DeviceFunctionOp device) {
  KernelTensorMaps out;
  // A TMA copy's map describes its global side: a load's source, a
  // store's destination; the box and swizzle are those of its shared side.
  WalkResult walk = device.walk([&](Operation *op) {
    Value global;
    int64_t swizzle = 0;
    if (auto load = dyn_cast<TmaLoadOp>(op)) {
      global = load.getSrc();
      swizzle = load.getSwizzle();
    } else if (auto store = dyn_cast<TmaStoreOp>(op)) {
      global = store.getDst();
      swizzle = store.getSwizzle();
    } else {
      return WalkResult::advance();
    }
    StringRef side = isa<TmaLoadOp>(op) ? "from" : "to";
    auto window = global.getDefiningOp<WindowOp>();
    auto arg = window ? dyn_cast<BlockArgument>(window.getSource())
                      : BlockArgument();
    if (!arg || !isa<ProcOp>(arg.getOwner()->getParentOp())) {
      op->emitOpError() << "copies " << side
                        << " a box that is not one window of a "
                           "buffer parameter of the procedure; the tensor "
                           "map describes a parameter";
      return WalkResult::interrupt();
    }
    auto type = cast<MemRefType>(arg.getType());
    if (type.getRank() != 2 || !type.getLayout().isIdentity()) {
      op->emitOpError() << "copies " << side << " parameter #"
                        << arg.getArgNumber() << " of type " << type
                        << "; code generation makes tensor maps of "
                           "two-dimensional row-major buffers";
      return WalkResult::interrupt();
    }
    MemRefType box = cast<MemRefType>(global.getType());
    TensorMapUse use{arg.getArgNumber(), box.getDimSize(0), box.getDimSize(1),
                     swizzle};
    auto same = [&](const TensorMapUse &u) {
      return u.arg == use.arg && u.rows == use.rows && u.cols == use.cols &&
             u.swizzle == use.swizzle;
    };
    auto it = llvm::find_if(out.maps, same);
    out.byOp[op] = it - out.maps.begin();
    if (it == out.maps.end())
      out.maps.push_back(use);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return out;
}


static DeviceFunctionOp deviceFunctionOf(ProcOp proc) {
  for (Operation &op : proc.getBody().front())
    if (auto device = dyn_cast<DeviceFunctionOp>(&op))
      return device;
  return {};
}

FailureOr<KernelABI> mlir::rake::computeKernelABI(ProcOp proc) {
  DeviceFunctionOp device = deviceFunctionOf(proc);
  if (!device)
    return proc.emitOpError() << "has no device function, so no kernel ABI";
  KernelABI abi;
  abi.block = device.getBlockDim();
  abi.blocksPerSm = device.getBlocksPerSm();
  abi.cluster = device.getCluster();
  SharedMemoryLayout layout = layOutSharedMemory(device);
  abi.dynamicSharedBytes = layout.bytes;
  abi.sharedAlignment = layout.alignment;
  FailureOr<KernelTensorMaps> maps = collectTensorMaps(device);
  if (failed(maps))
    return failure();
  abi.tensorMaps = maps->maps;
  for (auto [i, t] : llvm::enumerate(proc.getArgumentTypes())) {
    std::string arg = "arg" + std::to_string(i);
    if (auto m = dyn_cast<MemRefType>(t)) {
      abi.roles.push_back(arg + ".allocated");
      // A declared alignment (gpuir.align) is part of the role, so that the
      // runtime checks it at each launch: argK.alignedN.
      std::string align;
      if (auto a = proc.getArgAttrOfType<IntegerAttr>(i, kAlignAttrName))
        align = std::to_string(a.getInt());
      abi.roles.push_back(arg + ".aligned" + align);
      abi.roles.push_back(arg + ".offset");
      for (int64_t d = 0; d < m.getRank(); ++d)
        abi.roles.push_back(arg + ".size" + std::to_string(d));
      for (int64_t d = 0; d < m.getRank(); ++d)
        abi.roles.push_back(arg + ".stride" + std::to_string(d));
    } else {
      abi.roles.push_back(arg + ".index");
    }
  }
  for (const TensorMapUse &m : abi.tensorMaps)
    abi.roles.push_back("tensormap.arg" + std::to_string(m.arg) + "." +
                        std::to_string(m.rows) + "x" + std::to_string(m.cols) +
                        ".swizzle" + std::to_string(m.swizzle));
  return abi;
}

DictionaryAttr mlir::rake::kernelABIToAttr(MLIRContext *ctx,
                                           const KernelABI &abi) {
  Builder b(ctx);
  SmallVector<Attribute> maps, roles;
  for (const TensorMapUse &m : abi.tensorMaps)
    maps.push_back(b.getDenseI64ArrayAttr(
        {int64_t(m.arg), m.rows, m.cols, m.swizzle}));
  for (const std::string &r : abi.roles)
    roles.push_back(b.getStringAttr(r));
  return b.getDictionaryAttr({
      b.getNamedAttr("block", b.getI64IntegerAttr(abi.block)),
      b.getNamedAttr("blocks_per_sm", b.getI64IntegerAttr(abi.blocksPerSm)),
      b.getNamedAttr("cluster", b.getI64IntegerAttr(abi.cluster)),
      b.getNamedAttr("dynamic_shared_bytes",
                     b.getI64IntegerAttr(abi.dynamicSharedBytes)),
      b.getNamedAttr("shared_alignment",
                     b.getI64IntegerAttr(abi.sharedAlignment)),
      b.getNamedAttr("tensor_maps", b.getArrayAttr(maps)),
      b.getNamedAttr("roles", b.getArrayAttr(roles)),
  });
}

FailureOr<KernelABI> mlir::rake::kernelABIFromAttr(DictionaryAttr attr) {
  KernelABI abi;
  auto get = [&](StringRef name, int64_t &out) {
    auto v = attr ? attr.getAs<IntegerAttr>(name) : IntegerAttr();
    if (v)
      out = v.getInt();
    return bool(v);
  };
  if (!get("block", abi.block) || !get("blocks_per_sm", abi.blocksPerSm) ||
      !get("cluster", abi.cluster) ||
      !get("dynamic_shared_bytes", abi.dynamicSharedBytes) ||
      !get("shared_alignment", abi.sharedAlignment))
    return failure();
  auto maps = attr.getAs<ArrayAttr>("tensor_maps");
  auto roles = attr.getAs<ArrayAttr>("roles");
  if (!maps || !roles)
    return failure();
  for (Attribute a : maps) {
    auto m = dyn_cast<DenseI64ArrayAttr>(a);
    if (!m || m.size() != 4)
      return failure();
    abi.tensorMaps.push_back({unsigned(m[0]), m[1], m[2], m[3]});
  }
  for (Attribute a : roles) {
    auto r = dyn_cast<StringAttr>(a);
    if (!r)
      return failure();
    abi.roles.push_back(r.str());
  }
  return abi;
}

FailureOr<KernelABI> mlir::rake::kernelABI(ProcOp proc) {
  if (auto attr = proc->getAttrOfType<DictionaryAttr>(kKernelABIAttrName))
    if (FailureOr<KernelABI> abi = kernelABIFromAttr(attr); succeeded(abi))
      return abi;
  return computeKernelABI(proc);
}

LogicalResult mlir::rake::attachKernelABI(ProcOp proc) {
  FailureOr<KernelABI> abi = computeKernelABI(proc);
  if (failed(abi))
    return failure();
  proc->setAttr(kKernelABIAttrName, kernelABIToAttr(proc.getContext(), *abi));
  return success();
}
