-- Frameworks, the criteria the ranking weighs, and every framework's score on every criterion.
-- Scores run 0 (worst) to 10 (best for the team choosing); learning_curve 10 = easiest to learn,
-- maintenance_cost 10 = cheapest to maintain. hardware_fit has no rows here: it is scored per
-- platform in hw_support.fit (20_hardware.sql). The three main frameworks start from the seed
-- tables (seed 001: single-device speed, multi-device scaling, memory efficiency, debugging,
-- ease of deployment; seed 003: training efficiency, talent pool, hardware fit, maintenance cost,
-- stage), and one seed rating always maps to one number:
--   excellent (优秀, 极佳) and abundant (丰富) -> 9; good (好), fast (快), high (高) -> 8;
--   medium (中等, 中) -> 6; average (一般) -> 5; poor (较差) -> 4; scarce (稀缺) -> 3;
--   for maintenance cost: low (低) -> 8, medium (中) -> 6, high (高) -> 4.
-- Where newer facts move a rating, the note says "raised" or "lowered" and by how many steps
-- (one step = 1 point) and the row cites that evidence in `source` or `also`; every rating word is
-- glossed in English with the original in parentheses. New sources here use the prefix fw-.

INSERT INTO sources (id, title, url, published, note) VALUES
 ('fw-pytorch-2.14', 'PyTorch 2.14.0 release (compatibility matrix mirrored in PyTorchKR/pytorch.kr PR 119)',
  'https://github.com/pytorch/pytorch/releases/tag/v2.14.0', '2026-09-02',
  'Stable 2.14.0 released 2026-09-02; wheels for CUDA 12.6/13.0/13.2 and ROCm 7.14; Python 3.10-3.14; torchaudio discontinued after 2.11.'),
 ('fw-pytorch-2.13', 'PyTorch 2.13 release blog', 'https://pytorch.org/blog/pytorch-2-13-release-blog/', '2026-07-08',
  'FlexAttention on Apple MPS, a CuTeDSL code path in Inductor, nn.LinearCrossEntropyLoss (lower peak memory for large vocabularies), torchcomms backend, FSDP2 reduce-scatter/all-gather overlap, wider ROCm/Arm/Intel XPU coverage.'),
 ('fw-pytorch-1.8', 'PyTorch 1.8 release blog (ROCm binaries)', 'https://pytorch.org/blog/pytorch-1.8-released/', '2021-03-04',
  'First PyTorch release with AMD ROCm wheels on pytorch.org (beta).'),
 ('fw-pytorch-mps', 'PyTorch blog: Introducing Accelerated PyTorch Training on Mac', 'https://pytorch.org/blog/introducing-accelerated-pytorch-training-on-mac/', '2022-05-18',
  'MPS back-end for Apple Silicon GPUs from PyTorch 1.12; needs macOS 12.3 or later.'),
 ('fw-torch-tpu', 'pytorch/pytorch PR 186083: torch_tpu is an autoloaded out-of-tree backend', 'https://github.com/pytorch/pytorch/pull/186083', '2026-06-03',
  'A new torch_tpu back-end appears beside torch_xla; tenstorrent/tt-xla issue 2900 (2026-01) called torch-tpu closed and experimental.'),
 ('fw-tf-2.21', 'TensorFlow 2.21.0 release', 'https://github.com/tensorflow/tensorflow/releases/tag/v2.21.0', '2026-03',
  'Drops Python 3.9 and the TensorBoard dependency; version bumps in downstream repositories from 2026-03-10. A 2.22.0-rc0 followed on 2026-09-23; no 2.22.0 final was seen by 2026-11.'),
 ('fw-jax-0.11.2', 'JAX 0.11.2 release (in use by 2026-09-21 per jax-md issue 423)', 'https://github.com/jax-ml/jax/releases', '2026-09',
  'JAX 0.11.0 release PR reviewed 2026-07-16, 0.11.1 in use by 2026-08-20, 0.11.2 by 2026-09-21.'),
 ('fw-flax-5596', 'google/flax issue 5596: JAX and Flax imports out of sync', 'https://github.com/google/flax/issues/5596', '2026-09-22',
  'JAX 0.11.x removed experimental hijax names that Flax 0.12.8/0.12.9 still imported, so flax.nnx failed to import (also jax-md issue 423, marimo PR 10646).'),
 ('fw-keras-3.15', 'Keras 3.15.0 and 3.15.1 releases (spack-packages PRs 5328 and 5819)', 'https://github.com/keras-team/keras/releases', '2026-07',
  '3.15.0 out by 2026-06-25, 3.15.1 (security fixes) by 2026-07-31; 3.14.0 was published 2026-04-03.'),
 ('fw-fastai-4142', 'fastai issue 4142: support for torch 2.10', 'https://github.com/fastai/fastai/issues/4142', '2026-02-14',
  'fastai 2.8.6 capped torch below 2.10; the maintainer reported the fix released on 2026-02-14 (fastai 2.8.7 allows torch<3).'),
 ('fw-fastcore2-break', 'autogluon issue 5867: fastai fails with fastcore 2.x', 'https://github.com/autogluon/autogluon/issues/5867', '2026-09-16',
  'fastcore 2.0 removed L.starmap, which fastai 2.8.7 calls, so training fails unless fastcore is pinned below 2.'),
 ('fw-mlx-0.32', 'MLX v0.32.1 release', 'https://github.com/ml-explore/mlx/releases/tag/v0.32.1', '2026-08-18',
  'Linked from mflux issue 647 and mlx-lm PR 1753 (2026-08-18); patch releases 0.32.2 and 0.32.3 followed; users reported result differences between 0.31.2 and 0.32 (mflux PR 481, 2026-07-24).'),
 ('fw-mlx-cuda', 'ml-explore/mlx PR 2462: install the CUDA back-end by default on Linux', 'https://github.com/ml-explore/mlx/pull/2462', '2025-08-04',
  'Made the CUDA back-end installable from PyPI on Linux; the install guide now names the extras: pip install mlx[cuda12] or mlx[cuda13], and mlx[cpu] for the CPU-only build.'),
 ('fw-paddle-3.3', 'PaddlePaddle 3.3 release notes (PaddlePaddle/docs PR 7716)', 'https://github.com/PaddlePaddle/docs/pull/7716', '2026-02-03',
  'FlashMask V3, use of external operators (FlashInfer, DeepGEMM, DeepEP), dynamic-graph visualisation and memory-observation tools, Kunlunxin XPU and Hygon DCU work.'),
 ('fw-paddle-3.4', 'PaddlePaddle 3.4.0 (PaddleFleet PR 830 moves to Paddle 3.4)', 'https://github.com/PaddlePaddle/PaddleFleet/pull/830', '2026-04-22',
  'Stable 3.4.0 GPU wheels (cu129, cu130) are on the paddlepaddle.org.cn index; the exact release day was not confirmed.'),
 ('fw-mindspore-2.9', 'MindSpore 2.9.0 release notes', 'https://www.mindspore.cn/docs/en/r2.9.0/_sources/RELEASE.md.txt', '2026-04',
  'Conda package 2.9.0 uploaded 2026-04-27; DeepSeek sparse-attention operators, fused AdamW, NUMA binding in msrun.'),
 ('fw-mindspore-2.11', 'MindSpore 2.11.0 release notes (Chinese)', 'https://www.mindspore.cn/docs/zh-CN/r2.11.0/_sources/RELEASE.md.txt', '2026',
  'After 2.10.0 (HyperParallel: DTensor, FSDP, context and pipeline parallelism, distributed checkpoints): MC2 fused communication for tensor parallelism, Adam/AdamW state swapped to CPU memory, unified context parallelism, Trainer (demo) for Hugging Face Transformers models. The notes give no release day; 2.9.0 came out in 2026-04, so 2.11.0 is of 2026. Read 2026-12-02.'),
 ('fw-mindspore-2.7.2', 'MindSpore 2.7.2 release notes (CANN 8.5.0 pairing)', 'https://www.mindspore.cn/docs/en/r2.7.2/RELEASE.html', 'undated',
  'MindSpore 2.7.2 must be used with CANN 8.5.0, whose package layout changed; older CANN compatibility carried into 2.8.0.');

INSERT INTO frameworks (id, name, version, released, summary, source, as_of) VALUES
 ('pytorch', 'PyTorch', '2.14.0', '2026-09-02',
  'Eager-first Python framework with torch.compile, the default for research and most new projects, with the largest model and library ecosystem.',
  'fw-pytorch-2.14', '2026-11-30'),
 ('tensorflow', 'TensorFlow', '2.21.0', '2026-03',
  'Google''s framework with a mature production stack (LiteRT, TF Serving), now slow-moving: Keras 3 is its front end and parts of its ecosystem are deprioritized. Eager by default since TensorFlow 2, graphs through tf.function (superseding seed 003''s static-graph picture).',
  'fw-tf-2.21', '2026-12-02'),
 ('jax', 'JAX', '0.11.2', '2026-09',
  'Functional NumPy-like library with composable grad/jit/vmap and XLA compilation, native on TPU and strong for very large sharded training.',
  'fw-jax-0.11.2', '2026-11-30'),
 ('keras', 'Keras', '3.15.1', '2026-07',
  'High-level multi-backend API (JAX, TensorFlow, PyTorch) for quick prototyping and teaching; Keras 2 lives on as tf-keras.',
  'fw-keras-3.15', '2026-11-30'),
 ('fastai', 'fastai', '2.8.7', '2026-02',
  'Layered high-level library on top of PyTorch with strong defaults for transfer learning, aimed at fast results by non-specialists.',
  'fw-fastai-4142', '2026-11-30'),
 ('mlx', 'MLX', '0.32.1', '2026-08-18',
  'Apple''s array framework for Apple Silicon with unified memory and lazy evaluation, plus a young CUDA back-end and a CPU build on Linux.',
  'fw-mlx-0.32', '2026-11-30'),
 ('paddlepaddle', 'PaddlePaddle', '3.4.0', '2026-04',
  'Baidu''s industrial framework with dynamic/static graph unification, automatic parallelism and plug-ins for many Chinese accelerators.',
  'fw-paddle-3.4', '2026-11-30'),
 ('mindspore', 'MindSpore', '2.11.0', '2026',
  'Huawei''s framework built around Ascend NPUs and CANN, with graph and PyNative modes and automatic parallelism for large Ascend clusters.',
  'fw-mindspore-2.11', '2026-12-02');

INSERT INTO criteria (id, name, description, weight, source, as_of) VALUES
 ('single_device_speed', 'Single-device training speed',
  'Throughput of a training step on one accelerator with the framework''s usual compilation path; 10 = fastest.', 1.0, 'seed-001', '2026-11-30'),
 ('multi_device_scaling', 'Multi-device scaling',
  'How close to linear training scales over many devices and nodes, and how mature the parallelism tools are; 10 = near-linear with mature tools.', 1.0, 'seed-001', '2026-11-30'),
 ('memory_efficiency', 'Memory efficiency',
  'How much model and activation state fits per device (buffer reuse, sharding, recomputation); 10 = fits the most per device.', 1.0, 'seed-001', '2026-11-30'),
 ('debugging', 'Debugging experience',
  'How easily errors are located: eager execution, readable stack traces, breakpoints and prints inside the model; 10 = easiest to debug.', 1.0, 'seed-001', '2026-11-30'),
 ('deployment', 'Ease of deployment',
  'How directly a trained model reaches servers, mobile, edge and browsers with maintained runtimes; 10 = easiest and best supported.', 1.0, 'seed-001', '2026-11-30'),
 ('training_efficiency', 'Training efficiency (cost)',
  'Compute cost of a training job with default settings rather than expert tuning; 10 = cheapest out of the box.', 1.0, 'seed-003', '2026-04-17'),
 ('talent', 'Talent pool',
  'How easy it is to hire or train engineers who know the framework; 10 = abundant.', 1.0, 'seed-003', '2026-04-17'),
 ('hardware_fit', 'Hardware fit',
  'How well the framework runs on the hardware in the answers: scored per platform in hw_support.fit (seed 003 rates PyTorch GPU-friendly (GPU 友好), TensorFlow balanced between TPU and GPU (TPU/GPU 均衡), JAX excellent on TPU (TPU 极佳)); 10 = a primary, well-tuned target.', 1.0, 'seed-003', '2026-04-17'),
 ('maintenance_cost', 'Maintenance cost',
  'Ongoing cost of upgrades, breaking changes, dependency pinning and long-term project risk; 10 = cheapest to maintain.', 1.0, 'seed-003', '2026-04-17'),
 ('stage_fit', 'Fit across project stages',
  'How well the framework serves the stages a project passes through, from learning and research to production and very large training; 10 = fits all stages.', 1.0, 'seed-003', '2026-04-17'),
 ('learning_curve', 'Learning curve',
  'How quickly a newcomer becomes productive (API clarity, documentation, tutorials); 10 = easiest to learn.', 1.0, 'seed-002', '2025-03-31'),
 ('ecosystem', 'Ecosystem',
  'Breadth of pretrained models, libraries, tutorials and community answers built on the framework; 10 = richest.', 1.0, 'seed-000', '2026-11-30'),
 ('maturity', 'Production maturity',
  'Stability of APIs and releases and track record in long-running production use; 10 = most mature and stable.', 1.0, 'seed-003', '2026-04-17');

-- PyTorch
INSERT INTO scores (framework, criterion, score, note, source, also, as_of) VALUES
 ('pytorch', 'single_device_speed', 7, 'Seed 001 rates it medium (中等) against JAX''s fast XLA path; raised one step because torch.compile brings training speed close to JAX (seed 002).', 'seed-001', 'seed-002', '2026-11-30'),
 ('pytorch', 'multi_device_scaling', 8, 'Seed 001 rates it good (好): DDP is mature, about 95% of linear speed-up on 8x A100; FSDP2 per-parameter sharding plus DeepSpeed and Megatron Core, which integrate most tightly with PyTorch, add sharded and 3D parallelism.', 'seed-001', 'fsdp2-docs', '2026-11-30'),
 ('pytorch', 'memory_efficiency', 6, 'Seed 001 rates it medium (中等): plain DDP replicates all model state, though FSDP2 or ZeRO-3 recover much of it (seed 002: about 60% less memory with ZeRO-3).', 'seed-001', '', '2026-11-30'),
 ('pytorch', 'debugging', 9, 'Seed 001 rates it excellent (优秀): eager execution lets you print tensors and set breakpoints anywhere in the model.', 'seed-001', '', '2026-11-30'),
 ('pytorch', 'deployment', 7, 'Seed 001 rates it average (一般) because of TorchScript export pain; raised two steps since TorchScript is deprecated in favour of torch.export and ExecuTorch 1.0 is a stable on-device runtime with Core ML, QNN, XNNPACK and other back-ends. Seed 002 calls its pure-CPU deployment less mature than TensorFlow''s (纯CPU部署不如TF成熟: pure-CPU deployment less mature than TF); superseded: ONNX Runtime and OpenVINO serve exported PyTorch models on x86 and Arm CPUs.', 'seed-001', 'executorch-1.0,torchscript-deprecated,seed-002,openvino-docs', '2026-12-02'),
 ('pytorch', 'training_efficiency', 6, 'Seed 003 rates it medium (中), needing tuning (需调优): default eager runs leave speed on the table until torch.compile, mixed precision and kernel choices are tuned.', 'seed-003', '', '2026-04-17'),
 ('pytorch', 'talent', 9, 'Seed 003 rates the talent pool abundant (丰富), easy to hire (易招聘); seed 002 cites 92% of NeurIPS 2024 papers using PyTorch.', 'seed-003', 'seed-002', '2026-04-17'),
 ('pytorch', 'maintenance_cost', 8, 'Seed 003 rates maintenance cost low (低); a steady two-month release cadence with deprecation periods keeps upgrades routine.', 'seed-003', 'pytorch-2.11', '2026-04-17'),
 ('pytorch', 'stage_fit', 9, 'Seed 003 places it in research and iteration (研发/迭代期), and with torch.export and ExecuTorch it now also covers production, so it fits nearly every stage.', 'seed-003', 'executorch-1.0', '2026-04-17'),
 ('pytorch', 'learning_curve', 7, 'Pythonic API and the most tutorials (seed 002 recommends it for a first image classifier), though lower-level than Keras or fastai.', 'seed-002', '', '2025-03-31'),
 ('pytorch', 'ecosystem', 10, 'The richest ecosystem: Hugging Face transformers v5 is PyTorch-only, and DeepSpeed and Megatron build on it.', 'hf-transformers-38758', 'seed-000', '2025-06-11'),
 ('pytorch', 'maturity', 9, 'Stable 2.x line used widely in production; some older pieces were retired with successors in place (TorchScript for torch.export, TorchServe in limited maintenance).', 'torchscript-deprecated', 'torchserve-limited', '2025-07-01');

-- TensorFlow
INSERT INTO scores (framework, criterion, score, note, source, also, as_of) VALUES
 ('tensorflow', 'single_device_speed', 6, 'Seed 001 rates it medium (中等); XLA can be enabled but is not the default path.', 'seed-001', '', '2026-11-30'),
 ('tensorflow', 'multi_device_scaling', 7, 'Seed 001 rates it good (好): MirroredStrategy, about 92% on 8x A100; lowered one step because the large-model tools (DeepSpeed, Megatron) target PyTorch and Horovod is legacy.', 'seed-001', 'tf-distribute,horovod-0.28.1', '2026-11-30'),
 ('tensorflow', 'memory_efficiency', 5, 'Seed 001 rates it medium (中等); lowered one step because tf.distribute has no ZeRO/FSDP-style sharding of model state comparable to PyTorch or JAX.', 'seed-001', 'tf-distribute', '2026-11-30'),
 ('tensorflow', 'debugging', 5, 'Seed 001 rates it average (一般): tf.function graph tracing makes errors harder to trace than eager code.', 'seed-001', '', '2026-11-30'),
 ('tensorflow', 'deployment', 7, 'Seed 001 rates it excellent (优秀) for TF Serving, TF Lite and TF.js; lowered two steps because TF Serving lags TensorFlow and TF.js is deprioritized, though LiteRT (ex TF Lite) remains strong for mobile.', 'seed-001', 'tf-serving-4132,tfjs-8546,litert-migration', '2026-08-12'),
 ('tensorflow', 'training_efficiency', 6, 'Seed 003 rates it medium (中).', 'seed-003', '', '2026-04-17'),
 ('tensorflow', 'talent', 5, 'Seed 003 rates the talent pool average (一般).', 'seed-003', '', '2026-04-17'),
 ('tensorflow', 'maintenance_cost', 4, 'Seed 003 rates maintenance cost medium (中); lowered two steps because Google has deprioritized TF.js and TF Serving lags releases, raising long-term risk for TF-centred stacks.', 'seed-003', 'tfjs-8546,tf-serving-4132', '2026-06-22'),
 ('tensorflow', 'stage_fit', 6, 'Seed 003 places it in mature production (成熟生产期); weak for research, where new work appears in PyTorch or JAX first.', 'seed-003', '', '2026-04-17'),
 ('tensorflow', 'learning_curve', 5, 'Seed 002 says it is steep to start and complex to debug, softened by Keras as its high-level API.', 'seed-002', '', '2025-03-31'),
 ('tensorflow', 'ecosystem', 5, 'Seed 000 calls its ecosystem complete, but Hugging Face transformers v5 dropped TensorFlow and TF.js is deprioritized.', 'seed-000', 'hf-transformers-38758,tfjs-8546', '2026-06-22'),
 ('tensorflow', 'maturity', 8, 'Seed 003 calls it the most stable choice for existing production; 2.x is mature but changes slowly.', 'seed-003', 'fw-tf-2.21', '2026-04-17');

-- JAX
INSERT INTO scores (framework, criterion, score, note, source, also, as_of) VALUES
 ('jax', 'single_device_speed', 8, 'Seed 001 rates it fast (快) thanks to whole-program XLA compilation; torch.compile has narrowed the gap (seed 002).', 'seed-001', 'seed-002', '2026-11-30'),
 ('jax', 'multi_device_scaling', 9, 'Seed 001 rates it excellent (优秀): pmap, about 98% on 8x A100; today''s path is jit with NamedSharding or shard_map, since pmap is in maintenance mode from 0.8.0.', 'seed-001', 'jax-pmap-migrate', '2025-10-01'),
 ('jax', 'memory_efficiency', 8, 'Seed 001 rates it high (高): pure functions let XLA fuse operators and reuse buffers.', 'seed-001', '', '2026-11-30'),
 ('jax', 'debugging', 4, 'Seed 001 rates it poor (较差): compiled code is hard to step through, though jax.debug.print and disabling jit help.', 'seed-001', '', '2026-11-30'),
 ('jax', 'deployment', 5, 'Seed 001 rates it average (一般): serving goes through jax.export or conversion to TensorFlow/LiteRT rather than a runtime of its own.', 'seed-001', 'dist-jax2tf', '2026-11-30'),
 ('jax', 'training_efficiency', 8, 'Seed 003 rates it high (高), optimized by default (默认优化), and estimates about 20% compute savings at scale.', 'seed-003', '', '2026-04-17'),
 ('jax', 'talent', 3, 'Seed 003 rates the talent pool scarce (稀缺), costly (成本高), and advises budgeting about 30% extra for experts or training.', 'seed-003', '', '2026-04-17'),
 ('jax', 'maintenance_cost', 3, 'Seed 003 rates maintenance cost high (高); lowered one step because in 2026-09 JAX 0.11.x and Flax releases were out of sync, breaking flax.nnx imports until pins were adjusted.', 'seed-003', 'fw-flax-5596', '2026-09-22'),
 ('jax', 'stage_fit', 7, 'Seed 003 places it at very large-scale training (超大规模训练) and seed 000 at research; weak for beginners and for deployment-heavy products.', 'seed-003', 'seed-000', '2026-04-17'),
 ('jax', 'learning_curve', 3, 'Seed 001 advises 3+ months of PyTorch first; the functional style and explicit PRNG keys are a steep change, and seed 002 finds its documentation less rich than PyTorch''s or TensorFlow''s (文档不如前两者丰富: documentation less rich than the other two).', 'seed-001', 'seed-002', '2026-12-02'),
 ('jax', 'ecosystem', 5, 'Seed 002 puts community support at about 1/5 of PyTorch''s, and Hugging Face transformers v5 dropped JAX; Flax, Optax and Google''s own models remain.', 'seed-002', 'hf-transformers-38758', '2025-06-11'),
 ('jax', 'maturity', 6, 'Used for Google''s largest models, but still 0.x with effort-based versioning and frequent breaking changes between meso versions.', 'fw-jax-0.11.2', '', '2026-09-21');

-- Keras
INSERT INTO scores (framework, criterion, score, note, source, as_of) VALUES
 ('keras', 'single_device_speed', 6, 'Speed is that of the chosen backend (JAX is usually the fastest); the high-level layer adds little on standard models.', 'keras-pypi', '2026-11-30'),
 ('keras', 'multi_device_scaling', 6, 'Data and model parallel distribution work best on the JAX backend; very large 3D-parallel training is better served by the underlying frameworks directly.', 'keras-pypi', '2026-11-30'),
 ('keras', 'memory_efficiency', 6, 'Inherits the backend''s memory behaviour; few knobs for sharding or recomputation at the Keras level.', 'keras-pypi', '2026-11-30'),
 ('keras', 'debugging', 6, 'Simple models are easy to check, but errors surface from the backend beneath an extra layer of abstraction.', 'seed-001', '2026-11-30'),
 ('keras', 'deployment', 6, 'Exports through the backend (SavedModel to LiteRT, ONNX, OpenVINO for inference); seed 002 pairs Keras with MobileNet for low-budget projects.', 'keras-pypi', '2026-11-30'),
 ('keras', 'training_efficiency', 6, 'Good defaults (compile/fit, mixed precision) give reasonable cost without tuning; on par with the backend.', 'seed-002', '2025-03-31'),
 ('keras', 'talent', 6, 'Widely taught, so many engineers know it, though deep Keras 3 multi-backend experience is rarer.', 'seed-002', '2025-03-31'),
 ('keras', 'maintenance_cost', 6, 'Frequent releases with security hardening (3.13.2, 3.15.1); behaviour changes between minors (e.g. callback state) need tests on upgrade.', 'fw-keras-3.15', '2026-07-31'),
 ('keras', 'stage_fit', 6, 'Seed 002 recommends it for rapid prototypes and teaching; less suited to custom research or frontier-scale training.', 'seed-002', '2025-03-31'),
 ('keras', 'learning_curve', 9, 'Seed 002: same code on several backends, no need to learn low-level details; the easiest start among general frameworks.', 'seed-002', '2025-03-31'),
 ('keras', 'ecosystem', 6, 'KerasHub and the backends'' ecosystems help, but the TensorFlow side of that ecosystem is shrinking.', 'keras-pypi', '2026-11-30'),
 ('keras', 'maturity', 7, 'Keras 3 is stable since late 2023 and Keras 2 continues as tf-keras for old code.', 'keras-pypi', '2026-11-30');

-- fastai
INSERT INTO scores (framework, criterion, score, note, source, as_of) VALUES
 ('fastai', 'single_device_speed', 6, 'Runs on PyTorch with built-in mixed precision and one-cycle schedules; no compiler of its own.', 'seed-002', '2025-03-31'),
 ('fastai', 'multi_device_scaling', 4, 'Offers DDP/Accelerate wrappers for a few GPUs; not a tool for sharded or large-cluster training.', 'seed-002', '2025-03-31'),
 ('fastai', 'memory_efficiency', 5, 'Plain PyTorch memory use; mixed precision helps, but no sharding integration.', 'seed-002', '2025-03-31'),
 ('fastai', 'debugging', 6, 'PyTorch eager underneath, but the callback and data-block layers hide where an error comes from.', 'seed-002', '2025-03-31'),
 ('fastai', 'deployment', 5, 'Learner.export pickles the whole learner; serious deployment goes through the PyTorch model and its export paths.', 'executorch-1.0', '2025-10-17'),
 ('fastai', 'training_efficiency', 6, 'Seed 002: transfer-learning defaults reach good results in few epochs, which keeps small jobs cheap.', 'seed-002', '2025-03-31'),
 ('fastai', 'talent', 4, 'A small specialist community, though any PyTorch engineer can pick it up.', 'seed-002', '2025-03-31'),
 ('fastai', 'maintenance_cost', 5, 'Releases often cap the torch version (2.8.6 blocked torch 2.10 until 2.8.7) and fastcore 2.x broke fastai 2.8.7 training, so pins need care.', 'fw-fastcore2-break', '2026-09-16'),
 ('fastai', 'stage_fit', 5, 'Seed 002 recommends it for non-CS users, quick validation and Kaggle beginners; production and large-scale work move to plain PyTorch.', 'seed-002', '2025-03-31'),
 ('fastai', 'learning_curve', 9, 'Seed 002: layered API and automatic dataset wrapping suit people without a CS background.', 'seed-002', '2025-03-31'),
 ('fastai', 'ecosystem', 6, 'Uses PyTorch and timm models directly and has a well-known course, but few libraries build on fastai itself.', 'seed-002', '2025-03-31'),
 ('fastai', 'maturity', 6, 'Long-lived (v2 since 2020) but maintained by a small team; dependency breakages recur.', 'fw-fastcore2-break', '2026-09-16');

-- MLX
INSERT INTO scores (framework, criterion, score, note, source, as_of) VALUES
 ('mlx', 'single_device_speed', 6, 'Well tuned on Apple Silicon GPUs, which are themselves slower than data-centre accelerators; the CUDA back-end is young.', 'mlx-0.31.1', '2026-03-16'),
 ('mlx', 'multi_device_scaling', 3, 'Has distributed primitives for small clusters of Macs, but nothing comparable to FSDP, ZeRO or XLA sharding at scale.', 'mlx-0.31.1', '2026-03-16'),
 ('mlx', 'memory_efficiency', 7, 'Unified memory on Apple Silicon lets models use most of system RAM without host-device copies, and lazy evaluation avoids needless buffers.', 'mlx-0.31.1', '2026-03-16'),
 ('mlx', 'debugging', 6, 'NumPy-like Python API that is easy to inspect, but lazy evaluation moves errors away from the line that caused them.', 'mlx-0.31.1', '2026-03-16'),
 ('mlx', 'deployment', 4, 'Targets Apple devices (Swift bindings, an ExecuTorch MLX back-end); no server or browser runtime story of its own.', 'executorch-1.0', '2025-10-17'),
 ('mlx', 'training_efficiency', 5, 'Cheap for local fine-tuning on a Mac, but not a cost-efficient path for large training jobs.', 'mlx-0.31.1', '2026-03-16'),
 ('mlx', 'talent', 3, 'A young framework with a small user base centred on Mac LLM tooling (mlx-lm).', 'fw-mlx-0.32', '2026-08-18'),
 ('mlx', 'maintenance_cost', 5, 'Still 0.x with frequent releases; users saw result differences moving from 0.31.2 to 0.32, so upgrades need regression tests.', 'fw-mlx-0.32', '2026-08-18'),
 ('mlx', 'stage_fit', 4, 'Fits learning and local experimentation or fine-tuning on Macs; not production training at scale.', 'mlx-0.31.1', '2026-03-16'),
 ('mlx', 'learning_curve', 6, 'Familiar NumPy/PyTorch-like API, but documentation and examples are thinner than the big frameworks''.', 'mlx-0.31.1', '2026-03-16'),
 ('mlx', 'ecosystem', 4, 'Growing around mlx-lm and mlx-vlm for LLMs on Macs; little beyond that.', 'fw-mlx-0.32', '2026-08-18'),
 ('mlx', 'maturity', 4, 'Released in late 2023 and still 0.x; APIs and numerics still change between minor releases.', 'fw-mlx-0.32', '2026-08-18');

-- PaddlePaddle
INSERT INTO scores (framework, criterion, score, note, source, as_of) VALUES
 ('paddlepaddle', 'single_device_speed', 6, 'The CINN compiler and FlashMask kernels give vendor-reported speed-ups; no independent comparison confirms them.', 'fw-paddle-3.3', '2026-02-03'),
 ('paddlepaddle', 'multi_device_scaling', 8, 'Automatic and hybrid parallelism (DP, TP, PP, sharding, MoE) used for Baidu''s large models; 3.0 reports auto-parallel matching hand-written parallelism on Llama models.', 'paddle-3.0', '2025-04-01'),
 ('paddlepaddle', 'memory_efficiency', 6, 'Sharding, recomputation and the 3.3 memory-observation tool are available; typical for a large-model framework.', 'fw-paddle-3.3', '2026-02-03'),
 ('paddlepaddle', 'debugging', 7, 'Dynamic graph by default, like PyTorch; 3.3 adds graph visualisation and tensor checks for debugging.', 'fw-paddle-3.3', '2026-02-03'),
 ('paddlepaddle', 'deployment', 7, 'Training and inference share one stack (Paddle Inference, Paddle Lite, FastDeploy); widely deployed in Chinese industry.', 'paddle-3.0', '2025-04-01'),
 ('paddlepaddle', 'training_efficiency', 6, 'FlashMask V3 (3.3) and earlier FP8 training support target LLM training cost; the gains are vendor-reported.', 'fw-paddle-3.3', '2026-02-03'),
 ('paddlepaddle', 'talent', 4, 'Common in China, rare elsewhere; documentation is Chinese-first.', 'paddle-3.0', '2025-04-01'),
 ('paddlepaddle', 'maintenance_cost', 5, 'Frequent releases (3.1, 3.2, 3.3, 3.4 in about a year) and hardware plug-ins versioned separately from the core.', 'fw-paddle-3.4', '2026-04-22'),
 ('paddlepaddle', 'stage_fit', 6, 'Suits industrial production in the Chinese ecosystem (OCR, NLP suites) from training to deployment; less used for research outside China.', 'paddle-3.0', '2025-04-01'),
 ('paddlepaddle', 'learning_curve', 6, 'PyTorch-like dynamic-graph API, but English material is thinner.', 'paddle-3.0', '2025-04-01'),
 ('paddlepaddle', 'ecosystem', 5, 'Strong domain suites (PaddleOCR, PaddleNLP, PaddleX), small share of the global model ecosystem.', 'paddle-3.0', '2025-04-01'),
 ('paddlepaddle', 'maturity', 7, 'Open source since 2016 with long industrial use; the 3.x line keeps 2.x APIs compatible.', 'paddle-3.0', '2025-04-01');

-- MindSpore
INSERT INTO scores (framework, criterion, score, note, source, as_of) VALUES
 ('mindspore', 'single_device_speed', 5, 'Fast in graph mode on Ascend with operator fusion; off Ascend there is little reason to expect good speed.', 'mindspore-2.5', '2026-11-30'),
 ('mindspore', 'multi_device_scaling', 7, 'Automatic parallelism and MindFormers run large Ascend clusters (TP, PP, EP, CP); that scale is Ascend-only.', 'fw-mindspore-2.9', '2026-04-27'),
 ('mindspore', 'memory_efficiency', 6, 'Graph-mode memory reuse and recomputation on Ascend; typical of a compiled framework.', 'mindspore-2.5', '2026-11-30'),
 ('mindspore', 'debugging', 5, 'PyNative mode is debuggable, but performance work happens in graph mode, which is hard to debug.', 'mindspore-2.5', '2026-11-30'),
 ('mindspore', 'deployment', 5, 'MindSpore Lite and Ascend inference cover Huawei devices; few targets outside that ecosystem.', 'fw-mindspore-2.9', '2026-04-27'),
 ('mindspore', 'training_efficiency', 6, 'Good cost on Ascend clusters where it is the native framework; elsewhere not competitive.', 'mindspore-2.5', '2026-11-30'),
 ('mindspore', 'talent', 3, 'A small pool, mostly in China and around Huawei Ascend deployments.', 'mindspore-2.5', '2026-11-30'),
 ('mindspore', 'maintenance_cost', 4, 'Each release is tied to a specific CANN version (2.7.2 requires CANN 8.5.0), so framework and driver stack upgrade together.', 'fw-mindspore-2.7.2', '2026-11-30'),
 ('mindspore', 'stage_fit', 5, 'Fits production training and inference on Ascend; little used for research or prototyping outside it.', 'mindspore-2.5', '2026-11-30'),
 ('mindspore', 'learning_curve', 4, 'Two execution modes, Ascend/CANN setup and Chinese-first documentation make the start slower.', 'mindspore-2.5', '2026-11-30'),
 ('mindspore', 'ecosystem', 3, 'MindFormers, MindSpeed and Huawei model suites; small outside Huawei''s ecosystem.', 'mindspore-2.5', '2026-11-30'),
 ('mindspore', 'maturity', 6, 'Open source since 2020 with regular releases (2.9.0 in 2026-04) and production use on Ascend.', 'fw-mindspore-2.9', '2026-04-27');

-- Superseded seed claims -----------------------------------------------------------------------
-- Seed 003 describes TensorFlow as a static-graph framework; that is TensorFlow 1. The frameworks
-- row above now says so, citing this source (read 2026-12-02).

INSERT INTO sources (id, title, url, published, note) VALUES
 ('tf-eager-default', 'TensorFlow API: tf.compat.v1.enable_eager_execution (Migrate to TF2)',
  'https://www.tensorflow.org/api_docs/python/tf/compat/v1/enable_eager_execution', 'undated',
  '"This function is not necessary if you are using TF2. Eager execution is enabled by default." Graphs come from tf.function. Supersedes seed 003''s static-graph description of TensorFlow. Read 2026-12-02.');
