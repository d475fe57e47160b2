# Writes the index of every answer key (enum ans_index) from the rows of the ans_keys table in
# knowledge/answer_keys.c, so that a new key is its row alone: {"name", ANS_TYPE, ...} becomes
# ANS_NAME, in the table's order. Run by the Makefile into the build folder.
BEGIN { n = 0 }
/^const struct ans_key ans_keys\[\] = \{/ { intable = 1; next }
intable && /^\};/ { intable = 0 }
intable && match($0, /^[ \t]*\{"[a-z0-9_]+", ANS_/) {
    name = substr($0, RSTART, RLENGTH)
    sub(/^[ \t]*\{"/, "", name)
    sub(/", ANS_$/, "", name)
    keys[n++] = toupper(name)
}
END {
    if (n == 0) { print "answer-key-ids: no rows found in the ans_keys table" > "/dev/stderr"; exit 1 }
    print "/* The index of each answer key in ans_keys (knowledge/answer_keys.c), in its order. Written"
    print " * by scripts/answer-key-ids.awk from the table's rows; not to be edited. */"
    print "#ifndef FWADVISOR_ANSWER_KEY_IDS_H"
    print "#define FWADVISOR_ANSWER_KEY_IDS_H"
    print "enum ans_index {"
    for (i = 0; i < n; i++) printf "    ANS_%s,\n", keys[i]
    print "    ANS_KEY_COUNT"
    print "};"
    print "#endif"
}
