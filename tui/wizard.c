/* The wizard: one question per screen for the answers that matter, each choice explained from
 * the seed articles, with a side panel that reranks the frameworks as the selection moves. */
#include "tui/app.h"
#include "tui/crt.h"
#include "tui/layout.h"
#include "tui/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define O(label, value, help) {label, value, help}

const struct wiz_question wiz_questions[] = {
    {"stage", "Project stage", 0, 1, 4, {
        O("Learning", "learning", "First models: an easy start and many tutorials (seed 002 Q1: PyTorch + torchvision, or Keras)."),
        O("Research", "research", "New ideas and papers: debugging and published code matter most (seed 002: research -> PyTorch)."),
        O("Prototype", "prototype", "A product whose architecture is not settled: iterate fast (seed 003: startups start with PyTorch)."),
        O("Production", "production", "Shipping and keeping a model: deployment, maturity and maintenance weigh more (seeds 000, 003)."),
    }},
    {"hardware", "Hardware you train on", 0, 0, 8, {
        O("Detected (auto)", "auto", "What fwadvisor found on this machine: the latest probe run, else the device nodes."),
        O("NVIDIA GPUs", "nvidia", "All three major frameworks support NVIDIA well; match CUDA and cuDNN versions (seed 001)."),
        O("AMD GPUs", "amd", "PyTorch has official ROCm builds; TensorFlow and JAX carry more set-up risk (seed 001)."),
        O("Google TPUs", "tpu", "JAX is TPU-native, TensorFlow supported; PyTorch/XLA is in flux (seeds 000, 001)."),
        O("Apple Silicon", "apple", "PyTorch MPS and MLX; jax-metal is dead and tensorflow-metal broken since TF 2.18."),
        O("Intel GPUs", "intel", "Stock PyTorch XPU (IPEX ended after 2.8); others experimental."),
        O("Huawei Ascend", "ascend", "MindSpore is first-class; PyTorch through torch_npu; PaddlePaddle via plug-ins."),
        O("CPU only", "cpu", "Every framework runs; training speed is what a probe measures on this machine."),
    }},
    {"accelerator", "Device model (memory)", 0, 0, 1, {
        O("Detected, or the usual one (assumed)", NULL,
          "The detected device, else the vendor's usual one; the plan says which it assumed on its first line."),
    }},
    {"os", "Operating system", 0, 0, 3, {
        O("Linux", "linux", "Every framework's first platform."),
        O("Windows", "windows", "TensorFlow lost native GPU support after 2.10 (use WSL2); JAX GPU needs WSL2."),
        O("macOS", "macos", "Apple GPUs through PyTorch MPS or MLX; no CUDA."),
    }},
    {"devices", "Accelerators in total", 0, 0, 12, {
        O("1", "1", "One device: no distributed stack needed (seed 002: PyTorch AMP on one GPU)."),
        O("2", "2", "Data parallel across two devices."), O("4", "4", "4-16 devices: DDP is the robust choice (seed 002)."),
        O("8", "8", "One 8-GPU node: seed 001's scaling anecdote (DDP ~95%, MirroredStrategy ~92%, pmap ~98%)."),
        O("16", "16", "4-16 devices: DDP, FSDP when the model does not fit (seed 002)."),
        O("64", "64", "Several nodes: sharded data parallel (ZeRO, FSDP) when the model is large."),
        O("128", "128", "Hundreds of devices: 3D parallelism for large models (seed 002)."),
        O("256", "256", "A TPU pod slice or a GPU cluster."), O("512", "512", "A large cluster."),
        O("1024", "1024", "Thousand-card scale: communication may take 30% of the time (seed 003)."),
        O("2048", "2048", "Seed 002 Q2: 2000 cards -> PyTorch + FSDP/DeepSpeed, or TPU pods."),
        O("4096", "4096", "Frontier-scale training."),
    }},
    {"nodes", "Machines (nodes)", 0, 0, 8, {
        O("1", "1", "One machine."), O("2", "2", "Two machines: the network joins the picture."),
        O("4", "4", "Four machines."), O("8", "8", "Eight machines."), O("16", "16", "Sixteen machines."),
        O("64", "64", "A cluster."), O("256", "256", "A large cluster."), O("512", "512", "A very large cluster."),
    }},
    {"model_kind", "Kind of model", 0, 7, 8, {
        O("Vision", "vision", "Image models: torchvision, timm, Keras applications (seed 002 Q1)."),
        O("NLP", "nlp", "Text models below LLM scale."),
        O("LLM", "llm", "Large language models: memory plans include activations (Korthikanti et al.)."),
        O("Recommender", "recsys", "Embedding-heavy models (seed 001's custom-gradient anecdote)."),
        O("Reinforcement learning", "rl", "JAX's functional style suits RL research (seed 002)."),
        O("Diffusion", "diffusion", "Image generation models."), O("Tabular", "tabular", "Tabular data."),
        O("Other", "other", "Anything else."),
    }},
    {"model_params", "Model size (parameters)", 0, 1, 10, {
        O("1 million", "1e6", "Tiny: a CPU trains it."), O("10 million", "1e7", "Small: one GPU easily."),
        O("100 million", "1e8", "BERT-base scale."), O("1 billion", "1e9", "16 GB of Adam model states alone (ZeRO paper)."),
        O("7 billion", "7e9", "112 GB of model states: sharding or offload on 80 GB GPUs."),
        O("13 billion", "1.3e10", "Seed 001: 13B on 8 V100s with DeepSpeed ZeRO."),
        O("70 billion", "7e10", "Chinchilla-size: multi-node sharded training."),
        O("175 billion", "1.75e11", "GPT-3 scale: 3D parallelism (Megatron, DeepSpeed)."),
        O("1 trillion", "1e12", "Seed 002 Q3: GPT-4 class: JAX or PyTorch at scale."),
        O("100 thousand", "1e5", "A toy model."),
    }},
    {"team", "What the team knows (Space to tick several)", 1, -1, 5, {
        O("PyTorch", "pytorch", "Seed 000: choose what the team knows; existing skill avoids retraining."),
        O("TensorFlow", "tensorflow", "A TensorFlow code base in production is a reason to stay (seed 003)."),
        O("JAX", "jax", "A team fluent in JAX has already paid its learning curve (seed 001)."),
        O("Keras", "keras", "Keras 3 runs on JAX, TensorFlow or PyTorch."),
        O("None yet", "none", "New to frameworks: Keras and fastai give a gentle start (seed 002)."),
    }},
    {"functional", "At home in functional programming?", 0, 1, 2, {
        O("Yes", "true", "Seed 002's tree: a functional team -> JAX (pure functions, grad/jit/vmap)."),
        O("No", "false", "Then JAX's functional style is its steepest cost (seed 001: 3 months of PyTorch first)."),
    }},
    {"higher_order_grad", "Gradients of gradients (meta-learning)?", 0, 1, 2, {
        O("Yes", "true", "Seed 002: JAX composes grad freely, which meta-learning needs."),
        O("No", "false", "Ordinary first-order training."),
    }},
    {"deploy", "Where the model runs", 0, 0, 5, {
        O("Nowhere yet", "none", "No deployment target."),
        O("Servers", "server", "LLMs: vLLM, SGLang, TensorRT-LLM; other models: Triton, ONNX Runtime, OpenVINO."),
        O("Mobile apps", "mobile", "Seed 002's tree: mobile -> TensorFlow Lite (now LiteRT); ExecuTorch for PyTorch."),
        O("Edge devices", "edge", "Seed 002 Q4: a Raspberry Pi -> TF Lite or ONNX Runtime; Jetson -> TensorRT."),
        O("Browsers", "browser", "TF.js (deprioritized) or ONNX Runtime Web."),
    }},
    {"deploy_hardware", "Hardware the model is served on", 0, 0, 9, {
        O("Same as training / device CPU (auto)", "auto", "Servers: the training hardware; edge and phones: their CPU."),
        O("CPU", "cpu", "x86 or Arm CPUs: ONNX Runtime, LiteRT, ExecuTorch (XNNPACK)."),
        O("NVIDIA GPU or Jetson", "nvidia", "Servers: vLLM, TensorRT-LLM, Triton; Jetson boards: TensorRT."),
        O("AMD GPU", "amd", "vLLM and SGLang on ROCm; ONNX Runtime with MIGraphX (no Triton on AMD)."),
        O("Apple device", "apple", "iPhone, iPad, Mac: Core ML, or ExecuTorch's Core ML back-end."),
        O("Qualcomm NPU", "qualcomm", "Snapdragon phones and boards: ExecuTorch QNN, LiteRT and ONNX Runtime QNN."),
        O("Intel CPU, GPU or NPU", "intel", "OpenVINO is Intel's tuned path."),
        O("Google TPU", "tpu", "LLMs: JetStream or vLLM on TPU."),
        O("Huawei Ascend", "ascend", "MindIE, vLLM (vllm-ascend) or MindSpore Lite."),
    }},
    {"priority", "What matters most", 0, 0, 3, {
        O("Iteration speed", "iteration", "Debugging and ecosystem weigh more (seed 003: PyTorch for fast iteration)."),
        O("Compute cost", "cost", "Training and memory efficiency weigh more (seed 003: JAX may save 20% compute, needs 30% more talent budget)."),
        O("Stability", "stability", "Maturity and maintenance weigh more; native strategies (seed 003: TensorFlow in established production)."),
    }},
    {"price_per_device_hour", "Price per device-hour (optional)", 0, 0, 7, {
        O("No price", NULL, "The plan shows hours only."), O("0.50", "0.5", "Per device and hour, any currency."),
        O("1.00", "1", "Per device and hour."), O("2.00", "2", "Per device and hour."),
        O("2.50", "2.5", "Per device and hour."), O("4.00", "4", "Per device and hour."), O("8.00", "8", "Per device and hour."),
    }},
};
const int wiz_question_count = (int)(sizeof wiz_questions / sizeof wiz_questions[0]);

/* The hardware the accelerator list follows: the hardware question's choice (tentative_sel when
 * that question is being previewed), the detected kind for "auto". */
static const char *chosen_hardware(const struct app *a, int tentative_q, int tentative_sel)
{
    for (int q = 0; q < wiz_question_count; q++) {
        if (strcmp(wiz_questions[q].key, "hardware") != 0) continue;
        int sel = q == tentative_q ? tentative_sel : a->sel[q];
        const char *v = sel < wiz_questions[q].nopts ? wiz_questions[q].opts[sel].value : a->custom[q];
        return v && strcmp(v, "auto") == 0 ? a->hw.kind : v;
    }
    return NULL;
}

/* The device-model question lists the catalog's devices after its own option. */
static int is_catalog(int q) { return strcmp(wiz_questions[q].key, "accelerator") == 0; }

/* Catalog entry of the k-th device of that hardware, or -1. */
static int catalog_device(const struct app *a, const char *hardware, int k)
{
    const char *vendor;
    for (int i = 0; hardware && adv_kb_accelerator(a->akb, i, NULL, &vendor, NULL); i++)
        if (strcmp(vendor, hardware) == 0 && k-- == 0) return i;
    return -1;
}

static int catalog_count(const struct app *a, int q, const char *hardware)
{
    int n = 0;
    while (is_catalog(q) && catalog_device(a, hardware, n) >= 0) n++;
    return n;
}

int wizard_option_count(const struct app *a, int q)
{
    return wiz_questions[q].nopts + catalog_count(a, q, chosen_hardware(a, -1, 0)) + (a->custom[q][0] ? 1 : 0);
}

/* The options: the question's own, the catalog's devices, then a value loaded from a file that is
 * none of them. */
const char *wizard_option_label(const struct app *a, int q, int i, char *buf, size_t n)
{
    if (i < wiz_questions[q].nopts) return wiz_questions[q].opts[i].label;
    const char *hardware = chosen_hardware(a, -1, 0), *name;
    double mem;
    int d = catalog_device(a, hardware, i - wiz_questions[q].nopts);
    if (d >= 0 && is_catalog(q)) {
        adv_kb_accelerator(a->akb, d, &name, NULL, &mem);
        snprintf(buf, n, "%s, %g GB", name, mem);
    } else {
        snprintf(buf, n, "%s (loaded)", a->custom[q]);
    }
    return buf;
}

const char *wizard_option_help(const struct app *a, int q, int i, char *buf, size_t n)
{
    if (i < wiz_questions[q].nopts) return wiz_questions[q].opts[i].help;
    int d = catalog_device(a, chosen_hardware(a, -1, 0), i - wiz_questions[q].nopts);
    if (d < 0 || !is_catalog(q)) return "The value in the loaded answers file.";
    snprintf(buf, n, "Planned with its memory, dense peaks and links (fwadvisor kb show %s).",
             adv_kb_accelerator(a->akb, d, NULL, NULL, NULL));
    return buf;
}

static const char *option_value(const struct app *a, int q, int i, const char *hardware)
{
    if (i < wiz_questions[q].nopts) return wiz_questions[q].opts[i].value;
    int d = is_catalog(q) ? catalog_device(a, hardware, i - wiz_questions[q].nopts) : -1;
    if (d >= 0) return adv_kb_accelerator(a->akb, d, NULL, NULL, NULL);
    return i == wizard_option_count(a, q) - 1 && a->custom[q][0] ? a->custom[q] : NULL;
}

/* The answers of the wizard's choices, over the loaded ones; tentative_q >= 0 uses
 * tentative_sel for that question (the side panel's preview). */
void wizard_build(const struct app *a, struct answers *out, int tentative_q, int tentative_sel)
{
    char err[256], assign[256];
    *out = a->base;
    for (int q = 0; q < wiz_question_count; q++) {
        const struct wiz_question *wq = &wiz_questions[q];
        if (wq->multi) {
            size_t used = (size_t)snprintf(assign, sizeof assign, "%s=", wq->key);
            for (int i = 0; i < wq->nopts; i++)
                if ((a->multi[q] >> i) & 1u)
                    used += (size_t)snprintf(assign + used, sizeof assign - used, "%s%s", used > strlen(wq->key) + 1 ? "," : "",
                                             wq->opts[i].value);
            answers_set(out, assign, err, sizeof err);
            continue;
        }
        int sel = q == tentative_q ? tentative_sel : a->sel[q];
        const char *hardware = chosen_hardware(a, tentative_q, tentative_sel);
        const char *value = option_value(a, q, sel, hardware);
        if (!value) continue;
        if (is_catalog(q)) { /* only a device of the hardware chosen: the list follows it */
            const char *vendor, *id;
            int other = 0;
            for (int d = 0; (id = adv_kb_accelerator(a->akb, d, NULL, &vendor, NULL)); d++)
                if (strcmp(id, value) == 0) other = !hardware || strcmp(vendor, hardware) != 0;
            if (other) continue;
        }
        snprintf(assign, sizeof assign, "%s=%s", wq->key, value);
        answers_set(out, assign, err, sizeof err);
    }
    /* The choices are made one at a time: the OS defaults to this machine's, which may not run
     * the hardware picked later (macOS with NVIDIA GPUs); the hardware and target win. */
    while (answers_drop_contradiction(out)) {
    }
}

void wizard_start(struct app *a, const struct answers *loaded)
{
    answers_init(&a->base);
    memset(a->custom, 0, sizeof a->custom);
    for (int q = 0; q < wiz_question_count; q++) {
        const struct wiz_question *wq = &wiz_questions[q];
        a->sel[q] = wq->default_index >= 0 ? wq->default_index : 0;
        a->first[q] = 0;
        a->multi[q] = 0;
        if (strcmp(wq->key, "os") == 0)
            for (int i = 0; i < wq->nopts; i++)
                if (strcmp(wq->opts[i].value, answers_running_os()) == 0) a->sel[q] = i;
    }
    if (loaded) {
        a->base = *loaded;
        /* Each loaded answer selects its option, or becomes a loaded option of its own. */
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
                a->sel[q] = wizard_option_count(a, q) - 1;
            }
        }
        cJSON_Delete(doc);
    }
    a->q = 0;
    a->screen = SCR_WIZARD;
}

static void side_panel(struct app *a, int x, int w)
{
    struct answers ans;
    wizard_build(a, &ans, a->q, a->sel[a->q]);
    char err[256];
    int status = adv_recommend(a->akb, &ans, &a->hw, a->preview, err, sizeof err);
    crt_box(1, x, LINES - 2, w);
    if (status != KB_OK) { /* loaded answers that contradict each other or the catalog */
        ui_wrap(2, x + 2, w - 4, LINES - 5, err, crt_attr(PAIR_BAD));
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
    char line[128];
    snprintf(line, sizeof line, "Strategy: %s", a->preview->strategy ? a->preview->strategy : "-");
    ui_text(y++, x + 2, w - 4, line, A_NORMAL);
    snprintf(line, sizeof line, "Runtime: %s", a->preview->runtime ? a->preview->runtime : "-");
    ui_text(y++, x + 2, w - 4, line, A_NORMAL);
    snprintf(line, sizeof line, "Memory: %.1f GB/device %s", a->preview->memory.total_gb,
             a->preview->memory.fits ? "(fits)" : a->preview->memory.device_memory_gb > 0 ? "(does NOT fit)" : "");
    ui_text(y++, x + 2, w - 4, line, a->preview->memory.fits ? A_NORMAL : crt_attr(PAIR_BAD));
}

void wizard_draw(struct app *a)
{
    const struct wiz_question *wq = &wiz_questions[a->q];
    char title[128];
    snprintf(title, sizeof title, "Step %d of %d", a->q + 1, wiz_question_count);
    ui_title(a, title);
    struct tui_split sp = tui_wizard_split(COLS);
    ui_text(2, 2, sp.left_w - 3, wq->title, A_BOLD);
    int n = wizard_option_count(a, a->q);
    int list_top = 4, help_rows = 3, visible = LINES - 2 - list_top - help_rows - 1;
    a->first[a->q] = tui_scroll(a->sel[a->q], a->first[a->q], visible, n);
    for (int r = 0; r < visible && a->first[a->q] + r < n; r++) {
        int i = a->first[a->q] + r;
        char label[96], line[160];
        const char *text = wizard_option_label(a, a->q, i, label, sizeof label);
        const char *mark = wq->multi ? (((a->multi[a->q] >> i) & 1u) ? "[x]" : "[ ]") : (i == a->sel[a->q] ? "(*)" : "( )");
        snprintf(line, sizeof line, "%s %s%s", mark, text, i == wq->default_index ? "  (default)" : "");
        ui_text(list_top + r, 3, sp.left_w - 4, line, i == a->sel[a->q] ? crt_attr(PAIR_SELECT) | A_BOLD : A_NORMAL);
    }
    char help_buf[200];
    const char *help = wizard_option_help(a, a->q, a->sel[a->q], help_buf, sizeof help_buf);
    ui_wrap(LINES - 2 - help_rows, 3, sp.left_w - 4, help_rows, help, crt_attr(PAIR_ACCENT));
    side_panel(a, sp.right_x, sp.right_w);
    ui_footer(a, wq->multi ? " Space: tick  Enter/l: next  h/Backspace: back  ?: help  q: quit"
                           : " Up/Down: choose  Enter/l: next  h/Backspace: back  ?: help  q: quit");
}

void wizard_key(struct app *a, int ch)
{
    const struct wiz_question *wq = &wiz_questions[a->q];
    int n = wizard_option_count(a, a->q);
    switch (ch) {
    case KEY_UP: case 'k': a->sel[a->q] = tui_move(a->sel[a->q], -1, n); break;
    case KEY_DOWN: case 'j': a->sel[a->q] = tui_move(a->sel[a->q], 1, n); break;
    case KEY_HOME: a->sel[a->q] = 0; break;
    case KEY_END: a->sel[a->q] = n - 1; break;
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
    case KEY_LEFT: case 'h': case KEY_BACKSPACE: case 127: case 8: case 27:
        if (a->q > 0) a->q--;
        else a->screen = SCR_HOME;
        break;
    case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT: case 'l':
        if (a->q + 1 < wiz_question_count) {
            a->q++;
            /* The device list follows the hardware chosen: keep the choice within it. */
            if (a->sel[a->q] >= wizard_option_count(a, a->q)) a->sel[a->q] = 0;
        } else {
            results_compute(a);
        }
        break;
    }
}
