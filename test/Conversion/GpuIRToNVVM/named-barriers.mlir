// RUN: rake-translate --gpuir-to-ptx %s | FileCheck %s

// Groups of different sizes synchronize at the same time: warp group "a" in
// halves of 64 threads, warp group "b" whole. Each group size has its own
// named-barrier ids (0 is the CTA's): the halves take 1 + tid / 64 (1 and
// 2 for group "a"), the warpgroups 5 + tid / 128 (6 for group "b"). With one
// id space (1 + tid / n for every n), "b" would meet the second half of "a"
// on id 2 with another thread count: an illegal instruction on the GPU.
gpuir.proc @halves_and_whole(%n: index) {
  gpuir.device_function warps(a = 4, b = 4) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.warps "a" {
        gpuir.for %h = 0 to 2 : cuda_threads<#gpuir.unit<2 x warp>> {
          gpuir.fence cuda_in_order -> cuda_in_order
        }
      }
      gpuir.warps "b" {
        gpuir.fence cuda_in_order -> cuda_in_order
      }
    }
  }
}
// CHECK: shr.u32 [[HALF:%r[0-9]+]], %r{{[0-9]+}}, 6;
// CHECK: add.s32 [[ID:%r[0-9]+]], [[HALF]], 1;
// CHECK: bar.sync [[ID]], 64;
// CHECK: bar.sync 6, 128;
