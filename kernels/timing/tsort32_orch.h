// tsort32_orch.h - the TSORT32 orchestration's two entry points, as the
// simpler runtime looks them up (tsort32_orch.cpp). Host code only.
#ifndef TSORT32_ORCH_H
#define TSORT32_ORCH_H

#include "pto_orchestration_api.h"

// func_id of the TSORT32 kernel entry in rt_submit_aiv_task
#define FUNC_TSORT32 0

extern "C" {
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs &orch_args);
void aicpu_orchestration_entry(const ChipTaskArgs &orch_args);
}

#endif
