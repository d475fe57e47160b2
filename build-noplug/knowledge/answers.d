build-noplug/knowledge/answers.o: knowledge/answers.c knowledge/answers.h \
 knowledge/answer_keys.h knowledge/json_doc.h
knowledge/answers.h:
knowledge/answer_keys.h:
knowledge/json_doc.h:
