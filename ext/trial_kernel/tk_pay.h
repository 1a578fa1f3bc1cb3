/* Paying costs and checking conditions (payments.py, conditions.py).
 *
 * A cost is a range of terms; its units are its spend terms, a "per: item" term once per item
 * carried when the payment starts (TFrame of a pay step: the cost, that count, the next unit). */
#ifndef TK_PAY_H
#define TK_PAY_H

#include "tk_core.h"

#define TK_UNITS 64

/* payments.units_of: the cost's spend terms as units (term indices); how many. */
TK_INLINE int units_of(const TGame* g, int cost, int reps, uint16_t* out) {
    int n = 0;
    if (cost == NO_NODE) return 0;
    const TCost* c = &g->costs[cost];
    for (int i = 0; i < c->count; i++) {
        const TTerm* t = &g->terms[c->first + i];
        if (t->have) continue;
        int times = t->per_item ? reps : 1;
        for (int k = 0; k < times && n < TK_UNITS; k++) out[n++] = (uint16_t)(c->first + i);
    }
    return n;
}

TK_INLINE int cost_has_per_item(const TGame* g, int cost) {
    if (cost == NO_NODE) return 0;
    for (int i = 0; i < g->costs[cost].count; i++) if (g->terms[g->costs[cost].first + i].per_item) return 1;
    return 0;
}

TK_INLINE int food_matches(uint64_t alts, int f) {
    return ((alts >> f) & 1) || (alts & ALT_FOOD_ANY) || (f == F_TEA && (alts & ALT_RAW));
}

TK_INLINE int item_matches(const TGame* g, uint64_t alts, int kind) {
    return (alts & ALT_ITEM_ANY) || ((alts & ALT_AMPHIBIAN) && g->kind_amphibian[kind]) ||
           ((alts >> (ALT_KIND0 + kind)) & 1);
}

TK_INLINE int foodlike(uint64_t alts) { return (alts & (ALT_FOODS | ALT_FOOD_ANY)) != 0; }

typedef struct {
    int food[N_FOODS];
    int kinds[TK_MAX_KINDS];
    int n_kinds;
} TPurse;

TK_INLINE void purse_of(const TGame* g, const TPlayer* me, TPurse* w) {
    for (int f = 0; f < N_FOODS; f++) w->food[f] = me->food[f];
    memset(w->kinds, 0, sizeof w->kinds);
    for (int i = 0; i < me->n_backpack; i++) w->kinds[me->backpack[i]]++;
    w->n_kinds = g->n_kinds;
}

/* payments.can_pay's backtracking search (the same answer: whether every unit can be paid) */
static int pay_search(const TGame* g, TPurse* w, const uint16_t* units, int n, int i, int hand,
                      int card_worth) {
    if (i >= n) return 1;
    uint64_t alts = g->terms[units[i]].alts;
    for (int f = 0; f < N_FOODS; f++) {
        if (w->food[f] > 0 && food_matches(alts, f)) {
            w->food[f]--;
            int ok = pay_search(g, w, units, n, i + 1, hand, card_worth);
            w->food[f]++;
            if (ok) return 1;
        }
    }
    if (alts & ~(ALT_FOODS | ALT_FOOD_ANY | ALT_CARD)) {
        for (int k = 0; k < w->n_kinds; k++) {
            if (w->kinds[k] > 0 && item_matches(g, alts, k)) {
                w->kinds[k]--;
                int ok = pay_search(g, w, units, n, i + 1, hand, card_worth);
                w->kinds[k]++;
                if (ok) return 1;
            }
        }
    }
    int fl = foodlike(alts);
    if (hand > 0 && ((alts & ALT_CARD) || (card_worth && fl))) {
        int skip = 1 + (card_worth > 1 && fl ? card_worth - 1 : 0);
        int next = i + skip < n ? i + skip : n;
        return pay_search(g, w, units, n, next, hand - 1, card_worth);
    }
    return 0;
}

TK_INLINE int can_pay_units(const TGame* g, const TState* s, int p, const uint16_t* units, int n,
                            int card_worth) {
    if (n == 0) return 1;
    TPurse w;
    purse_of(g, &s->players[p], &w);
    return pay_search(g, &w, units, n, 0, hand_size(g, s, p), card_worth);
}

TK_INLINE int can_pay_cost(const TGame* g, const TState* s, int p, int cost) {
    uint16_t units[TK_UNITS];
    int n = units_of(g, cost, s->players[p].n_backpack, units);
    return can_pay_units(g, s, p, units, n, 0);
}

/* payments.haves_ok */
TK_INLINE int owns(const TGame* g, const TPlayer* me, uint64_t alts) {
    for (int f = 0; f < N_FOODS; f++) {
        if (!((alts >> f) & 1)) continue;
        if (me->food[f] > 0 || (f != F_TEA && me->food[F_TEA] > 0)) return 1;
    }
    if ((alts & ALT_FOOD_ANY) && food_total(me)) return 1;
    for (int i = 0; i < me->n_backpack; i++) if (item_matches(g, alts, me->backpack[i])) return 1;
    return 0;
}

TK_INLINE int haves_ok(const TGame* g, const TState* s, int p, int cost) {
    if (cost == NO_NODE) return 1;
    const TCost* c = &g->costs[cost];
    for (int i = 0; i < c->count; i++) {
        const TTerm* t = &g->terms[c->first + i];
        if (t->have && !owns(g, &s->players[p], t->alts)) return 0;
    }
    return 1;
}

/* -- conditions ---------------------------------------------------------------------------- */
TK_INLINE int paw_locations(const TGame* g, const TState* s, int p, uint8_t* out) {
    const TPlayer* me = &s->players[p];
    int n = 0;
    for (int i = 0; i < me->n_placed; i++) if (me->placed_target[i] < PT_ENC) out[n++] = me->placed_target[i];
    (void)g;
    return n;
}

TK_INLINE int condition_ok(const TGame* g, const TState* s, int p, const TCond* cond) {
    const TPlayer* me = &s->players[p];
    int pos = me->space, arg = cond->arg;
    uint8_t locs[TK_PAWS], other[TK_PAWS];
    switch (cond->key) {
    case C_AT:
        if (pos == TK_NONE) return 0;
        if (arg == AT_CAMPSITE) return g->space_campsite[pos] >= 0;
        if (arg == AT_TUNNEL) return tunnel_is_open(g, s, pos);
        if (arg == AT_LOCATION) return g->space_slot[pos] >= 0;
        return location_type(g, s, pos) == arg;
    case C_COMPANY:
        return company_mask(s, p, arg) != 0;
    case C_MORALITY:
        return morality_side(s, p) == (arg ? 1 : -1);
    case C_PAWS: {
        int n = paw_locations(g, s, p, locs), quarters = 0, types = 0;
        for (int i = 0; i < n; i++) {
            quarters |= 1 << g->space_quarter[locs[i]];
            types |= 1 << (location_type(g, s, locs[i]) + 1);
        }
        if (arg == 0) return quarters == 15;                                   /* corners */
        if (arg == 1) return (quarters & 9) == 9 || (quarters & 6) == 6;       /* diagonal */
        return popcount8((unsigned)types) >= 4;                                /* four_types */
    }
    case C_TRACKER: {
        int n = paw_locations(g, s, p, locs);
        for (int q = 0; q < s->player_count; q++) {
            if (q == p) continue;
            int m = paw_locations(g, s, q, other), shared = 0;
            for (int i = 0; i < n; i++) {
                int dup = 0;
                for (int j = 0; j < i; j++) dup |= locs[j] == locs[i];
                if (dup) continue;
                for (int j = 0; j < m; j++) if (other[j] == locs[i]) { shared++; break; }
            }
            if (shared >= arg) return 1;
        }
        return 0;
    }
    case C_NO_TUNNEL:
        return pos != TK_NONE && !g->space_printed_tunnel[pos] && !bit_get(s->tunnel_open, pos) &&
               !bit_get(s->tunnel_collapsed, pos);
    case C_STORY_EVIL: {
        uint8_t story[TK_MAX_CARDS];
        int n = zone_cards(g, s, Z_STORY, p, story), count = 0;
        for (int i = 0; i < n; i++) count += s->cards[story[i]].faceup && g->card_symbols[story[i]][SYM_EVIL];
        return count >= arg;
    }
    }
    return 0;
}

TK_INLINE int conditions_ok(const TGame* g, const TState* s, int p, int first, int count) {
    for (int i = 0; i < count; i++) if (!condition_ok(g, s, p, &g->conds[first + i])) return 0;
    return 1;
}

/* conditions.open_to for an option of a choose */
TK_INLINE int option_open(const TGame* g, const TState* s, int p, const TOption* o) {
    return conditions_ok(g, s, p, o->cond_first, o->cond_count) && haves_ok(g, s, p, o->cost) &&
           can_pay_cost(g, s, p, o->cost);
}

/* conditions.playable */
TK_INLINE int playable(const TGame* g, const TState* s, int p, int c) {
    return conditions_ok(g, s, p, g->card_cond_first[c], g->card_cond_count[c]) &&
           haves_ok(g, s, p, g->card_cost[c]) && can_pay_cost(g, s, p, g->card_cost[c]);
}

/* Push the payment of a cost (nothing when it has no unit). */
TK_INLINE void push_pay(const TGame* g, TState* s, int p, int cost, int card_worth) {
    uint16_t units[TK_UNITS];
    int reps = s->players[p].n_backpack;
    if (units_of(g, cost, reps, units) == 0) return;
    TFrame* f = push(s, K_PAY, p);
    f->node = (uint16_t)cost;
    f->v[0] = (uint8_t)(cost_has_per_item(g, cost) ? reps : 0);
    f->v[1] = 0;
    f->v[2] = (uint8_t)card_worth;
}

#endif
