/* The wizard: one question per screen for the answers that matter, each choice explained from
 * the seed articles, with a side panel that reranks the frameworks as the selection moves. */
#include "common/units.h"
#include "tui/app.h"
#include "tui/crt.h"
#include "tui/layout.h"
#include "common/text.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define O(label, value, help) {label, value, help}
/* The options and their count, counted by the compiler rather than by hand. */
#define OPTS(...) (int)(sizeof((struct wiz_option[]){__VA_ARGS__}) / sizeof(struct wiz_option)), {__VA_ARGS__}

const struct wiz_question wiz_questions[] = {
    {"stage", "Project stage", 0, 0, NULL, NULL, 1, OPTS(
        O("Learning", "learning", "First models: an easy start and many tutorials (seed 002 Q1: PyTorch + torchvision, or Keras)."),
        O("Research", "research", "New ideas and papers: debugging and published code matter most (seed 002: research -> PyTorch)."),
        O("Prototype", "prototype", "A product whose architecture is not settled: iterate fast (seed 003: startups start with PyTorch)."),
        O("Production", "production", "Shipping and keeping a model: deployment, maturity and maintenance weigh more (seeds 000, 003)."),
    )},
    {"hardware", "Hardware you train on", 0, 0, NULL, NULL, 0, OPTS(
        O("Detected (auto)", "auto", "What fwadvisor found on this machine: the latest probe run, else the device nodes."),
        O("NVIDIA GPUs", "nvidia", "All three major frameworks support NVIDIA well; match CUDA and cuDNN versions (seed 001)."),
        O("AMD GPUs", "amd", "PyTorch has official ROCm builds; TensorFlow and JAX carry more set-up risk (seed 001)."),
        O("Google TPUs", "tpu", "JAX is TPU-native, TensorFlow supported; PyTorch/XLA is in flux (seeds 000, 001)."),
        O("Apple Silicon", "apple", "PyTorch MPS and MLX; jax-metal is dead and tensorflow-metal broken since TF 2.18."),
        O("Intel GPUs", "intel", "Stock PyTorch XPU (IPEX ended after 2.8); others experimental."),
        O("Huawei Ascend", "ascend", "MindSpore is first-class; PyTorch through torch_npu; PaddlePaddle via plug-ins."),
        O("CPU only", "cpu", "Every framework runs; training speed is what a probe measures on this machine."),
    )},
    {"accelerator", "Device model (memory)", 0, 0, NULL, NULL, 0, OPTS(
        O("Detected, or the usual one (assumed)", NULL,
          "The detected device, else the vendor's usual one; the plan says which it assumed on its first line."),
    )},
    {"os", "Operating system", 0, 0, NULL, NULL, 0, OPTS(
        O("Linux", "linux", "Every framework's first platform."),
        O("Windows", "windows", "TensorFlow lost native GPU support after 2.10 (use WSL2); JAX GPU needs WSL2."),
        O("macOS", "macos", "Apple GPUs through PyTorch MPS or MLX; no CUDA."),
    )},
    {"devices", "Accelerators in total", 0, 1, NULL, NULL, 0, OPTS(
        O("1", "1", "One device: no distributed stack needed (seed 002: PyTorch AMP on one GPU)."),
        O("2", "2", "Data parallel across two devices."), O("4", "4", "4-16 devices: DDP is the robust choice (seed 002)."),
        O("8", "8", "One 8-GPU node: seed 001's scaling anecdote (DDP ~95%, MirroredStrategy ~92%, pmap ~98%)."),
        O("16", "16", "4-16 devices: DDP, FSDP when the model does not fit (seed 002)."),
        O("32", "32", "A few nodes: sharded data parallel when the model is large."),
        O("64", "64", "Several nodes: sharded data parallel (ZeRO, FSDP) when the model is large."),
        O("128", "128", "Hundreds of devices: 3D parallelism for large models (seed 002)."),
        O("256", "256", "A TPU pod slice or a GPU cluster."), O("512", "512", "A large cluster."),
        O("1,024", "1024", "Thousand-card scale: communication may take 30% of the time (seed 003)."),
        O("2,048", "2048", "Seed 002 Q2: 2000 cards -> PyTorch + FSDP/DeepSpeed, or TPU pods."),
        O("4,096", "4096", "Frontier-scale training."),
    )},
    {"nodes", "Machines (nodes)", 0, 1, NULL, NULL, 0, OPTS(
        O("1", "1", "One machine."), O("2", "2", "Two machines: the network joins the picture."),
        O("4", "4", "Four machines."), O("8", "8", "Eight machines."), O("16", "16", "Sixteen machines."),
        O("32", "32", "A cluster."), O("64", "64", "A cluster."), O("128", "128", "A large cluster."),
        O("256", "256", "A large cluster."), O("512", "512", "A very large cluster."),
    )},
    {"model_kind", "Kind of model", 0, 0, NULL, NULL, 7, OPTS(
        O("Vision", "vision", "Image models: torchvision, timm, Keras applications (seed 002 Q1)."),
        O("NLP", "nlp", "Text models below LLM scale."),
        O("LLM", "llm", "Large language models: memory plans include activations (Korthikanti et al.)."),
        O("Recommender", "recsys", "Embedding-heavy models (seed 001's custom-gradient anecdote)."),
        O("Reinforcement learning", "rl", "JAX's functional style suits RL research (seed 002)."),
        O("Diffusion", "diffusion", "Image generation models."), O("Tabular", "tabular", "Tabular data."),
        O("Other", "other", "Anything else."),
    )},
    {"model_params", "Model size (parameters)", 0, 1, NULL, NULL, 2, OPTS(
        O("100 thousand", "1e5", "A toy model."), O("1 million", "1e6", "Tiny: a CPU trains it."),
        O("10 million", "1e7", "Small: one GPU easily."), O("100 million", "1e8", "BERT-base scale."),
        O("1 billion", "1e9", "16 GB of Adam model states alone (ZeRO paper)."),
        O("7 billion", "7e9", "112 GB of model states: sharding or offload on 80 GB GPUs."),
        O("13 billion", "1.3e10", "Seed 001: 13B on 8 V100s with DeepSpeed ZeRO."),
        O("30 billion", "3e10", "480 GB of model states: sharded across nodes, or LoRA on a few GPUs."),
        O("70 billion", "7e10", "Chinchilla-size: multi-node sharded training."),
        O("175 billion", "1.75e11", "GPT-3 scale: 3D parallelism (Megatron, DeepSpeed)."),
        O("405 billion", "4.05e11", "Llama 3.1 405B: 16,384 H100s with 4D parallelism."),
        O("1 trillion", "1e12", "Seed 002 Q3: GPT-4 class: JAX or PyTorch at scale."),
    )},
    {"team", "What the team knows (Space to tick several)", 1, 0, NULL, NULL, -1, OPTS(
        O("PyTorch", "pytorch", "Seed 000: choose what the team knows; existing skill avoids retraining."),
        O("TensorFlow", "tensorflow", "A TensorFlow code base in production is a reason to stay (seed 003)."),
        O("JAX", "jax", "A team fluent in JAX has already paid its learning curve (seed 001)."),
        O("Keras", "keras", "Keras 3 runs on JAX, TensorFlow or PyTorch."),
        O("None yet", "none", "New to frameworks: Keras and fastai give a gentle start (seed 002)."),
    )},
    {"functional", "At home in functional programming?", 0, 0, NULL, NULL, 1, OPTS(
        O("Yes", "true", "Seed 002's tree: a functional team -> JAX (pure functions, grad/jit/vmap)."),
        O("No", "false", "Then JAX's functional style is its steepest cost (seed 001: 3 months of PyTorch first)."),
    )},
    {"higher_order_grad", "Gradients of gradients (meta-learning)?", 0, 0, NULL, NULL, 1, OPTS(
        O("Yes", "true", "Seed 002: JAX composes grad freely, which meta-learning needs."),
        O("No", "false", "Ordinary first-order training."),
    )},
    {"deploy", "Where the model runs", 0, 0, NULL, NULL, 0, OPTS(
        O("Nowhere yet", "none", "No deployment target."),
        O("Servers", "server", "LLMs: vLLM, SGLang, TensorRT-LLM; other models: Triton, ONNX Runtime, OpenVINO."),
        O("Mobile apps", "mobile", "Seed 002's tree: mobile -> TensorFlow Lite (now LiteRT); ExecuTorch for PyTorch."),
        O("Edge devices", "edge", "Seed 002 Q4: a Raspberry Pi -> TF Lite or ONNX Runtime; Jetson -> TensorRT."),
        O("Browsers", "browser", "TF.js (deprioritized) or ONNX Runtime Web."),
    )},
    {"deploy_hardware", "Hardware the model is served on", 0, 0, "deploy", "none", 0, OPTS(
        O("Same as training / device CPU (auto)", "auto", "Servers: the training hardware; edge and phones: their CPU."),
        O("CPU", "cpu", "x86 or Arm CPUs: ONNX Runtime, LiteRT, ExecuTorch (XNNPACK)."),
        O("NVIDIA GPU or Jetson", "nvidia", "Servers: vLLM, TensorRT-LLM, Triton; Jetson boards: TensorRT."),
        O("AMD GPU", "amd", "vLLM and SGLang on ROCm; ONNX Runtime with MIGraphX (no Triton on AMD)."),
        O("Apple device", "apple", "iPhone, iPad, Mac: Core ML, or ExecuTorch's Core ML back-end."),
        O("Qualcomm NPU", "qualcomm", "Snapdragon phones and boards: ExecuTorch QNN, LiteRT and ONNX Runtime QNN."),
        O("Intel CPU, GPU or NPU", "intel", "OpenVINO is Intel's tuned path."),
        O("Google TPU", "tpu", "LLMs: JetStream or vLLM on TPU."),
        O("Huawei Ascend", "ascend", "MindIE, vLLM (vllm-ascend) or MindSpore Lite."),
    )},
    {"priority", "What matters most", 0, 0, NULL, NULL, 0, OPTS(
        O("Iteration speed", "iteration", "Debugging and ecosystem weigh more (seed 003: PyTorch for fast iteration)."),
        O("Compute cost", "cost", "Training and memory efficiency weigh more (seed 003: JAX may save 20% compute, needs 30% more talent budget)."),
        O("Stability", "stability", "Maturity and maintenance weigh more; native strategies (seed 003: TensorFlow in established production)."),
    )},
    {"price_per_device_hour", "Price per device-hour (optional)", 0, 1, NULL, NULL, 0, OPTS(
        O("No price", NULL, "The plan shows hours only."), O("0.50", "0.5", "Per device and hour, any currency."),
        O("1.00", "1", "Per device and hour."), O("2.00", "2", "Per device and hour."),
        O("2.50", "2.5", "Per device and hour."), O("4.00", "4", "Per device and hour."), O("8.00", "8", "Per device and hour."),
    )},
};
const int wiz_question_count = (int)(sizeof wiz_questions / sizeof wiz_questions[0]);

