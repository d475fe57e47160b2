build-noplug/knowledge/kb_io.o: knowledge/kb_io.c knowledge/kb_internal.h \
 knowledge/kb.h knowledge/kb_tables.h knowledge/json_doc.h \
 knowledge/rules.h
knowledge/kb_internal.h:
knowledge/kb.h:
knowledge/kb_tables.h:
knowledge/json_doc.h:
knowledge/rules.h:
