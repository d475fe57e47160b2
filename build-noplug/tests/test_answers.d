build-noplug/tests/test_answers.o: tests/test_answers.c \
 knowledge/answers.h knowledge/answer_keys.h
knowledge/answers.h:
knowledge/answer_keys.h:
