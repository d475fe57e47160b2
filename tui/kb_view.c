/* The knowledge-base browser: frameworks, hardware support, distributed strategies, deployment
 * runtimes and sources, with their dates. */
#include "tui/app.h"
#include "tui/crt.h"
#include "tui/layout.h"
#include "tui/text.h"

#include <stdio.h>
#include <string.h>

static const char *const kinds[KB_TAB_COUNT] = {"frameworks", "hardware", "distributed", "deployment", "sources"};

static void load(struct app *a)
{
    char err[256];
    cJSON_Delete(a->kb_rows);
    a->kb_rows = NULL;
    if (kb_list(a->k, kinds[a->kb_tab], &a->kb_rows, err, sizeof err) != KB_OK) ui_message(a, 1, "%s", err);
    a->kb_sel = a->kb_first = 0;
}

void kb_view_open(struct app *a)
{
    a->screen = SCR_KB;
    load(a);
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* The label of a row in the list. */
static void row_label(const cJSON *row, char *out, size_t n)
{
    if (*str(row, "id")) snprintf(out, n, "%s", str(row, "id"));
    else snprintf(out, n, "%s/%s", str(row, "framework"), str(row, "hardware"));
}

void kb_view_draw(struct app *a)
{
    ui_title(a, "knowledge base");
    int x = 1;
    for (int t = 0; t < KB_TAB_COUNT; t++) {
        char label[32];
        snprintf(label, sizeof label, t == a->kb_tab ? "[%s]" : " %s ", kinds[t]);
        ui_text(1, x, (int)strlen(label), label, t == a->kb_tab ? crt_attr(PAIR_SELECT) | A_BOLD : A_NORMAL);
        x += (int)strlen(label) + 1;
    }
    int n = cJSON_GetArraySize(a->kb_rows), listw = 24, top = 3, visible = LINES - top - 1;
    a->kb_first = tui_scroll(a->kb_sel, a->kb_first, visible, n);
    for (int r = 0; r < visible && a->kb_first + r < n; r++) {
        char label[96];
        row_label(cJSON_GetArrayItem(a->kb_rows, a->kb_first + r), label, sizeof label);
        ui_text(top + r, 1, listw, label, a->kb_first + r == a->kb_sel ? crt_attr(PAIR_SELECT) | A_BOLD : A_NORMAL);
    }
    const cJSON *row = cJSON_GetArrayItem(a->kb_rows, a->kb_sel);
    int y = top, dx = listw + 3, dw = COLS - dx - 1;
    const cJSON *f;
    cJSON_ArrayForEach(f, row) {
        if (y >= LINES - 1) break;
        char value[2048];
        if (cJSON_IsString(f)) snprintf(value, sizeof value, "%s", f->valuestring);
        else if (cJSON_IsNumber(f)) snprintf(value, sizeof value, "%g", f->valuedouble);
        else if (cJSON_IsArray(f)) {
            size_t used = 0;
            value[0] = '\0';
            const cJSON *it;
            cJSON_ArrayForEach(it, f) if (cJSON_IsString(it) && used < sizeof value)
                used += (size_t)snprintf(value + used, sizeof value - used, "%s%s", used ? ", " : "", it->valuestring);
        } else {
            char *text = cJSON_PrintUnformatted(f);
            snprintf(value, sizeof value, "%s", text ? text : "");
            cJSON_free(text);
        }
        if (!value[0]) continue;
        ui_text(y, dx, 16, f->string, A_BOLD);
        y += ui_wrap(y, dx + 17, dw - 17, LINES - 1 - y, value, A_NORMAL);
    }
    ui_footer(a, " Tab: next table   Up/Down: pick   Esc: home   ?: help   q: quit");
}

void kb_view_key(struct app *a, int ch)
{
    int n = cJSON_GetArraySize(a->kb_rows);
    switch (ch) {
    case '\t': case KEY_RIGHT: case 'l': a->kb_tab = (a->kb_tab + 1) % KB_TAB_COUNT, load(a); break;
    case KEY_BTAB: a->kb_tab = (a->kb_tab + KB_TAB_COUNT - 1) % KB_TAB_COUNT, load(a); break;
    case KEY_UP: case 'k': if (n) a->kb_sel = tui_move(a->kb_sel, -1, n); break;
    case KEY_DOWN: case 'j': if (n) a->kb_sel = tui_move(a->kb_sel, 1, n); break;
    case KEY_NPAGE: if (n) a->kb_sel = tui_move(a->kb_sel, 10, n); break;
    case KEY_PPAGE: if (n) a->kb_sel = tui_move(a->kb_sel, -10, n); break;
    case 27: case KEY_BACKSPACE: case 127: case 8: case KEY_LEFT: case 'h': a->screen = SCR_HOME; break;
    }
}
