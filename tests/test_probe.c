/* Probe mode: detection on recorded machines, the decoders and tables, statistics, the
 * workloads' own checks, a short run and its JSON shape. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "probes/probe.h"
#include "probes/run_table.h"
#include "probes/sysfs.h"
#include "tests/support.h"

static void use_fixture(const char *name)
{
    const char *fixtures = getenv("FWADVISOR_FIXTURES");
    char root[4200], xml[4300];
    snprintf(root, sizeof root, "%s/sysroot/%s", fixtures && *fixtures ? fixtures : "tests/fixtures", name);
    snprintf(xml, sizeof xml, "%s/topology.xml", root);
    setenv("FWADVISOR_SYSROOT", root, 1);
    setenv("HWLOC_XMLFILE", xml, 1);
    setenv("HWLOC_THISSYSTEM", "0", 1);
    unsetenv("TPU_ACCELERATOR_TYPE");
    setenv("FWADVISOR_NVML_LIB", "/nonexistent/libnvidia-ml.so.1", 1);
    setenv("FWADVISOR_CUDA_LIB", "/nonexistent/libcuda.so.1", 1);
}

struct machine {
    char fixture[24];
    int packages, cores, threads;
    char cpu_model[64], microarch[32];
    double peak_gflops;   /* 0: unknown */
    char accel_kind[16], accel_name[64];
    int accel_count;
    double accel_memory_gb;
};

static struct machine machines[] = {
    {"cpu-only", 2, 36, 72, "Intel(R) Xeon(R) Gold 6354 CPU @ 3.00GHz", "Ice Lake-SP", 36 * 3000.0 * 64 / 1e3, "", "", 0, 0},
    {"amd-mi300x", 2, 192, 384, "AMD EPYC 9654 96-Core Processor", "Zen 4", 0, "amd", "AMD Instinct MI300X/MI300A (gfx942)", 2, 206.1},
    {"tpu-v5e", 1, 56, 112, "Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz", "Sapphire Rapids", 56 * 2700.0 * 64 / 1e3, "tpu", "", 4, 0},
    {"ascend-910b", 4, 192, 192, "Kunpeng-920", "unknown", 0, "ascend", "Huawei Ascend NPU", 8, 0},
    {"nvidia-h100", 2, 112, 224, "Intel(R) Xeon(R) Platinum 8480+ CPU @ 2.00GHz", "Sapphire Rapids", 112 * 2000.0 * 64 / 1e3, "nvidia", "NVIDIA H100 80GB HBM3", 2, 0},
    {"nvidia-no-driver", 1, 16, 32, "AMD EPYC 7313 16-Core Processor", "Zen 3", 0, "nvidia", "NVIDIA GPU", 1, 0},
    {"unreadable-sys", 1, 4, 4, "", "unknown", 0, "", "", 0, 0},
};

ParameterizedTestParameters(probe, detection_on_recorded_machines)
{
    return cr_make_param_array(struct machine, machines, sizeof machines / sizeof machines[0]);
}

ParameterizedTest(struct machine *m, probe, detection_on_recorded_machines)
{
    use_fixture(m->fixture);
    struct probe_hw *hw = calloc(1, sizeof *hw);
    probe_detect(hw);
    cr_expect_eq(hw->cpu.packages, m->packages, "%s packages %d", m->fixture, hw->cpu.packages);
    cr_expect_eq(hw->cpu.cores, m->cores, "%s cores %d", m->fixture, hw->cpu.cores);
    cr_expect_eq(hw->cpu.threads, m->threads, "%s threads %d", m->fixture, hw->cpu.threads);
    cr_expect_str_eq(hw->cpu.model, m->cpu_model, "%s", m->fixture);
    cr_expect_str_eq(hw->cpu.microarch, m->microarch, "%s", m->fixture);
    cr_expect_gt(hw->cpu.l2_bytes, 0, "%s caches", m->fixture);
    if (m->peak_gflops > 0) cr_expect_float_eq(hw->cpu.peak_gflops, m->peak_gflops, 0.5, "%s peak %f", m->fixture, hw->cpu.peak_gflops);
    else cr_expect(hw->cpu.peak_gflops == 0 && strncmp(hw->cpu.peak_note, "unknown", 7) == 0, "%s: %s", m->fixture, hw->cpu.peak_note);
    if (!m->accel_kind[0]) {
        cr_expect_eq(hw->naccel, 0, "%s found %d accelerators", m->fixture, hw->naccel);
    } else {
        cr_assert_eq(hw->naccel, 1, "%s found %d accelerators", m->fixture, hw->naccel);
        cr_expect_str_eq(hw->accel[0].kind, m->accel_kind);
        cr_expect_eq(hw->accel[0].count, m->accel_count, "%s count %d", m->fixture, hw->accel[0].count);
        if (m->accel_name[0]) cr_expect_str_eq(hw->accel[0].name, m->accel_name);
        if (m->accel_memory_gb > 0) cr_expect_float_eq(hw->accel[0].memory_bytes / 1e9, m->accel_memory_gb, 0.1);
        cr_expect_gt(strlen(hw->accel[0].note), 0, "every entry says how it was found");
    }
    free(hw);
}

Test(probe, nvidia_through_nvml_and_libcuda)
{
    use_fixture("cpu-only");
    const char *fake = getenv("FWADVISOR_FAKE_NVML");
    if (!fake || !*fake) cr_skip_test("FWADVISOR_FAKE_NVML not set (make test builds it)");
    setenv("FWADVISOR_NVML_LIB", fake, 1);
    setenv("FWADVISOR_CUDA_LIB", fake, 1);
    struct probe_hw *hw = calloc(1, sizeof *hw);
    probe_detect(hw);
    cr_assert_eq(hw->naccel, 1, "8 identical GPUs make one entry");
    struct probe_accel *a = &hw->accel[0];
    cr_expect_str_eq(a->kind, "nvidia");
    cr_expect_str_eq(a->name, "NVIDIA H200");
    cr_expect_eq(a->count, 8);
    cr_expect_eq(a->memory_bytes, 150754820096ULL);
    cr_expect_str_eq(a->compute_capability, "9.0");
    cr_expect_eq(a->sm_count, 132);
    cr_expect_eq(a->max_clock_mhz, 1980);
    cr_expect_str_eq(a->driver, "570.86.15");
    free(hw);
}

Test(probe, tpu_type_from_the_environment)
{
    use_fixture("tpu-v5e");
    setenv("TPU_ACCELERATOR_TYPE", "v5litepod-4", 1);
    struct probe_hw *hw = calloc(1, sizeof *hw);
    probe_detect(hw);
    cr_assert_eq(hw->naccel, 1);
    cr_expect_str_eq(hw->accel[0].name, "TPU v5litepod-4");
    free(hw);
}

Test(probe, apple_sysctl_parsing)
{
    const char *text = "hw.optional.arm64: 1\nmachdep.cpu.brand_string: Apple M3 Max\nhw.memsize: 137438953472\n"
                       "hw.perflevel0.physicalcpu: 12\nsysctl.proc_translated: 0\n";
    struct probe_accel a;
    struct probe_cpu cpu;
    memset(&cpu, 0, sizeof cpu);
    cr_assert(probe_parse_apple_sysctl(text, &a, &cpu));
    cr_expect_str_eq(a.kind, "apple");
    cr_expect_str_eq(a.name, "Apple M3 Max GPU");
    cr_expect_eq(a.memory_bytes, 137438953472ULL);
    cr_expect_eq(cpu.cores, 12);
    cr_expect_str_eq(cpu.model, "Apple M3 Max");
    cr_expect_not(probe_parse_apple_sysctl("hw.optional.arm64: 0\n", &a, &cpu), "an Intel Mac has no Apple GPU here");
    cr_expect(probe_parse_apple_sysctl("hw.optional.arm64: 1\nsysctl.proc_translated: 1\n", &a, NULL));
    cr_expect(strstr(a.note, "Rosetta") != NULL);
}

Test(probe, x86_features_need_the_os_to_save_the_registers)
{
    /* leaf 1: SSE4.2 (20), FMA (12), OSXSAVE (27), AVX (28); leaf 7: AVX2 (5), AVX-512F (16),
     * BW (30), VL (31); VNNI (ecx 11); AMX (edx 22, 24, 25); leaf 7.1 eax 5: AVX512_BF16 */
    uint32_t l1 = 1u << 20 | 1u << 12 | 1u << 27 | 1u << 28;
    uint32_t l7b = 1u << 5 | 1u << 16 | 1u << 30 | 1u << 31, l7c = 1u << 11, l7d = 1u << 22 | 1u << 24 | 1u << 25;
    struct probe_cpu cpu;
    memset(&cpu, 0, sizeof cpu);
    probe_x86_features(&cpu, l1, l7b, l7c, l7d, 1u << 5, 0x600e7);
    const char *want[] = {"sse4.2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512_vnni", "avx512_bf16",
                          "amx_tile", "amx_bf16", "amx_int8"};
    cr_assert_eq(cpu.nsimd, 12);
    for (int i = 0; i < 12; i++) cr_expect_str_eq(cpu.simd[i], want[i]);
    /* An OS that does not save ZMM state: no AVX-512, whatever cpuid says. */
    memset(&cpu, 0, sizeof cpu);
    probe_x86_features(&cpu, l1, l7b, l7c, l7d, 1u << 5, 0x7);
    cr_expect_eq(cpu.nsimd, 4, "sse4.2 avx avx2 fma only, got %d", cpu.nsimd);
    /* No OSXSAVE: no AVX at all. */
    memset(&cpu, 0, sizeof cpu);
    probe_x86_features(&cpu, 1u << 20 | 1u << 28, l7b, 0, 0, 0, 0);
    cr_expect_eq(cpu.nsimd, 1);
}

/* Each state the OS must save, alone missing: AVX-512 needs all of opmask (0x20), ZMM_Hi256
 * (0x40) and Hi16_ZMM (0x80), AMX both XTILECFG (0x20000) and XTILEDATA (0x40000). The cpuid bits
 * are all set: sse4.2 avx avx2 fma (4), the AVX-512 five, the AMX three. */
Test(probe, x86_features_need_every_register_state_of_their_unit)
{
    static const struct { uint64_t xcr0; int nsimd, avx512, amx; } cases[] = {
        {0x600e7, 12, 1, 1}, {0x000e7, 9, 1, 0}, {0x00067, 4, 0, 0}, {0x000a7, 4, 0, 0},
        {0x000c7, 4, 0, 0},  {0x200e7, 9, 1, 0}, {0x400e7, 9, 1, 0}, {0x60007, 7, 0, 1},
    };
    uint32_t l1 = 1u << 20 | 1u << 12 | 1u << 27 | 1u << 28;
    uint32_t l7b = 1u << 5 | 1u << 16 | 1u << 30 | 1u << 31, l7c = 1u << 11, l7d = 1u << 22 | 1u << 24 | 1u << 25;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct probe_cpu cpu;
        memset(&cpu, 0, sizeof cpu);
        probe_x86_features(&cpu, l1, l7b, l7c, l7d, 1u << 5, cases[i].xcr0);
        int avx512 = 0, amx = 0;
        for (int k = 0; k < cpu.nsimd; k++) {
            avx512 |= strcmp(cpu.simd[k], "avx512f") == 0;
            amx |= strcmp(cpu.simd[k], "amx_tile") == 0;
        }
        cr_expect_eq(cpu.nsimd, cases[i].nsimd, "xcr0 %#llx", (unsigned long long)cases[i].xcr0);
        cr_expect_eq(avx512, cases[i].avx512, "xcr0 %#llx: AVX-512", (unsigned long long)cases[i].xcr0);
        cr_expect_eq(amx, cases[i].amx, "xcr0 %#llx: AMX", (unsigned long long)cases[i].xcr0);
    }
}

Test(probe, flops_table)
{
    char u[32];
    cr_expect_eq(probe_flops_per_cycle("AuthenticAMD", 0x19, 0x11, 1, 1, u, sizeof u), 32);
    cr_expect_str_eq(u, "Zen 4");
    cr_expect_eq(probe_flops_per_cycle("AuthenticAMD", 0x19, 0x01, 0, 1, u, sizeof u), 32);
    cr_expect_str_eq(u, "Zen 3");
    cr_expect_eq(probe_flops_per_cycle("AuthenticAMD", 0x17, 0x01, 0, 1, u, sizeof u), 16, "Zen 1: 128-bit FMA units");
    cr_expect_eq(probe_flops_per_cycle("GenuineIntel", 6, 0x55, 1, 1, u, sizeof u), 64);
    cr_expect_eq(probe_flops_per_cycle("GenuineIntel", 6, 0x3f, 0, 1, u, sizeof u), 32);
    cr_expect_eq(probe_flops_per_cycle("GenuineIntel", 6, 0x2a, 0, 0, u, sizeof u), 16);
    cr_expect_eq(probe_flops_per_cycle("HiSilicon", 0, 0, 0, 0, u, sizeof u), 0);
    cr_expect_str_eq(u, "unknown");
}

/* A CPU the table does not know gets a peak estimated from its vector units, and says so. */
Test(probe, cpu_peak_estimated_from_simd_when_not_in_the_table)
{
    char how[128];
    const char *avx512[] = {"sse4.2", "avx", "avx2", "fma", "avx512f", "amx_bf16"};
    cr_expect_eq(probe_estimate_flops_per_cycle(avx512, 6, how, sizeof how), 64);
    cr_expect(strstr(how, "AVX-512") != NULL, "%s", how);
    const char *avx2[] = {"sse4.2", "avx", "avx2", "fma"};
    cr_expect_eq(probe_estimate_flops_per_cycle(avx2, 4, how, sizeof how), 32);
    const char *avx_only[] = {"sse4.2", "avx"};
    cr_expect_eq(probe_estimate_flops_per_cycle(avx_only, 2, how, sizeof how), 16);
    cr_expect_eq(probe_estimate_flops_per_cycle(NULL, 0, how, sizeof how), 0);

    /* An Intel Xeon with AVX-512 and AMX whose model is not in the table: 56 cores at 3800 MHz:
     * FP32 56 x 3800 x 64 / 1000 = 13619.2 GFLOP/s, estimated; BF16 on AMX 56 x 3800 x 1024 / 1000
     * = 217907.2 GFLOP/s. */
    struct probe_cpu cpu;
    memset(&cpu, 0, sizeof cpu);
    cpu.cores = 56;
    cpu.max_mhz = 3800;
    snprintf(cpu.mhz_source, sizeof cpu.mhz_source, "cpufreq");
    for (int i = 0; i < 6; i++) snprintf(cpu.simd[cpu.nsimd++], sizeof cpu.simd[0], "%s", avx512[i]);
    probe_cpu_peaks(&cpu);
    cr_expect_eq(cpu.flops_per_cycle, 64);
    cr_expect(cpu.peak_estimated);
    cr_expect_float_eq(cpu.peak_gflops, 13619.2, 1e-6);
    cr_expect_float_eq(cpu.peak_gflops_bf16, 217907.2, 1e-6);
    cr_expect(strncmp(cpu.peak_note, "estimated: ", 11) == 0, "%s", cpu.peak_note);
    /* AVX2 only, no AMX: 8 cores x 3000 MHz x 32 = 768 GFLOP/s; no BF16 peak */
    memset(&cpu, 0, sizeof cpu);
    cpu.cores = 8;
    cpu.max_mhz = 3000;
    for (int i = 0; i < 4; i++) snprintf(cpu.simd[cpu.nsimd++], sizeof cpu.simd[0], "%s", avx2[i]);
    probe_cpu_peaks(&cpu);
    cr_expect_float_eq(cpu.peak_gflops, 768, 1e-9);
    cr_expect_float_eq(cpu.peak_gflops_bf16, 0, 0);
    /* in the table: not estimated (Skylake-SP, 64 FLOP/cycle) */
    memset(&cpu, 0, sizeof cpu);
    cpu.cores = 4;
    cpu.max_mhz = 2000;
    cpu.flops_per_cycle = 64;
    snprintf(cpu.microarch, sizeof cpu.microarch, "Skylake-SP");
    probe_cpu_peaks(&cpu);
    cr_expect(!cpu.peak_estimated);
    cr_expect_float_eq(cpu.peak_gflops, 512, 1e-9);
    /* nothing known: no peak, and the note says why */
    memset(&cpu, 0, sizeof cpu);
    cpu.cores = 4;
    cpu.max_mhz = 2000;
    probe_cpu_peaks(&cpu);
    cr_expect_float_eq(cpu.peak_gflops, 0, 0);
    cr_expect(strstr(cpu.peak_note, "unknown") != NULL);
}

/* The machine's memory: the larger of the OS total and the NUMA nodes' sum. */
Test(probe, memory_is_the_larger_of_os_total_and_numa_sum)
{
    char *dir = ts_tmpdir(), *proc = ts_path(dir, "proc");
    mkdir(proc, 0755);
    char *meminfo = ts_path(proc, "meminfo");
    ts_write_str(meminfo, "MemTotal:       24683652 kB\nMemFree:        1 kB\n");
    setenv("FWADVISOR_SYSROOT", dir, 1);
    cr_expect_eq(probe_memory_bytes(16869148ull * 1024), 24683652ull * 1024, "the OS sees hot-plugged memory");
    cr_expect_eq(probe_memory_bytes(32000000ull * 1024), 32000000ull * 1024, "the NUMA nodes see more");
    unsetenv("FWADVISOR_SYSROOT");
    ts_rmtree(dir);
    free(dir), free(proc), free(meminfo);
}

/* A file under root (its folders made on the way), or a folder when text is NULL. */
static void put_file(const char *root, const char *rel, const char *text)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *s = path + strlen(root) + 1; (s = strchr(s, '/')); s++) {
        *s = '\0';
        mkdir(path, 0755);
        *s = '/';
    }
    if (text) cr_assert_eq(ts_write_str(path, text), 0, "%s", path);
    else mkdir(path, 0755);
}

/* The recorded machine's clock: cpufreq's cpuinfo_max_freq (kHz) before the brand string's base
 * clock, and the brand string when cpufreq says 0. The cpu-only topology: 36 Ice Lake-SP cores,
 * 64 FLOP a cycle; 3600000 kHz = 3600 MHz: 36 x 3600 x 64 / 1000 = 8294.4 GFLOP/s; the brand
 * string's 3.00 GHz: 36 x 3000 x 64 / 1000 = 6912. */
Test(probe, cpufreq_max_clock_comes_before_the_brand_string)
{
    static const struct { const char *khz, *source; double mhz, peak; } cases[] = {
        {"3600000\n", "cpufreq cpuinfo_max_freq", 3600, 8294.4},
        {"0\n", "brand string (base clock)", 3000, 6912},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        use_fixture("cpu-only");
        char *dir = ts_tmpdir();
        put_file(dir, "sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", cases[i].khz);
        setenv("FWADVISOR_SYSROOT", dir, 1);
        struct probe_hw *hw = calloc(1, sizeof *hw);
        probe_detect(hw);
        cr_expect_eq(hw->cpu.cores, 36);
        cr_expect_float_eq(hw->cpu.max_mhz, cases[i].mhz, 1e-9, "%s: %g MHz", cases[i].khz, hw->cpu.max_mhz);
        cr_expect_str_eq(hw->cpu.mhz_source, cases[i].source);
        cr_expect_float_eq(hw->cpu.peak_gflops, cases[i].peak, 1e-6, "%s: %g", cases[i].khz, hw->cpu.peak_gflops);
        free(hw);
        ts_rmtree(dir);
        free(dir);
    }
}

/* The probes' reads under a recorded root: device nodes named prefix + digit, counted with the
 * smallest name first whatever the folder's order; a "Key: value" field on the line whose key is
 * followed by its colon (not "Model name:"), trimmed; a "key value" property whose key is the whole
 * word (not simd_count_per_cu); a file's first line. */
Test(probe, sysfs_reads_under_a_recorded_root)
{
    char *dir = ts_tmpdir();
    static const char *const nodes[] = {"dev/nvidia1", "dev/nvidia10", "dev/nvidiactl", "dev/nvidia0", "dev/nvidia-uvm"};
    for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++) put_file(dir, nodes[i], "");
    put_file(dir, "gpus/0000:2a:00.0", NULL);
    put_file(dir, "gpus/0000:18:00.0", NULL);
    put_file(dir, "info", "Model name:\tWrong\nModel: \t NVIDIA H100 80GB HBM3 \r\nModel: second\n");
    put_file(dir, "props", "simd_count_per_cu 2\nsimd_count 304\n");
    setenv("FWADVISOR_SYSROOT", dir, 1);
    char first[64], out[128];
    cr_expect_eq(sysfs_count("/dev", "nvidia", 1, first, sizeof first), 3);
    cr_expect_str_eq(first, "nvidia0");
    cr_expect_eq(sysfs_count("/dev", "nvidia", 0, NULL, 0), 5);
    cr_expect_eq(sysfs_count("/gpus", "", 0, first, sizeof first), 2);
    cr_expect_str_eq(first, "0000:18:00.0");
    cr_expect_eq(sysfs_count("/none", "", 0, first, sizeof first), 0);
    cr_expect(sysfs_field("/info", "Model", out, sizeof out));
    cr_expect_str_eq(out, "NVIDIA H100 80GB HBM3");
    cr_expect_not(sysfs_field("/info", "Driver", out, sizeof out));
    long long v = -1;
    cr_expect(sysfs_keyval("/props", "simd_count", &v));
    cr_expect_eq(v, 304);
    cr_expect_not(sysfs_keyval("/props", "simd", &v), "no key of that whole word");
    cr_expect(sysfs_line("/info", out, sizeof out));
    cr_expect_str_eq(out, "Model name:\tWrong");
    unsetenv("FWADVISOR_SYSROOT");
    ts_rmtree(dir);
    free(dir);
}

Test(probe, median_of_an_even_count_and_gemm_flops)
{
    double v[] = {4, 1, 3, 2};
    struct probe_stats s;
    probe_stats(v, 4, &s);
    cr_expect_float_eq(s.median, 2.5, 1e-12, "the mean of the two middle values");
    cr_expect_float_eq(s.min, 1, 0);
    cr_expect_float_eq(s.max, 4, 0);
    /* 2048^3 multiply-adds of 2 FLOPs: 17,179,869,184 */
    cr_expect_float_eq(probe_gemm_flops(2048), 17179869184.0, 0);
    cr_expect_float_eq(probe_gemm_flops(1), 2, 0);
    /* The spread of an even count takes the mean of the two middle deviations too: from the
     * median 2.5 the deviations are 1.5, 0.5, 0.5, 1.5, sorted 0.5 0.5 1.5 1.5, their median
     * (0.5 + 1.5) / 2 = 1: cv = 1.4826 x 1 / 2.5 = 0.59304 (the upper one alone, 1.5, would
     * give 0.88956). */
    cr_expect_float_eq(s.cv, 1.4826 / 2.5, 1e-12, "cv %.9f", s.cv);
}

/* --workload takes each row's name in any case, lists of them and "all"; a near miss of any
 * name (a prefix, a letter more, a space) is refused with the list, and so is a list that names
 * none. The bits are the rows' places: train-tiny 1, stream 2, transfer 4, gemm 8, train-mlp 16,
 * train-gpt 32, frameworks 64, allreduce 128, train-dp 256; all 511. */
Test(probe, workload_names_in_full_only)
{
    static const struct {
        const char *list;
        unsigned set; /* 0: refused */
    } cases[] = {
        {"train-tiny", 1},      {"stream", 2},       {"transfer", 4},       {"gemm", 8},
        {"train-mlp", 16},      {"train-gpt", 32},   {"frameworks", 64},    {"allreduce", 128},
        {"train-dp", 256},      {"all", 511},        {"GEMM", 8},           {"Train-GPT", 32},
        {"gemm,stream", 10},    {"gemm,,stream", 10}, {"gemm,all", 511},    {"ALL", 511},
        {"gem", 0},             {"gemms", 0},        {"train", 0},          {"train-", 0},
        {"frame", 0},           {"allreduc", 0},     {" gemm", 0},          {"gemm ", 0},
        {"gemm,gpu", 0},        {"al", 0},           {"", 0},               {",", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned set = 12345;
        char err[512] = "";
        int rc = probe_parse_workloads(cases[i].list, &set, err, sizeof err);
        cr_expect_eq(rc, cases[i].set ? 0 : -1, "'%s': %d (%s)", cases[i].list, rc, err);
        if (cases[i].set) {
            cr_expect_eq(set, cases[i].set, "'%s': %u", cases[i].list, set);
        } else if (strspn(cases[i].list, ",") == strlen(cases[i].list)) {
            cr_expect_str_eq(err, "no workload named", "'%s'", cases[i].list);
        } else {
            cr_expect(strstr(err, "(train-tiny, stream, transfer, gemm, train-mlp, train-gpt, frameworks, allreduce, train-dp, all)"),
                      "'%s': %s", cases[i].list, err);
        }
    }
    cr_expect_eq(probe_workload_set(PROBE_WS_ALL), 511u);
}

/* A change counts as better or WORSE only beyond the noise: twice the larger coefficient of
 * variation, at least 3%; for microseconds per step lower is better. */
Test(probe, table_verdicts_on_both_sides_of_the_noise)
{
    static const struct {
        double now, cv, base_cv;
        const char *unit;
        enum probe_verdict want;
    } cases[] = {
        {102.9, 0.005, 0.005, "GFLOP/s", PV_SAME},   /* +2.9%: under the 3% floor */
        {103.1, 0.005, 0.005, "GFLOP/s", PV_BETTER}, /* +3.1%: over it */
        {96.9, 0.005, 0.005, "GFLOP/s", PV_WORSE},
        {107.9, 0.04, 0.01, "GFLOP/s", PV_SAME},     /* 2 x 4% = 8% of noise */
        {108.1, 0.04, 0.01, "GFLOP/s", PV_BETTER},
        {110, 0.005, 0.005, "us", PV_WORSE},          /* slower steps */
        {90, 0.005, 0.005, "us", PV_BETTER},
        {110, 0.005, 0.005, "ms", PV_WORSE},          /* a step, compute or communication in ms: the same */
        {90, 0.005, 0.005, "ms", PV_BETTER},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char doc_text[512], base_text[512];
        const char *row = "{\"schema\": \"fwadvisor.probe/1\", \"results\": [{\"workload\": \"gemm\", \"metric\": \"gflops\","
                          " \"unit\": \"%s\", \"status\": \"ok\", \"median\": %g, \"min\": 1, \"max\": 200, \"cv\": %g,"
                          " \"params\": {\"n\": 1024}}]}";
        snprintf(doc_text, sizeof doc_text, row, cases[i].unit, cases[i].now, cases[i].cv);
        snprintf(base_text, sizeof base_text, row, cases[i].unit, 100.0, cases[i].base_cv);
        cJSON *doc = cJSON_Parse(doc_text), *base = cJSON_Parse(base_text);
        struct probe_table *t = malloc(sizeof *t);
        probe_table_build(doc, base, t);
        cr_expect_eq(t->rows[0].verdict, cases[i].want, "case %zu: %g against 100 (%s)", i, cases[i].now, t->rows[0].cell[PT_CHANGE]);
        free(t);
        cJSON_Delete(doc);
        cJSON_Delete(base);
    }
}

/* A result meets the baseline's of the same workload, device, metric and the parameters it was
 * measured at; what it measured (an all-reduce's time, a framework's loss, first step and
 * version) does not keep it from its match. Another rank count, device, size or interpreter: new. */
Test(probe, compare_matches_by_what_was_measured_not_its_figures)
{
    cJSON *doc = cJSON_Parse(
        "{\"results\": ["
        "{\"workload\": \"allreduce\", \"device\": \"cpu\", \"metric\": \"busbw_gbs\", \"unit\": \"GB/s\", \"status\": \"ok\","
        " \"median\": 10, \"cv\": 0.01, \"params\": {\"bytes\": 1048576, \"ranks\": 2, \"dtype\": \"fp32\", \"op\": \"sum\","
        " \"time_us\": 150.5, \"algbw_gbs\": 6.97, \"wrong\": 0, \"via\": \"mpi\"}},"
        "{\"workload\": \"frameworks\", \"device\": \"cpu\", \"metric\": \"step_ms\", \"unit\": \"ms\", \"status\": \"ok\","
        " \"median\": 20, \"cv\": 0.01, \"params\": {\"framework\": \"pytorch\", \"mode\": \"eager\", \"model\": \"mlp\","
        " \"per_step\": 256, \"per_step_unit\": \"samples\", \"python\": 0, \"loss\": 2.3, \"first_step_s\": 0.5, \"version\": \"2.5.0\"}},"
        "{\"workload\": \"gemm\", \"device\": \"cuda:0\", \"metric\": \"gflops\", \"unit\": \"GFLOP/s\", \"status\": \"ok\","
        " \"median\": 100, \"cv\": 0.01, \"params\": {\"n\": 1024, \"dtype\": \"bf16\"}},"
        "{\"workload\": \"allreduce\", \"device\": \"cpu\", \"metric\": \"busbw_gbs\", \"unit\": \"GB/s\", \"status\": \"ok\","
        " \"median\": 3, \"cv\": 0.01, \"params\": {\"bytes\": 4096, \"ranks\": 2, \"dtype\": \"fp32\", \"op\": \"sum\","
        " \"time_us\": 5, \"algbw_gbs\": 0.8, \"wrong\": 0, \"via\": \"mpi\"}},"
        "{\"workload\": \"frameworks\", \"device\": \"cpu\", \"metric\": \"step_ms\", \"unit\": \"ms\", \"status\": \"ok\","
        " \"median\": 20, \"cv\": 0.01, \"params\": {\"framework\": \"pytorch\", \"mode\": \"eager\", \"model\": \"mlp\","
        " \"per_step\": 256, \"per_step_unit\": \"samples\", \"python\": 1, \"loss\": 2.3, \"version\": \"2.5.0\"}}]}");
    cJSON *base = cJSON_Parse(
        "{\"results\": ["
        "{\"workload\": \"allreduce\", \"device\": \"cpu\", \"metric\": \"busbw_gbs\", \"unit\": \"GB/s\", \"status\": \"ok\","
        " \"median\": 1, \"cv\": 0.01, \"params\": {\"bytes\": 1048576, \"ranks\": 4, \"dtype\": \"fp32\", \"op\": \"sum\","
        " \"time_us\": 900, \"algbw_gbs\": 1.1, \"wrong\": 0, \"via\": \"mpi\"}},"
        "{\"workload\": \"allreduce\", \"device\": \"cpu\", \"metric\": \"busbw_gbs\", \"unit\": \"GB/s\", \"status\": \"ok\","
        " \"median\": 8, \"cv\": 0.01, \"params\": {\"bytes\": 1048576, \"ranks\": 2, \"dtype\": \"fp32\", \"op\": \"sum\","
        " \"time_us\": 188.1, \"algbw_gbs\": 5.57, \"wrong\": 0, \"via\": \"mpi\"}},"
        "{\"workload\": \"frameworks\", \"device\": \"cpu\", \"metric\": \"step_ms\", \"unit\": \"ms\", \"status\": \"ok\","
        " \"median\": 25, \"cv\": 0.01, \"params\": {\"framework\": \"pytorch\", \"mode\": \"eager\", \"model\": \"mlp\","
        " \"per_step\": 256, \"per_step_unit\": \"samples\", \"python\": 0, \"loss\": 2.31, \"first_step_s\": 0.7, \"version\": \"2.4.0\"}},"
        "{\"workload\": \"gemm\", \"device\": \"cpu\", \"metric\": \"gflops\", \"unit\": \"GFLOP/s\", \"status\": \"ok\","
        " \"median\": 50, \"cv\": 0.01, \"params\": {\"n\": 1024, \"dtype\": \"bf16\"}}]}");
    struct probe_table *t = malloc(sizeof *t);
    cr_assert(doc && base && t);
    probe_table_build(doc, base, t);
    cr_assert_eq(t->nrows, 5);
    cr_expect_eq(t->rows[0].verdict, PV_BETTER, "allreduce 1 MiB over 2 ranks: %s", t->rows[0].cell[PT_CHANGE]);
    cr_expect_float_eq(t->rows[0].change, 25.0, 1e-9);
    cr_expect_str_eq(t->rows[0].cell[PT_BASE], "8");
    cr_expect_str_eq(t->rows[0].cell[PT_CHANGE], "+25.0% better");
    cr_expect(t->rows[1].frameworks);
    cr_expect_neq(t->rows[1].verdict, PV_NEW, "pytorch eager mlp: %s", t->rows[1].cell[PT_CHANGE]);
    cr_expect_float_eq(t->rows[1].change, -20.0, 1e-9);
    cr_expect_str_eq(t->rows[1].cell[PT_BASE], "25");
    cr_expect_eq(t->rows[1].verdict, PV_BETTER, "a step a fifth shorter is faster");
    cr_expect_str_eq(t->rows[1].cell[PT_CHANGE], "-20.0% better");
    cr_expect_eq(t->rows[2].verdict, PV_NEW, "the GPU's GEMM is not the CPU's: %s", t->rows[2].cell[PT_CHANGE]);
    cr_expect_eq(t->rows[3].verdict, PV_NEW, "another message size");
    cr_expect_eq(t->rows[4].verdict, PV_NEW, "another interpreter");
    cr_expect_str_eq(t->rows[4].cell[PT_CHANGE], "new");
    free(t);
    cJSON_Delete(doc);
    cJSON_Delete(base);
}

/* The summary lines from a run read once: "?" for a figure not given, the vector extensions and
 * hosts that are strings, each accelerator with or without its memory; the document's own
 * reading gives the same lines. */
Test(probe, summary_lines_from_the_run_read_once)
{
    cJSON *doc = cJSON_Parse(
        "{\"id\": \"r1\", \"started_at\": \"2026-01-01T00:00:00Z\", \"interrupted\": true,"
        " \"cpu\": {\"model\": \"X\", \"microarchitecture\": \"Y\", \"packages\": 1, \"cores\": 4, \"threads\": 8,"
        " \"numa_nodes\": 1, \"caches\": {\"l3_bytes\": 32000000}, \"memory_bytes\": 16e9, \"simd\": [\"avx2\", 5, \"fma\"],"
        " \"peak_gflops_fp32\": 100.4, \"peak_note\": \"n\"},"
        " \"accelerators\": [{\"kind\": \"nvidia\", \"name\": \"G\", \"memory_bytes\": 8e9, \"compute_capability\": \"8.6\","
        " \"note\": \"NVML\"}, {\"kind\": \"amd\", \"count\": 2, \"name\": \"M\", \"note\": \"sysfs\"}],"
        " \"ranks\": {\"count\": 2, \"hosts\": [\"h1\", 3, \"h2\"], \"mpi\": \"MPICH\"}}");
    static const char *const want[] = {
        "probe run r1, 2026-01-01T00:00:00Z, ? s, INTERRUPTED",
        "CPU: X (Y), 1 package(s), 4 cores, 8 threads, 1 NUMA node(s), L3 32 MB, memory 16.0 GB; SIMD: avx2 fma; "
        "FP32 peak 100 GFLOP/s (n)",
        "nvidia: ? x G, 8.0 GB each, compute capability 8.6. NVML",
        "amd: 2 x M. sysfs",
        "ranks: 2 on h1, h2 (MPICH)",
    };
    struct measured_run *m = malloc(sizeof *m);
    cr_assert(doc && m);
    measured_read(doc, m);
    char lines[8][512], again[8][512];
    cr_assert_eq(probe_summary_from(m, lines, 8), 5);
    for (int i = 0; i < 5; i++) cr_expect_str_eq(lines[i], want[i], "line %d", i);
    cr_assert_eq(probe_summary_lines(doc, again, 8), 5);
    for (int i = 0; i < 5; i++) cr_expect_str_eq(again[i], want[i], "line %d from the document", i);
    cr_expect_eq(probe_summary_from(m, lines, 2), 2, "at most max lines");
    /* no accelerator, no ranks, no CPU model */
    cJSON *bare = cJSON_Parse("{\"id\": \"b\", \"duration_s\": 2.5, \"accelerators\": []}");
    measured_read(bare, m);
    cr_assert_eq(probe_summary_from(m, lines, 8), 3);
    cr_expect_str_eq(lines[0], "probe run b, , 2.5 s");
    cr_expect_str_eq(lines[1], "CPU: model unknown (), ? package(s), ? cores, ? threads, ? NUMA node(s), L3 ? MB, "
                               "memory ? GB; SIMD: -; FP32 peak unknown ()");
    cr_expect_str_eq(lines[2], "accelerators: none found");
    cJSON_Delete(bare);
    cJSON_Delete(doc);
    free(m);
}

Test(probe, statistics)
{
    double v[] = {5, 1, 3, 2, 4};
    struct probe_stats s;
    probe_stats(v, 5, &s);
    cr_expect_eq(s.n, 5);
    cr_expect_float_eq(s.median, 3, 1e-12);
    cr_expect_float_eq(s.min, 1, 1e-12);
    cr_expect_float_eq(s.max, 5, 1e-12);
    cr_expect_float_eq(s.mean, 3, 1e-12);
    /* median absolute deviation 1 -> 1.4826 / 3 */
    cr_expect_float_eq(s.cv, 1.4826 / 3, 1e-9);
    /* one stretched sample does not make a steady series noisy */
    double w[] = {10, 10.1, 9.9, 10, 10.05, 9.95, 10, 60};
    probe_stats(w, 8, &s);
    cr_expect_lt(s.cv, 0.02, "cv %f", s.cv);
    cr_expect_float_eq(s.max, 60, 1e-12);
    double one[] = {7};
    probe_stats(one, 1, &s);
    cr_expect_float_eq(s.cv, 0, 1e-12);
}

Test(probe, gemm_and_stream_checks_catch_wrong_results)
{
    enum { N = 48 };
    float a[N * N], b[N * N], c[N * N];
    for (int i = 0; i < N * N; i++) {
        a[i] = (float)((i * 37) % 17) / 17.0f - 0.5f;
        b[i] = (float)((i * 11) % 13) / 13.0f - 0.5f;
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < N; k++) s += (double)a[i * N + k] * b[k * N + j];
            c[i * N + j] = (float)s;
        }
    cr_expect(probe_gemm_check(a, b, c, N, 1));
    for (int i = 0; i < N * N; i++) c[i] *= 1.01f; /* 1% off everywhere */
    cr_expect_not(probe_gemm_check(a, b, c, N, 1));
    memset(c, 0, sizeof c);
    cr_expect_not(probe_gemm_check(a, b, c, N, 1), "zeros are not a product");

    enum { M = 1000 };
    double *x = malloc(M * sizeof *x), *y = malloc(M * sizeof *y), *z = malloc(M * sizeof *z);
    for (int j = 0; j < M; j++) x[j] = 2.0, y[j] = 2.0, z[j] = 0.0;
    const double q = 3.0;
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < M; j++) {
            z[j] = x[j];
            y[j] = q * z[j];
            z[j] = x[j] + y[j];
            x[j] = y[j] + q * z[j];
        }
    cr_expect(probe_stream_check(x, y, z, M, 4));
    cr_expect_not(probe_stream_check(x, y, z, M, 5), "a round too few");
    x[500] += 1.0;
    cr_expect_not(probe_stream_check(x, y, z, M, 4));
    free(x);
    free(y);
    free(z);
}

Test(probe, workload_names)
{
    unsigned w;
    char err[128];
    cr_expect_eq(probe_parse_workloads("gemm,train-tiny", &w, err, sizeof err), 0);
    cr_expect_eq(w, probe_workload_bit(PROBE_WL_GEMM) | probe_workload_bit(PROBE_WL_TRAIN_TINY));
    cr_expect_eq(w, 8u | 1u); /* rows 3 and 0 of the table */
    cr_expect_eq(probe_parse_workloads("all", &w, err, sizeof err), 0);
    cr_expect_eq(w, probe_workload_set(PROBE_WS_ALL));
    cr_expect_eq(probe_parse_workloads("gemm,gpu", &w, err, sizeof err), -1);
    cr_expect(strstr(err, "unknown workload 'gpu'") != NULL);
}

Test(probe, a_short_run_has_every_workload_and_a_valid_document, .timeout = 120)
{
    unsetenv("FWADVISOR_SYSROOT");
    unsetenv("HWLOC_XMLFILE");
    struct probe_run *run = calloc(1, sizeof *run);
    strcpy(run->id, "test-run");
    strcpy(run->started_at, "2026-11-30T00:00:00Z");
    strcpy(run->version, "test");
    probe_detect(&run->hw);
    struct probe_options o;
    memset(&o, 0, sizeof o);
    o.smoke = 1;
    o.threads = 1;
    o.workloads = probe_workload_set(PROBE_WS_ALL);
    strcpy(o.device, "cpu");
    cr_expect_eq(probe_run_workloads(run, &o), 0);
    int seen[9] = {0};
    const char *names[] = {"gemm", "stream", "transfer", "train-mlp", "train-tiny", "allreduce", "train-dp", "train-gpt",
                           "frameworks"};
    for (int i = 0; i < run->nresults; i++) {
        struct probe_result *r = &run->results[i];
        for (int k = 0; k < 9; k++) seen[k] |= strcmp(r->workload, names[k]) == 0;
        if (strcmp(r->workload, "frameworks") == 0) continue; /* what runs depends on what is installed (test_frameworks.c) */
        if (strcmp(r->workload, "transfer") == 0 || strcmp(r->workload, "allreduce") == 0 ||
            strcmp(r->workload, "train-dp") == 0) {
            cr_expect(r->skipped && strstr(r->reason, "skipped:"), "%s: %s", r->workload, r->reason);
            continue;
        }
        cr_expect_not(r->skipped, "%s %s: %s", r->workload, r->metric, r->reason);
        cr_expect_gt(r->stats.n, 0);
        cr_expect_gt(r->stats.median, 0, "%s %s", r->workload, r->metric);
        cr_expect(r->stats.min <= r->stats.median && r->stats.median <= r->stats.max);
    }
    for (int k = 0; k < 9; k++) cr_expect(seen[k], "no %s result", names[k]);
    cJSON *doc = probe_run_to_json(run);
    char err[1024];
    int rc = ts_validate_doc(doc, "probe.schema.json", err, sizeof err);
    if (rc >= 0) cr_expect_eq(rc, 0, "%s", err);
    cJSON_Delete(doc);
    free(run);
}

