//===- rake-example-ref.cpp - hand-written references for the examples ----===//
//
// Checks the buffers a run of an example wrote (rake-run --output-dir, or a
// GPU run) against what the example computes, written here directly in C++
// without GpuIR: an independent check of the sequential meaning.
//
//   rake-example-ref reverse_tiles A.bin B.bin [TILE]    B: A's tiles reversed
//   rake-example-ref warp_sums X.bin S.bin               S[r,w] = 2 sum
//   X[r,32w..] rake-example-ref vector_add A.bin B.bin C.bin        C = A + B
//   (f32) rake-example-ref transpose X.bin Y.bin R C           Y[c,r] = X[r,c]
//   rake-example-ref block_sums X.bin S.bin              S[r] = sum X[r,:1024]
//   rake-example-ref gemm A.bin B.bin C.bin M N K        C = A B (bf16 -> f32)
//   rake-example-ref gemm_nt A.bin Bt.bin C.bin M N K    C = A Bt^T (Bt is N x
//   K) rake-example-ref gemm_nt_bf16 A.bin Bt.bin C.bin M N K  the same, C in
//   bf16
//                                                          (the f32 sum
//                                                          rounded)
//   rake-example-ref gemm_nt_tf32 A.bin Bt.bin C.bin M N K  C = A Bt^T of f32
//   inputs as
//                                                          tf32 (13 low
//                                                          significand bits
//                                                          dropped), f32 out
//   rake-example-ref gemm_nt_f32 A.bin Bt.bin C.bin M N K   the same of the
//   full f32 inputs rake-example-ref gemm_nt_8bit AF BF A.bin Bt.bin C.bin M N
//   K
//                                    C = A Bt^T of 8-bit inputs, AF and BF each
//                                    e4m3 or e5m2 (f32 out) or s8 or u8 (i32
//                                    out, exact modulo 2^32)
//   rake-example-ref mirror_products X.bin Y.bin         Y[r,j] = X[r,j]
//   X[r,1023-j] rake-example-ref ring_sums X.bin Y.bin K             Y[r,j] =
//   sum_k X[r,k,j] (f32, k in order) rake-example-ref cluster_exchange X.bin
//   Y.bin Z.bin  Y = 2 X, Z[t,c] = Y[t,1-c] + 1
//
// Prints "<example>: N ... match" and exits 0, or names the first mismatch
// and exits 1. Floating-point sums are compared with error bounds derived
// from the number of terms (the reference sums in double).
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const std::string &msg) {
  std::fprintf(stderr, "rake-example-ref: %s\n", msg.c_str());
  std::exit(2);
}

template <typename T>
std::vector<T> load(const char *path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    fail(std::string("cannot read ") + path);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  if (bytes.size() % sizeof(T))
    fail(std::string(path) + " does not hold whole elements");
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

float bf16ToFloat(uint16_t h) {
  uint32_t bits = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

int64_t number(const char *s) {
  char *end;
  long long v = std::strtoll(s, &end, 10);
  if (*end || v <= 0)
    fail(std::string("expected a positive number, found '") + s + "'");
  return v;
}

int report(const char *example, size_t bad, size_t total, const char *what,
           const std::string &first, const std::string &suffix = "") {
  if (bad) {
    std::printf("%s: mismatch at %zu of %zu %s, first %s\n", example, bad,
                total, what, first.c_str());
    return 1;
  }
  std::printf("%s: %zu %s match%s\n", example, total, what, suffix.c_str());
  return 0;
}

int reverseTiles(int argc, char **argv) {
  if (argc < 2)
    fail("usage: reverse_tiles A.bin B.bin [TILE]");
  std::vector<float> a = load<float>(argv[0]), b = load<float>(argv[1]);
  size_t tile = argc > 2 ? number(argv[2]) : 256;
  if (a.size() != b.size() || a.size() % tile)
    fail("A and B must hold the same whole number of tiles");
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&b[i], &a[(i / tile) * tile + tile - 1 - i % tile], 4) &&
        bad++ == 0)
      first = i;
  return report("reverse_tiles", bad, a.size(), "elements",
                "at " + std::to_string(first),
                " (tiles of " + std::to_string(tile) + ")");
}

int warpSums(int argc, char **argv) {
  if (argc != 2)
    fail("usage: warp_sums X.bin S.bin");
  std::vector<int32_t> x = load<int32_t>(argv[0]), s = load<int32_t>(argv[1]);
  size_t rows = x.size() / 128;
  if (x.size() != rows * 128 || s.size() != rows * 4)
    fail("X must be rows x 128 and S rows x 4");
  size_t bad = 0;
  std::string first;
  for (size_t r = 0; r < rows; ++r)
    for (size_t w = 0; w < 4; ++w) {
      uint32_t sum = 0; // 32-bit wrap-around, as the kernel's i32 adds
      for (size_t l = 0; l < 32; ++l)
        sum += 2u * static_cast<uint32_t>(x[r * 128 + w * 32 + l]);
      if (static_cast<int32_t>(sum) != s[r * 4 + w] && bad++ == 0)
        first = "at row " + std::to_string(r) + " warp " + std::to_string(w);
    }
  return report("warp_sums", bad, rows * 4, "sums", first);
}

int vectorAdd(int argc, char **argv) {
  if (argc != 3)
    fail("usage: vector_add A.bin B.bin C.bin");
  std::vector<float> a = load<float>(argv[0]), b = load<float>(argv[1]),
                     c = load<float>(argv[2]);
  if (a.size() != b.size() || a.size() != c.size())
    fail("A, B and C must have the same size");
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    // A double sum of two floats rounded once to float is the float sum.
    float want = static_cast<float>(static_cast<double>(a[i]) + b[i]);
    if (std::memcmp(&want, &c[i], 4) && bad++ == 0)
      first = i;
  }
  return report("vector_add", bad, c.size(), "elements",
                "at " + std::to_string(first));
}

int transpose(int argc, char **argv) {
  if (argc != 4)
    fail("usage: transpose X.bin Y.bin R C");
  std::vector<float> x = load<float>(argv[0]), y = load<float>(argv[1]);
  size_t rows = number(argv[2]), cols = number(argv[3]);
  if (x.size() != rows * cols || y.size() != rows * cols)
    fail("X and Y must hold R x C elements");
  size_t bad = 0;
  std::string first;
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c)
      if (std::memcmp(&y[c * rows + r], &x[r * cols + c], 4) && bad++ == 0)
        first = "at X[" + std::to_string(r) + "][" + std::to_string(c) + "]";
  return report("transpose", bad, rows * cols, "elements", first);
}

/// A float sum of n terms differs from the exact sum by at most about
/// n * 2^-24 * sum |terms| (any order of additions).
bool closeSum(double got, double exact, double absSum, size_t n) {
  return std::fabs(got - exact) <= (n + 1) * std::ldexp(1.0, -24) * absSum +
                                       1e-30;
}

int blockSums(int argc, char **argv) {
  if (argc != 2)
    fail("usage: block_sums X.bin S.bin");
  std::vector<float> x = load<float>(argv[0]), s = load<float>(argv[1]);
  size_t rows = s.size();
  if (x.size() != rows * 1024)
    fail("X must be rows x 1024 and S rows");
  size_t bad = 0;
  std::string first;
  for (size_t r = 0; r < rows; ++r) {
    double exact = 0, absSum = 0;
    for (size_t i = 0; i < 1024; ++i) {
      exact += x[r * 1024 + i];
      absSum += std::fabs(x[r * 1024 + i]);
    }
    if (!closeSum(s[r], exact, absSum, 1024) && bad++ == 0)
      first = "at row " + std::to_string(r) + ": " + std::to_string(s[r]) +
              ", expected " + std::to_string(exact);
  }
  return report("block_sums", bad, rows, "sums", first);
}

/// Compares C with the product of A and B (B transposed: N x K) held as
/// floats whose products are exact in double, within the error of f32 sums
/// (and, for a bf16 C, of its rounding).
int checkProduct(const char *name, const std::vector<float> &af,
                 const std::vector<float> &bf, const std::vector<float> &c,
                 size_t m, size_t n, size_t k, bool transposedB,
                 bool bf16Out) {
  size_t bad = 0;
  std::string first;
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      // Products of bf16, tf32 or f32 values are exact in double.
      double exact = 0, absSum = 0;
      for (size_t p = 0; p < k; ++p) {
        double prod = static_cast<double>(af[i * k + p]) *
                      (transposedB ? bf[j * k + p] : bf[p * n + j]);
        exact += prod;
        absSum += std::fabs(prod);
      }
      // A bf16 result is the f32 sum rounded to nearest: within half a
      // bf16 ulp (2^-8 relative) more.
      double bound = (k + 1) * std::ldexp(1.0, -24) * absSum + 1e-30;
      if (bf16Out)
        bound += std::ldexp(1.0, -8) * (std::fabs(exact) + bound);
      // A NaN or infinity in C is a mismatch too.
      if (!(std::fabs(c[i * n + j] - exact) <= bound) && bad++ == 0)
        first = "at C[" + std::to_string(i) + "][" + std::to_string(j) +
                "]: " + std::to_string(c[i * n + j]) + ", expected " +
                std::to_string(exact);
    }
  return report(name, bad, m * n, "elements", first);
}

/// C = A Bt^T of f32 inputs, read as tf32 (as the tensor cores read them:
/// the 13 low significand bits dropped) or in full.
int gemmF32(int argc, char **argv, bool asTf32) {
  const char *name = asTf32 ? "gemm_nt_tf32" : "gemm_nt_f32";
  if (argc != 6)
    fail(std::string("usage: ") + name + " A.bin Bt.bin C.bin M N K");
  std::vector<float> a = load<float>(argv[0]), b = load<float>(argv[1]),
                     c = load<float>(argv[2]);
  size_t m = number(argv[3]), n = number(argv[4]), k = number(argv[5]);
  if (a.size() != m * k || b.size() != n * k || c.size() != m * n)
    fail("A must be M x K, Bt N x K and C M x N");
  if (asTf32)
    for (std::vector<float> *v : {&a, &b})
      for (float &x : *v) {
        uint32_t bits;
        std::memcpy(&bits, &x, 4);
        bits &= 0xffffe000u;
        std::memcpy(&x, &bits, 4);
      }
  return checkProduct(name, a, b, c, m, n, k, /*transposedB=*/true,
                      /*bf16Out=*/false);
}

int gemm(int argc, char **argv, bool transposedB, bool bf16Out = false) {
  const char *name = bf16Out ? "gemm_nt_bf16" : transposedB ? "gemm_nt" : "gemm";
  if (argc != 6)
    fail(std::string("usage: ") + name +
         (transposedB ? " A.bin Bt.bin C.bin M N K" : " A.bin B.bin C.bin M N K"));
  std::vector<uint16_t> a = load<uint16_t>(argv[0]), b = load<uint16_t>(argv[1]);
  std::vector<float> c;
  if (bf16Out)
    for (uint16_t v : load<uint16_t>(argv[2]))
      c.push_back(bf16ToFloat(v));
  else
    c = load<float>(argv[2]);
  size_t m = number(argv[3]), n = number(argv[4]), k = number(argv[5]);
  if (a.size() != m * k || b.size() != k * n || c.size() != m * n)
    fail("A must be M x K, B K x N and C M x N");
  std::vector<float> af(a.size()), bf(b.size());
  for (size_t i = 0; i < a.size(); ++i)
    af[i] = bf16ToFloat(a[i]);
  for (size_t i = 0; i < b.size(); ++i)
    bf[i] = bf16ToFloat(b[i]);
  return checkProduct(name, af, bf, c, m, n, k, transposedB, bf16Out);
}

/// The value of an OCP FP8 byte: e4m3 (bias 7, no infinities, S.1111.111
/// is NaN) or e5m2 (bias 15, IEEE-style infinities and NaNs).
double decodeFp8(uint8_t x, bool e4m3) {
  int mbits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  int e = (x & 0x7f) >> mbits, m = x & ((1 << mbits) - 1);
  double sign = (x & 0x80) ? -1.0 : 1.0;
  if (e4m3 && e == 15 && m == 7)
    return NAN;
  if (!e4m3 && e == 31)
    return m ? NAN : sign * INFINITY;
  if (e == 0)
    return sign * std::ldexp(m, 1 - bias - mbits);
  return sign * std::ldexp((1 << mbits) + m, e - bias - mbits);
}

/// C = A Bt^T of 8-bit inputs: e4m3 / e5m2 in either pairing into f32, or
/// s8 / u8 into i32 with every product and sum exact modulo 2^32.
int gemm8bit(int argc, char **argv) {
  const char *name = "gemm_nt_8bit";
  if (argc != 8)
    fail("usage: gemm_nt_8bit AF BF A.bin Bt.bin C.bin M N K (AF, BF: e4m3, "
         "e5m2, s8 or u8)");
  std::string af = argv[0], bf = argv[1];
  auto isFloat = [](const std::string &f) {
    return f == "e4m3" || f == "e5m2";
  };
  auto isInt = [](const std::string &f) { return f == "s8" || f == "u8"; };
  if (!(isFloat(af) && isFloat(bf)) && !(isInt(af) && isInt(bf)))
    fail("AF and BF must both be e4m3 or e5m2, or both s8 or u8");
  std::vector<uint8_t> a = load<uint8_t>(argv[2]), b = load<uint8_t>(argv[3]);
  size_t m = number(argv[5]), n = number(argv[6]), k = number(argv[7]);
  if (a.size() != m * k || b.size() != n * k)
    fail("A must be M x K and Bt N x K");
  if (isFloat(af)) {
    std::vector<float> c = load<float>(argv[4]), x(a.size()), y(b.size());
    if (c.size() != m * n)
      fail("C must be M x N");
    for (size_t i = 0; i < a.size(); ++i)
      x[i] = static_cast<float>(decodeFp8(a[i], af == "e4m3"));
    for (size_t i = 0; i < b.size(); ++i)
      y[i] = static_cast<float>(decodeFp8(b[i], bf == "e4m3"));
    return checkProduct(name, x, y, c, m, n, k, /*transposedB=*/true,
                        /*bf16Out=*/false);
  }
  std::vector<int32_t> c = load<int32_t>(argv[4]);
  if (c.size() != m * n)
    fail("C must be M x N");
  auto value = [](uint8_t v, bool isUnsigned) -> int64_t {
    return isUnsigned ? v : static_cast<int8_t>(v);
  };
  size_t bad = 0;
  std::string first;
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      uint64_t sum = 0;
      for (size_t p = 0; p < k; ++p)
        sum += static_cast<uint64_t>(value(a[i * k + p], af == "u8") *
                                     value(b[j * k + p], bf == "u8"));
      int32_t expected = static_cast<int32_t>(static_cast<uint32_t>(sum));
      if (c[i * n + j] != expected && bad++ == 0)
        first = "at C[" + std::to_string(i) + "][" + std::to_string(j) +
                "]: " + std::to_string(c[i * n + j]) + ", expected " +
                std::to_string(expected);
    }
  return report(name, bad, m * n, "elements", first);
}

int mirrorProducts(int argc, char **argv) {
  if (argc != 2)
    fail("usage: mirror_products X.bin Y.bin");
  std::vector<float> x = load<float>(argv[0]), y = load<float>(argv[1]);
  if (x.size() != y.size() || x.size() % 1024)
    fail("X and Y must both be rows x 1024");
  size_t bad = 0;
  std::string first;
  for (size_t r = 0; r < x.size() / 1024; ++r)
    for (size_t j = 0; j < 1024; ++j) {
      // One rounding of the exact product: the double product of two floats
      // is exact, so rounding it to float is the float product.
      float want = static_cast<float>(static_cast<double>(x[r * 1024 + j]) *
                                      x[r * 1024 + 1023 - j]);
      if (std::memcmp(&want, &y[r * 1024 + j], 4) && bad++ == 0)
        first = "at Y[" + std::to_string(r) + "][" + std::to_string(j) + "]";
    }
  return report("mirror_products", bad, x.size(), "elements", first);
}

