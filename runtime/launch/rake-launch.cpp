// rake-launch: run a kernel from a verified bundle (rake-bundle) on the GPU,
// through the C runtime (include/rake/runtime.h: the bundle checked as
// rake-verify checks it, only its verified cubin loaded, the launch checked
// against its ABI), and compare its outputs with the sequential meaning.
//
//   rake-launch BUNDLE NAME [--block N] [--blocks-per-sm K] [--smem BYTES]
//               [--cluster C] [--expect DIR [--rtol R] [--atol A]]
//               [--repeat N] ARG...
//
// The launch shape is the bundle's (rake_kernel_launch_shape); --block,
// --blocks-per-sm, --smem and --cluster, when given (rake-run
// --launch-args writes them), must equal it. A public key in
// $RAKE_PUBLIC_KEY makes the runtime load only bundles that key signed.
//
// Each ARG is one parameter of the GpuIR procedure, in order:
//   i:VALUE                         an index parameter
//   m:TYPE:D0xD1...:IN:OUT          a buffer of TYPE elements (f32, f64, f16,
//                                   bf16, i8, i16, i32, i64, index) and the
//                                   given shape, filled from file IN (raw,
//                                   row-major) and written to OUT after the
//                                   run (- for neither)
//   t:I:ROWSxCOLS:SWIZZLE           a CUtensorMap (after the procedure's
//                                   parameters, in the kernel's order) of
//                                   the buffer given as ARG number I (from
//                                   0), row-major, its box ROWS x COLS, its
//                                   swizzle 0, 32, 64 or 128 bytes; passed
//                                   as the address of a copy in global
//                                   memory
// The kernel is persistent: it is launched on SMs x blocks_per_sm CTAs
// (rounded down to whole clusters of C CTAs along x; the cluster is the
// kernel's own .reqnctapercluster), each with the bundle's dynamic shared
// memory (the kernel's rake.shared_bytes).
// Buffers are passed as MLIR's memref descriptors (allocated and aligned
// pointer, offset, sizes, strides), index values as 64-bit integers.
//
// With --expect DIR each output is compared with DIR/<basename of OUT>
// element by element: integers exactly, floating-point values within
// atol + rtol * |expected| (both 0 by default: the same bits, any NaN
// matching any NaN). The largest
// absolute and relative errors are reported; a mismatch exits with 3.
// With --repeat N the kernel runs N more times after the checked run and
// the mean time of those runs is reported (inputs are not restored: use it
// for kernels whose outputs do not feed their inputs).
//
// Built on a machine with the CUDA toolkit by scripts/build-launcher.sh
// (with the runtime's sources, -lcuda -lcrypto -ldl).
#include <cuda.h>

#include "rake/runtime.h"

#include <cmath>
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

/// An element type as rake-run names it.
struct ElementType {
  std::string name;
  size_t bytes;
  bool isFloat;
};

ElementType elementType(const std::string &name) {
  static const ElementType known[] = {
      {"f32", 4, true},  {"f64", 8, true},      {"f16", 2, true},
      {"bf16", 2, true}, {"f8E4M3FN", 1, true}, {"f8E5M2", 1, true},
      {"i8", 1, false},  {"i16", 2, false},     {"i32", 4, false},
      {"i64", 8, false}, {"index", 8, false}};
  for (const ElementType &t : known)
    if (t.name == name)
      return t;
  die("unknown element type '" + name + "'");
}

/// Element i of a raw buffer as a double (integers exactly up to 2^53).
double element(const ElementType &t, const char *data, size_t i) {
  const char *p = data + i * t.bytes;
  auto load = [&](auto v) {
    std::memcpy(&v, p, sizeof(v));
    return v;
  };
  if (t.name == "f32")
    return load(float());
  if (t.name == "f64")
    return load(double());
  if (t.name == "bf16") {
    uint32_t bits = static_cast<uint32_t>(load(uint16_t())) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  if (t.name == "f16") {
    uint16_t h = load(uint16_t());
    int exp = (h >> 10) & 31, man = h & 1023;
    double v = exp == 0    ? std::ldexp(man, -24)
               : exp == 31 ? (man ? NAN : INFINITY)
                           : std::ldexp(man + 1024, exp - 25);
    return (h & 0x8000) ? -v : v;
  }
  if (t.name == "f8E4M3FN" || t.name == "f8E5M2") {
    // OCP FP8: e4m3 (bias 7, S.1111.111 NaN, no infinities), e5m2 (bias
    // 15, IEEE-style infinities and NaNs).
    uint8_t x = load(uint8_t());
    bool e4m3 = t.name == "f8E4M3FN";
    int mbits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
    int e = (x & 0x7f) >> mbits, m = x & ((1 << mbits) - 1);
    double v = (e4m3 && e == 15 && m == 7) ? NAN
               : (!e4m3 && e == 31)        ? (m ? NAN : INFINITY)
               : e == 0                    ? std::ldexp(m, 1 - bias - mbits)
                        : std::ldexp((1 << mbits) + m, e - bias - mbits);
    return (x & 0x80) ? -v : v;
  }
  if (t.bytes == 1)
    return load(int8_t());
  if (t.bytes == 2)
    return load(int16_t());
  if (t.bytes == 4)
    return load(int32_t());
  return static_cast<double>(load(int64_t()));
}

struct Buffer {
  ElementType type;
  size_t bytes = 0;
  std::vector<int64_t> shape, strides;
  std::string in, out;
  CUdeviceptr dev = 0;
  int64_t offset = 0;
};

} // namespace

int main(int argc, char **argv) {
  if (argc < 3)
    die("usage: rake-launch BUNDLE NAME [--block N] [--blocks-per-sm K] "
        "[--smem BYTES] [--cluster C] ARG...");
  std::string bundlePath = argv[1], name = argv[2];
  int block = -1, blocksPerSm = -1, repeat = 0, smem = -1, cluster = -1;
  std::string expect;
  double rtol = 0, atol = 0;
  std::vector<std::string> args;
  for (int i = 3; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--block" && i + 1 < argc)
      block = std::atoi(argv[++i]);
    else if (a == "--blocks-per-sm" && i + 1 < argc)
      blocksPerSm = std::atoi(argv[++i]);
    else if (a == "--smem" && i + 1 < argc)
      smem = std::atoi(argv[++i]);
    else if (a == "--cluster" && i + 1 < argc)
      cluster = std::atoi(argv[++i]);
    else if (a == "--expect" && i + 1 < argc)
      expect = argv[++i];
    else if (a == "--rtol" && i + 1 < argc)
      rtol = std::atof(argv[++i]);
    else if (a == "--atol" && i + 1 < argc)
      atol = std::atof(argv[++i]);
    else if (a == "--repeat" && i + 1 < argc)
      repeat = std::atoi(argv[++i]);
    else
      args.push_back(a);
  }

  // The bundle, checked and opened by the runtime; its launch shape.
  rake_bundle *bundle = nullptr;
  rake_error err;
  if (rake_bundle_open(bundlePath.c_str(), &bundle, &err) != RAKE_OK)
    die("refused " + bundlePath + ": " + std::to_string(err.code) + ": " +
        err.message);
  std::printf("@%s: bundle %s: %s\n", name.c_str(), bundlePath.c_str(),
              rake_bundle_trust(bundle));
  rake_launch_shape shape;
  if (rake_kernel_launch_shape(bundle, name.c_str(), &shape, &err) != RAKE_OK)
    die(std::to_string(err.code) + ": " + err.message);
  auto agree = [&](const char *flag, int given, uint32_t recorded) {
    if (given >= 0 && uint32_t(given) != recorded)
      die(std::string(flag) + " " + std::to_string(given) +
          " differs from the bundle's launch shape (" +
          std::to_string(recorded) + ")");
  };
  agree("--block", block, shape.block[0]);
  agree("--blocks-per-sm", blocksPerSm, shape.blocks_per_sm);
  agree("--smem", smem, shape.dynamic_shared_bytes);
  agree("--cluster", cluster, shape.cluster);
  block = int(shape.block[0]);
  blocksPerSm = int(shape.blocks_per_sm);
  smem = int(shape.dynamic_shared_bytes);
  cluster = int(shape.cluster);

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

  rake_module *module = nullptr;
  if (rake_module_load(bundle, ctx, &module, &err) != RAKE_OK)
    die("cannot load " + bundlePath + ": " + std::to_string(err.code) + ": " +
        err.message);

  // Parameters, flattened as MLIR lowers them.
  std::vector<std::unique_ptr<Buffer>> buffers;
  std::vector<std::unique_ptr<int64_t>> scalars;
  std::vector<void *> params;
  auto scalar = [&](int64_t v) {
    scalars.push_back(std::make_unique<int64_t>(v));
    params.push_back(scalars.back().get());
  };
  // The buffer each ARG position names (null for index values).
  std::vector<Buffer *> byArg;
  std::vector<CUdeviceptr> tensorMaps;
  tensorMaps.reserve(args.size());
  for (const std::string &a : args) {
    std::vector<std::string> f = split(a, ':');
    if (f.size() == 2 && f[0] == "i") {
      scalar(std::stoll(f[1]));
      byArg.push_back(nullptr);
      continue;
    }
    if (f.size() == 4 && f[0] == "t") {
      size_t arg = std::stoul(f[1]);
      std::vector<std::string> box = split(f[2], 'x');
      if (arg >= byArg.size() || !byArg[arg] || byArg[arg]->shape.size() != 2 ||
          box.size() != 2)
        die("bad tensor map '" + a + "': ARG " + f[1] +
            " must be an earlier two-dimensional buffer, the box ROWSxCOLS");
      const Buffer &buf = *byArg[arg];
      // The map is the runtime's (rake_tensor_map_create): a launch takes
      // only a live map made for its parameter, over the buffer passed, and
      // the runtime checks the box and swizzle against the bundle's role.
      // The map's parameter is the kernel's next tensor-map parameter.
      uint32_t version = 0, bytes = 0, count = 0, slot = 0;
      if (rake_kernel_layout(bundle, name.c_str(), &version, &bytes, &count,
                             &err) != RAKE_OK)
        die("cannot read the parameter layout: " + std::string(err.message));
      size_t seen = 0;
      bool found = false;
      for (uint32_t j = 0; j < count && !found; ++j) {
        rake_param_info p;
        if (rake_kernel_param(bundle, name.c_str(), j, &p, &err) == RAKE_OK &&
            std::string(p.role).rfind("tensormap.", 0) == 0 &&
            seen++ == tensorMaps.size()) {
          slot = j;
          found = true;
          std::string want = "tensormap.arg" + f[1] + "." + f[2] +
                             ".swizzle" + f[3];
          if (want != p.role)
            die("tensor map '" + a + "' is not the kernel's parameter " +
                std::to_string(j) + ", " + p.role);
        }
      }
      if (!found)
        die("tensor map '" + a + "': the kernel has no more tensor-map "
            "parameters");
      CUdeviceptr dev = 0;
      uint64_t address = 0;
      if (rake_tensor_map_create(
              module, name.c_str(), slot, uint64_t(buf.dev),
              uint64_t(buf.shape[0]), uint64_t(buf.shape[1]),
              uint64_t(buf.shape[1]) * buf.type.bytes, &address,
              &err) != RAKE_OK)
        die("tensor map '" + a + "': " + std::to_string(err.code) + ": " +
            err.message);
      dev = CUdeviceptr(address);
      tensorMaps.push_back(dev);
      params.push_back(&tensorMaps.back());
      continue;
    }
    if (f.size() != 5 || f[0] != "m")
      die("bad argument '" + a +
          "': expected i:VALUE, m:TYPE:SHAPE:IN:OUT or t:I:BOX:SWIZZLE");
    auto b = std::make_unique<Buffer>();
    b->type = elementType(f[1]);
    size_t n = 1;
    for (const std::string &d : split(f[2], 'x')) {
      b->shape.push_back(std::stoll(d));
      n *= b->shape.back();
    }
    b->bytes = n * b->type.bytes;
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
    byArg.push_back(b.get());
    buffers.push_back(std::move(b));
  }

  if (cluster < 1)
    die("the cluster size must be positive");
  // The runtime's grid: every SM's CTAs, in whole clusters, no more
  // clusters than can be resident at once (a persistent kernel).
  rake_launch_config planned{};
  if (rake_kernel_launch_config(module, name.c_str(), &planned, &err) !=
      RAKE_OK)
    die("no launch configuration: " + std::to_string(err.code) + ": " +
        err.message);
  unsigned grid = planned.grid[0];
  CUevent start, stop;
  check(cuEventCreate(&start, 0), "cuEventCreate");
  check(cuEventCreate(&stop, 0), "cuEventCreate");
  // Each argument as rake-launch built it (8 bytes, 8-aligned: pointers and
  // 64-bit integers); the runtime checks their number, sizes and alignments
  // against the bundle's ABI, and the launch against its shape.
  std::vector<rake_arg> rargs;
  for (void *p : params)
    rargs.push_back({p, 8, 8});
  rake_launch_config config = {{grid, 1, 1},
                               {shape.block[0], shape.block[1], shape.block[2]},
                               shape.dynamic_shared_bytes};
  auto launch = [&] {
    if (rake_launch_args(module, name.c_str(), &config, nullptr,
                         uint32_t(rargs.size()), rargs.data(),
                         &err) != RAKE_OK)
      die("launch refused: " + std::to_string(err.code) + ": " + err.message);
  };
  check(cuEventRecord(start, nullptr), "cuEventRecord");
  launch();
  check(cuEventRecord(stop, nullptr), "cuEventRecord");
  check(cuCtxSynchronize(), "kernel run");
  float ms = 0;
  check(cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
  std::printf("@%s ran on %u CTAs (%d SMs x %d, clusters of %d) of %d "
              "threads (%d bytes of shared memory) in %.3f ms\n",
              name.c_str(), grid, sms, blocksPerSm, cluster, block, smem, ms);

  int status = 0;
  for (auto &b : buffers) {
    if (b->out == "-")
      continue;
    std::vector<char> data(b->bytes);
    check(cuMemcpyDtoH(data.data(), b->dev, b->bytes), "cuMemcpyDtoH");
    std::ofstream out(b->out, std::ios::binary);
    if (!out)
      die("cannot write " + b->out);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (expect.empty())
      continue;
    std::string base = b->out.substr(b->out.find_last_of('/') + 1);
    std::vector<char> want = readFile(expect + "/" + base);
    if (want.size() != data.size())
      die(expect + "/" + base + " has " + std::to_string(want.size()) +
          " bytes, the output " + std::to_string(data.size()));
    size_t n = data.size() / b->type.bytes, bad = 0, first = 0;
    double maxAbs = 0, maxRel = 0;
    for (size_t i = 0; i < n; ++i) {
      double got = element(b->type, data.data(), i);
      double ref = element(b->type, want.data(), i);
      double err = got == ref ? 0 : std::fabs(got - ref);
      // Without a tolerance, the same bits (so -0 is not 0, and infinities
      // compare equal), or both NaN: IEEE 754 leaves the sign and payload
      // of a NaN an operation makes to the machine (x86 makes -nan, the
      // GPU +nan); with one, equal values (infinities too), both NaN, or
      // within the bound.
      bool exact = !std::memcmp(data.data() + i * b->type.bytes,
                                want.data() + i * b->type.bytes,
                                b->type.bytes) ||
                   (b->type.isFloat && std::isnan(got) && std::isnan(ref));
      bool ok = !b->type.isFloat || (atol == 0 && rtol == 0)
                    ? exact
                    : (got == ref || err <= atol + rtol * std::fabs(ref) ||
                       (std::isnan(got) && std::isnan(ref)));
      if (!ok && bad++ == 0)
        first = i;
      if (std::isfinite(err)) {
        maxAbs = std::max(maxAbs, err);
        if (ref != 0)
          maxRel = std::max(maxRel, err / std::fabs(ref));
      }
    }
    if (bad) {
      std::printf("%s: %s: %zu of %zu elements differ from the sequential "
                  "meaning (first at %zu: %.9g, expected %.9g); largest "
                  "error %.3g (relative %.3g)\n",
                  name.c_str(), base.c_str(), bad, n, first,
                  element(b->type, data.data(), first),
                  element(b->type, want.data(), first), maxAbs, maxRel);
      status = 3;
    } else if (maxAbs == 0) {
      std::printf("%s: %s equals the sequential meaning (%zu elements)\n",
                  name.c_str(), base.c_str(), n);
    } else {
      std::printf("%s: %s matches the sequential meaning within rtol %g atol "
                  "%g (%zu elements; largest error %.3g, relative %.3g)\n",
                  name.c_str(), base.c_str(), rtol, atol, n, maxAbs, maxRel);
    }
  }

  if (repeat > 0) {
    check(cuEventRecord(start, nullptr), "cuEventRecord");
    for (int i = 0; i < repeat; ++i)
      launch();
    check(cuEventRecord(stop, nullptr), "cuEventRecord");
    check(cuCtxSynchronize(), "kernel runs");
    check(cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
    std::printf("@%s mean time over %d runs: %.4f ms\n", name.c_str(), repeat,
                ms / repeat);
  }
  return status;
}
