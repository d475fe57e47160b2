/* Realistic situations across stages, hardware, scale, teams and deployment targets, each with
 * the framework, strategy and runtime an ML-infrastructure engineer would sign, the reason in
 * one sentence and the source that reason rests on (it must appear among the advice's reasons
 * or pitfalls). Several rows are the failures a review of the advisor found: a JAX team steered
 * to PyTorch by its stage, DeepSpeed on TPUs, Triton on AMD, LiteRT for a PyTorch mobile team,
 * MirroredStrategy for a 100B-parameter recommender. Expectations name what the reasons imply
 * ("no DeepSpeed on a TPU"), not incidental numbers of the memory model. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knowledge/advisor.h"
#include "knowledge/advisor_kb.h"
#include "tests/support.h"

static struct ts_advisor fx;
static struct adv_kb *akb;
static struct adv_result *res;
static char err[1024];

static void setup(void)
{
    cr_assert_eq(ts_advisor_open(&fx, err, sizeof err), 0, "%s", err);
    akb = fx.akb;
    res = fx.res;
}

static void teardown(void) { ts_advisor_close(&fx); }

TestSuite(scenarios, .init = setup, .fini = teardown);

/* Only arrays: Criterion copies parameters into the test process. */
struct scenario {
    char name[40];
    char sets[300];     /* --set style assignments, space-separated */
    char top[40];       /* accepted top frameworks */
    char strategy[80];  /* accepted strategies ("" any) */
    char runtime[80];   /* accepted runtimes ("" any) */
    char never[120];    /* strategies, runtimes or pitfalls that must not appear */
    char source[32];    /* the source the reason rests on */
    char why[300];
};

static struct scenario scenarios[] = {
    {"research_unknown_team", "stage=research hardware=nvidia model_kind=vision model_params=2.5e7", "pytorch", "single",
     "none", "", "seed-002",
     "Seed 002's tree sends academic research to PyTorch, and with no team preference its debugging and ecosystem lead."},
    {"jax_team_meta_learning", "stage=research hardware=nvidia team=jax functional=true higher_order_grad=true", "jax",
     "single", "none", "", "seed-000",
     "A JAX-fluent functional team doing meta-learning keeps JAX: seed 000's choose-what-you-know outweighs the research default."},
    {"jax_team_1b_llm_8_gpus", "stage=research hardware=nvidia team=jax model_kind=llm model_params=1e9 devices=8", "jax",
     "jax-sharding", "none", "zero1,zero2,zero3,fsdp,megatron", "seed-000",
     "The team knows JAX and a 1B LLM fits 8 GPUs with jit and shardings; nothing JAX cannot do is asked for."},
    {"empty_team_is_unknown", "stage=prototype hardware=nvidia", "pytorch", "single", "none", "", "seed-003",
     "An empty team is unknown, not new to frameworks: seed 003's startup default (PyTorch) holds, the Keras/fastai branch does not fire."},
    {"team_new_to_frameworks", "stage=prototype hardware=cpu team=none model_kind=tabular model_params=1e6", "keras,fastai",
     "single", "none", "", "seed-002",
     "Seed 002 sends quick validation by a team without framework experience to Keras or fastai."},
    {"first_image_classifier", "stage=learning hardware=cpu model_kind=vision model_params=5e6", "pytorch,keras", "single",
     "none", "", "seed-002", "Seed 002 Q1: PyTorch and torchvision for a first classifier, Keras with MobileNet on a budget."},
    {"tpu_pod_frontier_llm", "stage=production hardware=tpu devices=2048 nodes=512 model_kind=llm model_params=1e12", "jax",
     "jax-sharding", "", "zero1,zero2,zero3,zero3-offload,megatron,horovod,fsdp,fsdp-tp", "seed-001",
     "On TPUs JAX is native (seeds 000, 001) and Google's largest TPU models are JAX; DeepSpeed and Megatron do not run on TPUs."},
    {"pytorch_team_on_tpus", "stage=research hardware=tpu team=pytorch devices=64 nodes=16 model_kind=llm model_params=7e9",
     "pytorch", "torch-xla", "", "zero1,zero2,zero3,zero3-offload,megatron,fsdp,fsdp-tp,ddp,pit-cuda-cudnn,pit-migration-rollback", "torch-xla-spmd",
     "PyTorch reaches TPUs through torch_xla SPMD (FSDPv2), with TorchTPU coming; DeepSpeed, Megatron and CUDA FSDP do not run there."},
    {"tensorflow_team_on_tpus", "stage=production hardware=tpu team=tensorflow devices=32 nodes=8 model_kind=vision model_params=1e8",
     "tensorflow", "tf-tpu", "", "horovod,tf-mirrored", "tpu7x-docs",
     "TPUStrategy keeps the team's TensorFlow on TPUs, on v6e or older since TensorFlow is not supported on TPU7x."},
    {"gpu_cluster_2000_cards", "stage=production hardware=nvidia devices=2048 nodes=256 model_kind=llm model_params=1.75e11",
     "pytorch", "megatron,fsdp-tp", "", "ddp,horovod", "seed-002",
     "Seed 002 Q2: 2000 GPUs -> PyTorch; a 175B dense model needs tensor + pipeline/sharded parallelism (Megatron or FSDP2 + TP)."},
    {"dense_70b_on_256_gpus", "stage=production hardware=nvidia team=pytorch devices=256 nodes=32 model_kind=llm model_params=7e10",
     "pytorch", "megatron,fsdp-tp", "", "ddp,horovod", "megatron-core",
     "Very large dense models train with tensor parallelism inside a node on top of sharded data parallelism."},
    {"recommender_100b", "stage=production hardware=nvidia devices=16 nodes=2 model_kind=recsys model_params=1e11", "pytorch",
     "torchrec", "", "ddp,tf-mirrored,horovod", "torchrec-docs",
     "A 100B-parameter recommender is embedding tables: TorchRec shards them instead of replicating 1600 GB on every GPU."},
    {"recommender_100b_tf_team", "stage=production hardware=nvidia devices=16 nodes=2 model_kind=recsys model_params=1e11 team=tensorflow",
     "tensorflow", "tf-ps", "", "tf-mirrored,horovod", "tf-ps",
     "A TensorFlow team keeps TensorFlow and puts the embedding tables on parameter servers (ParameterServerStrategy)."},
    {"llm_7b_finetune_and_serve", "stage=prototype hardware=nvidia team=pytorch devices=8 model_kind=llm model_params=7e9 deploy=server",
     "pytorch", "zero1,zero2,zero3,fsdp", "vllm,sglang,tensorrt-llm", "ddp,horovod,tf-serving", "vllm-install",
     "112 GB of Adam states do not fit an 80 GB GPU replicated, so they are sharded; LLMs are served by an engine with paged KV cache."},
    {"llm_served_on_amd", "stage=production hardware=amd team=pytorch devices=8 model_kind=llm model_params=7e9 deploy=server",
     "pytorch", "", "vllm,sglang", "triton,tensorrt-llm,tensorrt", "vllm-install",
     "vLLM and SGLang run on ROCm; Triton and TensorRT-LLM are NVIDIA-only."},
    {"llm_served_on_ascend", "stage=production hardware=ascend devices=8 model_kind=llm model_params=7e9 deploy=server",
     "pytorch,mindspore", "", "mindie,vllm", "triton,tensorrt-llm,torch-xla,horovod", "vllm-install",
     "On Ascend, MindSpore or PyTorch (torch_npu) train and MindIE or vLLM (vllm-ascend) serve."},
    {"llm_served_on_tpu_by_jax_team", "stage=production hardware=tpu team=jax devices=8 nodes=2 model_kind=llm model_params=7e9 deploy=server",
     "jax", "jax-sharding", "jetstream,vllm", "triton,tensorrt-llm,pit-cuda-cudnn,pit-horovod", "vllm-install",
     "On TPUs LLMs are served by JetStream or vLLM's TPU back-end; no CUDA or Horovod pitfalls for a JAX team on TPUs."},
    {"vision_served_on_amd", "stage=production hardware=amd model_kind=vision model_params=2.5e7 deploy=server", "pytorch", "",
     "onnxruntime", "triton", "onnxruntime-docs",
     "Triton does not run on AMD GPUs; ONNX Runtime with MIGraphX serves the exported model there."},
    {"pytorch_team_mobile_app", "stage=production hardware=nvidia team=pytorch model_kind=vision model_params=5e6 deploy=mobile",
     "pytorch", "single", "executorch", "litert", "executorch-1.0",
     "A PyTorch team ships to phones with ExecuTorch 1.0 (torch.export -> .pte), its native path, not LiteRT."},
    {"tensorflow_team_mobile_app", "stage=production hardware=nvidia team=tensorflow model_kind=vision model_params=5e6 deploy=mobile",
     "tensorflow", "single", "litert", "executorch", "litert-migration",
     "A TensorFlow team ships .tflite models with LiteRT, formerly TensorFlow Lite."},
    {"unknown_team_mobile_app", "stage=production hardware=nvidia model_kind=vision model_params=5e6 deploy=mobile",
     "tensorflow,pytorch", "single", "litert,executorch", "", "seed-002",
     "Seed 002 leans to TensorFlow Lite for mobile, and PyTorch now has ExecuTorch 1.0: either, with the framework's own runtime."},
    {"raspberry_pi", "stage=prototype hardware=cpu model_kind=vision model_params=5e6 deploy=edge", "tensorflow,pytorch", "single",
     "litert,onnxruntime,executorch", "tensorrt,openvino,coreml", "seed-002",
     "Seed 002 Q4: TF Lite (LiteRT) or ONNX Runtime on a Raspberry Pi's Arm CPU; ExecuTorch's XNNPACK back-end is the PyTorch route."},
    {"jetson_edge_box", "stage=production hardware=nvidia team=pytorch model_kind=vision model_params=2.5e7 deploy=edge deploy_hardware=nvidia",
     "pytorch", "single", "tensorrt", "litert,triton,tensorrt-llm", "tensorrt-llm-jetson",
     "On Jetson-class NVIDIA edge devices a TensorRT engine built on the device is the standard path."},
    {"intel_cpu_servers", "stage=production hardware=nvidia model_kind=vision model_params=2.5e7 deploy=server deploy_hardware=intel",
     "pytorch", "single", "openvino", "triton,tensorrt", "openvino-docs",
     "Trained on GPUs, served on Intel CPUs: OpenVINO is Intel's tuned inference path."},
    {"ios_app_from_pytorch", "stage=production hardware=apple os=macos team=pytorch model_kind=vision model_params=5e6 deploy=mobile deploy_hardware=apple",
     "pytorch", "single", "coreml,executorch", "litert", "dist-coremltools-pytorch",
     "On iPhones Core ML uses the Neural Engine; ExecuTorch reaches it through its Core ML back-end."},
    {"browser_demo", "stage=prototype hardware=nvidia model_kind=vision model_params=5e6 deploy=browser", "pytorch,tensorflow",
     "single", "onnxruntime,tfjs", "", "tfjs-8546",
     "TF.js is deprioritized; ONNX Runtime Web takes models from any framework."},
    {"mac_laptop_learning_llms", "stage=learning hardware=apple os=macos model_kind=llm model_params=1e9", "pytorch,mlx", "single",
     "none", "", "fw-mlx-install", "On Apple silicon PyTorch's MPS back-end and MLX use the GPU; official JAX runs on the CPU there."},
    {"windows_gpu_beginner", "stage=learning hardware=nvidia os=windows model_kind=vision model_params=2.5e7", "pytorch", "single",
     "none", "pit-tf-windows-gpu", "tf-2.11.1",
     "TensorFlow lost native Windows GPU support after 2.10; PyTorch ships CUDA wheels for Windows."},
    {"ascend_70b_training", "stage=production hardware=ascend devices=64 nodes=8 model_kind=llm model_params=7e10", "pytorch,mindspore",
     "megatron,zero1,zero2,zero3", "", "torch-xla,horovod,fsdp-tp", "mindspore-2.5",
     "On Ascend, MindSpore is native and PyTorch runs Megatron through MindSpeed; no CUDA-only strategy applies."},
    {"seed_001_13b_on_8_v100", "stage=production hardware=nvidia team=pytorch devices=8 device_memory_gb=32 model_kind=llm model_params=1.3e10 priority=cost",
     "pytorch", "zero2,zero3,zero3-offload,fsdp-tp", "", "ddp,zero1,horovod", "seed-001",
     "Seed 001 trained 13B on eight V100s only with ZeRO-Offload: replicated states (208 GB) or ZeRO-1 cannot fit 32 GB, so "
     "the states are sharded eight ways (and the activations split by tensor parallelism) or offloaded."},
    {"tensorflow_production_stability", "stage=production hardware=nvidia team=tensorflow priority=stability model_kind=vision model_params=2.5e7 deploy=server",
     "tensorflow", "single", "triton,tf-serving", "", "seed-003",
     "Seed 003: keep TensorFlow in an established production system; Triton or TF Serving serve SavedModels."},
    {"functional_team_rl_meta_learning", "stage=prototype hardware=nvidia devices=8 model_kind=rl model_params=5e7 functional=true higher_order_grad=true",
     "jax", "jax-sharding", "none", "", "seed-002",
     "Seed 002: functional teams, reinforcement learning and gradients of gradients all point to JAX."},
    {"keras_team_on_tpus", "stage=prototype hardware=tpu team=keras devices=8 nodes=2 model_kind=vision model_params=5e7", "keras",
     "ddp,jax-sharding,tf-tpu", "", "zero1,zero2,zero3,megatron,horovod", "seed-000",
     "A Keras team keeps Keras 3, which reaches TPUs through the JAX backend's keras.distribution."},
    {"snapdragon_phone_pytorch", "stage=production hardware=nvidia team=pytorch model_kind=vision model_params=5e6 deploy=mobile deploy_hardware=qualcomm",
     "pytorch", "single", "executorch", "coreml,tensorrt", "executorch-1.0",
     "ExecuTorch's Qualcomm QNN back-end runs PyTorch models on Snapdragon NPUs."},
    {"intel_gpu_training", "stage=research hardware=intel model_kind=vision model_params=2.5e7", "pytorch", "single", "none", "",
     "ipex-eol", "Stock PyTorch supports Intel GPUs (XPU) since IPEX ended; the others are experimental at best."},
    {"llm_20b_on_one_gpu", "stage=research hardware=nvidia team=pytorch devices=1 model_kind=llm model_params=2e10", "pytorch",
     "zero3-offload", "none", "single", "deepspeed-estimators",
     "320 GB of model states cannot fit one 80 GB GPU: ZeRO-3 offload keeps optimizer states in host memory."},
    {"jax_team_tpu_pod_70b", "stage=research hardware=tpu team=jax devices=256 nodes=64 model_kind=llm model_params=7e10", "jax",
     "jax-sharding", "none", "zero1,zero2,zero3,megatron,horovod,pit-cuda-cudnn,pit-horovod,pit-torchscript", "jax-pmap-migrate",
     "JAX shards a 70B model over a pod with jit and NamedSharding; no CUDA or Horovod pitfalls concern it."},
    {"cost_first_llm_serving_nvidia", "stage=production hardware=nvidia team=pytorch devices=8 model_kind=llm model_params=7e9 deploy=server priority=cost",
     "pytorch", "", "tensorrt-llm", "triton,tf-serving", "tensorrt-llm-jetson",
     "When cost comes first, TensorRT-LLM's engines give the most tokens per NVIDIA GPU-hour."},
    {"tensorflow_team_llm_beyond_mirrored", "stage=research hardware=nvidia team=tensorflow devices=8 model_kind=llm model_params=7e9",
     "pytorch", "zero1,zero2,zero3,fsdp", "none", "tf-mirrored", "seed-003",
     "MirroredStrategy would replicate 112 GB of Adam states on 80 GB GPUs and TensorFlow has no sharded strategy: a need it cannot meet, so the team switches, with a migration plan."},
    {"atlas_edge_box", "stage=production hardware=ascend devices=8 model_kind=vision model_params=2.5e7 deploy=edge deploy_hardware=ascend",
     "pytorch,mindspore", "", "mindspore-lite,onnxruntime", "tensorrt,triton,litert", "mindspore-lite",
     "On Ascend edge devices MindSpore Lite or ONNX Runtime's CANN provider run the model."},
};

ParameterizedTestParameters(scenarios, expert_advice)
{
    return cr_make_param_array(struct scenario, scenarios, sizeof scenarios / sizeof scenarios[0]);
}

static int in_set(const char *id, const char *set)
{
    char copy[160];
    snprintf(copy, sizeof copy, "%s", set);
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (id && strcmp(t, id) == 0) return 1;
    return 0;
}

/* The source appears among the reasons of the advice (any framework's, the strategy's, the
 * runtime's) or its pitfalls, as the source or a further source. */
struct reason_list {
    const struct adv_reason *list;
    int n;
};

static int cites(const char *source)
{
    char cite[512];
    struct reason_list lists[ADV_MAX_FRAMEWORKS + 2];
    int nl = 0;
    for (int i = 0; i < res->ranking.count; i++)
        lists[nl++] = (struct reason_list){res->ranking.items[i].reasons, res->ranking.items[i].nreasons};
    lists[nl++] = (struct reason_list){res->strategy_reasons, res->nstrategy_reasons};
    lists[nl++] = (struct reason_list){res->runtime_reasons, res->nruntime_reasons};
    for (int l = 0; l < nl; l++)
        for (int i = 0; i < lists[l].n; i++) {
            adv_cite(lists[l].list[i].source, lists[l].list[i].also, cite, sizeof cite);
            if (strstr(cite, source)) return 1;
        }
    for (int i = 0; i < res->npitfalls; i++) {
        adv_cite(res->pitfalls[i].source, res->pitfalls[i].also, cite, sizeof cite);
        if (strstr(cite, source)) return 1;
    }
    return 0;
}