int ringSums(int argc, char **argv) {
  if (argc != 3)
    fail("usage: ring_sums X.bin Y.bin K");
  std::vector<float> x = load<float>(argv[0]), y = load<float>(argv[1]);
  size_t k = number(argv[2]);
  size_t rows = y.size() / 1024;
  if (y.size() != rows * 1024 || x.size() != rows * k * 1024)
    fail("X must be rows x K x 1024 and Y rows x 1024");
  size_t bad = 0;
  std::string first;
  for (size_t r = 0; r < rows; ++r)
    for (size_t j = 0; j < 1024; ++j) {
      // The example adds in order of k in f32: so does the reference.
      float sum = 0;
      for (size_t p = 0; p < k; ++p)
        sum += x[(r * k + p) * 1024 + j];
      if (std::memcmp(&sum, &y[r * 1024 + j], 4) && bad++ == 0)
        first = "at Y[" + std::to_string(r) + "][" + std::to_string(j) + "]";
    }
  return report("ring_sums", bad, y.size(), "sums", first);
}

int clusterExchange(int argc, char **argv) {
  if (argc != 3)
    fail("usage: cluster_exchange X.bin Y.bin Z.bin");
  std::vector<float> x = load<float>(argv[0]), y = load<float>(argv[1]),
                     z = load<float>(argv[2]);
  if (x.size() % 256 || y.size() != x.size() || z.size() != x.size())
    fail("X, Y and Z must all be tasks x 2 x 128");
  size_t bad = 0;
  std::string first;
  for (size_t t = 0; t < x.size() / 256; ++t)
    for (size_t c = 0; c < 2; ++c)
      for (size_t i = 0; i < 128; ++i) {
        float twice = 2.0f * x[t * 256 + (1 - c) * 128 + i];
        float want[2] = {2.0f * x[t * 256 + c * 128 + i], twice + 1.0f};
        const float got[2] = {y[t * 256 + c * 128 + i], z[t * 256 + c * 128 + i]};
        if ((std::memcmp(&want[0], &got[0], 4) ||
             std::memcmp(&want[1], &got[1], 4)) &&
            bad++ == 0)
          first = "at task " + std::to_string(t) + " CTA " + std::to_string(c) +
                  " element " + std::to_string(i);
      }
  return report("cluster_exchange", bad, x.size(), "elements", first);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    fail("usage: rake-example-ref EXAMPLE FILES... (see the source)");
  std::string example = argv[1];
  int rest = argc - 2;
  char **args = argv + 2;
  if (example == "reverse_tiles")
    return reverseTiles(rest, args);
  if (example == "warp_sums")
    return warpSums(rest, args);
  if (example == "vector_add")
    return vectorAdd(rest, args);
  if (example == "transpose")
    return transpose(rest, args);
  if (example == "block_sums")
    return blockSums(rest, args);
  if (example == "gemm")
    return gemm(rest, args, false);
  if (example == "gemm_nt_bf16")
    return gemm(argc - 2, argv + 2, /*transposedB=*/true, /*bf16Out=*/true);
  if (example == "gemm_nt")
    return gemm(rest, args, true);
  if (example == "gemm_nt_tf32")
    return gemmF32(rest, args, true);
  if (example == "gemm_nt_f32")
    return gemmF32(rest, args, false);
  if (example == "gemm_nt_8bit")
    return gemm8bit(rest, args);
  if (example == "mirror_products")
    return mirrorProducts(rest, args);
  if (example == "ring_sums")
    return ringSums(rest, args);
  if (example == "cluster_exchange")
    return clusterExchange(rest, args);
  fail("unknown example '" + example + "'");
}
