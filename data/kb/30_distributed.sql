-- Distributed training strategies and which frameworks offer them.
-- Model-state memory per device (schema): replicated_bytes_per_param * Psi
--   + sharded_bytes_per_param * Psi / Nd, plus cpu_bytes_per_param * Psi in host memory (all nodes
-- together) for offloading strategies. Numbers follow the ZeRO paper for mixed-precision Adam
-- (2 bytes fp16/bf16 params + 2 bytes grads + K = 12 bytes fp32 master weights, momentum and
-- variance = 16 bytes per parameter); activations, buffers and fragmentation come on top.
-- `tensor_parallel` marks strategies that split each layer across devices (the planner divides
-- activations by the tensor-parallel degree); `kinds` limits a strategy to model kinds ('' any).
-- strategy_frameworks.hardware lists the platforms each framework's implementation runs on: no
-- DeepSpeed, Megatron or Horovod on TPUs (DeepSpeed's accelerators are CUDA, ROCm, Intel CPU and
-- XPU, Ascend and Gaudi), PyTorch reaches TPUs through torch-xla, JAX through jax-sharding.

INSERT INTO sources (id, title, url, published, note) VALUES
 ('dist-pytorch-ddp', 'PyTorch documentation: torch.nn.parallel.DistributedDataParallel',
  'https://docs.pytorch.org/docs/stable/generated/torch.nn.parallel.DistributedDataParallel.html', 'undated',
  'One process per device, full model replica, gradients all-reduced in buckets during backward; launched with torchrun.'),
 ('dist-torch-zero-optim', 'PyTorch documentation: torch.distributed.optim.ZeroRedundancyOptimizer',
  'https://docs.pytorch.org/docs/stable/distributed.optim.html', 'undated',
  'Native PyTorch wrapper that shards optimizer states across data-parallel ranks (ZeRO stage 1 behaviour) on top of DDP.'),
 ('dist-megatron-distopt', 'NVIDIA Megatron-LM docs: Distributed Optimizer (docs/api-guide/dist_optimizer.md)',
  'https://github.com/NVIDIA/Megatron-LM/blob/9fc9377109abd18b2a97f897e0a3565ad40a1a66/docs/api-guide/dist_optimizer.md', 'undated',
  'Bytes per parameter with data-parallel size d: fp16 params + fp16 grads 20 (non-distributed) vs 4 + 16/d; bf16 params + fp32 grads 18 vs 6 + 12/d; fp32 params + fp32 grads 16 vs 8 + 8/d. fp32 main params always used for the optimizer step.'),
 ('dist-fastai-distributed', 'fastai documentation: Distributed training',
  'https://docs.fast.ai/training/distributed.html', 'undated',
  'Wrap learn.fit in learn.distrib_ctx() and start with accelerate launch; built on Hugging Face Accelerate and PyTorch DistributedDataParallel.'),
 ('dist-keras-distribution', 'Keras guide: Distributed training with Keras 3 (keras.distribution API)',
  'https://keras.io/guides/distribution/', '2023-11-07',
  'DeviceMesh, TensorLayout, LayoutMap; DataParallel (replicated weights, sharded batch) and ModelParallel (weights sharded by LayoutMap) through SPMD expansion of the JAX backend.'),
 ('dist-mlx-distributed', 'MLX documentation: distributed communication and data parallelism',
  'https://ml-explore.github.io/mlx/build/html/usage/distributed.html', 'undated',
  'mx.distributed with MPI, ring (TCP), JACCL (RDMA over Thunderbolt) and NCCL back-ends; data parallelism by all_sum-averaging gradients; launched with mlx.launch.'),
 ('dist-paddle-sharding', 'PaddlePaddle API: paddle.distributed.sharding.group_sharded_parallel',
  'https://paddlepaddle.org.cn/documentation/docs/en/api/paddle/distributed/sharding/group_sharded_parallel_en.html', 'undated',
  'level ''os'' (optimizer states), ''os_g'' (+ gradients), ''p_g_os'' (+ parameters); offload=True option; dp_group to mix sharding with data parallelism.'),
 ('dist-paddle-parallelmode', 'PaddlePaddle API: paddle.distributed.ParallelMode',
  'https://paddlepaddle.org.cn/documentation/docs/en/api/paddle/distributed/ParallelMode_en.html', 'undated',
  'DATA_PARALLEL, TENSOR_PARALLEL, PIPELINE_PARALLEL and SHARDING_PARALLEL modes, combined by fleet hybrid parallelism.'),
 ('dist-mindspore-parallel', 'MindSpore r2.5 documentation: semi-automatic parallel',
  'https://www.mindspore.cn/docs/en/r2.5.0/model_train/parallel/semi_auto_parallel.html', '2025',
  'DATA_PARALLEL, SEMI_AUTO_PARALLEL and AUTO_PARALLEL modes; operator-level (tensor) parallel, optimizer parallel (optimizer-state sharding) and pipeline parallel.');

INSERT INTO strategies (id, name, shards, scale, min_devices, status, memory_formula,
                        replicated_bytes_per_param, sharded_bytes_per_param, cpu_bytes_per_param,
                        tensor_parallel, kinds, summary, source, as_of) VALUES
 ('single', 'Single device', 'nothing: the whole model, its gradients and optimizer states on one device',
  'one accelerator (or the CPU); models whose model states plus activations fit one device', 1, 'current',
  'ZeRO paper, mixed-precision Adam: 2Psi (16-bit params) + 2Psi (16-bit grads) + 12Psi (fp32 master weights, momentum, variance) = 16Psi bytes on the one device. Plain fp32 Adam is also 16Psi (4 + 4 + 8). Activations come on top.',
  16, 0, 0, 0, '',
  'The baseline: no communication, simplest debugging. Seed article 002 recommends PyTorch AMP (or JAX) for single cards up to about 48 GB. Move to a multi-device strategy when model states plus activations exceed one device or training time is too long.',
  'zero-paper', '2019-10-04'),
 ('ddp', 'Data parallel (PyTorch DDP-style replicas)', 'the batch only: every device keeps a full replica of parameters, gradients and optimizer states; gradients are all-reduced',
  'models that fit one device, 2 to a few hundred devices; seed article 002 calls DDP the most robust choice at 4-16 GPUs', 2, 'current',
  'ZeRO paper baseline data parallelism: 16Psi bytes per device whatever Nd is (nothing is sharded). Communication: one all-reduce of the gradients (2Psi elements) per step.',
  16, 0, 0, 0, '',
  'The default way to scale training when the model fits one device. Seed article 001 (an anecdote, 8x A100, ResNet-50): DDP reached about 95% of linear scaling, MirroredStrategy about 92%, JAX pmap about 98%; the gap shrinks for larger models where communication dominates. Seed article 003: at thousand-card scale communication can exceed 30% of step time.',
  'seed-002', '2025-03-31'),
 ('fsdp', 'PyTorch FSDP2 (fully_shard)', 'parameters, gradients and optimizer states, each parameter split along dim 0 as a DTensor; full parameters gathered per layer for compute',
  'models too large for one device, from one node to thousands of GPUs; the native PyTorch alternative to ZeRO-3', 2, 'current',
  'Full sharding as in ZeRO-3: 16Psi/Nd bytes of model states per device (fp32 sharded params, grads and Adam states with a bf16 MixedPrecisionPolicy give the same 16 bytes), plus the all-gathered parameters of the layer being computed and of the prefetched next layer. HSDP (shard within a node, replicate across nodes) replaces Nd by the shard-group size.',
  0, 16, 0, 0, '',
  'FSDP2 is the current PyTorch fully-sharded API (torch.distributed.fsdp.fully_shard). The original FullyShardedDataParallel wrapper (FSDP1) was deprecated in the 2025-09-02 tutorial; this id means FSDP2. Seed article 002 names FSDP together with DeepSpeed for large NVIDIA clusters.',
  'fsdp2-docs', '2025-09-02'),
 ('zero1', 'DeepSpeed ZeRO stage 1', 'optimizer states (fp32 master weights, momentum, variance)',
  'data-parallel jobs where optimizer states dominate memory, tens to hundreds of GPUs', 2, 'current',
  'ZeRO paper P_os: 4Psi + 12Psi/Nd bytes per device (16-bit params and grads replicated, K = 12 optimizer bytes sharded). Same communication volume as DDP. DeepSpeed ships no stage-1 memory estimator.',
  4, 12, 0, 0, '',
  'Shards only the optimizer states, so it runs at DDP speed with a large memory saving (up to 4x as Nd grows). Also available natively as PyTorch ZeroRedundancyOptimizer and as Megatron''s distributed optimizer.',
  'deepspeed-zero', '2026-11-30'),
 ('zero2', 'DeepSpeed ZeRO stage 2', 'optimizer states and 16-bit gradients',
  'data-parallel training of models up to tens of billions of parameters on tens to hundreds of GPUs', 2, 'current',
  'ZeRO paper P_os+g: 2Psi + 14Psi/Nd bytes per device. DeepSpeed''s estimator (stage_1_and_2.py) is more conservative: 2Psi + 18Psi/N with N = all GPUs (it counts 2 fp16 grads + 4 fp32 grads + 4 fp32 params + 8 Adam), and with optimizer offload GPU = 2Psi, CPU = Psi x max(4N, 16) x 1.5.',
  2, 14, 0, 0, '',
  'Adds gradient sharding (reduce-scatter instead of all-reduce) at the same communication volume as DDP; the usual first choice with DeepSpeed. Seed article 001 shows a stage-2 config with offload_optimizer to CPU and reports training a 13B model on 8 V100s that would otherwise need about 32 cards (anecdote).',
  'deepspeed-zero', '2026-11-30'),
 ('zero3', 'DeepSpeed ZeRO stage 3', 'optimizer states, 16-bit gradients and 16-bit parameters (gathered per layer for compute)',
  'models that do not fit one device even for parameters: tens of billions of parameters and up, hundreds to thousands of GPUs', 2, 'current',
  'ZeRO paper P_os+g+p: 16Psi/Nd bytes per device; about 1.5x the DDP communication volume. DeepSpeed''s estimator (stage3.py) gives 4 x largest-layer params + 18Psi/N bytes per GPU (it counts an extra 2 bytes of fp32 gradient copy); add the gathered working layers and activations.',
  0, 16, 0, 0, '',
  'Memory scales down linearly with the number of devices. Seed article 002 reports that on one LLM task DeepSpeed ZeRO-3 used about 60% less memory than plain PyTorch (single anecdote, no setup given). ZeRO++ reduces its communication.',
  'deepspeed-zero', '2026-11-30'),
 ('zero3-offload', 'DeepSpeed ZeRO-3 with CPU offload (ZeRO-Offload / ZeRO-Infinity)', 'as ZeRO-3, with fp32 optimizer states (and optionally parameters) moved to host memory or NVMe',
  'fine-tuning or training models larger than total GPU memory on few GPUs, even one; slower, bound by PCIe and CPU Adam speed', 1, 'current',
  'DeepSpeed estimator (stage3.py, zero_init, buffer factor 1.5). Chosen here: offload_optimizer=cpu, parameters stay on GPU: GPU = 4 x largest-layer params + 2Psi/N bytes (sharded 16-bit params), CPU = 16Psi x 1.5 = 24Psi bytes in all (divided by the number of nodes). With offload_param=cpu as well: GPU = 4 x largest layer only, CPU = 18Psi x 1.5 = 27Psi. NVMe offload (ZeRO-Infinity) moves the CPU share to disk. Activations not included (DeepSpeed#5102).',
  0, 2, 24, 0, '',
  'Trades speed for memory: the optimizer step runs on the CPU and every step moves gradients and parameters over PCIe. Useful to fit a large model on one node or one GPU; plan host RAM of about 24 bytes per parameter.',
  'deepspeed-estimators', '2026-11-30'),
 ('megatron', 'Megatron-LM / Megatron Core 3D parallelism', 'layers split by tensor parallelism (t) inside each layer and pipeline parallelism (p) across layers, data parallelism (d) over the rest; optimizer states sharded over d by the distributed optimizer; also expert and context parallelism',
  'very large transformers (tens of billions to a trillion parameters) on hundreds to thousands of NVIDIA GPUs with fast interconnect', 2, 'current',
  'Model states are divided by t x p; with the distributed optimizer and bf16 params + fp32 grads Megatron documents (6 + 12/d) bytes per parameter, so per device = (6 + 12/d) x Psi / (t x p). Stored as 0 replicated + 18 sharded, which is exact when all Nd = t x p devices hold distinct model shards (d = 1) and a lower bound when d > 1; compute the exact form when t, p and d are known.',
  0, 18, 0, 1, '',
  'NVIDIA''s reference stack for the largest models (up to 47% MFU reported on H100 for GPT-3 175B). Seed articles 001 and 002 recommend Megatron or DeepSpeed for 100-2000-card 3D parallelism; seed 001 warns that it is low-level and suggests months of distributed-training experience first.',
  'dist-megatron-distopt', '2026-11-30'),
 ('tf-mirrored', 'TensorFlow MirroredStrategy / MultiWorkerMirroredStrategy', 'the batch only: each variable is mirrored on every replica and kept in sync by all-reduce',
  'one machine with several GPUs (MirroredStrategy) or several machines (MultiWorkerMirroredStrategy); models that fit one device', 2, 'current',
  'Synchronous data parallelism with replicated variables: 16Psi bytes per device as the ZeRO baseline (Keras mixed_float16/mixed_bfloat16 keeps fp32 variables, 4 + 4 grads + 8 Adam = 16).',
  16, 0, 0, 0, '',
  'TensorFlow''s data-parallel API, used with Keras Model.fit or custom loops. Seed article 002 suits it to existing TF code bases at 4-16 cards; seed 001 measured about 92% scaling on 8 A100s (anecdote).',
  'tf-distribute', '2026-11-30'),
 ('tf-tpu', 'TensorFlow TPUStrategy', 'the batch across TPU cores; variables replicated on every core (model parallel only with extra APIs such as DTensor)',
  'Cloud TPU from one chip to a pod; required to run TensorFlow on TPU at all', 1, 'current',
  'Chosen: replicated data parallelism, 16Psi bytes per TPU chip (fp32 variables with bf16 compute: 4 + 4 + 8 Adam = 16), because TPUStrategy replicates variables; sharded layouts need other APIs and are not modelled here.',
  16, 0, 0, 0, '',
  'The TensorFlow route to TPUs; needs tf.function (no eager mode on TPU). Seed article 002 suggested TFX + TPU Pod for 2000-card jobs and TF + Colab for free TPUs; newer large TPU work mostly uses JAX (see jax-sharding).',
  'tf-distribute', '2026-11-30'),
 ('jax-sharding', 'JAX jit with NamedSharding / Mesh, or shard_map', 'whatever the sharding annotations say: batch, parameters, optimizer states (FSDP-style) and tensor dimensions along named mesh axes',
  'one host to thousands of TPU chips or GPUs; data, FSDP, tensor and pipeline-style layouts in one program', 2, 'current',
  'Chosen: the fully-sharded (FSDP / ZeRO-3-like) layout that large JAX trainers use for parameters and optimizer state, 16Psi/Nd bytes per device (fp32 params 4 + grads 4 + Adam 8 sharded over the fsdp/data axes). A pure data-parallel mesh (replicated params) is 16Psi per device instead; tensor-parallel axes divide further.',
  0, 16, 0, 0, '',
  'The current JAX way to distribute: pjit was merged into jit (2023); jax.pmap is in maintenance mode since JAX 0.8.0 (2025-10), reimplemented on shard_map, and the opt-out flag was removed in JAX 0.9.2. Seed articles 001 and 002 speak of pmap: treat that as dated.',
  'jax-pmap-migrate', '2026-11-30'),
 ('horovod', 'Horovod', 'the batch only (data parallel, ring all-reduce); no model or optimizer-state sharding',
  'data-parallel jobs on GPU clusters with MPI/Gloo, PyTorch or TensorFlow/Keras; models that fit one device', 2, 'legacy',
  'Replicated data parallelism: 16Psi bytes per device, like DDP.',
  16, 0, 0, 0, '',
  'Seed article 001 praises its few-line setup but notes it only does data parallelism. The last release is v0.28.1 (2023-06); treat as legacy and prefer DDP, FSDP or DeepSpeed for new work.',
  'horovod-0.28.1', '2023-06-07'),
 ('fsdp-tp', 'PyTorch FSDP2 + tensor parallel (DTensor 2D mesh)', 'parameters, gradients and optimizer states fully sharded along the data-parallel mesh axis, and each layer''s matrices split along the tensor-parallel axis (parallelize_module with ColwiseParallel / RowwiseParallel)',
  'very large dense models (tens of billions of parameters and up) on many nodes of NVIDIA or AMD GPUs, where FSDP alone gathers too much per layer or the global batch grows too large', 2, 'current',
  'Model states as FSDP: 16Psi/Nd bytes per device; activations divided by the tensor-parallel degree t (devices per node, at most 8) as with Megatron''s tensor + sequence parallelism.',
  0, 16, 0, 1, '',
  'PyTorch-native 2D parallelism (TorchTitan''s recipe): FSDP2 across nodes, tensor parallel within a node. The native alternative to Megatron-LM for very large dense transformers, with less code to adopt and fewer kernels of its own.',
  'fsdp2-docs', '2026-11-30'),
 ('torch-xla', 'PyTorch/XLA SPMD (FSDPv2) on TPU', 'parameters, gradients and optimizer states sharded over an SPMD device mesh (an fsdp axis, optionally a model axis), compiled by XLA',
  'PyTorch models on Cloud TPUs, one chip to a pod; the only way to run PyTorch on a TPU besides the newer TorchTPU back-end', 1, 'current',
  'Chosen: the FSDPv2 layout, 16Psi/Nd bytes per device (fp32 params, grads and Adam states sharded over the fsdp axis); one chip holds all 16Psi.',
  0, 16, 0, 0, '',
  'torch_xla''s SPMD mode shards a PyTorch program like JAX''s jit with shardings; DeepSpeed and Megatron do not run on TPUs. Its future is in flux while Google introduces TorchTPU, a native PyTorch back-end.',
  'torch-xla-spmd', '2026-11-30'),
 ('tf-ps', 'TensorFlow ParameterServerStrategy', 'variables (above all large embedding tables) partitioned across parameter-server tasks in host memory; workers compute and read or update the variables they need',
  'recommendation models whose embedding tables exceed device memory, on clusters of workers and parameter servers', 2, 'current',
  'Chosen: all variables on parameter servers, 12Psi bytes of host memory in all (fp32 weights 4 + Adam moments 8), divided by the number of nodes that host servers; each worker''s device keeps only the rows and dense layers of the current step.',
  0, 0, 12, 0, 'recsys',
  'TensorFlow''s route for very large embeddings (DLRM-style models on TPUs use TPUEmbedding instead). Asynchronous by default; the dense part of the model is small next to the embeddings.',
  'tf-ps', '2026-11-30'),
 ('torchrec', 'TorchRec sharded embeddings + data-parallel dense layers', 'embedding tables sharded table-wise, row-wise or column-wise across GPUs by the TorchRec planner, with fused optimizers; dense layers replicated (DDP)',
  'recommendation models with embedding tables far larger than one GPU, from one node to hundreds of GPUs', 2, 'current',
  'Chosen: embeddings (almost all of a recommendation model''s parameters) sharded across all devices at 12 bytes per parameter (fp32 weights 4 + fused Adam moments 8; the gradient is applied in the backward pass and never stored), the small dense part not counted: 12Psi/Nd per device. Row-wise Adagrad needs about 4 bytes instead of 8 for the optimizer.',
  0, 12, 0, 0, 'recsys',
  'PyTorch''s library for large recommendation models (FBGEMM CUDA kernels), used for Meta''s production recommenders; a 100-billion-parameter model of embeddings is sharded instead of replicated.',
  'torchrec-docs', '2026-11-30');

INSERT INTO strategy_frameworks (strategy, framework, hardware, note, source, as_of) VALUES
 ('single', 'pytorch', 'nvidia,amd,apple,intel,ascend,trainium,gaudi,cpu', 'Plain nn.Module on one device (cuda, mps, xpu, npu or cpu); torch.amp for mixed precision. On a TPU use torch-xla.', 'seed-002', '2025-03-31'),
 ('single', 'tensorflow', 'nvidia,amd,intel,cpu', 'Default (no) strategy on one GPU or CPU; mixed precision through the Keras policy. On a TPU, TPUStrategy is required (tf-tpu).', 'tf-distribute', '2026-11-30'),
 ('single', 'jax', 'nvidia,amd,tpu,apple,intel,trainium,cpu', 'jax.jit on the default device (one TPU chip included).', 'jax-pmap-migrate', '2026-11-30'),
 ('single', 'keras', 'nvidia,amd,tpu,apple,intel,cpu', 'model.fit on one device with any backend (JAX, TensorFlow, PyTorch).', 'dist-keras-distribution', '2026-11-30'),
 ('single', 'fastai', 'nvidia,amd,apple,intel,cpu', 'Learner on one device (PyTorch underneath).', 'seed-002', '2025-03-31'),
 ('single', 'mlx', 'apple,nvidia,cpu', 'MLX on the Apple-silicon GPU with unified memory (CUDA and CPU builds also exist on Linux).', 'fw-mlx-install', '2026-11-30'),
 ('single', 'paddlepaddle', 'nvidia,amd,apple,intel,ascend,cpu', 'Dynamic-graph training on one device (GPU, XPU or a PaddleCustomDevice plug-in).', 'paddle-3.0', '2025-04-01'),
 ('single', 'mindspore', 'ascend,nvidia,cpu', 'Single-device training in PyNative or Graph mode on Ascend, GPU or CPU.', 'dist-mindspore-parallel', '2026-11-30'),

 ('ddp', 'pytorch', 'nvidia,amd,intel,ascend,trainium,gaudi,cpu', 'torch.nn.parallel.DistributedDataParallel, launched with torchrun (NCCL, RCCL, XCCL, HCCL or Gloo).', 'dist-pytorch-ddp', '2026-11-30'),
 ('ddp', 'fastai', 'nvidia,amd,cpu', 'learn.distrib_ctx() with accelerate launch; PyTorch DDP through Hugging Face Accelerate.', 'dist-fastai-distributed', '2026-11-30'),
 ('ddp', 'keras', 'nvidia,amd,tpu,cpu', 'keras.distribution.DataParallel (replicated weights, sharded batch) on the JAX backend; with the TensorFlow backend use tf.distribute (tf-mirrored).', 'dist-keras-distribution', '2026-11-30'),
 ('ddp', 'mlx', 'apple,nvidia,cpu', 'mx.distributed.all_sum to average gradients across processes (MPI, ring, JACCL or NCCL back-end), started with mlx.launch; no wrapper class.', 'dist-mlx-distributed', '2026-11-30'),
 ('ddp', 'paddlepaddle', 'nvidia,ascend,cpu', 'paddle.DataParallel / fleet data parallel (ParallelMode.DATA_PARALLEL).', 'dist-paddle-parallelmode', '2026-11-30'),
 ('ddp', 'mindspore', 'ascend,nvidia,cpu', 'ParallelMode.DATA_PARALLEL via set_auto_parallel_context.', 'dist-mindspore-parallel', '2026-11-30'),

 ('fsdp', 'pytorch', 'nvidia,amd,intel,ascend,trainium,gaudi', 'torch.distributed.fsdp.fully_shard (FSDP2, DTensor); FSDP1 FullyShardedDataParallel is deprecated.', 'fsdp2-docs', '2025-09-02'),
 ('fsdp', 'fastai', 'nvidia,amd', 'No first-class fastai API; possible through Hugging Face Accelerate''s FSDP plug-in under learn.distrib_ctx (not documented by fastai, test first).', 'dist-fastai-distributed', '2026-11-30'),
 ('fsdp-tp', 'pytorch', 'nvidia,amd,trainium', 'fully_shard over the data-parallel mesh dimension plus torch.distributed.tensor.parallel.parallelize_module over the tensor-parallel dimension of a 2D DeviceMesh (TorchTitan).', 'fsdp2-docs', '2026-11-30'),

 ('zero1', 'pytorch', 'nvidia,amd,intel,ascend,gaudi', 'DeepSpeed zero_optimization stage 1, or native torch.distributed.optim.ZeroRedundancyOptimizer with DDP. Not on TPUs.', 'dist-torch-zero-optim', '2026-11-30'),
 ('zero1', 'paddlepaddle', 'nvidia,ascend', 'group_sharded_parallel(level=''os'') (sharding stage 1).', 'dist-paddle-sharding', '2026-11-30'),
 ('zero1', 'mindspore', 'ascend', 'Optimizer parallel (enable_parallel_optimizer) shards optimizer states across data-parallel devices.', 'dist-mindspore-parallel', '2026-11-30'),
 ('zero2', 'pytorch', 'nvidia,amd,intel,ascend,gaudi', 'DeepSpeed zero_optimization stage 2 (also through Accelerate or Lightning); DeepSpeed runs on CUDA, ROCm, Intel XPU, Ascend and Gaudi (Intel''s fork), not on TPUs or Trainium.', 'deepspeed-zero', '2026-11-30'),
 ('zero2', 'paddlepaddle', 'nvidia,ascend', 'group_sharded_parallel(level=''os_g'') (sharding stage 2).', 'dist-paddle-sharding', '2026-11-30'),
 ('zero3', 'pytorch', 'nvidia,amd,intel,ascend,gaudi', 'DeepSpeed zero_optimization stage 3; FSDP2 is the native equivalent (see fsdp). Not on TPUs.', 'deepspeed-zero', '2026-11-30'),
 ('zero3', 'paddlepaddle', 'nvidia,ascend', 'group_sharded_parallel(level=''p_g_os'') (sharding stage 3).', 'dist-paddle-sharding', '2026-11-30'),
 ('zero3-offload', 'pytorch', 'nvidia,amd,intel,ascend', 'DeepSpeed stage 3 with offload_optimizer (and optionally offload_param) device cpu or nvme (ZeRO-Infinity).', 'deepspeed-estimators', '2026-11-30'),
 ('zero3-offload', 'paddlepaddle', 'nvidia,ascend', 'group_sharded_parallel(..., offload=True) moves sharded states to CPU memory.', 'dist-paddle-sharding', '2026-11-30'),

 ('megatron', 'pytorch', 'nvidia,amd,ascend,gaudi', 'Megatron-LM / Megatron Core (tensor, pipeline, data, expert and context parallel, distributed optimizer) on NVIDIA; AMD documents Megatron-Core through Primus on Instinct GPUs and Huawei adapts it to Ascend as MindSpeed. Never on TPUs.', 'dist-megatron-distopt', '2026-11-30'),
 ('megatron', 'paddlepaddle', 'nvidia,ascend', 'fleet hybrid parallelism: tensor (mp), pipeline (pp), data and sharding degrees combined.', 'dist-paddle-parallelmode', '2026-11-30'),
 ('megatron', 'mindspore', 'ascend', 'Semi-automatic parallel: operator-level (tensor) parallel + pipeline parallel + optimizer parallel; AUTO_PARALLEL can search the strategy.', 'dist-mindspore-parallel', '2026-11-30'),
 ('torch-xla', 'pytorch', 'tpu', 'torch_xla SPMD: xs.Mesh with an fsdp axis and SpmdFullyShardedDataParallel (FSDPv2); TorchTPU is the native successor Google documents.', 'torch-xla-spmd', '2026-11-30'),

 ('tf-mirrored', 'tensorflow', 'nvidia,amd,cpu', 'tf.distribute.MirroredStrategy (one machine) or MultiWorkerMirroredStrategy (several), with Model.fit or custom loops.', 'tf-distribute', '2026-11-30'),
 ('tf-mirrored', 'keras', 'nvidia,amd,cpu', 'TensorFlow backend only: build and compile the model under strategy.scope(); Keras 2 code lives on as tf-keras.', 'tf-distribute', '2026-11-30'),
 ('tf-tpu', 'tensorflow', 'tpu', 'tf.distribute.TPUStrategy with a TPUClusterResolver; functions must be tf.function-compiled. TPU v6e and older (TensorFlow is not supported on TPU7x).', 'tf-distribute', '2026-11-30'),
 ('tf-tpu', 'keras', 'tpu', 'TensorFlow backend under TPUStrategy; on TPU the JAX backend with keras.distribution is the more current route.', 'dist-keras-distribution', '2026-11-30'),
 ('tf-ps', 'tensorflow', 'nvidia,amd,cpu', 'tf.distribute.experimental.ParameterServerStrategy with a ClusterCoordinator and a variable_partitioner (MinSizePartitioner) for the embedding tables.', 'tf-ps', '2026-11-30'),
 ('tf-ps', 'keras', 'nvidia,amd,cpu', 'TensorFlow backend: model.fit under ParameterServerStrategy.scope().', 'tf-ps', '2026-11-30'),
 ('torchrec', 'pytorch', 'nvidia', 'torchrec.distributed.DistributedModelParallel with EmbeddingBagCollection and the sharding planner; FBGEMM kernels are CUDA-first.', 'torchrec-docs', '2026-11-30'),

 ('jax-sharding', 'jax', 'nvidia,amd,tpu,intel,cpu', 'jax.jit with NamedSharding over a jax.sharding.Mesh, or jax.shard_map for per-device code; jax.pmap is in maintenance mode.', 'jax-pmap-migrate', '2026-11-30'),
 ('jax-sharding', 'keras', 'nvidia,amd,tpu,cpu', 'keras.distribution (DeviceMesh, LayoutMap, DataParallel, ModelParallel) lowered to JAX sharding on the JAX backend.', 'dist-keras-distribution', '2026-11-30'),

 ('horovod', 'pytorch', 'nvidia,amd,cpu', 'horovod.torch: hvd.DistributedOptimizer and broadcast_parameters (legacy, last release 0.28.1).', 'horovod-0.28.1', '2023-06-07'),
 ('horovod', 'tensorflow', 'nvidia,amd,cpu', 'horovod.tensorflow: DistributedGradientTape / DistributedOptimizer (legacy, last release 0.28.1).', 'horovod-0.28.1', '2023-06-07'),
 ('horovod', 'keras', 'nvidia,amd,cpu', 'horovod.tensorflow.keras for tf.keras / Keras 2 only; no Keras 3 support in the last release (0.28.1).', 'horovod-0.28.1', '2023-06-07');

-- Trainium and Gaudi ---------------------------------------------------------------------------
-- The hardware lists above name trainium where TorchNeuron documents the PyTorch API (single
-- device, DDP, FSDP2, tensor parallelism through DTensor: neuron-torchneuron) and JAX's single
-- device (neuron-jax), and gaudi where Intel Gaudi software ships it (DDP, FSDP, its DeepSpeed
-- fork for ZeRO 1-3 and its Megatron-LM fork: gaudi-support-matrix, gaudi-fsdp). No DeepSpeed,
-- Horovod or Megatron-LM on Trainium: TorchNeuron's own torch.distributed takes their place, and
-- Neuron's NxD Training library (3D parallelism, ZeRO-1) ended with Neuron 2.32
-- (neuron-nxd-archive), so it is no strategy here. No JAX or TensorFlow strategy on Gaudi.
-- Checked 2026-12-02.

INSERT INTO sources (id, title, url, published, note) VALUES
 ('gaudi-fsdp', 'Intel Gaudi documentation: Using Fully Sharded Data Parallel (FSDP) with Intel Gaudi',
  'https://docs.habana.ai/en/latest/PyTorch/PyTorch_FSDP/Pytorch_FSDP.html', 'undated',
  'PyTorch FSDP shards parameters, gradients and optimizer states across HPUs (eager mode with torch.compile); DDP runs over HCCL. Read 2026-12-02.');

