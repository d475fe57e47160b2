-- The planner's numbers as data: how much of a device's dense peak well-tuned training reaches,
-- the memory the framework and allocator take, the default batch and vocabulary, LoRA/QLoRA
-- storage, FP8's realised gain, lost time at scale, and the published runs the plan is calibrated
-- against (docs/planner.md). Each rule states where its figure comes from; changing the plan means
-- editing these rows (or kb import), not C. Checked on 2026-12-01.

INSERT INTO sources (id, title, url, published, note) VALUES
 ('megatron-lm-2019', 'Shoeybi et al., Megatron-LM: Training Multi-Billion Parameter Language Models Using Model Parallelism',
  'arXiv:1909.08053', '2019-09-17',
  'A strong single-V100 baseline sustains 39 TFLOP/s, 30% of the 125 TFLOP/s peak; 8.3B parameters on 512 V100s reach 15.1 PFLOP/s (76% scaling).'),
 ('megatron-2021', 'Narayanan et al., Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM',
  'arXiv:2104.04473', '2021-04-09',
  'PTD-P: tensor parallel within a node, pipeline across nodes, data parallel over the rest; 1F1B pipeline bubble (p-1)/m, interleaved schedule (p-1)/(v m) at v times the point-to-point traffic; 52% of peak on 3,072 A100s for 1T parameters.'),
 ('flash-attention-2022', 'Dao et al., FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness',
  'arXiv:2205.14135', '2022-05-27',
  'Exact attention computed in tiles with the softmax statistics kept (fp32 log-sum-exp per row and head); the s x s score matrix is never stored, it is recomputed in the backward pass. PyTorch SDPA, Megatron (Transformer Engine) and JAX/Pallas use such kernels by default.'),
 ('lora-2021', 'Hu et al., LoRA: Low-Rank Adaptation of Large Language Models', 'arXiv:2106.09685', '2021-06-17',
  'Frozen base weights; trainable rank-r factors A (r x d_in) and B (d_out x r) per adapted matrix, r (d_in + d_out) parameters each.'),
 ('qlora-2023', 'Dettmers et al., QLoRA: Efficient Finetuning of Quantized LLMs', 'arXiv:2305.14314', '2023-05-23',
  'Base model in 4-bit NormalFloat (NF4), blocks of 64 with quantisation constants; double quantisation cuts the constants from 32/64 = 0.5 to 8/64 + 32/(64 x 256) = 0.127 bits per parameter; LoRA on all linear layers to match full fine-tuning; bf16 compute.'),
 ('llama1-2023', 'Touvron et al., LLaMA: Open and Efficient Foundation Language Models (Table 15)', 'arXiv:2302.13971', '2023-02-27',
  'GPU-hours on A100-80GB: OPT-175B 809,472 (992 GPUs); BLOOM-175B 1,082,880; LLaMA-65B 1,022,362 on 2,048 GPUs.'),
 ('llama2-2023', 'Touvron et al., Llama 2: Open Foundation and Fine-Tuned Chat Models (Table 1, Table 2)', 'arXiv:2307.09288', '2023-07-18',
  'All models 2T tokens, 4k context, global batch 4M tokens, vocabulary 32k; pretraining GPU-hours on A100-80GB: 7B 184,320, 13B 368,640, 34B 1,038,336, 70B 1,720,320 (RSC InfiniBand and RoCE clusters, 200 Gb/s endpoints, 350-400 W caps).'),
 ('llama3-2024', 'Llama Team, The Llama 3 Herd of Models', 'arXiv:2407.21783', '2024-07-23',
  '405B on up to 16,384 H100s (TP 8, CP, PP 16, DP), 38-43% BF16 MFU (400-430 TFLOP/s per GPU); 15.6T tokens; more than 90% effective training time, 466 job interruptions in 54 days of pretraining.'),
 ('llama31-model-card', 'Meta Llama 3.1 model card (training GPU-hours)', 'https://github.com/meta-llama/llama-models/blob/main/models/llama3_1/MODEL_CARD.md', '2024-07-23',
  'Training time on H100-80GB (700 W): 8B 1.46M, 70B 7.0M, 405B 30.84M GPU-hours; 39.3M cumulative.'),
 ('opt-2022', 'Zhang et al., OPT: Open Pre-trained Transformer Language Models', 'arXiv:2205.01068', '2022-05-02',
  'OPT-175B on 992 A100-80GB with FSDP and Megatron tensor parallelism (t = 8), 96 layers, hidden 12,288, 96 heads, sequence 2,048, batch 2M tokens, 180B tokens; up to 147 TFLOP/s per GPU; the logbook records many restarts over about two months.'),
 ('bloom-2022', 'BigScience, BLOOM: A 176B-Parameter Open-Access Multilingual Language Model', 'arXiv:2211.05100', '2022-11-09',
  '384 A100-80GB (48 nodes), Megatron-DeepSpeed with t = 4, p = 12, d = 8 and ZeRO stage 1; 70 layers, hidden 14,336, 112 heads, sequence 2,048; 366B tokens; about 150 TFLOP/s per GPU counting recomputation; about 3.5 months.'),
 ('pytorch-cuda-memory', 'PyTorch documentation: CUDA semantics, memory management', 'https://docs.pytorch.org/docs/stable/notes/cuda.html', 'undated',
  'The caching allocator keeps freed blocks and can fragment (expandable_segments reduces it); the CUDA context, cuBLAS workspaces and NCCL buffers are allocated outside the tensors'' own bytes.'),
 ('deepspeed-config', 'DeepSpeed configuration JSON: ZeRO optimizations', 'https://www.deepspeed.ai/docs/config-json/', 'undated',
  'Defaults: reduce_bucket_size 5e8 and allgather_bucket_size 5e8 elements (stages 1-2), stage3_prefetch_bucket_size 5e8, stage3_max_live_parameters 1e9.'),
 ('apple-working-set', 'Metal recommendedMaxWorkingSetSize on Apple silicon (AlexsJones/llmfit#570, sgl-project/sglang#21443, antirez/ds4#893)',
  'https://github.com/AlexsJones/llmfit/issues/570', '2026',
  'macOS caps the memory the GPU may wire at MTLDevice.recommendedMaxWorkingSetSize, typically about 65-75% of unified memory (about two thirds on 16 GB machines; 107.5 GiB of 128 GiB measured on an M5 Max); `sudo sysctl iogpu.wired_limit_mb=N` raises it until reboot.'),
 ('mi300x-vs-h200', 'MI300X vs H200: single-GPU inference and training comparison (alpharomercoma/MI300X-vs-H200, REPORT.md)',
  'https://github.com/alpharomercoma/MI300X-vs-H200/blob/main/REPORT.md', '2026',
  'On paper the MI300X leads (BF16 1,307.4 vs 989.4 TFLOP/s dense); measured 8B BF16 training on one GPU, the H200 is 1.32-1.40x faster, so the MI300X reaches about 0.55 x 989.4 / 1.36 / 1,307.4 = 0.31 of its peak where the H200 reaches 0.55.'),
 ('mlx-fused-vjp', 'ml-explore/mlx#3241: [Metal] Fused Flash Attention backward (VJP) kernels (open)',
  'https://github.com/ml-explore/mlx/pull/3241', '2026',
  'On Apple GPUs the backward pass of mx.fast.scaled_dot_product_attention is not fused: the unfused path keeps the s x s attention matrix (3.4 GB for the backward alone at L = 4096 in the pull request''s table); the fused Metal VJP is still under review.'),
 ('mixtral-2024', 'Jiang et al., Mixtral of Experts', 'arXiv:2401.04088', '2024-01-08',
  '8 experts per layer, 2 chosen per token (top-2 routing): 46.7B parameters in all, 12.9B active per token.');

INSERT INTO rules (id, kind, title, text, condition, effect, priority, source, as_of) VALUES
 ('plan-efficiency-default', 'rule_of_thumb', 'Compute efficiency without a published figure',
  'The time plan divides the FLOPs a step executes (recomputation included) by the dense peak times a compute efficiency, then adds communication and the pipeline bubble on their own. For a device without a published large-model figure it assumes 40%, the low end of published runs (PaLM 46.2% MFU; Megatron up to 56%).',
  '{}', '{"facts": {"compute_efficiency": 0.40}}', 0, 'palm-2022', '2026-12-01'),
 ('plan-efficiency-ampere', 'rule_of_thumb', 'Compute efficiency on A100',
  'Megatron with sequence parallelism and selective recomputation reached 54.2% MFU (530B) and 56.3% (1T) on A100s, bubble and communication included: the plan assumes 55% while computing.',
  '{"accelerator": ["a100-sxm4-40gb", "a100-sxm4-80gb"]}', '{"facts": {"compute_efficiency": 0.55}}', 5, 'korthikanti-2022', '2026-12-01'),
 ('plan-efficiency-hopper', 'rule_of_thumb', 'Compute efficiency on H100, H200 and Blackwell',
  'Megatron Core reaches 47% MFU on H100 clusters (GPT-3 175B) and Llama 3 405B ran at 38-43% on 16K H100s with tensor and pipeline parallel overheads: the plan assumes 50% while computing. Blackwell (B200, B300, GB200, GB300) has no published large-run figure yet and is planned the same way.',
  '{"accelerator": ["h100-sxm", "h200-sxm", "b200", "b300", "gb200", "gb300"]}', '{"facts": {"compute_efficiency": 0.50}}', 5, 'megatron-core', '2026-12-01'),
 ('plan-efficiency-volta', 'rule_of_thumb', 'Compute efficiency on V100',
  'A strong single-V100 baseline in the Megatron-LM paper sustained 39 TFLOP/s, 30% of the tensor peak: the plan assumes 30%.',
  '{"accelerator": ["v100-sxm2-32gb"]}', '{"facts": {"compute_efficiency": 0.30}}', 5, 'megatron-lm-2019', '2026-12-01'),
 ('plan-efficiency-tpu', 'rule_of_thumb', 'Compute efficiency on TPUs',
  'PaLM 540B reached 46.2% MFU and 57.8% hardware FLOPs utilisation (recomputation counted) on 6,144 TPU v4 chips: the plan assumes 55% while computing on any TPU.',
  '{"hardware": "tpu"}', '{"facts": {"compute_efficiency": 0.55}}', 5, 'palm-2022', '2026-12-01'),
 ('plan-efficiency-instinct', 'rule_of_thumb', 'Compute efficiency on AMD Instinct',
  'Measured one-GPU 8B BF16 training ran 1.32-1.40x faster on an H200 than on an MI300X whose paper peak is 1.32x higher, so the MI300X reached about 30% of its peak: the plan assumes 30% on Instinct GPUs until a probe measures yours.',
  '{"accelerator": ["mi250x", "mi300x", "mi325x", "mi355x"]}', '{"facts": {"compute_efficiency": 0.30}}', 5, 'mi300x-vs-h200', '2026-12-01'),
 ('plan-efficiency-small', 'rule_of_thumb', 'Compute efficiency for small models',
  'Below a billion parameters framework overhead and small matrices keep utilisation low; the plan assumes 30%, an assumption, not a measurement.',
  '{"model_params": {"<": 1000000000}}', '{"facts": {"compute_efficiency": 0.30}}', 10, 'framework-tax-2023', '2023-02-13'),
 ('plan-efficiency-cpu', 'rule_of_thumb', 'Compute efficiency on CPUs',
  'A framework''s full training step on CPU cores ran at about 35-40% of the speed of sgemm alone on the same cores; the plan assumes 35% of peak. Run fwadvisor probe to measure your machine.',
  '{"hardware": "cpu"}', '{"facts": {"compute_efficiency": 0.35}}', 20, 'cpu-mlp-measurement', '2026-11-30'),
 ('plan-memory-reserve', 'rule_of_thumb', 'Memory the framework takes, and headroom',
  'Besides tensors, a process holds the CUDA (or ROCm, XLA) context, library workspaces and communication buffers, and the caching allocator fragments: the plan reserves 1 GB plus 5% of what it allocates, and calls a plan a fit only with 10% of usable device memory left over.',
  '{}', '{"facts": {"framework_overhead_gb": 1.0, "allocator_fragmentation": 0.05, "memory_headroom": 0.10}}', 0, 'pytorch-cuda-memory', '2026-12-01'),
 ('plan-apple-working-set', 'rule_of_thumb', 'Apple GPU working set',
  'macOS lets the GPU wire only part of unified memory (MTLDevice.recommendedMaxWorkingSetSize), about two thirds on small machines: `sudo sysctl iogpu.wired_limit_mb=N` raises it until the next reboot.',
  '{"hardware": "apple"}', '{"facts": {"gpu_working_set": 0.67}}', 0, 'apple-working-set', '2026-12-01'),
 ('plan-apple-working-set-large', 'rule_of_thumb', 'Apple GPU working set above 36 GB',
  'On Macs with more than 36 GB the default cap is about three quarters of unified memory (more on 128 GB machines): `sudo sysctl iogpu.wired_limit_mb=N` raises it until the next reboot.',
  '{"hardware": "apple", "device_memory_gb": {">": 36}}', '{"facts": {"gpu_working_set": 0.75}}', 5, 'apple-working-set', '2026-12-01'),
 ('plan-llm-batch', 'rule_of_thumb', 'Global batch and vocabulary',
  'LLMs train on batches of millions of tokens (Llama 2: 4M tokens for every size) with vocabularies of tens of thousands (Llama 2: 32k): the plan uses 4M tokens per step, raised when a layout needs more micro-batches, and a 32k vocabulary for the output logits.',
  '{"model_kind": "llm"}', '{"facts": {"global_batch_tokens": 4000000, "vocab": 32000}}', 0, 'llama2-2023', '2026-12-01'),
 ('plan-interruptions', 'rule_of_thumb', 'Time lost to interruptions at scale',
  'Llama 3 405B kept more than 90% effective training time on 16K GPUs (466 interruptions in 54 days); failures grow with the number of devices, so the plan adds lost time of 10% x devices / 16,384.',
  '{}', '{"facts": {"lost_time_at_16k_devices": 0.10}}', 0, 'llama3-2024', '2026-12-01'),
 ('plan-fp8-gain', 'rule_of_thumb', 'What FP8 gains end to end',
  'FP8 doubles the matrix units'' peak but not the step: attention, norms and communication stay in higher precision. Google reports about 1.3x over BF16 training on TPU7x, so the plan realises 30% of the peak ratio''s gain.',
  '{}', '{"facts": {"fp8_realised_gain": 0.30}}', 0, 'hw-tpu7x', '2026-12-01'),
 ('plan-lora', 'rule_of_thumb', 'LoRA and QLoRA storage',
  'LoRA freezes the base model and trains rank-r factors on every linear layer (QLoRA''s setting); adapters keep fp32 weights, gradients and Adam moments (16 bytes each). QLoRA stores the frozen base in NF4 with double-quantised constants: 4 + 0.127 bits per parameter.',
  '{}', '{"facts": {"adapter_bytes_per_param": 16, "nf4_bits_per_param": 4.127}}', 0, 'qlora-2023', '2026-12-01'),
 ('plan-deepspeed-buckets', 'rule_of_thumb', 'DeepSpeed communication buckets',
  'DeepSpeed ZeRO reduces and gathers gradients and parameters through buckets of 5e8 elements by default (reduce_bucket_size, allgather_bucket_size, stage3_prefetch_bucket_size).',
  '{}', '{"facts": {"ds_bucket_elements": 500000000}}', 0, 'deepspeed-config', '2026-12-01'),
 ('plan-attention-fused', 'rule_of_thumb', 'Attention without the s x s scores',
  'PyTorch SDPA (flash and memory-efficient kernels from sm50 on), Megatron (Transformer Engine) and JAX (Pallas, cuDNN) train attention without storing the s x s scores; the plan counts activations that way.',
  '{}', '{"facts": {"fused_attention": 1}}', 0, 'flash-attention-2022', '2026-12-01'),
 ('plan-attention-apple', 'rule_of_thumb', 'Attention on Apple GPUs',
  'On Apple GPUs the attention backward pass is not fused yet (MLX, PyTorch MPS), so the s x s scores are stored: the plan counts Korthikanti et al.''s full terms.',
  '{"hardware": "apple"}', '{"facts": {"fused_attention": 0}}', 5, 'mlx-fused-vjp', '2026-12-01'),
 ('plan-moe-routing', 'rule_of_thumb', 'Experts per token',
  'Without top_k (or a shipped model or config file that gives it) the plan assumes top-2 routing (Mixtral, GShard) for the all-to-all traffic and the share of active parameters.',
  '{}', '{"facts": {"moe_top_k": 2}}', 0, 'mixtral-2024', '2026-12-01');

-- Fine-tuning jobs: the batch a fine-tune steps on, and which hardware has a 4-bit (QLoRA)
-- back-end. qlora_backend: 1 a native back-end, 0.5 slow fallback kernels only (the plan stays,
-- with a warning naming the faster route), 0 none (QLoRA is planned as LoRA on a 16-bit base and
-- the warning says so). Checked on 2026-12-02.
INSERT INTO sources (id, title, url, published, note) VALUES
 ('qlora-guanaco-scripts', 'artidoro/qlora: scripts/finetune_guanaco_65b.sh (the Guanaco runs of the QLoRA paper)',
  'https://github.com/artidoro/qlora/blob/main/scripts/finetune_guanaco_65b.sh', '2023-05-23',
  'per_device_train_batch_size 4 x gradient_accumulation_steps 4 = 16 sequences per optimizer step, max_steps 1875, target_max_len 512, LoRA r 64 on all linear layers, NF4 with double quantisation (read 2026-12-02).'),
 ('bnb-install-0.50', 'bitsandbytes v0.50.2 documentation: Installation Guide',
  'https://huggingface.co/docs/bitsandbytes/v0.50.2/en/installation.md', '2026',
  'Official support for NVIDIA GPUs, AMD GPUs, Intel XPUs, Apple Silicon and Intel Gaudi, and a CPU build; no TPU (XLA) and no Ascend back-end is listed (read 2026-12-02).'),
 ('bnb-mps-1983', 'bitsandbytes pull request 1983: MPS: improved backend',
  'https://github.com/bitsandbytes-foundation/bitsandbytes/pull/1983', '2026-07-01',
  'Merged: MPS runs every 4-bit and LLM.int8() configuration, through the kernels-community Hub kernels on macOS 26+ and slower PyTorch fallbacks otherwise; 8-bit optimizer support left to a later change; torch >= 2.9 (read 2026-12-02).'),
 ('mlx-lm-lora', 'ml-explore/mlx-lm: Fine-Tuning with LoRA or QLoRA (mlx_lm/LORA.md)',
  'https://github.com/ml-explore/mlx-lm/blob/main/mlx_lm/LORA.md', 'undated',
  'mlx_lm.lora fine-tunes with LoRA; if --model points to a quantized model (convert with -q) the training uses QLoRA (read 2026-12-02).'),
 ('tunix', 'google/tunix: a JAX-native LLM post-training library', 'https://github.com/google/tunix', '2026-03-13',
  'Supervised fine-tuning with full weights or PEFT through LoRA/Q-LoRA layers, built on Flax NNX and aimed at TPUs (README and google-tunix on PyPI, read 2026-12-02).'),
 ('bnb-ascend-1695', 'bitsandbytes pull request 1695: Enable Ascend NPU backend with custom ops integration for NF4 support',
  'https://github.com/bitsandbytes-foundation/bitsandbytes/pull/1695', '2025-07-02',
  'Open: ports the Ascend NF4 back-end (an interim PyTorch implementation) from the old multi-backend branch to the main line (read 2026-12-02).');

