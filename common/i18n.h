/* i18n: the language of the program's own words. English is written in the code; Chinese comes
 * from the message catalog (po/zh_CN.po, built into LOCALE/zh_CN/LC_MESSAGES/fwadvisor.mo)
 * through GNU gettext. The language is `--lang en|zh`, else the environment's, read as gettext
 * reads it (LANGUAGE, then LC_ALL, LC_MESSAGES, LANG); a language without a catalog is English.
 * Chinese needs a UTF-8 terminal: it is chosen even where no zh_CN locale is installed (the
 * C.UTF-8 locale carries the character set), --lang zh under the C locale (which names no
 * character set) prints UTF-8, and a terminal of another character set (GB18030) stays English.
 * The C.UTF-8 fallback sets LANGUAGE for gettext; the programs the probes start do not inherit it
 * (probes/fw_isolation.c). 
 *
 * JSON, ids, answer keys and values, file formats and launch files never go through it: they are
 * English and the same in every language. */
#ifndef FWADVISOR_COMMON_I18N_H
#define FWADVISOR_COMMON_I18N_H

#include <stdarg.h>
#include <stddef.h>

#define I18N_DOMAIN "fwadvisor"

enum i18n_lang { I18N_EN, I18N_ZH };

/* A message of the program's own, in the chosen language (the English itself before i18n_init,
 * in English or when the catalog lacks it). */
#define _(s) i18n_text(s)
/* A message in a context, for one English word that reads two ways ("devices" counted, and as a
 * column's heading): the catalog holds it under ctx; both are string literals. */
#define C_(ctx, s) i18n_ctext(ctx "\004" s, s)
/* Marks a string for the catalog where it is defined (a table's cell) without translating it
 * there: the code that shows it calls _() on it. */
#define N_(s) s

/* "en" or "zh" (also "zh_CN", "zh-CN", "zh_CN.UTF-8", "en_US.UTF-8", ...) into *out: 0, or -1
 * for a language the program does not speak. */
int i18n_parse(const char *name, enum i18n_lang *out);

/* The language the environment asks for, by gettext's rules: when LANGUAGE is set (and the
 * locale is not C or POSIX), its first entry the program speaks, else English; without it, LC_ALL,
 * LC_MESSAGES, LANG, the first one set. */
enum i18n_lang i18n_from_env(void);

/* Sets the language: `flag` ("en" or "zh") when not NULL, else the environment's; catalogs from
 * `localedir` when not NULL, else this build's own (build/locale) for the binary the build made
 * and the installed folder for any other. Call after setlocale(LC_ALL, ""). Chinese falls back
 * to English, silently, when the terminal's character set is not UTF-8 or no catalog is found.
 * Returns the language chosen. */
enum i18n_lang i18n_init(const char *flag, const char *localedir);

enum i18n_lang i18n_lang(void);
/* 1 when i18n_init set LANGUAGE for the catalog, with *value the caller's own (NULL: it was
 * unset), which the programs the program starts get back; 0 when it left LANGUAGE alone. */
int i18n_caller_language(const char **value);
/* The language's tag for documents: "en" or "zh-CN" (HTML's lang attribute). */
const char *i18n_tag(void);
/* msgid in the chosen language. */
const char *i18n_text(const char *msgid) __attribute__((format_arg(1)));
/* msgid in the chosen language, looked up as key ("ctx\004msgid", as C_ makes it). */
const char *i18n_ctext(const char *key, const char *msgid) __attribute__((format_arg(2)));

/* The same arguments in two languages: formats fmt (an English printf format; no %n$) with the
 * arguments in the reader's language into out: fmt translated (the catalog's translation may
 * take them in another order with %n$), each %s argument passed through map(ctx, s) first (map
 * NULL: as it is), so that a name of outside data can take its own translation. In English it is
 * plain vsnprintf. The result is cut to whole UTF-8 characters. Supports the conversions
 * d i u x X o c s p f F e E g G a A with flags, width and precision (numbers or *) and the
 * lengths hh h l ll z j t; returns -1 (out "") on any other. */
int i18n_vformat(char *out, size_t n, const char *(*map)(const void *ctx, const char *s), const void *ctx,
                 const char *fmt, va_list ap);
int i18n_format(char *out, size_t n, const char *(*map)(const void *ctx, const char *s), const void *ctx,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