-- Expert parallelism ---------------------------------------------------------------------------
-- A mixture-of-experts model's routed experts are split over an expert-parallel group and each
-- token travels to its experts and back by all-to-all; the dense layers keep the usual data,
-- tensor and pipeline parallelism. The strategy is offered only for a mixture of experts
-- (experts above 1): rule strat-moe-ep-only-moe in 60_rules.sql takes it off every dense plan.
-- Model states as Megatron's distributed optimizer (18 bytes per parameter over the model-parallel
-- shards). Checked 2026-12-02.

INSERT INTO sources (id, title, url, published, note) VALUES
 ('megatron-moe', 'NVIDIA Megatron-LM: Megatron Core MoE (megatron/core/transformer/moe/README.md)',
  'https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/core/transformer/moe/README.md', '2026-01',
  'Expert parallelism combined with tensor, data, sequence and pipeline parallelism for MoE models; DeepEP token dispatch (--moe-token-dispatcher-type flex --moe-enable-deepep, MCore 0.12), batch-level overlap of the expert all-to-all (--overlap-moe-expert-parallel-comm, MCore 0.14), FSDP with EP and the HybridEP dispatcher for GB200, B200 and H100 (MCore 0.15). Read 2026-12-02.'),
 ('torchtitan-deepseek-v3', 'pytorch/torchtitan: DeepSeek-V3 in torchtitan (torchtitan/models/deepseek_v3/README.md) and DeepEP expert parallelism (torchtitan/distributed/deepep/README.md)',
  'https://github.com/pytorch/torchtitan/tree/main/torchtitan/models/deepseek_v3', '2026',
  'PyTorch-native MoE training: EP-aware FSDP (experts sharded on their own mesh, dense layers on the data-parallel mesh), HSDP, tensor and pipeline parallelism; a DeepEP back-end for the expert all-to-all, measured on Qwen3-30B-A3B (128 experts, top-8) from 8 to 128 GPUs. Read 2026-12-02.');

INSERT INTO strategies (id, name, shards, scale, min_devices, status, memory_formula, replicated_bytes_per_param,
                        sharded_bytes_per_param, cpu_bytes_per_param, tensor_parallel, kinds, summary, source, as_of) VALUES
 ('moe-ep', 'Expert parallelism for mixture-of-experts models (Megatron Core MoE, torchtitan)',
  'the routed experts of each MoE layer split over an expert-parallel group (tokens dispatched to their experts and back by all-to-all), with data, tensor and pipeline parallelism for the dense layers',
  'mixture-of-experts models (Mixtral, DeepSeek-V3 class) on tens to thousands of GPUs', 2, 'current',
  'Model states as Megatron''s distributed optimizer: (6 + 12/d) x Psi / (model-parallel shards), the experts divided over the expert-parallel degree e; stored as 0 replicated + 18 sharded. The all-to-all moves each token''s hidden state to its top-k experts and back per MoE layer.',
  0, 18, 0, 1, '',
  'Each device holds a share of the experts, so an MoE model''s memory falls with the expert-parallel degree while the dense parts keep their usual layout. Megatron Core MoE and torchtitan implement it; DeepEP-style dispatch and overlap hide much of the all-to-all.',
  'megatron-moe', '2026-12-02');

INSERT INTO strategy_frameworks (strategy, framework, hardware, note, source, as_of) VALUES
 ('moe-ep', 'pytorch', 'nvidia', 'Megatron Core MoE (--num-experts, --expert-model-parallel-size, DeepEP or HybridEP dispatch) or torchtitan''s MoE models (expert parallel degree with EP-aware FSDP2, DeepEP back-end), both documented on NVIDIA GPUs (H100, B200, GB200); DeepSpeed''s MoE layer (deepspeed.moe.layer.MoE with ep_size, combinable with ZeRO) and, from DeepSpeed 0.19.2, AutoEP (expert_parallel.autoep_size in the config) for Hugging Face MoE models (deepspeed-moe).', 'megatron-moe', '2026-12-02');

-- Expert parallelism in JAX, and the DeepSpeed MoE layer's source (read 2026-12-02). MaxText's
-- mesh has expert-parallel axes inside a slice (ici_expert_parallelism) and across slices
-- (dcn_expert_parallelism), both 1 by default.
INSERT INTO sources (id, title, url, published, note) VALUES
 ('maxtext-readme', 'AI-Hypercomputer/maxtext README and configs/base.yml',
  'https://github.com/AI-Hypercomputer/maxtext', '2026-08',
  'Pure Python/JAX LLM library for Cloud TPUs and GPUs, pre-training up to tens of thousands of chips, SFT and GRPO; mesh axes ici_* (within a slice) and dcn_* (across slices) for data, FSDP, tensor, pipeline, context and expert parallelism (ici_expert_parallelism, dcn_expert_parallelism, default 1); expert parallelism shards the experts and acts like FSDP for attention; Flax NNX since v0.2.4. Read 2026-12-02.'),
 ('deepspeed-moe', 'DeepSpeed tutorial: Mixture of Experts, and AutoEP (Automatic Expert Parallelism) API docs',
  'https://www.deepspeed.ai/tutorials/mixture-of-experts/', 'undated',
  'deepspeed.moe.layer.MoE(..., num_experts, ep_size) since v0.5, combinable with data parallelism, ZeRO, model parallelism and ZeRO-Offload; AutoEP (DeepSpeed 0.19.2+, 2026-06) enables expert parallelism for Hugging Face MoE models (Mixtral, Qwen3-MoE, DeepSeek-V2/V3) from expert_parallel.autoep_size, with ZeRO 0-2 and a constrained ZeRO-3. Read 2026-12-02.');

INSERT INTO strategy_frameworks (strategy, framework, hardware, note, source, as_of) VALUES
 ('moe-ep', 'jax', 'tpu,nvidia', 'MaxText: ici_expert_parallelism inside a slice and dcn_expert_parallelism across slices; expert parallelism shards the expert weights and acts like FSDP for attention.', 'maxtext-readme', '2026-12-02');
