# -*- Python -*-
# lit configuration for the Rake GPU tests.

import hashlib
import json
import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "RAKE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.rake_obj_root, "test")
config.excludes = ["lib", "Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%examples", os.path.join(config.rake_src_root, "examples")))
config.substitutions.append(("%rake_src", config.rake_src_root))
config.substitutions.append(("%rake_bin", config.rake_tools_dir))
llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
# `lit --param sync_check_compare=1`: every synchronization check runs with
# and without the symmetry reduction and fails on any difference
# (docs/SyncCheck.md, "Symmetry across tasks").
if lit_config.params.get("sync_check_compare") == "1":
    config.environment["RAKE_SYNC_CHECK_COMPARE"] = "1"
llvm_config.use_default_substitutions()

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# Rake's tools come from this build only: a tool that is not built fails the
# run at once, instead of a binary of the same name elsewhere being used.
tools = [ToolSubst(name, unresolved="fatal")
         for name in ["rake-opt", "rake-translate", "rake-run", "rake-example-ref",
                      "rake-verify", "rake-bundle", "rake-runtime-test", "rake-lsp-server",
                      "rake-capi-test"]]
llvm_config.add_tool_substitutions(tools, [config.rake_tools_dir])

# GPU tests run only where a CUDA device answers; CI has none.
if shutil.which("nvidia-smi") and os.system("nvidia-smi -L > /dev/null 2>&1") == 0:
    config.available_features.add("gpu")
if shutil.which("ptxas") or os.path.exists("/usr/local/cuda/bin/ptxas"):
    config.available_features.add("ptxas")
# ptxas-pinned (any test): a ptxas whose sha256 the sm90a profile pins (bundles made in
# the tests then reproduce the recorded cubins byte for byte).
ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
try:
    profile = json.loads(subprocess.run(
        [os.path.join(config.rake_tools_dir, "rake-verify"), "--print-profile=nvidia-ptx-sm90a"],
        capture_output=True, text=True).stdout)
    digest = hashlib.sha256(open(ptxas, "rb").read()).hexdigest()
    if any(p["tool"] == "ptxas" and p["sha256"] == digest for p in profile["toolchain_pins"]):
        config.available_features.add("ptxas-pinned")
except (OSError, ValueError, KeyError):
    pass
# torch in the interpreter the tests run Python with (the GPU tests that
# call kernels from Python on torch tensors).
if subprocess.run([config.rake_python_executable or "python3", "-c", "import torch"],
                  capture_output=True).returncode == 0:
    config.available_features.add("torch")
config.substitutions.append(("%rake_python_dir", config.rake_python_dir or ""))
# The Python package was built (pybind11 and the Python headers were found).
if config.rake_python_dir:
    config.available_features.add("python-bindings")
config.substitutions.append(("%rake_python", config.rake_python_executable or "python3"))
# The stand-in libcuda of the runtime's tests (test/Runtime/fake-cuda.c).
config.substitutions.append(("%fake_cuda", os.path.join(config.rake_obj_root, "lib", "librake-fake-cuda.so")))
# The CUDA toolkit's headers and driver stub, and OpenSSL's: what
# scripts/build-launcher.sh needs to build the GPU launcher.
cuda_home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
if (os.path.exists(os.path.join(cuda_home, "include", "cuda.h"))
        and os.path.exists("/usr/include/openssl/sha.h")):
    config.available_features.add("cuda-toolkit")
