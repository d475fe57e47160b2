/* The answer keys: one row per key, and for each its choices with their labels and help. */
#include "knowledge/answer_keys.h"

#include "common/i18n.h"

#include <string.h>

#define CHOICE(value, label, help) {value, label, help},
#define VALUE(value, label, help) value,
/* A choice table and its length, counted by the compiler. */
#define CHOICES(table) table, (int)(sizeof table / sizeof table[0])

static const struct ans_choice stages[] = {
    {"learning", N_("Learning"), N_("First models: an easy start and many tutorials (seed 002 Q1: PyTorch + torchvision, or Keras).")},
    {"research", N_("Research"), N_("New ideas and papers: debugging and published code matter most (seed 002: research -> PyTorch).")},
    {"prototype", N_("Prototype"), N_("A product whose architecture is not settled: iterate fast (seed 003: startups start with PyTorch).")},
    {"production", N_("Production"), N_("Shipping and keeping a model: deployment, maturity and maintenance weigh more (seeds 000, 003).")},
};
/* The training hardware; A rows are accelerator platforms (the accelerator catalog's vendors),
 * C rows the others. */
#define HARDWARE(C, A) \
    C("auto", N_("Detected (auto)"), N_("What fwadvisor found on this machine: the latest probe run, else the device nodes.")) \
    A("nvidia", N_("NVIDIA GPUs"), N_("All three major frameworks support NVIDIA well; match CUDA and cuDNN versions (seed 001).")) \
    A("amd", N_("AMD GPUs"), N_("PyTorch has official ROCm builds; TensorFlow and JAX carry more set-up risk (seed 001).")) \
    A("tpu", N_("Google TPUs"), N_("JAX is TPU-native, TensorFlow supported; PyTorch/XLA is in flux (seeds 000, 001).")) \
    A("apple", N_("Apple Silicon"), N_("PyTorch MPS and MLX; jax-metal is dead and tensorflow-metal broken since TF 2.18.")) \
    A("intel", N_("Intel GPUs"), N_("Stock PyTorch XPU (IPEX ended after 2.8); others experimental.")) \
    A("ascend", N_("Huawei Ascend"), N_("MindSpore is first-class; PyTorch through torch_npu; PaddlePaddle via plug-ins.")) \
    A("trainium", N_("AWS Trainium (Neuron)"), \
      N_("Neuron SDK: PyTorch through TorchNeuron (beta), a beta JAX plug-in, no TensorFlow (AWS docs).")) \
    A("gaudi", "Intel Gaudi", N_("Gaudi software, not XPU: PyTorch on hpu, Intel's DeepSpeed, vllm-gaudi; no JAX or TF (Intel docs).")) \
    C("cpu", N_("CPU only"), N_("Every framework runs; training speed is what a probe measures on this machine."))
#define SKIP(value, label, help)
static const struct ans_choice hardware[] = {HARDWARE(CHOICE, CHOICE)};
const char *const ans_hardware[] = {HARDWARE(VALUE, VALUE) NULL};
const char *const ans_accelerator_vendors[] = {HARDWARE(SKIP, VALUE) NULL};
static const struct ans_choice oses[] = {
    {"linux", "Linux", N_("Every framework's first platform.")},
    {"windows", "Windows", N_("TensorFlow lost native GPU support after 2.10 (use WSL2); JAX GPU needs WSL2.")},
    {"macos", "macOS", N_("Apple GPUs through PyTorch MPS or MLX; no CUDA.")},
};
static const struct ans_choice devices[] = {
    {"1", "1", N_("One device: no distributed stack needed (seed 002: PyTorch AMP on one GPU).")},
    {"2", "2", N_("Data parallel across two devices.")},
    {"4", "4", N_("4-16 devices: DDP is the robust choice (seed 002).")},
    {"8", "8", N_("One 8-GPU node: seed 001's scaling anecdote (DDP ~95%, MirroredStrategy ~92%, pmap ~98%).")},
    {"16", "16", N_("4-16 devices: DDP, FSDP when the model does not fit (seed 002).")},
    {"32", "32", N_("A few nodes: sharded data parallel when the model is large.")},
    {"64", "64", N_("Several nodes: sharded data parallel (ZeRO, FSDP) when the model is large.")},
    {"128", "128", N_("Hundreds of devices: 3D parallelism for large models (seed 002).")},
    {"256", "256", N_("A TPU pod slice or a GPU cluster.")},
    {"512", "512", N_("A large cluster.")},
    /* xgettext:no-c-format (a percentage, not a directive) */
    {"1024", "1,024", N_("Thousand-card scale: communication may take 30% of the time (seed 003).")},
    {"2048", "2,048", N_("Seed 002 Q2: 2000 cards -> PyTorch + FSDP/DeepSpeed, or TPU pods.")},
    {"4096", "4,096", N_("Frontier-scale training.")},
};
static const struct ans_choice nodes[] = {
    {"1", "1", N_("One machine.")}, {"2", "2", N_("Two machines: the network joins the picture.")},
    {"4", "4", N_("Four machines.")}, {"8", "8", N_("Eight machines.")}, {"16", "16", N_("Sixteen machines.")},
    {"32", "32", N_("A cluster.")}, {"64", "64", N_("A cluster.")}, {"128", "128", N_("A large cluster.")},
    {"256", "256", N_("A large cluster.")}, {"512", "512", N_("A very large cluster.")},
};
#define MODEL_KINDS(C) \
    C("vision", N_("Vision"), N_("Image models: torchvision, timm, Keras applications (seed 002 Q1).")) \
    C("nlp", "NLP", N_("Text models below LLM scale.")) \
    C("llm", "LLM", N_("Large language models: memory plans include activations (Korthikanti et al.).")) \
    C("recsys", N_("Recommender"), N_("Embedding-heavy models (seed 001's custom-gradient anecdote).")) \
    C("rl", N_("Reinforcement learning"), N_("JAX's functional style suits RL research (seed 002).")) \
    C("diffusion", N_("Diffusion"), N_("Image generation models.")) \
    C("tabular", N_("Tabular"), N_("Tabular data.")) \
    C("other", N_("Other"), N_("Anything else."))
static const struct ans_choice model_kinds[] = {MODEL_KINDS(CHOICE)};
const char *const ans_model_kinds[] = {MODEL_KINDS(VALUE) NULL};
static const struct ans_choice model_params[] = {
    {"1e5", N_("100 thousand"), N_("A toy model.")}, {"1e6", N_("1 million"), N_("Tiny: a CPU trains it.")},
    {"1e7", N_("10 million"), N_("Small: one GPU easily.")}, {"1e8", N_("100 million"), N_("BERT-base scale.")},
    {"1e9", N_("1 billion"), N_("16 GB of Adam model states alone (ZeRO paper).")},
    {"7e9", N_("7 billion"), N_("112 GB of model states: sharding or offload on 80 GB GPUs.")},
    {"1.3e10", N_("13 billion"), N_("Seed 001: 13B on 8 V100s with DeepSpeed ZeRO.")},
    {"3e10", N_("30 billion"), N_("480 GB of model states: sharded across nodes, or LoRA on a few GPUs.")},
    {"7e10", N_("70 billion"), N_("Chinchilla-size: multi-node sharded training.")},
    {"1.75e11", N_("175 billion"), N_("GPT-3 scale: 3D parallelism (Megatron, DeepSpeed).")},
    {"4.05e11", N_("405 billion"), N_("Llama 3.1 405B: 16,384 H100s with 4D parallelism.")},
    {"1e12", N_("1 trillion"), N_("Seed 002 Q3: GPT-4 class: JAX or PyTorch at scale.")},
};
/* Besides the frameworks of the knowledge base (each offered by its name and summary). */
static const struct ans_choice teams[] = {
    {"none", N_("None yet"), N_("New to frameworks: Keras and fastai give a gentle start (seed 002).")},
};
static const struct ans_choice functional[] = {
    {"true", N_("Yes"), N_("Seed 002's tree: a functional team -> JAX (pure functions, grad/jit/vmap).")},
    {"false", N_("No"), N_("Then JAX's functional style is its steepest cost (seed 001: 3 months of PyTorch first).")},
};
static const struct ans_choice higher_order_grad[] = {
    {"true", N_("Yes"), N_("Seed 002: JAX composes grad freely, which meta-learning needs.")},
    {"false", N_("No"), N_("Ordinary first-order training.")},
};
static const struct ans_choice deploys[] = {
    {"none", N_("Nowhere yet"), N_("No deployment target.")},
    {"server", N_("Servers"), N_("LLMs: vLLM, SGLang, TensorRT-LLM; other models: Triton, ONNX Runtime, OpenVINO.")},
    {"mobile", N_("Mobile apps"), N_("Seed 002's tree: mobile -> TensorFlow Lite (now LiteRT); ExecuTorch for PyTorch.")},
    {"edge", N_("Edge devices"), N_("Seed 002 Q4: a Raspberry Pi -> TF Lite or ONNX Runtime; Jetson -> TensorRT.")},
    {"browser", N_("Browsers"), N_("TF.js (deprioritized) or ONNX Runtime Web.")},
};
static const struct ans_choice priorities[] = {
    {"iteration", N_("Iteration speed"), N_("Debugging and ecosystem weigh more (seed 003: PyTorch for fast iteration).")},
    {"cost", N_("Compute cost"),
     /* xgettext:no-c-format (a percentage, not a directive) */
     N_("Training and memory efficiency weigh more (seed 003: JAX may save 20% compute, needs 30% more talent budget).")},
    {"stability", N_("Stability"),
     N_("Maturity and maintenance weigh more; native strategies (seed 003: TensorFlow in established production).")},
};
static const struct ans_choice prices[] = {
    {"0.5", "0.50", N_("Per device and hour, any currency.")}, {"1", "1.00", N_("Per device and hour.")},
    {"2", "2.00", N_("Per device and hour.")}, {"2.5", "2.50", N_("Per device and hour.")},
    {"4", "4.00", N_("Per device and hour.")}, {"8", "8.00", N_("Per device and hour.")},
};
static const struct ans_choice no_price = {NULL, N_("No price"), N_("The plan shows hours only.")};
/* A Mac's unified memory: the configurations Apple sells (M1 to M5 families), the largest being
 * what the catalog lists; the answer takes any number. */
static const struct ans_choice memories[] = {
    {"8", "8 GB", N_("The smallest M1-M3 machines.")}, {"16", "16 GB", N_("A base MacBook Air or MacBook Pro.")},
    {"24", "24 GB", N_("M2-M5 MacBook Air and Pro options.")}, {"32", "32 GB", N_("The largest M5.")},
    {"36", "36 GB", N_("M3 Max and M4 Max with fewer GPU cores.")}, {"48", "48 GB", N_("M4 Pro and M4 Max options.")},
    {"64", "64 GB", N_("M5 Pro's largest; Max options.")}, {"96", "96 GB", N_("M2 Max, M3 Ultra options.")},
    {"128", "128 GB", N_("The largest M3, M4 and M5 Max.")}, {"192", "192 GB", N_("The largest M2 Ultra.")},
    {"256", "256 GB", N_("M3 Ultra option.")}, {"512", "512 GB", N_("The largest M3 Ultra.")},
};
static const struct ans_choice catalog_memory = {
    NULL, N_("The device model's (catalog)"), N_("The catalog's memory for the device model: a chip's largest configuration.")};
#define DEPLOY_HARDWARE(C) \
    C("auto", N_("Same as training / device CPU (auto)"), N_("Servers: the training hardware; edge and phones: their CPU.")) \
    C("cpu", "CPU", N_("x86 or Arm CPUs: ONNX Runtime, LiteRT, ExecuTorch (XNNPACK).")) \
    C("nvidia", N_("NVIDIA GPU or Jetson"), N_("Servers: vLLM, TensorRT-LLM, Triton; Jetson boards: TensorRT.")) \
    C("amd", "AMD GPU", N_("vLLM and SGLang on ROCm; ONNX Runtime with MIGraphX (no Triton on AMD).")) \
    C("apple", N_("Apple device"), N_("iPhone, iPad, Mac: Core ML, or ExecuTorch's Core ML back-end.")) \
    C("qualcomm", N_("Qualcomm NPU"), N_("Snapdragon phones and boards: ExecuTorch QNN, LiteRT and ONNX Runtime QNN.")) \
    C("intel", N_("Intel CPU, GPU or NPU"), N_("OpenVINO is Intel's tuned path.")) \
    C("tpu", "Google TPU", N_("LLMs: JetStream or vLLM on TPU.")) \
    C("ascend", N_("Huawei Ascend"), N_("MindIE, vLLM (vllm-ascend) or MindSpore Lite.")) \
    C("trainium", N_("AWS Trainium or Inferentia"), N_("LLMs: the vLLM Neuron plug-in or NxD Inference (Neuron docs).")) \
    C("gaudi", "Intel Gaudi", N_("LLMs: vLLM through vllm-gaudi, or Optimum for Intel Gaudi (Gaudi docs)."))
static const struct ans_choice deploy_hardware[] = {DEPLOY_HARDWARE(CHOICE)};
const char *const ans_deploy_hardware[] = {DEPLOY_HARDWARE(VALUE) NULL};
static const struct ans_choice assumed_device = {
    NULL, N_("Detected, or the usual one (assumed)"),
    N_("The detected device, else the vendor's usual one; the plan says which it assumed on its first line.")};
static const struct ans_choice precisions[] = {
    {"bf16", "BF16", N_("Mixed precision with BF16 activations: the usual choice on devices that have it.")},
    {"fp16", "FP16", N_("Mixed precision with FP16 and loss scaling: for devices without BF16.")},
    {"fp8", "FP8", N_("FP8 matrix products (Hopper and newer): twice BF16's dense peak.")},
    {"fp32", "FP32", N_("Full precision: the slowest, and twice the memory of BF16 for activations.")},
};
static const struct ans_choice finetunes[] = {
    {"full", N_("Full training"), N_("Every parameter trained: the full model states per device.")},
    {"lora", "LoRA", N_("Low-rank adapters on a frozen model: few trained parameters.")},
    {"qlora", "QLoRA", N_("LoRA on a 4-bit frozen model: the least memory.")},
};
static const struct ans_choice recomputes[] = {
    {"auto", N_("Planned (auto)"), N_("The planner recomputes only as much as it needs to fit.")},
    {"none", N_("None"), N_("Every activation kept.")},
    {"selective", N_("Selective"), N_("Attention's activations recomputed (Korthikanti et al.).")},
    {"full", N_("Full"), N_("Every layer recomputed from its input: the least memory, a third more compute.")},
};
static const struct ans_choice deploy_devices[] = {
    {"auto", N_("The target's usual device (auto)"),
     N_("mobile: an 8 GB phone; edge: a Jetson Orin Nano for nvidia, else a Raspberry Pi 5 8 GB; browser: a WebGPU tab; "
     "server on cpu: the host's memory.")},
    {"phone", N_("Phone (8 GB)"), N_("A flagship phone of 8 GB: about 6 GB for one app (iPhone 15 Pro, measured).")},
    {"rpi5-4gb", N_("Raspberry Pi 5 4 GB"), N_("Arm Cortex-A76 board; the OS keeps part of the 4 GB.")},
    {"rpi5-8gb", N_("Raspberry Pi 5 8 GB"), N_("Arm Cortex-A76 board; the OS keeps part of the 8 GB.")},
    {"rpi5-16gb", N_("Raspberry Pi 5 16 GB"), N_("Arm Cortex-A76 board; the OS keeps part of the 16 GB.")},
    {"jetson-orin-nano", "Jetson Orin Nano 8 GB", N_("NVIDIA edge module: 8 GB shared by CPU and GPU.")},
    {"jetson-agx-orin", "Jetson AGX Orin 64 GB", N_("NVIDIA edge module: 64 GB shared by CPU and GPU.")},
    {"browser", N_("Browser tab (WebGPU)"), N_("WebGPU buffers and a wasm32 heap: about 4 GB in practice.")},
    {"host", N_("CPU server"), N_("The server's RAM: host_memory_gb, else this machine's.")},
};
static const struct ans_choice kv_precisions[] = {
    {"bf16", "BF16", N_("The KV cache as the weights' BF16.")},
    {"fp8", "FP8", N_("Half the KV cache's memory, on devices with FP8.")},
    {"int8", "INT8", N_("Half the KV cache's memory, quantized.")},
};
static const struct ans_choice jobs[] = {
    {"pretrain", N_("Pre-training"), N_("Training from scratch: tokens default to 20 per parameter for an LLM (Chinchilla).")},
    {"finetune", N_("Fine-tuning"), N_("Adapting a trained model: batches of 16 sequences, tokens from dataset_tokens x epochs.")},
    {"serve", N_("Serving only"), N_("No training: the answer plans serving the model and nothing else.")},
};
static const struct ans_choice derived_job = {
    NULL, N_("Derived from the answers"),
    N_("finetune lora or qlora, dataset_tokens or epochs: finetune; a deploy target without tokens: serve; else pretrain.")};
