-- The advisor's own method, as data: the points a hardware-support level or an OS limit costs,
-- how much of the 0-100 score the criteria carry, the CPU peak without a probe, and the shapes
-- it derives for an LLM when the answers give none. docs/advisor.md explains each. Changing
-- advice means editing these rows, not C.

INSERT INTO sources (id, title, url, published, note) VALUES
 ('fwadvisor-method', 'fwadvisor ranking and planning method', 'docs/advisor.md in the fwadvisor source', '2026-11-30',
  'The project''s own documented modelling choices; each number is stated and can be changed with kb import.'),
 ('framework-tax-2023', 'Fernandez et al., The Framework Tax: Disparities Between Inference Efficiency in NLP Research and Deployment',
  'arXiv:2302.06117', '2023-02-13',
  'Framework overhead dominates small models and grows in share as hardware gets faster.'),
 ('cpu-mlp-measurement', 'CPU training-step measurement: PyTorch 1.13 on OpenBLAS, 2-core AMD EPYC (Zen 3)',
  'fwadvisor research notes on engines (measured MLP 784-1024-1024-10 step and sgemm)', '2026',
  'MLP step with Adam 52-54 GFLOP/s against 130-149 GFLOP/s for sgemm alone on the same cores.'),
 ('intel-opt-manual', 'Intel 64 and IA-32 Architectures Optimization Reference Manual',
  'https://www.intel.com/content/www/us/en/developer/articles/technical/intel64-and-ia32-architectures-optimization.html', '2024',
  'AVX2 cores with two FMA ports retire 2 x 8 single-precision FMAs (32 FLOP) per cycle.'),
 ('gpt3-2020', 'Brown et al., Language Models are Few-Shot Learners (Table 2.1, model shapes)', 'arXiv:2005.14165', '2020-05-28',
  'GPT-3 family: d_model / n_layers is 128 for the 6.7B to 175B models; head size 128; context 2048.');

INSERT INTO rules (id, kind, title, text, condition, effect, priority, source, as_of) VALUES
 ('method-ranking', 'rule_of_thumb', 'How scores are built',
  'The weighted criteria carry 60 of the 100 points: an average framework (of those that can run here) earns its share, and each framework gains or loses points criterion by criterion as it scores above or below that average. Support below first-class costs points (supported 4, experimental 12, community 16) on the answered hardware and operating system. A need a framework cannot meet costs 25: no runtime for the deployment target and serving hardware, or no strategy that fits the model states into device memory. A framework the team knows earns 20 (a related one a share); every rule that holds adds its points, and rules making the same seed claim count once. A runtime in maintenance costs 3, and a runtime the framework reaches natively earns 3 (through a converter 1).',
  '{}', '{"facts": {"criteria_points": 60, "level_supported": -4, "level_experimental": -12, "level_community": -16, "no_runtime": -25, "no_fit": -25, "familiar_points": 20, "runtime_maintenance": -3, "runtime_native": 3, "runtime_converter": 1, "runtime_indirect": 0}}',
  0, 'fwadvisor-method', '2026-11-30'),
 ('team-switching', 'rule_of_thumb', 'Switching to a framework the team does not know',
  'Seed 003: before switching frameworks, count the engineer-hours of the migration and plan a rollback; a promised speed-up must pay for the rewrite and its risk. When the team names what it knows, each framework it would have to learn costs 10 points (applies only when the team knows a framework: an empty team answer means unknown, and none means a team that knows no framework yet).',
  '{"team": ["fastai", "jax", "keras", "mindspore", "mlx", "paddlepaddle", "pytorch", "tensorflow"]}', '{"facts": {"switching_points": -10}}', 0, 'seed-003', '2026-04-17'),
 ('plan-cpu-peak', 'rule_of_thumb', 'CPU peak without a probe',
  'Without a probe the CPU peak is estimated as cores x 32 FP32 FLOP per cycle (two AVX2 FMA units) x 2.5 GHz; a probe measures it instead.',
  '{"hardware": "cpu"}', '{"facts": {"cpu_flop_per_cycle_per_core": 32, "cpu_assumed_ghz": 2.5}}', 0, 'intel-opt-manual', '2024-01-01'),
 ('plan-cpu-server-cores', 'rule_of_thumb', 'A CPU device that is not this machine',
  'When the answers plan CPU servers other than this machine (hardware cpu on several devices or nodes), each CPU device is taken as a 64-core server socket, such as an AMD EPYC 9554; a probe run on one of those servers measures it instead.',
  '{"hardware": "cpu"}', '{"facts": {"cpu_cores_per_device": 64}}', 0, 'amd-epyc-9554', '2026-12-01'),
 ('plan-llm-shape', 'rule_of_thumb', 'LLM shape when not given',
  'When seq_len, hidden, layers or heads are missing for an LLM, they are derived from model_params like GPT-3: params = 12 x layers x hidden^2 with hidden = 128 x layers, heads of 128, context 2048, micro-batch 1.',
  '{"model_kind": "llm"}', '{"facts": {"default_seq_len": 2048, "hidden_per_layer": 128, "head_dim": 128, "micro_batch": 1}}', 0, 'gpt3-2020', '2020-05-28'),
 ('plan-server-runtime', 'score', 'Serving on your own servers',
  'For server deployment a multi-framework inference server with dynamic batching on GPUs (NVIDIA Triton) is the default; TF Serving suits TensorFlow models but its maintenance is in question, and ONNX Runtime serves exported models anywhere.',
  '{"deploy": "server"}', '{"runtime": {"triton": 4, "tf-serving": 2, "onnxruntime": 2}}', 0, 'triton-docs', '2025-01-01');
