// sim_types.h - a CPU simulation's own pipe enum, as such headers declare it
#ifndef SIM_TYPES_H
#define SIM_TYPES_H
enum pipe_t { PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_FIX_EXTRA };
enum event_t { EVENT_ID0, EVENT_ID1 };
void pipe_barrier(pipe_t p);
void set_flag(pipe_t src, pipe_t dst, event_t id);
void wait_flag(pipe_t src, pipe_t dst, event_t id);
unsigned long get_sys_cnt();
#endif