static int question(const char *key)
{
    for (int q = 0; q < wiz_question_count; q++)
        if (strcmp(wiz_questions[q].key, key) == 0) return q;
    return -1;
}

/* The hardware the accelerator list follows: the hardware question's choice (tentative_sel when
 * that question is being previewed); NULL for auto, which lists every vendor's devices. */
static const char *chosen_hardware(const struct app *a, int tentative_q, int tentative_sel)
{
    int q = question("hardware");
    int sel = q == tentative_q ? tentative_sel : a->sel[q];
    const char *v = sel < wiz_questions[q].nopts ? wiz_questions[q].opts[sel].value : a->custom[q];
    return v && strcmp(v, "auto") == 0 ? NULL : v;
}

/* The device-model question lists the catalog's devices after its own option. */
static int is_catalog(int q) { return strcmp(wiz_questions[q].key, "accelerator") == 0; }

/* The order devices are listed in: by vendor as the hardware question lists them, then the
 * catalog's order. Returns the catalog entry of the k-th device of that hardware (NULL: all),
 * or -1. */
static int catalog_device(const struct app *a, const char *hardware, int k)
{
    const struct wiz_question *hq = &wiz_questions[question("hardware")];
    const char *vendor;
    for (int v = 1; v < hq->nopts; v++) {
        if (hardware && strcmp(hardware, hq->opts[v].value) != 0) continue;
        for (int i = 0; adv_kb_accelerator(a->akb, i, NULL, &vendor, NULL); i++)
            if (strcmp(vendor, hq->opts[v].value) == 0 && k-- == 0) return i;
    }
    return -1;
}

/* How many devices catalog_device lists: one pass over the catalog per vendor. */
static int catalog_count(const struct app *a, int q, const char *hardware)
{
    if (!is_catalog(q)) return 0;
    const struct wiz_question *hq = &wiz_questions[question("hardware")];
    const char *vendor;
    int n = 0;
    for (int v = 1; v < hq->nopts; v++) {
        if (hardware && strcmp(hardware, hq->opts[v].value) != 0) continue;
        for (int i = 0; adv_kb_accelerator(a->akb, i, NULL, &vendor, NULL); i++) n += strcmp(vendor, hq->opts[v].value) == 0;
    }
    return n;
}

/* The options of question q, in order: its own, the catalog's devices, a value loaded or typed
 * that is none of them, and for a numeric question "Another number...". */
struct option_layout {
    int own, catalog, custom, other; /* index of the first of each, -1 when absent */
    int count;
};

static struct option_layout layout_of(const struct app *a, int q)
{
    struct option_layout l = {0, -1, -1, -1, wiz_questions[q].nopts};
    int ncat = catalog_count(a, q, chosen_hardware(a, -1, 0));
    if (ncat) l.catalog = l.count, l.count += ncat;
    if (a->custom[q][0]) l.custom = l.count++;
    if (wiz_questions[q].numeric) l.other = l.count++;
    return l;
}

int wizard_option_count(const struct app *a, int q) { return layout_of(a, q).count; }

/* A given number as the options write theirs: "70B", "2,048", "2.5". */
static void number_label(const char *value, char *out, size_t n)
{
    double v;
    if (units_parse(value, &v)) snprintf(out, n, "%s", value);
    else if (v >= 1e5) units_short(v, out, n);
    else units_thousands(v, v == floor(v) ? 0 : 2, out, n);
}

/* How catalog device d is offered: "NVIDIA H100 SXM, 80 GB". */
static const char *device_label(const struct app *a, int d, char *buf, size_t n)
{
    const char *name;
    double mem;
    adv_kb_accelerator(a->akb, d, &name, NULL, &mem);
    snprintf(buf, n, "%s, %g GB", name, mem);
    return buf;
}

const char *wizard_option_label(const struct app *a, int q, int i, char *buf, size_t n)
{
    struct option_layout l = layout_of(a, q);
    if (i < wiz_questions[q].nopts) return wiz_questions[q].opts[i].label;
    if (i == l.other) return "Another number... (type it: K, M, B, T allowed)";
    if (i == l.custom) {
        char num[48];
        if (wiz_questions[q].numeric) number_label(a->custom[q], num, sizeof num);
        else snprintf(num, sizeof num, "%s", a->custom[q]);
        snprintf(buf, n, "%s (given)", num);
        return buf;
    }
    return device_label(a, catalog_device(a, chosen_hardware(a, -1, 0), i - l.catalog), buf, n);
}

