build-noplug/probes/advisor_hw.o: probes/advisor_hw.c probes/advisor_hw.h \
 knowledge/advisor.h knowledge/answers.h knowledge/answer_keys.h \
 knowledge/kb.h knowledge/probe_store.h probes/quick.h
probes/advisor_hw.h:
knowledge/advisor.h:
knowledge/answers.h:
knowledge/answer_keys.h:
knowledge/kb.h:
knowledge/probe_store.h:
probes/quick.h:
