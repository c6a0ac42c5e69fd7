#!/usr/bin/env python3
"""Runs the shell commands of the README's ```sh blocks as written, in a
scratch folder that links the checkout's build/, examples/, scripts/,
test/ and bench/ (so what they write lands there, not in the checkout).
Skipped, each with its reason: the two main commands and setup (the test
suite runs inside them; CI runs them) and the commands that need a GPU or
torch.
Exits 1 on the first command that fails, naming it.

usage: readme_commands.py SRC_ROOT BUILD_DIR SCRATCH"""
import os
import re
import shutil
import subprocess
import sys

src, build, scratch = sys.argv[1:4]
text = open(os.path.join(src, "README.md")).read()
blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
commands = []
for block in blocks:
    lines, cur = [], ""
    quote = False
    for raw in block.splitlines():
        line = raw if quote else re.sub(r"\s+#.*$", "", raw)
        cur += ("\n" if quote else "") + line.rstrip("\\").rstrip() if cur else line.rstrip("\\").rstrip()
        if line.count("'") % 2:
            quote = not quote
        if raw.rstrip().endswith("\\") or quote:
            if not quote:
                cur += " "
            continue
        if cur.strip():
            commands.append(cur.strip())
        cur = ""

SKIP = [
    (r"^scripts/(run-example|test|setup)\.sh", "a main command (the test suite runs inside it)"),
    (r"torch|device=\"cuda\"", "needs torch and a GPU"),
    (r"gpu-run\.sh run", "needs a GPU"),
]
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
for d in ("examples", "scripts", "test", "bench"):
    os.symlink(os.path.join(src, d), os.path.join(scratch, d))
os.symlink(build, os.path.join(scratch, "build"))
env = dict(os.environ, BUILD_DIR=build, RAKE_BIN=os.path.join(build, "bin"),
           RAKE_LIBCUDA=os.path.join(build, "lib", "librake-fake-cuda.so"))
ran = skipped = 0
for cmd in commands:
    reason = next((why for pat, why in SKIP if re.search(pat, cmd)), None)
    if reason:
        print(f"skipped ({reason}): {cmd.splitlines()[0]}")
        skipped += 1
        continue
    run = subprocess.run(["bash", "-c", "set -o pipefail; " + cmd], cwd=scratch, env=env,
                         capture_output=True, text=True)
    if run.returncode != 0:
        print(f"FAILED ({run.returncode}): {cmd}\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}")
        sys.exit(1)
    ran += 1
print(f"ran {ran} README commands, skipped {skipped}")
