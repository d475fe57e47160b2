/* Accelerator detection, one quick_vendors row a vendor with its quick and full detection:
 * NVIDIA through NVML and the CUDA driver loaded with dlopen (the binary needs neither), AMD
 * through the kernel's kfd topology and drm, TPUs and Ascend NPUs through their device nodes and
 * environment, AWS Neuron devices and Intel Gaudi through their drivers' sysfs trees and device
 * nodes, Apple through sysctl. */
#include "probes/probe.h"
#include "probes/quick.h"
#include "engine/libpath.h"
#include "probes/sysfs.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#if defined(__APPLE__)
#include <sys/sysctl.h>
#endif

void probe_detect_cpu(struct probe_cpu *cpu);

/* --- NVIDIA ---------------------------------------------------------------------------------- */

typedef int (*nvml_void_fn)(void);
typedef int (*nvml_count_fn)(unsigned *);
typedef int (*nvml_handle_fn)(unsigned, void **);
typedef int (*nvml_name_fn)(void *, char *, unsigned);
typedef int (*nvml_mem_fn)(void *, unsigned long long[3]);
typedef int (*nvml_cc_fn)(void *, int *, int *);
typedef int (*nvml_clock_fn)(void *, int, unsigned *);
typedef int (*nvml_driver_fn)(char *, unsigned);
typedef int (*cu_init_fn)(unsigned);
typedef int (*cu_count_fn)(int *);
typedef int (*cu_get_fn)(int *, int);
typedef int (*cu_attr_fn)(int *, int, int);

/* The library $env names, where a plug-in could be loaded from (engine/libpath.h), else `name`
 * through the loader's own search; NULL when it will not open or is refused (the session warns
 * of a refused one before detection runs). */