const char *wizard_option_help(const struct app *a, int q, int i, char *buf, size_t n)
{
    struct option_layout l = layout_of(a, q);
    if (i < wiz_questions[q].nopts) return wiz_questions[q].opts[i].help;
    if (i == l.other) return "Enter, or a digit, opens a field: 2000, 2,048, 30B, 1.5T.";
    if (i == l.custom) return "The value given in the answers file, or typed here.";
    snprintf(buf, n, "Planned with its memory, dense peaks and links (fwadvisor kb show %s).",
             adv_kb_accelerator(a->akb, catalog_device(a, chosen_hardware(a, -1, 0), i - l.catalog), NULL, NULL, NULL));
    return buf;
}

/* The answer value of option i (NULL: leave the key to its default). */
static const char *option_value(const struct app *a, int q, int i, const char *hardware)
{
    struct option_layout l = layout_of(a, q);
    if (i < wiz_questions[q].nopts) return wiz_questions[q].opts[i].value;
    if (i == l.custom) return a->custom[q];
    if (i == l.other || l.catalog < 0) return NULL;
    int d = catalog_device(a, hardware, i - l.catalog);
    return d >= 0 ? adv_kb_accelerator(a->akb, d, NULL, NULL, NULL) : NULL;
}

static int answer_is(const struct app *a, int q, const char *value)
{
    const char *v = option_value(a, q, a->sel[q], chosen_hardware(a, -1, 0));
    return v && strcmp(v, value) == 0;
}

int wizard_asked(const struct app *a, int q)
{
    const struct wiz_question *wq = &wiz_questions[q];
    if (!wq->only_if_key) return 1;
    int dep = question(wq->only_if_key);
    return dep < 0 || !answer_is(a, dep, wq->only_if_not);
}

/* The answers of the wizard's choices, over the loaded ones; tentative_q >= 0 uses
 * tentative_sel for that question (the side panel's preview). */
int wizard_build(const struct app *a, struct answers *out, int tentative_q, int tentative_sel, char *err, size_t errsz)
{
    char assign[256], why[256];
    int refused = 0;
    *out = a->base;
    for (int q = 0; q < wiz_question_count; q++) {
        const struct wiz_question *wq = &wiz_questions[q];
        if (!wizard_asked(a, q)) continue;
        if (wq->multi) {
            size_t used = (size_t)snprintf(assign, sizeof assign, "%s=", wq->key);
            for (int i = 0; i < wq->nopts; i++)
                if ((a->multi[q] >> i) & 1u)
                    used += (size_t)snprintf(assign + used, sizeof assign - used, "%s%s", used > strlen(wq->key) + 1 ? "," : "",
                                             wq->opts[i].value);
            if (answers_set(out, assign, why, sizeof why) && !refused++) snprintf(err, errsz, "%s", why);
            continue;
        }
        int sel = q == tentative_q ? tentative_sel : a->sel[q];
        const char *hardware = chosen_hardware(a, tentative_q, tentative_sel);
        const char *value = option_value(a, q, sel, hardware);
        if (!value) continue;
        if (is_catalog(q) && hardware) { /* only a device of the hardware chosen: the list follows it */
            const char *vendor;
            int d = adv_accelerator_index(a->akb, value);
            if (d >= 0 && adv_kb_accelerator(a->akb, d, NULL, &vendor, NULL) && strcmp(vendor, hardware) != 0) continue;
        }
        snprintf(assign, sizeof assign, "%s=%s", wq->key, value);
        if (answers_set(out, assign, why, sizeof why) && !refused++) snprintf(err, errsz, "%s", why);
    }
    /* The choices are made one at a time: the OS defaults to this machine's, which may not run
     * the hardware picked later (macOS with NVIDIA GPUs); the hardware and target win. */
    while (answers_drop_contradiction(out)) {
    }
    return refused ? -1 : 0;
}

void wizard_start(struct app *a, const struct answers *loaded)
{
    answers_init(&a->base);
    memset(a->custom, 0, sizeof a->custom);
    for (int q = 0; q < wiz_question_count; q++) {
        const struct wiz_question *wq = &wiz_questions[q];
        a->sel[q] = wq->default_index >= 0 ? wq->default_index : 0;
        a->multi[q] = 0;
        if (strcmp(wq->key, "os") == 0)
            for (int i = 0; i < wq->nopts; i++)
                if (strcmp(wq->opts[i].value, answers_running_os()) == 0) a->sel[q] = i;
    }
    if (loaded) {
        a->base = *loaded;
        /* Each loaded answer selects its option, or becomes a given option of its own. */
        cJSON *doc = answers_to_json(loaded);
        for (int q = 0; q < wiz_question_count; q++) {
            const struct wiz_question *wq = &wiz_questions[q];
            int idx = ans_key_index(wq->key);
            if (idx < 0 || !loaded->v[idx].given) continue;
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, wq->key);
            if (wq->multi) {
                const cJSON *item;
                cJSON_ArrayForEach(item, v) for (int i = 0; i < wq->nopts; i++) if (!strcmp(item->valuestring, wq->opts[i].value))
                    a->multi[q] |= 1u << i;
                continue;
            }
            char text[40];
            if (cJSON_IsString(v)) snprintf(text, sizeof text, "%s", v->valuestring);
            else if (cJSON_IsBool(v)) snprintf(text, sizeof text, "%s", cJSON_IsTrue(v) ? "true" : "false");
            else if (cJSON_IsNumber(v)) snprintf(text, sizeof text, "%.10g", v->valuedouble);
            else continue;
            int found = -1;
            for (int i = 0; i < wizard_option_count(a, q); i++) {
                const char *ov = option_value(a, q, i, chosen_hardware(a, -1, 0));
                if (!ov) continue;
                if (!strcmp(ov, text) || (cJSON_IsNumber(v) && atof(ov) == v->valuedouble)) found = i;
            }
            if (found >= 0) a->sel[q] = found;
            else {
                snprintf(a->custom[q], sizeof a->custom[q], "%s", text);
                a->sel[q] = layout_of(a, q).custom;
            }
        }
        cJSON_Delete(doc);
    }
    a->q = 0;
    a->wiz_vp.top = 0;
    a->screen = SCR_WIZARD;
}

static void side_panel(struct app *a, int x, int w)
{
    struct answers ans;
    char err[256];
    int status = wizard_build(a, &ans, a->q, a->sel[a->q], err, sizeof err) ? KB_ERR_INPUT
                 : adv_recommend(a->akb, &ans, &a->hw, a->preview, err, sizeof err);
    crt_box(1, x, LINES - 3, w);
    if (status != KB_OK) { /* answers that contradict each other or the catalog */
        ui_wrap(2, x + 2, w - 4, LINES - 6, err, crt_attr(PAIR_BAD));
        return;
    }
    ui_text(2, x + 2, w - 4, "Top frameworks now", A_BOLD);
    int y = 4;
    for (int i = 0; i < 3 && i < a->preview->ranking.count; i++) {
        const struct adv_framework *f = &a->preview->ranking.items[i];
        char line[64], bar[128];
        snprintf(line, sizeof line, "%d %-12s %5.1f", i + 1, f->name, f->score_tenths / 10.0);
        ui_text(y, x + 2, w - 4, line, i == 0 ? A_BOLD : A_NORMAL);
        tui_bar(bar, sizeof bar, f->score_tenths / 1000.0, w - 6, a->utf8);
        ui_text(y + 1, x + 4, w - 6, bar, i == 0 ? crt_attr(PAIR_GOOD) : A_NORMAL);
        y += 3;
    }
    char line[160];
    snprintf(line, sizeof line, "Strategy: %s", a->preview->strategy ? a->preview->strategy : "-");
    ui_text(y++, x + 2, w - 4, line, A_NORMAL);
    snprintf(line, sizeof line, "Runtime: %s", a->preview->runtime ? a->preview->runtime : "-");
    ui_text(y++, x + 2, w - 4, line, A_NORMAL);
    /* The verdict is wrapped, never cut. */
    const struct adv_memory *m = &a->preview->memory;
    snprintf(line, sizeof line, "Memory: %.1f GB per device%s", m->total_gb,
             m->fits ? ", fits" : m->device_memory_gb > 0 ? ", DOES NOT FIT" : "");
    ui_wrap(y, x + 2, w - 4, LINES - 3 - y, line, m->fits || m->device_memory_gb <= 0 ? A_NORMAL : crt_attr(PAIR_BAD) | A_BOLD);
}

/* Step k of n among the questions asked with the choices so far. */
static void step_of(const struct app *a, int *k, int *n)
{
    *k = *n = 0;
    for (int q = 0; q < wiz_question_count; q++)
        if (wizard_asked(a, q)) {
            ++*n;
            if (q <= a->q) ++*k;
        }
}

/* Option i of the question on screen, as one entry of the pane. */
static void option_entry(struct app *a, const struct option_layout *l, int i, const char *text)
{
    const struct wiz_question *wq = &wiz_questions[a->q];
    char line[200];
    const char *mark = wq->multi ? (((a->multi[a->q] >> i) & 1u) ? "[x] " : "[ ] ") : (i == a->sel[a->q] ? "(*) " : "( ) ");
    if (i == l->other) mark = "    ";
    snprintf(line, sizeof line, "%s%s", text, i == wq->default_index ? "  (default)" : "");
    if (vp_matches(&a->wiz_vp, line))
        pane_wrap(&a->wiz_pane, i, l->catalog >= 0 && i >= l->catalog ? 3 : 1, A_NORMAL, mark, A_NORMAL, line);
}

/* The options as a pane: the catalog's devices under a heading per vendor, in catalog_device's
 * order, one pass over the catalog per vendor (however long the catalog). */
static void build_options(struct app *a, int width)
{
    struct option_layout l = layout_of(a, a->q);
    const struct wiz_question *hq = &wiz_questions[question("hardware")];
    const char *hardware = chosen_hardware(a, -1, 0);
    char label[128];
    pane_reset(&a->wiz_pane, width);
    for (int i = 0; i < l.count; i++) {
        if (i != l.catalog) {
            option_entry(a, &l, i, wizard_option_label(a, a->q, i, label, sizeof label));
            continue;
        }
        const char *vendor;
        for (int v = 1; v < hq->nopts; v++) {
            if (hardware && strcmp(hardware, hq->opts[v].value) != 0) continue;
            int heading = 0;
            for (int d = 0; adv_kb_accelerator(a->akb, d, NULL, &vendor, NULL); d++) {
                if (strcmp(vendor, hq->opts[v].value) != 0) continue;
                if (!heading++) pane_add(&a->wiz_pane, -1, 1, A_BOLD | A_UNDERLINE, hq->opts[v].label);
                option_entry(a, &l, i++, device_label(a, d, label, sizeof label));
            }
        }
        i--; /* the loop's step moves past the last device */
    }
}

void wizard_draw(struct app *a)
{
    const struct wiz_question *wq = &wiz_questions[a->q];
    char title[128];
    int k, n;
    step_of(a, &k, &n);
    snprintf(title, sizeof title, "Step %d of %d", k, n);
    ui_title(a, title);
    struct tui_split sp = tui_wizard_split(COLS);
    int help_rows = 3, top = 4, rows = ui_content_rows(top) - help_rows - 1;
    ui_text(2, 2, sp.left_w - 3, wq->title, A_BOLD);
    build_options(a, sp.left_w - 4);
    a->wiz_vp.cursor = a->sel[a->q];
    vp_draw(&a->wiz_vp, &a->wiz_pane, top, 2, rows, sp.left_w - 3, a->utf8);
    a->sel[a->q] = a->wiz_vp.cursor >= 0 ? a->wiz_vp.cursor : a->sel[a->q];
    ui_pane(a, &a->wiz_vp, &a->wiz_pane);
    ui_searchable(a, &a->wiz_vp);
    char help_buf[200];
    const char *help = wizard_option_help(a, a->q, a->sel[a->q], help_buf, sizeof help_buf);
    ui_wrap(top + rows + 1, 3, sp.left_w - 4, help_rows, help, crt_attr(PAIR_ACCENT));
    side_panel(a, sp.right_x, sp.right_w);
    ui_footer(a, wq->multi ? " Space: tick  Enter: next  Esc: back  /: search  ?: help  q: quit"
                 : wq->numeric ? " Up/Down: choose  0-9: type a number  Enter: next  Esc: back  ?: help  q: quit"
                               : " Up/Down: choose  Enter: next  Esc: back  /: search  ?: help  q: quit");
}

/* A typed number: checked as the answer's own value, then kept as the question's given option. */
static void number_typed(struct app *a, const char *text)
{
    const struct wiz_question *wq = &wiz_questions[a->q];
    struct answers scratch;
    char assign[160], err[300];
    answers_init(&scratch);
    snprintf(assign, sizeof assign, "%s=%s", wq->key, text);
    if (answers_set(&scratch, assign, err, sizeof err)) {
        ui_message(a, 1, "%s", err);
        return;
    }
    snprintf(a->custom[a->q], sizeof a->custom[a->q], "%.10g", answers_num(&scratch, ans_key_index(wq->key)));
    a->sel[a->q] = layout_of(a, a->q).custom;
}

static void open_number(struct app *a, const char *initial)
{
    char title[96];
    snprintf(title, sizeof title, "%s: a number (K, M, B, T allowed: 2000, 30B)", wiz_questions[a->q].title);
    ui_begin_input(a, title, initial, 0, number_typed);
}

/* To the next question asked, after checking the answers so far agree with each other. */
static void advance(struct app *a)
{
    struct answers ans;
    char err[512];
    if (wizard_build(a, &ans, -1, 0, err, sizeof err)) {
        ui_message(a, 1, "%s", err);
        return;
    }
    if (answers_check_combination(&ans, err, sizeof err) && strstr(err, wiz_questions[a->q].key)) {
        ui_message(a, 1, "%s", err);
        return;
    }
    int q = a->q + 1;
    while (q < wiz_question_count && !wizard_asked(a, q)) q++;
    if (q >= wiz_question_count) {
        results_compute(a);
        return;
    }
    a->q = q;
    a->wiz_vp.top = 0;
    a->wiz_vp.query[0] = '\0';
    /* The device list follows the hardware chosen: keep the choice within it. */
    if (a->sel[a->q] >= wizard_option_count(a, a->q)) a->sel[a->q] = 0;
}

static void go_back(struct app *a)
{
    int q = a->q - 1;
    while (q >= 0 && !wizard_asked(a, q)) q--;
    if (q < 0) {
        a->screen = SCR_HOME;
        return;
    }
    a->q = q;
    a->wiz_vp.top = 0;
    a->wiz_vp.query[0] = '\0';
}

void wizard_key(struct app *a, int ch)
{
    const struct wiz_question *wq = &wiz_questions[a->q];
    struct option_layout l = layout_of(a, a->q);
    a->wiz_vp.cursor = a->sel[a->q];
    if (vp_key(&a->wiz_vp, &a->wiz_pane, ch)) {
        a->sel[a->q] = a->wiz_vp.cursor;
        return;
    }
    if (wq->numeric && ch < 256 && (isdigit(ch) || ch == '.')) {
        char first[2] = {(char)ch, 0};
        open_number(a, first);
        return;
    }
    switch (ch) {
    case ' ':
        if (wq->multi) {
            unsigned bit = 1u << a->sel[a->q];
            a->multi[a->q] ^= bit;
            /* "None yet" excludes the frameworks, and the reverse. */
            int none = wq->nopts - 1;
            if (a->sel[a->q] == none && (a->multi[a->q] & bit)) a->multi[a->q] = bit;
            else if (a->sel[a->q] != none) a->multi[a->q] &= ~(1u << none);
        }
        break;
    case KEY_LEFT: case 'h': case KEY_BACKSPACE: case 127: case 8: case 27: go_back(a); break;
    case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT: case 'l':
        if (a->sel[a->q] == l.other) open_number(a, "");
        else advance(a);
        break;
    }
}
