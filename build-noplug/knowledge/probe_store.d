build-noplug/knowledge/probe_store.o: knowledge/probe_store.c \
 knowledge/probe_store.h knowledge/kb.h knowledge/kb_internal.h \
 knowledge/kb_tables.h
knowledge/probe_store.h:
knowledge/kb.h:
knowledge/kb_internal.h:
knowledge/kb_tables.h:
