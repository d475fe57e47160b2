build-noplug/knowledge/rules.o: knowledge/rules.c knowledge/rules.h \
 knowledge/answer_keys.h
knowledge/rules.h:
knowledge/answer_keys.h:
