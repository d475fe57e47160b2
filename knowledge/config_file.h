/* config_file: a team's defaults in one small text file, read by `fwadvisor recommend`:
 * $XDG_CONFIG_HOME/fwadvisor/config (an absolute XDG_CONFIG_HOME only, as the XDG spec has it),
 * else ~/.config/fwadvisor/config, or the file --config names.
 *
 *     # our cluster
 *     [answers]
 *     hardware = nvidia
 *     team = pytorch, jax
 *     [prices]
 *     provider = ourcloud
 *     h100-sxm = 2.5
 *     [site]
 *     partition = gpu
 *     account = ml-team
 *
 * Lines are `key = value`, `[section]`, blank, or comments (`#` to the end of the line; no value
 * needs one). [answers] takes every answer key, each value checked as `--set key=value` checks
 * it; [prices] an accelerator's price per device-hour (a catalog id, checked once the catalog is
 * loaded: config_prices) and an optional provider for them all; [site] Slurm's partition and
 * account for job.sbatch. An unknown section or key, a key given twice, a bad value, a line over
 * CONFIG_LINE_MAX bytes, a NUL byte or bytes that are not UTF-8 are refused with one line naming
 * the file and the line. */
#ifndef FWADVISOR_CONFIG_FILE_H
#define FWADVISOR_CONFIG_FILE_H

#include <stddef.h>

#include "knowledge/answers.h"
#include "knowledge/compare.h"
#include "knowledge/launch_files.h"

#define CONFIG_MAX_BYTES (1u << 20)
#define CONFIG_LINE_MAX 1024 /* bytes of a line, its newline (and a \r before it) not counted */
#define CONFIG_MAX_PRICES 64

struct config_file {
    char *path;                       /* owned: the name messages use */
    char *text;                       /* owned: the file's lines, cut in place; the prices point into it */
    struct answers answers;           /* [answers]: the keys given, as given (no defaults) */
    int answer_line[ANS_KEY_COUNT];   /* the line each key came from, 0 when not given */
    int nprices;
    struct {
        const char *accelerator, *price;
        int line;
    } prices[CONFIG_MAX_PRICES];
    const char *provider;             /* [prices] provider, or NULL */
    int provider_line;
    struct launch_site site;          /* [site]: "" where not given */
    int partition_line, account_line;
};

/* The default file's path: $XDG_CONFIG_HOME/fwadvisor/config when XDG_CONFIG_HOME is absolute,
 * else $HOME/.config/fwadvisor/config. 0, or -1 when neither is set (then there is no default
 * file) or the path does not fit in n. */
int config_default_path(char *out, size_t n);

enum config_status {
    CONFIG_OK = 0,     /* read and parsed: *out is set */
    CONFIG_NONE = 1,   /* the default file does not exist: *out is NULL, not an error */
    CONFIG_BAD = -1,   /* unreadable or invalid: one line in err */
};

/* Reads and parses path. is_default: a file that does not exist (nor its folder) is
 * CONFIG_NONE; a file --config names must exist. Free *out with config_free. */
int config_load(const char *path, int is_default, struct config_file **out, char *err, size_t errsz);
/* Parses text[0..len), named path in messages. 0 with *out set, or -1 with one line in err. */
int config_parse(const char *text, size_t len, const char *path, struct config_file **out, char *err, size_t errsz);
void config_free(struct config_file *c);

/* The [prices] rows appended to out with from PRICE_CONFIG, each checked as a --prices file's
 * row is (a catalog accelerator, a price above 0). 0, or -1 with one line in err naming the file
 * and the row's line. */
int config_prices(const struct config_file *c, const struct adv_kb *akb, struct compare_prices *out, char *err,
                  size_t errsz);

#endif
