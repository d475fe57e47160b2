#!/usr/bin/env python3
"""Launch files against the real launchers: each plan's launch.sh is run by bash as a user would,
with `torchrun` and `accelerate` on PATH replaced by shims that hand the command line to the
installed launcher's own argument parser (torch.distributed.run's, accelerate's launch parser) and
stop there. ds_config.json goes through DeepSpeed's config class and accelerate.yaml through
accelerate's config loader where those are installed; job.sbatch through `sbatch --test-only`
where a Slurm controller answers. What is not installed is skipped with the reason.

Prints one line per plan and check, and 'launch: N passed, N failed, N skipped'; exits 1 on a
failure.

Usage: launch_check.py PATH-TO-fwadvisor
"""
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

# Plans whose launch.sh starts each launcher the files know: torchrun (DDP, FSDP2 + TP, Megatron-LM
# under torchrun), accelerate (ZeRO-3, FSDP), and one and several nodes.
PLANS = [
    ("ddp-1-node", ["--preset", "academic-research"]),
    ("ddp-2-nodes", ["--set", "accelerator=h100-sxm", "--set", "devices=16", "--set", "nodes=2", "--set", "model_kind=nlp",
                     "--set", "model_params=350M", "--set", "tokens=7B", "--set", "team=pytorch"]),
    ("megatron-2000", ["--preset", "nvidia-2000-gpus"]),
    ("fsdp-70b-lora", ["--set", "accelerator=h100-sxm", "--set", "devices=16", "--set", "nodes=2", "--set", "model_kind=llm",
                       "--set", "model_params=70B", "--set", "finetune=lora", "--set", "tokens=2B", "--set",
                       "team=pytorch"]),
    ("zero3-30b", ["--set", "accelerator=h100-sxm", "--set", "devices=16", "--set", "nodes=2", "--set", "model_kind=llm",
                   "--set", "model_params=30B", "--set", "team=pytorch"]),
]

TORCHRUN_SHIM = r'''#!/usr/bin/python3
import sys
from torch.distributed.run import get_args_parser
args = get_args_parser().parse_args(sys.argv[1:])
int(str(args.nproc_per_node))
print("torchrun-parsed nnodes=%s nproc_per_node=%s script=%s" % (args.nnodes, args.nproc_per_node, args.training_script))
'''

ACCELERATE_SHIM = r'''#!/usr/bin/python3
import sys
try:
    from accelerate.commands.launch import launch_command_parser
except ImportError as e:
    print("accelerate-skipped: accelerate is not installed (%s)" % e)
    sys.exit(0)
argv = sys.argv[1:]
if argv[:1] == ["launch"]:
    argv = argv[1:]
args = launch_command_parser().parse_args(argv)
print("accelerate-parsed num_processes=%s config=%s" % (args.num_processes, args.config_file))
'''


def have(module):
    return importlib.util.find_spec(module) is not None


def main():
    binary = os.path.abspath(sys.argv[1])
    passed = failed = skipped = 0
    work = tempfile.mkdtemp(prefix="fwadvisor-launch-")
    shims = os.path.join(work, "bin")
    os.mkdir(shims)
    for name, text in (("torchrun", TORCHRUN_SHIM), ("accelerate", ACCELERATE_SHIM)):
        path = os.path.join(shims, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)
    torch_ok = have("torch")
    try:
        for name, args in PLANS:
            out = os.path.join(work, name)
            db = os.path.join(work, "kb.sqlite3")
            r = subprocess.run([binary, "--db", db, "--no-config", "recommend", *args, "--probe", "none", "--emit", out],
                               capture_output=True, text=True)
            if r.returncode != 0:
                print("FAIL %-16s recommend --emit: %s" % (name, r.stderr.strip().splitlines()[-1:]))
                failed += 1
                continue
            launch = open(os.path.join(out, "launch.sh")).read()
            uses = "torchrun" if "exec torchrun" in launch else "accelerate" if "exec accelerate" in launch else None
            if uses is None:
                print("SKIP %-16s launch.sh starts neither torchrun nor accelerate" % name)
                skipped += 1
            elif uses == "torchrun" and not torch_ok:
                print("SKIP %-16s torchrun: torch is not installed" % name)
                skipped += 1
            else:
                env = dict(os.environ, PATH=shims + os.pathsep + os.environ.get("PATH", ""), NODE_RANK="0",
                           MASTER_ADDR="localhost")
                run = subprocess.run(["bash", os.path.join(out, "launch.sh")], capture_output=True, text=True, env=env,
                                     timeout=120)
                marker = uses + "-parsed"
                if run.returncode == 0 and marker in run.stdout:
                    print("PASS %-16s %s" % (name, run.stdout.strip().splitlines()[-1]))
                    passed += 1
                elif run.returncode == 0 and "accelerate-skipped" in run.stdout:
                    print("SKIP %-16s %s" % (name, run.stdout.strip()))
                    skipped += 1
                else:
                    print("FAIL %-16s %s refused launch.sh's line: %s %s" % (name, uses, run.stdout.strip(),
                                                                            run.stderr.strip()[-600:]))
                    failed += 1
            ds = os.path.join(out, "ds_config.json")
            if os.path.exists(ds):
                if not have("deepspeed"):
                    print("SKIP %-16s ds_config.json: deepspeed is not installed" % name)
                    skipped += 1
                else:
                    check = subprocess.run([sys.executable, "-c",
                                            "import sys, json\n"
                                            "from deepspeed.runtime.config import DeepSpeedConfig\n"
                                            "DeepSpeedConfig(json.load(open(sys.argv[1])))\n", ds],
                                           capture_output=True, text=True, timeout=300)
                    ok = check.returncode == 0
                    print("%s %-16s ds_config.json by DeepSpeedConfig %s" % ("PASS" if ok else "FAIL", name,
                                                                            "" if ok else check.stderr[-600:]))
                    passed, failed = passed + ok, failed + (not ok)
            yaml = os.path.join(out, "accelerate.yaml")
            if os.path.exists(yaml):
                if not have("accelerate"):
                    print("SKIP %-16s accelerate.yaml: accelerate is not installed" % name)
                    skipped += 1
                else:
                    check = subprocess.run([sys.executable, "-c",
                                            "import sys\n"
                                            "from accelerate.commands.config.config_args import load_config_from_file\n"
                                            "load_config_from_file(sys.argv[1])\n", yaml],
                                           capture_output=True, text=True, timeout=300)
                    ok = check.returncode == 0
                    print("%s %-16s accelerate.yaml by accelerate's loader %s" % ("PASS" if ok else "FAIL", name,
                                                                                 "" if ok else check.stderr[-600:]))
                    passed, failed = passed + ok, failed + (not ok)
            sbatch = os.path.join(out, "job.sbatch")
            if os.path.exists(sbatch):
                ping = shutil.which("scontrol") and subprocess.run(["scontrol", "ping"], capture_output=True, text=True)
                if not ping or ping.returncode != 0 or "UP" not in ping.stdout:
                    print("SKIP %-16s job.sbatch: no Slurm controller answers here" % name)
                    skipped += 1
                else:
                    check = subprocess.run(["sbatch", "--test-only", sbatch], capture_output=True, text=True, cwd=out)
                    ok = check.returncode == 0
                    print("%s %-16s job.sbatch by sbatch --test-only %s" % ("PASS" if ok else "FAIL", name,
                                                                           check.stderr.strip()))
                    passed, failed = passed + ok, failed + (not ok)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("launch: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