ParameterizedTest(struct scenario *sc, scenarios, expert_advice)
{
    struct answers a;
    cr_assert_eq(ts_answers_sets(&a, sc->sets, err, sizeof err), 0, "%s: %s", sc->name, err);
    cr_assert_eq(adv_recommend(akb, &a, NULL, res, err, sizeof err), KB_OK, "%s: %s", sc->name, err);
    const struct adv_framework *top = &res->ranking.items[0];
    cr_expect(!top->excluded && in_set(top->id, sc->top), "%s: top %s (%.1f), expected %s; second %s (%.1f). Why: %s", sc->name,
              top->id, top->score_tenths / 10.0, sc->top, res->ranking.items[1].id, res->ranking.items[1].score_tenths / 10.0,
              sc->why);
    if (sc->strategy[0])
        cr_expect(in_set(res->strategy, sc->strategy), "%s: strategy %s, expected %s. Why: %s", sc->name, res->strategy,
                  sc->strategy, sc->why);
    if (sc->runtime[0])
        cr_expect(in_set(res->runtime, sc->runtime), "%s: runtime %s, expected %s. Why: %s", sc->name, res->runtime,
                  sc->runtime, sc->why);
    cr_expect_not(in_set(res->strategy, sc->never), "%s: strategy %s must not be offered", sc->name, res->strategy);
    cr_expect_not(in_set(res->runtime, sc->never), "%s: runtime %s must not be offered", sc->name, res->runtime);
    for (int i = 0; i < res->nalternatives; i++)
        cr_expect_not(in_set(res->alternatives[i], sc->never), "%s: alternative %s must not be offered", sc->name,
                      res->alternatives[i]);
    for (int i = 0; i < res->npitfalls; i++)
        cr_expect_not(in_set(res->pitfalls[i].id, sc->never), "%s: pitfall %s does not concern this choice", sc->name,
                      res->pitfalls[i].id);
    cr_expect(cites(sc->source), "%s: the advice should rest on %s (%s)", sc->name, sc->source, sc->why);
    /* The pieces agree with each other: the strategy runs on the hardware for the framework
     * chosen, and the runtime takes that framework's model. */
    int fw = adv_fw_index(akb, top->id), s = adv_strategy_index(akb, res->strategy);
    int h = adv_hw_index(akb, answers_str(&res->answers, ANS_HARDWARE)), rt = adv_runtime_index(akb, res->runtime);
    cr_expect(s >= 0 && adv_strategy_runs_on(akb, s, fw, h), "%s: %s does not run %s on %s", sc->name, res->strategy, top->id,
              answers_str(&res->answers, ANS_HARDWARE));
    cr_expect(rt >= 0 && (strcmp(res->runtime, "none") == 0 || akb->rt[rt].path[fw] != PATH_NONE), "%s: %s does not take %s models",
              sc->name, res->runtime, top->id);
}

/* A mobile app with deploy_hardware left at auto plans for the phone's CPU (LiteRT for a
 * TensorFlow team) and says how to reach the other phones' runtimes: Core ML is listed as not on
 * that hardware, and the note names apple for iPhones. */
Test(scenarios, a_mobile_target_left_at_auto_names_the_other_phones)
{
    struct answers a;
    cr_assert_eq(ts_answers_sets(&a, "stage=production hardware=nvidia team=tensorflow model_kind=vision model_params=5e6 deploy=mobile",
                                 err, sizeof err),
                 0, "%s", err);
    cr_assert_eq(adv_recommend(akb, &a, NULL, res, err, sizeof err), KB_OK, "%s", err);
    cr_expect_str_eq(res->runtime, "litert");
    cr_expect(strstr(res->deploy_hardware_note, "auto -> cpu") && strstr(res->deploy_hardware_note, "set apple for iPhones"),
              "%s", res->deploy_hardware_note);
    int listed = 0;
    for (int i = 0; i < res->nruntime_reasons; i++)
        listed |= strstr(res->runtime_reasons[i].label, "Not on cpu hardware:") && strstr(res->runtime_reasons[i].label, "coreml");
    cr_expect(listed, "Core ML listed as not on the phone's CPU");
}

/* Seed 002's mixed-precision advice is for one accelerator card of up to 48 GB, as the seed
 * speaks of cards: a 24 or 48 GB GPU gets it; an 80 GB card and a CPU do not. */
static int strategy_says(const char *sets_text, const char *label)
{
    struct answers a;
    cr_assert_eq(ts_answers_sets(&a, sets_text, err, sizeof err), 0, "%s", err);
    cr_assert_eq(adv_recommend(akb, &a, NULL, res, err, sizeof err), KB_OK, "%s", err);
    for (int i = 0; i < res->nstrategy_reasons; i++)
        if (strcmp(res->strategy_reasons[i].label, label) == 0) return 1;
    return 0;
}

Test(scenarios, mixed_precision_advice_is_for_accelerator_cards)
{
    const char *amp = "One accelerator with up to 48 GB";
    cr_expect(strategy_says("hardware=nvidia devices=1 device_memory_gb=24 model_kind=vision model_params=2.5e7", amp));
    cr_expect(strategy_says("hardware=nvidia devices=1 device_memory_gb=48 model_kind=vision model_params=2.5e7", amp));
    cr_expect_not(strategy_says("hardware=nvidia devices=1 device_memory_gb=80 model_kind=vision model_params=2.5e7", amp));
    cr_expect_not(strategy_says("hardware=cpu devices=1 device_memory_gb=24 model_kind=tabular model_params=1e6", amp));
}

Test(scenarios, at_least_thirty_situations)
{
    cr_expect_geq(sizeof scenarios / sizeof scenarios[0], 30);
}