static const struct ans_choice archs[] = {
    {"gpt3", N_("GPT-3 style"), N_("Multi-head attention and an MLP of 4 x hidden in two matrices (GPT-3, 2020).")},
    {"llama", N_("Llama style"), N_("Grouped-query attention (kv_heads) and a SwiGLU MLP of ffn_hidden in three matrices.")},
    {"moe", N_("Mixture of experts"), N_("Llama-style layers whose MLP is `experts` SwiGLU experts, top_k of them per token.")},
};
static const struct ans_choice lora_targets[] = {
    {"all", N_("Every linear layer"), N_("QLoRA's choice: adapters on every linear weight match full fine-tuning (Dettmers et al. 2023).")},
    {"attention", N_("Attention (Q, K, V, O)"), N_("Adapters on the four attention projections only.")},
    {"qv", N_("Q and V"), N_("The LoRA paper's choice (Hu et al. 2021) and PEFT's default for Llama: the fewest adapters.")},
};
/* Numbers the wizard suggests for the run's tokens, the sequence length and a fine-tune's data. */
static const struct ans_choice tokens[] = {
    {"1e9", N_("1 billion"), N_("A short run, or a small model.")},
    {"1e10", N_("10 billion"), N_("A small model trained well past its size.")},
    {"1e11", N_("100 billion"), N_("About 20 per parameter for a 5B model (Chinchilla).")},
    {"3e11", N_("300 billion"), N_("GPT-3's 300B tokens (Brown et al. 2020).")},
    {"1e12", N_("1 trillion"), N_("LLaMA 7B and 13B: 1T tokens (Touvron et al. 2023).")},
    {"1.4e12", N_("1.4 trillion"), N_("Chinchilla 70B and LLaMA 65B: 1.4T tokens.")},
    {"2e12", N_("2 trillion"), N_("Llama 2: 2T tokens (Touvron et al. 2023).")},
    {"1.5e13", N_("15 trillion"), N_("Llama 3: over 15T tokens (Meta, 2024).")},
};
static const struct ans_choice seq_lens[] = {
    {"512", "512", N_("BERT's sequences.")},
    {"1024", "1,024", N_("GPT-2's context.")},
    {"2048", "2,048", N_("GPT-3's and LLaMA's context.")},
    {"4096", "4,096", N_("Llama 2's context; DeepSeek-V3's pre-training sequences.")},
    {"8192", "8,192", N_("Llama 3's pre-training sequences; MLPerf's Llama 2 70B LoRA fine-tune.")},
    {"32768", "32,768", N_("Long-context fine-tuning: activations grow with the length.")},
};
static const struct ans_choice dataset_tokens[] = {
    {"1e7", N_("10 million"), N_("Tens of thousands of short instruction examples.")},
    {"1e8", N_("100 million"), N_("A large instruction or chat set.")},
    {"1e9", N_("1 billion"), N_("A domain corpus.")},
    {"1e10", N_("10 billion"), N_("Continued pre-training on a domain.")},
};
static const struct ans_choice epochs[] = {
    {"2", "2", N_("Two passes over the data set.")},
    {"3", "3", N_("Three passes: common in LoRA recipes for small data sets.")},
    {"5", "5", N_("Five passes: small data sets; watch for over-fitting.")},
};
/* Numbers the wizard suggests for a mixture of experts, from published models. */
static const struct ans_choice experts[] = {
    {"8", N_("8 experts"), N_("Mixtral 8x7B: 8 experts, 2 per token (Jiang et al. 2024).")},
    {"16", N_("16 experts"), N_("DBRX: 16 experts, 4 per token (Databricks, 2024).")},
    {"64", N_("64 experts"), N_("OLMoE 1B-7B: 64 experts, 8 per token (Muennighoff et al. 2024).")},
    {"128", N_("128 experts"), N_("Qwen3 235B-A22B: 128 experts, 8 per token (Qwen, 2025).")},
    {"256", N_("256 experts"), N_("DeepSeek-V3: 256 routed experts, 8 per token, one shared (DeepSeek-AI 2024).")},
};
static const struct ans_choice top_ks[] = {
    {"1", "Top-1", N_("Switch Transformer: each token to one expert (Fedus et al. 2021).")},
    {"2", "Top-2", N_("GShard and Mixtral: two experts per token (Lepikhin et al. 2020; Jiang et al. 2024).")},
    {"4", "Top-4", N_("DBRX: four of its 16 experts per token (Databricks, 2024).")},
    {"8", "Top-8", N_("DeepSeek-V3 and Qwen3: eight of 256 or 128 experts per token.")},
};
static const struct ans_choice derived_arch = {
    NULL, N_("Derived"), N_("moe with experts above 1, llama with ffn_hidden, else gpt3; a model or config file says its own.")};

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
