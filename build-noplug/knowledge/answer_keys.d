build-noplug/knowledge/answer_keys.o: knowledge/answer_keys.c \
 knowledge/answer_keys.h
knowledge/answer_keys.h:
