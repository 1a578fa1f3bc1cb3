/* The heuristic agent's rules (agents.py) in C: the playout policy of the compiled ISMCTS.
 *
 * tk_heuristic_choice makes the choice agents.heuristic_agent makes at a decision, drawing its
 * tie-break (below(k) among the actions within 1e-9 of the best score) from rng; every score is
 * computed with the same floating-point operations in the same order as the Python (the dice
 * distributions in the reference dicts' insertion order, sums left to right), so the two choose
 * alike. tk_policy is the shared playout policy's slot: like PlayoutEvaluator.policy (a fresh
 * agent seeded with next(rng) >> 1 for every action), one draw from rng seeds the tie-breaks. */
#ifndef TK_AGENT_H
#define TK_AGENT_H

#include "tk_redeal.h"

#define FOOD_WEIGHT 0.3
#define CARD_WEIGHT 0.4
#define ITEM_WEIGHT 0.5
#define STORY_WEIGHT 0.1
#define FIGHT_THRESHOLD 0.5

/* agents.material */
TK_INLINE double material(const TGame* g, const TState* s, int p) {
    const TPlayer* me = &s->players[p];
    double m = (double)fame_total(g, s, p);
    m = m + FOOD_WEIGHT * (double)food_total(me);
    m = m + CARD_WEIGHT * (double)hand_size(g, s, p);
    m = m + ITEM_WEIGHT * (double)me->n_backpack;
    m = m + STORY_WEIGHT * (double)story_count(g, s, p);
    return m;
}

/* fights.win_chance over the precomputed dice sums (insertion order kept) */
TK_INLINE double win_chance(const TGame* g, int margin, int mine, int theirs) {
    if (mine > TK_MAX_DICE) mine = TK_MAX_DICE;
    if (theirs > TK_MAX_DICE) theirs = TK_MAX_DICE;
    const int* av = g->dsum_value + g->dsum_first[mine];
    const double* ap = g->dsum_prob + g->dsum_first[mine];
    const int* dv = g->dsum_value + g->dsum_first[theirs];
    const double* dp = g->dsum_prob + g->dsum_first[theirs];
    double total = 0.0;
    for (int i = 0; i < g->dsum_count[mine]; i++)
        for (int j = 0; j < g->dsum_count[theirs]; j++)
            if (margin + av[i] > dv[j]) total += ap[i] * dp[j];
    return total;
}

/* agents.best_card_strength over p's hand */
TK_INLINE int best_card_strength(const TGame* g, const TState* s, int p) {
    int strong[TK_MAX_CARDS], rest[TK_MAX_CARDS], ns = 0, nr = 0;
    uint8_t hand[TK_MAX_CARDS];
    int nh = zone_cards(g, s, Z_HAND, p, hand);
    for (int i = 0; i < nh; i++) {
        int c = hand[i];
        if (g->card_strength_discard[c]) strong[ns++] = g->card_strength_discard[c];
        else rest[nr++] = g->card_strength_facedown[c];
    }
    for (int i = 1; i < ns; i++) { int x = strong[i], j = i - 1; while (j >= 0 && strong[j] < x) { strong[j + 1] = strong[j]; j--; } strong[j + 1] = x; }
    int total = 0;
    for (int i = 0; i < ns; i++) { if (i < 2) total += strong[i]; else rest[nr++] = strong[i]; }
    for (int i = 1; i < nr; i++) { int x = rest[i], j = i - 1; while (j >= 0 && rest[j] < x) { rest[j + 1] = rest[j]; j--; } rest[j + 1] = x; }
    for (int i = 0; i < nr && i < 2; i++) total += rest[i];
    return total;
}

/* agents.fight_chance: p's chance against strength + dice fighting with weapon (TK_NONE: none) */
TK_INLINE double fight_chance(const TGame* g, const TState* s, int p, int strength, int dice, int weapon) {
    int fixed = base_strength(g, s, p) + (weapon != TK_NONE ? g->kind_strength[weapon] : 0);
    fixed += best_card_strength(g, s, p);
    double chance = win_chance(g, fixed - strength, adventurer_dice(g, s, p, weapon), dice);
    if (weapon != TK_NONE && g->kind_bow[weapon]) {
        double instant = 0.0;
        for (int j = 0; j < g->n_dfaces; j++) if (g->dface_win[j]) instant += g->dface_prob[j];
        chance = instant + (1 - instant) * chance;
    }
    return chance;
}

/* agents.foe_chance: the best chance over p's weapons against a card's foe (a fight node) */
TK_INLINE double foe_chance(const TGame* g, const TState* s, int p, int node) {
    const TNode* foe = &g->nodes[node];
    int dice = foe_dice(g, s, p, foe->b), strength = foe->a;
    double best = fight_chance(g, s, p, strength, dice, TK_NONE);
    uint64_t m = weapon_kinds(g, s, p);
    for (int k = 0; k < g->n_kinds; k++) {
        if (!((m >> k) & 1)) continue;
        double c = fight_chance(g, s, p, strength, dice, k);
        if (c > best) best = c;
    }
    return best;
}

TK_INLINE double encounter_priority(const TGame* g, const TState* s, int p, int card) {
    double fame = (double)g->card_fame[card];
    if (g->card_foe[card] == NO_NODE) return 8.5 + 0.1 * fame;
    double chance = foe_chance(g, s, p, g->card_foe[card]);
    return (chance >= FIGHT_THRESHOLD ? 8.5 : 2.0) + 0.1 * fame;
}

/* agents._turn_priority */
TK_INLINE double turn_priority(const TGame* g, const TState* s, int p, int a) {
    if (a >= g->A_CARD && a < g->A_CARD + g->n_cards) {
        int c = a - g->A_CARD;
        if (g->card_foe[c] != NO_NODE && foe_chance(g, s, p, g->card_foe[c]) < FIGHT_THRESHOLD) return 1.5;
        return 10.0 + (double)g->card_fame[c];
    }
    if (a >= g->A_PAW && a < g->A_OPTION) {
        int target = (a - g->A_PAW) / 2, strong = (a - g->A_PAW) % 2;
        double base;
        if (target >= 1 && target <= 3) base = encounter_priority(g, s, p, s->row[target - 1]);
        else base = target == 0 ? 8.0 : target == 4 ? 3.0 : target == 5 ? 6.0 : 2.0;
        return base - 0.5 * strong;
    }
    if (a == A_MOVE) return 5.0;
    if (a == A_END_TURN) return 0.0;
    if (a >= g->A_DROP) return -1.0;
    return 1.0;
}

/* agents._space_priority */
TK_INLINE double space_priority(const TGame* g, const TState* s, int p, int a) {
    if (a < g->A_SPACE || a >= g->A_CARD) return 0.0;
    int space = a - g->A_SPACE;
    const TPlayer* me = &s->players[p];
    if (!me->paws && !me->strong_paw) return g->space_camp_prefix[space] ? 4.0 : 1.0;
    if (g->space_slot[space] >= 0 && own_token_on(s, p, space)) return 0.5;
    return g->space_pref[space];
}

/* agents._fight_margin */
TK_INLINE int fight_margin(const TGame* g, const TState* s, int side) {
    int t[2];
    fight_totals(g, s, 0, t);
    int mine = side == 0 ? t[0] : t[1], theirs = side == 0 ? t[1] : t[0];
    for (int i = 0; i < s->fight.n_down[side]; i++) mine += g->card_strength_facedown[s->fight.down[side][i]];
    theirs += (int)(1.5 * s->fight.n_down[1 - side] + 0.5);
    return theirs - mine + (side == 0 ? 1 : 0);
}

/* agents.card_plan: the cheapest (fewest cards, then least fame) way to add need strength with at
 * most discards strength cards discarded and face_down cards face down, the hand in its order;
 * the chosen cards get flags in want_discard / want_down; 0 when no plan reaches need. */
static int card_plan(const TGame* g, const uint8_t* hand, int n, int need, int discards,
                     int face_down, uint8_t* want_discard, uint8_t* want_down) {
    uint8_t strong[TK_MAX_CARDS];
    int ns = 0, found = 0, best_k = 0;
    double best_fame = 0.0;
    for (int i = 0; i < n; i++) if (g->card_strength_discard[hand[i]]) strong[ns++] = hand[i];
    int dis[2] = {-1, -1}, down[2] = {-1, -1};
    int bdis[2] = {-1, -1}, bdown[2] = {-1, -1};
    for (int k = 0; k <= discards && k <= 2; k++) {
        /* combinations(strong, k) in itertools' order */
        for (int a = 0; a < (k >= 1 ? ns : 1); a++) {
            for (int b = (k >= 2 ? a + 1 : 0); b < (k >= 2 ? ns : 1); b++) {
                dis[0] = k >= 1 ? strong[a] : -1;
                dis[1] = k >= 2 ? strong[b] : -1;
                uint8_t rest[TK_MAX_CARDS];
                int nr = 0, got = 0;
                for (int i = 0; i < n; i++) if (hand[i] != dis[0] && hand[i] != dis[1]) rest[nr++] = hand[i];
                for (int i = 0; i < k; i++) got += g->card_strength_discard[dis[i]];
                for (int j = 0; j <= face_down && j <= 2; j++) {
                    for (int x = 0; x < (j >= 1 ? nr : 1); x++) {
                        for (int y = (j >= 2 ? x + 1 : 0); y < (j >= 2 ? nr : 1); y++) {
                            down[0] = j >= 1 ? rest[x] : -1;
                            down[1] = j >= 2 ? rest[y] : -1;
                            int total = got;
                            for (int i = 0; i < j; i++) total += g->card_strength_facedown[down[i]];
                            if (total < need) continue;
                            double fame = 0.0;
                            for (int i = 0; i < k; i++) fame += (double)g->card_fame[dis[i]];
                            for (int i = 0; i < j; i++) fame += (double)g->card_fame[down[i]];
                            if (!found || k + j < best_k || (k + j == best_k && fame < best_fame)) {
                                found = 1;
                                best_k = k + j;
                                best_fame = fame;
                                bdis[0] = dis[0]; bdis[1] = dis[1];
                                bdown[0] = down[0]; bdown[1] = down[1];
                            }
                        }
                    }
                }
            }
        }
    }
    if (!found) return 0;
    for (int i = 0; i < 2; i++) {
        if (bdis[i] >= 0) want_discard[bdis[i]] = 1;
        if (bdown[i] >= 0) want_down[bdown[i]] = 1;
    }
    return 1;
}

/* agents._fight_step_choice */
static void fight_step_scores(const TGame* g, const TState* s, const TFrame* f, const int* legal,
                              int n, double* scores) {
    int side = f->v[0], p = f->player;
    int need = fight_margin(g, s, side);
    uint8_t hand[TK_MAX_CARDS], want_discard[TK_MAX_CARDS], want_down[TK_MAX_CARDS];
    memset(want_discard, 0, sizeof want_discard);
    memset(want_down, 0, sizeof want_down);
    int nh = zone_list(g, s, Z_HAND, p, hand);
    const uint8_t* wanted = want_down;
    if (f->kind == K_FIGHT_DISCARD) {
        int token = 0;
        for (int i = 0; i < n; i++) token |= legal[i] == A_TOKEN;
        if (need > 0 && token) {
            for (int i = 0; i < n; i++) scores[i] = legal[i] == A_TOKEN ? 1.0 : 0.0;
            return;
        }
        if (need > 0) card_plan(g, hand, nh, need, 2 - f->v[1], 2, want_discard, want_down);
        wanted = want_discard;
    } else {
        int room = 2 - s->fight.n_down[side];
        if (need > 0) card_plan(g, hand, nh, need, 0, room, want_discard, want_down);
    }
    for (int i = 0; i < n; i++) {
        int a = legal[i];
        int is_card = a >= g->A_CARD && a < g->A_CARD + g->n_cards;
        scores[i] = is_card && wanted[a - g->A_CARD] ? 1.0 : a == A_DONE ? 0.5 : 0.0;
    }
}

/* agents._weapon_choice */
static void weapon_scores(const TGame* g, const TState* s, int p, const int* legal, int n, double* scores) {
    const TFight* f = &s->fight;
    int strength, dice;
    if (f->defender == TK_NONE) {
        strength = f->foe_strength;
        dice = foe_dice(g, s, p, f->foe_dice);
    } else {
        int other = f->attacker == p ? f->defender : f->attacker;
        strength = base_strength(g, s, other);
        dice = adventurer_dice(g, s, other, TK_NONE);
    }
    for (int i = 0; i < n; i++) {
        int weapon = legal[i] == A_DONE ? TK_NONE : legal[i] - g->A_ITEM;
        scores[i] = fight_chance(g, s, p, strength, dice, weapon);
    }
}

/* The heuristic agent's action at a decision node, its tie-break drawn from rng (-1: none). */
static int tk_heuristic_choice(const TGame* g, const TState* s, uint64_t* rng) {
    int legal[1024];
    double scores[1024];
    int n = tk_legal(g, s, legal);
    if (n <= 0) return -1;
    if (n == 1) return legal[0];
    const TFrame* f = &s->stack[s->depth - 1];
    int p = f->player;
    if (f->kind == K_TURN) {
        for (int i = 0; i < n; i++) scores[i] = turn_priority(g, s, p, legal[i]);
    } else if (f->kind == K_MOVE) {
        for (int i = 0; i < n; i++) scores[i] = space_priority(g, s, p, legal[i]);
    } else if (f->kind == K_FIGHT_DISCARD || f->kind == K_FIGHT_CARDS) {
        fight_step_scores(g, s, f, legal, n, scores);
    } else if (f->kind == K_FIGHT_WEAPON) {
        weapon_scores(g, s, p, legal, n, scores);
    } else if (f->kind == K_DRAW_OFFER) {
        for (int i = 0; i < n; i++) scores[i] = legal[i] == A_YES ? 1.0 : 0.0;
    } else {
        TState probe;
        for (int i = 0; i < n; i++) {
            memcpy(&probe, s, sizeof probe);
            apply_action(g, &probe, legal[i], NULL);
            scores[i] = material(g, &probe, p);
        }
    }
    double best = scores[0];
    for (int i = 1; i < n; i++) if (scores[i] > best) best = scores[i];
    int top[1024], nt = 0;
    for (int i = 0; i < n; i++) if (scores[i] >= best - 1e-9) top[nt++] = legal[i];
    return top[rng_below(rng, nt)];
}

/* playout_action's slot: a fresh agent seeded with next(rng) >> 1 (PlayoutEvaluator.policy). */
static int tk_policy(const TGame* g, const TState* s, uint64_t* rng) {
    uint64_t inner = rng_next(rng) >> 1;
    return tk_heuristic_choice(g, s, &inner);
}

#endif
