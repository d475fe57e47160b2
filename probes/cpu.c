/* CPU detection: topology from hwloc, features from cpuid and xgetbv, the clock from cpufreq or a
 * measured chain of dependent additions, and the theoretical FP32 peak from a table. */
#include "probes/probe.h"
#include "probes/sysfs.h"

#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define PROBE_X86 1
#endif
#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

static void add_feature(struct probe_cpu *cpu, const char *name)
{
    if (cpu->nsimd < (int)(sizeof cpu->simd / sizeof cpu->simd[0]))
        snprintf(cpu->simd[cpu->nsimd++], sizeof cpu->simd[0], "%s", name);
}

static int has_feature(const struct probe_cpu *cpu, const char *name)
{
    for (int i = 0; i < cpu->nsimd; i++)
        if (strcmp(cpu->simd[i], name) == 0) return 1;
    return 0;
}

void probe_x86_features(struct probe_cpu *cpu, uint32_t l1_ecx, uint32_t l7_ebx, uint32_t l7_ecx, uint32_t l7_edx,
                        uint32_t l71_eax, uint64_t xcr0)
{
    int os_avx = (l1_ecx >> 27 & 1) && (xcr0 & 0x6) == 0x6;   /* OSXSAVE and XMM+YMM state */
    int os_avx512 = os_avx && (xcr0 & 0xe0) == 0xe0;          /* opmask, ZMM_Hi256, Hi16_ZMM */
    int os_amx = (xcr0 & 0x60000) == 0x60000;                 /* XTILECFG, XTILEDATA */
    if (l1_ecx >> 20 & 1) add_feature(cpu, "sse4.2");
    if (os_avx && (l1_ecx >> 28 & 1)) add_feature(cpu, "avx");
    if (os_avx && (l7_ebx >> 5 & 1)) add_feature(cpu, "avx2");
    if (os_avx && (l1_ecx >> 12 & 1)) add_feature(cpu, "fma");
    if (os_avx512 && (l7_ebx >> 16 & 1)) {
        add_feature(cpu, "avx512f");
        if (l7_ebx >> 30 & 1) add_feature(cpu, "avx512bw");
        if (l7_ebx >> 31 & 1) add_feature(cpu, "avx512vl");
        if (l7_ecx >> 11 & 1) add_feature(cpu, "avx512_vnni");
        if (l71_eax >> 5 & 1) add_feature(cpu, "avx512_bf16");
    }
    if (os_amx) {
        if (l7_edx >> 24 & 1) add_feature(cpu, "amx_tile");
        if (l7_edx >> 22 & 1) add_feature(cpu, "amx_bf16");
        if (l7_edx >> 25 & 1) add_feature(cpu, "amx_int8");
    }
}

/* FP32 FLOP per cycle per core = FMA units x SIMD lanes x 2 (docs/probe.md). */
int probe_flops_per_cycle(const char *vendor, int family, int model, int has_avx512, int has_fma, char *uarch,
                          size_t uarchsz)
{
    struct row { int family, model_lo, model_hi, flops; const char *name; };
    static const struct row intel[] = {
        {6, 0x2a, 0x2a, 16, "Sandy Bridge"},   {6, 0x2d, 0x2d, 16, "Sandy Bridge-EP"},
        {6, 0x3a, 0x3a, 16, "Ivy Bridge"},     {6, 0x3e, 0x3e, 16, "Ivy Bridge-EP"},
        {6, 0x3c, 0x3c, 32, "Haswell"},        {6, 0x3f, 0x3f, 32, "Haswell-EP"},
        {6, 0x45, 0x46, 32, "Haswell"},        {6, 0x3d, 0x3d, 32, "Broadwell"},
        {6, 0x47, 0x47, 32, "Broadwell"},      {6, 0x4f, 0x4f, 32, "Broadwell-EP"},
        {6, 0x56, 0x56, 32, "Broadwell-DE"},   {6, 0x4e, 0x4e, 32, "Skylake"},
        {6, 0x5e, 0x5e, 32, "Skylake"},        {6, 0x8e, 0x8e, 32, "Kaby/Coffee Lake"},
        {6, 0x9e, 0x9e, 32, "Kaby/Coffee Lake"}, {6, 0xa5, 0xa6, 32, "Comet Lake"},
        {6, 0x55, 0x55, 64, "Skylake-SP/Cascade/Cooper Lake"},
        {6, 0x6a, 0x6a, 64, "Ice Lake-SP"},    {6, 0x6c, 0x6c, 64, "Ice Lake-SP"},
        {6, 0x7d, 0x7e, 32, "Ice Lake"},       {6, 0x8c, 0x8d, 32, "Tiger Lake"},
        {6, 0x8f, 0x8f, 64, "Sapphire Rapids"}, {6, 0xcf, 0xcf, 64, "Emerald Rapids"},
        {6, 0xad, 0xae, 64, "Granite Rapids"}, {6, 0x97, 0x97, 32, "Alder Lake"},
        {6, 0x9a, 0x9a, 32, "Alder Lake"},     {6, 0xb7, 0xb7, 32, "Raptor Lake"},
        {6, 0xba, 0xba, 32, "Raptor Lake"},    {6, 0xbf, 0xbf, 32, "Raptor Lake"},
    };
    static const struct row amd[] = {
        {0x17, 0x00, 0x2f, 16, "Zen/Zen+"},    {0x17, 0x30, 0xff, 32, "Zen 2"},
        {0x19, 0x00, 0x0f, 32, "Zen 3"},       {0x19, 0x20, 0x5f, 32, "Zen 3"},
        {0x19, 0x10, 0x1f, 32, "Zen 4"},       {0x19, 0x60, 0x7f, 32, "Zen 4"},
        {0x19, 0xa0, 0xaf, 32, "Zen 4"},       {0x1a, 0x00, 0xff, 64, "Zen 5"},
    };
    const struct row *rows = NULL;
    size_t n = 0;
    if (vendor && strcmp(vendor, "GenuineIntel") == 0) rows = intel, n = sizeof intel / sizeof intel[0];
    if (vendor && strcmp(vendor, "AuthenticAMD") == 0) rows = amd, n = sizeof amd / sizeof amd[0];
    for (size_t i = 0; i < n; i++) {
        if (rows[i].family == family && model >= rows[i].model_lo && model <= rows[i].model_hi) {
            snprintf(uarch, uarchsz, "%s", rows[i].name);
            return rows[i].flops;
        }
    }
    (void)has_avx512;
    (void)has_fma;
    snprintf(uarch, uarchsz, "unknown");
    return 0;
}

int probe_estimate_flops_per_cycle(const char *const *features, int nfeatures, char *how, size_t howsz)
{
    /* FMA units x SIMD lanes x 2 from the widest vector unit the processor reports, taking two
     * FMA units as server and desktop cores since Haswell have them (some client cores with
     * AVX-512 have one: the estimate is then twice too high, and says it is an estimate). */
    struct row { const char *feature; int flops; const char *text; };
    static const struct row rows[] = {
        {"avx512f", 64, "estimated from AVX-512: 2 FMA units x 16 FP32 lanes x 2"},
        {"fma", 32, "estimated from AVX2 and FMA: 2 FMA units x 8 FP32 lanes x 2"},
        {"avx", 16, "estimated from AVX without FMA: an 8-lane multiply and an 8-lane add per cycle"},
        {"sve", 16, "estimated from SVE at 128 bits: 2 FMA units x 4 FP32 lanes x 2"},
        {"neon", 16, "estimated from NEON: 2 FMA units x 4 FP32 lanes x 2"},
        {"sse4.2", 8, "estimated from SSE: a 4-lane multiply and a 4-lane add per cycle"},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
        for (int i = 0; i < nfeatures; i++)
            if (strcmp(features[i], rows[r].feature) == 0) {
                snprintf(how, howsz, "%s", rows[r].text);
                return rows[r].flops;
            }
    snprintf(how, howsz, "no SIMD features known");
    return 0;
}

#ifdef PROBE_X86
static uint64_t read_xcr0(void)
{
    uint32_t eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return (uint64_t)edx << 32 | eax;
}

/* Cycles per second of this core: a chain of dependent register additions, one per cycle on
 * every x86 core since the Pentium Pro; the best of a few tries. */
static double measure_mhz(void)
{
    double best = 0;
    for (int t = 0; t < 5; t++) {
        uint64_t x = 0, y = 1;
        const long iters = 4000000;
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        for (long i = 0; i < iters; i++) {
            __asm__ volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                             "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0"
                             : "+r"(x)
                             : "r"(y));
        }
        clock_gettime(CLOCK_MONOTONIC, &b);
        double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
        double mhz = 8.0 * (double)iters / s / 1e6;
        if (mhz > best) best = mhz;
    }
    return best;
}
#endif

static void detect_x86(struct probe_cpu *cpu)
{
#ifdef PROBE_X86
    uint32_t a, b, c, d;
    char vendor[13] = "";
    if (!__get_cpuid(0, &a, &b, &c, &d)) return;
    unsigned max_leaf = a;
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    snprintf(cpu->vendor, sizeof cpu->vendor, "%s", vendor);
    __get_cpuid(1, &a, &b, &c, &d);
    uint32_t l1_ecx = c;
    int family = (int)(a >> 8 & 0xf), model = (int)(a >> 4 & 0xf);
    if (family == 0xf) family += (int)(a >> 20 & 0xff);
    if (family == 0x6 || family >= 0xf) model |= (int)(a >> 16 & 0xf) << 4;
    uint32_t l7_ebx = 0, l7_ecx = 0, l7_edx = 0, l71_eax = 0;
    if (max_leaf >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        l7_ebx = b, l7_ecx = c, l7_edx = d;
        unsigned subleaves = a;
        if (subleaves >= 1) {
            __cpuid_count(7, 1, a, b, c, d);
            l71_eax = a;
        }
    }
    uint64_t xcr0 = (l1_ecx >> 27 & 1) ? read_xcr0() : 0;
    probe_x86_features(cpu, l1_ecx, l7_ebx, l7_ecx, l7_edx, l71_eax, xcr0);
    /* Brand string, when hwloc gave none. */
    if (!cpu->model[0] && __get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000004) {
        uint32_t regs[12];
        for (int i = 0; i < 3; i++) __get_cpuid(0x80000002 + (unsigned)i, &regs[4 * i], &regs[4 * i + 1], &regs[4 * i + 2], &regs[4 * i + 3]);
        char brand[49];
        memcpy(brand, regs, 48);
        brand[48] = '\0';
        char *p = brand;
        while (*p == ' ') p++;
        snprintf(cpu->model, sizeof cpu->model, "%s", p);
    }
    cpu->family = family;
    cpu->model_number = model;
#else
    (void)cpu;
#endif
}

static void detect_arm(struct probe_cpu *cpu)
{
#if defined(__aarch64__)
    unsigned long hw = getauxval(AT_HWCAP);
    if (hw & (1UL << 1)) add_feature(cpu, "neon");
    if (hw & (1UL << 22)) add_feature(cpu, "sve");
    snprintf(cpu->microarch, sizeof cpu->microarch, "unknown");
#else
    (void)cpu;
#endif
}

static void detect_topology(struct probe_cpu *cpu)
{
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0) return;
    if (hwloc_topology_load(topo) != 0) {
        hwloc_topology_destroy(topo);
        return;
    }
    cpu->packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    cpu->cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    cpu->threads = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    cpu->numa_nodes = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    hwloc_obj_t c;
    if ((c = hwloc_get_obj_by_type(topo, HWLOC_OBJ_L1CACHE, 0))) cpu->l1d_bytes = c->attr->cache.size;
    if ((c = hwloc_get_obj_by_type(topo, HWLOC_OBJ_L2CACHE, 0))) cpu->l2_bytes = c->attr->cache.size;
    if ((c = hwloc_get_obj_by_type(topo, HWLOC_OBJ_L3CACHE, 0))) cpu->l3_bytes = c->attr->cache.size;
    cpu->memory_bytes = probe_memory_bytes(hwloc_get_root_obj(topo)->total_memory);
    hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
    const char *model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
    const char *vendor = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUVendor") : NULL;
    const char *family = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUFamilyNumber") : NULL;
    const char *number = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModelNumber") : NULL;
    if (model) snprintf(cpu->model, sizeof cpu->model, "%s", model);
    if (vendor) snprintf(cpu->vendor, sizeof cpu->vendor, "%s", vendor);
    if (family && number) {
        cpu->family = atoi(family);
        cpu->model_number = atoi(number);
    }
    hwloc_topology_destroy(topo);
}

static void detect_clock(struct probe_cpu *cpu)
{
    char line[64];
    if (sysfs_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", line, sizeof line) && atof(line) > 0) {
        cpu->max_mhz = atof(line) / 1000.0;
        snprintf(cpu->mhz_source, sizeof cpu->mhz_source, "cpufreq cpuinfo_max_freq");
        return;
    }
    const char *at = strstr(cpu->model, "@ ");
    if (at && strstr(at, "GHz")) {
        cpu->max_mhz = atof(at + 2) * 1000.0;
        snprintf(cpu->mhz_source, sizeof cpu->mhz_source, "brand string (base clock)");
        return;
    }
#ifdef PROBE_X86
    if (!getenv("FWADVISOR_SYSROOT")) { /* a recorded machine's clock cannot be measured here */
        cpu->max_mhz = measure_mhz();
        snprintf(cpu->mhz_source, sizeof cpu->mhz_source, "measured (dependent additions)");
        return;
    }
#endif
    snprintf(cpu->mhz_source, sizeof cpu->mhz_source, "unknown");
}

void probe_detect_cpu(struct probe_cpu *cpu);
void probe_detect_cpu(struct probe_cpu *cpu)
{
    memset(cpu, 0, sizeof *cpu);
    cpu->family = cpu->model_number = -1;
    detect_topology(cpu);
    /* With a recorded topology, the features of this processor would not be the recorded one's. */
    if (!getenv("HWLOC_XMLFILE") && !getenv("FWADVISOR_SYSROOT")) {
        detect_x86(cpu);
        detect_arm(cpu);
    }
    if (cpu->family >= 0)
        cpu->flops_per_cycle = probe_flops_per_cycle(cpu->vendor, cpu->family, cpu->model_number,
                                                     has_feature(cpu, "avx512f"), has_feature(cpu, "fma"), cpu->microarch,
                                                     sizeof cpu->microarch);
    if (!cpu->microarch[0]) snprintf(cpu->microarch, sizeof cpu->microarch, "unknown");
    detect_clock(cpu);
    probe_cpu_peaks(cpu);
}

void probe_cpu_peaks(struct probe_cpu *cpu)
{
    char how[128] = "";
    const char *features[16];
    for (int i = 0; i < cpu->nsimd; i++) features[i] = cpu->simd[i];
    cpu->peak_estimated = 0;
    if (cpu->flops_per_cycle == 0) { /* not in the table: from the vector units it reports */
        cpu->flops_per_cycle = probe_estimate_flops_per_cycle(features, cpu->nsimd, how, sizeof how);
        cpu->peak_estimated = cpu->flops_per_cycle > 0;
    }
    if (cpu->flops_per_cycle > 0 && cpu->max_mhz > 0 && cpu->cores > 0) {
        cpu->peak_gflops = (double)cpu->cores * cpu->max_mhz * cpu->flops_per_cycle / 1e3;
        snprintf(cpu->peak_note, sizeof cpu->peak_note, "%s%d cores x %.0f MHz (%.40s) x %d FP32 FLOP/cycle (%.80s)",
                 cpu->peak_estimated ? "estimated: " : "", cpu->cores, cpu->max_mhz, cpu->mhz_source, cpu->flops_per_cycle,
                 cpu->peak_estimated ? how : cpu->microarch);
    } else {
        cpu->peak_gflops = 0;
        snprintf(cpu->peak_note, sizeof cpu->peak_note, "unknown: %s",
                 cpu->flops_per_cycle == 0 ? "no SIMD features known" : "clock unknown");
    }
    /* AMX's tile unit: 1024 BF16 FLOP per cycle per core (16 x 16 x 32 multiply-adds in 16
     * cycles; Intel's optimization reference manual, chapter on AMX). */
    cpu->peak_gflops_bf16 = has_feature(cpu, "amx_bf16") && cpu->max_mhz > 0 && cpu->cores > 0
                                ? (double)cpu->cores * cpu->max_mhz * 1024 / 1e3
                                : 0;
}
