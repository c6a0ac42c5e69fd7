//===- Crypto.h - Hashes and signatures of the artifact boundary -*- C++ -*-===//
//
// SHA-256 and Ed25519 through OpenSSL's libcrypto (EVP), not hand-written
// cryptography. Keys are PEM files as `openssl genpkey -algorithm ed25519`
// writes them (private: PKCS#8; public: SubjectPublicKeyInfo).
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_ARTIFACT_CRYPTO_H
#define RAKE_ARTIFACT_CRYPTO_H

#include <string>

namespace rake {
namespace crypto {

/// The SHA-256 of \p bytes as 64 lower-case hexadecimal digits.
std::string sha256Hex(const std::string &bytes);

/// Makes an Ed25519 key pair: the private key's PEM and the public key's.
bool generateKey(std::string &privatePem, std::string &publicPem,
                 std::string &error);

/// Signs \p message with the private key in \p privatePem; the signature is
/// 128 hexadecimal digits.
bool sign(const std::string &privatePem, const std::string &message,
          std::string &signatureHex, std::string &error);

/// Whether \p signatureHex is the Ed25519 signature of \p message by the
/// public key in \p publicPem. False with \p error when the key cannot be
/// read; false with an empty error when the signature does not match.
bool verify(const std::string &publicPem, const std::string &message,
            const std::string &signatureHex, std::string &error);

/// The public key's fingerprint: the SHA-256 of its raw 32 bytes, in hex,
/// or "" when \p publicPem is not an Ed25519 public key.
std::string fingerprint(const std::string &publicPem);

/// The public key's PEM for a private key's PEM.
bool publicOf(const std::string &privatePem, std::string &publicPem,
              std::string &error);

} // namespace crypto
} // namespace rake

#endif // RAKE_ARTIFACT_CRYPTO_H
