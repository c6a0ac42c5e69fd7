#!/bin/bash
# Records nvdisasm -json and cuobjdump -elf for each cubin; prints tool versions and hashes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
o=$OUT/rec; mkdir -p $o/disasm $o/elf $o/sass
export PATH=$PATH:/usr/local/cuda/bin
which nvdisasm cuobjdump ptxas
nvdisasm --version | tail -2; cuobjdump --version | tail -2; ptxas --version | tail -2
sha256sum $(which nvdisasm) $(which cuobjdump) $(which ptxas) $(readlink -f $(which ptxas))
nvdisasm --help 2>&1 | grep -i -A2 json
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
for c in $here/cubins/*.cubin; do
  h=$(sha256sum $c | cut -d' ' -f1); b=$(basename $c .cubin)
  echo "$h $b" >> $o/index.txt
  nvdisasm -json $c > $o/disasm/$h.json 2> $o/disasm/$h.err || echo "nvdisasm -json failed on $b: $(head -c 300 $o/disasm/$h.err)"
  nvdisasm -c $c > $o/sass/$b.sass 2>&1
  cuobjdump -elf $c > $o/elf/$b.elf.txt 2>&1
done
cd $OUT && tar czf rec.tgz rec && rm -rf rec
ls -la $OUT
