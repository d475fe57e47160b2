build-noplug/knowledge/json_doc.o: knowledge/json_doc.c \
 knowledge/json_doc.h
knowledge/json_doc.h:
