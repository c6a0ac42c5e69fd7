#!/bin/sh
# A stand-in for nvdisasm (rake-verify --nvdisasm=THIS) that attacks the
# bundle under verification while rake-verify waits for it: it refuses to
# disassemble a file inside the bundle (rake-verify must give it a private
# copy of the bytes it hashed), then puts a forged manifest, seal and cubin
# ($SWAP_FROM) in place of the bundle's ($SWAP_BUNDLE), and answers with the
# trusted recording ($SWAP_STORE/<sha256>.json) of the bytes it was given.
# A signer that signed the manifest file as it is after this point would
# sign the forgery.
[ "$1" = --version ] && { echo "swap-nvdisasm (test stand-in)"; exit 0; }
file=$2
case "$(cd "$(dirname "$file")" && pwd)" in
  "$(cd "$SWAP_BUNDLE" && pwd)") echo "given the bundle's own file: $file" >&2; exit 3 ;;
esac
cp "$SWAP_FROM/manifest.json" "$SWAP_FROM/manifest.sha256" "$SWAP_FROM/kernel.cubin" "$SWAP_BUNDLE/"
cat "$SWAP_STORE/$(sha256sum "$file" | cut -d' ' -f1).json"
