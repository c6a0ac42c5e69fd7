#!/usr/bin/env bash
# Records the disassembly evidence of cubins on the GPU machine (which has
# nvdisasm and cuobjdump): for each cubins/NAME.cubin beside this script's
# working directory, writes under ${OUT:-.}/rec/
#   disasm/<sha256>.json   nvdisasm -json NAME.cubin (what rake-verify reads)
#   elf/NAME.elf.txt       cuobjdump -elf NAME.cubin (to check the .nv.info reader)
#   sass/NAME.sass         cuobjdump -sass NAME.cubin (for people)
#   index.txt              "sha256 NAME" per cubin and the tools' versions
# and packs them as ${OUT:-.}/rec.tgz. Copy disasm/*.json to
# test/Verifier/Inputs/disasm and add each to the README's table.
set -euo pipefail
cuda=${CUDA_HOME:-/usr/local/cuda}
out=${OUT:-.}/rec
mkdir -p "$out/disasm" "$out/elf" "$out/sass"
{
  "$cuda/bin/nvdisasm" --version | tail -n 1
  echo "nvdisasm sha256 $(sha256sum "$cuda/bin/nvdisasm" | cut -d' ' -f1)"
} > "$out/index.txt"
for cubin in cubins/*.cubin; do
  name=$(basename "$cubin" .cubin)
  sha=$(sha256sum "$cubin" | cut -d' ' -f1)
  "$cuda/bin/nvdisasm" -json "$cubin" > "$out/disasm/$sha.json" 2> "$out/disasm/$sha.err"
  "$cuda/bin/cuobjdump" -elf "$cubin" > "$out/elf/$name.elf.txt"
  "$cuda/bin/cuobjdump" -sass "$cubin" > "$out/sass/$name.sass"
  echo "$sha $name" >> "$out/index.txt"
done
tar czf "${OUT:-.}/rec.tgz" -C "$(dirname "$out")" rec
