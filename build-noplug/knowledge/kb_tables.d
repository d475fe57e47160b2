build-noplug/knowledge/kb_tables.o: knowledge/kb_tables.c \
 knowledge/kb_tables.h
knowledge/kb_tables.h:
