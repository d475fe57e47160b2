/* recommend --compare-hardware and --sweep: the variants' tables in text or JSON (cli/cmd_compare.c). */
#ifndef FWADVISOR_CMD_COMPARE_H
#define FWADVISOR_CMD_COMPARE_H

#include "knowledge/compare.h"
#include "knowledge/config_file.h"

/* The prices of the knowledge base, of the config file's [prices] (config NULL: none) and of
 * --prices FILE (NULL: none) into out: EXIT_OK, or the exit status with the line printed (3 for
 * a bad file or config row). */
int cli_compare_prices(kb *k, const struct adv_kb *akb, const char *file, const struct config_file *config,
                       struct compare_prices *out);

/* The comparison or the sweep (sweeps: the --sweep specs, nsweeps 0 for the comparison), printed
 * as text or JSON (json) and, when html is given, as a page (knowledge/report_html.h; "-" on
 * standard output instead of the text): EXIT_OK or the exit status with the line printed. */
int cli_compare_print(const struct adv_kb *akb, const struct answers *answers, const struct adv_hw *hw,
                      const struct compare_prices *prices, const char *const *sweeps, int nsweeps, int json, const char *html,
                      int bold);

#endif
