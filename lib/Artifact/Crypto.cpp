//===- Crypto.cpp - SHA-256 and Ed25519 through OpenSSL -------------------===//

#include "Rake/Artifact/Crypto.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <memory>

using namespace rake;

namespace {

struct KeyFree {
  void operator()(EVP_PKEY *k) const { EVP_PKEY_free(k); }
};
struct BioFree {
  void operator()(BIO *b) const { BIO_free(b); }
};
struct MdFree {
  void operator()(EVP_MD_CTX *c) const { EVP_MD_CTX_free(c); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;

std::string hex(const unsigned char *p, size_t n) {
  static const char *digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s.push_back(digits[p[i] >> 4]);
    s.push_back(digits[p[i] & 15]);
  }
  return s;
}

bool unhex(const std::string &s, std::string &out) {
  if (s.size() % 2)
    return false;
  out.clear();
  for (size_t i = 0; i < s.size(); i += 2) {
    int v = 0;
    for (int k = 0; k < 2; ++k) {
      char c = s[i + k];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= c - '0';
      else if (c >= 'a' && c <= 'f')
        v |= c - 'a' + 10;
      else
        return false;
    }
    out.push_back(char(v));
  }
  return true;
}

std::string sslError() {
  unsigned long e = ERR_get_error();
  char buf[256];
  ERR_error_string_n(e, buf, sizeof(buf));
  ERR_clear_error();
  return e ? buf : "unknown OpenSSL error";
}

Key readKey(const std::string &pem, bool priv, std::string &error) {
  std::unique_ptr<BIO, BioFree> bio(BIO_new_mem_buf(pem.data(), int(pem.size())));
  EVP_PKEY *k = priv ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr)
                     : PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr);
  if (!k) {
    error = std::string("not a PEM ") + (priv ? "private" : "public") +
            " key: " + sslError();
    return nullptr;
  }
  if (EVP_PKEY_get_id(k) != EVP_PKEY_ED25519) {
    EVP_PKEY_free(k);
    error = std::string("the ") + (priv ? "private" : "public") +
            " key is not an Ed25519 key";
    return nullptr;
  }
  return Key(k);
}

std::string pemOf(EVP_PKEY *k, bool priv) {
  std::unique_ptr<BIO, BioFree> bio(BIO_new(BIO_s_mem()));
  int ok = priv ? PEM_write_bio_PrivateKey(bio.get(), k, nullptr, nullptr, 0,
                                           nullptr, nullptr)
                : PEM_write_bio_PUBKEY(bio.get(), k);
  if (!ok)
    return "";
  char *data = nullptr;
  long n = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, size_t(n));
}

} // namespace

std::string crypto::sha256Hex(const std::string &bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(bytes.data(), bytes.size(), md, &n, EVP_sha256(), nullptr);
  return hex(md, n);
}

bool crypto::generateKey(std::string &privatePem, std::string &publicPem,
                         std::string &error) {
  EVP_PKEY *raw = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
  if (!raw) {
    error = "cannot make an Ed25519 key: " + sslError();
    return false;
  }
  Key k(raw);
  privatePem = pemOf(k.get(), true);
  publicPem = pemOf(k.get(), false);
  if (privatePem.empty() || publicPem.empty()) {
    error = "cannot write the key as PEM: " + sslError();
    return false;
  }
  return true;
}

bool crypto::publicOf(const std::string &privatePem, std::string &publicPem,
                      std::string &error) {
  Key k = readKey(privatePem, true, error);
  if (!k)
    return false;
  publicPem = pemOf(k.get(), false);
  return !publicPem.empty();
}

bool crypto::sign(const std::string &privatePem, const std::string &message,
                  std::string &signatureHex, std::string &error) {
  Key k = readKey(privatePem, true, error);
  if (!k)
    return false;
  std::unique_ptr<EVP_MD_CTX, MdFree> ctx(EVP_MD_CTX_new());
  unsigned char sig[64];
  size_t n = sizeof(sig);
  if (EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, k.get()) != 1 ||
      EVP_DigestSign(ctx.get(), sig, &n,
                     reinterpret_cast<const unsigned char *>(message.data()),
                     message.size()) != 1) {
    error = "signing failed: " + sslError();
    return false;
  }
  signatureHex = hex(sig, n);
  return true;
}

bool crypto::verify(const std::string &publicPem, const std::string &message,
                    const std::string &signatureHex, std::string &error) {
  error.clear();
  Key k = readKey(publicPem, false, error);
  if (!k)
    return false;
  std::string sig;
  if (signatureHex.size() != 128 || !unhex(signatureHex, sig))
    return false;
  std::unique_ptr<EVP_MD_CTX, MdFree> ctx(EVP_MD_CTX_new());
  if (EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, k.get()) != 1) {
    error = "cannot verify with the key: " + sslError();
    return false;
  }
  int r = EVP_DigestVerify(
      ctx.get(), reinterpret_cast<const unsigned char *>(sig.data()), sig.size(),
      reinterpret_cast<const unsigned char *>(message.data()), message.size());
  ERR_clear_error();
  return r == 1;
}

std::string crypto::fingerprint(const std::string &publicPem) {
  std::string error;
  Key k = readKey(publicPem, false, error);
  if (!k)
    return "";
  unsigned char raw[32];
  size_t n = sizeof(raw);
  if (EVP_PKEY_get_raw_public_key(k.get(), raw, &n) != 1)
    return "";
  return sha256Hex(std::string(reinterpret_cast<char *>(raw), n));
}
