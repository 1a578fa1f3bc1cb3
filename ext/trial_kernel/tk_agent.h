#ifndef TK_AGENT_H
#define TK_AGENT_H
#include "tk_redeal.h"
static int tk_heuristic_choice(const TGame* g, const TState* s, uint64_t* rng) { int a[1024]; (void)rng; return tk_legal(g, s, a) ? a[0] : -1; }
static int tk_policy(const TGame* g, const TState* s, uint64_t* rng) { return tk_heuristic_choice(g, s, rng); }
#endif
