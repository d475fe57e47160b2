-- Accelerator catalog for the planner: memory, bandwidth, DENSE peak throughput per precision and
-- the links a plan's communication runs over. Never the 2:4-sparsity figures: where a vendor lists
-- only the sparse number, dense = sparse / 2 and the source note says so. fp32_tflops is the
-- non-tensor (vector) FP32 peak; tf32/bf16/fp16/fp8 are the dense matrix-unit peaks with FP32
-- accumulation (0: the device has no such mode). link_gbs is one direction per device to the peers
-- of its node or scale-up domain (NVLink, Infinity Fabric, ICI), network_gbs one direction per device
-- between nodes of the vendor's reference system (0: unknown, site-specific). memory_gb is the
-- vendor's nominal figure; HBM capacities are binary (80 GB = 80 GiB), so plans in 10^9-byte GB keep
-- about 7% in reserve. `match` is a lower-case substring of the name the driver or runtime reports
-- (nvidia-smi, rocm-smi, TPU_ACCELERATOR_TYPE, sysctl brand string, npu-smi, sycl-ls, hl-smi); the
-- longest match followed by a non-alphanumeric character wins ("nvidia l40" must not take "nvidia
-- l40s"). Devices that show several dies as several devices (MI250X, Max 1550) are listed per
-- visible device. Figures were checked with the search tool on 2026-11-30 and 2026-12-01 against the
-- source named in each row; notes say where a figure is derived or secondary.

INSERT INTO sources (id, title, url, published, note) VALUES
 ('hw-nvidia-v100', 'NVIDIA Tesla V100 data center GPU (datasheet / product page)',
  'https://www.nvidia.com/en-us/data-center/v100/', '2018',
  'V100 SXM2 32 GB: FP32 15.7 TFLOPS (non-tensor), tensor 125 TFLOPS (FP16 inputs, FP32 accumulate; NVIDIA developer blog "up to 125 Tensor TFLOPS"), HBM2 900 GB/s. Volta has no BF16, TF32 or FP8. NVLink 2: 300 GB/s per GPU counting both directions. DGX-1 (V100): 4 x 100 Gb/s EDR InfiniBand per 8 GPUs. nvidia-smi name "Tesla V100-SXM2-32GB".'),
 ('hw-nvidia-a100', 'NVIDIA A100 Tensor Core GPU datasheet',
  'https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf', '2021',
  'A100 SXM4: FP32 19.5 TFLOPS (non-tensor); TF32 tensor 156 dense (312 with sparsity); BF16/FP16 tensor 312 dense (624 with sparsity, not used); no FP8; 40 GB HBM2 1,555 GB/s; 80 GB HBM2e 2,039 GB/s; NVLink 3 600 GB/s per GPU (both directions). DGX A100: 8 x 200 Gb/s HDR InfiniBand, one per GPU. nvidia-smi names "NVIDIA A100-SXM4-40GB" / "NVIDIA A100-SXM4-80GB".'),
 ('hw-nvidia-h100', 'NVIDIA H100 Tensor Core GPU (datasheet / product page)',
  'https://www.nvidia.com/en-us/data-center/h100/', '2023',
  'H100 SXM: FP32 67 TFLOPS; TF32 989 with sparsity (494.7 dense); BF16/FP16 1,979 with sparsity, dense ~989.4 (use this); FP8 3,958 with sparsity, dense 1,978.9; 80 GB HBM3, 3.35 TB/s; NVLink 4 900 GB/s per GPU (both directions). DGX H100: 8 x 400 Gb/s NDR (ConnectX-7), one per GPU. nvidia-smi name "NVIDIA H100 80GB HBM3"; the PCIe and NVL boards report other names and have lower peaks, so they are not matched here.'),
 ('hw-nvidia-h200', 'NVIDIA H200 Tensor Core GPU (datasheet / product page)',
  'https://www.nvidia.com/en-us/data-center/h200/', '2023-11-13',
  'H200 SXM: same GH100 compute as H100 SXM (FP32 67, TF32 494.7, BF16/FP16 ~989.4, FP8 1,978.9 dense); 141 GB HBM3e at 4.8 TB/s; NVLink 4 900 GB/s. nvidia-smi name "NVIDIA H200"; the H200 NVL (PCIe) also contains "h200" but runs at a lower power limit.'),
 ('hw-nvidia-hgx-b200', 'NVIDIA HGX platform specifications (HGX B200 and HGX B300, per-GPU figures)',
  'https://www.nvidia.com/en-us/data-center/hgx/', '2025',
  'Per GPU in HGX B200: FP32 75 TFLOPS (the HGX page lists FP32 600 TFLOPS per 8 GPUs, rechecked 2026-12-02); TF32 2.25 PF with sparsity (1.1 dense); FP16/BF16 4.5 PF with sparsity, dense 2.25 PF; FP8 9 PF with sparsity, dense 4.5 PF; 180 GB HBM3e, 7.7 TB/s; NVLink 5 1.8 TB/s per GPU (both directions); 8 x 400 Gb/s networking per 8 GPUs. HGX B300 (Blackwell Ultra): the same FP32/TF32/BF16/FP8 rates per GPU (72 PF FP8 and 36 PF BF16 with sparsity per 8 GPUs), 288 GB HBM3e per GPU (2.3 TB per 8; about 270 GB visible to CUDA), 8 TB/s, 800 Gb/s ConnectX-8 networking per GPU. Compute capability 10.0 (B200), 10.3 (B300). nvidia-smi names "NVIDIA B200", "NVIDIA B300 ..." (matches start with "nvidia " so that GB200/GB300 are not taken for them).'),
 ('hw-nvidia-gb200', 'NVIDIA GB200 NVL72 specifications',
  'https://www.nvidia.com/en-us/data-center/gb200-nvl72/', '2024-03-18',
  'Rack of 72 Blackwell GPUs and 36 Grace CPUs in one NVLink domain (NVLink 5, 1.8 TB/s per GPU both directions, 130 TB/s per rack). Rack totals with sparsity: FP8 720 PF, FP16/BF16 360 PF, TF32 180 PF; FP32 5,760 TF; up to 13.4 TB HBM3e at 576 TB/s. The page''s footnote: tensor figures are sparse, dense is one half. Per GPU dense: FP8 5 PF, BF16/FP16 2.5 PF, TF32 1.25 PF; FP32 80 TF (5,760 TF per rack / 72, or 160 TF per GB200 superchip of two GPUs, rechecked 2026-12-02); 186 GB HBM3e at 8 TB/s. One 400 Gb/s NIC per GPU between racks (ConnectX-7; GB300 racks use 800 Gb/s ConnectX-8).'),
 ('hw-nvidia-blackwell-ultra', 'NVIDIA Technical Blog: Inside NVIDIA Blackwell Ultra: The Chip Powering the AI Factory Era',
  'https://developer.nvidia.com/blog/inside-nvidia-blackwell-ultra-the-chip-powering-the-ai-factory-era/', '2025-08',
  'Blackwell Ultra (GB300 and B300): two reticle-sized dies joined by NV-HBI (10 TB/s), 208B transistors, 160 SMs with 640 fifth-generation Tensor Cores and 15 PetaFLOPS dense NVFP4; 288 GB HBM3E per GPU in 8 stacks at 8 TB/s; fifth-generation NVLink 1.8 TB/s per GPU counting both directions (link_gbs 900), NVLink-C2C to the Grace CPU; up to 1,400 W. Dense BF16/FP16 2,250, TF32 1,100, FP8 4,500 and FP32 75 TFLOPS are the HGX page''s per-GPU rates for the same GPU (hw-nvidia-hgx-b200), stored as a lower bound because the GB300 NVL72 page was not in the stored material; third-party tables that quote it put the rack at 360 PF dense FP8 (5 PF a GPU), not used. GB300 racks have one 800 Gb/s ConnectX-8 NIC per GPU (the GB200 NVL72 page, hw-nvidia-gb200). Compute capability 10.3 as the B300 (Transformer Engine support matrix). Read 2026-12-02.'),
 ('hw-nvidia-l4', 'NVIDIA L4 Tensor Core GPU (datasheet / product page)',
  'https://www.nvidia.com/en-us/data-center/l4/', '2023-03',
  'L4: FP32 30.3 TFLOPS; TF32 120 with sparsity (60 dense); BF16/FP16 tensor 242 listed with sparsity, dense = 121; FP8 485 with sparsity (242.5 dense); 24 GB GDDR6, 300 GB/s; PCIe Gen4 x16, no NVLink; compute capability 8.9. nvidia-smi name "NVIDIA L4" (a substring of "NVIDIA L40S": the match needs a word end).'),
 ('hw-nvidia-l40', 'NVIDIA L40 / L40S datasheets (side-by-side specification table)',
  'https://www.nvidia.com/en-us/data-center/l40/', '2022-10',
  'L40: FP32 90.5 TFLOPS; TF32 90.5 dense (181 sparse); BF16/FP16 181.05 dense (362.1 sparse); FP8 362 dense (724 sparse). L40S: FP32 91.6; TF32 183 dense (366 sparse); BF16/FP16 362.05 dense (733 sparse); FP8 733 dense (1,466 sparse). Both 48 GB GDDR6 with ECC, 864 GB/s, PCIe Gen4 x16 (64 GB/s both directions), no NVLink; compute capability 8.9.'),
 ('hw-nvidia-t4', 'NVIDIA T4 Tensor Core GPU (product page and launch specifications)',
  'https://www.nvidia.com/en-us/data-center/tesla-t4/', '2018-09-13',
  'T4 (Turing): FP32 8.1 TFLOPS; mixed precision (FP16 multiply, FP32 accumulate) 65 TFLOPS; INT8 130 TOPS; 16 GB GDDR6, 320 GB/s; 70 W, PCIe Gen3 x16; compute capability 7.5. Turing has no BF16, TF32 or FP8. nvidia-smi name "Tesla T4". The free Colab GPU.'),
 ('hw-nvidia-a10g', 'Baseten: NVIDIA A10 vs A10G for ML model inference (spec comparison)',
  'https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-inference/', '2023',
  'Secondary source: NVIDIA publishes no A10G datasheet (an AWS-only variant of the A10 in EC2 G5). Confirmed: 24 GB GDDR6 at 600 GB/s, shared with the A10; the A10G trades tensor throughput for CUDA-core throughput. Tensor figures used here (FP32 35, TF32 35, BF16/FP16 70 TFLOPS dense) are the comparison table''s as remembered, not re-checked: prefer a probe measurement. GA102, compute capability 8.6, PCIe Gen4.'),
 ('hw-nvidia-ada', 'NVIDIA Ada GPU architecture whitepaper (GeForce RTX 4090 specifications)',
  'NVIDIA Ada GPU Architecture whitepaper, 2022, appendix table for GeForce RTX 4090', '2022',
  'RTX 4090: FP32 82.6 TFLOPS; TF32 tensor 82.6 dense; FP16/BF16 tensor with FP32 accumulate 165.2 dense (330.4 with sparsity); FP8 with FP32 accumulate 330.3 dense; FP16 with FP16 accumulate is 330.3 dense but training uses FP32 accumulate, so 165.2 is stored; 24 GB GDDR6X, 1,008 GB/s; PCIe Gen4, no NVLink, peer-to-peer disabled on GeForce; compute capability 8.9.'),
 ('hw-nvidia-rtx5090', 'GeForce RTX 5090 specifications (NVIDIA RTX Blackwell whitepaper figures, as tabulated by Spheron)',
  'https://www.spheron.network/blog/nvidia-rtx-5090-specs/', '2025-01',
  '32 GB GDDR7 on a 512-bit bus, 1,792 GB/s; 170 SMs, 21,760 CUDA cores, 680 5th-generation tensor cores; FP32 ~104.8-105 TFLOPS; FP16 tensor 838.4 and FP8 1,676.8 TFLOPS listed with sparsity and FP16 accumulate. Dense with FP32 accumulate, as training uses, is derived here as a quarter of those (209.5 BF16/FP16, 419 FP8; TF32 104.8), the same ratio as the RTX 4090 in the Ada whitepaper: derived, prefer a probe. PCIe Gen5 x16, no NVLink; compute capability 12.0 (sm_120).'),
 ('hw-amd-mi250x', 'AMD Instinct MI250X accelerator specifications',
  'https://www.amd.com/en/products/accelerators/instinct/mi200/mi250x.html', '2021-11',
  'MI250X (OAM): FP32 vector 47.9 TFLOPS (FP32 matrix 95.7); FP16/BF16 383 TFLOPS; 128 GB HBM2e, 3.2 TB/s (3,276.8 GB/s); no FP8 or TF32. One module holds two GCDs that ROCm shows as two devices of 64 GB each: the catalog row is one GCD (half of each figure). Infinity Fabric links run at 50 GB/s per direction for a 16-wide link (ROCm MI250 microarchitecture page); Frontier nodes have 4 x 200 Gb/s Slingshot for 8 GCDs.'),
 ('hw-amd-mi300x', 'AMD Instinct MI300X accelerator specifications',
  'https://www.amd.com/en/products/accelerators/instinct/mi300/mi300x.html', '2023-12-06',
  'MI300X: FP32 vector 163.4 TFLOPS; TF32 653.7 dense; FP16/BF16 dense 1,307.4 TFLOPS (2,614.9 with sparsity); FP8 2,614.9 dense; 192 GB HBM3, 5.3 TB/s. Eight GPUs in a fully connected Infinity Fabric mesh, 7 links of 64 GB/s per direction each (896 GB/s aggregate both directions); platforms pair each GPU with a 400 Gb/s NIC.'),
 ('hw-amd-mi325x', 'AMD Instinct MI325X accelerator specifications (AMD product page; figures as tabulated by third parties)',
  'https://www.amd.com/en/products/accelerators/instinct/mi300/mi325x.html', '2024-10-10',
  'Same CDNA 3 compute as MI300X (FP32 163.4, TF32 653.7, BF16/FP16 1,307.4, FP8 2,614.9 TFLOPS dense), 256 GB HBM3E at 6 TB/s, ~1,000 W; drop-in for the MI300X platform (same Infinity Fabric mesh). Cross-checked against two secondary spec tables on 2026-12-01.'),
 ('hw-amd-mi355x', 'AMD Instinct MI355X (AMD product page; The Register launch report and ISSCC 2026 coverage)',
  'https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x.html', '2025-06-12',
  'CDNA 4, 288 GB HBM3E at 8 TB/s, 1,400 W liquid-cooled. Dense: FP16/BF16 2.5 PF (2,516.6 TFLOPS), FP8 5.0 PF (5,033.2; the ISSCC paper doubles per-CU FP8 to 8,192 FLOP/clock), FP32 vector 157.3; AMD lists no TF32 matrix rate for CDNA 4, stored as 0. Infinity Fabric 4th generation: 537.6 GB/s per direction is AMD''s aggregate figure halved, not re-checked here.'),
 ('hw-amd-mi350x', 'AMD Instinct MI350X accelerator specifications (AMD product page; figures as tabulated by third parties)',
  'https://www.amd.com/en/products/accelerators/instinct/mi350/mi350x.html', '2025-06-12',
  'The air-cooled CDNA 4 part (1,000 W, 2.2 GHz peak against the MI355X''s 1,400 W and 2.4 GHz; Hot Chips 2025), 256 CUs, 288 GB HBM3E at 8 TB/s. Dense: FP16/BF16 2.3 PF (2,307 TFLOPS; 4.6 PF with sparsity, not used), FP8 4.6 PF (4,614 TFLOPS), FP32 vector 144.2 TFLOPS, FP64 72.1; no TF32 matrix rate on CDNA 4 (0). AMD''s page figures cross-checked against two secondary spec tables and the 2.2/2.4 clock ratio to the MI355X row on 2026-12-02; the Infinity Fabric figure is the MI355X''s, not re-checked.'),
 ('hw-amd-rx7900xtx', 'AMD Radeon RX 7900 XTX specifications (AMD product page; Guru3D review table)',
  'https://www.amd.com/en/products/graphics/desktops/radeon/7000-series/amd-radeon-rx-7900xtx.html', '2022-11-03',
  'RDNA 3 (Navi 31, gfx1100, supported by ROCm on Linux): 96 CUs, FP32 61.4 TFLOPS (dual issue), FP16/BF16 122.8 TFLOPS through WMMA, no FP8/TF32 matrix modes; 24 GB GDDR6, 960 GB/s; PCIe Gen4 x16. The consumer Radeon in the catalog: plan a desktop Radeon here, not as an MI300X.'),
 ('hw-tpu-v4', 'Google Cloud TPU v4 system architecture',
  'https://cloud.google.com/tpu/docs/v4', 'undated',
  'Per chip: 275 TFLOPS bf16 (or int8), 32 GiB HBM2, 1,200 GBps. Google publishes no FP32 or FP16 peak: fp32 here = bf16 / 6 (a full-precision f32 matmul runs as six bf16 passes, JAX precision HIGHEST; default precision uses one bf16 pass); the MXU has no FP16 mode, so fp16 is 0 (not supported): plan TPU work in bf16. ICI bandwidth not re-checked here (link 0: communication not estimated). Match on TPU_ACCELERATOR_TYPE, e.g. "v4-8".'),
 ('hw-tpu-v5e', 'Google Cloud TPU v5e system architecture',
  'https://docs.cloud.google.com/tpu/docs/v5e', 'undated',
  'Per chip: 197 TFLOPS bf16 (393 TOPS int8, no FP8 rate listed), 16 GB HBM2, 819 GBps; ICI 400 GBps per chip counting both directions (2D torus, 256-chip pods). Across slices (Multislice) traffic leaves over the data-centre network (DCN): 2 x 100 Gbps NICs per 8-chip host, 6.4 Tbps per 256-chip pod, i.e. 25 Gb/s (3.125 GB/s) per chip. The catalog''s link_gbs and network_gbs are both the in-slice ICI figure halved (200 GB/s per direction), because hosts of one slice talk over ICI; the schema has no column for the cross-slice DCN, so it is stated here and in the interconnect text. Checked 2026-12-02. fp32 derived as for v4 (bf16 / 6); no FP16 (0). Accelerator type names look like "v5litepod-8".'),
 ('hw-colab-tpu', 'googlecolab/colabtools#5566: deprecation of TPU v2-8 and introduction of TPU v5e-1 into the free tier',
  'https://github.com/googlecolab/colabtools/issues/5566', '2025-08-30',
  'Colab retired the free TPU v2-8 in September 2025; the free tier now offers TPU v5e-1, one v5e chip with 16 GB of HBM. A free Colab TPU plan is therefore devices 1, accelerator tpu-v5e.'),
 ('hw-tpu-v5p', 'Google Cloud TPU v5p system architecture',
  'https://docs.cloud.google.com/tpu/docs/v5p', 'undated',
  'Per chip: 459 TFLOPS bf16 and 459 FP8 (no faster FP8 rate), 95 GiB user-allocatable HBM2e of 96 GiB, 2,765 GBps; ICI 1,200 GBps per chip counting both directions (3D torus); DCN 50 Gbps (6.25 GB/s) per chip across slices. link_gbs and network_gbs are both the in-slice ICI figure halved (600 GB/s per direction): hosts of one slice talk over ICI, and the schema has no column for the cross-slice DCN, which is stated here and in the interconnect text. Checked 2026-12-02. fp32 derived as for v4 (bf16 / 6); no FP16 (0). Accelerator type names look like "v5p-8".'),
 ('hw-tpu-v6e', 'Google Cloud TPU v6e (Trillium) system architecture',
  'https://docs.cloud.google.com/tpu/docs/v6e', 'undated',
  'Per chip: 918 TFLOPS bf16 (1,836 TOPS int8; the TPU7x page lists 918 for FP8, no faster FP8 rate), 32 GB HBM at 1,638 GBps; ICI 800 GBps per chip counting both directions (2D torus, 256-chip pods), 8 chips per host. fp32 derived as for v4 (bf16 / 6); no FP16 (0). Accelerator type names look like "v6e-8".'),
 ('hw-tpu7x', 'Google Cloud TPU7x (Ironwood) system architecture and performance guide',
  'https://docs.cloud.google.com/tpu/docs/tpu7x', 'undated',
  'Per chip (two TensorCores): 2,307 TFLOPS BF16, 4,614 TFLOPS FP8, 192 GiB HBM; 9,216 chips per pod. The performance guide says FP8 can bring about 1.3x over BF16 training for matrix-heavy work. HBM bandwidth 7.37 TB/s and ICI 1.2 TB/s per chip (both directions) are Google''s launch figures, not re-checked here. fp32 derived as for v4 (bf16 / 6).'),
 ('hw-apple-m2-ultra', 'Apple introduces M2 Ultra (Apple Newsroom) and Mac Pro specifications',
  'https://www.apple.com/newsroom/2023/06/apple-introduces-m2-ultra/', '2023-06-05',
  'Up to 192 GB unified memory at 800 GB/s; 76-core GPU "up to 27.2 teraflops" FP32 (Apple Mac Pro page). Apple gives no FP16/BF16 figure: its GPUs run FP16 at the FP32 rate, and BF16 (Metal / MPS, macOS 14+) is assumed at the same rate. Memory is shared with the CPU and macOS caps the GPU working set below it. Thunderbolt 4 (40 Gb/s) between Macs.'),
 ('hw-apple-m3-max', 'Apple unveils M3, M3 Pro and M3 Max (Apple Newsroom)',
  'Apple Newsroom, "Apple unveils M3, M3 Pro, and M3 Max, the most advanced chips for a personal computer", 2023-10-30', '2023-10-30',
  'M3 Max with 40-core GPU: up to 128 GB unified memory, 400 GB/s. Apple publishes no TFLOPS: 14.3 FP32 is derived = 40 cores x 128 FP32 lanes x 2 x ~1.398 GHz (clock from third-party spec databases; the same formula reproduces Apple''s 27.2 TFLOPS for the 76-core M2 Ultra). FP16/BF16 assumed at the FP32 rate.'),
 ('hw-apple-m3-ultra', 'Apple Mac Studio (2025) with M3 Ultra: specifications',
  'https://www.apple.com/newsroom/2025/03/apple-unveils-new-mac-studio-the-most-powerful-mac-ever/', '2025-03-05',
  'M3 Ultra (two M3 Max dies, UltraFusion): up to 80-core GPU, up to 512 GB unified memory at 819 GB/s, Thunderbolt 5 (120 Gb/s). FP32 28.6 TFLOPS derived as for the M3 Max (80 x 128 x 2 x ~1.398 GHz); FP16/BF16 assumed at the FP32 rate.'),
 ('hw-apple-m4-max', 'Apple M4 Max (Apple Newsroom, MacBook Pro, 2024-10-30)',
  'https://www.apple.com/newsroom/2024/10/new-macbook-pro-features-m4-family-of-chips-and-apple-intelligence/', '2024-10-30',
  'M4 Max: up to 16-core CPU, 40-core GPU, up to 128 GB unified memory at 546 GB/s, Thunderbolt 5 (120 Gb/s). Apple publishes no TFLOPS: 16.1 FP32 derived = 40 x 128 x 2 x ~1.578 GHz (third-party clock); FP16/BF16 assumed at the FP32 rate.'),
 ('hw-ascend-910b', 'Gitee AI compute documentation: Huawei Ascend 910B',
  'https://ai.gitee.com/docs/compute/clusters_gpu/ascend_gpu', 'undated',
  'Secondary source (a cloud provider): 64 GB HBM2e, FP16 280 TFLOPS, FP16 and BF16 recommended. Huawei publishes no per-chip 910B datasheet and the 910B1-910B4 variants differ (secondary reports give 256-376 TFLOPS FP16). BF16 assumed equal to FP16; FP32 140 assumed at half the FP16 cube rate (one secondary source gives 128 FP32 vs 256 FP16); bandwidth 1,600 GB/s is unverified (secondary reports range from 0.4 to 1.6 TB/s); HCCS link figures unknown here. Low confidence: prefer a probe measurement.'),
 ('hw-intel-max1550', 'Intel Data Center GPU Max 1550 (Intel ARK) and the oneAPI GPU optimization guide (FLAT mode)',
  'https://ark.intel.com/content/www/us/en/ark/products/232873/intel-data-center-gpu-max-1550.html', '2023-01',
  '128 Xe cores in two stacks, 1.6 GHz peak, 128 GB HBM2e at 3,276.8 GB/s, 600 W OAM. Card totals: FP32 vector 52 TFLOPS (1,024 vector engines x 16 lanes x 2 x 1.6 GHz); BF16/FP16 XMX 839 TFLOPS derived = 1,024 XMX engines x 512 flops/clock x 1.6 GHz (no sparsity on this part). The oneAPI optimization guide (2024-2025): FLAT is the default device hierarchy and exposes each stack as its own root device with its own memory, so the catalog row is one stack: 64 GB, 1,638.4 GB/s, 26 FP32, 419.5 BF16/FP16. TF32/FP8 rates and Xe Link figures are not stored (0).'),
 ('hw-intel-gaudi3', 'Intel Gaudi 3 AI Accelerator: Architected for Gen AI Training and Inference (Hot Chips 2024, R. Kaplan)',
  'Hot Chips 2024 presentation, Intel Corporation, August 2024 (Gaudi 3 spec table)', '2024-08',
  'BF16 matrix 1,835 TFLOPS, FP8 matrix 1,835 TFLOPS (FP8 runs at the BF16 rate), BF16 vector 28.7 TFLOPS (stored as fp32: Intel gives no FP32 matrix figure in this table), FP16 assumed at the BF16 matrix rate (secondary spec tables); 128 GB HBM2e at 3.67 TB/s; 24 x 200 GbE RoCE on chip, 1,200 GB/s both directions: in an 8-card node 21 ports reach the 7 peers (525 GB/s per direction) and 3 go to the scale-out network (75 GB/s per direction). hl-smi names the OAM "HL-325L". Software: not the XPU stack of Intel GPUs but the Intel Gaudi software stack (see gaudi-docs): PyTorch only, device "hpu", DeepSpeed through Intel''s fork, serving through the vllm-gaudi plug-in.');

INSERT INTO accelerators (id, name, vendor, memory_gb, bandwidth_gbs, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops,
                          fp8_tflops, link_gbs, network_gbs, interconnect, compute_capability, match, planner_default,
                          source, as_of) VALUES
 ('v100-sxm2-32gb', 'NVIDIA Tesla V100 SXM2 32GB', 'nvidia', 32, 900, 15.7, 0, 0, 125, 0, 150, 6.25,
  'NVLink 2; DGX-1: 4 x 100 Gb/s EDR per 8 GPUs', '7.0', 'v100-sxm2-32gb', 0, 'hw-nvidia-v100', '2026-12-01'),
 ('a100-sxm4-40gb', 'NVIDIA A100 SXM4 40GB', 'nvidia', 40, 1555, 19.5, 156, 312, 312, 0, 300, 25,
  'NVLink 3; DGX A100: 200 Gb/s HDR per GPU', '8.0', 'a100-sxm4-40gb', 0, 'hw-nvidia-a100', '2026-12-01'),
 ('a100-sxm4-80gb', 'NVIDIA A100 SXM4 80GB', 'nvidia', 80, 2039, 19.5, 156, 312, 312, 0, 300, 25,
  'NVLink 3; DGX A100: 200 Gb/s HDR per GPU', '8.0', 'a100-sxm4-80gb', 0, 'hw-nvidia-a100', '2026-12-01'),
 ('h100-sxm', 'NVIDIA H100 SXM 80GB', 'nvidia', 80, 3350, 67, 494.7, 989.4, 989.4, 1978.9, 450, 50,
  'NVLink 4; DGX H100: 400 Gb/s NDR per GPU', '9.0', 'h100 80gb hbm3', 1, 'hw-nvidia-h100', '2026-12-01'),
 ('h200-sxm', 'NVIDIA H200 SXM 141GB', 'nvidia', 141, 4800, 67, 494.7, 989.4, 989.4, 1978.9, 450, 50,
  'NVLink 4; 400 Gb/s per GPU', '9.0', 'h200', 0, 'hw-nvidia-h200', '2026-12-01'),
 ('b200', 'NVIDIA B200 (HGX B200, 180GB)', 'nvidia', 180, 7700, 75, 1100, 2250, 2250, 4500, 900, 50,
  'NVLink 5; HGX B200: 400 Gb/s per GPU', '10.0', 'nvidia b200', 0, 'hw-nvidia-hgx-b200', '2026-12-02'),
 ('b300', 'NVIDIA B300 (HGX B300, 288GB)', 'nvidia', 288, 8000, 75, 1100, 2250, 2250, 4500, 900, 100,
  'NVLink 5; HGX B300: 800 Gb/s ConnectX-8 per GPU', '10.3', 'nvidia b300', 0, 'hw-nvidia-hgx-b200', '2026-12-01'),
 ('gb200', 'NVIDIA GB200 NVL72 (per Blackwell GPU, 186GB)', 'nvidia', 186, 8000, 80, 1250, 2500, 2500, 5000, 900, 50,
  'NVLink 5 across the 72 GPUs of a rack; 400 Gb/s per GPU between racks', '10.0', 'gb200', 0, 'hw-nvidia-gb200', '2026-12-02'),
  -- GB300 NVL72 (Blackwell Ultra, read 2026-12-02). NVIDIA's technical blog on the Blackwell Ultra
  -- GPU gives its memory, bandwidth, NVLink and dense NVFP4 rate; no stored copy of the GB300 NVL72
  -- page gave the rack's per-precision rates, so BF16/FP16/TF32/FP8/FP32 are the rates the HGX page
  -- gives the same GPU (the b300 row): a lower bound at the HGX board's power limit, never the rack's
  -- sparse figure (its 720 PF FP8 is 10 PF a GPU, four times the BF16 rate: the dense-FP8 check
  -- would refuse it). The catalog has no FP4 column: the dense NVFP4 rate is in the source's note.
  -- Like the gb200 row, the 72 GPUs of one NVLink domain are in the interconnect text; there is no
  -- devices_per_node rule (a compute tray is not an HGX board of eight).
  -- Left out for want of a vendor source in the stored material (2026-12-02): the H20 (NVIDIA
  -- publishes no datasheet; its 96 GB, 4.0 TB/s and 148/296 TFLOPS come from press and resellers),
  -- the RTX PRO 6000 Blackwell (only third-party tables: 125 TFLOPS FP32, 4,000 FP4 TOPS with
  -- sparsity; no dense BF16 rate) and the DGX Spark's GB10 (only "1 PFLOP FP4 with sparsity"
  -- quoted; no dense BF16 or FP32 rate from NVIDIA).
 ('gb300', 'NVIDIA GB300 NVL72 (per Blackwell Ultra GPU, 288GB)', 'nvidia', 288, 8000, 75, 1100, 2250, 2250, 4500, 900, 100,
  'NVLink 5 across the 72 GPUs of a rack; 800 Gb/s ConnectX-8 per GPU between racks', '10.3', 'gb300', 0,
  'hw-nvidia-blackwell-ultra', '2026-12-02'),
 ('l4', 'NVIDIA L4', 'nvidia', 24, 300, 30.3, 60, 121, 121, 242.5, 32, 0,
  'PCIe Gen4 x16, no NVLink', '8.9', 'nvidia l4', 0, 'hw-nvidia-l4', '2026-12-01'),
 ('l40', 'NVIDIA L40', 'nvidia', 48, 864, 90.5, 90.5, 181.05, 181.05, 362, 32, 0,
  'PCIe Gen4 x16, no NVLink', '8.9', 'nvidia l40', 0, 'hw-nvidia-l40', '2026-12-01'),
 ('l40s', 'NVIDIA L40S', 'nvidia', 48, 864, 91.6, 183, 362.05, 362.05, 733, 32, 0,
  'PCIe Gen4 x16, no NVLink', '8.9', 'l40s', 0, 'hw-nvidia-l40', '2026-12-01'),
 ('t4', 'NVIDIA T4 16GB', 'nvidia', 16, 320, 8.1, 0, 0, 65, 0, 16, 0,
  'PCIe Gen3 x16, no NVLink', '7.5', 'tesla t4', 0, 'hw-nvidia-t4', '2026-12-01'),
 ('a10g', 'NVIDIA A10G 24GB (AWS G5)', 'nvidia', 24, 600, 35, 35, 70, 70, 0, 32, 0,
  'PCIe Gen4 x16, no NVLink', '8.6', 'a10g', 0, 'hw-nvidia-a10g', '2026-12-01'),
 ('rtx-4090', 'NVIDIA GeForce RTX 4090', 'nvidia', 24, 1008, 82.6, 82.6, 165.2, 165.2, 330.3, 32, 0,
  'PCIe Gen4 x16, no NVLink', '8.9', 'rtx 4090', 0, 'hw-nvidia-ada', '2026-12-01'),
 ('rtx-5090', 'NVIDIA GeForce RTX 5090', 'nvidia', 32, 1792, 104.8, 104.8, 209.5, 209.5, 419, 64, 0,
  'PCIe Gen5 x16, no NVLink', '12.0', 'rtx 5090', 0, 'hw-nvidia-rtx5090', '2026-12-01'),
 ('mi250x', 'AMD Instinct MI250X (one GCD of two, 64GB)', 'amd', 64, 1638.4, 23.95, 0, 191.5, 191.5, 0, 50, 12.5,
  'Infinity Fabric, 50 GB/s per link and direction; Frontier: 4 x 200 Gb/s per 8 GCDs', '', 'mi250x', 0, 'hw-amd-mi250x', '2026-12-01'),
 ('mi300x', 'AMD Instinct MI300X', 'amd', 192, 5300, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 448, 50,
  'Infinity Fabric mesh, 7 x 64 GB/s per direction; 400 Gb/s NIC per GPU', '', 'mi300x', 1, 'hw-amd-mi300x', '2026-12-01'),
 ('mi325x', 'AMD Instinct MI325X', 'amd', 256, 6000, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 448, 50,
  'Infinity Fabric mesh, 7 x 64 GB/s per direction; 400 Gb/s NIC per GPU', '', 'mi325x', 0, 'hw-amd-mi325x', '2026-12-01'),
 ('mi355x', 'AMD Instinct MI355X', 'amd', 288, 8000, 157.3, 0, 2516.6, 2516.6, 5033.2, 537.6, 50,
  'Infinity Fabric 4th generation; 400 Gb/s NIC per GPU', '', 'mi355x', 0, 'hw-amd-mi355x', '2026-12-01'),
 ('mi350x', 'AMD Instinct MI350X', 'amd', 288, 8000, 144.2, 0, 2307, 2307, 4614, 537.6, 50,
  'Infinity Fabric 4th generation; 400 Gb/s NIC per GPU', '', 'mi350x', 0, 'hw-amd-mi350x', '2026-12-02'),
 ('rx-7900-xtx', 'AMD Radeon RX 7900 XTX 24GB', 'amd', 24, 960, 61.4, 0, 122.8, 122.8, 0, 32, 0,
  'PCIe Gen4 x16', '', '7900 xtx', 0, 'hw-amd-rx7900xtx', '2026-12-01'),
 ('tpu-v4', 'Google TPU v4 (per chip)', 'tpu', 32, 1200, 45.8, 0, 275, 0, 0, 0, 0,
  'ICI 3D torus (bandwidth not stored)', '', 'v4-', 0, 'hw-tpu-v4', '2026-12-01'),
 ('tpu-v5e', 'Google TPU v5e (per chip; Colab TPU v5e-1)', 'tpu', 16, 819, 32.8, 0, 197, 0, 0, 200, 200,
  'ICI 2D torus within a slice (400 GB/s per chip, both directions; network_gbs is this in-slice figure); DCN 25 Gb/s per chip across slices', '', 'v5litepod', 1, 'hw-tpu-v5e', '2026-12-02'),
 ('tpu-v5p', 'Google TPU v5p (per chip)', 'tpu', 95, 2765, 76.5, 0, 459, 0, 459, 600, 600,
  'ICI 3D torus within a slice (1,200 GB/s per chip, both directions; network_gbs is this in-slice figure); DCN 50 Gb/s per chip across slices', '', 'v5p', 0, 'hw-tpu-v5p', '2026-12-02'),
 ('tpu-v6e', 'Google TPU v6e Trillium (per chip)', 'tpu', 32, 1638, 153, 0, 918, 0, 918, 400, 400,
  'ICI 2D torus within a slice (800 GB/s per chip, both directions)', '', 'v6e', 0, 'hw-tpu-v6e', '2026-12-01'),
 ('tpu7x', 'Google TPU7x Ironwood (per chip)', 'tpu', 192, 7370, 384.5, 0, 2307, 0, 4614, 600, 600,
  'ICI 3D torus within a slice (1.2 TB/s per chip, both directions)', '', 'tpu7x', 0, 'hw-tpu7x', '2026-12-01'),
 ('apple-m2-ultra', 'Apple M2 Ultra (76-core GPU)', 'apple', 192, 800, 27.2, 0, 27.2, 27.2, 0, 0, 5,
  'one GPU per Mac; Thunderbolt 4 between Macs', '', 'm2 ultra', 0, 'hw-apple-m2-ultra', '2026-12-01'),
 ('apple-m3-max', 'Apple M3 Max (40-core GPU)', 'apple', 128, 400, 14.3, 0, 14.3, 14.3, 0, 0, 5,
  'one GPU per Mac; Thunderbolt 4 between Macs', '', 'm3 max', 0, 'hw-apple-m3-max', '2026-12-01'),
 ('apple-m3-ultra', 'Apple M3 Ultra (80-core GPU)', 'apple', 512, 819, 28.6, 0, 28.6, 28.6, 0, 0, 15,
  'one GPU per Mac; Thunderbolt 5 between Macs', '', 'm3 ultra', 0, 'hw-apple-m3-ultra', '2026-12-01'),
 ('apple-m4-max', 'Apple M4 Max (40-core GPU)', 'apple', 128, 546, 16.1, 0, 16.1, 16.1, 0, 0, 15,
  'one GPU per Mac; Thunderbolt 5 between Macs', '', 'm4 max', 1, 'hw-apple-m4-max', '2026-12-01'),
 ('ascend-910b', 'Huawei Ascend 910B', 'ascend', 64, 1600, 140, 0, 280, 280, 0, 0, 0,
  'HCCS within a node (figures not stored)', '', '910b', 1, 'hw-ascend-910b', '2026-12-01'),
 ('intel-max-1550', 'Intel Data Center GPU Max 1550 (one stack of two, FLAT mode, 64GB)', 'intel', 64, 1638.4, 26, 0, 419.5, 419.5, 0, 0, 0,
  'two stacks per card, each its own device in FLAT mode; Xe Link figures not stored', '', 'max 1550', 1, 'hw-intel-max1550', '2026-12-01'),
 ('gaudi3', 'Intel Gaudi 3 (HL-325L OAM)', 'gaudi', 128, 3670, 28.7, 0, 1835, 1835, 1835, 525, 75,
  '24 x 200 GbE RoCE on chip: 21 to the node''s 7 peers, 3 to scale-out; Intel Gaudi software (PyTorch hpu device), not XPU', '', 'hl-325', 1, 'hw-intel-gaudi3', '2026-12-02');

-- Trainium and Gaudi ---------------------------------------------------------------------------
-- Gaudi 3 above is filed under its own platform, gaudi (Intel Gaudi software, not the XPU stack of
-- `intel`), as the planner's usual Gaudi. AWS Trainium2 below, every figure from AWS's Neuron
-- architecture page (read 2026-12-02): dense peaks in the columns, the sparse figure only in the
-- source's note. Trainium3 is below with the 2026 devices: its fp8 column stores plain FP8 at the
-- BF16 rate, and its block-scaled MXFP8 rate (3.75 x BF16) only in its source's note. HBM in GiB as the other rows (see the head of this file).

INSERT INTO sources (id, title, url, published, note) VALUES
 ('hw-aws-trainium2', 'AWS Neuron documentation: Trainium2 architecture',
  'https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/arch/neuron-hardware/trainium2.html', 'undated',
  'Per chip (eight NeuronCore-v3): dense 1,299 FP8, 667 BF16/FP16/TF32 and 181 FP32 TFLOPS; 2,563 TFLOPS is the sparse FP8/FP16/BF16/TF32 figure, not stored. 96 GiB HBM at 2.9 TB/s; NeuronLink-v3 1.28 TB/s per chip (AWS does not say per direction: link_gbs stores half, 640, as for other two-way figures). Cross-instance network not given here (network 0: not estimated). Read 2026-12-02.');

INSERT INTO accelerators (id, name, vendor, memory_gb, bandwidth_gbs, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops,
                          fp8_tflops, link_gbs, network_gbs, interconnect, compute_capability, match, planner_default,
                          source, as_of) VALUES
 ('trainium2', 'AWS Trainium2 (per chip)', 'trainium', 96, 2900, 181, 667, 667, 667, 1299, 640, 0,
  'NeuronLink-v3 between the chips of an instance or UltraServer (1.28 TB/s per chip); EFA between instances not stored', '',
  'trainium2', 1, 'hw-aws-trainium2', '2026-12-02');

-- How many devices one node (a host: one operating system, one machine) holds, as the fact
-- devices_per_node (knowledge/advisor_deploy.c refuses more per node). HGX/DGX boards and AMD's
-- platforms hold 8 GPUs; a TPU v5e or v6e host 8 chips, a v4 or v5p host 4; a Mac one Apple GPU.
-- Devices without a row (PCIe cards, GB200 trays, Gaudi, Ascend, TPU7x) are not checked.
-- Read 2026-12-02.
INSERT INTO rules (id, kind, title, text, condition, effect, priority, source, as_of) VALUES
 ('node-nvidia-hgx', 'rule_of_thumb', 'Eight NVIDIA GPUs a node',
  'DGX and HGX systems (V100, A100, H100, H200, B200, B300) hold eight SXM GPUs on one board in one host.',
  '{"accelerator": ["v100-sxm2-32gb", "a100-sxm4-40gb", "a100-sxm4-80gb", "h100-sxm", "h200-sxm", "b200", "b300"]}',
  '{"facts": {"devices_per_node": 8}}', 5, 'hw-nvidia-hgx-b200', '2026-12-02'),
 ('node-amd-instinct', 'rule_of_thumb', 'Eight AMD Instinct GPUs a node',
  'AMD''s MI300X, MI325X, MI350X and MI355X platforms hold eight OAM GPUs in a fully connected Infinity Fabric mesh; a node of MI250X holds four cards, eight visible GCDs.',
  '{"accelerator": ["mi250x", "mi300x", "mi325x", "mi350x", "mi355x"]}',
  '{"facts": {"devices_per_node": 8}}', 5, 'hw-amd-mi300x', '2026-12-02'),
 ('node-tpu-v5e', 'rule_of_thumb', 'Eight TPU v5e chips a host',
  'Cloud TPU v5e: 8 chips per host (ct5lp-hightpu-8t), 512 GiB of DRAM, 2 x 100 Gbps NICs.',
  '{"accelerator": "tpu-v5e"}', '{"facts": {"devices_per_node": 8}}', 5, 'hw-tpu-v5e', '2026-12-02'),
 ('node-tpu-v6e', 'rule_of_thumb', 'Eight TPU v6e chips a host',
  'Cloud TPU v6e (Trillium): 8 chips per host, 1,536 GiB of DRAM.',
  '{"accelerator": "tpu-v6e"}', '{"facts": {"devices_per_node": 8}}', 5, 'hw-tpu-v6e', '2026-12-02'),
 ('node-tpu-v5p', 'rule_of_thumb', 'Four TPU v5p chips a host',
  'Cloud TPU v5p: a 2x2x1 slice is 4 chips on 1 host and every larger slice has 4 chips per host (v5p-8 = 4 chips, 1 host; 4x4x4 = 64 chips, 16 hosts).',
  '{"accelerator": "tpu-v5p"}', '{"facts": {"devices_per_node": 4}}', 5, 'hw-tpu-v5p', '2026-12-02'),
 ('node-tpu-v4', 'rule_of_thumb', 'Four TPU v4 chips a host',
  'Cloud TPU v4: v4-8 is 4 chips on one host, and slices grow by hosts of 4 chips.',
  '{"accelerator": "tpu-v4"}', '{"facts": {"devices_per_node": 4}}', 5, 'hw-tpu-v4', '2026-12-02'),
 ('node-apple', 'rule_of_thumb', 'One Apple GPU a machine',
  'An Apple silicon Mac has one SoC and so one GPU: several Macs are several nodes (MLX''s distributed back-ends connect them over Ethernet or Thunderbolt).',
  '{"hardware": "apple"}', '{"facts": {"devices_per_node": 1}}', 5, 'hw-apple-m2-ultra', '2026-12-02'),
 ('node-gaudi3', 'rule_of_thumb', 'Eight Gaudi 3 cards a node',
  'A Gaudi 3 node holds eight OAM cards, each with 21 of its 24 RoCE ports to its seven peers and 3 to the scale-out network.',
  '{"accelerator": "gaudi3"}', '{"facts": {"devices_per_node": 8}}', 5, 'hw-intel-gaudi3', '2026-12-02');

-- The H800 that DeepSeek-V3 trained on: NVIDIA publishes no datasheet for it. Its compute is the
-- H100 SXM's (secondary: the export variant differs in NVLink only); the links are the ones the
-- DeepSeek-V3 report measured on its cluster (primary for the links).
INSERT INTO sources (id, title, url, published, note) VALUES
 ('hw-nvidia-h800', 'NVIDIA H800 SXM: DeepSeek-V3 Technical Report (links) and the H100 SXM datasheet (compute)',
  'arXiv:2412.19437', '2024-12-27',
  'Section 3.2.2: "NVLink offers a bandwidth of 160 GB/s, roughly 3.2 times that of IB (50 GB/s)"; 8 GPUs a node over NVLink and NVSwitch, InfiniBand between nodes (section 3.1). NVIDIA has no public H800 datasheet: the GH100 compute (dense BF16 989.4, FP8 1,978.9 TFLOPS), 80 GB HBM3 at 3.35 TB/s and NVLink of 400 GB/s both ways (against the H100''s 900) are secondary (vendor listings and press), taken as the H100 SXM''s. Read 2026-12-02.');

INSERT INTO accelerators (id, name, vendor, memory_gb, bandwidth_gbs, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops,
                          fp8_tflops, link_gbs, network_gbs, interconnect, compute_capability, match, planner_default,
                          source, as_of) VALUES
 ('h800-sxm', 'NVIDIA H800 SXM 80GB', 'nvidia', 80, 3350, 67, 494.7, 989.4, 989.4, 1978.9, 160, 50,
  'NVLink 4 cut to 400 GB/s (160 GB/s measured one way); 400 Gb/s InfiniBand per GPU (50 GB/s)', '9.0', 'nvidia h800', 0,
  'hw-nvidia-h800', '2026-12-02');

-- The accelerators of 2026 beyond the above (read 2026-12-02) --------------------------------------
-- Each row's `figures` says how far its numbers are the vendor's own: AWS documents Trainium3
-- completely; NVIDIA's RTX PRO 6000, Jetson Thor and DGX Spark figures are vendor tables with the
-- dense rates derived (sparse / 2, or the whitepaper's ratios), the H20's only NVIDIA figures are
-- its memory and compute capability; Huawei publishes no per-chip datasheets (910C, 950PR); Apple
-- publishes no TFLOPS (FP32 from third-party clocks, FP16/BF16 at the FP32 rate as for M2-M4).
INSERT INTO sources (id, title, url, published, note) VALUES
 ('hw-aws-trainium3', 'AWS Neuron documentation: Trainium3 architecture, NeuronCore-v4 and EC2 Trn3 architecture',
  'https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/arch/neuron-hardware/trainium3.html', '2025-12-02',
  'Per chip (eight NeuronCore-v4): dense 671 BF16/FP16/TF32 and 183 FP32 TFLOPS; 2,517 MXFP8/MXFP4 TFLOPS, which is the rate of block-scaled MX matmuls (4x BF16 per core; MXFP4 is converted to MXFP8 first, so no faster) and is not stored; 2,517 is also the sparse FP16/BF16/TF32 figure. Plain FP8 has no chip figure: the NKI architecture guide gives non-MX input the BF16 data path, so fp8 stores 671 (a lower bound). 144 GiB HBM at 4.9 TB/s. NeuronLink-v4 2.56 TB/s per chip (direction not given: link_gbs stores half, 1,280, as for Trainium2). EFA 200 Gb/s per chip (28,800 Gb/s per 144 chips): network 25 GB/s. Trn3 UltraServer Gen2: 144 chips (36 servers x 4), Gen1: 64 (4 x 16). Read 2026-12-02.'),
 ('hw-ascend-910c', 'Serving Large Language Models on Huawei CloudMatrix384 (arXiv:2506.12708), per-chip figures as summarised by secondary sources',
  'https://arxiv.org/abs/2506.12708', '2025-06-15',
  'Secondary: Huawei publishes no 910C datasheet. A dual-die package of about 752 TFLOPS BF16 (376 per die), 128 GB HBM at 3.2 TB/s, UB scale-up 392 GB/s per NPU one direction within a CloudMatrix384 (384 NPUs), 400 Gb/s RoCE per NPU between supernodes. No FP8 on this generation. FP32 376 assumed at half the BF16 cube rate, as for the 910B. Whether npu-smi shows one device per package or per die, and the name it reports, are unverified. Low confidence: prefer a probe measurement.'),
 ('hw-ascend-950', 'Huawei Connect 2025 keynote (Ascend roadmap) and the Ascend 950 NPU architecture whitepaper, as quoted in gitcode cann/ops-nn issue 6033',
  'https://www.huawei.com/en/news/2025/9/hc-xu-keynote-speech', '2025-09-18',
  'Secondary (the keynote and the whitepaper read through quotations): FP8/MXFP8/HiF8 about 1 PFLOPS, MXFP4 2 PFLOPS, interconnect 2 TB/s (2.5x the 910C); 950PR (Q1 2026) HiBL 1.0 HBM 128 GB at 1.6 TB/s; 950DT (Q4 2026) 144 GB at 4 TB/s, not stored. Whitepaper table 3-1: 950PR Server tier 32 Cube cores at 1.65 GHz, dense 432 TFLOPS BF16/FP16, 865 FP8/HiF8/MXFP8, 1,730 MXFP4 (4:2 sparsity removed); vector FP16 54, so FP32 27 assumed at half of it. link_gbs stores half of 2 TB/s (direction not given). Low confidence: prefer a probe measurement.'),
 ('hw-apple-m5-family', 'Apple Newsroom: Apple unleashes M5 (2025-10-15); Apple debuts M5 Pro and M5 Max (2026-03-03)',
  'https://www.apple.com/newsroom/2026/03/apple-debuts-m5-pro-and-m5-max-to-supercharge-the-most-demanding-pro-workflows/', '2026-03-03',
  'M5: 10-core GPU with a Neural Accelerator in each core, 153 GB/s, up to 32 GB (https://www.apple.com/newsroom/2025/10/apple-unleashes-m5-the-next-big-leap-in-ai-performance-for-apple-silicon/). M5 Pro: up to 20-core GPU, up to 64 GB, 307 GB/s; M5 Max: up to 40-core GPU, up to 128 GB, 614 GB/s; Thunderbolt 5 on both. Apple gives no TFLOPS or clocks: FP32 derived = GPU cores x 128 lanes x 2 x ~1.74-1.75 GHz (third-party clock estimates): 4.45, 8.96 and 17.9. FP16/BF16 stored at the FP32 rate as for M2-M4, a lower bound (third-party microbenchmarks put the Neural Accelerators'' FP16 matrix rate at about twice that). The releases were read through press reproductions of their text. Read 2026-12-02.'),
 ('hw-nvidia-rtx-pro-6000', 'NVIDIA RTX PRO 6000 Blackwell: Server Edition product page, Workstation Edition datasheet, RTX Blackwell PRO architecture whitepaper',
  'https://www.nvidia.com/en-us/data-center/rtx-pro-6000-blackwell-server-edition/', '2025-03-18',
  'GB202, 188 SMs, 96 GB GDDR7 ECC, PCIe 5.0 x16, no NVLink, compute capability 12.0 (MIG user guide). Workstation Edition (600 W): 1,792 GB/s, FP32 125 TFLOPS; "4000 AI TOPS" is FP4 with sparsity; dense TF32 251.9, FP16/BF16 (FP32 accumulate) 503.8, FP8 1,007.6 from the whitepaper''s table (read through a secondary tabulation). Server Edition: 1,597 GB/s, FP32 120, dense TF32 234; its FP16/BF16 1, FP8 2 and FP4 4 PFLOPS are with sparsity; dense BF16 467.8 and FP8 935.6 derived from TF32 234 by the whitepaper''s 1:2:4 ratio. RTX PRO server reference node: 200 Gb/s east-west per GPU. PCIe Gen5 x16 (about 64 GB/s each way) between the cards of a node. The Max-Q Workstation Edition (300 W) is not matched. Read 2026-12-02.'),
 ('hw-nvidia-dgx-spark', 'NVIDIA DGX Spark User Guide: Hardware Overview; DGX Spark clustering playbook',
  'https://docs.nvidia.com/dgx/dgx-spark/hardware.html', 'undated',
  'Secondary for the rates. GB10 Grace Blackwell superchip: 20 Arm cores and a Blackwell GPU with 48 SMs (6,144 CUDA cores), compute capability 12.1; 128 GB LPDDR5x unified memory shared with the CPU, 273 GB/s. NVIDIA''s only tensor figure is "1 PFLOP (FP4 with sparsity)", 500 dense. Dense FP8 250 and BF16 125 are derived with the RTX PRO ratios and assume full-rate FP32 accumulation, which NVIDIA does not state (62.5 if halved as on GeForce); FP32 31 is the Hot Chips 2025 figure as reported by the press. ConnectX-7: one 200 Gb/s link per Spark to a peer or a switch. nvidia-smi names it "NVIDIA GB10". Low confidence on the rates: prefer a probe measurement. Read 2026-12-02.'),
 ('hw-nvidia-jetson-thor', 'NVIDIA Technical Blog: Introducing NVIDIA Jetson Thor, the Ultimate Platform for Physical AI (Jetson T5000 module table)',
  'https://developer.nvidia.com/blog/introducing-nvidia-jetson-thor-the-ultimate-platform-for-physical-ai/', '2025-08',
  'Jetson T5000 (the module of the Jetson AGX Thor Developer Kit): 2,560-core Blackwell GPU (20 SMs, 96 fifth-generation Tensor Cores, up to 1.57 GHz), 14-core Arm Neoverse-V3AE, 128 GB 256-bit LPDDR5X at 273 GB/s shared with the CPU, 40-130 W. NVIDIA''s table: "2070 TFLOPS (Sparse FP4) | 1035 TFLOPS (Dense FP4 | Sparse FP8 | Sparse INT8) | 517 TFLOPs (Dense FP8 | Sparse FP16)": dense FP8 517 and FP16 258.5 (BF16 assumed equal). No FP32/TF32 figure from NVIDIA: FP32 8.0 = 2,560 x 2 x 1.57 GHz and TF32 129.3 (half of FP16) are derived. Developer kit networking: QSFP28 4 x 25 GbE. Device name "NVIDIA Thor", compute capability 11.0. Read 2026-12-02.'),
 ('hw-nvidia-h20', 'NVIDIA MIG user guide: supported GPUs (H20 memory and compute capability); throughput from press reports',
  'https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-gpus.html', '2024',
  'NVIDIA primary only for "H20 | Hopper | GH100 | 9.0 | 96GB | 7" (MIG user guide). Secondary (press; NVIDIA publishes no H20 datasheet): FP16/BF16 148 TFLOPS dense, FP8 296, TF32 74, FP32 44; HBM3 4.0 TB/s; NVLink 900 GB/s both directions on 8-GPU HGX boards. Network not known (0). Low confidence: prefer a probe measurement. Read 2026-12-02.');

INSERT INTO accelerators (id, name, vendor, memory_gb, bandwidth_gbs, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops,
                          fp8_tflops, link_gbs, network_gbs, interconnect, compute_capability, match, planner_default,
                          figures, source, as_of) VALUES
 ('trainium3', 'AWS Trainium3 (per chip)', 'trainium', 144, 4900, 183, 671, 671, 671, 671, 1280, 25,
  'NeuronLink-v4 within a Trn3 UltraServer (64 or 144 chips; 2.56 TB/s per chip); EFA 200 Gb/s per chip between UltraServers',
  '', 'trainium3', 0, 'vendor', 'hw-aws-trainium3', '2026-12-02'),
 ('ascend-910c', 'Huawei Ascend 910C (dual-die package)', 'ascend', 128, 3200, 376, 0, 752, 752, 0, 392, 50,
  'UB 392 GB/s per NPU one direction within a CloudMatrix384; 400 Gb/s RoCE between supernodes', '', '910c', 0,
  'secondary', 'hw-ascend-910c', '2026-12-02'),
 ('ascend-950pr', 'Huawei Ascend 950PR (128GB HiBL 1.0)', 'ascend', 128, 1600, 27, 0, 432, 432, 865, 1000, 0,
  'interconnect 2 TB/s per chip (direction not given; half stored)', '', '950pr', 0, 'secondary', 'hw-ascend-950', '2026-12-02'),
 ('apple-m5', 'Apple M5 (10-core GPU)', 'apple', 32, 153, 4.45, 0, 4.45, 4.45, 0, 0, 5,
  'one GPU per Mac; Thunderbolt between Macs (version not checked: 40 Gb/s assumed)', '', 'apple m5', 0, 'derived',
  'hw-apple-m5-family', '2026-12-02'),
 ('apple-m5-pro', 'Apple M5 Pro (20-core GPU)', 'apple', 64, 307, 8.96, 0, 8.96, 8.96, 0, 0, 15,
  'one GPU per Mac; Thunderbolt 5 (120 Gb/s) between Macs', '', 'apple m5 pro', 0, 'derived', 'hw-apple-m5-family', '2026-12-02'),
 ('apple-m5-max', 'Apple M5 Max (40-core GPU)', 'apple', 128, 614, 17.9, 0, 17.9, 17.9, 0, 0, 15,
  'one GPU per Mac; Thunderbolt 5 (120 Gb/s) between Macs', '', 'apple m5 max', 0, 'derived', 'hw-apple-m5-family', '2026-12-02'),
 ('rtx-pro-6000', 'NVIDIA RTX PRO 6000 Blackwell Server Edition 96GB', 'nvidia', 96, 1597, 120, 234, 467.8, 467.8, 935.6, 64, 25,
  'PCIe Gen5 x16, no NVLink; RTX PRO server: 200 Gb/s per GPU between nodes', '12.0', 'rtx pro 6000 blackwell server edition', 0,
  'derived', 'hw-nvidia-rtx-pro-6000', '2026-12-02'),
 ('rtx-pro-6000-ws', 'NVIDIA RTX PRO 6000 Blackwell Workstation Edition 96GB', 'nvidia', 96, 1792, 125, 251.9, 503.8, 503.8, 1007.6, 64, 0,
  'PCIe Gen5 x16, no NVLink', '12.0', 'rtx pro 6000 blackwell workstation edition', 0, 'derived', 'hw-nvidia-rtx-pro-6000', '2026-12-02'),
 ('dgx-spark', 'NVIDIA DGX Spark (GB10, 128GB unified)', 'nvidia', 128, 273, 31, 62.5, 125, 125, 250, 0, 25,
  'one GB10 per box; ConnectX-7, one 200 Gb/s link per Spark to a peer or a switch', '12.1', 'nvidia gb10', 0, 'secondary',
  'hw-nvidia-dgx-spark', '2026-12-02'),
 ('jetson-thor', 'NVIDIA Jetson AGX Thor (T5000, 128GB unified)', 'nvidia', 128, 273, 8.0, 129.3, 258.5, 258.5, 517, 0, 12.5,
  'one Thor SoC per system; developer kit QSFP28 4 x 25 GbE', '11.0', 'nvidia thor', 0, 'derived', 'hw-nvidia-jetson-thor', '2026-12-02'),
 ('h20', 'NVIDIA H20 96GB (HGX H20)', 'nvidia', 96, 4000, 44, 74, 148, 148, 296, 450, 0,
  'NVLink 4 (900 GB/s both directions) on 8-GPU HGX boards; network site-specific', '9.0', 'nvidia h20', 0, 'secondary',
  'hw-nvidia-h20', '2026-12-02');

-- Where the figures come from (accelerators.figures; read 2026-12-02). 'vendor' unless listed:
-- 'secondary' where the vendor publishes no datasheet figure and the row's rates come from a
-- cloud's page, a review or a spec tabulation (the plan's peak line says so and points to a
-- probe); 'derived' where vendor figures are combined with a third-party clock or an assumed
-- ratio (Apple publishes no TFLOPS; GB300's non-NVFP4 rates are the HGX B300 page's; Gaudi 3's
-- FP16 is assumed at its BF16 rate).
UPDATE accelerators SET figures = 'secondary'
 WHERE id IN ('a10g', 'mi325x', 'mi350x', 'ascend-910b', 'h800-sxm');
UPDATE accelerators SET figures = 'derived'
 WHERE id IN ('apple-m3-max', 'apple-m3-ultra', 'apple-m4-max', 'gb300', 'gaudi3', 'rtx-5090');
