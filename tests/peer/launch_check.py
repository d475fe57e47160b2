#!/usr/bin/env python3
"""Launch files against the real launchers: each plan's launch.sh is run by bash as a user would,
with `torchrun` and `accelerate` on PATH replaced by shims that hand the command line to the
installed launcher's own argument parser (torch.distributed.run's, accelerate's launch parser) and
stop there. ds_config.json goes through DeepSpeed's config class and accelerate.yaml through
accelerate's config loader where those are installed; job.sbatch through `sbatch --test-only`
against a Slurm controller this script starts on localhost (munged and slurmctld from Debian's
slurmctld and munge packages, 256 power-saved cloud nodes of 8 GPUs, so that a 250-node plan can be
placed). What is not installed is skipped with the reason.

make test-peer runs it in build/launch-venv, where tests/peer/launch-requirements.txt puts accelerate
and DeepSpeed beside Debian's torch; the shims run in the same Python as this script.

Prints one line per plan and check, and 'launch: N passed, N failed, N skipped'; exits 1 on a
failure.

Usage: launch_check.py PATH-TO-fwadvisor
"""
import getpass
import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

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
    ("fsdp-30b", ["--set", "accelerator=h100-sxm", "--set", "devices=8", "--set", "model_kind=llm", "--set",
                  "model_params=30e9", "--set", "team=pytorch"]),
    ("zero3-30b", ["--set", "accelerator=h100-sxm", "--set", "devices=16", "--set", "nodes=2", "--set", "model_kind=llm",
                   "--set", "model_params=30B", "--set", "team=pytorch"]),
]

TORCHRUN_SHIM = r'''#!PYTHON
import sys
from torch.distributed.run import get_args_parser
args = get_args_parser().parse_args(sys.argv[1:])
int(str(args.nproc_per_node))
print("torchrun-parsed nnodes=%s nproc_per_node=%s script=%s" % (args.nnodes, args.nproc_per_node, args.training_script))
'''

