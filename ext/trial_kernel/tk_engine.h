/* The compiled Trial of the Forest: the whole engine, one header (included by ext/trial.pyx).
 *
 *   tk_types.h   limits, codes, TGame (the pack compiled) and TState (a position)
 *   tk_core.h    hashing and history texts, card places, decks, card knowledge, the stack,
 *                belongings
 *   tk_pay.h     costs and conditions
 *   tk_fight.h   fights and dice
 *   tk_steps.h   the effect verbs, every step's legal actions and chance outcomes
 *   tk_apply.h   applying actions, automatic steps, settling, the turn order, history entries
 *   tk_api.h     the initial state, scoring, the heuristic, legal actions sorted
 *   tk_view.h    what a player sees: the observation hash and the information-state key
 *   tk_redeal.h  resample_hidden: the redeal of what a player cannot see
 *   tk_agent.h   the heuristic agent's rules (the playout policy)
 */
#ifndef TK_ENGINE_H
#define TK_ENGINE_H

#include <stddef.h>
#include "tk_api.h"
#include "tk_view.h"
#include "tk_redeal.h"
#include "tk_agent.h"

#endif
