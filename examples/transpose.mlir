// Y = transpose(X) for an R x C matrix, through shared memory: each CTA of
// 8 warps loads a 32x32 tile of X row by row (coalesced), meets the other
// warps at a CTA fence (bar.sync), and writes the tile's columns as rows of
// Y (coalesced again). The tile has a padding column against bank
// conflicts; partial tiles at the edges are guarded.
//
//   build/bin/rake-opt examples/transpose.mlir --rake-check
//   build/bin/rake-run --seq examples/transpose.mlir --sizes=R=70,C=100 --shape=X=70x100,Y=100x70
//   build/bin/rake-translate --gpuir-to-ptx examples/transpose.mlir
gpuir.proc @transpose(%R: index, %C: index, %X: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(R, C) -> (R, C)>}, %Y: memref<?x?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(R, C) -> (C, R)>})
    attributes {gpuir.check_sizes = [{R = 64, C = 96}, {R = 70, C = 40}]} {
  gpuir.device_function blocks_per_sm(4) block(256) {
    gpuir.for %i = 0 to %R ceildiv 32 : cuda_tasks {
      gpuir.for %j = 0 to %C ceildiv 32 : cuda_tasks {
        %tile = gpuir.alloc : memref<32x33xf32, #gpuir.smem>
        gpuir.for %w = 0 to 8 : cuda_threads<#gpuir.unit<warp>> {
          gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %k = 0 to 4 : seq {
              gpuir.if %i * 32 + %w * 4 + %k < %R and %j * 32 + %l < %C {
                %v = gpuir.read %X[%i * 32 + %w * 4 + %k, %j * 32 + %l] : memref<?x?xf32, #gpuir.gmem>
                gpuir.write %v, %tile[%w * 4 + %k, %l] : memref<32x33xf32, #gpuir.smem>
              }
            }
          }
        }
        gpuir.fence cuda_in_order -> cuda_in_order
        gpuir.for %w = 0 to 8 : cuda_threads<#gpuir.unit<warp>> {
          gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
            gpuir.for %k = 0 to 4 : seq {
              gpuir.if %j * 32 + %w * 4 + %k < %C and %i * 32 + %l < %R {
                %v = gpuir.read %tile[%l, %w * 4 + %k] : memref<32x33xf32, #gpuir.smem>
                gpuir.write %v, %Y[%j * 32 + %w * 4 + %k, %i * 32 + %l] : memref<?x?xf32, #gpuir.gmem>
              }
            }
          }
        }
      }
    }
  }
}
