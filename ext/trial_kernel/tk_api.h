/* The engine's entry points: the initial state, scoring and the heuristic (scoring.py,
 * rules.TrialState.heuristic), and the KernelVTable's functions (ext/state.pxd). */
#ifndef TK_API_H
#define TK_API_H

#include <math.h>
#include "tk_apply.h"

/* -- fame (scoring.fame) --------------------------------------------------------------------- */
TK_INLINE int fame_total(const TGame* g, const TState* s, int p) {
    const TPlayer* me = &s->players[p];
    int total = 0;
    uint8_t story[TK_MAX_CARDS];
    int n = zone_cards(g, s, Z_STORY, p, story);
    for (int i = 0; i < n; i++) if (s->cards[story[i]].faceup) total += g->card_fame[story[i]];
    for (int i = 0; i < me->n_backpack; i++) total += g->kind_fame[me->backpack[i]];
    for (int i = 0; i < me->n_gallery; i++) total += g->kind_fame[me->gallery[i]];
    for (int a = 0; a < g->n_areas; a++) if (me->flags[a] != TK_NONE) total += g->space_finish[me->flags[a]];
    total += g->morality_fame[me->morality - g->morality_min];
    for (int t = 0; t < g->n_legendary; t++) if (s->legendary[t] == p) total += g->legendary_fame[t];
    if (s->first_player == p) total += g->first_player_fame;
    return total;
}

TK_INLINE int story_count(const TGame* g, const TState* s, int p) { return zone_count(g, s, Z_STORY, p); }

/* scoring.winners as a bit set */
TK_INLINE int winners(const TGame* g, const TState* s) {
    int best_f = -1000000, best_n = -1, m = 0;
    for (int p = 0; p < s->player_count; p++) {
        int f = fame_total(g, s, p), n = story_count(g, s, p);
        if (f > best_f || (f == best_f && n > best_n)) { best_f = f; best_n = n; m = 1 << p; }
        else if (f == best_f && n == best_n) m |= 1 << p;
    }
    return m;
}

static void tk_returns_into(const TGame* g, const TState* s, double* out) {
    int n = s->player_count;
    if (s->depth) { for (int p = 0; p < n; p++) out[p] = 0.0; return; }
    int m = winners(g, s), k = popcount8((unsigned)m);
    for (int p = 0; p < n; p++) out[p] = ((m >> p) & 1) ? 1.0 / (double)k : 0.0;
}

#define HEURISTIC_SPREAD 4.0

static double tk_heuristic_of(const TGame* g, const TState* s, int p) {
    double out[TK_MAX_PLAYERS];
    if (!s->depth) { tk_returns_into(g, s, out); return out[p]; }
    int totals[TK_MAX_PLAYERS], top = -1000000;
    for (int q = 0; q < s->player_count; q++) {
        totals[q] = fame_total(g, s, q);
        if (totals[q] > top) top = totals[q];
    }
    double w[TK_MAX_PLAYERS], sum = 0.0;
    for (int q = 0; q < s->player_count; q++) {
        w[q] = exp((double)(totals[q] - top) / HEURISTIC_SPREAD);
        sum += w[q];
    }
    return w[p] / sum;
}

/* -- the initial state (setup.initial_data, then the set-up queued and settled) -------------- */
static void tk_initial(const TGame* g, TState* s) {
    memset(s, 0, sizeof *s);
    int n = g->n_players;
    s->player_count = (uint8_t)n;
    s->day = 1;
    s->turn_player = TK_NONE;
    s->tunnel_tokens = (uint8_t)g->tunnel_tokens;
    s->seq = 1;
    s->kseq = 1;
    for (int f = 0; f < N_FOODS; f++) s->tray[f] = (uint16_t)g->food_per_kind;
    for (int p = 0; p < n; p++) {
        TPlayer* me = &s->players[p];
        me->space = TK_NONE;
        for (int f = 0; f < N_FOODS; f++) {
            me->food[f] = (uint16_t)g->start_food[f];
            s->tray[f] -= (uint16_t)g->start_food[f];
        }
        me->paws = (uint8_t)(g->paws - 1);
        me->strong_paw = 1;
        memset(me->flags, TK_NONE, sizeof me->flags);
    }
    s->has_setup_pool = 1;
    s->n_common = (uint8_t)g->n_commons;
    s->n_rare = (uint8_t)g->n_rares;
    memcpy(s->common, g->commons_init, sizeof s->common);
    memcpy(s->rare, g->rares_init, sizeof s->rare);
    memset(s->tiles, TK_NONE, sizeof s->tiles);
    for (int i = 0; i < TK_CELLS; i++) s->store_kind[i] = TK_NONE;
    s->n_box_tents = (uint8_t)g->n_tents;
    memcpy(s->box_tents, g->tent_bonus, sizeof s->box_tents);
    s->n_available = (uint8_t)g->n_artifacts;
    memcpy(s->available, g->artifact_order, sizeof s->available);
    for (int d = 0; d < TK_DECKS; d++) {
        s->decks[d].top = TK_NONE;
        s->decks[d].next_layer = 1;
    }
    for (int c = 0; c < g->n_cards; c++) card_put(s, c, Z_DECK, g->card_deck[c], 0);
    memset(s->row, TK_NONE, sizeof s->row);
    memset(s->camp_tent, TK_NONE, sizeof s->camp_tent);
    memset(s->camp_owner, TK_NONE, sizeof s->camp_owner);
    memset(s->legendary, TK_NONE, sizeof s->legendary);
    s->fight.winner = TK_NONE;
    push(s, K_SETUP, -1);
    settle(g, s, NULL);
}

/* -- legal actions and outcomes, sorted and without repeats ---------------------------------- */
TK_INLINE int sort_unique(int* a, int n) {
    for (int i = 1; i < n; i++) {
        int x = a[i], j = i - 1;
        while (j >= 0 && a[j] > x) { a[j + 1] = a[j]; j--; }
        a[j + 1] = x;
    }
    int m = 0;
    for (int i = 0; i < n; i++) if (m == 0 || a[m - 1] != a[i]) a[m++] = a[i];
    return m;
}

static int tk_legal(const TGame* g, const TState* s, int* out) {
    const TFrame* f = s->depth ? &s->stack[s->depth - 1] : NULL;
    if (!f) return 0;
    if (KIND_TYPE[f->kind] == KT_CHANCE) {
        double probs[TK_MAX_CARDS * 2];
        return outcomes_of(g, s, f, out, probs);
    }
    return sort_unique(out, legal_of(g, s, f, out));
}

static int tk_chance(const TGame* g, const TState* s, int* acts, double* probs) {
    const TFrame* f = s->depth ? &s->stack[s->depth - 1] : NULL;
    if (!f || KIND_TYPE[f->kind] != KT_CHANCE) return 0;
    return outcomes_of(g, s, f, acts, probs);
}

TK_INLINE int tk_is_legal(const TGame* g, const TState* s, int a) {
    int acts[TK_MAX_CARDS * 4];
    int n = tk_legal(g, s, acts);
    for (int i = 0; i < n; i++) if (acts[i] == a) return 1;
    return 0;
}

/* A 64-bit hash of the state's bytes (the frames in play only). */
static uint64_t tk_hash_state(const TState* s) {
    size_t n = offsetof(TState, stack) + (size_t)s->depth * sizeof(TFrame);
    const unsigned char* b = (const unsigned char*)s;
    uint64_t h = 0x243F6A8885A308D3ull;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = tk_mix(h ^ w);
    }
    for (; i < n; i++) h = tk_mix(h ^ b[i]);
    return h;
}

#endif
