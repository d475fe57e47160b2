/* Launch files for the chosen plan: which launcher a strategy needs (a table), the numbers every
 * file shares (nodes, processes per node, batch sizes), and one writer per file. Keys and options
 * follow the tools' own documentation, named in each file. */
#include "knowledge/launch_files.h"
#include "knowledge/advisor_kb.h"
#include "common/file.h"
#include "common/units.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOC_TORCHRUN "https://docs.pytorch.org/docs/stable/elastic/run.html"
#define DOC_ACCELERATE_CLI "https://huggingface.co/docs/accelerate/package_reference/cli"
#define DOC_ACCELERATE_DS "https://huggingface.co/docs/accelerate/usage_guides/deepspeed"
#define DOC_ACCELERATE_FSDP "https://huggingface.co/docs/accelerate/concept_guides/fsdp1_vs_fsdp2"
#define DOC_DEEPSPEED "https://www.deepspeed.ai/docs/config-json/"
#define DOC_MEGATRON "https://github.com/NVIDIA/Megatron-LM (examples/gpt3/train_gpt3_175b_distributed.sh, megatron/training/arguments.py)"
#define DOC_SLURM "https://slurm.schedmd.com/sbatch.html"
#define DOC_JAX "https://docs.jax.dev/en/latest/_autosummary/jax.distributed.initialize.html"
#define DOC_JAX_MULTI "https://docs.jax.dev/en/latest/multi_process.html"
#define DOC_TPU "https://cloud.google.com/tpu/docs/jax-pods"

enum launcher { L_TORCHRUN, L_ACCELERATE_DEEPSPEED, L_ACCELERATE_FSDP, L_MEGATRON, L_JAX, L_PLAIN };

/* How each strategy is started; a strategy not listed runs `python train.py` on every node. */
static const struct {
    const char *strategy;
    enum launcher launcher;
    int zero_stage, offload;
} launchers[] = {
    {"single", L_TORCHRUN, 0, 0},          {"ddp", L_TORCHRUN, 0, 0},
    {"torchrec", L_TORCHRUN, 0, 0},        {"fsdp-tp", L_TORCHRUN, 0, 0},
    {"fsdp", L_ACCELERATE_FSDP, 0, 0},     {"zero1", L_ACCELERATE_DEEPSPEED, 1, 0},
    {"zero2", L_ACCELERATE_DEEPSPEED, 2, 0}, {"zero3", L_ACCELERATE_DEEPSPEED, 3, 0},
    {"zero3-offload", L_ACCELERATE_DEEPSPEED, 3, 1}, {"megatron", L_MEGATRON, 0, 0},
    {"jax-sharding", L_JAX, 0, 0},
};

/* What every file shares. */
struct view {
    const struct adv_kb *akb;
    const struct adv_result *r;
    const char *strategy, *hardware, *device, *precision;
    enum launcher launcher;
    int zero_stage, offload;
    int nodes, per_node, devices, ragged; /* ragged: devices do not divide evenly over the nodes */
    int tp, pp, dp, ep, vp;
    int micro_batch, accumulation, global_batch; /* sequences (samples) */
    double micro_batches;                         /* the plan's, before rounding */
    int slurm;                                    /* a Slurm script makes sense (not TPUs or Macs) */
    const struct launch_site *site;               /* never NULL: empty fields for none */
};

/* A file's text, written through a memory stream (open_memstream grows it). put() on a buffer
 * whose stream could not be opened writes nothing, and add_file refuses it. */
struct buf {
    FILE *f;
    char *s;
    size_t len;
};

/* In place: the stream keeps the addresses of b->s and b->len. */
static void buf_open(struct buf *b)
{
    b->s = NULL;
    b->len = 0;
    b->f = open_memstream(&b->s, &b->len);
}

static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct buf *b, const char *fmt, ...)
{
    if (!b->f) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(b->f, fmt, ap);
    va_end(ap);
}

/* Hands the buffer to the next file slot; 0, or -1 when building it failed. */
static int add_file(struct launch_files *out, const char *name, struct buf *b)
{
    int failed = !b->f || ferror(b->f);
    if (b->f && fclose(b->f) != 0) failed = 1;
    if (failed || !b->s || out->count == LAUNCH_MAX_FILES) {
        free(b->s);
        return -1;
    }
    out->files[out->count++] = (struct launch_file){name, b->s, b->len};
    return 0;
}

static struct view make_view(const struct adv_kb *akb, const struct adv_result *r, const struct launch_site *site)
{
    static const struct launch_site no_site;
    const struct answers *a = &r->answers;
    const struct adv_layout *l = &r->memory.layout;
    struct view v;
    memset(&v, 0, sizeof v);
    v.akb = akb;
    v.r = r;
    v.site = site ? site : &no_site;
    v.strategy = r->strategy ? r->strategy : "single";
    v.launcher = L_PLAIN;
    for (size_t i = 0; i < sizeof launchers / sizeof launchers[0]; i++)
        if (strcmp(launchers[i].strategy, v.strategy) == 0) {
            v.launcher = launchers[i].launcher;
            v.zero_stage = launchers[i].zero_stage;
            v.offload = launchers[i].offload;
        }
    v.hardware = answers_str(a, ANS_HARDWARE);
    v.device = r->accelerator >= 0 ? akb->acc[r->accelerator].id : v.hardware;
    v.precision = r->precision ? r->precision : "fp32";
    v.devices = (int)answers_num(a, ANS_DEVICES);
    v.nodes = (int)answers_num(a, ANS_NODES);
    if (v.nodes < 1) v.nodes = 1;
    v.per_node = (v.devices + v.nodes - 1) / v.nodes;
    v.ragged = v.devices % v.nodes != 0;
    v.tp = l->tp > 0 ? l->tp : 1;
    v.pp = l->pp > 0 ? l->pp : 1;
    v.dp = l->dp > 0 ? l->dp : v.devices;
    v.ep = l->ep > 0 ? l->ep : 1;
    v.vp = l->vp > 0 ? l->vp : 1;
    v.micro_batch = l->micro_batch >= 1 ? (int)lround(l->micro_batch) : 1;
    v.micro_batches = l->micro_batches;
    v.accumulation = l->micro_batches >= 1 ? (int)lround(l->micro_batches) : 1;
    v.global_batch = v.micro_batch * v.accumulation * v.dp;
    v.slurm = strcmp(v.hardware, "tpu") != 0 && strcmp(v.hardware, "apple") != 0;
    return v;
}

/* "32 x h100-sxm on 4 nodes of 8, megatron (tp 8, pp 2, dp 2), bf16": the plan in one line. */
static void summary(const struct view *v, char *out, size_t n)
{
    char devices[32], nodes[32];
    snprintf(out, n, "%s x %s on %s node%s of %d, %s (tp %d, pp %d, dp %d%s), %s", units_number(v->devices, devices, sizeof devices),
             v->device, units_number(v->nodes, nodes, sizeof nodes), v->nodes == 1 ? "" : "s", v->per_node, v->strategy, v->tp,
             v->pp, v->dp, v->ep > 1 ? ", expert parallel" : "", v->precision);
}

/* Slurm's --time: the plan's hours rounded up (a day when unknown), at most a week, which is
 * beyond most clusters' limits already; longer runs are a chain of checkpointed jobs. */
enum { MAX_JOB_HOURS = 7 * 24 };

static void slurm_time(const struct view *v, char *out, size_t n)
{
    double hours = v->r->has_hours ? ceil(v->r->hours) : 24;
    if (hours < 1) hours = 1;
    if (hours > MAX_JOB_HOURS) hours = MAX_JOB_HOURS;
    long h = (long)hours;
    snprintf(out, n, "%ld-%02ld:00:00", h / 24, h % 24);
}

/* Steps between checkpoints, so that a restart loses at most CHECKPOINT_SECONDS of training:
 * max(1, floor(CHECKPOINT_SECONDS / the plan's seconds per step)); 0 when the plan has no step
 * time. The step time is the plan's hours over its steps. */
enum { CHECKPOINT_SECONDS = 3600 };

static long checkpoint_steps(const struct view *v)
{
    const struct adv_result *r = v->r;
    if (!r->has_hours || r->hours <= 0 || r->time.steps < 1) return 0;
    double step_s = r->hours * 3600 / r->time.steps;
    double k = floor(CHECKPOINT_SECONDS / step_s);
    return k < 1 ? 1 : (long)k;
}

/* The comment that says how the interval was sized, with separators. */
static void checkpoint_comment(struct buf *b, const struct view *v, long steps)
{
    char sec[32], step[32], every[32];
    units_thousands(CHECKPOINT_SECONDS, 0, sec, sizeof sec);
    units_thousands(v->r->hours * 3600 / v->r->time.steps, 1, step, sizeof step);
    units_thousands((double)steps, 0, every, sizeof every);
    put(b, "# Checkpoint every %s step%s: a restart loses at most 1 hour, max(1, floor(%s s / %s s per step)).\n", every,
        steps == 1 ? "" : "s", sec, step);
}

/* --- launch.sh -------------------------------------------------------------------------------- */

static void torchrun_args(struct buf *b, const struct view *v)
{
    /* The underscore spellings: every torchrun accepts them (1.13 refuses --nproc-per-node). */
    if (v->nodes == 1) put(b, "torchrun --standalone --nnodes=1 --nproc_per_node=%d", v->per_node);
    else
        put(b, "torchrun --nnodes=%d --nproc_per_node=%d --rdzv_backend=c10d --rdzv_endpoint=\"$MASTER_ADDR:$MASTER_PORT\" "
               "--rdzv_id=\"$JOB_ID\"",
            v->nodes, v->per_node);
}

/* Megatron-LM's arguments for the plan's layout, model shape, batch and precision. */
static void megatron_args(struct buf *b, const struct view *v)
{
    const struct adv_result *r = v->r;
    const struct answers *a = &r->answers;
    const struct adv_memory *m = &r->memory;
    double L = r->layers, s = r->seq_len > 0 ? r->seq_len : 2048;
    put(b, " \\\n    --tensor-model-parallel-size %d --pipeline-model-parallel-size %d", v->tp, v->pp);
    if (v->tp > 1) put(b, " --sequence-parallel");
    put(b, " \\\n    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather");
    int layers_per_stage = v->pp > 0 && L > 0 ? (int)ceil(L / v->pp) : 0;
    if (v->pp > 1 && m->layout.uneven && L > 0) {
        /* Uneven stages: the middle ones full, the first and last share the rest. */
        int rest = (int)L - layers_per_stage * (v->pp - 2);
        if (rest >= 2)
            put(b, " \\\n    --decoder-first-pipeline-num-layers %d --decoder-last-pipeline-num-layers %d", rest / 2, rest - rest / 2);
    } else if (v->pp > 1 && v->vp > 1 && layers_per_stage % v->vp == 0) {
        put(b, " \\\n    --num-layers-per-virtual-pipeline-stage %d", layers_per_stage / v->vp);
    }
    if (v->ep > 1)
        put(b, " \\\n    --num-experts %g --expert-model-parallel-size %d", r->in.experts, v->ep);
    if (L > 0)
        put(b, " \\\n    --num-layers %g --hidden-size %g --num-attention-heads %g", L, r->hidden, r->heads);
    if (a->v[ANS_KV_HEADS].given && answers_num(a, ANS_KV_HEADS) < r->heads)
        put(b, " \\\n    --group-query-attention --num-query-groups %g", answers_num(a, ANS_KV_HEADS));
    put(b, " \\\n    --seq-length %g --max-position-embeddings %g", s, s);
    put(b, " \\\n    --micro-batch-size %d --global-batch-size %d", v->micro_batch, v->global_batch);
    if (answers_has(a, ANS_TOKENS)) put(b, " \\\n    --train-samples %.0f", ceil(answers_num(a, ANS_TOKENS) / s));
    if (strcmp(v->precision, "bf16") == 0) put(b, " \\\n    --bf16");
    else if (strcmp(v->precision, "fp16") == 0) put(b, " \\\n    --fp16");
    else if (strcmp(v->precision, "fp8") == 0) put(b, " \\\n    --bf16 --fp8-format hybrid");
    if (m->recompute && strcmp(m->recompute, "full") == 0) {
        int chunk = v->vp > 1 && layers_per_stage % v->vp == 0 ? layers_per_stage / v->vp : layers_per_stage;
        int k = (int)ceil(m->recompute_fraction * chunk - 1e-9);
        if (k >= chunk) put(b, " \\\n    --recompute-granularity full --recompute-method uniform --recompute-num-layers 1");
        else put(b, " \\\n    --recompute-granularity full --recompute-method block --recompute-num-layers %d", k < 1 ? 1 : k);
    } else if (m->recompute && strcmp(m->recompute, "selective") == 0) {
        put(b, " \\\n    --recompute-granularity selective");
    }
    put(b, " \\\n    --lr 3.0e-4 --min-lr 3.0e-5 --lr-decay-style cosine --lr-warmup-fraction 0.01 --weight-decay 0.1 --clip-grad 1.0");
    put(b, " \\\n    --mock-data --tokenizer-type NullTokenizer --vocab-size %.0f", r->in.vocab > 0 ? r->in.vocab : 32000);
    long every = checkpoint_steps(v);
    put(b, " \\\n    --save \"$CHECKPOINTS\" --load \"$CHECKPOINTS\" --save-interval %ld", every > 0 ? every : 1000);
}

/* The plan's accumulation and checkpoint interval for the training script, and Megatron's
 * checkpoint folder. Megatron takes its accumulation from the global batch. */
static void job_env(struct buf *b, const struct view *v)
{
    long every = checkpoint_steps(v);
    if (every > 0) checkpoint_comment(b, v, every);
    if (v->launcher == L_MEGATRON) {
        put(b, "CHECKPOINTS=\"${CHECKPOINTS:-checkpoints}\"   # --save and --load: a restart resumes from the latest\n");
        return;
    }
    put(b, "export GRADIENT_ACCUMULATION_STEPS=\"${GRADIENT_ACCUMULATION_STEPS:-%d}\"   # the plan's; train.py reads it\n",
        v->accumulation);
    if (v->launcher == L_ACCELERATE_FSDP)
        put(b, "export ACCELERATE_GRADIENT_ACCUMULATION_STEPS=\"$GRADIENT_ACCUMULATION_STEPS\"   # Accelerator() reads it\n");
    if (every > 0) put(b, "export SAVE_INTERVAL_STEPS=\"${SAVE_INTERVAL_STEPS:-%ld}\"   # train.py saves every so many steps\n", every);
}

static int write_launch(struct launch_files *out, const struct view *v, const char *line)
{
    struct buf b;
    buf_open(&b);
    put(&b, "#!/usr/bin/env bash\n# fwadvisor launch: %s.\n", line);
    switch (v->launcher) {
    case L_TORCHRUN: put(&b, "# torchrun options: " DOC_TORCHRUN "\n"); break;
    case L_ACCELERATE_DEEPSPEED:
    case L_ACCELERATE_FSDP: put(&b, "# accelerate launch options: " DOC_ACCELERATE_CLI "\n"); break;
    case L_MEGATRON: put(&b, "# Megatron-LM arguments: " DOC_MEGATRON "\n# torchrun options: " DOC_TORCHRUN "\n"); break;
    case L_JAX: put(&b, "# jax.distributed: " DOC_JAX "\n"); break;
    case L_PLAIN: put(&b, "# One process per node; the %s launcher's own conventions apply (README.txt).\n", v->strategy); break;
    }
    put(&b, "# Run it on every node (job.sbatch does under Slurm), with MASTER_ADDR set to the first node.\n"
            "set -euo pipefail\ncd \"$(dirname \"$0\")\"\n"
            "NODE_RANK=\"${NODE_RANK:-${SLURM_NODEID:-0}}\"\nMASTER_ADDR=\"${MASTER_ADDR:-localhost}\"\n"
            "MASTER_PORT=\"${MASTER_PORT:-29500}\"\nJOB_ID=\"${SLURM_JOB_ID:-fwadvisor}\"\n");
    if (v->launcher != L_MEGATRON) put(&b, "TRAIN_SCRIPT=\"${TRAIN_SCRIPT:-train.py}\"   # your training script\n");
    job_env(&b, v);
    switch (v->launcher) {
    case L_TORCHRUN:
        put(&b, "exec ");
        torchrun_args(&b, v);
        put(&b, " \\\n    \"$TRAIN_SCRIPT\" \"$@\"\n");
        break;
    case L_ACCELERATE_DEEPSPEED:
    case L_ACCELERATE_FSDP:
        put(&b, "exec accelerate launch --config_file accelerate.yaml --num_machines %d --num_processes %d \\\n"
                "    --machine_rank \"$NODE_RANK\" --main_process_ip \"$MASTER_ADDR\" --main_process_port \"$MASTER_PORT\" \\\n"
                "    \"$TRAIN_SCRIPT\" \"$@\"\n",
            v->nodes, v->devices);
        break;
    case L_MEGATRON:
        put(&b, "MEGATRON_LM=\"${MEGATRON_LM:-$HOME/Megatron-LM}\"   # a Megatron-LM checkout\n"
                "export CUDA_DEVICE_MAX_CONNECTIONS=1\n# --mock-data trains on synthetic tokens: replace it with --data-path and "
                "your tokenizer.\n# The learning-rate settings are starting values; edit them.\nexec ");
        torchrun_args(&b, v);
        put(&b, " \\\n    \"$MEGATRON_LM/pretrain_gpt.py\"");
        megatron_args(&b, v);
        put(&b, " \\\n    \"$@\"\n");
        break;
    case L_JAX:
    case L_PLAIN:
        put(&b, "export NODE_RANK MASTER_ADDR MASTER_PORT\nexec python3 \"$TRAIN_SCRIPT\" \"$@\"\n");
        break;
    }
    return add_file(out, "launch.sh", &b);
}

/* --- accelerate.yaml and ds_config.json -------------------------------------------------------- */

/* FSDP wraps each decoder block: the Hugging Face class of the plan's shape. */
static void wrap_class(struct buf *b, const struct view *v)
{
    const struct model_shape *sh = &v->r->in.shape;
    if (sh->hidden > 0 && (sh->arch == SHAPE_LLAMA || sh->arch == SHAPE_MOE))
        put(b, "  # the decoder block of a Llama-shaped Hugging Face model; name your model's block class otherwise\n"
               "  fsdp_transformer_layer_cls_to_wrap: LlamaDecoderLayer\n");
    else if (sh->hidden > 0)
        put(b, "  # the decoder block of a GPT-2-shaped Hugging Face model; name your model's block class otherwise\n"
               "  fsdp_transformer_layer_cls_to_wrap: GPT2Block\n");
    else
        put(b, "  # PLACEHOLDER: the class name of your model's repeated block (the plan has no model shape)\n"
               "  fsdp_transformer_layer_cls_to_wrap: CHANGE_ME_BlockClass\n");
}

static int write_accelerate(struct launch_files *out, const struct view *v, const char *line)
{
    (void)line; /* its own heading */
    struct buf b;
    buf_open(&b);
    int ds = v->launcher == L_ACCELERATE_DEEPSPEED;
    put(&b, "# Accelerate config for %s (fwadvisor): %s\n", v->strategy, ds ? DOC_ACCELERATE_DS : DOC_ACCELERATE_FSDP);
    if (ds)
        put(&b, "# With deepspeed_config_file, precision, ZeRO stage, offload and batch sizes live in ds_config.json\n"
                "# only: Accelerate refuses mixed_precision and the zero_* keys beside it.\n");
    put(&b, "compute_environment: LOCAL_MACHINE\ndistributed_type: %s\n", ds ? "DEEPSPEED" : "FSDP");
    if (ds) {
        put(&b, "deepspeed_config:\n  deepspeed_config_file: ds_config.json\n  deepspeed_multinode_launcher: standard\n"
                "  zero3_init_flag: %s\n",
            v->zero_stage == 3 ? "true" : "false");
    } else {
        const char *rc = v->r->memory.recompute;
        const char *mp = strcmp(v->precision, "fp32") == 0 ? "'no'" : v->precision;
        put(&b, "fsdp_config:\n  fsdp_version: 2\n  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n"
                "  fsdp_reshard_after_forward: true\n  fsdp_state_dict_type: SHARDED_STATE_DICT\n"
                "  fsdp_cpu_ram_efficient_loading: true\n  fsdp_offload_params: false\n  fsdp_activation_checkpointing: %s\n",
            rc && strcmp(rc, "full") == 0 ? "true" : "false");
        wrap_class(&b, v);
        put(&b, "mixed_precision: %s\n", mp);
    }
    put(&b, "machine_rank: 0        # launch.sh passes each node's --machine_rank\nmain_process_ip: localhost\n"
            "main_process_port: 29500\nmain_training_function: main\nnum_machines: %d\nnum_processes: %d   # all nodes together\n"
            "rdzv_backend: static\nsame_network: true\nuse_cpu: false\n",
        v->nodes, v->devices);
    return add_file(out, "accelerate.yaml", &b);
}

static int write_deepspeed(struct launch_files *out, const struct view *v, const char *line)
{
    (void)line; /* JSON: no comment line */
    cJSON *doc = cJSON_CreateObject();
    if (!doc) return -1;
    /* No train_batch_size: DeepSpeed derives it as micro-batch x accumulation x world size, so the
     * file holds on any GPU count (README.txt says so). */
    cJSON_AddNumberToObject(doc, "train_micro_batch_size_per_gpu", v->micro_batch);
    cJSON_AddNumberToObject(doc, "gradient_accumulation_steps", v->accumulation);
    cJSON_AddNumberToObject(doc, "gradient_clipping", 1.0);
    /* FP8 trains through the model code (Transformer Engine) on top of BF16. */
    const char *mixed = strcmp(v->precision, "fp16") == 0 ? "fp16" : strcmp(v->precision, "fp32") == 0 ? NULL : "bf16";
    if (mixed) cJSON_AddBoolToObject(cJSON_AddObjectToObject(doc, mixed), "enabled", 1);
    cJSON *zero = cJSON_AddObjectToObject(doc, "zero_optimization");
    cJSON_AddNumberToObject(zero, "stage", v->zero_stage);
    cJSON_AddBoolToObject(zero, "overlap_comm", 1);
    cJSON_AddBoolToObject(zero, "contiguous_gradients", 1);
    /* The buckets the memory plan counted (ds_bucket_elements). */
    cJSON_AddNumberToObject(zero, "reduce_bucket_size", v->r->in.ds_bucket_elements);
    if (v->zero_stage == 1 || v->zero_stage == 2) /* ZeRO-3 gathers by its prefetch bucket instead */
        cJSON_AddNumberToObject(zero, "allgather_bucket_size", v->r->in.ds_bucket_elements);
    if (v->zero_stage == 3) cJSON_AddNumberToObject(zero, "stage3_prefetch_bucket_size", v->r->in.ds_bucket_elements);
    if (v->offload) {
        cJSON *off = cJSON_AddObjectToObject(zero, "offload_optimizer");
        cJSON_AddStringToObject(off, "device", "cpu");
        cJSON_AddBoolToObject(off, "pin_memory", 1);
        if (v->r->in.finetune != ADV_FULL) { /* the plan moves the frozen base to the host as well */
            off = cJSON_AddObjectToObject(zero, "offload_param");
            cJSON_AddStringToObject(off, "device", "cpu");
            cJSON_AddBoolToObject(off, "pin_memory", 1);
        }
    }
    cJSON_AddNumberToObject(doc, "steps_per_print", 100);
    char *text = cJSON_Print(doc);
    cJSON_Delete(doc);
    if (!text) return -1;
    struct buf b;
    buf_open(&b);
    put(&b, "%s\n", text);
    free(text);
    return add_file(out, "ds_config.json", &b);
}

/* --- job.sbatch ------------------------------------------------------------------------------ */

static int write_sbatch(struct launch_files *out, const struct view *v, const char *line)
{
    struct buf b;
    buf_open(&b);
    char t[32];
    slurm_time(v, t, sizeof t);
    int gpus = strcmp(v->hardware, "cpu") != 0;
    put(&b, "#!/bin/bash\n# fwadvisor Slurm job: %s.\n# sbatch options: " DOC_SLURM "\n", line);
    if (v->r->has_hours && v->r->hours > MAX_JOB_HOURS)
    {
        char h[32];
        put(&b, "# The plan needs %s hours: --time asks for a week; run checkpointed jobs one after another.\n",
            units_thousands(v->r->hours, 0, h, sizeof h));
    }
    else put(&b, "# --time is the plan's estimate; where the cluster caps it, run checkpointed jobs one after another.\n");
    if (gpus && strcmp(v->hardware, "nvidia") != 0 && strcmp(v->hardware, "amd") != 0)
        put(&b, "# %s devices may be a site-specific GRES rather than gpu: check with your administrators.\n", v->hardware);
    put(&b, "#SBATCH --job-name=fwadvisor-%s\n#SBATCH --nodes=%d\n#SBATCH --ntasks-per-node=1\n", v->strategy, v->nodes);
    if (gpus) put(&b, "#SBATCH --gpus-per-node=%d\n", v->per_node);
    put(&b, "#SBATCH --exclusive\n#SBATCH --time=%s\n#SBATCH --output=fwadvisor-%%x-%%j.out\n", t);
    /* Site settings from the config file; else placeholders, which sbatch reads as comments
     * ("##SBATCH"), so the file runs unedited. */
    const struct launch_site *site = v->site;
    if (site->partition[0]) put(&b, "#SBATCH --partition=%s\n", site->partition);
    if (site->account[0]) put(&b, "#SBATCH --account=%s\n", site->account);
    if (!site->partition[0] || !site->account[0])
        put(&b, "# PLACEHOLDERS: remove one '#' where your site needs the setting, or set partition and\n"
                "# account under [site] in fwadvisor's config file.\n");
    if (!site->partition[0]) put(&b, "##SBATCH --partition=CHANGE_ME\n");
    if (!site->account[0]) put(&b, "##SBATCH --account=CHANGE_ME\n");
    put(&b, "set -euo pipefail\n"
            "MASTER_ADDR=\"$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\"\n"
            "# A port from the job id, so that two jobs sharing a node do not collide.\n"
            "MASTER_PORT=$((29500 + SLURM_JOB_ID %% 1000))\nexport MASTER_ADDR MASTER_PORT\n"
            "# One task per node with all of the node's CPUs; launch.sh starts that node's %d process%s.\n"
            "srun --nodes=%d --ntasks-per-node=1 --cpus-per-task=\"${SLURM_CPUS_ON_NODE:-1}\" bash launch.sh \"$@\"\n",
        v->launcher == L_JAX || v->launcher == L_PLAIN ? 1 : v->per_node,
        (v->launcher == L_JAX || v->launcher == L_PLAIN ? 1 : v->per_node) == 1 ? "" : "es", v->nodes);
    return add_file(out, "job.sbatch", &b);
}

/* --- jax-distributed.txt --------------------------------------------------------------------- */

static int write_jax(struct launch_files *out, const struct view *v, const char *line)
{
    struct buf b;
    buf_open(&b);
    int tpu = strcmp(v->hardware, "tpu") == 0;
    put(&b, "# jax.distributed launch for: %s.\n# jax.distributed.initialize: " DOC_JAX "\n# Multi-process JAX: " DOC_JAX_MULTI
            "\n",
        line);
    if (tpu) put(&b, "# Cloud TPU slices: " DOC_TPU "\n");
    put(&b, "\nOne JAX process per host: %d process%s, each addressing its %d local devices, %d devices in all.\n\n",
        v->nodes, v->nodes == 1 ? "" : "es", v->per_node, v->devices);
    put(&b, "At the top of train.py, before any JAX computation:\n\n"
            "    import jax\n    import numpy as np\n"
            "    jax.distributed.initialize()  # Slurm, Open MPI and Cloud TPU: the arguments are detected\n"
            "    # elsewhere: jax.distributed.initialize(coordinator_address=\"HOST0:1234\",\n"
            "    #                                       num_processes=%d, process_id=RANK)\n"
            "    assert jax.device_count() == %d\n"
            "    mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(%d, %d), (\"data\", \"model\"))\n\n",
        v->nodes, v->devices, v->devices / v->tp, v->tp);
    put(&b, "The plan (%s) shards parameters, gradients and optimizer states along \"data\" (FSDP-style)\n"
            "with a NamedSharding over that mesh; \"model\" has %d device%s.\n\n",
        v->strategy, v->tp, v->tp == 1 ? "" : "s");
    if (tpu)
        put(&b, "Start the same program on every host of the slice, for example:\n\n"
                "    gcloud compute tpus tpu-vm ssh \"$TPU_NAME\" --zone=\"$ZONE\" --worker=all --command=\"python3 train.py\"\n");
    else put(&b, "Under Slurm, `sbatch job.sbatch` starts launch.sh (python3 train.py) once per node.\n");
    return add_file(out, "jax-distributed.txt", &b);
}