static const struct probe_result *find_result(const struct probe_run *run, const char *workload, const char *metric)
{
    for (int i = 0; i < run->nresults; i++)
        if (!strcmp(run->results[i].workload, workload) && !strcmp(run->results[i].metric, metric)) return &run->results[i];
    return NULL;
}

/* train-gpt's MFU rows: achieved TFLOP/s over the measured GEMM peak and over the catalog's; a
 * CPU whose peak the table lacks is measured against its GEMM, so MFU is never missing. */
Test(probe, train_gpt_reports_mfu_against_both_peaks, .timeout = 120)
{
    unsetenv("FWADVISOR_SYSROOT");
    unsetenv("HWLOC_XMLFILE");
    for (int known = 1; known >= 0; known--) {
        struct probe_run *run = calloc(1, sizeof *run);
        probe_detect(&run->hw);
        run->hw.cpu.peak_gflops = known ? 1000.0 : 0.0; /* 1 TFLOP/s: a round catalog figure */
        run->hw.cpu.peak_estimated = 0;
        struct probe_options o;
        memset(&o, 0, sizeof o);
        o.smoke = 1;
        o.threads = 1;
        o.workloads = probe_workload_bit(PROBE_WL_TRAIN_GPT);
        strcpy(o.device, "cpu");
        cr_assert_eq(probe_run_workloads(run, &o), 0);
        const struct probe_result *tok = find_result(run, "train-gpt", "tokens_per_s"),
                                  *tf = find_result(run, "train-gpt", "tflops"), *mfu = find_result(run, "train-gpt", "mfu"),
                                  *cat = find_result(run, "train-gpt", "mfu_catalog");
        cr_assert(tok && tf && mfu && cat);
        cr_assert(!tok->skipped && !tf->skipped && !mfu->skipped && !cat->skipped, "%s", mfu->reason);
        cr_expect_gt(mfu->stats.median, 0);
        cr_expect_eq(mfu->peak_fraction, mfu->stats.median);
        if (known) {
            /* against 1 TFLOP/s the catalog MFU is the TFLOP/s figure itself (per step, then the median) */
            cr_expect_float_eq(cat->stats.median, tf->stats.median, 1e-9);
            cr_expect_float_eq(cat->params.peak_tflops, 1, 1e-12);
            cr_expect_str_eq(cat->params.peak_source, "cpu peak table");
            cr_expect_eq(cat->params.peak_kind, PROBE_PEAK_TABLE);
        } else {
            cr_expect_float_eq(cat->stats.median, mfu->stats.median, 1e-12);
            cr_expect_str_eq(cat->params.peak_source, "measured gemm (not in the catalog)");
            cr_expect_eq(cat->params.peak_kind, PROBE_PEAK_GEMM);
        }
        free(run);
    }
}

Test(probe, stop_flag_ends_the_run_early)
{
    unsetenv("FWADVISOR_SYSROOT");
    unsetenv("HWLOC_XMLFILE");
    struct probe_run *run = calloc(1, sizeof *run);
    probe_detect(&run->hw);
    volatile sig_atomic_t stop = 1;
    struct probe_options o;
    memset(&o, 0, sizeof o);
    o.smoke = 1;
    o.threads = 1;
    o.workloads = probe_workload_bit(PROBE_WL_GEMM) | probe_workload_bit(PROBE_WL_STREAM);
    o.stop = &stop;
    cr_expect_eq(probe_run_workloads(run, &o), 1);
    cr_expect(run->interrupted);
    free(run);
}
