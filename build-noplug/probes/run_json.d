build-noplug/probes/run_json.o: probes/run_json.c probes/probe.h
probes/probe.h:
