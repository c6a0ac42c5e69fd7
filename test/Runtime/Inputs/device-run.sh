#!/bin/bash
# Builds the C runtime and its test driver with g++ alone, runs vector_add
# from a verified bundle on the GPU with the bundle's launch shape (and with
# more dynamic shared memory, through the opt-in above 48 KiB), then shows
# tampered bundles and wrong launches refused.
# Run on the GPU machine from a folder holding include/, lib/Runtime,
# lib/Artifact, lib/Verifier/{Cubin,Ptx}.cpp, lib/Profile/Profile.cpp,
# runtime-test.c (test/Runtime), tamper.py (test/Verifier/Inputs) and bundle/
# (test/Runtime/Inputs/vector_add.bundle), and signed/ (a copy signed with
# rake-verify --sign) with k.pub; it needs OpenSSL's libcrypto.
# Its output on the H200 is h200-run.log.
cd "$(dirname "$0")"
export PATH=$PATH:/usr/local/cuda/bin
set -e
g++ -std=c++17 -O2 -Wall -Iinclude lib/Runtime/Runtime.cpp lib/Runtime/LaunchChecks.cpp lib/Artifact/*.cpp \
  lib/Verifier/Cubin.cpp lib/Verifier/Ptx.cpp lib/Profile/Profile.cpp -c
gcc -std=c11 -O2 -Wall -Iinclude -c runtime-test.c -o t.o
g++ t.o Runtime.o Json.o Crypto.o Manifest.o Cubin.o Ptx.o Profile.o -lcrypto -ldl -o rake-runtime-test
set +e
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
echo "== open"; ./rake-runtime-test open bundle | grep -v "^  [0-9]"
echo "== run (verified bundle, its recorded launch shape)"; ./rake-runtime-test run bundle 1000003; echo "rc=$?"
./rake-runtime-test run bundle 100003; echo "rc=$?"
echo "== run with 61440 more bytes of dynamic shared memory than recorded (the opt-in above 48 KiB)"
RAKE_TEST_EXTRA_SHARED=61440 ./rake-runtime-test run bundle 100003; echo "rc=$?"
echo "== run with 300000 more bytes (past the H200's 232448): the driver refuses"
RAKE_TEST_EXTRA_SHARED=300000 ./rake-runtime-test run bundle 1000; echo "rc=$?"
cat bundle/evidence.jsonl
echo "== live nvdisasm vs the bundle's recorded disassembly"
nvdisasm -json bundle/kernel.cubin | sha256sum | cut -c1-64; sha256sum bundle/disasm.json | cut -c1-64
t() { rm -rf tb; cp -r bundle tb; rm -f tb/evidence.jsonl; for e in "$@"; do eval python3 tamper.py tb $e; done; ./rake-runtime-test run tb 1000; echo "rc=$?"; }
echo "== cubin text byte flipped"; t "cubin-text vector_add"
echo "== manifest field changed, seal kept"; t "set source.sha256 '\"00\"'"
echo "== manifest target sm_80, resealed"; t "set target '\"sm_80\"'" reseal
echo "== manifest ptxas flags -O0, resealed"; t "set ptxas_flags.4 '\"-O0\"'" reseal
echo "== manifest parameter 3 offset 32, resealed"; t "set kernels.0.abi.params.3.offset 32" reseal
echo "== manifest max_threads 1024, resealed"; t "set kernels.0.max_threads.0 1024" reseal
echo "== status unverified, resealed"; t "set status '\"unverified\"'" reseal
echo "== manifest launch.dynamic_shared_bytes 4096, resealed: a launch with less refused, one with 4096 runs"; t "set kernels.0.launch.dynamic_shared_bytes 4096" reseal
echo "== manifest launch.block 512x1x1, resealed"; t "set kernels.0.launch.block '[512, 1, 1]'" reseal
echo "== manifest launch shape removed, resealed: not launched"; t "unset kernels.0.launch" reseal
echo "== cubin and manifest consistently made sm_100a: refused (ELF flags)"; t "cubin-sm 100" rehash "set target '\"sm_100a\"'" "set cubin.arch '\"sm_100a\"'" reseal
echo "== the kernel's store made a NOP, every hash re-bound: integrity only loads it (no disassembler in the runtime)"; t "nop-store vector_add" rehash reseal
echo "== signed bundle, the signer's public key given (signed/, k.pub: made by rake-verify --sign)"
RAKE_PUBLIC_KEY=k.pub ./rake-runtime-test open signed | grep trust
rm -f signed/evidence.jsonl; RAKE_PUBLIC_KEY=k.pub ./rake-runtime-test run signed 1000003; echo "rc=$?"
echo "== the same store made a NOP in the signed bundle, every hash re-bound: the key refuses it"
rm -rf tb; cp -r signed tb; python3 tamper.py tb nop-store vector_add; python3 tamper.py tb rehash; python3 tamper.py tb reseal
RAKE_PUBLIC_KEY=k.pub ./rake-runtime-test run tb 1000; echo "rc=$?"
