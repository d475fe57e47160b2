-- Deployment runtimes and the export path from each training framework to each runtime.
-- `targets` is a comma-separated subset of server,mobile,edge,browser ('' for none); `hardware`
-- the serving hardware it runs on (the deploy_hardware answer: cpu, nvidia, amd, apple, qualcomm,
-- intel, tpu, ascend); `kinds` the model kinds it serves ('' any). runtime_frameworks.path says
-- how a framework's model gets there: native (its own format), converter (an official
-- converter), indirect (through another framework or format).
-- There are no runtime_frameworks rows for `none`: every framework keeps its own checkpoint.

INSERT INTO sources (id, title, url, published, note) VALUES
 ('dist-litert-pytorch', 'Google AI Edge: Convert PyTorch models to LiteRT (AI Edge Torch, superseded by litert-torch)',
  'https://ai.google.dev/edge/litert/models/convert_pytorch', 'undated',
  'ai_edge_torch.convert(model.eval(), sample_inputs) then .export(''model.tflite''); broad CPU coverage, initial GPU and NPU support; Generative Torch API for LLMs. Superseded by litert-torch: the converter was renamed LiteRT Torch.'),
 ('litert-torch', 'google-ai-edge/litert-torch: LiteRT Torch (the PyTorch converter formerly AI Edge Torch)',
  'https://github.com/google-ai-edge/litert-torch', '2026',
  'LiteRT Torch converts PyTorch models to .tflite for LiteRT, built on torch.export with Core ATen coverage; broad CPU coverage, initial GPU and NPU support; the PyTorch converter is Beta, the Generative API (LLMs) Alpha; Linux, Python 3.10 or later. Read 2026-12-02.'),
 ('dist-keras-export', 'Keras 3 API: Model.export (model export for inference)',
  'https://keras.io/api/models/model_saving_apis/export/', 'undated',
  'format "tf_saved_model" (default), "onnx", "openvino" or "litert"; the JAX backend writes SavedModels through jax2tf.'),
 ('dist-keras-litert-guide', 'Keras guide: Exporting Keras models to LiteRT',
  'https://keras.io/guides/litert_export/', '2025-12-10',
  'model.export(..., format="litert") with the PyTorch backend (via litert-torch) or the TensorFlow backend; last modified 2026-07-06.'),
 ('dist-jax2tf', 'JAX jax2tf README (JAX and TensorFlow interoperation)',
  'https://github.com/google/jax/blob/5b0b8ac58aa43b55de32eedd65c47e20e43db52b/jax/experimental/jax2tf/README.md', 'undated',
  'jax2tf.convert turns a JAX function into TensorFlow ops, saved as a SavedModel for TensorFlow Serving, TensorFlow Lite and TensorFlow.js; Orbax Export wraps it.'),
 ('dist-torch-onnx', 'PyTorch documentation: TorchDynamo-based ONNX exporter (torch.onnx)',
  'https://docs.pytorch.org/docs/stable/onnx_dynamo.html', 'undated',
  'torch.onnx.export with the torch.export/Dynamo capture path (dynamo=True, the default from PyTorch 2.9 per secondary sources); the TorchScript-based exporter is the legacy path.'),
 ('dist-tf2onnx', 'tf2onnx (onnx/tensorflow-onnx): convert TensorFlow, Keras, TF.js and TFLite models to ONNX',
  'https://github.com/onnx/tensorflow-onnx', 'undated',
  'CLI and Python API; README asks for a new maintainer and tests TensorFlow 2.13-2.15 only.'),
 ('dist-paddle2onnx', 'Paddle2ONNX: convert PaddlePaddle models to ONNX',
  'https://github.com/PaddlePaddle/Paddle2ONNX', 'undated',
  'paddle2onnx --model_dir src --save_file model.onnx.'),
 ('dist-mindspore-export', 'MindSpore API: mindspore.export',
  'https://www.mindspore.cn/docs/zh-CN/master/api_python/mindspore/mindspore.export.html', 'undated',
  'file_format "MINDIR" (MindSpore Lite), "ONNX" or "AIR" (deprecated); single tensors up to 2 GB for ONNX/AIR.'),
 ('dist-coremltools-pytorch', 'Core ML Tools: PyTorch conversion workflow',
  'https://apple.github.io/coremltools/docs-guides/source/convert-pytorch-workflow.html', 'undated',
  'Capture with torch.jit.trace (stable, recommended) or torch.export.export (beta since coremltools 8.0, ~70% op coverage), then coremltools.convert.'),
 ('dist-coremltools-convert', 'Core ML Tools API: coremltools.convert (unified TensorFlow and PyTorch converter)',
  'https://apple.github.io/coremltools/source/coremltools.converters.convert.html', 'undated',
  'Converts TensorFlow 1, TensorFlow 2 (tf.keras, SavedModel) and PyTorch models to a neural network or ML program.'),
 ('dist-tfjs-converter', 'TensorFlow.js converter README (@tensorflow/tfjs-converter, pip tensorflowjs)',
  'https://www.npmjs.com/package/@tensorflow/tfjs-converter', 'undated',
  'tensorflowjs_converter converts a TensorFlow SavedModel, TF Hub module, Keras HDF5, tf.keras SavedModel or Flax/JAX model into TF.js graph or layers models.'),
 ('dist-ort-rocm-removed', 'microsoft/onnxruntime PR 25181: Delete ROCM EP',
  'https://github.com/microsoft/onnxruntime/pull/25181', '2025-06-26',
  'ROCm execution provider removed (shipped in ONNX Runtime 1.23); AMD GPUs use the MIGraphX (or Vitis AI) execution provider.'),
 ('dist-triton-backends', 'Triton Inference Server backend repository (supported backends)',
  'https://github.com/triton-inference-server/backend', 'undated',
  'Supported backends tested each release: TensorRT, ONNX Runtime, TensorFlow (GraphDef and SavedModel), PyTorch (libtorch / TorchScript), OpenVINO, Python, FIL.'),
 ('dist-tfjs-8719', 'tensorflow/tfjs issue 8719: Is this project deprecated?',
  'https://github.com/tensorflow/tfjs/issues/8719', '2026-06-10',
  'User notes the last npm release of @tensorflow/tfjs was about two years earlier; maintainers answer similar issues that the team cannot prioritise them and asks for community pull requests.');

INSERT INTO runtimes (id, name, targets, hardware, kinds, status, summary, source, as_of) VALUES
 ('none', 'No deployment runtime (training or research only)', '', '', '', 'current',
  'Nothing to ship: keep the framework''s own checkpoint (safetensors, torch.save, SavedModel / .keras, Orbax). Seed article 003 warns against optimising before the model is validated; seed article 001 still advises testing the export path early once production is planned.',
  'seed-003', '2026-04-17'),
 ('litert', 'LiteRT (formerly TensorFlow Lite)', 'mobile,edge', 'cpu,qualcomm,apple', '', 'current',
  'Google''s on-device runtime for Android, iOS, embedded Linux such as a Raspberry Pi, and microcontrollers, with GPU and NPU (e.g. Qualcomm) delegates. TensorFlow Lite was renamed LiteRT on 2024-09-04; the .tflite format is unchanged, the Python runtime is ai-edge-litert, and tf.lite.Interpreter leaves TensorFlow in 2.20. Seed article 002 (Q4, data to 2025-03) calls TF Lite the best choice for a Raspberry Pi and finds PyTorch Mobile''s quantization tool chain less mature: the first still holds under the LiteRT name, the second is dated (PyTorch Mobile gave way to ExecuTorch 1.0).',
  'litert-migration', '2024-09-04'),
 ('executorch', 'ExecuTorch', 'mobile,edge', 'cpu,qualcomm,apple,intel', '', 'current',
  'PyTorch''s on-device runtime, stable since 1.0 (2025-10-17) and at 1.5.1 (2026-09-18; the pip package is still labelled beta): torch.export -> to_edge -> to_executorch -> .pte, with back-ends XNNPACK (Arm and x86 CPUs), Core ML and MLX (Apple), Qualcomm QNN, OpenVINO (Intel), Arm and MediaTek. It replaces PyTorch Mobile and the TorchScript Lite Interpreter.',
  'executorch-1.5.1', '2026-12-02'),
 ('onnxruntime', 'ONNX Runtime', 'server,mobile,edge,browser', 'cpu,nvidia,amd,apple,qualcomm,intel,ascend', '', 'current',
  'Framework-neutral inference engine for ONNX models on Windows, Linux, macOS, Android, iOS and the web (ONNX Runtime Web, WebGPU), with execution providers for CUDA, TensorRT, DirectML, OpenVINO, QNN, Core ML, NNAPI, XNNPACK, CANN and MIGraphX. The ROCm execution provider was removed in 1.23: on AMD GPUs use MIGraphX. Seed article 002 (Q4) suggests ONNX Runtime when inference must be very light, e.g. on a Raspberry Pi.',
  'onnxruntime-docs', '2026-11-30'),
 ('coreml', 'Core ML (coremltools)', 'mobile,edge', 'apple', '', 'current',
  'Apple''s on-device runtime for iPhone, iPad and Mac, using the CPU, GPU and Neural Engine. coremltools converts PyTorch (a torch.jit.trace graph is still Apple''s recommended path; torch.export conversion is beta since coremltools 8.0) and TensorFlow models; ExecuTorch can also delegate to Core ML.',
  'dist-coremltools-pytorch', '2026-11-30'),
 ('tf-serving', 'TensorFlow Serving', 'server', 'cpu,nvidia,tpu', '', 'maintenance',
  'gRPC/REST model server for TensorFlow SavedModels. Effectively in maintenance: in 2026-03 users asked whether it was still maintained while it supported only TensorFlow 2.19 (tensorflow/serving#4132); Serving 2.20.0 followed in 2026-08, still behind TensorFlow 2.21. Seed article 001 praises the TF Serving / TF Lite / TF.js suite as TensorFlow''s production advantage: dated for Serving and TF.js.',
  'tf-serving-4132', '2026-08-12'),
 ('triton', 'NVIDIA Triton Inference Server', 'server', 'nvidia,cpu', '', 'current',
  'Multi-framework model server for NVIDIA GPUs and x86/Arm CPUs (TensorRT, ONNX Runtime, TensorFlow SavedModel, PyTorch libtorch, OpenVINO and Python back-ends) with dynamic batching and many models per GPU. A common choice for serving PyTorch models now that TorchServe is in limited maintenance; Triton''s PyTorch back-end loads TorchScript, which is deprecated, so prefer ONNX or TensorRT exports for new models. It does not run on AMD GPUs, TPUs or Ascend NPUs.',
  'dist-triton-backends', '2026-11-30'),
 ('tfjs', 'TensorFlow.js', 'browser', 'cpu', '', 'maintenance',
  'Runs models in the browser (WebGL, WebGPU, WASM) and in Node.js after conversion with tensorflowjs_converter. Deprioritised: maintainers answer issues that they cannot prioritise them and ask for community pull requests (tfjs#8546, 2026-06), and users note no npm release for about two years (tfjs#8719). ONNX Runtime Web is the main alternative for browser inference.',
  'tfjs-8546', '2026-06-22'),
 ('vllm', 'vLLM', 'server', 'nvidia,amd,tpu,intel,ascend,apple,cpu', 'llm', 'current',
  'High-throughput LLM serving (PagedAttention, continuous batching, OpenAI-compatible API) from Hugging Face-format checkpoints. Runs on NVIDIA CUDA, AMD ROCm, Intel XPU and x86/Arm CPUs, on Google TPUs through the tpu-inference plug-in (JAX lowering), on Ascend NPUs through vllm-ascend and on Apple Silicon GPUs through vLLM-Metal. Intel Gaudi (vllm-gaudi, maintained by Intel''s Gaudi team) and AWS Trainium (vLLM Neuron) are served by their own plug-in rows, vllm-gaudi and vllm-neuron, each with its own install and model list. Linux only (WSL on Windows).',
  'vllm-install', '2026-12-02'),
 ('sglang', 'SGLang', 'server', 'nvidia,amd,tpu,intel,ascend,cpu', 'llm', 'current',
  'LLM and vision-language serving engine (RadixAttention prefix caching, structured output) for NVIDIA and AMD GPUs, Ascend NPUs, TPUs, Intel XPUs and CPU servers.',
  'sglang-hw', '2026-11-30'),
 ('tensorrt-llm', 'NVIDIA TensorRT-LLM', 'server', 'nvidia', 'llm', 'current',
  'NVIDIA''s LLM inference library (in-flight batching, paged KV cache, FP8/FP4 kernels) for data-centre NVIDIA GPUs, served alone or through Triton. The highest throughput on NVIDIA at the price of an engine build per model and GPU; not on Jetson''s main branch.',
  'tensorrt-llm-jetson', '2026-11-30'),
 ('tensorrt', 'NVIDIA TensorRT', 'server,edge', 'nvidia', '', 'current',
  'NVIDIA''s inference optimizer and runtime: ONNX (or Torch-TensorRT, TF-TRT) models compiled to an engine per GPU. The standard path on Jetson edge devices (JetPack; TensorRT Edge-LLM for language models) and a back-end of Triton on servers.',
  'tensorrt-llm-jetson', '2026-11-30'),
 ('openvino', 'Intel OpenVINO', 'server,edge', 'cpu,intel', '', 'current',
  'Intel''s inference toolkit: converts PyTorch, TensorFlow, ONNX, Keras, PaddlePaddle and JAX/Flax models and runs them on Intel CPUs, integrated and discrete GPUs and NPUs, on other x86 CPUs, and on Arm CPUs (Linux, macOS) through its Arm CPU plug-in, which its docs call a community-level add-on (f32 and f16, experimental i8; docs.openvino.ai, read 2026-12-02); INT4 weights through NNCF; OpenVINO Model Server and Optimum Intel for serving.',
  'openvino-docs', '2026-11-30'),
 ('jetstream', 'JetStream', 'server', 'tpu', 'llm', 'current',
  'Google''s throughput- and memory-optimized LLM inference engine for XLA devices, starting with TPUs, with reference engines for JAX (MaxText) and PyTorch (jetstream-pytorch). vLLM on TPU (tpu-inference) is the other route.',
  'jetstream', '2026-11-30'),
 ('mindie', 'Huawei MindIE', 'server', 'ascend', 'llm,diffusion', 'current',
  'Mind Inference Engine for Ascend NPUs: MindIE LLM (continuous batching, PagedAttention) serves MindSpore (MindFormers) and PyTorch (torch_npu) models, MindIE SD serves diffusion models; Ascend also runs vLLM through vllm-ascend.',
  'mindie', '2026-11-30'),
 ('paddle-lite', 'Paddle Lite', 'mobile,edge', 'cpu,qualcomm', '', 'current',
  'PaddlePaddle''s lightweight inference engine for mobile, embedded and IoT devices: Arm CPUs, Mali and Adreno GPUs, Huawei NPUs and others; models come from Paddle''s own format.',
  'paddle-lite', '2026-11-30'),
 ('mindspore-lite', 'MindSpore Lite', 'mobile,edge,server', 'cpu,ascend', '', 'current',
  'MindSpore''s lightweight inference engine: device-side models for phones and edge devices, cloud-side models on Ascend (Atlas 300I Duo, 800I A3) and x86/Arm CPUs; converts MindSpore, ONNX, TensorFlow and TFLite models.',
  'mindspore-lite', '2026-11-30');

INSERT INTO runtime_frameworks (runtime, framework, path, note, source, as_of) VALUES
 ('litert', 'tensorflow', 'native', 'tf.lite.TFLiteConverter.from_saved_model (or from_keras_model) -> .tflite; run with the ai-edge-litert package (tf.lite.Interpreter leaves TensorFlow in 2.20).', 'litert-migration', '2024-09-04'),
 ('litert', 'keras', 'native', 'model.export(path, format="litert") in Keras 3 with the TensorFlow or PyTorch backend (the latter through litert-torch).', 'dist-keras-litert-guide', '2026-11-30'),
 ('litert', 'pytorch', 'converter', 'litert-torch (LiteRT Torch, formerly AI Edge Torch): convert(model.eval(), sample_inputs) then export("model.tflite") on torch.export-able models; its Generative API for LLMs.', 'litert-torch', '2026-12-02'),
 ('litert', 'jax', 'indirect', 'jax2tf (or Orbax Export) to a SavedModel, then the TFLite converter.', 'dist-jax2tf', '2026-11-30'),
 ('litert', 'fastai', 'converter', 'Convert learn.model (a PyTorch module) with litert-torch (formerly AI Edge Torch).', 'litert-torch', '2026-12-02'),

 ('executorch', 'pytorch', 'native', 'torch.export.export -> executorch.exir.to_edge -> to_executorch -> .pte, delegated to XNNPACK, Core ML, QNN, OpenVINO and others. Seed article 001 advised testing the TorchScript export early before large-scale production (dated: TorchScript is deprecated and ExecuTorch replaced its Lite Interpreter; the same advice now applies to torch.export).', 'executorch-1.0', '2025-10-17'),
 ('executorch', 'fastai', 'native', 'Export learn.model (a PyTorch nn.Module) through the same torch.export -> .pte path.', 'executorch-1.0', '2025-10-17'),

 ('onnxruntime', 'pytorch', 'converter', 'torch.onnx.export with the torch.export/Dynamo-based exporter (the TorchScript-based exporter is legacy; test dynamic shapes).', 'dist-torch-onnx', '2026-11-30'),
 ('onnxruntime', 'tensorflow', 'converter', 'tf2onnx (python -m tf2onnx.convert --saved-model ...); the project is looking for a maintainer and tests only TensorFlow 2.13-2.15, so check newer TF versions.', 'dist-tf2onnx', '2026-11-30'),
 ('onnxruntime', 'keras', 'converter', 'model.export(path, format="onnx") in Keras 3 (also format="openvino").', 'dist-keras-export', '2026-11-30'),
 ('onnxruntime', 'jax', 'indirect', 'No direct exporter: jax2tf to a SavedModel, then tf2onnx (indirect; verify numerics).', 'dist-jax2tf', '2026-11-30'),
 ('onnxruntime', 'paddlepaddle', 'converter', 'Paddle2ONNX: paddle2onnx --model_dir ... --save_file model.onnx.', 'dist-paddle2onnx', '2026-11-30'),
 ('onnxruntime', 'mindspore', 'converter', 'mindspore.export(net, inputs, file_name, file_format="ONNX") (each tensor at most 2 GB).', 'dist-mindspore-export', '2026-11-30'),
 ('onnxruntime', 'fastai', 'converter', 'torch.onnx.export on learn.model.', 'dist-torch-onnx', '2026-11-30'),

 ('coreml', 'pytorch', 'converter', 'coremltools.convert on a torch.jit.trace graph (Apple''s recommended, stable path) or a torch.export ExportedProgram (beta since coremltools 8.0); ExecuTorch''s Core ML back-end is the other route.', 'dist-coremltools-pytorch', '2026-11-30'),
 ('coreml', 'tensorflow', 'converter', 'coremltools.convert on a SavedModel or a tf.keras model.', 'dist-coremltools-convert', '2026-11-30'),
 ('coreml', 'keras', 'indirect', 'TensorFlow backend: export a SavedModel (model.export) and convert it with coremltools; Keras 3 model objects are not documented as direct converter inputs.', 'dist-coremltools-convert', '2026-11-30'),
 ('coreml', 'fastai', 'converter', 'Trace learn.model and convert it with coremltools (PyTorch path).', 'dist-coremltools-pytorch', '2026-11-30'),

 ('tf-serving', 'tensorflow', 'native', 'tf.saved_model.save (or Keras model.export) to a versioned SavedModel directory served by tensorflow_model_server; Serving releases lag TensorFlow (2.20.0 in 2026-08 vs TF 2.21).', 'tf-serving-4132', '2026-08-12'),
 ('tf-serving', 'keras', 'native', 'model.export(path) writes a SavedModel (default format tf_saved_model) from the TensorFlow or JAX backend (JAX through jax2tf).', 'dist-keras-export', '2026-11-30'),
 ('tf-serving', 'jax', 'converter', 'jax2tf.convert or Orbax Export to a SavedModel.', 'dist-jax2tf', '2026-11-30'),

 ('triton', 'pytorch', 'converter', 'Export to ONNX (ONNX Runtime back-end) or build a TensorRT engine; the PyTorch back-end loads TorchScript, which is deprecated. TorchServe, the old PyTorch server, is in limited maintenance.', 'dist-triton-backends', '2026-11-30'),
 ('triton', 'tensorflow', 'native', 'TensorFlow back-end serving a SavedModel or GraphDef (or convert to ONNX / TensorRT).', 'dist-triton-backends', '2026-11-30'),
 ('triton', 'keras', 'converter', 'model.export to a SavedModel (TensorFlow back-end) or format="onnx" (ONNX Runtime back-end).', 'dist-keras-export', '2026-11-30'),
 ('triton', 'jax', 'indirect', 'SavedModel through jax2tf (TensorFlow back-end), or the Python back-end running JAX directly.', 'dist-jax2tf', '2026-11-30'),
 ('triton', 'paddlepaddle', 'converter', 'Paddle2ONNX, then the ONNX Runtime back-end.', 'dist-paddle2onnx', '2026-11-30'),
 ('triton', 'mindspore', 'converter', 'mindspore.export to ONNX, then the ONNX Runtime back-end.', 'dist-mindspore-export', '2026-11-30'),
 ('triton', 'fastai', 'converter', 'As for PyTorch: export learn.model to ONNX or TensorRT.', 'dist-triton-backends', '2026-11-30'),

 ('tfjs', 'tensorflow', 'converter', 'tensorflowjs_converter on a SavedModel (TF.js graph model).', 'dist-tfjs-converter', '2026-11-30'),
 ('tfjs', 'keras', 'converter', 'tensorflowjs_converter for Keras 2 / tf-keras HDF5 models (layers model); for Keras 3 export a SavedModel first (model.export) and convert that.', 'dist-tfjs-converter', '2026-11-30'),
 ('tfjs', 'jax', 'converter', 'The tensorflowjs package converts Flax/JAX models directly (through jax2tf), or convert a jax2tf SavedModel with tensorflowjs_converter.', 'dist-tfjs-converter', '2026-11-30'),

 ('vllm', 'pytorch', 'native', 'Loads Hugging Face-format (PyTorch, safetensors) checkpoints directly; LLM fine-tunes from PyTorch need no conversion.', 'vllm-install', '2026-11-30'),
 ('vllm', 'jax', 'converter', 'Export the weights to a Hugging Face-format safetensors checkpoint (e.g. MaxText''s conversion scripts); on TPUs vLLM itself lowers models through JAX.', 'vllm-install', '2026-11-30'),
 ('vllm', 'paddlepaddle', 'indirect', 'Convert the weights to a Hugging Face-format checkpoint of a supported architecture first.', 'vllm-install', '2026-11-30'),
 ('vllm', 'mindspore', 'indirect', 'Convert MindFormers weights to a Hugging Face-format checkpoint of a supported architecture first (MindIE is the native route on Ascend).', 'vllm-install', '2026-11-30'),
 ('sglang', 'pytorch', 'native', 'Loads Hugging Face-format checkpoints directly.', 'sglang-hw', '2026-11-30'),
 ('sglang', 'jax', 'converter', 'Export the weights to a Hugging Face-format checkpoint; SGLang also has a JAX back-end for TPUs.', 'sglang-hw', '2026-11-30'),
 ('tensorrt-llm', 'pytorch', 'native', 'Hugging Face-format checkpoints through the LLM API (PyTorch back-end) or a built TensorRT engine.', 'tensorrt-llm-jetson', '2026-11-30'),
 ('tensorrt-llm', 'jax', 'indirect', 'Convert the weights to a Hugging Face-format checkpoint first.', 'tensorrt-llm-jetson', '2026-11-30'),

 ('tensorrt', 'pytorch', 'converter', 'Torch-TensorRT, or export to ONNX and build an engine with trtexec.', 'tensorrt-llm-jetson', '2026-11-30'),
 ('tensorrt', 'tensorflow', 'converter', 'TF-TRT, or tf2onnx then trtexec.', 'tensorrt-llm-jetson', '2026-11-30'),
 ('tensorrt', 'keras', 'converter', 'model.export(format="onnx"), then trtexec.', 'dist-keras-export', '2026-11-30'),
 ('tensorrt', 'jax', 'indirect', 'jax2tf to a SavedModel, ONNX, then an engine.', 'dist-jax2tf', '2026-11-30'),
 ('tensorrt', 'paddlepaddle', 'converter', 'Paddle Inference''s TensorRT sub-graph engine, or Paddle2ONNX then trtexec.', 'dist-paddle2onnx', '2026-11-30'),
 ('tensorrt', 'mindspore', 'indirect', 'mindspore.export to ONNX, then trtexec.', 'dist-mindspore-export', '2026-11-30'),
 ('tensorrt', 'fastai', 'converter', 'As for PyTorch: Torch-TensorRT or ONNX.', 'tensorrt-llm-jetson', '2026-11-30'),

 ('openvino', 'pytorch', 'converter', 'openvino.convert_model on an nn.Module or torch.export program; Optimum Intel for Hugging Face models.', 'openvino-docs', '2026-11-30'),
 ('openvino', 'tensorflow', 'converter', 'openvino.convert_model on a SavedModel or tf.keras model.', 'openvino-docs', '2026-11-30'),
 ('openvino', 'keras', 'native', 'Keras 3 has an OpenVINO inference backend and model.export(format="openvino").', 'dist-keras-export', '2026-11-30'),
 ('openvino', 'jax', 'converter', 'openvino.convert_model accepts JAX/Flax models.', 'openvino-docs', '2026-11-30'),
 ('openvino', 'paddlepaddle', 'converter', 'OpenVINO reads PaddlePaddle models directly.', 'openvino-docs', '2026-11-30'),
 ('openvino', 'fastai', 'converter', 'As for PyTorch: convert learn.model.', 'openvino-docs', '2026-11-30'),
 ('openvino', 'mindspore', 'indirect', 'mindspore.export to ONNX, then openvino.convert_model.', 'dist-mindspore-export', '2026-11-30'),

 ('jetstream', 'jax', 'native', 'MaxText models served by JetStream''s JAX engine.', 'jetstream', '2026-11-30'),
 ('jetstream', 'pytorch', 'converter', 'jetstream-pytorch (built on PyTorch/XLA) for supported model families.', 'jetstream', '2026-11-30'),

 ('mindie', 'mindspore', 'native', 'MindFormers models deployed through MindIE LLM and MindIE Service.', 'mindie', '2026-11-30'),
 ('mindie', 'pytorch', 'converter', 'Hugging Face-format weights of supported models through MindIE LLM''s ATB models (torch_npu).', 'mindie', '2026-11-30'),

 ('paddle-lite', 'paddlepaddle', 'native', 'paddle_lite_opt converts a Paddle inference model to the .nb format for the device.', 'paddle-lite', '2026-11-30'),

 ('mindspore-lite', 'mindspore', 'native', 'mindspore.export to MINDIR, then converter_lite to .ms (device) or .mindir (cloud, Ascend).', 'mindspore-lite', '2026-11-30'),
 ('mindspore-lite', 'tensorflow', 'converter', 'converter_lite --fmk=TF (or TFLITE).', 'mindspore-lite', '2026-11-30'),
 ('mindspore-lite', 'pytorch', 'indirect', 'Export to ONNX, then converter_lite --fmk=ONNX.', 'mindspore-lite', '2026-11-30');

-- Trainium and Gaudi ---------------------------------------------------------------------------
-- LLM serving on the two platforms through the vendors' own vLLM plug-ins (checked 2026-12-02).

INSERT INTO sources (id, title, url, published, note) VALUES
 ('neuron-vllm', 'AWS Neuron documentation: vLLM Neuron, LLM serving on Neuron',
  'https://awsdocs-neuron.readthedocs-hosted.com/en/latest/vllm-neuron/index.html', '2026-09-01',
  'The vLLM Neuron plug-in (vllm-project/vllm-neuron, introduced in Neuron 2.31, in beta) is the recommended path for serving LLMs on Trainium (Trn2, Trn3): vllm serve with an OpenAI-compatible API, continuous batching, prefix caching, EAGLE3 speculative decoding, disaggregated inference, quantization; it replaces vLLM through NxD Inference (neuronx-distributed-inference), with a migration guide. Read 2026-12-02.');

INSERT INTO runtimes (id, name, targets, hardware, kinds, status, summary, source, as_of) VALUES
 ('vllm-neuron', 'vLLM Neuron (vLLM on AWS Trainium)', 'server', 'trainium', 'llm', 'current',
  'vLLM with the Neuron plug-in (beta): the recommended LLM serving path on Trn2 and Trn3, with an OpenAI-compatible API, continuous batching and prefix caching; models NxD Inference serves migrate to it.',
  'neuron-vllm', '2026-12-02'),
 ('vllm-gaudi', 'vLLM on Intel Gaudi (vllm-gaudi)', 'server', 'gaudi', 'llm', 'current',
  'vLLM through the vLLM Hardware Plugin for Intel Gaudi, developed by Intel''s Gaudi team outside the main vLLM repository, on Gaudi 2 and Gaudi 3 with Intel Gaudi software 1.24.0 or later.',
  'vllm-gaudi', '2026-12-02');

INSERT INTO runtime_frameworks (runtime, framework, path, note, source, as_of) VALUES
 ('vllm-neuron', 'pytorch', 'converter', 'Hugging Face-format checkpoints of the supported models, compiled for NeuronCores when the server starts.', 'neuron-vllm', '2026-12-02'),
 ('vllm-gaudi', 'pytorch', 'converter', 'Hugging Face-format checkpoints of the models vllm-gaudi supports, run on the hpu device.', 'vllm-gaudi', '2026-12-02');
-- Deployment targets' memory: what one app may use on each deploy_device (the facts
-- deploy_memory_gb and deploy_share, read by knowledge/advisor_deploy.c), and the fewest bits per
-- weight each on-device runtime runs (<runtime>_weight_bits). Read 2026-12-02.
INSERT INTO sources (id, title, url, published, note) VALUES
 ('ios-app-memory', 'introlab/rtabmap PR 1446: the increased-memory-limit entitlement, measured with os_proc_available_memory',
  'https://github.com/introlab/rtabmap/pull/1446', '2025-02-12',
  'With com.apple.developer.kernel.increased-memory-limit (https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.kernel.increased-memory-limit) an iPhone 15 Pro (8 GB) gives one app 6 GB instead of 3 GB; an iPhone 12 4 GB instead of 3 GB. LLM apps (MLC-LLM, MLX Swift, pocketpal-ai PR 651) ship the entitlement.'),
 ('rpi5-product', 'Raspberry Pi 5 product page and brief (Raspberry Pi Ltd)',
  'https://www.raspberrypi.com/products/raspberry-pi-5/', '2023-09-28',
  'Broadcom BCM2712, quad-core Arm Cortex-A76 at 2.4 GHz; LPDDR4X-4267 SDRAM in 2, 4, 8 and 16 GB variants (16 GB from January 2025). The OS and desktop share the same memory.'),
 ('jetson-orin-modules', 'NVIDIA Jetson Orin modules (Jetson Orin Nano Super Developer Kit blog; Jetson AGX Orin series)',
  'https://developer.nvidia.com/blog/nvidia-jetson-orin-nano-developer-kit-gets-a-super-boost/', '2024-12-17',
  'Jetson Orin Nano 8 GB: 8 GB 128-bit LPDDR5 shared by the CPU and the GPU; NVIDIA lists Llama 3.1 8B at INT4 (MLC) running on it. Jetson AGX Orin 64 GB: 64 GB 256-bit LPDDR5 shared by CPU and GPU (https://www.nvidia.com/en-us/autonomous-machines/embedded-systems/jetson-orin/).'),
 ('webgpu-limits', 'W3C WebGPU specification: limits (maxBufferSize, maxStorageBufferBindingSize); mlc-ai/web-llm prebuilt model list',
  'https://www.w3.org/TR/webgpu/#limits', 'undated',
  'Default limits every adapter grants: maxBufferSize 268,435,456 bytes (256 MiB) and maxStorageBufferBindingSize 134,217,728 bytes (128 MiB); an application may request more up to the adapter''s own limit (often 2-4 GB per buffer), so weights are split into many buffers. WebAssembly''s 32-bit heap is at most 4 GiB. WebLLM (https://github.com/mlc-ai/web-llm, src/config.ts) lists vram_required_MB per model: an 8B at 4 bits needs about 5.3 GB, so a tab holds a model of a few GB in practice.'),
 ('executorch-llama-int4', 'ExecuTorch examples/models/llama README: Llama on phones with XNNPACK',
  'https://github.com/pytorch/executorch/blob/main/examples/models/llama/README.md', '2025',
  'Runs Llama 3.2 1B/3B, Llama 3.1 8B, Llama 3 8B and Llama 2 7B on phones with XNNPACK and 4-bit groupwise weight quantization (8da4w) "to fit the model on a phone".'),
 ('coremltools-int4', 'Core ML Tools: What''s New in optimization (iOS 18 / macOS 15: 4-bit weight quantization, per-block scales)',
  'https://apple.github.io/coremltools/docs-guides/source/opt-whats-new.html', 'undated',
  'linear_quantize_weights supports n = 4 and 8 bits; 4-bit weights with per-block scales need iOS 18 / macOS 15; palettization 1-8 bits.'),
 ('ort-matmulnbits', 'microsoft/onnxruntime commit: Add MatMul 4bits support on GPU (MatMulNBits, #17890)',
  'https://github.com/microsoft/onnxruntime/commit/11af34440a3e216903fcc9dd7e169969fdc24d03', '2023-10',
  'Contrib op MatMulNBits (weights quantized to 4 bits per block, dequantized in the product) on CPU and GPU, with the quantization tool (MatMul4BitsQuantizer, now matmul_nbits_quantizer).'),
 ('openvino-int4', 'OpenVINO: weight compression with NNCF (nncf.compress_weights, INT4_SYM / INT4_ASYM); Arm CPU device',
  'https://docs.openvino.ai/2025/openvino-workflow/model-optimization-guide/weight-compression.html', 'undated',
  'nncf.compress_weights stores LLM weights in INT8 or INT4 (symmetric or asymmetric, per group); OpenVINO models such as OpenVINO/MiniCPM-V-4_5-int4-cw-ov ship INT4. The Arm CPU device (https://docs.openvino.ai/latest/openvino_docs_OV_UG_supported_plugins_ARM_CPU.html) runs f32 and f16 with experimental i8, a community-level plug-in.');

INSERT INTO rules (id, kind, title, text, condition, effect, priority, source, as_of) VALUES
 ('deploy-share-default', 'rule_of_thumb', 'The share of a device''s memory one model may take',
  'On an edge board the operating system, the display and the runtime share the memory with the model: the plan gives the model three quarters of it (an assumption, stated in the plan; measure the board''s free memory with the runtime loaded).',
  '{}', '{"facts": {"deploy_share": 0.75}}', 0, 'rpi5-product', '2026-12-02'),
 ('deploy-phone', 'rule_of_thumb', 'A phone''s memory for one app',
  'A flagship phone of 8 GB (iPhone 15 Pro) gives one app about 6 GB with the increased-memory-limit entitlement, 3 GB without it (measured with os_proc_available_memory): the plan takes 8 GB x 0.75 = 6 GB.',
  '{"deploy_device": "phone"}', '{"facts": {"deploy_memory_gb": 8, "deploy_share": 0.75}}', 5, 'ios-app-memory', '2026-12-02'),
 ('deploy-rpi5-4gb', 'rule_of_thumb', 'Raspberry Pi 5 4 GB', 'The Raspberry Pi 5 with 4 GB of LPDDR4X, shared with the OS.',
  '{"deploy_device": "rpi5-4gb"}', '{"facts": {"deploy_memory_gb": 4}}', 5, 'rpi5-product', '2026-12-02'),
 ('deploy-rpi5-8gb', 'rule_of_thumb', 'Raspberry Pi 5 8 GB', 'The Raspberry Pi 5 with 8 GB of LPDDR4X, shared with the OS.',
  '{"deploy_device": "rpi5-8gb"}', '{"facts": {"deploy_memory_gb": 8}}', 5, 'rpi5-product', '2026-12-02'),
 ('deploy-rpi5-16gb', 'rule_of_thumb', 'Raspberry Pi 5 16 GB', 'The Raspberry Pi 5 with 16 GB of LPDDR4X, shared with the OS.',
  '{"deploy_device": "rpi5-16gb"}', '{"facts": {"deploy_memory_gb": 16}}', 5, 'rpi5-product', '2026-12-02'),
 ('deploy-jetson-orin-nano', 'rule_of_thumb', 'Jetson Orin Nano 8 GB',
  'The Jetson Orin Nano module''s 8 GB of LPDDR5 is shared by its CPU and GPU.',
  '{"deploy_device": "jetson-orin-nano"}', '{"facts": {"deploy_memory_gb": 8}}', 5, 'jetson-orin-modules', '2026-12-02'),
 ('deploy-jetson-agx-orin', 'rule_of_thumb', 'Jetson AGX Orin 64 GB',
  'The Jetson AGX Orin 64 GB module''s LPDDR5 is shared by its CPU and GPU.',
  '{"deploy_device": "jetson-agx-orin"}', '{"facts": {"deploy_memory_gb": 64}}', 5, 'jetson-orin-modules', '2026-12-02'),
 ('deploy-browser', 'rule_of_thumb', 'A browser tab''s memory for a model',
  'WebGPU grants 256 MiB buffers and 128 MiB storage bindings by default and more where the adapter allows; the wasm32 heap stops at 4 GiB, and WebLLM''s 8B at 4 bits asks for about 5.3 GB of GPU memory. The plan takes 4 GB as what a tab holds on a typical laptop, all of it for the model.',
  '{"deploy_device": "browser"}', '{"facts": {"deploy_memory_gb": 4, "deploy_share": 1}}', 5, 'webgpu-limits', '2026-12-02'),
 ('deploy-host', 'rule_of_thumb', 'A CPU server''s memory for a model',
  'A CPU server serves from its RAM (host_memory_gb, else this machine''s): the plan gives the model nine tenths of it, the rest to the OS and the serving process (an assumption).',
  '{"deploy_device": "host"}', '{"facts": {"deploy_share": 0.9}}', 5, 'rpi5-product', '2026-12-02'),
 ('weight-bits-executorch', 'rule_of_thumb', 'ExecuTorch runs 4-bit weights',
  'ExecuTorch runs 4-bit groupwise weights on XNNPACK (8da4w): its Llama example fits Llama 3 8B on a phone that way.',
  '{}', '{"facts": {"executorch_weight_bits": 4}}', 0, 'executorch-llama-int4', '2026-12-02'),
 ('weight-bits-coreml', 'rule_of_thumb', 'Core ML runs 4-bit weights',
  'coremltools quantizes weights to 4 bits with per-block scales for iOS 18 and macOS 15 (linear_quantize_weights), or palettizes them.',
  '{}', '{"facts": {"coreml_weight_bits": 4}}', 0, 'coremltools-int4', '2026-12-02'),
 ('weight-bits-onnxruntime', 'rule_of_thumb', 'ONNX Runtime runs 4-bit weights',
  'ONNX Runtime runs 4-bit block-quantized weights through its MatMulNBits operator (matmul_nbits_quantizer), on CPU and GPU.',
  '{}', '{"facts": {"onnxruntime_weight_bits": 4}}', 0, 'ort-matmulnbits', '2026-12-02'),
 ('weight-bits-openvino', 'rule_of_thumb', 'OpenVINO runs 4-bit weights',
  'OpenVINO runs INT4 weights from NNCF''s compress_weights on Intel CPUs, GPUs and NPUs (its Arm CPU plug-in is community-level, with experimental i8).',
  '{}', '{"facts": {"openvino_weight_bits": 4}}', 0, 'openvino-int4', '2026-12-02');

-- Local and desktop LLM runtimes ---------------------------------------------------------------
-- Laptops and desktops running a language model for one user are `deploy: edge` (the user's own
-- machine). Which of them a plan names follows the rules rt-local-llm-mac and
-- rt-local-llm-windows in 60_rules.sql: MLX-LM (then llama.cpp) on a Mac, llama.cpp (then
-- Ollama) on Windows. They serve language models only. Checked 2026-12-02.

INSERT INTO sources (id, title, url, published, note) VALUES
 ('llama-cpp', 'ggml-org/llama.cpp README: supported back-ends, GGUF, convert_hf_to_gguf.py',
  'https://github.com/ggml-org/llama.cpp', '2026',
  'LLM inference in C/C++ on CPUs (x86 AVX/AMX, Arm NEON) and GPUs through Metal (Apple Silicon), CUDA (NVIDIA), HIP (AMD), SYCL (Intel), Vulkan, CANN (Ascend) and OpenCL (Adreno); models in GGUF, converted from Hugging Face checkpoints with convert_hf_to_gguf.py; 1.5- to 8-bit integer quantisation; llama-server gives an OpenAI-compatible HTTP API. Read 2026-12-02.'),
 ('ollama', 'ollama/ollama README: get up and running with large language models',
  'https://github.com/ollama/ollama', '2026',
  'Installers for macOS and Windows, a script for Linux and a Docker image; ollama run pulls a model from its library (e.g. Llama 3.1 8B as a 4.7 GB 4-bit download); a Modelfile imports a GGUF file or a Safetensors checkpoint; a local REST API. Read 2026-12-02 (README as published on pkg.go.dev).'),
 ('mlx-lm', 'ml-explore/mlx-lm: generate text and fine-tune large language models on Apple silicon with MLX',
  'https://github.com/ml-explore/mlx-lm', '2026',
  'pip install mlx-lm; mlx_lm.generate and mlx_lm.server run Hugging Face models on Apple silicon, mlx_lm.convert --hf-path MODEL -q converts and quantises a Hugging Face checkpoint (4 bits by default), LoRA and full fine-tuning; thousands of converted models in the mlx-community organisation on the Hugging Face Hub. macOS only. Read 2026-12-02.');

INSERT INTO runtimes (id, name, targets, hardware, kinds, status, summary, source, as_of) VALUES
 ('llama-cpp', 'llama.cpp (GGUF)', 'edge', 'cpu,nvidia,amd,apple,intel,qualcomm,ascend', 'llm', 'current',
  'C/C++ LLM inference for the user''s own machine: CPUs and GPUs through Metal, CUDA, HIP, SYCL and Vulkan on macOS, Windows and Linux, with GGUF models quantised to 1.5-8 bits and an OpenAI-compatible llama-server. A Hugging Face checkpoint becomes GGUF with convert_hf_to_gguf.py; many models are published as GGUF already.',
  'llama-cpp', '2026-12-02'),
 ('ollama', 'Ollama', 'edge', 'cpu,nvidia,amd,apple', 'llm', 'current',
  'A desktop LLM runner for macOS, Windows and Linux on top of llama.cpp-style GGUF models: one installer, ollama run to pull a model from its library, a Modelfile to import a GGUF or Safetensors checkpoint, and a local REST API for applications.',
  'ollama', '2026-12-02'),
 ('mlx-lm', 'MLX-LM', 'edge', 'apple', 'llm', 'current',
  'Apple''s MLX package for language models on Apple silicon Macs: generation, an HTTP server, conversion and 4-bit quantisation of Hugging Face checkpoints (mlx_lm.convert) and LoRA fine-tuning, using the unified memory of M-series chips.',
  'mlx-lm', '2026-12-02');

INSERT INTO runtime_frameworks (runtime, framework, path, note, source, as_of) VALUES
 ('llama-cpp', 'pytorch', 'converter', 'Save the model as a Hugging Face checkpoint (safetensors), then convert_hf_to_gguf.py and llama-quantize to a 4-bit GGUF.', 'llama-cpp', '2026-12-02'),
 ('llama-cpp', 'mlx', 'converter', 'MLX-LM saves Hugging Face-format safetensors (mlx_lm.fuse after LoRA), which convert_hf_to_gguf.py turns into GGUF.', 'mlx-lm', '2026-12-02'),
 ('ollama', 'pytorch', 'converter', 'A Modelfile with FROM pointing at the Hugging Face Safetensors directory or a converted GGUF file, then ollama create.', 'ollama', '2026-12-02'),
 ('mlx-lm', 'pytorch', 'converter', 'mlx_lm.convert --hf-path reads the Hugging Face checkpoint a PyTorch model was saved as, -q quantises it.', 'mlx-lm', '2026-12-02'),
 ('mlx-lm', 'mlx', 'native', 'Models trained or fine-tuned in MLX load directly (mlx_lm.load, mlx_lm.server).', 'mlx-lm', '2026-12-02');

INSERT INTO rules (id, kind, title, text, condition, effect, priority, source, as_of) VALUES
 ('weight-bits-llama-cpp', 'rule_of_thumb', 'llama.cpp runs 4-bit weights',
  'llama.cpp runs GGUF weights quantised from 8 down to 1.5 bits; 4-bit formats are its usual choice for a desktop.',
  '{}', '{"facts": {"llama-cpp_weight_bits": 4}}', 0, 'llama-cpp', '2026-12-02'),
 ('weight-bits-ollama', 'rule_of_thumb', 'Ollama runs 4-bit weights',
  'Ollama''s library ships models as 4-bit downloads (Llama 3.1 8B as 4.7 GB).',
  '{}', '{"facts": {"ollama_weight_bits": 4}}', 0, 'ollama', '2026-12-02'),
 ('weight-bits-mlx-lm', 'rule_of_thumb', 'MLX-LM runs 4-bit weights',
  'mlx_lm.convert -q quantises a Hugging Face checkpoint to 4 bits by default.',
  '{}', '{"facts": {"mlx-lm_weight_bits": 4}}', 0, 'mlx-lm', '2026-12-02');

-- LiteRT-LM and Windows ML ---------------------------------------------------------------------
-- Google's LLM runtime on LiteRT (phones, desktops, browsers) and Microsoft's on-device inference
-- on Windows (a shared ONNX Runtime with vendor execution providers). Which of them a plan names
-- follows rt-litert-lm-browser and rt-windows-ml in 60_rules.sql. Checked 2026-12-02.

INSERT INTO sources (id, title, url, published, note) VALUES
 ('litert-lm', 'google-ai-edge/LiteRT-LM README; Google AI Edge: LiteRT-LM overview (ai.google.dev/edge/litert-lm/overview)',
  'https://github.com/google-ai-edge/LiteRT-LM', '2026',
  'A production-ready, open-source inference framework for LLMs on edge devices, built on LiteRT: Android, iOS, the web (JavaScript API with WebGPU), Linux, macOS and Windows desktops and IoT boards such as a Raspberry Pi; CPU everywhere, GPU on Android, iOS, macOS, Windows and Linux (the overview benchmarks an NVIDIA GeForce RTX 4090 on Linux), NPU on Android (Qualcomm and MediaTek, early access); models as .litertlm files built from converted LiteRT models; Gemma, Llama, Phi-4, Qwen; vision and audio input, function calling; it runs Chrome''s, Chromebook Plus''s and Pixel Watch''s on-device GenAI. README at v0.16.0: the Python, Kotlin and C++ APIs are stable, the Swift and JavaScript (web) APIs an early preview. Read 2026-12-02.'),
 ('windows-ml', 'Microsoft Learn: What is Windows ML; Windows ML supported execution providers',
  'https://learn.microsoft.com/en-us/windows/ai/new-windows-ml/overview', 'undated',
  'Windows ML runs ONNX models locally on Windows PCs (x64 and ARM64) and Windows Server through a shared, Windows-wide ONNX Runtime, and downloads and registers the vendors'' execution providers: CPU and DirectML (legacy) are included; MIGraphX and VitisAI (AMD), NvTensorRtRtx (NVIDIA), OpenVINO (Intel) and QNN (Qualcomm) come through the ExecutionProviderCatalog APIs on Windows 11 24H2 (build 26100) or later (https://learn.microsoft.com/en-us/windows/ai/new-windows-ml/supported-execution-providers). Models from PyTorch, TensorFlow/Keras, TFLite and scikit-learn reach it as ONNX. Generally available since September 2025 (Windows Developer Blog, "Windows ML is generally available"; the day, 2025-09-25 at the latest, only from press coverage). Read 2026-12-02.'),
 ('executorch-1.5.1', 'pytorch/executorch PR 22922: Bump ExecuTorch version to 1.5.1 (release-only change); executorch on PyPI',
  'https://github.com/pytorch/executorch/pull/22922', '2026-09-18',
  'The 1.5.1 patch release (2026-09-18, tested with torch 2.14.0); 1.1.0 followed 1.0 in January 2026 (pytorch/test-infra PR 7697) and 1.2.0 in April 2026. The PyPI page (https://pypi.org/project/executorch/1.5.0/) calls the pip package beta: Python 3.10-3.14, Linux x86_64 and aarch64, macOS aarch64; its prebuilt runtime links XNNPACK (plus Core ML and MLX on macOS). Read 2026-12-02.');

INSERT INTO runtimes (id, name, targets, hardware, kinds, status, summary, source, as_of) VALUES
 ('litert-lm', 'LiteRT-LM', 'mobile,edge,browser', 'cpu,qualcomm,apple,nvidia', 'llm', 'current',
  'Google''s open-source LLM runtime built on LiteRT, for Android and iOS phones, Linux, macOS and Windows desktops, IoT boards and the browser (WebGPU): CPU and GPU back-ends, NPUs on Android (Qualcomm, MediaTek), .litertlm model files (Gemma, Llama, Phi-4, Qwen), vision and audio input and function calling; it runs the on-device GenAI of Chrome, Chromebook Plus and Pixel Watch.',
  'litert-lm', '2026-12-02'),
 ('windows-ml', 'Windows ML', 'edge', 'cpu,nvidia,amd,intel,qualcomm', '', 'current',
  'Microsoft''s on-device inference for Windows apps, generally available since September 2025: ONNX models on a shared, Windows-wide ONNX Runtime that fetches the vendors'' execution providers (NVIDIA TensorRT for RTX, AMD MIGraphX and Vitis AI, Intel OpenVINO, Qualcomm QNN) on Windows 11 24H2 and later, with CPU and DirectML built in, so an app ships without its own runtime or providers. Models come from any framework through ONNX.',
  'windows-ml', '2026-12-02');

INSERT INTO runtime_frameworks (runtime, framework, path, note, source, as_of) VALUES
 ('litert-lm', 'pytorch', 'converter', 'litert-torch''s Generative API converts the model to LiteRT, then LiteRT-LM''s File Builder packs it into a .litertlm file.', 'litert-lm', '2026-12-02'),
 ('windows-ml', 'pytorch', 'converter', 'torch.onnx.export (the torch.export-based exporter), then load the .onnx model with Windows ML.', 'dist-torch-onnx', '2026-12-02'),
 ('windows-ml', 'tensorflow', 'converter', 'tf2onnx to an ONNX model (it tests only TensorFlow 2.13-2.15).', 'dist-tf2onnx', '2026-12-02'),
 ('windows-ml', 'keras', 'converter', 'model.export(path, format="onnx") in Keras 3.', 'dist-keras-export', '2026-12-02'),
 ('windows-ml', 'jax', 'indirect', 'jax2tf to a SavedModel, then tf2onnx (indirect; verify numerics).', 'dist-jax2tf', '2026-12-02'),
 ('windows-ml', 'paddlepaddle', 'converter', 'Paddle2ONNX, then the ONNX model in Windows ML.', 'dist-paddle2onnx', '2026-12-02'),
 ('windows-ml', 'mindspore', 'converter', 'mindspore.export(..., file_format="ONNX").', 'dist-mindspore-export', '2026-12-02'),
 ('windows-ml', 'fastai', 'converter', 'torch.onnx.export on learn.model.', 'dist-torch-onnx', '2026-12-02');
