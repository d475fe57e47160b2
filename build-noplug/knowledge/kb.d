build-noplug/knowledge/kb.o: knowledge/kb.c knowledge/kb_internal.h \
 knowledge/kb.h knowledge/kb_tables.h
knowledge/kb_internal.h:
knowledge/kb.h:
knowledge/kb_tables.h:
