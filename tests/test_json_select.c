/* json_select, the filter behind every command's --fields: paths into objects, through lists,
 * merged where they share a start, and each refusal with the message it gives. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_doc.h"

static const char doc_text[] =
    "{\"plan\":{\"time\":{\"days\":2.5,\"hours\":60},\"memory\":{\"gb\":71}},"
    "\"ranking\":[{\"framework\":\"pytorch\",\"score\":54.6,\"lost_by\":\"none\"},{\"framework\":\"jax\",\"score\":35.1}],"
    "\"losses\":[4.2,3.9],\"empty\":[],\"version\":1}";

/* The selection printed unformatted, or the error line prefixed with "ERR ". */
static char *select_text(const char *fields)
{
    cJSON *doc = cJSON_Parse(doc_text), *out = NULL;
    cr_assert_not_null(doc);
    char err[512], *text;
    if (json_select(doc, fields, &out, err, sizeof err) == 0) {
        cr_assert_not_null(out);
        text = cJSON_PrintUnformatted(out);
    } else {
        cr_assert_null(out);
        cr_assert(err[0], "an error without a message for '%s'", fields);
        text = malloc(strlen(err) + 5);
        strcpy(text, "ERR ");
        strcat(text, err);
    }
    cJSON_Delete(out);
    cJSON_Delete(doc);
    return text;
}

#define EXPECT_SELECT(fields, want)                                                                                   \
    do {                                                                                                              \
        char *got_ = select_text(fields);                                                                             \
        cr_expect_str_eq(got_, want, "--fields %s", fields);                                                          \
        free(got_);                                                                                                   \
    } while (0)

Test(json_select, a_path_into_objects_keeps_only_it)
{
    EXPECT_SELECT("plan.time.days", "{\"plan\":{\"time\":{\"days\":2.5}}}");
    EXPECT_SELECT("version", "{\"version\":1}");
    /* the last name whole below it */
    EXPECT_SELECT("plan.time", "{\"plan\":{\"time\":{\"days\":2.5,\"hours\":60}}}");
}

Test(json_select, paths_sharing_a_start_merge_in_the_order_given)
{
    EXPECT_SELECT("plan.memory.gb,plan.time.hours,version",
                  "{\"plan\":{\"memory\":{\"gb\":71},\"time\":{\"hours\":60}},\"version\":1}");
    /* a path and one inside it: the whole one stands, whichever comes first */
    EXPECT_SELECT("plan.time.days,plan.time", "{\"plan\":{\"time\":{\"days\":2.5,\"hours\":60}}}");
    EXPECT_SELECT("plan.time,plan.time.days", "{\"plan\":{\"time\":{\"days\":2.5,\"hours\":60}}}");
}

Test(json_select, a_list_is_gone_through_element_by_element)
{
    EXPECT_SELECT("ranking.framework", "{\"ranking\":[{\"framework\":\"pytorch\"},{\"framework\":\"jax\"}]}");
    EXPECT_SELECT("ranking.framework,ranking.score",
                  "{\"ranking\":[{\"framework\":\"pytorch\",\"score\":54.6},{\"framework\":\"jax\",\"score\":35.1}]}");
    /* a member only some elements have: the others are left empty */
    EXPECT_SELECT("ranking.lost_by", "{\"ranking\":[{\"lost_by\":\"none\"},{}]}");
    EXPECT_SELECT("losses", "{\"losses\":[4.2,3.9]}");
    EXPECT_SELECT("empty.anything", "{\"empty\":[]}");
}

Test(json_select, a_document_that_is_a_list)
{
    cJSON *doc = cJSON_Parse("[{\"id\":\"a\",\"n\":1},{\"id\":\"b\",\"n\":2}]"), *out = NULL;
    char err[256];
    cr_assert_eq(json_select(doc, "id", &out, err, sizeof err), 0, "%s", err);
    char *text = cJSON_PrintUnformatted(out);
    cr_expect_str_eq(text, "[{\"id\":\"a\"},{\"id\":\"b\"}]");
    free(text);
    cJSON_Delete(out);
    cr_expect_eq(json_select(doc, "name", &out, err, sizeof err), -1);
    cr_expect_str_eq(err, "no member 'name' in the document");
    cr_expect_eq(json_select(doc, "ID", &out, err, sizeof err), -1);
    cr_expect_str_eq(err, "no member 'ID' in the document (did you mean 'id'?)");
    cJSON_Delete(doc);
}

Test(json_select, each_refusal_names_where_and_what)
{
    EXPECT_SELECT("plan.tim", "ERR no member 'tim' in plan (did you mean 'time'?)");
    EXPECT_SELECT("plam", "ERR no member 'plam' in the document (did you mean 'plan'?)");
    EXPECT_SELECT("zzzzzzzz", "ERR no member 'zzzzzzzz' in the document");
    EXPECT_SELECT("ranking.framewrk", "ERR no member 'framewrk' in ranking (did you mean 'framework'?)");
    EXPECT_SELECT("plan.time.days.x", "ERR plan.time.days.x: plan.time.days is a number, with no 'x' in it");
    EXPECT_SELECT("version.x", "ERR version.x: version is a number, with no 'x' in it");
    EXPECT_SELECT("losses.x", "ERR losses.x: losses holds values, not members ('x' has none)");
    EXPECT_SELECT("plan..x", "ERR an empty name in the field 'plan..x'");
    EXPECT_SELECT("", "ERR an empty name in the field ''");
    EXPECT_SELECT("plan,", "ERR an empty name in the field ''");
    /* names compare exactly: a JSON member's case is part of it */
    EXPECT_SELECT("Plan", "ERR no member 'Plan' in the document (did you mean 'plan'?)");
    /* the second path fails: nothing of the first comes back */
    EXPECT_SELECT("version,plan.nope", "ERR no member 'nope' in plan");
}

Test(json_select, paths_deeper_or_longer_than_any_document_are_refused)
{
    EXPECT_SELECT("a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q",
                  "ERR the field 'a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q' is deeper or longer than any in the document");
    char longname[200];
    memset(longname, 'x', 199);
    longname[199] = '\0';
    char *got = select_text(longname);
    cr_expect(strstr(got, "is deeper or longer than any in the document") != NULL, "%s", got);
    free(got);
    /* sixteen names is the most: a path of sixteen is looked up (and missing here) */
    EXPECT_SELECT("plan.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p", "ERR no member 'b' in plan");
}

Test(json_select, a_value_that_is_not_a_container_has_nothing_to_choose)
{
    cJSON *doc = cJSON_CreateNumber(3), *out = NULL;
    char err[256];
    cr_expect_eq(json_select(doc, "x", &out, err, sizeof err), -1);
    cr_expect_str_eq(err, "the document is a number, with no members to choose");
    cJSON_Delete(doc);
}