INSERT INTO rules (id, kind, title, text, condition, effect, priority, source, also, as_of) VALUES
 ('plan-finetune-batch', 'rule_of_thumb', 'A fine-tune''s batch',
  'Fine-tunes step on tens of sequences, not on a pre-training batch of millions of tokens: the QLoRA paper''s Guanaco runs take 16 sequences per optimizer step (4 per device x 4 accumulated), so a fine-tune''s global batch is 16 sequences of seq_len tokens.',
  '{"job": "finetune"}', '{"facts": {"finetune_batch_sequences": 16}}', 0, 'qlora-guanaco-scripts', '', '2026-12-02'),
 ('plan-qlora-backend', 'rule_of_thumb', 'QLoRA''s 4-bit back-end',
  'bitsandbytes (NF4, paged optimizers) supports NVIDIA and AMD GPUs, Intel XPUs and Gaudi, and CPUs.',
  '{}', '{"facts": {"qlora_backend": 1}}', 0, 'bnb-install-0.50', '', '2026-12-02'),
 ('plan-qlora-apple', 'rule_of_thumb', 'QLoRA on Apple GPUs',
  'bitsandbytes runs 4-bit layers on MPS, through slow PyTorch fallbacks below macOS 26 and with no 8-bit optimizers yet; MLX-LM''s LoRA on a 4-bit model (mlx_lm.lora) is the Mac''s native QLoRA.',
  '{"hardware": "apple"}', '{"facts": {"qlora_backend": 0.5}}', 5, 'bnb-mps-1983', 'mlx-lm-lora', '2026-12-02'),
 ('plan-qlora-tpu', 'rule_of_thumb', 'QLoRA on TPUs',
  'bitsandbytes has no TPU (XLA) back-end, so PEFT''s QLoRA does not run under torch-xla; on TPUs use LoRA on a bf16 base, or Tunix''s Q-LoRA layers in JAX.',
  '{"hardware": "tpu"}', '{"facts": {"qlora_backend": 0}}', 5, 'bnb-install-0.50', 'tunix', '2026-12-02'),
 ('plan-qlora-ascend', 'rule_of_thumb', 'QLoRA on Ascend',
  'Released bitsandbytes has no Ascend back-end (its NF4 port is still open), so QLoRA does not run on Ascend NPUs; LoRA on a bf16 base through torch_npu does.',
  '{"hardware": "ascend"}', '{"facts": {"qlora_backend": 0}}', 5, 'bnb-ascend-1695', 'torch-npu', '2026-12-02');

-- Mixture-of-experts time: how much of the expert all-to-all the training stack hides under compute,
-- and the H800's efficiency (the H100's compute, so the Hopper figure).
INSERT INTO sources (id, title, url, published, note) VALUES
 ('megatron-moe-readme', 'NVIDIA Megatron-LM: Megatron Core MoE (megatron/core/transformer/moe/README.md)',
  'https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/core/transformer/moe/README.md', '2025',
  'Expert parallelism with the alltoall token dispatcher; --overlap-moe-expert-parallel-comm overlaps the EP all-to-all of one micro-batch with the computation of another (1F1B of forward and backward chunks), as DeepSeek-V3''s DualPipe does.'),
 ('deepseek-v3-2024', 'DeepSeek-AI, DeepSeek-V3 Technical Report',
  'arXiv:2412.19437', '2024-12-27',
  '2048 H800 GPUs, 8 a node over NVLink and NVSwitch, InfiniBand between nodes (section 3.1); 16-way pipeline, 64-way expert parallelism over 8 nodes, ZeRO-1 data parallelism, no tensor parallelism; DualPipe overlaps the forward and backward computation with the all-to-all so that it is nearly fully hidden (section 3.2.1); NVLink 160 GB/s, about 3.2 x InfiniBand''s 50 GB/s (section 3.2.2); 14.8T tokens, 2.664M H800 GPU-hours of pre-training (section 1).');

INSERT INTO rules (id, kind, title, text, condition, effect, priority, source, also, as_of) VALUES
 ('plan-moe-a2a-overlap', 'rule_of_thumb', 'The expert all-to-all overlaps compute',
  'Expert-parallel stacks overlap the token dispatch and combine all-to-alls with computation of another micro-batch: Megatron Core with --overlap-moe-expert-parallel-comm, DeepSeek-V3 with DualPipe. The plan counts only the all-to-all time beyond the step''s compute.',
  '{}', '{"facts": {"moe_a2a_overlap": 1}}', 0, 'megatron-moe-readme', 'deepseek-v3-2024', '2026-12-02'),
 ('plan-efficiency-h800', 'rule_of_thumb', 'H800 compute efficiency',
  'The H800 is the H100 SXM''s GH100 with NVLink cut down: the Hopper efficiency of 50% applies to its compute.',
  '{"accelerator": ["h800-sxm"]}', '{"facts": {"compute_efficiency": 0.50}}', 5, 'megatron-core', 'hw-nvidia-h800', '2026-12-02');

-- Paged optimizers: QLoRA's default (paged AdamW), which moves optimizer states to host memory
-- through CUDA unified memory when the GPU runs out.
INSERT INTO sources (id, title, url, published, note) VALUES
 ('bnb-paged-optim', 'bitsandbytes documentation v0.50.1: Adam (paged optimizers)',
  'https://huggingface.co/docs/bitsandbytes/v0.50.1/reference/optim/adam', '2026',
  'bitsandbytes also supports paged optimizers which take advantage of CUDA''s unified memory to transfer memory from the GPU to the CPU when GPU memory is exhausted (is_paged); read 2026-12-02.');

INSERT INTO rules (id, kind, title, text, condition, effect, priority, source, also, as_of) VALUES
 ('plan-paged-optimizer', 'rule_of_thumb', 'Paged optimizers for LoRA and QLoRA',
  'QLoRA trains with a paged optimizer (paged AdamW): on CUDA the optimizer states live in unified memory and move to host memory when the GPU runs out, so a memory peak slows a step instead of failing it.',
  '{"finetune": ["lora", "qlora"], "hardware": "nvidia"}', '{"facts": {"paged_optimizer": 1}}', 0, 'qlora-2023', 'bnb-paged-optim', '2026-12-02');

-- Slices: a TPU slice's chips share one ICI domain (the catalog's link_gbs and network_gbs);
-- past slice_devices chips a job runs as several slices (Multislice), and the traffic between
-- slices crosses the data-centre network at scale_out_gbs per chip and direction (the per-host
-- NICs shared by the host's chips). Read by resolve_slices (knowledge/advisor_plan.c); GPUs have
-- no slice: their network_gbs is already the scale-out NIC per GPU. Read 2026-12-02.
INSERT INTO rules (id, kind, title, text, condition, effect, priority, source, also, as_of) VALUES
 ('slice-tpu-v5e', 'rule_of_thumb', 'TPU v5e slices of 256',
  'A TPU v5e pod (the largest slice) is 256 chips on a 2D torus; between slices each host of 8 chips has 2 x 100 Gb/s NICs: 25 Gb/s, 3.125 GB/s, per chip.',
  '{"accelerator": "tpu-v5e"}', '{"facts": {"slice_devices": 256, "scale_out_gbs": 3.125}}', 5, 'tpu-v6e-dcn', 'tpu-multislice', '2026-12-02'),
 ('slice-tpu-v6e', 'rule_of_thumb', 'TPU v6e slices of 256',
  'A TPU v6e (Trillium) pod (the largest slice) is 256 chips on a 2D torus; between slices each host of 8 chips has 4 x 200 Gb/s NICs: 100 Gb/s, 12.5 GB/s, per chip.',
  '{"accelerator": "tpu-v6e"}', '{"facts": {"slice_devices": 256, "scale_out_gbs": 12.5}}', 5, 'tpu-v6e-dcn', 'tpu-multislice', '2026-12-02'),
 ('slice-tpu-v5p', 'rule_of_thumb', 'TPU v5p slices of 6,144',
  'A TPU v5p pod holds 8,960 chips, but the largest slice a job can be given is 6,144 (16x16x24, 96 cubes); between slices the data-centre network gives 50 Gb/s, 6.25 GB/s, per chip.',
  '{"accelerator": "tpu-v5p"}', '{"facts": {"slice_devices": 6144, "scale_out_gbs": 6.25}}', 5, 'tpu-v5p-dcn', 'tpu-multislice', '2026-12-02'),
 ('slice-tpu-v4', 'rule_of_thumb', 'TPU v4 slices of 4,096',
  'A TPU v4 pod is 4,096 chips on a 3D mesh or torus; Google publishes no data-centre network figure per v4 chip, so traffic between v4 slices is not estimated.',
  '{"accelerator": "tpu-v4"}', '{"facts": {"slice_devices": 4096}}', 5, 'hw-tpu-v4', 'tpu-multislice', '2026-12-02');