ACCELERATE_SHIM = r'''#!PYTHON
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


# A file given to its tool's own reader, in a Python of its own: argv[1] is the file.
# DeepSpeed takes its world size from torch.distributed, so the check gives it each size in turn: a
# file that fixes the batch for one world size fails at the others.
DEEPSPEED_CHECK = """import sys, json
from deepspeed.runtime import config as ds
cfg = json.load(open(sys.argv[1]))
for world in (1, 8, 16, 2048):
    ds.dist.get_rank = lambda *a, **k: 0
    ds.dist.get_world_size = lambda *a, **k: world
    c = ds.DeepSpeedConfig(dict(cfg))
    assert c.world_size == world, (c.world_size, world)
    assert c.train_batch_size == c.train_micro_batch_size_per_gpu * c.gradient_accumulation_steps * world
"""
ACCELERATE_CHECK = ("import sys\nfrom accelerate.commands.config.config_args import load_config_from_file\n"
                    "load_config_from_file(sys.argv[1])\n")


def check_file(name, out, filename, module, code, reader):
    """[1] passed, [0] failed, [-1] skipped (the module is not installed), [] no such file."""
    path = os.path.join(out, filename)
    if not os.path.exists(path):
        return []
    if not have(module):
        print("SKIP %-16s %s: %s is not installed" % (name, filename, module))
        return [-1]
    check = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, timeout=300)
    ok = check.returncode == 0
    print("%s %-16s %s by %s %s" % ("PASS" if ok else "FAIL", name, filename, reader, "" if ok else check.stderr[-600:]))
    return [1 if ok else 0]


SLURM_CONF = """ClusterName=fwcheck
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={port}
SlurmdPort={port2}
SlurmUser={user}
AuthType=auth/munge
AuthInfo=socket={dir}/munge.sock
CredType=cred/munge
StateSaveLocation={dir}/state
SlurmctldPidFile={dir}/slurmctld.pid
SlurmctldLogFile={dir}/slurmctld.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
GresTypes=gpu
ResumeProgram=/bin/true
SuspendProgram=/bin/true
SuspendTime=600
NodeName=cloud[001-256] CPUs=2 Gres=gpu:8 State=CLOUD
PartitionName=check Nodes=ALL Default=YES MaxTime=INFINITE State=UP
"""


def tool(name):
    """A program's path, looking in /usr/sbin too (the daemons live there), or None."""
    return shutil.which(name, path=os.environ.get("PATH", "") + os.pathsep + "/usr/sbin")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalSlurm:
    """munged and slurmctld in a folder of their own; env is what sbatch needs to reach them."""

    def __init__(self, folder):
        self.dir, self.env, self.why = folder, None, None
        absent = [t for t in ("munged", "slurmctld", "scontrol", "sbatch") if not tool(t)]
        if absent:
            self.why = "%s not installed (Debian's slurmctld, slurm-client and munge)" % ", ".join(absent)
            return
        os.makedirs(os.path.join(folder, "state"))
        key = os.path.join(folder, "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o400)
        conf = os.path.join(folder, "slurm.conf")
        with open(conf, "w") as f:
            f.write(SLURM_CONF.format(host=socket.gethostname().split(".")[0], port=free_port(), port2=free_port(),
                                      user=getpass.getuser(), dir=folder))
        try:
            self.start(conf, key)
        except Exception:
            self.stop()  # nothing left running when the controller did not come up
            raise

    def start(self, conf, key):
        folder = self.dir
        subprocess.run([tool("munged"), "-f", "--socket=%s/munge.sock" % folder, "--key-file=%s" % key,
                        "--log-file=%s/munged.log" % folder, "--pid-file=%s/munged.pid" % folder,
                        "--seed-file=%s/munged.seed" % folder], check=True, capture_output=True)
        self.env = dict(os.environ, SLURM_CONF=conf)
        subprocess.run([tool("slurmctld"), "-i"], env=self.env, check=True, capture_output=True)
        for _ in range(60):
            ping = subprocess.run(["scontrol", "ping"], env=self.env, capture_output=True, text=True)
            if "UP" in ping.stdout:
                return
            time.sleep(0.5)
        log = open(os.path.join(folder, "slurmctld.log")).read()[-600:] if os.path.exists(
            os.path.join(folder, "slurmctld.log")) else ""
        raise RuntimeError("the local slurmctld did not answer in 30 s: " + log)

    def stop(self):
        if self.env:
            subprocess.run(["scontrol", "shutdown"], env=self.env, capture_output=True)
        pid = os.path.join(self.dir, "munged.pid")
        if os.path.exists(pid):
            try:
                os.kill(int(open(pid).read()), 15)
            except (ValueError, ProcessLookupError):
                pass


def main():
    binary = os.path.abspath(sys.argv[1])
    passed = failed = skipped = 0
    work = tempfile.mkdtemp(prefix="fwadvisor-launch-")
    shims = os.path.join(work, "bin")
    os.mkdir(shims)
    for name, text in (("torchrun", TORCHRUN_SHIM), ("accelerate", ACCELERATE_SHIM)):
        path = os.path.join(shims, name)
        with open(path, "w") as f:
            f.write(text.replace("PYTHON", sys.executable, 1))
        os.chmod(path, 0o755)
    torch_ok = have("torch")
    slurm = None
    try:
        slurm = LocalSlurm(os.path.join(work, "slurm"))
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
            for result in check_file(name, out, "ds_config.json", "deepspeed", DEEPSPEED_CHECK, "DeepSpeedConfig at world sizes 1, 8, 16 and 2,048") + \
                    check_file(name, out, "accelerate.yaml", "accelerate", ACCELERATE_CHECK, "accelerate's loader"):
                passed, failed, skipped = passed + (result == 1), failed + (result == 0), skipped + (result < 0)
            sbatch = os.path.join(out, "job.sbatch")
            if os.path.exists(sbatch):
                if slurm.why:
                    print("SKIP %-16s job.sbatch: %s" % (name, slurm.why))
                    skipped += 1
                else:
                    check = subprocess.run(["sbatch", "--test-only", sbatch], capture_output=True, text=True, cwd=out,
                                           env=slurm.env)
                    ok = check.returncode == 0 and "to start at" in check.stderr
                    print("%s %-16s job.sbatch by sbatch --test-only: %s" % ("PASS" if ok else "FAIL", name,
                                                                            check.stderr.strip()))
                    passed, failed = passed + ok, failed + (not ok)
    finally:
        if slurm:
            slurm.stop()
        shutil.rmtree(work, ignore_errors=True)
    print("launch: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
