/* The answer keys: one row per key, and for each its choices with their labels and help. */
#include "knowledge/answer_keys.h"

#include <string.h>

#define CHOICE(value, label, help) {value, label, help},
#define VALUE(value, label, help) value,
/* A choice table and its length, counted by the compiler. */
#define CHOICES(table) table, (int)(sizeof table / sizeof table[0])

static const struct ans_choice stages[] = {
    {"learning", "Learning", "First models: an easy start and many tutorials (seed 002 Q1: PyTorch + torchvision, or Keras)."},
    {"research", "Research", "New ideas and papers: debugging and published code matter most (seed 002: research -> PyTorch)."},
    {"prototype", "Prototype", "A product whose architecture is not settled: iterate fast (seed 003: startups start with PyTorch)."},
    {"production", "Production", "Shipping and keeping a model: deployment, maturity and maintenance weigh more (seeds 000, 003)."},
};
/* The training hardware; A rows are accelerator platforms (the accelerator catalog's vendors),
 * C rows the others. */
#define HARDWARE(C, A) \
    C("auto", "Detected (auto)", "What fwadvisor found on this machine: the latest probe run, else the device nodes.") \
    A("nvidia", "NVIDIA GPUs", "All three major frameworks support NVIDIA well; match CUDA and cuDNN versions (seed 001).") \
    A("amd", "AMD GPUs", "PyTorch has official ROCm builds; TensorFlow and JAX carry more set-up risk (seed 001).") \
    A("tpu", "Google TPUs", "JAX is TPU-native, TensorFlow supported; PyTorch/XLA is in flux (seeds 000, 001).") \
    A("apple", "Apple Silicon", "PyTorch MPS and MLX; jax-metal is dead and tensorflow-metal broken since TF 2.18.") \
    A("intel", "Intel GPUs", "Stock PyTorch XPU (IPEX ended after 2.8); others experimental.") \
    A("ascend", "Huawei Ascend", "MindSpore is first-class; PyTorch through torch_npu; PaddlePaddle via plug-ins.") \
    A("trainium", "AWS Trainium (Neuron)", \
      "Neuron SDK: PyTorch through TorchNeuron (beta), a beta JAX plug-in, no TensorFlow (AWS docs).") \
    A("gaudi", "Intel Gaudi", "Gaudi software, not XPU: PyTorch on hpu, Intel's DeepSpeed, vllm-gaudi; no JAX or TF (Intel docs).") \
    C("cpu", "CPU only", "Every framework runs; training speed is what a probe measures on this machine.")
#define SKIP(value, label, help)
static const struct ans_choice hardware[] = {HARDWARE(CHOICE, CHOICE)};
const char *const ans_hardware[] = {HARDWARE(VALUE, VALUE) NULL};
const char *const ans_accelerator_vendors[] = {HARDWARE(SKIP, VALUE) NULL};
static const struct ans_choice oses[] = {
    {"linux", "Linux", "Every framework's first platform."},
    {"windows", "Windows", "TensorFlow lost native GPU support after 2.10 (use WSL2); JAX GPU needs WSL2."},
    {"macos", "macOS", "Apple GPUs through PyTorch MPS or MLX; no CUDA."},
};
static const struct ans_choice devices[] = {
    {"1", "1", "One device: no distributed stack needed (seed 002: PyTorch AMP on one GPU)."},
    {"2", "2", "Data parallel across two devices."},
    {"4", "4", "4-16 devices: DDP is the robust choice (seed 002)."},
    {"8", "8", "One 8-GPU node: seed 001's scaling anecdote (DDP ~95%, MirroredStrategy ~92%, pmap ~98%)."},
    {"16", "16", "4-16 devices: DDP, FSDP when the model does not fit (seed 002)."},
    {"32", "32", "A few nodes: sharded data parallel when the model is large."},
    {"64", "64", "Several nodes: sharded data parallel (ZeRO, FSDP) when the model is large."},
    {"128", "128", "Hundreds of devices: 3D parallelism for large models (seed 002)."},
    {"256", "256", "A TPU pod slice or a GPU cluster."},
    {"512", "512", "A large cluster."},
    {"1024", "1,024", "Thousand-card scale: communication may take 30% of the time (seed 003)."},
    {"2048", "2,048", "Seed 002 Q2: 2000 cards -> PyTorch + FSDP/DeepSpeed, or TPU pods."},
    {"4096", "4,096", "Frontier-scale training."},
};
static const struct ans_choice nodes[] = {
    {"1", "1", "One machine."}, {"2", "2", "Two machines: the network joins the picture."},
    {"4", "4", "Four machines."}, {"8", "8", "Eight machines."}, {"16", "16", "Sixteen machines."},
    {"32", "32", "A cluster."}, {"64", "64", "A cluster."}, {"128", "128", "A large cluster."},
    {"256", "256", "A large cluster."}, {"512", "512", "A very large cluster."},
};
#define MODEL_KINDS(C) \
    C("vision", "Vision", "Image models: torchvision, timm, Keras applications (seed 002 Q1).") \
    C("nlp", "NLP", "Text models below LLM scale.") \
    C("llm", "LLM", "Large language models: memory plans include activations (Korthikanti et al.).") \
    C("recsys", "Recommender", "Embedding-heavy models (seed 001's custom-gradient anecdote).") \
    C("rl", "Reinforcement learning", "JAX's functional style suits RL research (seed 002).") \
    C("diffusion", "Diffusion", "Image generation models.") \
    C("tabular", "Tabular", "Tabular data.") \
    C("other", "Other", "Anything else.")
static const struct ans_choice model_kinds[] = {MODEL_KINDS(CHOICE)};
const char *const ans_model_kinds[] = {MODEL_KINDS(VALUE) NULL};
static const struct ans_choice model_params[] = {
    {"1e5", "100 thousand", "A toy model."}, {"1e6", "1 million", "Tiny: a CPU trains it."},
    {"1e7", "10 million", "Small: one GPU easily."}, {"1e8", "100 million", "BERT-base scale."},
    {"1e9", "1 billion", "16 GB of Adam model states alone (ZeRO paper)."},
    {"7e9", "7 billion", "112 GB of model states: sharding or offload on 80 GB GPUs."},
    {"1.3e10", "13 billion", "Seed 001: 13B on 8 V100s with DeepSpeed ZeRO."},
    {"3e10", "30 billion", "480 GB of model states: sharded across nodes, or LoRA on a few GPUs."},
    {"7e10", "70 billion", "Chinchilla-size: multi-node sharded training."},
    {"1.75e11", "175 billion", "GPT-3 scale: 3D parallelism (Megatron, DeepSpeed)."},
    {"4.05e11", "405 billion", "Llama 3.1 405B: 16,384 H100s with 4D parallelism."},
    {"1e12", "1 trillion", "Seed 002 Q3: GPT-4 class: JAX or PyTorch at scale."},
};
/* Besides the frameworks of the knowledge base (each offered by its name and summary). */
static const struct ans_choice teams[] = {
    {"none", "None yet", "New to frameworks: Keras and fastai give a gentle start (seed 002)."},
};
static const struct ans_choice functional[] = {
    {"true", "Yes", "Seed 002's tree: a functional team -> JAX (pure functions, grad/jit/vmap)."},
    {"false", "No", "Then JAX's functional style is its steepest cost (seed 001: 3 months of PyTorch first)."},
};
static const struct ans_choice higher_order_grad[] = {
    {"true", "Yes", "Seed 002: JAX composes grad freely, which meta-learning needs."},
    {"false", "No", "Ordinary first-order training."},
};
static const struct ans_choice deploys[] = {
    {"none", "Nowhere yet", "No deployment target."},
    {"server", "Servers", "LLMs: vLLM, SGLang, TensorRT-LLM; other models: Triton, ONNX Runtime, OpenVINO."},
    {"mobile", "Mobile apps", "Seed 002's tree: mobile -> TensorFlow Lite (now LiteRT); ExecuTorch for PyTorch."},
    {"edge", "Edge devices", "Seed 002 Q4: a Raspberry Pi -> TF Lite or ONNX Runtime; Jetson -> TensorRT."},
    {"browser", "Browsers", "TF.js (deprioritized) or ONNX Runtime Web."},
};
static const struct ans_choice priorities[] = {
    {"iteration", "Iteration speed", "Debugging and ecosystem weigh more (seed 003: PyTorch for fast iteration)."},
    {"cost", "Compute cost",
     "Training and memory efficiency weigh more (seed 003: JAX may save 20% compute, needs 30% more talent budget)."},
    {"stability", "Stability",
     "Maturity and maintenance weigh more; native strategies (seed 003: TensorFlow in established production)."},
};
static const struct ans_choice prices[] = {
    {"0.5", "0.50", "Per device and hour, any currency."}, {"1", "1.00", "Per device and hour."},
    {"2", "2.00", "Per device and hour."}, {"2.5", "2.50", "Per device and hour."},
    {"4", "4.00", "Per device and hour."}, {"8", "8.00", "Per device and hour."},
};
static const struct ans_choice no_price = {NULL, "No price", "The plan shows hours only."};
/* A Mac's unified memory: the configurations Apple sells (M1 to M5 families), the largest being
 * what the catalog lists; the answer takes any number. */
static const struct ans_choice memories[] = {
    {"8", "8 GB", "The smallest M1-M3 machines."}, {"16", "16 GB", "A base MacBook Air or MacBook Pro."},
    {"24", "24 GB", "M2-M5 MacBook Air and Pro options."}, {"32", "32 GB", "The largest M5."},
    {"36", "36 GB", "M3 Max and M4 Max with fewer GPU cores."}, {"48", "48 GB", "M4 Pro and M4 Max options."},
    {"64", "64 GB", "M5 Pro's largest; Max options."}, {"96", "96 GB", "M2 Max, M3 Ultra options."},
    {"128", "128 GB", "The largest M3, M4 and M5 Max."}, {"192", "192 GB", "The largest M2 Ultra."},
    {"256", "256 GB", "M3 Ultra option."}, {"512", "512 GB", "The largest M3 Ultra."},
};
static const struct ans_choice catalog_memory = {
    NULL, "The device model's (catalog)", "The catalog's memory for the device model: a chip's largest configuration."};
#define DEPLOY_HARDWARE(C) \
    C("auto", "Same as training / device CPU (auto)", "Servers: the training hardware; edge and phones: their CPU.") \
    C("cpu", "CPU", "x86 or Arm CPUs: ONNX Runtime, LiteRT, ExecuTorch (XNNPACK).") \
    C("nvidia", "NVIDIA GPU or Jetson", "Servers: vLLM, TensorRT-LLM, Triton; Jetson boards: TensorRT.") \
    C("amd", "AMD GPU", "vLLM and SGLang on ROCm; ONNX Runtime with MIGraphX (no Triton on AMD).") \
    C("apple", "Apple device", "iPhone, iPad, Mac: Core ML, or ExecuTorch's Core ML back-end.") \
    C("qualcomm", "Qualcomm NPU", "Snapdragon phones and boards: ExecuTorch QNN, LiteRT and ONNX Runtime QNN.") \
    C("intel", "Intel CPU, GPU or NPU", "OpenVINO is Intel's tuned path.") \
    C("tpu", "Google TPU", "LLMs: JetStream or vLLM on TPU.") \
    C("ascend", "Huawei Ascend", "MindIE, vLLM (vllm-ascend) or MindSpore Lite.") \
    C("trainium", "AWS Trainium or Inferentia", "LLMs: the vLLM Neuron plug-in or NxD Inference (Neuron docs).") \
    C("gaudi", "Intel Gaudi", "LLMs: vLLM through vllm-gaudi, or Optimum for Intel Gaudi (Gaudi docs).")
static const struct ans_choice deploy_hardware[] = {DEPLOY_HARDWARE(CHOICE)};
const char *const ans_deploy_hardware[] = {DEPLOY_HARDWARE(VALUE) NULL};
static const struct ans_choice assumed_device = {
    NULL, "Detected, or the usual one (assumed)",
    "The detected device, else the vendor's usual one; the plan says which it assumed on its first line."};
static const struct ans_choice precisions[] = {
    {"bf16", "BF16", "Mixed precision with BF16 activations: the usual choice on devices that have it."},
    {"fp16", "FP16", "Mixed precision with FP16 and loss scaling: for devices without BF16."},
    {"fp8", "FP8", "FP8 matrix products (Hopper and newer): twice BF16's dense peak."},
    {"fp32", "FP32", "Full precision: the slowest, and twice the memory of BF16 for activations."},
};
static const struct ans_choice finetunes[] = {
    {"full", "Full training", "Every parameter trained: the full model states per device."},
    {"lora", "LoRA", "Low-rank adapters on a frozen model: few trained parameters."},
    {"qlora", "QLoRA", "LoRA on a 4-bit frozen model: the least memory."},
};
static const struct ans_choice recomputes[] = {
    {"auto", "Planned (auto)", "The planner recomputes only as much as it needs to fit."},
    {"none", "None", "Every activation kept."},
    {"selective", "Selective", "Attention's activations recomputed (Korthikanti et al.)."},
    {"full", "Full", "Every layer recomputed from its input: the least memory, a third more compute."},
};
static const struct ans_choice deploy_devices[] = {
    {"auto", "The target's usual device (auto)",
     "mobile: an 8 GB phone; edge: a Jetson Orin Nano for nvidia, else a Raspberry Pi 5 8 GB; browser: a WebGPU tab; "
     "server on cpu: the host's memory."},
    {"phone", "Phone (8 GB)", "A flagship phone of 8 GB: about 6 GB for one app (iPhone 15 Pro, measured)."},
    {"rpi5-4gb", "Raspberry Pi 5 4 GB", "Arm Cortex-A76 board; the OS keeps part of the 4 GB."},
    {"rpi5-8gb", "Raspberry Pi 5 8 GB", "Arm Cortex-A76 board; the OS keeps part of the 8 GB."},
    {"rpi5-16gb", "Raspberry Pi 5 16 GB", "Arm Cortex-A76 board; the OS keeps part of the 16 GB."},
    {"jetson-orin-nano", "Jetson Orin Nano 8 GB", "NVIDIA edge module: 8 GB shared by CPU and GPU."},
    {"jetson-agx-orin", "Jetson AGX Orin 64 GB", "NVIDIA edge module: 64 GB shared by CPU and GPU."},
    {"browser", "Browser tab (WebGPU)", "WebGPU buffers and a wasm32 heap: about 4 GB in practice."},
    {"host", "CPU server", "The server's RAM: host_memory_gb, else this machine's."},
};
static const struct ans_choice kv_precisions[] = {
    {"bf16", "BF16", "The KV cache as the weights' BF16."},
    {"fp8", "FP8", "Half the KV cache's memory, on devices with FP8."},
    {"int8", "INT8", "Half the KV cache's memory, quantized."},
};
static const struct ans_choice jobs[] = {
    {"pretrain", "Pre-training", "Training from scratch: tokens default to 20 per parameter for an LLM (Chinchilla)."},
    {"finetune", "Fine-tuning", "Adapting a trained model: batches of 16 sequences, tokens from dataset_tokens x epochs."},
    {"serve", "Serving only", "No training: the answer plans serving the model and nothing else."},
};
static const struct ans_choice derived_job = {
    NULL, "Derived from the answers",
    "finetune lora or qlora, dataset_tokens or epochs: finetune; a deploy target without tokens: serve; else pretrain."};
static const struct ans_choice archs[] = {
    {"gpt3", "GPT-3 style", "Multi-head attention and an MLP of 4 x hidden in two matrices (GPT-3, 2020)."},
    {"llama", "Llama style", "Grouped-query attention (kv_heads) and a SwiGLU MLP of ffn_hidden in three matrices."},
    {"moe", "Mixture of experts", "Llama-style layers whose MLP is `experts` SwiGLU experts, top_k of them per token."},
};
static const struct ans_choice lora_targets[] = {
    {"all", "Every linear layer", "QLoRA's choice: adapters on every linear weight match full fine-tuning (Dettmers et al. 2023)."},
    {"attention", "Attention (Q, K, V, O)", "Adapters on the four attention projections only."},
    {"qv", "Q and V", "The LoRA paper's choice (Hu et al. 2021) and PEFT's default for Llama: the fewest adapters."},
};
/* Numbers the wizard suggests for the run's tokens, the sequence length and a fine-tune's data. */
static const struct ans_choice tokens[] = {
    {"1e9", "1 billion", "A short run, or a small model."},
    {"1e10", "10 billion", "A small model trained well past its size."},
    {"1e11", "100 billion", "About 20 per parameter for a 5B model (Chinchilla)."},
    {"3e11", "300 billion", "GPT-3's 300B tokens (Brown et al. 2020)."},
    {"1e12", "1 trillion", "LLaMA 7B and 13B: 1T tokens (Touvron et al. 2023)."},
    {"1.4e12", "1.4 trillion", "Chinchilla 70B and LLaMA 65B: 1.4T tokens."},
    {"2e12", "2 trillion", "Llama 2: 2T tokens (Touvron et al. 2023)."},
    {"1.5e13", "15 trillion", "Llama 3: over 15T tokens (Meta, 2024)."},
};
static const struct ans_choice seq_lens[] = {
    {"512", "512", "BERT's sequences."},
    {"1024", "1,024", "GPT-2's context."},
    {"2048", "2,048", "GPT-3's and LLaMA's context."},
    {"4096", "4,096", "Llama 2's context; DeepSeek-V3's pre-training sequences."},
    {"8192", "8,192", "Llama 3's pre-training sequences; MLPerf's Llama 2 70B LoRA fine-tune."},
    {"32768", "32,768", "Long-context fine-tuning: activations grow with the length."},
};
static const struct ans_choice dataset_tokens[] = {
    {"1e7", "10 million", "Tens of thousands of short instruction examples."},
    {"1e8", "100 million", "A large instruction or chat set."},
    {"1e9", "1 billion", "A domain corpus."},
    {"1e10", "10 billion", "Continued pre-training on a domain."},
};
static const struct ans_choice epochs[] = {
    {"2", "2", "Two passes over the data set."},
    {"3", "3", "Three passes: common in LoRA recipes for small data sets."},
    {"5", "5", "Five passes: small data sets; watch for over-fitting."},
};
/* Numbers the wizard suggests for a mixture of experts, from published models. */
static const struct ans_choice experts[] = {
    {"8", "8 experts", "Mixtral 8x7B: 8 experts, 2 per token (Jiang et al. 2024)."},
    {"16", "16 experts", "DBRX: 16 experts, 4 per token (Databricks, 2024)."},
    {"64", "64 experts", "OLMoE 1B-7B: 64 experts, 8 per token (Muennighoff et al. 2024)."},
    {"128", "128 experts", "Qwen3 235B-A22B: 128 experts, 8 per token (Qwen, 2025)."},
    {"256", "256 experts", "DeepSeek-V3: 256 routed experts, 8 per token, one shared (DeepSeek-AI 2024)."},
};
static const struct ans_choice top_ks[] = {
    {"1", "Top-1", "Switch Transformer: each token to one expert (Fedus et al. 2021)."},
    {"2", "Top-2", "GShard and Mixtral: two experts per token (Lepikhin et al. 2020; Jiang et al. 2024)."},
    {"4", "Top-4", "DBRX: four of its 16 experts per token (Databricks, 2024)."},
    {"8", "Top-8", "DeepSeek-V3 and Qwen3: eight of 256 or 128 experts per token."},
};
static const struct ans_choice derived_arch = {
    NULL, "Derived", "moe with experts above 1, llama with ffn_hidden, else gpt3; a model or config file says its own."};

/* name, type, choices, min, min_exclusive, default choice, default number, unset choice, and for
 * a list of ids its table and what one row is */
const struct ans_key ans_keys[] = {
    {"stage", ANS_ENUM, CHOICES(stages), 0, 0, 1, 0, NULL, NULL, NULL},
    {"hardware", ANS_ENUM, CHOICES(hardware), 0, 0, 0, 0, NULL, NULL, NULL},
    {"os", ANS_ENUM, CHOICES(oses), 0, 0, -1, 0, NULL, NULL, NULL},
    {"devices", ANS_INT, CHOICES(devices), 1, 0, -1, 1, NULL, NULL, NULL},
    {"nodes", ANS_INT, CHOICES(nodes), 1, 0, -1, 1, NULL, NULL, NULL},
    {"device_memory_gb", ANS_NUMBER, CHOICES(memories), 0, 1, -1, 0, &catalog_memory, NULL, NULL},
    {"model_kind", ANS_ENUM, CHOICES(model_kinds), 0, 0, 7, 0, NULL, NULL, NULL},
    {"model_params", ANS_NUMBER, CHOICES(model_params), 1, 0, -1, 1e7, NULL, NULL, NULL},
    {"tokens", ANS_NUMBER, CHOICES(tokens), 0, 1, -1, 0, NULL, NULL, NULL},
    {"seq_len", ANS_INT, CHOICES(seq_lens), 1, 0, -1, 0, NULL, NULL, NULL},
    {"hidden", ANS_INT, NULL, 0, 1, 0, -1, 0, NULL, NULL, NULL},
    {"layers", ANS_INT, NULL, 0, 1, 0, -1, 0, NULL, NULL, NULL},
    {"heads", ANS_INT, NULL, 0, 1, 0, -1, 0, NULL, NULL, NULL},
    {"team", ANS_ID_LIST, CHOICES(teams), 0, 0, -1, 0, NULL, "frameworks", "framework"},
    {"functional", ANS_BOOL, CHOICES(functional), 0, 0, 1, 0, NULL, NULL, NULL},
    {"higher_order_grad", ANS_BOOL, CHOICES(higher_order_grad), 0, 0, 1, 0, NULL, NULL, NULL},
    {"deploy", ANS_ENUM, CHOICES(deploys), 0, 0, 0, 0, NULL, NULL, NULL},
    {"priority", ANS_ENUM, CHOICES(priorities), 0, 0, 0, 0, NULL, NULL, NULL},
    {"price_per_device_hour", ANS_NUMBER, CHOICES(prices), 0, 0, -1, 0, &no_price, NULL, NULL},
    {"deploy_hardware", ANS_ENUM, CHOICES(deploy_hardware), 0, 0, 0, 0, NULL, NULL, NULL},
    {"accelerator", ANS_ID, NULL, 0, 0, 0, -1, 0, &assumed_device, NULL, NULL},
    {"precision", ANS_ENUM, CHOICES(precisions), 0, 0, -1, 0, NULL, NULL, NULL},
    {"finetune", ANS_ENUM, CHOICES(finetunes), 0, 0, 0, 0, NULL, NULL, NULL},
    {"lora_rank", ANS_INT, NULL, 0, 1, 0, -1, 16, NULL, NULL, NULL},
    {"recompute", ANS_ENUM, CHOICES(recomputes), 0, 0, 0, 0, NULL, NULL, NULL},
    {"host_memory_gb", ANS_NUMBER, NULL, 0, 0, 1, -1, 0, NULL, NULL, NULL},
    {"active_params", ANS_NUMBER, NULL, 0, 1, 0, -1, 0, NULL, NULL, NULL},
    {"experts", ANS_INT, CHOICES(experts), 1, 0, -1, 0, NULL, NULL, NULL},
    {"serve_context", ANS_INT, NULL, 0, 1, 0, -1, 0, NULL, NULL, NULL},
    {"serve_batch", ANS_INT, NULL, 0, 1, 0, -1, 0, NULL, NULL, NULL},
    {"kv_heads", ANS_INT, NULL, 0, 1, 0, -1, 0, NULL, NULL, NULL},
    {"kv_precision", ANS_ENUM, CHOICES(kv_precisions), 0, 0, -1, 0, NULL, NULL, NULL},
    {"job", ANS_ENUM, CHOICES(jobs), 0, 0, -1, 0, &derived_job, NULL, NULL},
    {"dataset_tokens", ANS_NUMBER, CHOICES(dataset_tokens), 0, 1, -1, 0, NULL, NULL, NULL},
    {"epochs", ANS_NUMBER, CHOICES(epochs), 0, 1, -1, 0, NULL, NULL, NULL},
    {"deploy_device", ANS_ENUM, CHOICES(deploy_devices), 0, 0, 0, 0, NULL, NULL, NULL},
    {"arch", ANS_ENUM, CHOICES(archs), 0, 0, -1, 0, &derived_arch, NULL, NULL},
    {"ffn_hidden", ANS_INT, NULL, 0, 1, 0, -1, 0, NULL, NULL, NULL},
    {"top_k", ANS_INT, CHOICES(top_ks), 1, 0, -1, 0, NULL, NULL, NULL},
    {"shared_experts", ANS_INT, NULL, 0, 0, 0, -1, 0, NULL, NULL, NULL},
    {"expert_ffn_hidden", ANS_INT, NULL, 0, 1, 0, -1, 0, NULL, NULL, NULL},
    {"dense_layers", ANS_INT, NULL, 0, 0, 0, -1, 0, NULL, NULL, NULL},
    {"vocab", ANS_INT, NULL, 0, 1, 0, -1, 0, NULL, NULL, NULL},
    {"model", ANS_ID, NULL, 0, 0, 0, -1, 0, NULL, NULL, NULL},
    {"max_positions", ANS_INT, NULL, 0, 1, 0, -1, 0, NULL, NULL, NULL},
    {"lora_targets", ANS_ENUM, CHOICES(lora_targets), 0, 0, 0, 0, NULL, NULL, NULL},
};
const int ans_key_count = (int)(sizeof ans_keys / sizeof ans_keys[0]);
_Static_assert(sizeof ans_keys / sizeof ans_keys[0] == ANS_KEY_COUNT, "ans_keys and enum ans_index differ");

const struct ans_key *ans_key_find(const char *name)
{
    for (int i = 0; i < ans_key_count; i++)
        if (strcmp(ans_keys[i].name, name) == 0) return &ans_keys[i];
    return NULL;
}

int ans_key_index(const char *name)
{
    const struct ans_key *k = ans_key_find(name);
    return k ? (int)(k - ans_keys) : -1;
}

int ans_key_value_index(const struct ans_key *key, const char *value)
{
    for (int i = 0; value && i < key->nchoices; i++)
        if (strcmp(key->choices[i].value, value) == 0) return i;
    return -1;
}

int ans_key_allows(const struct ans_key *key, const char *value) { return ans_key_value_index(key, value) >= 0; }

const char *ans_key_nearest(const char *name)
{
    struct suggest s;
    suggest_init(&s, name);
    for (int i = 0; i < ans_key_count; i++) suggest_offer(&s, ans_keys[i].name);
    const struct ans_key *key = suggest_result(&s) ? ans_key_find(suggest_result(&s)) : NULL;
    return key ? key->name : NULL;
}
