/* i18n: the chosen language and the catalog behind _() (common/i18n.h). */
#include "common/i18n.h"

#include <langinfo.h>
#include <libintl.h>
#include <limits.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "build_paths.h"

static enum i18n_lang current = I18N_EN;
/* LANGUAGE as the caller had it, once i18n_init has set its own (caller_language_saved). */
static char caller_language[256];
static int caller_language_set, caller_language_saved;

int i18n_parse(const char *name, enum i18n_lang *out)
{
    if (!name) return -1;
    /* The language part of a locale name: "zh" of "zh_CN.UTF-8@x", "en" of "en-GB". */
    size_t n = strcspn(name, "_-.@");
    if (n == 2 && strncasecmp(name, "zh", 2) == 0) {
        /* Taiwan's and Hong Kong's Chinese is written in traditional characters: not this catalog. */
        const char *region = name + 2;
        if (*region == '_' || *region == '-') {
            region++;
            if (strncasecmp(region, "TW", 2) == 0 || strncasecmp(region, "HK", 2) == 0 ||
                strncasecmp(region, "MO", 2) == 0 || strncasecmp(region, "Hant", 4) == 0)
                return -1;
        }
        *out = I18N_ZH;
        return 0;
    }
    if ((n == 2 && strncasecmp(name, "en", 2) == 0) || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0 ||
        strncmp(name, "C.", 2) == 0) {
        *out = I18N_EN;
        return 0;
    }
    return -1;
}

static const char *env_nonempty(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

/* The locale the environment names for messages: LC_ALL, LC_MESSAGES or LANG, the first set. */
static const char *messages_locale(void)
{
    const char *v = env_nonempty("LC_ALL");
    if (!v) v = env_nonempty("LC_MESSAGES");
    if (!v) v = env_nonempty("LANG");
    return v;
}

static int is_c_locale(const char *name)
{
    return !name || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0;
}

enum i18n_lang i18n_from_env(void)
{
    enum i18n_lang lang = I18N_EN;
    const char *loc = messages_locale();
    const char *list = env_nonempty("LANGUAGE");
    if (list && !is_c_locale(loc)) {
        /* "fr:zh_CN:en": the first the program speaks; English is spoken without a catalog, and
         * is what a list of none the program speaks gets (gettext then shows the messages as
         * written, whatever LANG says). */
        char entry[64];
        for (const char *p = list; *p;) {
            size_t len = strcspn(p, ":");
            if (len > 0 && len < sizeof entry) {
                memcpy(entry, p, len);
                entry[len] = '\0';
                if (i18n_parse(entry, &lang) == 0) return lang;
            }
            p += len;
            if (*p == ':') p++;
        }
        return I18N_EN;
    }
    if (loc && i18n_parse(loc, &lang) == 0) return lang;
    return I18N_EN;
}

static int codeset_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
}

/* A locale name's character set is UTF-8: "zh_CN.UTF-8", "en_US.utf8". */
static int names_utf8(const char *loc)
{
    const char *dot = loc ? strchr(loc, '.') : NULL;
    if (!dot) return 0;
    size_t n = strcspn(dot + 1, "@");
    return (n == 5 && strncasecmp(dot + 1, "UTF-8", 5) == 0) || (n == 4 && strncasecmp(dot + 1, "utf8", 4) == 0);
}

/* This build's catalogs for the binary the build made, the installed ones for any other copy. */
static const char *default_localedir(void)
{
    static char dir[PATH_MAX];
    static const char build_bin[] = FWADVISOR_BUILD_BIN; /* empty: no build tree to prefer */
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0 && build_bin[0]) {
        exe[n] = '\0';
        if (strcmp(exe, build_bin) == 0) {
            snprintf(dir, sizeof dir, "%s/locale", FWADVISOR_BUILD_DIR);
            return dir;
        }
    }
    return FWADVISOR_LOCALE_DIR;
}

/* The C locale's character set: ASCII, which names no terminal's own. */
static int codeset_ascii(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcmp(cs, "ANSI_X3.4-1968") == 0 || strcasecmp(cs, "ASCII") == 0);
}

/* The UTF-8 character set the environment names (LC_ALL, LC_CTYPE or LANG: "zh_CN.UTF-8") when
 * that locale is not installed, or, when `force` (--lang zh) and the locale names no character
 * set of its own (C, POSIX, unset), the C.UTF-8 locale's. 0 when the character set is UTF-8 now;
 * a terminal of another character set (GB18030, ISO-8859-1) is left as it is, -1. */
static int utf8_ctype(int force)
{
    if (codeset_utf8()) return 0;
    const char *ctype = env_nonempty("LC_ALL");
    if (!ctype) ctype = env_nonempty("LC_CTYPE");
    if (!ctype) ctype = env_nonempty("LANG");
    if (!names_utf8(ctype) && !(force && codeset_ascii() && (!ctype || is_c_locale(ctype)))) return -1;
    if (!setlocale(LC_CTYPE, "C.UTF-8") || !codeset_utf8()) return -1;
    return 0;
}

/* Chinese on this terminal: a UTF-8 character set (C.UTF-8's where the zh_CN locale itself is
 * not installed, or where --lang asked for Chinese under the C locale) and a messages locale
 * gettext reads LANGUAGE under. */
static int chinese_locale(int asked)
{
    if (utf8_ctype(asked) != 0) return -1;
    /* gettext reads LANGUAGE only when the messages locale is not C. */
    const char *msgs = setlocale(LC_MESSAGES, NULL);
    if (is_c_locale(msgs) && !setlocale(LC_MESSAGES, "C.UTF-8")) return -1;
    return 0;
}

enum i18n_lang i18n_init(const char *flag, const char *localedir)
{
    /* Called again: from the caller's LANGUAGE, unless something else has set it since. */
    if (caller_language_saved) {
        const char *now = getenv("LANGUAGE");
        if (now && strcmp(now, "zh_CN") == 0) {
            if (caller_language_set) setenv("LANGUAGE", caller_language, 1);
            else unsetenv("LANGUAGE");
        }
        caller_language_saved = 0;
    }
    enum i18n_lang want = I18N_EN;
    int asked = flag && i18n_parse(flag, &want) == 0;
    if (!asked) want = i18n_from_env();
    current = I18N_EN;
    if (want == I18N_ZH) {
        const char *dir = localedir ? localedir : default_localedir();
        char mo[PATH_MAX + 64];
        snprintf(mo, sizeof mo, "%s/zh_CN/LC_MESSAGES/" I18N_DOMAIN ".mo", dir);
        if (access(mo, R_OK) == 0 && chinese_locale(asked) == 0) {
            /* The catalog by name, whatever else LANGUAGE lists or the locale is called; the
             * caller's value is kept for the programs the probes start. */
            if (!caller_language_saved) {
                const char *was = getenv("LANGUAGE");
                caller_language_set = was != NULL;
                snprintf(caller_language, sizeof caller_language, "%s", was ? was : "");
                caller_language_saved = 1;
            }
            setenv("LANGUAGE", "zh_CN", 1);
            bindtextdomain(I18N_DOMAIN, dir);
            bind_textdomain_codeset(I18N_DOMAIN, "UTF-8");
            textdomain(I18N_DOMAIN);
            current = I18N_ZH;
            return current;
        }
    }
    /* English throughout, the C library's own messages (strerror) included; a UTF-8 terminal
     * whose locale is not installed keeps its character set. */
    utf8_ctype(0);
    setlocale(LC_MESSAGES, "C");
    return current;
}

enum i18n_lang i18n_lang(void) { return current; }

int i18n_caller_language(const char **value)
{
    *value = caller_language_set ? caller_language : NULL;
    return caller_language_saved;
}

const char *i18n_tag(void) { return current == I18N_ZH ? "zh-CN" : "en"; }

const char *i18n_text(const char *msgid)
{
    if (current == I18N_EN || !msgid || !*msgid) return msgid;
    return dgettext(I18N_DOMAIN, msgid);
}

const char *i18n_ctext(const char *key, const char *msgid)
{
    if (current == I18N_EN) return msgid;
    const char *t = dgettext(I18N_DOMAIN, key);
    return t == key ? msgid : t;
}

/* --- formatting in the reader's language ---------------------------------------------------- */

enum arg_kind { ARG_INT, ARG_LONG, ARG_LLONG, ARG_SIZE, ARG_INTMAX, ARG_PTRDIFF, ARG_DOUBLE, ARG_STR, ARG_PTR };
union arg_value {
    long long i;
    double d;
    const char *s;
    const void *p;
};
#define MAX_ARGS 16

/* One conversion of a format: its argument and those of a * width or precision (indices, -1
 * none), what it looks like without them (flags, width, precision, length), and the kind of value
 * it takes. */
struct conv {
    const char *end;
    int arg, width_arg, prec_arg;
    char flags[8], length[4], c;
    int width, prec; /* -1: none */
    enum arg_kind kind;
};

/* A number in a format, with "n$" after it taken as a position: returns the position (1-based)
 * and moves *p past it, or 0 and leaves *p where it was. */
static int position(const char **p)
{
    const char *q = *p;
    int v = 0;
    while (*q >= '0' && *q <= '9' && v < 1000) v = v * 10 + (*q++ - '0');
    if (*q != '$' || v == 0) return 0;
    *p = q + 1;
    return v;
}

static int number(const char **p)
{
    int v = 0;
    while (**p >= '0' && **p <= '9') {
        if (v < 100000) v = v * 10 + (**p - '0');
        (*p)++;
    }
    return v;
}

/* Parses the conversion at p (just after '%'); *next counts the arguments taken in order. */
static int parse_conv(const char *p, int *next, struct conv *cv)
{
    memset(cv, 0, sizeof *cv);
    cv->arg = cv->width_arg = cv->prec_arg = cv->width = cv->prec = -1;
    int pos = position(&p);
    size_t nf = 0;
    while (*p && strchr("-+ #0", *p)) {
        if (nf + 1 < sizeof cv->flags) cv->flags[nf++] = *p;
        p++;
    }
    if (*p == '*') {
        p++;
        int wpos = position(&p);
        cv->width_arg = wpos ? wpos - 1 : (*next)++;
    } else if (*p >= '0' && *p <= '9') {
        cv->width = number(&p);
    }
    if (*p == '.') {
        p++;
        if (*p == '*') {
            p++;
            int ppos = position(&p);
            cv->prec_arg = ppos ? ppos - 1 : (*next)++;
        } else {
            cv->prec = number(&p);
        }
    }
    enum arg_kind len = ARG_INT;
    const char *l0 = p;
    if (p[0] == 'h') p += p[1] == 'h' ? 2 : 1;
    else if (p[0] == 'l' && p[1] == 'l') len = ARG_LLONG, p += 2;
    else if (p[0] == 'l') len = ARG_LONG, p++;
    else if (p[0] == 'z') len = ARG_SIZE, p++;
    else if (p[0] == 'j') len = ARG_INTMAX, p++;
    else if (p[0] == 't') len = ARG_PTRDIFF, p++;
    memcpy(cv->length, l0, (size_t)(p - l0));
    cv->c = *p;
    if (!*p) return -1;
    if (strchr("diuxXoc", *p)) cv->kind = *p == 'c' ? ARG_INT : len;
    else if (strchr("fFeEgGaA", *p)) cv->kind = ARG_DOUBLE;
    else if (*p == 's') cv->kind = ARG_STR;
    else if (*p == 'p') cv->kind = ARG_PTR;
    else return -1;
    cv->arg = pos ? pos - 1 : (*next)++;
    cv->end = p + 1;
    return cv->arg < MAX_ARGS && cv->width_arg < MAX_ARGS && cv->prec_arg < MAX_ARGS ? 0 : -1;
}

static void fetch(union arg_value *v, enum arg_kind kind, va_list *ap)
{
    switch (kind) {
    case ARG_INT: v->i = va_arg(*ap, int); break;
    case ARG_LONG: v->i = va_arg(*ap, long); break;
    case ARG_LLONG: v->i = va_arg(*ap, long long); break;
    case ARG_SIZE: v->i = (long long)va_arg(*ap, size_t); break;
    case ARG_INTMAX: v->i = (long long)va_arg(*ap, intmax_t); break;
    case ARG_PTRDIFF: v->i = (long long)va_arg(*ap, ptrdiff_t); break;
    case ARG_DOUBLE: v->d = va_arg(*ap, double); break;
    case ARG_STR: v->s = va_arg(*ap, const char *); break;
    case ARG_PTR: v->p = va_arg(*ap, const void *); break;
    }
}

/* Cuts out back to the last whole UTF-8 character. */
static void utf8_cut(char *out)
{
    size_t len = strlen(out);
    size_t i = len;
    while (i > 0 && ((unsigned char)out[i - 1] & 0xC0) == 0x80) i--;
    if (i == 0) return;
    unsigned char lead = (unsigned char)out[i - 1];
    size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (len - (i - 1) < need) out[i - 1] = '\0';
}

int i18n_vformat(char *out, size_t n, const char *(*map)(const void *ctx, const char *s), const void *ctx,
                 const char *fmt, va_list ap)
{
    if (!n) return -1;
    const char *tr = _(fmt);
    if (current == I18N_EN) {
        int w = vsnprintf(out, n, fmt, ap);
        utf8_cut(out);
        return w;
    }
    /* The arguments, in the English format's order, which the translation refers to. */
    union arg_value v[MAX_ARGS];
    enum arg_kind kinds[MAX_ARGS];
    int nargs = 0, next = 0;
    out[0] = '\0';
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') continue;
        if (p[1] == '%') {
            p++;
            continue;
        }
        struct conv cv;
        int before = next;
        if (parse_conv(p + 1, &next, &cv)) return -1;
        if (cv.arg != before + (cv.width_arg >= 0) + (cv.prec_arg >= 0)) return -1; /* %n$ in English */
        if (cv.width_arg >= 0) kinds[nargs++] = ARG_INT;
        if (cv.prec_arg >= 0) kinds[nargs++] = ARG_INT;
        kinds[nargs++] = cv.kind;
        p = cv.end - 1;
    }
    va_list copy;
    va_copy(copy, ap);
    for (int i = 0; i < nargs; i++) fetch(&v[i], kinds[i], &copy);
    va_end(copy);
    for (int i = 0; i < nargs; i++)
        if (kinds[i] == ARG_STR && map && v[i].s) v[i].s = map(ctx, v[i].s);

    size_t used = 0;
    next = 0;
    for (const char *p = tr; *p && used + 1 < n;) {
        if (*p != '%' || p[1] == '%') {
            out[used++] = *p;
            p += *p == '%' ? 2 : 1;
            continue;
        }
        struct conv cv;
        if (parse_conv(p + 1, &next, &cv) || cv.arg >= nargs || cv.width_arg >= nargs || cv.prec_arg >= nargs ||
            kinds[cv.arg] != cv.kind || (cv.width_arg >= 0 && kinds[cv.width_arg] != ARG_INT) ||
            (cv.prec_arg >= 0 && kinds[cv.prec_arg] != ARG_INT)) {
            out[0] = '\0';
            return -1;
        }
        /* The conversion without its n$ parts, each * replaced by its argument. */
        char spec[48];
        int width = cv.width_arg >= 0 ? (int)v[cv.width_arg].i : cv.width;
        int prec = cv.prec_arg >= 0 ? (int)v[cv.prec_arg].i : cv.prec;
        size_t sl = (size_t)snprintf(spec, sizeof spec, "%%%s", cv.flags);
        if (width >= 0) sl += (size_t)snprintf(spec + sl, sizeof spec - sl, "%d", width);
        if (prec >= 0) sl += (size_t)snprintf(spec + sl, sizeof spec - sl, ".%d", prec);
        snprintf(spec + sl, sizeof spec - sl, "%s%c", cv.length, cv.c);
        const union arg_value *a = &v[cv.arg];
        int w;
        size_t room = n - used;
        switch (cv.kind) {
        case ARG_DOUBLE: w = snprintf(out + used, room, spec, a->d); break;
        case ARG_STR: w = snprintf(out + used, room, spec, a->s ? a->s : "(null)"); break;
        case ARG_PTR: w = snprintf(out + used, room, spec, a->p); break;
        case ARG_INT: w = snprintf(out + used, room, spec, (int)a->i); break;
        case ARG_LONG: w = snprintf(out + used, room, spec, (long)a->i); break;
        case ARG_SIZE: w = snprintf(out + used, room, spec, (size_t)a->i); break;
        case ARG_INTMAX: w = snprintf(out + used, room, spec, (intmax_t)a->i); break;
        case ARG_PTRDIFF: w = snprintf(out + used, room, spec, (ptrdiff_t)a->i); break;
        case ARG_LLONG: w = snprintf(out + used, room, spec, a->i); break;
        default: w = -1; break;
        }
        if (w < 0) {
            out[0] = '\0';
            return -1;
        }
        used = (size_t)w >= room ? n - 1 : used + (size_t)w;
        p = cv.end;
    }
    out[used] = '\0';
    utf8_cut(out);
    return (int)used;
}

int i18n_format(char *out, size_t n, const char *(*map)(const void *ctx, const char *s), const void *ctx,
                const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = i18n_vformat(out, n, map, ctx, fmt, ap);
    va_end(ap);
    return w;
}
