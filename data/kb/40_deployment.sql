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
  'PyTorch''s on-device runtime, stable 1.0 (docs 2025-10-17): torch.export -> to_edge -> to_executorch -> .pte, with back-ends XNNPACK (Arm and x86 CPUs), Core ML and MLX (Apple), Qualcomm QNN, OpenVINO (Intel), Arm and MediaTek. It replaces PyTorch Mobile and the TorchScript Lite Interpreter.',
  'executorch-1.0', '2025-10-17'),
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
  'High-throughput LLM serving (PagedAttention, continuous batching, OpenAI-compatible API) from Hugging Face-format checkpoints. Runs on NVIDIA CUDA, AMD ROCm, Intel XPU and x86/Arm CPUs, on Google TPUs through the tpu-inference plug-in (JAX lowering), on Ascend NPUs through vllm-ascend and on Intel Gaudi through vllm-gaudi (maintained by Intel''s Gaudi team); Apple Silicon GPUs have vLLM-Metal. Linux only (WSL on Windows).',
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
  'Intel''s inference toolkit: converts PyTorch, TensorFlow, ONNX, Keras, PaddlePaddle and JAX/Flax models and runs them on Intel CPUs, integrated and discrete GPUs and NPUs (also x86 and Arm CPUs in general); OpenVINO Model Server and Optimum Intel for serving.',
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
