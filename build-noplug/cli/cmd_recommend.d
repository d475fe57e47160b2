build-noplug/cli/cmd_recommend.o: cli/cmd_recommend.c cli/cli.h \
 tui/text.h knowledge/advisor.h knowledge/answers.h \
 knowledge/answer_keys.h knowledge/kb.h knowledge/presets.h \
 probes/advisor_hw.h
cli/cli.h:
tui/text.h:
knowledge/advisor.h:
knowledge/answers.h:
knowledge/answer_keys.h:
knowledge/kb.h:
knowledge/presets.h:
probes/advisor_hw.h:
