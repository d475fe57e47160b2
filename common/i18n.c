/* i18n: the chosen language and the catalog behind _() (common/i18n.h). */
#include "common/i18n.h"

#include <langinfo.h>
#include <libintl.h>
#include <limits.h>
#include <locale.h>
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
