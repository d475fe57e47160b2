build-noplug/tests/test_cli_recommend.o: tests/test_cli_recommend.c \
 tests/support.h
tests/support.h:
