/* frameworks: the probe workload that trains the engine's two models, an MLP and a GPT, in every
 * framework installed on this machine, side by side with the engine.
 *
 *   find      the interpreters (--python, else python3 on PATH and the active virtual or conda
 *             environment) and in each, without importing anything, which of PyTorch, JAX,
 *             TensorFlow, Keras 3 (each importable backend), MLX, PaddlePaddle and MindSpore
 *             it has (probes/frameworks/fwdetect.py)
 *   engine    builds both models, writes their initial weights (safetensors) and every step's
 *             batch (.npy) into a private temporary folder, and trains them: the reference
 *             rows and the first-step losses every framework must reproduce
 *   each      framework runs its script (probes/frameworks/fw_*.py, built into the binary and
 *             written to that folder) in its own process under a time and a memory limit
 *             (probes/child.h), kept apart from the caller's folder and settings
 *             (fw_isolation.c): its modes (PyTorch eager and torch.compile, JAX jit, TensorFlow
 *             tf.function with and without XLA, Keras fit-step per backend, MLX compile,
 *             PaddlePaddle eager, MindSpore PyNative) on the CPU and the accelerator it sees
 *
 * Every outcome is a row of workload "frameworks" (metric step_ms): timed, or skipped with why
 * (not importable, a crash, a hang, memory, an unusable device, a first-step loss that is not
 * the engine's: a framework that trains something else is no peer). Nothing is installed or
 * downloaded; the folder is removed afterwards. */
#ifndef FWADVISOR_PROBES_FRAMEWORKS_H
#define FWADVISOR_PROBES_FRAMEWORKS_H

#include "probes/probe.h"

/* A framework's first-step loss must be the engine's within this relative difference. */
#define PROBE_FW_LOSS_RTOL 1e-4

/* 1 when |loss - engine_loss| <= PROBE_FW_LOSS_RTOL x |engine_loss| (and both are finite). */
int probe_fw_loss_agrees(double loss, double engine_loss);

/* The memory limit of each framework's process and all it starts (probes/child.h): half the
 * machine's memory total (PROBE_FW_MEMORY_UNKNOWN when it is not known, 0), at least
 * PROBE_FW_MEMORY_FLOOR (a framework's import and the models), and yet at most 3/4 of the
 * total and of what is available now (0: not known), whichever is less, so that the limit
 * stops a framework before the machine runs out. */
#define PROBE_FW_MEMORY_FLOOR ((uint64_t)2 << 30)
#define PROBE_FW_MEMORY_UNKNOWN ((uint64_t)8 << 30)
uint64_t probe_fw_memory_limit(uint64_t total, uint64_t available);

/* The framework's name for people ("PyTorch", "JAX", ..., "engine"); the id itself when unknown. */
const char *probe_fw_name(const char *id);

/* Planned seconds of the workload, for the progress plan. */
double probe_fw_plan_seconds(const struct probe_options *opt);

/* Runs the workload with `threads` threads for the engine and each framework: appends its rows
 * to run and fills run->frameworks. progress(ctx, planned_seconds, what) is called after each
 * part; the parts' planned seconds add up to probe_fw_plan_seconds. opt->stop ends it within a
 * second (the running framework's process is killed; what finished is kept). */
void probe_fw_run(struct probe_run *run, const struct probe_options *opt, int threads,
                  void (*progress)(void *ctx, double planned_seconds, const char *what), void *ctx);

#endif
