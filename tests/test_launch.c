/* fwadvisor recommend --emit DIR: the launch files of a ZeRO-3, a ZeRO-3 offload, a Megatron, a
 * single-node DDP and a JAX plan, checked against the plan's own report and the tools' documented
 * keys (the DeepSpeed JSON loads and holds only keys of DeepSpeed's configuration page; the shell
 * files pass `bash -n`); and the refusals: a path that exists and is not an empty directory. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "tests/support.h"

static char *dir;
static char dbarg[4200], sysroot_env[4200];
static const char *env[5];

static void setup(void)
{
    dir = ts_tmpdir();
    snprintf(dbarg, sizeof dbarg, "--db=%s/kb.sqlite3", dir);
    ts_h100_env(env, sysroot_env, sizeof sysroot_env);
}

static void teardown(void)
{
    ts_rmtree(dir);
    free(dir);
}

TestSuite(launch, .init = setup, .fini = teardown, .timeout = 60);

#define MAX_ARGS 40

/* Runs recommend with the answers in sets (NULL-terminated "KEY=VALUE"), plus extra arguments. */
static int recommend(struct ts_run *r, const char *const *sets, const char *const *extra)
{
    const char *args[MAX_ARGS];
    int n = 0;
    args[n++] = dbarg;
    args[n++] = "recommend";
    args[n++] = "--probe";
    args[n++] = "none";
    for (int i = 0; sets && sets[i] && n < MAX_ARGS - 8; i++) args[n++] = "--set", args[n++] = sets[i];
    for (int i = 0; extra && extra[i] && n < MAX_ARGS - 1; i++) args[n++] = extra[i];
    args[n] = NULL;
    cr_assert_eq(ts_run(r, env, NULL, args), 0);
    return r->status;
}

/* The plan's report, for the numbers the files must carry. Caller frees. */
static cJSON *report(const char *const *sets)
{
    struct ts_run r;
    cr_assert_eq(recommend(&r, sets, (const char *const[]){"--json", NULL}), 0, "%s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    ts_run_free(&r);
    cr_assert_not_null(doc);
    return doc;
}

static cJSON *layout_of(cJSON *doc)
{
    return cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "plan"), "memory"), "layout");
}

/* Emits into dir/name and returns that folder (caller frees). */
static char *emit(const char *const *sets, const char *name)
{
    char *out = ts_path(dir, name);
    struct ts_run r;
    cr_assert_eq(recommend(&r, sets, (const char *const[]){"--emit", out, NULL}), 0, "%s", r.err);
    cr_expect(strstr(r.err, "launch files written to") != NULL, "%s", r.err);
    /* one line, ended by a newline (not an escaped "\n" from the output filter) */
    size_t len = strlen(r.err);
    cr_expect(len > 0 && r.err[len - 1] == '\n' && strchr(r.err, '\n') == r.err + len - 1 && !strstr(r.err, "\\n"),
              "'%s'", r.err);
    ts_run_free(&r);
    return out;
}

static char *read_in(const char *folder, const char *name)
{
    char *path = ts_path(folder, name);
    char *text = ts_read(path, NULL);
    free(path);
    cr_assert_not_null(text, "%s/%s missing", folder, name);
    return text;
}

static int exists_in(const char *folder, const char *name)
{
    char *path = ts_path(folder, name);
    int ok = access(path, F_OK) == 0;
    free(path);
    return ok;
}

/* folder/name holds each of the texts in wants (NULL-terminated). */
static void holds(const char *folder, const char *name, const char *const *wants)
{
    char *text = read_in(folder, name);
    for (int i = 0; wants[i]; i++) cr_expect(strstr(text, wants[i]), "want %s in %s:\n%s", wants[i], name, text);
    free(text);
}

/* bash -n: the script parses. */
static void parses_as_bash(const char *folder, const char *name)
{
    char *path = ts_path(folder, name);
    struct ts_run r;
    cr_assert_eq(ts_exec(&r, "/bin/bash", NULL, NULL, (const char *const[]){"-n", path, NULL}), 0);
    cr_expect_eq(r.status, 0, "bash -n %s: %s", name, r.err);
    ts_run_free(&r);
    free(path);
}

/* launch.sh and, where there is one, job.sbatch parse. */
static void scripts_parse(const char *folder)
{
    parses_as_bash(folder, "launch.sh");
    if (exists_in(folder, "job.sbatch")) parses_as_bash(folder, "job.sbatch");
}

/* Keys of DeepSpeed's configuration page (https://www.deepspeed.ai/docs/config-json/) the files may use. */
static int documented(const char *const *keys, const char *key)
{
    for (; *keys; keys++)
        if (strcmp(*keys, key) == 0) return 1;
    return 0;
}

static const char *const ds_top[] = {"train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps",
                                     "gradient_clipping", "bf16", "fp16", "zero_optimization", "steps_per_print", NULL};
static const char *const ds_zero[] = {"stage", "overlap_comm", "contiguous_gradients", "reduce_bucket_size",
                                      "allgather_bucket_size", "stage3_prefetch_bucket_size", "offload_optimizer",
                                      "offload_param", NULL};

static cJSON *deepspeed_config(const char *folder)
{
    char *text = read_in(folder, "ds_config.json");
    cJSON *ds = cJSON_Parse(text);
    free(text);
    cr_assert_not_null(ds, "ds_config.json is not JSON");
    cJSON *item;
    cJSON_ArrayForEach(item, ds) cr_expect(documented(ds_top, item->string), "undocumented key %s", item->string);
    cJSON_ArrayForEach(item, cJSON_GetObjectItem(ds, "zero_optimization"))
        cr_expect(documented(ds_zero, item->string), "undocumented zero_optimization key %s", item->string);
    return ds;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *item = cJSON_GetObjectItem(o, key);
    cr_assert(cJSON_IsNumber(item), "%s is not a number", key);
    return item->valuedouble;
}

Test(launch, zero3_plan_deepspeed_accelerate_and_slurm)
{
    const char *sets[] = {"model_kind=llm", "team=pytorch", "accelerator=h100-sxm", "model_params=30e9", "devices=16",
                          "nodes=2", NULL};
    cJSON *doc = report(sets);
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "distributed"), "strategy")->valuestring, "zero3");
    double dp = num(layout_of(doc), "dp"), per_step = num(layout_of(doc), "micro_batches");
    double seqs = num(layout_of(doc), "batch_tokens") / num(cJSON_GetObjectItem(doc, "answers"), "seq_len");
    char *out = emit(sets, "zero3");
    const char *files[] = {"README.txt", "launch.sh", "accelerate.yaml", "ds_config.json", "job.sbatch", NULL};
    for (int i = 0; files[i]; i++) cr_expect(exists_in(out, files[i]), "%s missing", files[i]);
    cr_expect(!exists_in(out, "jax-distributed.txt"));

    cJSON *ds = deepspeed_config(out);
    cJSON *zero = cJSON_GetObjectItem(ds, "zero_optimization");
    cr_expect_float_eq(num(zero, "stage"), 3, 1e-12);
    cr_expect_null(cJSON_GetObjectItem(zero, "offload_optimizer"), "plain ZeRO-3 keeps the optimizer on the GPUs");
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(ds, "bf16"), "enabled")));
    /* DeepSpeed's rule: train_batch_size = micro-batch x accumulation x GPUs (data-parallel ranks);
     * left out, DeepSpeed derives it from the GPUs it starts on, so any count is accepted. */
    double micro = num(ds, "train_micro_batch_size_per_gpu"), acc = num(ds, "gradient_accumulation_steps");
    cr_expect_null(cJSON_GetObjectItem(ds, "train_batch_size"), "no world size in the file");
    cr_expect_float_eq(micro, 4, 1e-12);
    cr_expect_float_eq(acc, 31, 1e-12);
    cr_expect_float_eq(micro * acc * dp, 1984, 1e-9);
    cr_expect_null(cJSON_GetObjectItem(zero, "allgather_bucket_size"), "ZeRO-3 gathers by its prefetch bucket");
    cr_expect_float_eq(num(zero, "stage3_prefetch_bucket_size"), 5e8, 1e-3);
    cr_expect_float_eq(acc, (double)(long)(per_step + 0.5), 1e-9, "the plan's micro-batches per step, rounded");
    cr_expect_float_eq(micro * per_step * dp, seqs, 1e-3 * seqs, "the plan's sequences per step (micro_batches has 3 decimals)");
    cJSON_Delete(ds);

    char *yaml = read_in(out, "accelerate.yaml");
    cr_expect(strstr(yaml, "distributed_type: DEEPSPEED\n") && strstr(yaml, "  deepspeed_config_file: ds_config.json\n") &&
              strstr(yaml, "num_machines: 2\n") && strstr(yaml, "num_processes: 16 "),
              "%s", yaml);
    cr_expect_null(strstr(yaml, "\nmixed_precision:"), "Accelerate refuses it beside deepspeed_config_file");
    cr_expect(strstr(yaml, "# ") == yaml && strstr(yaml, "huggingface.co/docs/accelerate"), "cites its documentation");
    free(yaml);
    char *launch = read_in(out, "launch.sh");
    cr_expect(strstr(launch, "accelerate launch --config_file accelerate.yaml --num_machines 2 --num_processes 16"), "%s", launch);
    cr_expect(strstr(launch, "\nexport GRADIENT_ACCUMULATION_STEPS=\"${GRADIENT_ACCUMULATION_STEPS:-31}\""), "%s", launch);
    free(launch);
    char *readme = read_in(out, "README.txt");
    cr_expect(strstr(readme, "World size: ds_config.json leaves train_batch_size out; DeepSpeed sets it to micro-batch x "
                             "accumulation\nx the GPUs it is started on, so the file holds for any GPU count (16 in the plan)"),
              "%s", readme);
    free(readme);
    char *sbatch = read_in(out, "job.sbatch");
    cr_expect(strstr(sbatch, "#SBATCH --nodes=2\n") && strstr(sbatch, "#SBATCH --gpus-per-node=8\n") &&
              strstr(sbatch, "slurm.schedmd.com"),
              "%s", sbatch);
    free(sbatch);
    scripts_parse(out);
    free(out);
    cJSON_Delete(doc);
}

Test(launch, zero3_offload_puts_the_optimizer_in_host_memory)
{
    const char *sets[] = {"model_kind=llm", "team=pytorch", "accelerator=a100-sxm4-40gb", "model_params=20e9", "devices=8", NULL};
    char *out = emit(sets, "offload");
    cJSON *ds = deepspeed_config(out);
    cJSON *zero = cJSON_GetObjectItem(ds, "zero_optimization");
    cr_expect_float_eq(num(zero, "stage"), 3, 1e-12);
    cJSON *off = cJSON_GetObjectItem(zero, "offload_optimizer");
    cr_assert_not_null(off, "zero3-offload plan");
    cr_expect_str_eq(cJSON_GetObjectItem(off, "device")->valuestring, "cpu");
    cr_expect_null(cJSON_GetObjectItem(zero, "offload_param"), "full training keeps its parameters on the GPUs");
    cJSON_Delete(ds);
    free(out);
}

/* Under QLoRA the plan moves the frozen 4-bit base to the host as well: offload_param beside
 * offload_optimizer, both to the CPU. */
Test(launch, zero3_offload_under_qlora_moves_the_parameters_too)
{
    const char *sets[] = {"model_kind=llm", "team=pytorch", "model_params=7e10", "finetune=qlora", "hardware=nvidia",
                          "devices=1", "device_memory_gb=24", "seq_len=512", "dataset_tokens=1e7", NULL};
    char *out = emit(sets, "qlora-offload");
    cJSON *ds = deepspeed_config(out);
    cJSON *zero = cJSON_GetObjectItem(ds, "zero_optimization");
    cJSON *param = cJSON_GetObjectItem(zero, "offload_param");
    cr_assert_not_null(param, "a QLoRA plan with zero3-offload");
    cr_expect_str_eq(cJSON_GetObjectItem(param, "device")->valuestring, "cpu");
    cr_expect_not_null(cJSON_GetObjectItem(zero, "offload_optimizer"));
    cJSON_Delete(ds);
    free(out);
}

Test(launch, megatron_plan_torchrun_counts_and_layout)
{
    const char *sets[] = {"model_kind=llm", "team=pytorch", "accelerator=h100-sxm", "model_params=70e9", "devices=32",
                          "nodes=4", "priority=cost", "kv_heads=8", NULL};
    cJSON *doc = report(sets);
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "distributed"), "strategy")->valuestring, "megatron");
    cJSON *lay = layout_of(doc);
    char *out = emit(sets, "megatron");
    char *launch = read_in(out, "launch.sh");
    /* 32 devices on 4 nodes: torchrun starts 8 processes on each of 4 nodes. */
    cr_expect(strstr(launch, "torchrun --nnodes=4 --nproc_per_node=8 --rdzv_backend=c10d "
                             "--rdzv_endpoint=\"$MASTER_ADDR:$MASTER_PORT\" --rdzv_id=\"$JOB_ID\""),
              "%s", launch);
    cr_expect_null(strstr(launch, "--nproc-per-node"), "torch 1.13 refuses the hyphen spellings");
    cr_expect_null(strstr(launch, "--rdzv-"));
    char want[160];
    snprintf(want, sizeof want, "--tensor-model-parallel-size %d --pipeline-model-parallel-size %d", (int)num(lay, "tp"),
             (int)num(lay, "pp"));
    cr_expect(strstr(launch, want), "want %s in\n%s", want, launch);
    cr_expect(strstr(launch, "--group-query-attention --num-query-groups 8"), "%s", launch);
    cr_expect(strstr(launch, "--use-distributed-optimizer") && strstr(launch, "pretrain_gpt.py") && strstr(launch, "--bf16"));
    cr_expect(strstr(launch, "github.com/NVIDIA/Megatron-LM"), "cites Megatron-LM");
    /* Megatron's global batch: micro-batch x accumulation x data-parallel ranks. */
    const char *g = strstr(launch, "--micro-batch-size ");
    int micro = 0, global = 0;
    cr_assert(g && sscanf(g, "--micro-batch-size %d --global-batch-size %d", &micro, &global) == 2);
    cr_expect_eq(global % (micro * (int)num(lay, "dp")), 0);
    free(launch);
    char *sbatch = read_in(out, "job.sbatch");
    cr_expect(strstr(sbatch, "#SBATCH --nodes=4\n") && strstr(sbatch, "#SBATCH --gpus-per-node=8\n"), "%s", sbatch);
    free(sbatch);
    cr_expect(!exists_in(out, "ds_config.json"));
    scripts_parse(out);
    free(out);
    cJSON_Delete(doc);
}

Test(launch, fsdp_plan_is_an_accelerate_fsdp2_config)
{
    const char *sets[] = {"model_kind=llm", "team=pytorch", "accelerator=h100-sxm", "model_params=30e9", "devices=8", NULL};
    char *out = emit(sets, "fsdp");
    cr_expect(!exists_in(out, "ds_config.json"));
    char *yaml = read_in(out, "accelerate.yaml");
    cr_expect(strstr(yaml, "distributed_type: FSDP\n") && strstr(yaml, "  fsdp_version: 2\n") &&
              strstr(yaml, "  fsdp_reshard_after_forward: true\n") && strstr(yaml, "\nmixed_precision: bf16\n") &&
              strstr(yaml, "num_processes: 8 "),
              "%s", yaml);
    free(yaml);
    char *launch = read_in(out, "launch.sh");
    cr_expect(strstr(launch, "accelerate launch --config_file accelerate.yaml --num_machines 1 --num_processes 8"), "%s", launch);
    free(launch);
    scripts_parse(out);
    free(out);
}

Test(launch, single_node_ddp_is_a_standalone_torchrun)
{
    const char *sets[] = {"model_kind=nlp", "team=pytorch", "accelerator=h100-sxm", "model_params=1e8", "devices=4", NULL};
    char *out = emit(sets, "ddp");
    char *launch = read_in(out, "launch.sh");
    cr_expect(strstr(launch, "torchrun --standalone --nnodes=1 --nproc_per_node=4 \\\n"), "%s", launch);
    cr_expect_null(strstr(launch, "--nproc-per-node"));
    /* Plain torchrun jobs get the plan's accumulation as an environment variable for train.py. */
    cr_expect(strstr(launch, "\nexport GRADIENT_ACCUMULATION_STEPS=\"${GRADIENT_ACCUMULATION_STEPS:-1}\"   # the plan's; "
                             "train.py reads it\nexec torchrun "),
              "%s", launch);
    cr_expect(strstr(launch, "docs.pytorch.org/docs/stable/elastic/run.html"));
    free(launch);
    scripts_parse(out);
    free(out);
}

Test(launch, jax_plan_has_a_jax_distributed_note)
{
    const char *args[] = {dbarg, "recommend", "--probe", "none", "--preset", "tpu-pod", "--emit", NULL, NULL};
    char *out = ts_path(dir, "jax");
    args[7] = out;
    struct ts_run r;
    cr_assert_eq(ts_run(&r, env, NULL, args), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "(jax-sharding)"), "the preset's plan is JAX");
    ts_run_free(&r);
    char *note = read_in(out, "jax-distributed.txt");
    /* 256 TPU chips on 64 hosts: one process per host. */
    cr_expect(strstr(note, "jax.distributed.initialize()") && strstr(note, "num_processes=64") &&
              strstr(note, "jax.device_count() == 256") && strstr(note, "docs.jax.dev"),
              "%s", note);
    cr_expect(strstr(note, "--worker=all"), "Cloud TPU hosts all run the program");
    free(note);
    cr_expect(!exists_in(out, "job.sbatch"), "no Slurm for Cloud TPUs");
    scripts_parse(out);
    free(out);
}

Test(launch, refuses_a_path_that_is_not_an_empty_directory)
{
    const char *sets[] = {"model_kind=llm", "accelerator=h100-sxm", NULL};
    /* A folder with a file in it: exit 2, nothing added. */
    char *full = ts_path(dir, "full");
    cr_assert_eq(mkdir(full, 0700), 0);
    char *keep = ts_path(full, "keep.txt");
    cr_assert_eq(ts_write_str(keep, "mine\n"), 0);
    struct ts_run r;
    cr_expect_eq(recommend(&r, sets, (const char *const[]){"--emit", full, NULL}), 2);
    cr_expect(strstr(r.err, "not an empty directory"), "%s", r.err);
    cr_expect_str_empty(r.out, "refused before anything is planned or written");
    ts_run_free(&r);
    cr_expect(!exists_in(full, "launch.sh") && !exists_in(full, "README.txt"));
    /* A regular file: exit 2, unchanged. */
    cr_expect_eq(recommend(&r, sets, (const char *const[]){"--emit", keep, NULL}), 2);
    ts_run_free(&r);
    char *text = ts_read(keep, NULL);
    cr_expect_str_eq(text, "mine\n");
    free(text);
    /* An empty folder is fine. */
    char *empty = ts_path(dir, "empty");
    cr_assert_eq(mkdir(empty, 0700), 0);
    cr_expect_eq(recommend(&r, sets, (const char *const[]){"--emit", empty, NULL}), 0, "%s", r.err);
    ts_run_free(&r);
    cr_expect(exists_in(empty, "launch.sh"));
    /* Invalid answers: exit 3, and the folder is not created. */
    char *fresh = ts_path(dir, "fresh");
    cr_expect_eq(recommend(&r, (const char *const[]){"model_kind=llm", "heads=64", "kv_heads=6", NULL},
                           (const char *const[]){"--emit", fresh, NULL}),
                 3);
    cr_expect(strstr(r.err, "kv_heads") && strstr(r.err, "heads"), "%s", r.err);
    ts_run_free(&r);
    cr_expect_neq(access(fresh, F_OK), 0);
    free(fresh);
    free(empty);
    free(keep);
    free(full);
}

/* ZeRO-2 gathers its updated partitions through allgather_bucket_size: written, at the plan's bucket. */
Test(launch, zero2_keeps_its_allgather_bucket)
{
    const char *sets[] = {"model_kind=llm", "team=pytorch", "accelerator=h100-sxm", "model_params=7e9", "devices=8", NULL};
    char *out = emit(sets, "zero2");
    cJSON *ds = deepspeed_config(out);
    free(out);
    const cJSON *zero = cJSON_GetObjectItem(ds, "zero_optimization");
    /* both buckets at the plan's 5e8 elements (ds_bucket_elements), and no ZeRO-3 prefetch */
    cr_expect(num(zero, "stage") == 2 && num(zero, "allgather_bucket_size") == 5e8 && num(zero, "reduce_bucket_size") == 5e8 &&
                  !cJSON_GetObjectItem(zero, "stage3_prefetch_bucket_size"),
              "a ZeRO-2 plan with its allgather bucket");
    cJSON_Delete(ds);
}

/* FSDP: the plan's accumulation reaches Accelerate (ACCELERATE_GRADIENT_ACCUMULATION_STEPS) and the
 * wrap class follows the shape: GPT2Block for the default GPT-3 shape, LlamaDecoderLayer for llama. */
Test(launch, fsdp_passes_accumulation_and_wraps_the_shapes_block)
{
    const char *gpt[] = {"model_kind=llm", "team=pytorch", "accelerator=h100-sxm", "model_params=30e9", "devices=8", NULL};
    char *out = emit(gpt, "fsdp-gpt");
    holds(out, "accelerate.yaml",
          (const char *const[]){"  fsdp_activation_checkpointing: true\n  # the decoder block of a GPT-2-shaped Hugging Face "
                                "model; name your model's block class otherwise\n  fsdp_transformer_layer_cls_to_wrap: GPT2Block\n"
                                "mixed_precision: bf16\n",
                                NULL});
    /* 250.3 s per step: floor(3600 / 250.3) = 14 steps between checkpoints */
    holds(out, "launch.sh",
          (const char *const[]){"\nexport GRADIENT_ACCUMULATION_STEPS=\"${GRADIENT_ACCUMULATION_STEPS:-244}\"",
                                "\nexport ACCELERATE_GRADIENT_ACCUMULATION_STEPS=\"$GRADIENT_ACCUMULATION_STEPS\"",
                                "\nexport SAVE_INTERVAL_STEPS=\"${SAVE_INTERVAL_STEPS:-14}\"",
                                "max(1, floor(3,600 s / 250.3 s per step))", NULL});
    scripts_parse(out);
    free(out);
    const char *llama[] = {"model_kind=llm", "team=pytorch", "accelerator=h100-sxm", "model_params=30e9", "devices=8",
                           "arch=llama", NULL};
    out = emit(llama, "fsdp-llama");
    holds(out, "accelerate.yaml", (const char *const[]){"  fsdp_transformer_layer_cls_to_wrap: LlamaDecoderLayer\n", NULL});
    free(out);
}

/* A 7-day Megatron plan (173 hours): 2e10 tokens / 2048 = 9,765,625 samples over a global batch of
 * 1,953 = 5,000 steps of 124.9 s; floor(3600 / 124.9) = 28 steps between checkpoints, saved to and
 * resumed from one folder. */
Test(launch, a_week_of_megatron_checkpoints_every_hour)
{
    const char *sets[] = {"model_kind=llm", "team=pytorch", "accelerator=h100-sxm", "model_params=70e9", "devices=32",
                          "nodes=4", "priority=cost", "kv_heads=8", "tokens=2e10", NULL};
    char *out = emit(sets, "megatron-week");
    holds(out, "README.txt", (const char *const[]){"\nPlanned time: 173 hours (5,551 device-hours).\n", NULL});
    holds(out, "launch.sh",
          (const char *const[]){" \\\n    --save \"$CHECKPOINTS\" --load \"$CHECKPOINTS\" --save-interval 28 \\\n",
                                "--micro-batch-size 1 --global-batch-size 1953",
                                "\n# Checkpoint every 28 steps: a restart loses at most 1 hour, max(1, floor(3,600 s / 124.9 s "
                                "per step)).\nCHECKPOINTS=\"${CHECKPOINTS:-checkpoints}\"",
                                NULL});
    holds(out, "job.sbatch",
          (const char *const[]){"\n#SBATCH --time=7-00:00:00\n#SBATCH --output=fwadvisor-%x-%j.out\n",
                                "\n##SBATCH --partition=CHANGE_ME\n##SBATCH --account=CHANGE_ME\nset -euo pipefail\n",
                                "\nMASTER_PORT=$((29500 + SLURM_JOB_ID % 1000))\n",
                                "\nsrun --nodes=4 --ntasks-per-node=1 --cpus-per-task=\"${SLURM_CPUS_ON_NODE:-1}\" bash launch.sh",
                                NULL});
    scripts_parse(out);
    free(out);
}

/* The installed torch's own torchrun parser takes a two-node launch.sh's arguments: a shim named
 * torchrun on PATH hands them to torch.distributed.run's parser. Skipped without torch. */
Test(launch, torchrun_of_the_installed_torch_parses_the_flags)
{
    struct ts_run r;
    cr_assert_eq(ts_exec(&r, "/bin/sh", NULL, NULL,
                         (const char *const[]){"-c", "python3 -c 'import torch.distributed.run' 2>/dev/null", NULL}),
                 0);
    int have = r.status == 0;
    ts_run_free(&r);
    if (!have) cr_skip_test("python3 cannot import torch.distributed.run: no torchrun parser to check against");
    const char *sets[] = {"model_kind=nlp", "team=pytorch", "accelerator=h100-sxm", "model_params=1e8", "devices=16",
                          "nodes=2", NULL};
    char *out = emit(sets, "torchrun-real");
    char *shim = ts_path(out, "torchrun");
    cr_assert_eq(ts_write_str(shim, "#!/bin/sh\nexec python3 -c 'import sys; from torch.distributed.run import get_args_parser; "
                                    "get_args_parser().parse_args(sys.argv[1:]); print(\"parsed\")' \"$@\"\n"),
                 0);
    cr_assert_eq(chmod(shim, 0700), 0);
    char cmd[4500];
    snprintf(cmd, sizeof cmd, "PATH='%s':\"$PATH\" bash '%s/launch.sh'", out, out);
    cr_assert_eq(ts_exec(&r, "/bin/sh", NULL, NULL, (const char *const[]){"-c", cmd, NULL}), 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "parsed"), "%s%s", r.out, r.err);
    ts_run_free(&r);
    free(shim);
    free(out);
}

/* The files' counts read as the plan's do, with separators: 2,000 GPUs, a global batch of 2,000. */
Test(launch, counts_in_the_files_have_separators)
{
    const char *sets[] = {"model_kind=llm", "team=pytorch", "accelerator=h100-sxm", "model_params=70e9", "devices=2000",
                          "nodes=250", "tokens=1.4e12", NULL};
    char *out = emit(sets, "two-thousand");
    char *readme = read_in(out, "README.txt"), *launch = read_in(out, "launch.sh");
    cr_expect(strstr(readme, "Plan: 2,000 x h100-sxm on 250 nodes of 8") != NULL, "%s", readme);
    cr_expect(strstr(readme, "x 250 data-parallel ranks = 2,000 per step") != NULL, "%s", readme);
    cr_expect(strstr(launch, "# fwadvisor launch: 2,000 x h100-sxm") != NULL, "%s", launch);
    free(readme);
    free(launch);
    free(out);
}