/* --- README.txt -------------------------------------------------------------------------------- */

static int trains(const struct view *v);

static int write_readme(struct launch_files *out, const struct view *v, const char *line)
{
    const struct adv_result *r = v->r;
    struct buf b;
    buf_open(&b);
    if (!trains(v)) {
        put(&b, "fwadvisor launch files\n======================\n\nNo training launch files: the answers plan serving only "
                "(job serve), so there is no training to launch. The serving plan is in the report "
                "(fwadvisor recommend, plan.inference).\n");
        return add_file(out, "README.txt", &b);
    }
    put(&b, "fwadvisor launch files\n======================\n\nPlan: %s.\n", line);
    char dp[32], global[32];
    put(&b, "Batch: %d sequence%s per micro-batch x %d accumulation step%s x %s data-parallel ranks = %s per step",
        v->micro_batch, v->micro_batch == 1 ? "" : "s", v->accumulation, v->accumulation == 1 ? "" : "s",
        units_number(v->dp, dp, sizeof dp), units_number(v->global_batch, global, sizeof global));
    if (fabs(v->micro_batches - v->accumulation) > 1e-6)
        put(&b, " (the plan's %.3g micro-batches per step rounded to a whole number)", v->micro_batches);
    put(&b, ".\n");
    if (v->launcher == L_ACCELERATE_DEEPSPEED)
        put(&b, "World size: ds_config.json leaves train_batch_size out; DeepSpeed sets it to micro-batch x accumulation\n"
                "x the GPUs it is started on, so the file holds for any GPU count (%d in the plan); change\n"
                "--num_machines and --num_processes in launch.sh for another count.\n",
            v->devices);
    if (r->optimizer_steps > 0)
    {
        char n[32];
        put(&b, "Optimizer steps: %s (a fine-tune's batch of %g sequences).\n", units_thousands(r->optimizer_steps, 0, n, sizeof n),
            r->batch_sequences);
    }
    if (r->has_hours) {
        char h[32], dh[32];
        put(&b, "Planned time: %s hours (%s device-hours).\n", units_thousands(r->hours, 0, h, sizeof h),
            units_thousands(r->device_hours, 0, dh, sizeof dh));
    }
    if (v->ragged)
        put(&b, "Note: %d devices do not divide evenly over %d nodes; the files use %d per node: edit them.\n", v->devices,
            v->nodes, v->per_node);
    put(&b, "\nFiles (edit %s before running):\n", v->launcher == L_MEGATRON ? "MEGATRON_LM and the data arguments" : "TRAIN_SCRIPT");
    put(&b, "  launch.sh        the command for one node; run it on every node%s\n", v->slurm ? ", or let job.sbatch do it" : "");
    switch (v->launcher) {
    case L_TORCHRUN: put(&b, "                   torchrun: " DOC_TORCHRUN "\n"); break;
    case L_ACCELERATE_DEEPSPEED:
        put(&b, "  accelerate.yaml  Accelerate with DeepSpeed: " DOC_ACCELERATE_DS "\n"
                "  ds_config.json   DeepSpeed ZeRO stage %d%s, batch sizes, precision: " DOC_DEEPSPEED "\n"
                "                   (JSON has no comments; its keys are that page's)\n",
            v->zero_stage, v->offload ? " with the optimizer offloaded to CPU memory" : "");
        break;
    case L_ACCELERATE_FSDP: put(&b, "  accelerate.yaml  Accelerate with FSDP2: " DOC_ACCELERATE_FSDP "\n"); break;
    case L_MEGATRON: put(&b, "                   Megatron-LM: " DOC_MEGATRON "\n"); break;
    case L_JAX: put(&b, "  jax-distributed.txt  how train.py joins the processes: " DOC_JAX "\n"); break;
    case L_PLAIN:
        put(&b, "                   %s has no launcher template here: launch.sh runs python3 on every node;\n"
                "                   set the cluster variables its documentation names.\n",
            v->strategy);
        break;
    }
    if (v->slurm) put(&b, "  job.sbatch       Slurm: sbatch job.sbatch (" DOC_SLURM ")\n");
    if (strcmp(v->precision, "fp8") == 0)
        put(&b, "\nFP8: the launchers run in BF16; FP8 matrix products come from the model code (Transformer Engine\n"
                "or torchao), which the plan's FP8 figures assume.\n");
    if (v->launcher == L_MEGATRON && r->memory.recompute && strcmp(r->memory.recompute, "full") == 0 &&
        r->memory.recompute_fraction < 1)
        put(&b, "\nRecomputation: the plan recomputes %.0f%% of the layers; Megatron's block method recomputes whole\n"
                "layers per (virtual) stage, so launch.sh may recompute more than the plan needs.\n",
            r->memory.recompute_fraction * 100);
    if (v->launcher == L_MEGATRON && r->memory.layout.uneven)
        put(&b, "\nStages: the layers do not divide evenly; the first and last stages take fewer, without interleaving.\n");
    put(&b, "\nMade by `fwadvisor recommend --emit`; the numbers are the plan's, the keys the tools' documentation's.\n");
    return add_file(out, "README.txt", &b);
}

void launch_files_free(struct launch_files *f)
{
    for (int i = 0; i < f->count; i++) free(f->files[i].text);
    memset(f, 0, sizeof *f);
}

/* --- the files: one row per kind, in the order they are written ------------------------------ */

/* Serving only trains nothing: its README says so and no launcher is written. */
static int always(const struct view *v) { return v != NULL; }
static int trains(const struct view *v) { return v->r->job != ADV_JOB_SERVE; }
static int through_accelerate(const struct view *v)
{
    return trains(v) && (v->launcher == L_ACCELERATE_DEEPSPEED || v->launcher == L_ACCELERATE_FSDP);
}
static int through_deepspeed(const struct view *v) { return trains(v) && v->launcher == L_ACCELERATE_DEEPSPEED; }
static int with_jax(const struct view *v) { return trains(v) && v->launcher == L_JAX; }
static int under_slurm(const struct view *v) { return trains(v) && v->slurm; }

/* A kind of launch file: when the plan gets one and what writes it (the summary line in hand). */
static const struct {
    int (*wanted)(const struct view *v);
    int (*write)(struct launch_files *out, const struct view *v, const char *line);
} file_kinds[] = {
    {always, write_readme},                 /* README.txt */
    {trains, write_launch},                 /* launch.sh */
    {through_accelerate, write_accelerate}, /* accelerate.yaml */
    {through_deepspeed, write_deepspeed},   /* ds_config.json */
    {with_jax, write_jax},                  /* jax-distributed.txt */
    {under_slurm, write_sbatch},            /* job.sbatch */
};
_Static_assert(sizeof file_kinds / sizeof file_kinds[0] <= LAUNCH_MAX_FILES, "LAUNCH_MAX_FILES holds every kind");

int launch_files_make(const struct adv_kb *akb, const struct adv_result *r, const struct launch_site *site,
                      struct launch_files *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    struct view v = make_view(akb, r, site);
    char line[320];
    summary(&v, line, sizeof line);
    int bad = 0;
    for (size_t k = 0; !bad && k < sizeof file_kinds / sizeof file_kinds[0]; k++)
        if (file_kinds[k].wanted(&v)) bad = file_kinds[k].write(out, &v, line);
    if (bad) {
        launch_files_free(out);
        snprintf(err, errsz, "out of memory writing the launch files");
        return -1;
    }
    return 0;
}

int launch_files_write(const struct adv_kb *akb, const struct adv_result *r, const struct launch_site *site, const char *dir,
                       char *names, size_t namesz, char *err, size_t errsz)
{
    struct launch_files files;
    if (names && namesz) names[0] = '\0';
    if (launch_files_make(akb, r, site, &files, err, errsz) != 0) return FILE_ERR;
    struct file_named named[LAUNCH_MAX_FILES];
    size_t used = 0;
    for (int i = 0; i < files.count; i++) {
        const struct launch_file *f = &files.files[i];
        size_t n = strlen(f->name);
        int script = (n > 3 && !strcmp(f->name + n - 3, ".sh")) || (n > 7 && !strcmp(f->name + n - 7, ".sbatch"));
        named[i] = (struct file_named){f->name, f->text, f->len, script ? 0755 : 0644};
        if (names && used < namesz) used += (size_t)snprintf(names + used, namesz - used, "%s%s", i ? " " : "", f->name);
    }
    int status = file_dir_write_new(dir, named, files.count, err, errsz);
    if (status != FILE_OK && names && namesz) names[0] = '\0';
    launch_files_free(&files);
    return status;
}
