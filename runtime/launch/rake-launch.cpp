// rake-launch: run a kernel that rake-translate compiled, on the GPU.
//
//   rake-launch KERNEL.ptx|cubin NAME --block N [--blocks-per-sm K] ARG...
//
// Each ARG is one parameter of the GpuIR procedure, in order:
//   i:VALUE                         an index parameter
//   m:BYTES:D0xD1...:IN:OUT         a buffer of elements of BYTES bytes and
//                                   the given shape, filled from file IN
//                                   (raw, row-major) and written to OUT
//                                   after the run (- for neither)
// The kernel is persistent: it is launched on SMs x blocks_per_sm CTAs.
// Buffers are passed as MLIR's memref descriptors (allocated and aligned
// pointer, offset, sizes, strides), index values as 64-bit integers.
//
// Built on a machine with the CUDA toolkit (scripts/gpu-run.sh):
//   g++ -O2 -o rake-launch rake-launch.cpp -I$CUDA/include -L$CUDA/lib64 -lcuda
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

[[noreturn]] void die(const std::string &msg) {
  std::fprintf(stderr, "rake-launch: %s\n", msg.c_str());
  std::exit(1);
}

void check(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return;
  const char *name = nullptr, *text = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &text);
  die(std::string(what) + ": " + (name ? name : "?") + " (" +
      (text ? text : "") + ")");
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep))
    out.push_back(item);
  return out;
}

std::vector<char> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    die("cannot read " + path);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

struct Buffer {
  size_t bytes = 0;
  std::vector<int64_t> shape, strides;
  std::string in, out;
  CUdeviceptr dev = 0;
  int64_t offset = 0;
};

} // namespace

int main(int argc, char **argv) {
  if (argc < 3)
    die("usage: rake-launch KERNEL.ptx|cubin NAME --block N "
        "[--blocks-per-sm K] ARG...");
  std::string kernelPath = argv[1], name = argv[2];
  int block = 0, blocksPerSm = 1;
  std::vector<std::string> args;
  for (int i = 3; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--block" && i + 1 < argc)
      block = std::atoi(argv[++i]);
    else if (a == "--blocks-per-sm" && i + 1 < argc)
      blocksPerSm = std::atoi(argv[++i]);
    else
      args.push_back(a);
  }
  if (block <= 0)
    die("give the block size with --block");

  check(cuInit(0), "cuInit");
  CUdevice device;
  check(cuDeviceGet(&device, 0), "cuDeviceGet");
  CUcontext ctx;
  check(cuDevicePrimaryCtxRetain(&ctx, device), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  int sms = 0;
  check(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                             device),
        "cuDeviceGetAttribute");

  std::vector<char> image = readFile(kernelPath);
  image.push_back('\0'); // PTX is loaded as a C string.
  CUmodule module;
  check(cuModuleLoadData(&module, image.data()), "cuModuleLoadData");
  CUfunction fn;
  check(cuModuleGetFunction(&fn, module, name.c_str()), "cuModuleGetFunction");

  // Parameters, flattened as MLIR lowers them.
  std::vector<std::unique_ptr<Buffer>> buffers;
  std::vector<std::unique_ptr<int64_t>> scalars;
  std::vector<void *> params;
  auto scalar = [&](int64_t v) {
    scalars.push_back(std::make_unique<int64_t>(v));
    params.push_back(scalars.back().get());
  };
  for (const std::string &a : args) {
    std::vector<std::string> f = split(a, ':');
    if (f.size() == 2 && f[0] == "i") {
      scalar(std::stoll(f[1]));
      continue;
    }
    if (f.size() != 5 || f[0] != "m")
      die("bad argument '" + a + "': expected i:VALUE or m:BYTES:SHAPE:IN:OUT");
    auto b = std::make_unique<Buffer>();
    size_t n = 1;
    for (const std::string &d : split(f[2], 'x')) {
      b->shape.push_back(std::stoll(d));
      n *= b->shape.back();
    }
    b->bytes = n * std::stoul(f[1]);
    b->strides.assign(b->shape.size(), 1);
    for (int i = static_cast<int>(b->shape.size()) - 2; i >= 0; --i)
      b->strides[i] = b->strides[i + 1] * b->shape[i + 1];
    b->in = f[3];
    b->out = f[4];
    check(cuMemAlloc(&b->dev, b->bytes ? b->bytes : 1), "cuMemAlloc");
    if (b->in != "-") {
      std::vector<char> data = readFile(b->in);
      if (data.size() != b->bytes)
        die(b->in + " holds " + std::to_string(data.size()) + " bytes, " +
            std::to_string(b->bytes) + " expected");
      check(cuMemcpyHtoD(b->dev, data.data(), b->bytes), "cuMemcpyHtoD");
    } else {
      check(cuMemsetD8(b->dev, 0, b->bytes), "cuMemsetD8");
    }
    params.push_back(&b->dev);
    params.push_back(&b->dev);
    params.push_back(&b->offset);
    for (int64_t d : b->shape)
      scalar(d);
    for (int64_t s : b->strides)
      scalar(s);
    buffers.push_back(std::move(b));
  }

  unsigned grid = static_cast<unsigned>(sms * blocksPerSm);
  CUevent start, stop;
  check(cuEventCreate(&start, 0), "cuEventCreate");
  check(cuEventCreate(&stop, 0), "cuEventCreate");
  check(cuEventRecord(start, nullptr), "cuEventRecord");
  check(cuLaunchKernel(fn, grid, 1, 1, static_cast<unsigned>(block), 1, 1, 0,
                       nullptr, params.data(), nullptr),
        "cuLaunchKernel");
  check(cuEventRecord(stop, nullptr), "cuEventRecord");
  check(cuCtxSynchronize(), "kernel run");
  float ms = 0;
  check(cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
  std::printf("@%s ran on %d SMs x %d CTAs of %d threads in %.3f ms\n",
              name.c_str(), sms, blocksPerSm, block, ms);

  for (auto &b : buffers) {
    if (b->out == "-")
      continue;
    std::vector<char> data(b->bytes);
    check(cuMemcpyDtoH(data.data(), b->dev, b->bytes), "cuMemcpyDtoH");
    std::ofstream out(b->out, std::ios::binary);
    if (!out)
      die("cannot write " + b->out);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
  }
  return 0;
}
