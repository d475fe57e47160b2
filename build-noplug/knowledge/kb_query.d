build-noplug/knowledge/kb_query.o: knowledge/kb_query.c \
 knowledge/kb_internal.h knowledge/kb.h knowledge/kb_tables.h \
 knowledge/answer_keys.h
knowledge/kb_internal.h:
knowledge/kb.h:
knowledge/kb_tables.h:
knowledge/answer_keys.h:
