/* The config file: a team's defaults as `key = value` lines (knowledge/config_file.h). */
#include "knowledge/config_file.h"
#include "common/file.h"
#include "common/suggest.h"
#include "common/text.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int config_default_path(char *out, size_t n)
{
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    int used;
    if (xdg && xdg[0] == '/') used = snprintf(out, n, "%s/fwadvisor/config", xdg); /* the spec ignores relative ones */
    else if (home && *home) used = snprintf(out, n, "%s/.config/fwadvisor/config", home);
    else return -1;
    return used > 0 && (size_t)used < n ? 0 : -1;
}

enum section { S_NONE, S_ANSWERS, S_PRICES, S_SITE };
static const char *const section_names[] = {"answers", "prices", "site", NULL};

/* One line being read: the file's name and the line's number lead every message. */
struct line_ctx {
    struct config_file *c;
    int number;
    char *err;
    size_t errsz;
};

static int fail(const struct line_ctx *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(const struct line_ctx *l, const char *fmt, ...)
{
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(l->err, l->errsz, "%s: line %d: %s", l->c->path, l->number, what);
    return -1;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = '\0';
    return s;
}

/* A key given a second time is refused: the first one's line is named. */
static int once(const struct line_ctx *l, const char *key, int *line)
{
    if (*line) return fail(l, "%s is given twice (first on line %d)", key, *line);
    *line = l->number;
    return 0;
}

static int answers_line(const struct line_ctx *l, const char *key, const char *value)
{
    struct config_file *c = l->c;
    int i = ans_key_index(key);
    if (i >= 0 && once(l, key, &c->answer_line[i])) return -1;
    char assignment[CONFIG_LINE_MAX + 2], where[512];
    snprintf(assignment, sizeof assignment, "%s=%s", key, value);
    snprintf(where, sizeof where, "%s: line %d: ", c->path, l->number);
    return answers_set_from(&c->answers, assignment, where, l->err, l->errsz);
}

static int prices_line(const struct line_ctx *l, const char *key, const char *value)
{
    struct config_file *c = l->c;
    if (strcmp(key, "provider") == 0) {
        if (once(l, key, &c->provider_line)) return -1;
        c->provider = value;
        return 0;
    }
    for (int i = 0; i < c->nprices; i++)
        if (strcmp(c->prices[i].accelerator, key) == 0)
            return fail(l, "%s is given twice (first on line %d)", key, c->prices[i].line);
    if (c->nprices >= CONFIG_MAX_PRICES) return fail(l, "more than %d prices", CONFIG_MAX_PRICES);
    c->prices[c->nprices].accelerator = key;
    c->prices[c->nprices].price = value;
    c->prices[c->nprices++].line = l->number;
    return 0;
}

/* Slurm names as job.sbatch can hold them unquoted: letters, digits, '.', '_', '-', and for a
 * partition list ',' between names. */
static int site_word(const char *value, int list)
{
    size_t n = strlen(value);
    if (n == 0 || n >= LAUNCH_SITE_MAX) return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)value[i];
        int comma = ch == ',' && list && i > 0 && i + 1 < n && value[i + 1] != ',';
        if (!isalnum(ch) && ch != '.' && ch != '_' && ch != '-' && !comma) return 0;
    }
    return 1;
}

static int site_line(const struct line_ctx *l, const char *key, const char *value)
{
    struct config_file *c = l->c;
    int partition = strcmp(key, "partition") == 0;
    if (!partition && strcmp(key, "account") != 0) {
        struct suggest s;
        const char *near = suggest_from(&s, key, (const char *const[]){"partition", "account", NULL});
        if (near) return fail(l, "unknown key '%s' in [site] (did you mean '%s'?)", key, near);
        return fail(l, "unknown key '%s' in [site] (keys: partition, account)", key);
    }
    if (once(l, key, partition ? &c->partition_line : &c->account_line)) return -1;
    if (!site_word(value, partition))
        return fail(l, "%s '%.80s' must be 1 to %d letters, digits, '.', '_' or '-'%s", key, value, LAUNCH_SITE_MAX - 1,
                    partition ? " (',' between partitions)" : "");
    char *field = partition ? c->site.partition : c->site.account;
    snprintf(field, LAUNCH_SITE_MAX, "%s", value);
    return 0;
}

static int section_line(const struct line_ctx *l, char *s, enum section *section)
{
    size_t n = strlen(s);
    if (s[n - 1] != ']') return fail(l, "a section is written [name]");
    s[n - 1] = '\0';
    const char *name = trim(s + 1);
    for (int i = 0; section_names[i]; i++)
        if (strcmp(name, section_names[i]) == 0) {
            *section = (enum section)(i + 1);
            return 0;
        }
    struct suggest sg;
    const char *near = suggest_from(&sg, name, section_names);
    if (near) return fail(l, "unknown section [%.80s] (did you mean [%s]?)", name, near);
    return fail(l, "unknown section [%.80s] (sections: [answers], [prices], [site])", name);
}

/* One line, NUL-terminated in place: checked, its comment cut, then read in its section. */
static int read_line(const struct line_ctx *l, char *line, size_t len, enum section *section)
{
    if (len && line[len - 1] == '\r') line[--len] = '\0';
    if (len > CONFIG_LINE_MAX) return fail(l, "longer than %d bytes", CONFIG_LINE_MAX);
    if (memchr(line, '\0', len)) return fail(l, "a NUL byte");
    size_t good = text_utf8_prefix(line);
    if (good < len) return fail(l, "bytes that are not UTF-8 at byte %zu of the line", good + 1);
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    char *s = trim(line);
    if (!*s) return 0;
    if (*s == '[') return section_line(l, s, section);
    char *eq = strchr(s, '=');
    if (!eq || eq == s) return fail(l, "expected KEY = VALUE, a [section], a # comment or a blank line");
    *eq = '\0';
    char *key = trim(s), *value = trim(eq + 1);
    if (!*key) return fail(l, "expected KEY = VALUE, a [section], a # comment or a blank line");
    if (!*value) return fail(l, "%.80s has no value", key);
    switch (*section) {
    case S_ANSWERS: return answers_line(l, key, value);
    case S_PRICES: return prices_line(l, key, value);
    case S_SITE: return site_line(l, key, value);
    default: return fail(l, "%.80s = ... before any section ([answers], [prices] or [site])", key);
    }
}

int config_parse(const char *text, size_t len, const char *path, struct config_file **out, char *err, size_t errsz)
{
    *out = NULL;
    struct config_file *c = calloc(1, sizeof *c);
    if (c) c->path = strdup(path), c->text = malloc(len + 1);
    if (!c || !c->path || !c->text) {
        config_free(c);
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    memcpy(c->text, text, len);
    c->text[len] = '\0';
    answers_init(&c->answers);
    enum section section = S_NONE;
    struct line_ctx l = {c, 0, err, errsz};
    for (size_t at = 0; at < len;) {
        char *line = c->text + at, *nl = memchr(line, '\n', len - at);
        size_t n = nl ? (size_t)(nl - line) : len - at;
        if (nl) *nl = '\0';
        at += n + 1;
        l.number++;
        if (read_line(&l, line, n, &section)) {
            config_free(c);
            return -1;
        }
    }
    *out = c;
    return 0;
}

int config_load(const char *path, int is_default, struct config_file **out, char *err, size_t errsz)
{
    *out = NULL;
    struct stat st;
    /* The default file is optional: absent, or behind a folder this user cannot search (another
     * user's home, a sandbox), it is not there for us. One we can see but not read is an error. */
    if (is_default && stat(path, &st) != 0 && (errno == ENOENT || errno == ENOTDIR || errno == EACCES)) return CONFIG_NONE;
    unsigned char *data;
    size_t len;
    if (file_read_regular(path, CONFIG_MAX_BYTES, &data, &len, err, errsz) != FILE_OK) return CONFIG_BAD;
    int bad = config_parse((const char *)data, len, path, out, err, errsz);
    free(data);
    return bad ? CONFIG_BAD : CONFIG_OK;
}

void config_free(struct config_file *c)
{
    if (!c) return;
    free(c->path);
    free(c->text);
    free(c);
}

int config_prices(const struct config_file *c, const struct adv_kb *akb, struct compare_prices *out, char *err,
                  size_t errsz)
{
    for (int i = 0; c && i < c->nprices; i++) {
        char where[512];
        snprintf(where, sizeof where, "%s: line %d", c->path, c->prices[i].line);
        if (compare_price_add(akb, c->prices[i].accelerator, c->provider, c->prices[i].price, PRICE_CONFIG, where, out, err,
                              errsz))
            return -1;
    }
    return 0;
}