static void *open_lib(const char *env, const char *name)
{
    char path[PATH_MAX], why[PATH_MAX + 256];
    if (eng_env_library(env, name, path, sizeof path, why, sizeof why) != 0) return NULL;
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

/* Adds NVIDIA GPUs found through NVML; returns how many, or -1 when NVML is not there. */
static int detect_nvml(struct probe_hw *hw)
{
    void *lib = open_lib("FWADVISOR_NVML_LIB", "libnvidia-ml.so.1");
    if (!lib) return -1;
    nvml_void_fn init = (nvml_void_fn)dlsym(lib, "nvmlInit_v2");
    nvml_void_fn shutdown = (nvml_void_fn)dlsym(lib, "nvmlShutdown");
    nvml_count_fn count = (nvml_count_fn)dlsym(lib, "nvmlDeviceGetCount_v2");
    nvml_handle_fn handle = (nvml_handle_fn)dlsym(lib, "nvmlDeviceGetHandleByIndex_v2");
    nvml_name_fn name = (nvml_name_fn)dlsym(lib, "nvmlDeviceGetName");
    nvml_mem_fn mem = (nvml_mem_fn)dlsym(lib, "nvmlDeviceGetMemoryInfo");
    nvml_cc_fn cc = (nvml_cc_fn)dlsym(lib, "nvmlDeviceGetCudaComputeCapability");
    nvml_clock_fn clock = (nvml_clock_fn)dlsym(lib, "nvmlDeviceGetMaxClockInfo");
    nvml_driver_fn driver = (nvml_driver_fn)dlsym(lib, "nvmlSystemGetDriverVersion");
    unsigned n = 0;
    if (!init || !count || !handle || !name || init() != 0) {
        dlclose(lib);
        return -1;
    }
    if (count(&n) != 0) n = 0;
    char drv[64] = "";
    if (driver) driver(drv, sizeof drv);
    /* SM counts come from the CUDA driver API. */
    void *cuda = open_lib("FWADVISOR_CUDA_LIB", "libcuda.so.1");
    cu_init_fn cu_init = cuda ? (cu_init_fn)dlsym(cuda, "cuInit") : NULL;
    cu_get_fn cu_get = cuda ? (cu_get_fn)dlsym(cuda, "cuDeviceGet") : NULL;
    cu_attr_fn cu_attr = cuda ? (cu_attr_fn)dlsym(cuda, "cuDeviceGetAttribute") : NULL;
    int cuda_ok = cu_init && cu_get && cu_attr && cu_init(0) == 0;
    int found = 0;
    for (unsigned i = 0; i < n; i++) {
        void *h;
        char dev_name[96] = "";
        if (handle(i, &h) != 0 || name(h, dev_name, sizeof dev_name) != 0) continue;
        unsigned long long m[3] = {0, 0, 0};
        int major = 0, minor = 0;
        unsigned sm_clock = 0;
        if (mem) mem(h, m);
        if (cc) cc(h, &major, &minor);
        if (clock) clock(h, 1 /* NVML_CLOCK_SM */, &sm_clock);
        int sms = 0, dev;
        if (cuda_ok && cu_get(&dev, (int)i) == 0) cu_attr(&sms, 16 /* MULTIPROCESSOR_COUNT */, dev);
        /* Identical GPUs make one entry with a count. */
        struct probe_accel *a = NULL;
        for (int k = 0; k < hw->naccel; k++)
            if (!strcmp(hw->accel[k].kind, "nvidia") && !strcmp(hw->accel[k].name, dev_name)) a = &hw->accel[k];
        if (a) {
            a->count++;
        } else if (hw->naccel < PROBE_MAX_ACCEL) {
            a = &hw->accel[hw->naccel++];
            memset(a, 0, sizeof *a);
            snprintf(a->kind, sizeof a->kind, "nvidia");
            snprintf(a->name, sizeof a->name, "%s", dev_name);
            a->count = 1;
            a->memory_bytes = m[0];
            snprintf(a->compute_capability, sizeof a->compute_capability, "%d.%d", major, minor);
            snprintf(a->driver, sizeof a->driver, "%s", drv);
            a->sm_count = sms;
            a->max_clock_mhz = (int)sm_clock;
            snprintf(a->note, sizeof a->note, "NVML%s", cuda_ok ? " and the CUDA driver" : "; SM count unknown (no libcuda)");
        }
        found++;
    }
    if (shutdown) shutdown();
    if (cuda) dlclose(cuda);
    dlclose(lib);
    return found;
}

static void detect_nvidia(struct probe_hw *hw)
{
    if (detect_nvml(hw) > 0) return;
    /* Without NVML: the kernel driver's own list, else the device nodes. */
    char first[256];
    int gpus = sysfs_count("/proc/driver/nvidia/gpus", "", 0, first, sizeof first);
    int nodes = sysfs_count("/dev", "nvidia", 1, NULL, 0);
    if ((gpus == 0 && nodes == 0) || hw->naccel >= PROBE_MAX_ACCEL) return;
    struct probe_accel *a = &hw->accel[hw->naccel++];
    memset(a, 0, sizeof *a);
    snprintf(a->kind, sizeof a->kind, "nvidia");
    snprintf(a->name, sizeof a->name, "NVIDIA GPU");
    if (gpus > 0) {
        char info[320];
        snprintf(info, sizeof info, "/proc/driver/nvidia/gpus/%s/information", first);
        sysfs_field(info, "Model", a->name, sizeof a->name);
    }
    a->count = gpus > 0 ? gpus : nodes;
    snprintf(a->note, sizeof a->note, "%s; libnvidia-ml.so.1 is not loadable, so memory and compute capability are unknown",
             gpus > 0 ? "/proc/driver/nvidia/gpus" : "device nodes only");
}

/* The driver lists each GPU under /proc/driver/nvidia/gpus; device nodes otherwise. */
static int quick_nvidia(struct quick_hw *out)
{
    char first[256];
    int n;
    if ((n = sysfs_count("/proc/driver/nvidia/gpus", "", 0, first, sizeof first)) > 0) {
        char info[512];
        snprintf(info, sizeof info, "/proc/driver/nvidia/gpus/%s/information", first);
        sysfs_field(info, "Model", out->name, sizeof out->name);
        out->count = n;
        snprintf(out->evidence, sizeof out->evidence, "/proc/driver/nvidia/gpus (%d)", n);
        return 1;
    }
    if ((n = sysfs_count("/dev", "nvidia", 1, NULL, 0)) > 0) {
        out->count = n;
        snprintf(out->evidence, sizeof out->evidence, "/dev/nvidia* (%d)", n);
        return 1;
    }
    return 0;
}

/* --- AMD ------------------------------------------------------------------------------------- */

static const char *amd_product(long long gfx)
{
    switch (gfx) {
    case 90402: return "AMD Instinct MI300X/MI300A (gfx942)";
    case 90010: return "AMD Instinct MI200 series (gfx90a)";
    case 90008: return "AMD Instinct MI100 (gfx908)";
    case 90006: return "AMD Instinct MI50/MI60 (gfx906)";
    case 110000: return "AMD Radeon RX 7900 (gfx1100)";
    default: return NULL;
    }
}

static void detect_amd(struct probe_hw *hw)
{
    if (!sysfs_exists("/dev/kfd") || hw->naccel >= PROBE_MAX_ACCEL) return;
    int gpus = 0;
    long long gfx = 0;
    int nodes = sysfs_count("/sys/class/kfd/kfd/topology/nodes", "", 0, NULL, 0);
    for (int i = 0; i < nodes && i < 256; i++) {
        char props[128];
        long long simd = 0, v = 0;
        snprintf(props, sizeof props, "/sys/class/kfd/kfd/topology/nodes/%d/properties", i);
        if (!sysfs_keyval(props, "simd_count", &simd) || simd <= 0) continue;
        gpus++;
        if (!gfx && sysfs_keyval(props, "gfx_target_version", &v)) gfx = v;
    }
    /* VRAM of the first AMD card (vendor 0x1002) under drm. */
    uint64_t vram = 0;
    for (int c = 0; c < 64 && !vram; c++) {
        char path[128], line[64];
        snprintf(path, sizeof path, "/sys/class/drm/card%d/device/vendor", c);
        if (!sysfs_line(path, line, sizeof line) || strcmp(line, "0x1002") != 0) continue;
        snprintf(path, sizeof path, "/sys/class/drm/card%d/device/mem_info_vram_total", c);
        if (sysfs_line(path, line, sizeof line)) vram = strtoull(line, NULL, 10);
    }
    struct probe_accel *a = &hw->accel[hw->naccel++];
    memset(a, 0, sizeof *a);
    snprintf(a->kind, sizeof a->kind, "amd");
    const char *product = amd_product(gfx);
    if (product) snprintf(a->name, sizeof a->name, "%s", product);
    else if (gfx) snprintf(a->name, sizeof a->name, "AMD GPU (gfx target %lld)", gfx);
    else snprintf(a->name, sizeof a->name, "AMD GPU");
    a->count = gpus > 0 ? gpus : 1;
    a->memory_bytes = vram;
    snprintf(a->note, sizeof a->note, "kfd topology (%d GPU node%s)%s", gpus, gpus == 1 ? "" : "s",
             vram ? ", drm mem_info_vram_total" : "");
}

/* The kernel fusion driver's topology has one node per CPU and GPU; GPUs have SIMDs. */
static int quick_amd(struct quick_hw *out)
{
    if (!sysfs_exists("/dev/kfd")) return 0;
    int gpus = 0;
    int nodes = sysfs_count("/sys/class/kfd/kfd/topology/nodes", "", 0, NULL, 0);
    for (int i = 0; i < nodes && i < 256; i++) {
        char props[160];
        long long simd = 0;
        snprintf(props, sizeof props, "/sys/class/kfd/kfd/topology/nodes/%d/properties", i);
        if (sysfs_keyval(props, "simd_count", &simd) && simd > 0) gpus++;
    }
    out->count = gpus > 0 ? gpus : 1;
    snprintf(out->evidence, sizeof out->evidence, "/dev/kfd (%d GPU nodes)", gpus);
    return 1;
}

/* --- TPU, Ascend, Apple ---------------------------------------------------------------------- */

static void detect_tpu(struct probe_hw *hw)
{
    const char *type = getenv("TPU_ACCELERATOR_TYPE");
    int n = sysfs_count("/dev", "accel", 1, NULL, 0);
    if ((n == 0 && !(type && *type)) || hw->naccel >= PROBE_MAX_ACCEL) return;
    struct probe_accel *a = &hw->accel[hw->naccel++];
    memset(a, 0, sizeof *a);
    snprintf(a->kind, sizeof a->kind, "tpu");
    snprintf(a->name, sizeof a->name, "TPU %s", type && *type ? type : "(type unknown: TPU_ACCELERATOR_TYPE unset)");
    a->count = n > 0 ? n : 1;
    const char *worker = getenv("TPU_WORKER_ID");
    snprintf(a->note, sizeof a->note, "/dev/accel* (%d)%s%s", n, worker ? ", worker " : "", worker ? worker : "");
}

/* TPU VMs expose /dev/accel* (or vfio) and name the slice in TPU_ACCELERATOR_TYPE. */
static int quick_tpu(struct quick_hw *out)
{
    const char *tpu_type = getenv("TPU_ACCELERATOR_TYPE");
    int n = sysfs_count("/dev", "accel", 1, NULL, 0);
    if (n == 0 && !(tpu_type && *tpu_type)) return 0;
    out->count = n > 0 ? n : 1;
    if (tpu_type) snprintf(out->name, sizeof out->name, "%s", tpu_type);
    snprintf(out->evidence, sizeof out->evidence, "/dev/accel* (%d)%s", n, tpu_type ? ", TPU_ACCELERATOR_TYPE" : "");
    return 1;
}

static void detect_ascend(struct probe_hw *hw)
{
    int n = sysfs_count("/dev", "davinci", 1, NULL, 0);
    if (n == 0 || hw->naccel >= PROBE_MAX_ACCEL) return;
    struct probe_accel *a = &hw->accel[hw->naccel++];
    memset(a, 0, sizeof *a);
    snprintf(a->kind, sizeof a->kind, "ascend");
    snprintf(a->name, sizeof a->name, "Huawei Ascend NPU");
    a->count = n;
    char version[64];
    if (sysfs_field("/usr/local/Ascend/driver/version.info", "Version", version, sizeof version) ||
        sysfs_field("/usr/local/Ascend/driver/version.info", "version", version, sizeof version))
        snprintf(a->driver, sizeof a->driver, "%s", version);
    snprintf(a->note, sizeof a->note, "/dev/davinci* (%d)", n);
}

static int quick_ascend(struct quick_hw *out)
{
    int n = sysfs_count("/dev", "davinci", 1, NULL, 0);
    if (n == 0) return 0;
    out->count = n;
    snprintf(out->evidence, sizeof out->evidence, "/dev/davinci* (%d)", n);
    return 1;
}

/* --- AWS Trainium and Inferentia (Neuron), Intel Gaudi --------------------------------------- */

/* What one scan of a vendor's device files found, shared by its quick and full detection. */
struct dev_scan {
    int count;
    char name[128];     /* the device as the driver's files name it, "" when they do not */
    char evidence[160]; /* the files counted */
    char note[160];     /* the evidence and what else the files say */
};

/* The quick look's answer from a scan: 1 when it found devices. */
static int quick_from_scan(const struct dev_scan *s, struct quick_hw *out)
{
    if (s->count <= 0) return 0;
    out->count = s->count;
    snprintf(out->name, sizeof out->name, "%s", s->name);
    snprintf(out->evidence, sizeof out->evidence, "%s", s->evidence);
    return 1;
}

/* The full detection's entry from a scan, `bare` naming a device whose files give no name. */
static void full_from_scan(const struct dev_scan *s, const char *kind, const char *bare, struct probe_hw *hw)
{
    if (s->count <= 0 || hw->naccel >= PROBE_MAX_ACCEL) return;
    struct probe_accel *a = &hw->accel[hw->naccel++];
    memset(a, 0, sizeof *a);
    snprintf(a->kind, sizeof a->kind, "%s", kind);
    snprintf(a->name, sizeof a->name, "%s", s->name[0] ? s->name : bare);
    a->count = s->count;
    snprintf(a->note, sizeof a->note, "%s", s->note);
}

/* The Neuron driver makes one sysfs directory per device under
 * /sys/devices/virtual/neuron_device (neuron0, neuron1, ...), with core_count and
 * info/architecture/device_name (the Neuron sysfs user guide), and the device nodes /dev/neuron0..;
 * the sysfs tree is counted first, the device nodes when it is missing. */
static void scan_neuron(struct dev_scan *s)
{
    static const char *const dir = "/sys/devices/virtual/neuron_device";
    char first[64], path[256], line[96] = "";
    memset(s, 0, sizeof *s);
    if ((s->count = sysfs_count(dir, "neuron", 1, first, sizeof first)) > 0) {
        snprintf(path, sizeof path, "%s/%s/info/architecture/device_name", dir, first);
        if (!sysfs_line(path, line, sizeof line)) {
            snprintf(path, sizeof path, "%s/%s/info/architecture/device_type", dir, first);
            sysfs_line(path, line, sizeof line);
        }
        if (line[0]) snprintf(s->name, sizeof s->name, "AWS %s", line);
        snprintf(s->evidence, sizeof s->evidence, "%s (%d)", dir, s->count);
        snprintf(path, sizeof path, "%s/%s/core_count", dir, first);
        int cores = sysfs_line(path, line, sizeof line) ? atoi(line) : 0;
        if (cores > 0) snprintf(s->note, sizeof s->note, "%.120s, %d NeuronCores each", s->evidence, cores);
        else snprintf(s->note, sizeof s->note, "%s", s->evidence);
    } else if ((s->count = sysfs_count("/dev", "neuron", 1, NULL, 0)) > 0) {
        snprintf(s->evidence, sizeof s->evidence, "/dev/neuron* (%d)", s->count);
        snprintf(s->note, sizeof s->note, "%s", s->evidence);
    }
}

static void detect_trainium(struct probe_hw *hw)
{
    struct dev_scan s;
    scan_neuron(&s);
    full_from_scan(&s, "trainium", "AWS Neuron device", hw);
}

static int quick_trainium(struct quick_hw *out)
{
    struct dev_scan s;
    scan_neuron(&s);
    return quick_from_scan(&s, out);
}

/* The habanalabs driver registers its devices with the kernel's accel subsystem (/dev/accel/accelN,
 * /sys/class/accel/accelN), whose sysfs attributes sit under device/: the PCI vendor 0x1da3
 * (PCI_VENDOR_ID_HABANALABS) tells them from other accel devices, device_type names the ASIC
 * (GAUDI2, ...). Kernels before the accel subsystem had /sys/class/habanalabs/hlN and /dev/hlN. */
static void scan_gaudi(struct dev_scan *s)
{
    char path[128], line[64], type[64] = "";
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 64; i++) {
        snprintf(path, sizeof path, "/sys/class/accel/accel%d/device/vendor", i);
        if (!sysfs_line(path, line, sizeof line) || strcmp(line, "0x1da3") != 0) continue;
        if (s->count++ == 0) {
            snprintf(path, sizeof path, "/sys/class/accel/accel%d/device/device_type", i);
            sysfs_line(path, type, sizeof type);
        }
    }
    char first[64];
    if (s->count > 0) {
        snprintf(s->evidence, sizeof s->evidence, "/sys/class/accel, habanalabs vendor 0x1da3 (%d)", s->count);
    } else if ((s->count = sysfs_count("/sys/class/habanalabs", "hl", 1, first, sizeof first)) > 0) {
        snprintf(path, sizeof path, "/sys/class/habanalabs/%s/device_type", first);
        sysfs_line(path, type, sizeof type);
        snprintf(s->evidence, sizeof s->evidence, "/sys/class/habanalabs (%d)", s->count);
    } else if ((s->count = sysfs_count("/dev", "hl", 1, NULL, 0)) > 0) {
        snprintf(s->evidence, sizeof s->evidence, "/dev/hl* (%d)", s->count);
    }
    if (type[0]) snprintf(s->name, sizeof s->name, "Intel Gaudi (%s)", type);
    snprintf(s->note, sizeof s->note, "%s", s->evidence);
}

static void detect_gaudi(struct probe_hw *hw)
{
    struct dev_scan s;
    scan_gaudi(&s);
    full_from_scan(&s, "gaudi", "Intel Gaudi", hw);
}

static int quick_gaudi(struct quick_hw *out)
{
    struct dev_scan s;
    scan_gaudi(&s);
    return quick_from_scan(&s, out);
}

static const char *sysctl_value(const char *text, const char *key, char *out, size_t n)
{
    size_t klen = strlen(key);
    for (const char *p = text; p && *p;) {
        if (strncmp(p, key, klen) == 0 && (p[klen] == ':' || p[klen] == '=')) {
            const char *v = p + klen + 1;
            while (*v == ' ') v++;
            size_t len = strcspn(v, "\n");
            snprintf(out, n, "%.*s", (int)len, v);
            return out;
        }
        p = strchr(p, '\n');
        if (p) p++;
    }
    return NULL;
}

int probe_parse_apple_sysctl(const char *text, struct probe_accel *out, struct probe_cpu *cpu)
{
    char v[128];
    if (!sysctl_value(text, "hw.optional.arm64", v, sizeof v) || atoi(v) != 1) return 0;
    memset(out, 0, sizeof *out);
    snprintf(out->kind, sizeof out->kind, "apple");
    if (sysctl_value(text, "machdep.cpu.brand_string", v, sizeof v)) {
        snprintf(out->name, sizeof out->name, "%.100s GPU", v);
        if (cpu) snprintf(cpu->model, sizeof cpu->model, "%s", v);
    } else {
        snprintf(out->name, sizeof out->name, "Apple Silicon GPU");
    }
    out->count = 1;
    if (sysctl_value(text, "hw.memsize", v, sizeof v)) out->memory_bytes = strtoull(v, NULL, 10);
    if (cpu && sysctl_value(text, "hw.perflevel0.physicalcpu", v, sizeof v)) cpu->cores = atoi(v);
    snprintf(out->note, sizeof out->note, "unified memory shared with the CPU%s",
             sysctl_value(text, "sysctl.proc_translated", v, sizeof v) && atoi(v) == 1 ? "; running under Rosetta" : "");
    return 1;
}

static void detect_apple(struct probe_hw *hw)
{
#if defined(__APPLE__)
    char text[1024] = "", buf[256];
    size_t len;
    int v;
    const char *keys[] = {"hw.optional.arm64", "sysctl.proc_translated", "hw.perflevel0.physicalcpu"};
    for (size_t i = 0; i < 3; i++) {
        len = sizeof v;
        if (sysctlbyname(keys[i], &v, &len, NULL, 0) == 0)
            snprintf(text + strlen(text), sizeof text - strlen(text), "%s: %d\n", keys[i], v);
    }
    len = sizeof buf;
    if (sysctlbyname("machdep.cpu.brand_string", buf, &len, NULL, 0) == 0)
        snprintf(text + strlen(text), sizeof text - strlen(text), "machdep.cpu.brand_string: %s\n", buf);
    uint64_t mem;
    len = sizeof mem;
    if (sysctlbyname("hw.memsize", &mem, &len, NULL, 0) == 0)
        snprintf(text + strlen(text), sizeof text - strlen(text), "hw.memsize: %llu\n", (unsigned long long)mem);
    if (hw->naccel < PROBE_MAX_ACCEL && probe_parse_apple_sysctl(text, &hw->accel[hw->naccel], &hw->cpu)) hw->naccel++;
#else
    (void)hw;
#endif
}

/* An Apple Silicon build runs on Apple Silicon. */
static int quick_apple(struct quick_hw *out)
{
#if defined(__APPLE__) && defined(__aarch64__)
    out->count = 1;
    snprintf(out->evidence, sizeof out->evidence, "Apple Silicon build");
    return 1;
#else
    (void)out;
    return 0;
#endif
}

/* --- the vendors ----------------------------------------------------------------------------- */

const struct quick_vendor quick_vendors[] = {
    {"nvidia", quick_nvidia, detect_nvidia},
    {"amd", quick_amd, detect_amd},
    {"tpu", quick_tpu, detect_tpu},
    {"ascend", quick_ascend, detect_ascend},
    {"trainium", quick_trainium, detect_trainium},
    {"gaudi", quick_gaudi, detect_gaudi},
    {"apple", quick_apple, detect_apple},
};
const int quick_nvendors = (int)(sizeof quick_vendors / sizeof quick_vendors[0]);

void probe_detect(struct probe_hw *hw)
{
    memset(hw, 0, sizeof *hw);
    struct utsname u;
    if (uname(&u) == 0) {
        snprintf(hw->kernel, sizeof hw->kernel, "%.63s", u.release);
        snprintf(hw->arch, sizeof hw->arch, "%.15s", u.machine);
    }
#if defined(__APPLE__)
    snprintf(hw->os, sizeof hw->os, "macos");
#elif defined(_WIN32)
    snprintf(hw->os, sizeof hw->os, "windows");
#else
    snprintf(hw->os, sizeof hw->os, "linux");
#endif
    probe_detect_cpu(&hw->cpu);
    snprintf(hw->cpu.arch, sizeof hw->cpu.arch, "%s", hw->arch);
    for (int v = 0; v < quick_nvendors; v++) quick_vendors[v].full(hw);
}
